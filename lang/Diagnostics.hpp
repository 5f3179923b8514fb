// Errors as the user sees them: `file:line:col: error: message`, the source line, a caret
// under the spot, and a hint saying what was expected or what would fix it.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "lang/Source.hpp"

namespace grundy::lang {

// Errors are held until flush(), which prints them in source order: a file's syntax errors
// and resolution errors come out interleaved as the reader meets them.
class Diagnostics {
 public:
  Diagnostics(const Sources& sources, std::ostream& err) : sources_(sources), err_(err) {}
  void error(Where where, const std::string& message, const std::string& hint = {});
  // Where a definition stands, for a message about another spot: "at kayles.game:3:6", or
  // "in the standard module octal".
  std::string place(Where where) const;
  void flush();
  int count() const { return count_; }
  void reset() { count_ = 0; }

 private:
  struct Pending {
    Where where;
    std::string message;
    std::string hint;
  };
  void print(const Pending& d);
  const Sources& sources_;
  std::ostream& err_;
  std::vector<Pending> pending_;
  int count_ = 0;
};

}  // namespace grundy::lang
