// The line structure of a source text, settled before parsing (as Python's tokenizer joins
// lines): a newline ends a statement unless a bracket is open or the line ends in a binary
// operator, a comma or `=`. The grammar then sees one statement at a time, which is also what
// lets several independent syntax errors in one file all be reported.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace grundy::lang {

struct StatementSpan {
  std::uint32_t begin = 0;  // byte offsets into the source
  std::uint32_t end = 0;
};

struct OpenBracket {
  std::uint32_t offset = 0;
  char bracket = '(';
};

struct StatementSplit {
  // The source with comments blanked out and joined newlines turned into spaces; the same
  // length as the source, so offsets agree.
  std::string text;
  std::vector<StatementSpan> statements;
  // Brackets still open at the end of the text; non-empty means the input is unfinished.
  std::vector<OpenBracket> unclosed;
  bool trailing_operator = false;  // the text ends in an operator (the REPL reads on)
};

StatementSplit split_statements(std::string_view source);

}  // namespace grundy::lang
