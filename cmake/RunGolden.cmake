# One golden test, run as a CMake script (no Python needed):
#
#   cmake -DEXE=<path to grundy> -DSRC=<path to NAME.game> -P RunGolden.cmake
#
# Runs `grundy run NAME.game` with the working directory set to the file's folder, then
# compares
#   stdout     with NAME.expected (compared byte for byte; when absent, stdout must be empty),
#   stderr     with NAME.stderr   (when absent, stderr must be empty),
#   exit code  with NAME.exit     (an integer; when absent, 0).
# When NAME.flags exists, its words are options given before `run` (e.g. --max-states 100),
# so that a test can hit a limit quickly. When NAME.command exists, its word is the
# subcommand instead of `run` (e.g. check).
# On a mismatch it prints each difference (expected against actual, around the first line
# that differs) and fails.
#
# Regenerating expectations: with GRUNDY_UPDATE_GOLDEN=1 in the environment (or
# -DUPDATE=ON) the script writes NAME.expected from stdout and NAME.stderr from stderr (each
# removed when empty) and NAME.exit from the exit code (removed when 0) instead of
# comparing, e.g.
#   GRUNDY_UPDATE_GOLDEN=1 ctest --test-dir build -R golden
# Review the diff before committing.
cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/GoldenCheck.cmake")

foreach(var EXE SRC)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "RunGolden.cmake: missing -D${var}=...")
  endif()
endforeach()
if(NOT EXISTS "${SRC}")
  message(FATAL_ERROR "RunGolden.cmake: no such file: ${SRC}")
endif()

get_filename_component(dir "${SRC}" DIRECTORY)
get_filename_component(file "${SRC}" NAME)
get_filename_component(name "${SRC}" NAME_WLE)
set(base "${dir}/${name}")

if(NOT DEFINED TIMEOUT)
  set(TIMEOUT 100)
endif()

set(flags "")
if(EXISTS "${base}.flags")
  file(READ "${base}.flags" flags)
  string(STRIP "${flags}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
endif()

set(command run)
if(EXISTS "${base}.command")
  file(READ "${base}.command" command)
  string(STRIP "${command}" command)
endif()

execute_process(
  COMMAND "${EXE}" ${flags} ${command} "${file}"
  WORKING_DIRECTORY "${dir}"
  OUTPUT_VARIABLE actual_out
  ERROR_VARIABLE actual_err
  RESULT_VARIABLE actual_exit
  TIMEOUT ${TIMEOUT})

golden_check("${SRC}" "${base}" expected stderr "${actual_out}" "${actual_err}" "${actual_exit}")
