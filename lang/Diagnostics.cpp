#include "lang/Diagnostics.hpp"

#include <algorithm>
#include <ostream>

namespace grundy::lang {

void Diagnostics::error(Where where, const std::string& message, const std::string& hint) {
  ++count_;
  pending_.push_back({where, message, hint});
}

void Diagnostics::flush() {
  std::stable_sort(pending_.begin(), pending_.end(), [](const Pending& a, const Pending& b) {
    if (a.where.file != b.where.file) return a.where.file < b.where.file;
    return a.where.offset < b.where.offset;
  });
  for (const Pending& d : pending_) print(d);
  pending_.clear();
  err_.flush();
}

namespace {

// A message on one line: control characters (a newline in a string value, say) are escaped.
std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20 && c != '\t') {
      static const char* kHex = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

std::string Diagnostics::place(Where where) const {
  if (!where.known()) return "among the built-ins";
  const SourceFile& f = sources_.file(where.file);
  constexpr std::string_view kStdlib = "<stdlib>/";
  if (f.name.rfind(kStdlib, 0) == 0 && f.name.size() > kStdlib.size() + 5) {
    return "in the standard module " + f.name.substr(kStdlib.size(), f.name.size() - kStdlib.size() - 5);
  }
  const LineCol lc = sources_.locate(where);
  return "at " + f.name + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column);
}

void Diagnostics::print(const Pending& d) {
  const Where where = d.where;
  const std::string message = one_line(d.message);
  const std::string hint = one_line(d.hint);
  if (!where.known()) {
    err_ << "error: " << message << '\n';
    if (!hint.empty()) err_ << "hint: " << hint << '\n';
    return;
  }
  const SourceFile& f = sources_.file(where.file);
  const LineCol lc = sources_.locate(where);
  err_ << f.name << ':' << lc.line << ':' << lc.column << ": error: " << message << '\n';
  std::string_view line = sources_.line_text(where);
  // The byte where the caret goes (column lc.column, counted in code points).
  std::size_t at = 0;
  for (std::uint32_t col = 1; at < line.size() && col < lc.column; ++col) {
    ++at;
    while (at < line.size() && continuation(line[at])) ++at;
  }
  // A very long line (minified, generated) is shown as a window around the caret.
  constexpr std::size_t kWidth = 160, kBefore = 60;
  std::string shown_prefix, shown_suffix;
  if (line.size() > kWidth) {
    std::size_t from = at > kBefore ? at - kBefore : 0;
    while (from > 0 && continuation(line[from])) --from;
    std::size_t to = std::min(line.size(), from + kWidth);
    while (to < line.size() && continuation(line[to])) ++to;
    if (from > 0) shown_prefix = "...";
    if (to < line.size()) shown_suffix = "...";
    at -= from;
    line = line.substr(from, to - from);
  }
  err_ << shown_prefix << line << shown_suffix << '\n';
  std::string caret(shown_prefix.size(), ' ');
  for (std::size_t i = 0; i < at && i < line.size(); ++i) {
    if (continuation(line[i])) continue;
    caret += line[i] == '\t' ? '\t' : ' ';
  }
  err_ << caret << "^\n";
  if (!hint.empty()) err_ << "hint: " << hint << '\n';
}

}  // namespace grundy::lang
