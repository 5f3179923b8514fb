// Loaded source texts and the mapping from byte offsets to lines and columns. Every AST node
// carries a Where (file, offset); lines and columns are computed only when an error prints.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/Error.hpp"

namespace grundy::lang {

struct SourceFile {
  std::string name;  // as given: "kayles.game", "<eval>", "stdlib:nim"
  std::string dir;   // folder that relative imports start from
  std::string text;
  std::vector<std::uint32_t> line_starts;
};

struct LineCol {
  std::uint32_t line = 1;    // from 1
  std::uint32_t column = 1;  // from 1, in characters (UTF-8 code points)
};

// Source text between two offsets, its runs of blanks and newlines one space each (a rule
// or an expression quoted in a message or a label).
std::string source_slice(std::string_view text, std::uint32_t from, std::uint32_t to);

class Sources {
 public:
  int add(std::string name, std::string dir, std::string text);
  const SourceFile& file(int id) const { return files_.at(static_cast<std::size_t>(id)); }
  LineCol locate(Where w) const;
  std::string_view line_text(Where w) const;

 private:
  std::deque<SourceFile> files_;  // stable addresses: ASTs keep string_views into them
};

}  // namespace grundy::lang
