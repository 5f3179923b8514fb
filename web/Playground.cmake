# The playground in the native build (included by CMakeLists.txt): when Emscripten, npm and
# Chromium are here (scripts/setup.sh installs them), `cmake --build` also builds web/ with
# web/build.sh into <build>/playground, and ctest runs the golden programs through its
# WebAssembly (web.golden) and the page in a headless Chromium (web.browser).
find_program(GRUNDY_EMCMAKE emcmake)
find_program(GRUNDY_NPM npm)
find_program(GRUNDY_NODE node)
find_program(GRUNDY_CHROMIUM chromium)
set(web_default OFF)
if(GRUNDY_EMCMAKE AND GRUNDY_NPM AND GRUNDY_NODE AND GRUNDY_CHROMIUM AND NOT GRUNDY_SANITIZE AND NOT GRUNDY_FUZZ)
  set(web_default ON)
endif()
option(GRUNDY_WEB "Build the playground (web/) and test it in Chromium" ${web_default})
if(NOT GRUNDY_WEB)
  return()
endif()

set(GRUNDY_PLAYGROUND_DIR "${CMAKE_BINARY_DIR}/playground")
# Always run: web/build.sh is incremental (its own CMake tree in <build>/web-wasm).
add_custom_target(playground ALL
  COMMAND "${CMAKE_COMMAND}" -E env "GRUNDY_WEB_BUILD=${CMAKE_BINARY_DIR}/web-wasm"
          bash "${PROJECT_SOURCE_DIR}/web/build.sh" "${GRUNDY_PLAYGROUND_DIR}"
  COMMENT "Building the playground (web/build.sh)"
  USES_TERMINAL VERBATIM)

if(BUILD_TESTING)
  add_test(NAME web.golden
    COMMAND "${GRUNDY_NODE}" "${PROJECT_SOURCE_DIR}/web/tests/golden.mjs" "${GRUNDY_PLAYGROUND_DIR}")
  add_test(NAME web.browser
    COMMAND "${GRUNDY_NODE}" "${PROJECT_SOURCE_DIR}/web/tests/browser.mjs" "${GRUNDY_PLAYGROUND_DIR}")
  set_tests_properties(web.browser PROPERTIES
    ENVIRONMENT "CHROMIUM=${GRUNDY_CHROMIUM};GRUNDY_BIN=$<TARGET_FILE:grundy>")
  set_tests_properties(web.golden web.browser PROPERTIES TIMEOUT 300 LABELS web RUN_SERIAL ON)
endif()
