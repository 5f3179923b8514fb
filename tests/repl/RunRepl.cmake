# One golden test of the REPL without a terminal, run as a CMake script:
#
#   cmake -DEXE=<path to grundy> -DCASE=<path to NAME.in or NAME.cmd> -P RunRepl.cmake
#
# NAME.in goes to `grundy repl` on standard input; the text of NAME.cmd is passed whole as
# `grundy repl -c TEXT` (standard input is then empty). Runs in the case's folder, then
# compares stdout with NAME.out, stderr with NAME.err (absent: must be empty) and the exit
# code with NAME.exit (absent: 0). With GRUNDY_UPDATE_GOLDEN=1 in the environment it writes
# them instead; review the diff before committing.
cmake_minimum_required(VERSION 3.20)

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

if(NOT code MATCHES "^-?[0-9]+$")
  message(FATAL_ERROR "repl golden ${name}: grundy did not exit normally: ${code}\n"
                      "--- stdout ---\n${out}\n--- stderr ---\n${err}")
endif()

if("$ENV{GRUNDY_UPDATE_GOLDEN}" MATCHES "^(1|ON|on|YES|yes|TRUE|true)$")
  file(WRITE "${base}.out" "${out}")
  if(err STREQUAL "")
    file(REMOVE "${base}.err")
  else()
    file(WRITE "${base}.err" "${err}")
  endif()
  if(code EQUAL 0)
    file(REMOVE "${base}.exit")
  else()
    file(WRITE "${base}.exit" "${code}\n")
  endif()
  message("repl golden ${name}: expectations written (exit ${code})")
  return()
endif()

if(NOT EXISTS "${base}.out")
  message(FATAL_ERROR "repl golden ${name}: missing ${name}.out (GRUNDY_UPDATE_GOLDEN=1 writes it)")
endif()
file(READ "${base}.out" want_out)
set(want_err "")
if(EXISTS "${base}.err")
  file(READ "${base}.err" want_err)
endif()
set(want_code 0)
if(EXISTS "${base}.exit")
  file(READ "${base}.exit" want_code)
  string(STRIP "${want_code}" want_code)
endif()

set(report "")
if(NOT out STREQUAL want_out)
  string(APPEND report "--- stdout, expected (${name}.out) ---\n${want_out}\n--- stdout, actual ---\n${out}\n")
endif()
if(NOT err STREQUAL want_err)
  string(APPEND report "--- stderr, expected (${name}.err) ---\n${want_err}\n--- stderr, actual ---\n${err}\n")
endif()
if(NOT code EQUAL want_code)
  string(APPEND report "exit code: expected ${want_code}, actual ${code}\n")
endif()
if(NOT report STREQUAL "")
  message("repl golden ${CASE}:\n${report}"
          "(to accept the new output: GRUNDY_UPDATE_GOLDEN=1 ctest -R repl.golden, then review)")
  message(FATAL_ERROR "repl golden test ${name} failed")
endif()
