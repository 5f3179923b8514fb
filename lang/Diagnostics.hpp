// Errors as the user sees them: `file:line:col: error: message`, the source line, a caret
// under the spot, and a hint saying what was expected or what would fix it.
#pragma once

#include <iosfwd>
#include <string>

#include "lang/Source.hpp"

namespace grundy::lang {

class Diagnostics {
 public:
  Diagnostics(const Sources& sources, std::ostream& err) : sources_(sources), err_(err) {}
  void error(Where where, const std::string& message, const std::string& hint = {});
  int count() const { return count_; }
  void reset() { count_ = 0; }

 private:
  const Sources& sources_;
  std::ostream& err_;
  int count_ = 0;
};

}  // namespace grundy::lang
