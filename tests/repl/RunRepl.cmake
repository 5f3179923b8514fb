# One golden test of the REPL without a terminal, run as a CMake script:
#
#   cmake -DEXE=<path to grundy> -DCASE=<path to NAME.in or NAME.cmd> -P RunRepl.cmake
#
# NAME.in goes to `grundy repl` on standard input; the text of NAME.cmd is passed whole as
# `grundy repl -c TEXT` (standard input is then empty). Runs in the case's folder, then
# compares stdout with NAME.out, stderr with NAME.err and the exit code with NAME.exit
# (each absent: empty, empty, 0). With GRUNDY_UPDATE_GOLDEN=1 in the environment it writes
# them instead; review the diff before committing.
cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/GoldenCheck.cmake")

foreach(var EXE CASE)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "RunRepl.cmake: missing -D${var}=...")
  endif()
endforeach()

get_filename_component(dir "${CASE}" DIRECTORY)
get_filename_component(name "${CASE}" NAME_WLE)
get_filename_component(ext "${CASE}" LAST_EXT)
set(base "${dir}/${name}")

if(ext STREQUAL ".cmd")
  file(READ "${CASE}" text)
  execute_process(
    COMMAND "${EXE}" repl -c "${text}"
    WORKING_DIRECTORY "${dir}"
    INPUT_FILE /dev/null
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code
    TIMEOUT 50)
else()
  execute_process(
    COMMAND "${EXE}" repl
    WORKING_DIRECTORY "${dir}"
    INPUT_FILE "${CASE}"
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code
    TIMEOUT 50)
endif()

golden_check("${CASE}" "${base}" out err "${out}" "${err}" "${code}")
