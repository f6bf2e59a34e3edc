# Resolves NOVAMD_BUILD_PYTHON (AUTO | ON | OFF) into NOVAMD_HAVE_PYTHON: a Python with its
# development headers (Debian python3-dev) and nanobind (PyPI), whose CMake files the
# interpreter names (`python -m nanobind --cmake_dir`). `pip install .` always builds it;
# scripts/setup.sh --tests passes the interpreter of its environment (Python_EXECUTABLE).

string(TOUPPER "${NOVAMD_BUILD_PYTHON}" novamd_python_request)
if(NOT novamd_python_request MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "NOVAMD_BUILD_PYTHON must be AUTO, ON or OFF (got '${NOVAMD_BUILD_PYTHON}')")
endif()
if(SKBUILD)
  set(novamd_python_request ON)
endif()

set(NOVAMD_HAVE_PYTHON OFF)
if(NOT novamd_python_request STREQUAL "OFF")
  find_package(Python 3.9 COMPONENTS Interpreter Development.Module QUIET)
  if(Python_FOUND)
    execute_process(COMMAND ${Python_EXECUTABLE} -m nanobind --cmake_dir
                    OUTPUT_VARIABLE novamd_nanobind_dir OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE novamd_nanobind_missing ERROR_QUIET)
    if(NOT novamd_nanobind_missing)
      find_package(nanobind CONFIG QUIET HINTS ${novamd_nanobind_dir})
    endif()
  endif()
  if(nanobind_FOUND)
    set(NOVAMD_HAVE_PYTHON ON)
    message(STATUS "NovaMD: the Python package for ${Python_EXECUTABLE} (nanobind ${nanobind_VERSION})")
  elseif(novamd_python_request STREQUAL "ON")
    message(FATAL_ERROR "NOVAMD_BUILD_PYTHON=ON but Python's headers (apt-get install python3-dev) "
                        "or nanobind (pip install nanobind) were not found for '${Python_EXECUTABLE}'")
  else()
    message(STATUS "NovaMD: no Python package (needs python3-dev and nanobind; "
                   "scripts/setup.sh --tests sets them up)")
  endif()
endif()
