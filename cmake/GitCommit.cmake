# Writes ${OUTPUT} with the current git commit, at build time, touching it only when the commit
# changed (so that `novamd --version` names the commit it was built from without rebuilding
# everything on every build). Run as: cmake -DSOURCE_DIR=... -DOUTPUT=... -P GitCommit.cmake
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT commit)
  set(commit unknown)
elseif(dirty)
  set(commit "${commit}-modified")
endif()
set(text "#pragma once\n#define NOVAMD_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUTPUT} "${text}")
endif()
