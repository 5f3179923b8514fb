// What both fuzz targets check after every input, beyond "no crash, no sanitizer report":
// the exit code is one of the documented ones, and standard error holds nothing but
// well-formed diagnostics:
//
//   NAME:LINE:COL: error: MESSAGE
//   <the source line>
//   <blanks>^
//   [hint: HINT]...
//   [NAME:LINE:COL: note: MESSAGE, with its source line and caret]...
//
// and, after the twentieth error of a file, one "error: too many errors in NAME (N); ..."
// line that closes that file's errors: what follows it is about another file (a module).
//
// A broken contract aborts, so libFuzzer keeps the input as a crash.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/StackGuard.hpp"

namespace grundy::fuzz {

[[noreturn]] inline void contract_broken(const char* what, std::string_view detail) {
  std::fprintf(stderr, "\nfuzz contract broken: %s\n--- stderr of the run ---\n%.*s\n---\n", what,
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

inline std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    const std::size_t nl = s.find('\n');
    if (nl == std::string_view::npos) {
      out.push_back(s);  // no final newline: reported by the caller
      break;
    }
    out.push_back(s.substr(0, nl));
    s.remove_prefix(nl + 1);
  }
  return out;
}

// "NAME:LINE:COL: KIND: " with LINE and COL positive integers; KIND is "error" or "note".
inline bool is_header(std::string_view line, std::string_view kind = ": error: ") {
  const std::size_t at = line.find(kind);
  if (at == std::string_view::npos || at + kind.size() == line.size()) return false;
  std::string_view head = line.substr(0, at);
  // head = NAME:LINE:COL; the name may itself hold ':' (a path), the numbers may not.
  const std::size_t c2 = head.rfind(':');
  if (c2 == std::string_view::npos || c2 == 0) return false;
  const std::size_t c1 = head.rfind(':', c2 - 1);
  if (c1 == std::string_view::npos || c1 == 0) return false;
  auto number = [](std::string_view d) {
    if (d.empty() || d.size() > 9 || d[0] == '0') return false;
    for (char c : d) {
      if (c < '0' || c > '9') return false;
    }
    return true;
  };
  return number(head.substr(c1 + 1, c2 - c1 - 1)) && number(head.substr(c2 + 1));
}

inline bool is_caret(std::string_view line) {
  if (line.empty() || line.back() != '^') return false;
  for (std::size_t i = 0; i + 1 < line.size(); ++i) {
    if (line[i] != ' ' && line[i] != '\t') return false;
  }
  return true;
}

inline void check_diagnostics(const std::string& err) {
  if (err.empty()) return;
  if (err.back() != '\n') contract_broken("stderr does not end in a newline", err);
  const auto lines = split_lines(err);
  std::size_t i = 0;
  auto located = [&] {
    if (i + 2 >= lines.size() || !is_caret(lines[i + 2])) {
      contract_broken("a diagnostic without its source line and caret", err);
    }
    i += 3;
    while (i < lines.size() && lines[i].rfind("hint: ", 0) == 0) ++i;
  };
  // The file of an error header: what comes before ":LINE:COL: error: ".
  auto file_of = [](std::string_view header) {
    std::string_view head = header.substr(0, header.find(": error: "));
    head = head.substr(0, head.rfind(':'));
    return head.substr(0, head.rfind(':'));
  };
  std::string_view file, closed;
  int errors_of_file = 0;
  while (i < lines.size()) {
    if (lines[i].rfind("error: too many errors in ", 0) == 0) {
      if (errors_of_file < 20) contract_broken("\"too many errors\" before the twentieth", err);
      closed = file;
      errors_of_file = 0;
      ++i;
      continue;
    }
    if (!is_header(lines[i])) contract_broken("a diagnostic without file:line:col: error:", err);
    if (file_of(lines[i]) != file) {
      file = file_of(lines[i]);
      errors_of_file = 0;
    }
    if (!closed.empty() && file == closed)
      contract_broken("an error after its file's \"too many errors\"", err);
    ++errors_of_file;
    located();
    while (i < lines.size() && is_header(lines[i], ": note: ")) located();
  }
}

// Runs `work` on a thread with a 256 MB stack, as the grundy command runs sessions on a 1 GB
// one: deep but legal recursion (a 10,000-level expression under AddressSanitizer) must not
// be mistaken for a crash on the 8 MB main thread.
inline int run_on_big_stack(const std::function<int()>& work) {
  return run_on_stack(std::size_t{256} << 20, work);
}

inline void check_run(int code, const std::string& err, bool check_only) {
  const bool known =
      check_only ? (code == 0 || code == 65) : (code == 0 || code == 1 || code == 65 || code == 70);
  if (!known) contract_broken("an undocumented exit code", err);
  if (code == 0 && !err.empty()) contract_broken("exit 0 with something on stderr", err);
  if (code != 0 && err.empty()) contract_broken("an error exit with nothing on stderr", err);
  check_diagnostics(err);
}

}  // namespace grundy::fuzz
