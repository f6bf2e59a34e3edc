# Resolves NOVAMD_ENABLE_CUDA and NOVAMD_ENABLE_MPI (AUTO | ON | OFF) into
# NOVAMD_HAVE_CUDA and NOVAMD_HAVE_MPI; NOVAMD_HAVE_NCCL where both are on and NCCL is found.

foreach(opt NOVAMD_ENABLE_CUDA NOVAMD_ENABLE_MPI)
  string(TOUPPER "${${opt}}" value)
  if(NOT value MATCHES "^(AUTO|ON|OFF)$")
    message(FATAL_ERROR "${opt} must be AUTO, ON or OFF (got '${${opt}}')")
  endif()
  set(${opt} ${value})
endforeach()

set(NOVAMD_HAVE_CUDA OFF)
if(NOT NOVAMD_ENABLE_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    enable_language(CUDA)
    # C++20 for device code too. CMake before 3.26 does not know nvcc's C++20 flag: tell it.
    if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(NOVAMD_HAVE_CUDA ON)
  elseif(NOVAMD_ENABLE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "NOVAMD_ENABLE_CUDA=ON but no CUDA compiler was found")
  endif()
endif()

# An MPI runtime without its development files (Open MPI's wrappers installed by a package such
# as Debian's lammps, without libopenmpi-dev) names include folders that do not exist, and
# FindMPI's test project then stops the configuration. AUTO checks the wrapper's folders first
# and goes without MPI in that case.
function(novamd_mpi_headers_missing result)
  set(${result} FALSE PARENT_SCOPE)
  find_program(NOVAMD_MPICXX NAMES mpicxx mpic++)
  if(NOVAMD_MPICXX)
    execute_process(COMMAND ${NOVAMD_MPICXX} --showme:incdirs OUTPUT_VARIABLE dirs
                    ERROR_QUIET RESULT_VARIABLE failed OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT failed AND dirs)
      separate_arguments(dirs)
      set(found FALSE)
      foreach(dir IN LISTS dirs)
        if(EXISTS "${dir}/mpi.h")
          set(found TRUE)
        endif()
      endforeach()
      if(NOT found)
        set(${result} TRUE PARENT_SCOPE)
      endif()
    endif()
  endif()
endfunction()

set(NOVAMD_HAVE_MPI OFF)
set(novamd_skip_mpi FALSE)
if(NOVAMD_ENABLE_MPI STREQUAL "AUTO")
  novamd_mpi_headers_missing(novamd_skip_mpi)
  if(novamd_skip_mpi)
    message(STATUS "NovaMD: MPI compiler wrapper found without mpi.h; building without MPI "
                   "(apt-get install libopenmpi-dev to use it)")
  endif()
endif()
if(NOT NOVAMD_ENABLE_MPI STREQUAL "OFF" AND NOT novamd_skip_mpi)
  find_package(MPI COMPONENTS CXX QUIET)
  if(MPI_CXX_FOUND)
    set(NOVAMD_HAVE_MPI ON)
  elseif(NOVAMD_ENABLE_MPI STREQUAL "ON")
    message(FATAL_ERROR "NOVAMD_ENABLE_MPI=ON but MPI was not found (apt-get install libopenmpi-dev)")
  endif()
endif()

# NCCL, for the CUDA backend under MPI (one rank per GPU): part of the CUDA+MPI build where the
# toolkit (or a Debian libnccl-dev) has it. Without it, a decomposed run needs --backend cpu.
set(NOVAMD_HAVE_NCCL OFF)
if(NOVAMD_HAVE_CUDA AND NOVAMD_HAVE_MPI)
  find_path(NOVAMD_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS} ENV NCCL_ROOT
            PATH_SUFFIXES include DOC "NCCL header (CUDA toolkit or libnccl-dev)")
  find_library(NOVAMD_NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR} ENV NCCL_ROOT
               PATH_SUFFIXES lib lib64 DOC "NCCL library (CUDA toolkit or libnccl2)")
  if(NOVAMD_NCCL_INCLUDE_DIR AND NOVAMD_NCCL_LIBRARY)
    set(NOVAMD_HAVE_NCCL ON)
  endif()
endif()

message(STATUS "NovaMD: CUDA backend ${NOVAMD_HAVE_CUDA}, MPI ${NOVAMD_HAVE_MPI}, "
               "NCCL ${NOVAMD_HAVE_NCCL}")

# HDF5, for the H5MD trajectory writer: NOVAMD_ENABLE_HDF5 (AUTO | ON | OFF) into NOVAMD_HAVE_HDF5.
string(TOUPPER "${NOVAMD_ENABLE_HDF5}" NOVAMD_ENABLE_HDF5)
if(NOT NOVAMD_ENABLE_HDF5 MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "NOVAMD_ENABLE_HDF5 must be AUTO, ON or OFF (got '${NOVAMD_ENABLE_HDF5}')")
endif()
set(NOVAMD_HAVE_HDF5 OFF)
if(NOT NOVAMD_ENABLE_HDF5 STREQUAL "OFF")
  include(CheckLanguage)
  check_language(C)  # FindHDF5 test-compiles a C program
  if(CMAKE_C_COMPILER)
    enable_language(C)
    find_package(HDF5 COMPONENTS C QUIET)
  endif()
  if(HDF5_FOUND AND TARGET hdf5::hdf5)
    set(NOVAMD_HAVE_HDF5 ON)
  elseif(NOVAMD_ENABLE_HDF5 STREQUAL "ON")
    message(FATAL_ERROR "NOVAMD_ENABLE_HDF5=ON but HDF5 was not found (apt-get install libhdf5-dev)")
  endif()
endif()
message(STATUS "NovaMD: HDF5 (H5MD trajectories) ${NOVAMD_HAVE_HDF5}")
