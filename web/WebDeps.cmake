# The libraries of the WebAssembly build (included by CMakeLists.txt under Emscripten).
# PEGTL, fmt and nlohmann-json are header-only here, read from Debian's packages through a
# folder of links (the rest of /usr/include is glibc's, which Emscripten must not see);
# abseil, which has compiled parts, is built from Debian's own source of the installed
# version (web/build.sh fetches it into GRUNDY_ABSL_SOURCE).
set(GRUNDY_ABSL_SOURCE "" CACHE PATH "abseil's source tree (web/build.sh fetches Debian's)")
if(NOT EXISTS "${GRUNDY_ABSL_SOURCE}/CMakeLists.txt")
  message(FATAL_ERROR "GRUNDY_ABSL_SOURCE must name abseil's source (web/build.sh fetches it)")
endif()

set(host_headers "${CMAKE_BINARY_DIR}/host-headers")
file(MAKE_DIRECTORY "${host_headers}/tao")
foreach(dir tao/pegtl fmt nlohmann)
  if(NOT EXISTS "/usr/include/${dir}")
    message(FATAL_ERROR "/usr/include/${dir} is missing: run scripts/setup.sh (Debian's -dev packages)")
  endif()
  file(CREATE_LINK "/usr/include/${dir}" "${host_headers}/${dir}" SYMBOLIC)
endforeach()
file(CREATE_LINK "/usr/include/tao/pegtl.hpp" "${host_headers}/tao/pegtl.hpp" SYMBOLIC)

add_library(taocpp::pegtl INTERFACE IMPORTED)
target_include_directories(taocpp::pegtl SYSTEM INTERFACE "${host_headers}")
add_library(fmt::fmt-header-only INTERFACE IMPORTED)
target_include_directories(fmt::fmt-header-only SYSTEM INTERFACE "${host_headers}")
target_compile_definitions(fmt::fmt-header-only INTERFACE FMT_HEADER_ONLY=1)
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE "${host_headers}")

# abseil asks for threads; Emscripten's libc has pthread's functions (as stubs without
# -pthread: the interpreter runs on one thread in its worker).
set(CMAKE_HAVE_LIBC_PTHREAD 1 CACHE INTERNAL "")
set(ABSL_PROPAGATE_CXX_STD ON)
set(ABSL_BUILD_TESTING OFF)
set(BUILD_TESTING OFF)
add_subdirectory("${GRUNDY_ABSL_SOURCE}" absl EXCLUDE_FROM_ALL SYSTEM)

# The interpreter reports errors by exceptions: WebAssembly's own (Chromium 95 and later),
# much faster than Emscripten's emulation in JavaScript.
add_compile_options(-fwasm-exceptions)
add_link_options(-fwasm-exceptions)
