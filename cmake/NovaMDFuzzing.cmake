# The libFuzzer targets of fuzz/ (NOVAMD_ENABLE_FUZZING: AUTO | ON | OFF), built with clang++
# as a project of their own (ExternalProject) inside this build: build/fuzz/fuzz_<target>.
# AUTO builds them where clang++ links a program with -fsanitize=fuzzer,address,undefined
# (Debian/Ubuntu: clang and libclang-rt-dev) and the tests are built; ON insists. Sets NOVAMD_HAVE_FUZZING,
# NOVAMD_FUZZ_BINARY_DIR and NOVAMD_FUZZ_TARGETS for tests/CMakeLists.txt.

set(NOVAMD_FUZZ_TARGETS config xyz checkpoint checkpoint_content lammps_data amber)
set(NOVAMD_FUZZ_BINARY_DIR ${CMAKE_BINARY_DIR}/fuzz)

string(TOUPPER "${NOVAMD_ENABLE_FUZZING}" NOVAMD_ENABLE_FUZZING)
if(NOT NOVAMD_ENABLE_FUZZING MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "NOVAMD_ENABLE_FUZZING must be AUTO, ON or OFF (got '${NOVAMD_ENABLE_FUZZING}')")
endif()

# Whether `compiler` links a libFuzzer target with ASan and UBSan; cached once it does.
function(novamd_fuzzer_links compiler result)
  if(NOVAMD_FUZZ_PROBED_COMPILER STREQUAL compiler)
    set(${result} TRUE PARENT_SCOPE)
    return()
  endif()
  set(dir ${CMAKE_BINARY_DIR}/CMakeFiles/novamd_fuzz_probe)
  file(WRITE ${dir}/probe.cpp
       "#include <cstddef>\n#include <cstdint>\n"
       "extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n")
  execute_process(COMMAND ${compiler} -fsanitize=fuzzer,address,undefined probe.cpp -o probe
                  WORKING_DIRECTORY ${dir} RESULT_VARIABLE failed OUTPUT_QUIET ERROR_QUIET)
  if(failed)
    set(${result} FALSE PARENT_SCOPE)
  else()
    set(NOVAMD_FUZZ_PROBED_COMPILER ${compiler} CACHE INTERNAL "clang++ that links libFuzzer")
    set(${result} TRUE PARENT_SCOPE)
  endif()
endfunction()

set(NOVAMD_HAVE_FUZZING OFF)
if(NOVAMD_ENABLE_FUZZING STREQUAL "ON" OR (NOVAMD_ENABLE_FUZZING STREQUAL "AUTO" AND NOVAMD_BUILD_TESTS))
  find_program(NOVAMD_FUZZ_CXX NAMES clang++ clang++-19 clang++-18 clang++-17 clang++-16
               clang++-15 clang++-14 DOC "clang++ for the libFuzzer targets")
  set(links FALSE)
  if(NOVAMD_FUZZ_CXX)
    novamd_fuzzer_links(${NOVAMD_FUZZ_CXX} links)
  endif()
  if(links)
    set(NOVAMD_HAVE_FUZZING ON)
  elseif(NOVAMD_ENABLE_FUZZING STREQUAL "ON")
    message(FATAL_ERROR "NOVAMD_ENABLE_FUZZING=ON but no clang++ links -fsanitize=fuzzer "
                        "(apt-get install clang libclang-rt-dev)")
  endif()
endif()
message(STATUS "NovaMD: fuzz targets (libFuzzer) ${NOVAMD_HAVE_FUZZING}")

if(NOVAMD_HAVE_FUZZING)
  include(ExternalProject)
  set(fuzz_args -DCMAKE_CXX_COMPILER=${NOVAMD_FUZZ_CXX})
  if(CMAKE_CXX_COMPILER_LAUNCHER)
    list(APPEND fuzz_args -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
  endif()
  # Always run the sub-build's own make: it rebuilds what changed in src/ and fuzz/.
  ExternalProject_Add(novamd_fuzz
    SOURCE_DIR ${CMAKE_SOURCE_DIR}/fuzz
    BINARY_DIR ${NOVAMD_FUZZ_BINARY_DIR}
    CMAKE_ARGS ${fuzz_args}
    BUILD_ALWAYS TRUE
    INSTALL_COMMAND "")
endif()
