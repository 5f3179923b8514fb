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

// The same, fed a line at a time (the REPL reads a statement of many lines): each feed scans
// only what it adds, where split_statements of the text so far would scan it all again
// (100,000 lines took minutes). Feeds end at line ends, where no string or comment is open.
class StatementScanner {
 public:
  void feed(std::string_view more);
  // The text so far needs more lines: a bracket is open, or it ends in an operator.
  bool unfinished() const { return !out_.unclosed.empty() || line_continues(); }
  StatementSplit finish();

 private:
  bool line_continues() const;
  void end_statement(std::uint32_t at);
  StatementSplit out_;
  std::uint32_t stmt_begin_ = 0;
  std::uint32_t scanned_ = 0;
  std::int64_t last_sig_ = -1;  // offset of the last significant character
};

}  // namespace grundy::lang
