# One golden test, run as a CMake script (no Python needed):
#
#   cmake -DEXE=<path to grundy> -DSRC=<path to NAME.game> -P RunGolden.cmake
#
# Runs `grundy run NAME.game` with the working directory set to the file's folder, then
# compares
#   stdout     with NAME.expected (must exist; compared byte for byte),
#   stderr     with NAME.stderr   (when absent, stderr must be empty),
#   exit code  with NAME.exit     (an integer; when absent, 0).
# When NAME.flags exists, its words are options given before `run` (e.g. --max-states 100),
# so that a test can hit a limit quickly.
# On a mismatch it prints each difference (expected against actual, around the first line
# that differs) and fails.
#
# Regenerating expectations: with GRUNDY_UPDATE_GOLDEN=1 in the environment (or
# -DUPDATE=ON) the script writes NAME.expected from stdout, NAME.stderr from stderr (removed
# when empty) and NAME.exit from the exit code (removed when 0) instead of comparing, e.g.
#   GRUNDY_UPDATE_GOLDEN=1 ctest --test-dir build -R golden
# Review the diff before committing.
cmake_minimum_required(VERSION 3.20)

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

set(update OFF)
if(UPDATE OR "$ENV{GRUNDY_UPDATE_GOLDEN}" MATCHES "^(1|ON|on|YES|yes|TRUE|true)$")
  set(update ON)
endif()

if(NOT DEFINED TIMEOUT)
  set(TIMEOUT 100)
endif()

set(flags "")
if(EXISTS "${base}.flags")
  file(READ "${base}.flags" flags)
  string(STRIP "${flags}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
endif()

execute_process(
  COMMAND "${EXE}" ${flags} run "${file}"
  WORKING_DIRECTORY "${dir}"
  OUTPUT_VARIABLE actual_out
  ERROR_VARIABLE actual_err
  RESULT_VARIABLE actual_exit
  TIMEOUT ${TIMEOUT})

# A crash or a timeout leaves a text in RESULT_VARIABLE instead of a number.
if(NOT actual_exit MATCHES "^-?[0-9]+$")
  message("golden ${file}: grundy did not exit normally: ${actual_exit}\n"
          "--- stdout ---\n${actual_out}\n--- stderr ---\n${actual_err}")
  message(FATAL_ERROR "golden test ${file} failed: ${actual_exit}")
endif()

if(update)
  file(WRITE "${base}.expected" "${actual_out}")
  if(actual_err STREQUAL "")
    file(REMOVE "${base}.stderr")
  else()
    file(WRITE "${base}.stderr" "${actual_err}")
  endif()
  if(actual_exit EQUAL 0)
    file(REMOVE "${base}.exit")
  else()
    file(WRITE "${base}.exit" "${actual_exit}\n")
  endif()
  message("golden ${file}: expectations written (exit ${actual_exit})")
  return()
endif()

# --- expectations ---------------------------------------------------------------------------
if(NOT EXISTS "${base}.expected")
  message(FATAL_ERROR "golden ${file}: missing ${name}.expected beside it "
                      "(GRUNDY_UPDATE_GOLDEN=1 writes it from the current output)")
endif()
file(READ "${base}.expected" expected_out)
set(expected_err "")
set(err_source "(no ${name}.stderr: stderr must be empty)")
if(EXISTS "${base}.stderr")
  file(READ "${base}.stderr" expected_err)
  set(err_source "${name}.stderr")
endif()
set(expected_exit 0)
if(EXISTS "${base}.exit")
  file(READ "${base}.exit" expected_exit)
  string(STRIP "${expected_exit}" expected_exit)
  if(NOT expected_exit MATCHES "^-?[0-9]+$")
    message(FATAL_ERROR "golden ${file}: ${name}.exit must hold an integer, not '${expected_exit}'")
  endif()
endif()

# --- reporting ------------------------------------------------------------------------------
# The lines of `text` from `from` to `to` (1-based, inclusive), each prefixed with its number,
# with `mark` before line `marked`. Works on the raw string, not on a CMake list, so ';',
# '[' and ']' in the output need no escaping.
function(golden_excerpt text from to marked out_var)
  set(result "")
  set(rest "${text}")
  set(n 1)
  while(n LESS_EQUAL to)
    if(rest STREQUAL "")
      break()
    endif()
    string(FIND "${rest}" "\n" nl)
    if(nl EQUAL -1)
      set(line "${rest}")
      set(rest "")
      set(tail "   (no newline at end)")
    else()
      string(SUBSTRING "${rest}" 0 ${nl} line)
      math(EXPR after "${nl} + 1")
      string(SUBSTRING "${rest}" ${after} -1 rest)
      set(tail "")
    endif()
    if(n GREATER_EQUAL from)
      set(prefix "     ")
      if(n EQUAL marked)
        set(prefix "  >  ")
      endif()
      string(APPEND result "${prefix}${n} | ${line}${tail}\n")
    endif()
    math(EXPR n "${n} + 1")
  endwhile()
  if(result STREQUAL "")
    set(result "     (empty)\n")
  endif()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

# Line count and the first line (1-based) where `a` and `b` differ.
function(golden_first_difference a b out_var)
  set(n 1)
  while(TRUE)
    string(FIND "${a}" "\n" na)
    string(FIND "${b}" "\n" nb)
    if(na EQUAL -1 OR nb EQUAL -1)
      break()  # the last line of one of them: the difference is here
    endif()
    string(SUBSTRING "${a}" 0 ${na} la)
    string(SUBSTRING "${b}" 0 ${nb} lb)
    if(NOT la STREQUAL lb)
      break()
    endif()
    math(EXPR na "${na} + 1")
    math(EXPR nb "${nb} + 1")
    string(SUBSTRING "${a}" ${na} -1 a)
    string(SUBSTRING "${b}" ${nb} -1 b)
    math(EXPR n "${n} + 1")
  endwhile()
  set(${out_var} ${n} PARENT_SCOPE)
endfunction()

set(report "")
function(golden_compare what expected_text actual_text source)
  if(expected_text STREQUAL actual_text)
    return()
  endif()
  golden_first_difference("${expected_text}" "${actual_text}" line)
  math(EXPR from "${line} - 5")
  if(from LESS 1)
    set(from 1)
  endif()
  math(EXPR to "${line} + 5")
  golden_excerpt("${expected_text}" ${from} ${to} ${line} exp)
  golden_excerpt("${actual_text}" ${from} ${to} ${line} act)
  string(APPEND report
    "${what} differs, first at line ${line}\n"
    "  expected, ${source}:\n${exp}"
    "  actual:\n${act}")
  set(report "${report}" PARENT_SCOPE)
endfunction()

golden_compare("stdout" "${expected_out}" "${actual_out}" "${name}.expected")
golden_compare("stderr" "${expected_err}" "${actual_err}" "${err_source}")
if(NOT actual_exit EQUAL expected_exit)
  set(exit_source "${name}.exit")
  if(NOT EXISTS "${base}.exit")
    set(exit_source "no ${name}.exit")
  endif()
  string(APPEND report "exit code differs: expected ${expected_exit} (${exit_source}), actual ${actual_exit}\n")
endif()

if(NOT report STREQUAL "")
  message("golden ${SRC}:\n${report}"
          "(to accept the new output: GRUNDY_UPDATE_GOLDEN=1 ctest -R golden, then review)")
  message(FATAL_ERROR "golden test ${file} failed")
endif()
