#include "lang/Source.hpp"

#include <algorithm>

namespace grundy::lang {

int Sources::add(std::string name, std::string dir, std::string text) {
  // A UTF-8 byte order mark (some Windows editors write one) is not part of the program.
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  // A lone CR (old Mac line ends) is a line break like LF, for statements, comments,
  // strings, line numbers and carets alike; CR LF stays one line break. Same length, so
  // offsets do not move.
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) text[i] = '\n';
  }
  SourceFile f{std::move(name), std::move(dir), std::move(text), {0}};
  for (std::uint32_t i = 0; i < f.text.size(); ++i) {
    if (f.text[i] == '\n') f.line_starts.push_back(i + 1);
  }
  files_.push_back(std::move(f));
  return static_cast<int>(files_.size() - 1);
}

LineCol Sources::locate(Where w) const {
  const SourceFile& f = file(w.file);
  const std::uint32_t off = std::min<std::uint32_t>(w.offset, static_cast<std::uint32_t>(f.text.size()));
  auto it = std::upper_bound(f.line_starts.begin(), f.line_starts.end(), off);
  const auto line = static_cast<std::uint32_t>(it - f.line_starts.begin());
  const std::uint32_t start = f.line_starts[line - 1];
  std::uint32_t col = 1;
  for (std::uint32_t i = start; i < off; ++i) {
    // Count code points: skip UTF-8 continuation bytes.
    if ((static_cast<unsigned char>(f.text[i]) & 0xC0) != 0x80) ++col;
  }
  return {line, col};
}

std::string_view Sources::line_text(Where w) const {
  const SourceFile& f = file(w.file);
  const LineCol lc = locate(w);
  const std::uint32_t start = f.line_starts[lc.line - 1];
  std::uint32_t end = start;
  while (end < f.text.size() && f.text[end] != '\n' && f.text[end] != '\r') ++end;
  return std::string_view(f.text).substr(start, end - start);
}


std::string source_slice(std::string_view text, std::uint32_t from, std::uint32_t to) {
  std::string out;
  for (std::uint32_t i = from; i < to && i < text.size(); ++i) {
    const char c = text[i];
    const bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (blank) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace grundy::lang
