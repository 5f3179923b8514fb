// Internal: the table that cmake/EmbedStdlib.cmake generates from stdlib/*.game.
#pragma once

#include <cstddef>
#include <string_view>

namespace grundy::stdlib::detail {

struct Module {
  std::string_view name;    // the file's stem: nim.game -> "nim"
  std::string_view source;  // the file's text, byte for byte
};

extern const Module kModules[];  // sorted by name
extern const std::size_t kModuleCount;

}  // namespace grundy::stdlib::detail
