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

void Diagnostics::print(const Pending& d) {
  const Where where = d.where;
  const std::string& message = d.message;
  const std::string& hint = d.hint;
  if (!where.known()) {
    err_ << "error: " << message << '\n';
    if (!hint.empty()) err_ << "hint: " << hint << '\n';
    return;
  }
  const SourceFile& f = sources_.file(where.file);
  const LineCol lc = sources_.locate(where);
  err_ << f.name << ':' << lc.line << ':' << lc.column << ": error: " << message << '\n';
  const std::string_view line = sources_.line_text(where);
  err_ << line << '\n';
  std::string caret;
  std::uint32_t col = 1;
  for (char c : line) {
    if (col >= lc.column) break;
    if ((static_cast<unsigned char>(c) & 0xC0) == 0x80) continue;
    caret += c == '\t' ? '\t' : ' ';
    ++col;
  }
  err_ << caret << "^\n";
  if (!hint.empty()) err_ << "hint: " << hint << '\n';
}

}  // namespace grundy::lang
