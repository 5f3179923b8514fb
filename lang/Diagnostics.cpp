#include "lang/Diagnostics.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

#include "runtime/Show.hpp"

namespace grundy::lang {

void Diagnostics::error(Where where, const std::string& message, const std::string& hint) {
  ++count_;
  pending_.push_back({where, message, hint, {}});
}

void Diagnostics::warning(Where where, const std::string& message, const std::string& hint) {
  pending_.push_back({where, message, hint, {}, true});
}

void Diagnostics::note(Where where, const std::string& message) {
  if (!pending_.empty()) pending_.back().notes.push_back({where, message});
}

void Diagnostics::flush() {
  std::stable_sort(pending_.begin(), pending_.end(), [](const Pending& a, const Pending& b) {
    if (a.where.file != b.where.file) return a.where.file < b.where.file;
    return a.where.offset < b.where.offset;
  });
  for (std::size_t i = 0; i < pending_.size();) {
    // The errors of one file (or of no place): the first kMaxErrorsPerFile are printed.
    std::size_t end = i;
    while (end < pending_.size() && pending_[end].where.file == pending_[i].where.file) ++end;
    const std::size_t shown = std::min<std::size_t>(end - i, kMaxErrorsPerFile);
    for (std::size_t k = i; k < i + shown; ++k) {
      if (json_) print_json(pending_[k]);
      else print(pending_[k]);
    }
    if (end - i > shown && json_) {
      print_json({{}, "too many errors (" + std::to_string(end - i) + "); stopping after the first " +
                          std::to_string(shown), {}, {}, false});
    } else if (end - i > shown) {
      const Where w = pending_[i].where;
      err_ << "error: too many errors";
      if (w.known()) err_ << " in " << one_line(sources_.file(w.file).name, 200);
      err_ << " (" << end - i << "); stopping after the first " << shown << '\n';
    }
    i = end;
  }
  pending_.clear();
  err_.flush();
}

namespace {

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

bool control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && c != '\t') || u == 0x7F;
}

// The length of the UTF-8 character at text[i] that may be shown as it is (a printable
// ASCII byte, a tab, or a well-formed multi-byte sequence), or 0 for a byte to escape.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) return control(text[i]) ? 0 : 1;
  const std::size_t len = c >= 0xC2 && c < 0xE0   ? 2
                          : c >= 0xE0 && c < 0xF0 ? 3
                          : c >= 0xF0 && c < 0xF5 ? 4
                                                  : 0;
  if (len == 0 || i + len > text.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if (!continuation(text[i + k])) return 0;
  }
  return len;
}

std::string escaped(char c) {
  if (c == '\n') return "\\n";
  static const char* kHex = "0123456789abcdef";
  const auto u = static_cast<unsigned char>(c);
  return std::string("\\x") + kHex[u >> 4] + kHex[u & 15];
}

}  // namespace

std::string one_line(const std::string& text, std::size_t max) {
  std::string out;
  for (char c : text) {
    if (control(c)) out += escaped(c);
    else out += c;
  }
  return elide(std::move(out), max);
}

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
  const std::string message = one_line(d.message);
  const std::string hint = one_line(d.hint);
  const char* severity = d.warning ? "warning" : "error";
  if (!d.where.known()) {
    err_ << severity << ": " << message << '\n';
  } else {
    print_at(d.where, severity, message);
  }
  if (!hint.empty()) err_ << "hint: " << hint << '\n';
  for (const Note& n : d.notes) {
    if (n.where.known()) print_at(n.where, "note", one_line(n.message));
  }
}

void Diagnostics::print_json(const Pending& d) {
  auto at = [&](Where where, const std::string& severity, const std::string& message) {
    nlohmann::ordered_json j{{"severity", severity}, {"message", message}};
    if (where.known()) {
      const LineCol lc = sources_.locate(where);
      j["file"] = sources_.file(where.file).name;
      j["line"] = lc.line;
      j["column"] = lc.column;
    }
    return j;
  };
  nlohmann::ordered_json j = at(d.where, d.warning ? "warning" : "error", d.message);
  if (!d.hint.empty()) j["hint"] = d.hint;
  for (const Note& n : d.notes) j["notes"].push_back(at(n.where, "note", n.message));
  err_ << j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

void Diagnostics::print_at(Where where, const char* severity, const std::string& message) {
  const SourceFile& f = sources_.file(where.file);
  const LineCol lc = sources_.locate(where);
  err_ << one_line(f.name, 200) << ':' << lc.line << ':' << lc.column << ": " << severity << ": " << message
       << '\n';
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
  // Control bytes and bytes that are not UTF-8 (a binary file read as a program) are shown
  // escaped, and the caret moves by as many columns as their escapes take.
  std::string shown = shown_prefix;
  std::string caret(shown_prefix.size(), ' ');
  for (std::size_t i = 0; i < line.size();) {
    const std::size_t n = utf8_length(line, i);
    const std::string text = n == 0 ? escaped(line[i]) : std::string(line.substr(i, n));
    shown += text;
    if (i < at) caret += line[i] == '\t' ? std::string(1, '\t') : std::string(n == 0 ? text.size() : 1, ' ');
    i += n == 0 ? 1 : n;
  }
  err_ << shown << shown_suffix << '\n';
  err_ << caret << "^\n";
}

}  // namespace grundy::lang
