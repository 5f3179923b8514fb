# docs/tutorial.md shows every tutorial program exactly as tested:
#
#   cmake -DDOC=<docs/tutorial.md> -DDIR=<tests/tutorial> -P CheckTutorial.cmake
#
# For each DIR/NAME.game, the tutorial must contain the program as a fenced block
# (```\n<file>```\n) and its output NAME.expected as a ```text block. The golden tests
# (tests/CMakeLists.txt) check that each program prints its .expected; this check ties the
# text to them.
# After changing a program, regenerate NAME.expected (GRUNDY_UPDATE_GOLDEN=1) and paste both
# into the tutorial.
cmake_minimum_required(VERSION 3.20)

file(READ "${DOC}" doc)
file(GLOB programs "${DIR}/*.game")
list(SORT programs)
set(failures "")
set(count 0)
foreach(program IN LISTS programs)
  get_filename_component(name "${program}" NAME_WLE)
  get_filename_component(dir "${program}" DIRECTORY)
  file(READ "${program}" source)
  string(FIND "${doc}" "```\n${source}```\n" at)
  if(at EQUAL -1)
    string(APPEND failures "  ${name}.game is not shown verbatim in the tutorial\n")
  endif()
  if(NOT EXISTS "${dir}/${name}.expected")
    string(APPEND failures "  ${name}.expected is missing\n")
  else()
    file(READ "${dir}/${name}.expected" output)
    string(FIND "${doc}" "```text\n${output}```\n" at)
    if(at EQUAL -1)
      string(APPEND failures "  the output of ${name}.game (${name}.expected) is not shown verbatim\n")
    endif()
  endif()
  math(EXPR count "${count} + 1")
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "CheckTutorial: no programs in ${DIR}")
endif()
if(NOT failures STREQUAL "")
  message(FATAL_ERROR "docs/tutorial.md is out of date:\n${failures}")
endif()
message("tutorial: ${count} programs and their outputs shown verbatim")
