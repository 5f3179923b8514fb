# One golden test of the command line itself, run as a CMake script:
#
#   cmake -DEXE=<path to grundy> -DCASE=<path to NAME.args> -P RunCli.cmake
#
# NAME.args holds the arguments, one per line, given to grundy as they are (no shell: a
# line `[1 2]` is one argument). The run is in the case's folder with an empty standard
# input; stdout is compared with NAME.out, stderr with NAME.err and the exit code with
# NAME.exit (each absent: empty, empty, 0), as RunGolden.cmake does.
# Optional:
#   NAME.stdout   a path that standard output goes to instead (e.g. /dev/full); there is
#                 no NAME.out then.
#   NAME.timeout  seconds after which the run is stopped, for a program that runs on: what
#                 it printed before is compared, and the exit code is written 124 (as the
#                 `timeout` command has it).
# GRUNDY_UPDATE_GOLDEN=1 writes the expectations instead; review the diff before committing.
cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/GoldenCheck.cmake")

foreach(var EXE CASE)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "RunCli.cmake: missing -D${var}=...")
  endif()
endforeach()

get_filename_component(dir "${CASE}" DIRECTORY)
get_filename_component(name "${CASE}" NAME_WLE)
set(base "${dir}/${name}")

# One argument per line; CMake lists split at ';', so read the lines one by one.
file(STRINGS "${CASE}" lines)
set(args "")
foreach(line IN LISTS lines)
  list(APPEND args "${line}")
endforeach()

set(timeout 50)
set(stopped_expected OFF)
if(EXISTS "${base}.timeout")
  file(READ "${base}.timeout" timeout)
  string(STRIP "${timeout}" timeout)
  set(stopped_expected ON)
endif()

if(EXISTS "${base}.stdout")
  file(READ "${base}.stdout" target)
  string(STRIP "${target}" target)
  execute_process(
    COMMAND "${EXE}" ${args}
    WORKING_DIRECTORY "${dir}"
    INPUT_FILE /dev/null
    OUTPUT_FILE "${target}"
    ERROR_VARIABLE err RESULT_VARIABLE code
    TIMEOUT ${timeout})
  set(out "")
else()
  execute_process(
    COMMAND "${EXE}" ${args}
    WORKING_DIRECTORY "${dir}"
    INPUT_FILE /dev/null
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code
    TIMEOUT ${timeout})
endif()

if(stopped_expected AND NOT code MATCHES "^-?[0-9]+$")
  set(code 124)
endif()

golden_check("${CASE}" "${base}" out err "${out}" "${err}" "${code}")
