// Errors as the user sees them: `file:line:col: error: message`, the source line, a caret
// under the spot, and a hint saying what was expected or what would fix it; sometimes
// followed by `file:line:col: note: ...` pointing at a second place that explains it.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "lang/Source.hpp"

namespace grundy::lang {

// Errors are held until flush(), which prints them in source order: a file's syntax errors
// and resolution errors come out interleaved as the reader meets them. At most
// kMaxErrorsPerFile errors of one file are printed (a binary file read as a program would
// make thousands); the count says how many there were.
class Diagnostics {
 public:
  static constexpr int kMaxErrorsPerFile = 20;

  // json: each diagnostic one line of JSON ({"file", "line", "column", "severity",
  // "message", "hint", "notes"}), for editors and scripts.
  Diagnostics(const Sources& sources, std::ostream& err, bool json = false)
      : sources_(sources), err_(err), json_(json) {}
  void error(Where where, const std::string& message, const std::string& hint = {});
  // Something likely wrong that does not stop the program (grundy check's findings on
  // small states): printed as errors are, not counted.
  void warning(Where where, const std::string& message, const std::string& hint = {});
  // A note on the error reported last: another place that explains it, printed after it
  // (the user's call of a game whose rules failed in an imported file).
  void note(Where where, const std::string& message);
  // Where a definition stands, for a message about another spot: "at kayles.game:3:6", or
  // "in the standard module octal".
  std::string place(Where where) const;
  void flush();
  int count() const { return count_; }
  void reset() { count_ = 0; }

 private:
  struct Note {
    Where where;
    std::string message;
  };
  struct Pending {
    Where where;
    std::string message;
    std::string hint;
    std::vector<Note> notes;
    bool warning = false;
  };
  void print(const Pending& d);
  void print_json(const Pending& d);
  // The header, the source line and the caret of one place.
  void print_at(Where where, const char* severity, const std::string& message);
  const Sources& sources_;
  std::ostream& err_;
  bool json_;
  std::vector<Pending> pending_;
  int count_ = 0;
};

// A message on one line and of a bounded size: control characters are escaped (\n, \x1b)
// and a text longer than `max` bytes keeps its start and its end around " ... ".
std::string one_line(const std::string& text, std::size_t max = 1000);

}  // namespace grundy::lang
