#include "lang/Table.hpp"

#include <algorithm>

#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

#include "runtime/Error.hpp"

namespace grundy::lang {

namespace {

// Indices far from the ends of the int64 range, so that the decade arithmetic cannot overflow.
bool consecutive_ints(const std::vector<TableCell>& cells) {
  constexpr std::int64_t kSafe = INT64_MAX / 2;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (!cells[i].row.is(Kind::Int)) return false;
    const std::int64_t n = cells[i].row.as_int();
    if (n > kSafe || n < -kSafe) return false;
    if (i && n != cells[i - 1].row.as_int() + 1) return false;
  }
  return !cells.empty();
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// The table's text, line by line: trailing blanks dropped, and `poll` after each line (the
// text of a million cells is the largest value a statement builds at once).
class Lines {
 public:
  explicit Lines(const TableData& t) : t_(t) {}
  void add(std::string line) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (!first_) out_ += '\n';
    first_ = false;
    out_ += line;
    if (t_.poll) t_.poll();
  }
  std::string take() { return std::move(out_); }

 private:
  const TableData& t_;
  std::string out_;
  bool first_ = true;
};

}  // namespace

std::string render_sequence(const TableData& t) {
  if (t.cells.empty()) return t.row_label + ": (empty)";
  std::size_t width = 1;
  for (const TableCell& c : t.cells) width = std::max(width, to_string(c.value).size());
  Lines lines(t);
  if (!consecutive_ints(t.cells)) {
    std::size_t kw = t.row_label.size();
    for (const TableCell& c : t.cells) kw = std::max(kw, to_string(c.row).size());
    for (const TableCell& c : t.cells) lines.add(fmt::format("{:>{}}  {}", to_string(c.row), kw, to_string(c.value)));
    return lines.take();
  }
  // Ten columns: the column is the last decimal digit of the index.
  constexpr std::int64_t kCols = 10;
  const std::int64_t first = t.cells.front().row.as_int();
  const std::int64_t last = t.cells.back().row.as_int();
  const std::int64_t row0 = floor_div(first, kCols) * kCols;
  std::size_t label_w = t.row_label.size();
  for (std::int64_t r = row0; r <= last; r += kCols) label_w = std::max(label_w, std::to_string(r).size());
  std::string header = fmt::format("{:>{}}", t.row_label, label_w);
  for (std::int64_t c = 0; c < kCols; ++c) header += fmt::format(" {:>{}}", c, width);
  lines.add(std::move(header));
  for (std::int64_t r = row0; r <= last; r += kCols) {
    std::string line = fmt::format("{:>{}}", r, label_w);
    for (std::int64_t c = 0; c < kCols; ++c) {
      const std::int64_t n = r + c;
      if (n < first || n > last) line += fmt::format(" {:>{}}", "", width);
      else line += fmt::format(" {:>{}}", to_string(t.cells[static_cast<std::size_t>(n - first)].value), width);
    }
    lines.add(std::move(line));
  }
  return lines.take();
}

std::string render_grid(const TableData& t) {
  std::vector<Value> rows, cols;
  absl::flat_hash_map<Value, std::size_t> row_at, col_at;  // first-seen order, found in O(1)
  for (const TableCell& c : t.cells) {
    if (row_at.emplace(c.row, rows.size()).second) rows.push_back(c.row);
    if (col_at.emplace(c.col, cols.size()).second) cols.push_back(c.col);
  }
  if (!rows.empty() && cols.size() > t.max_cells / rows.size()) {
    throw Error(ErrorKind::Limit,
                "the grid would have " + std::to_string(rows.size()) + " rows and " +
                    std::to_string(cols.size()) + " columns, more than " + std::to_string(t.max_cells) +
                    " cells",
                "raise the limit with --max-rows N, or filter less sparsely");
  }
  // Each cell's place in the grid, its text made only as its line is written.
  constexpr std::size_t kEmpty = SIZE_MAX;
  std::vector<std::size_t> cell_at(rows.size() * cols.size(), kEmpty);
  std::size_t width = 1;
  for (std::size_t i = 0; i < t.cells.size(); ++i) {
    const TableCell& c = t.cells[i];
    cell_at[row_at.at(c.row) * cols.size() + col_at.at(c.col)] = i;
    width = std::max(width, to_string(c.value).size());
  }
  const std::string corner = t.row_label + "\\" + t.col_label;
  std::size_t label_w = corner.size();
  for (const Value& r : rows) label_w = std::max(label_w, to_string(r).size());
  for (const Value& c : cols) width = std::max(width, to_string(c).size());
  Lines lines(t);
  std::string header = fmt::format("{:>{}}", corner, label_w);
  for (const Value& c : cols) header += fmt::format(" {:>{}}", to_string(c), width);
  lines.add(std::move(header));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line = fmt::format("{:>{}}", to_string(rows[r]), label_w);
    for (std::size_t c = 0; c < cols.size(); ++c) {
      const std::size_t i = cell_at[r * cols.size() + c];
      line += fmt::format(" {:>{}}", i == kEmpty ? std::string() : to_string(t.cells[i].value), width);
    }
    lines.add(std::move(line));
  }
  return lines.take();
}

TableGrid table_grid(const Value& table) {
  TableGrid g;
  const std::vector<Value>& layout = table.items();
  if (layout.size() != 3) return g;
  g.row_label = layout[0].as_str();
  g.col_label = layout[1].as_str();
  const bool grid = !g.col_label.empty();
  if (!grid) {  // a row per cell, as the sequence came (an index may come twice)
    g.cols.push_back(Value::string("value"));
    for (const Value& cell : layout[2].items()) {
      g.rows.push_back(cell.items()[0]);
      g.cells.push_back({&cell.items()[2]});
    }
    return g;
  }
  absl::flat_hash_map<Value, std::size_t> row_at, col_at;
  for (const Value& cell : layout[2].items()) {
    if (row_at.try_emplace(cell.items()[0], g.rows.size()).second) g.rows.push_back(cell.items()[0]);
    if (col_at.try_emplace(cell.items()[1], g.cols.size()).second) g.cols.push_back(cell.items()[1]);
  }
  g.cells.assign(g.rows.size(), std::vector<const Value*>(g.cols.size(), nullptr));
  for (const Value& cell : layout[2].items())
    g.cells[row_at.at(cell.items()[0])][col_at.at(cell.items()[1])] = &cell.items()[2];
  return g;
}

namespace {

// A field of CSV (RFC 4180): quoted when it holds a comma, a quote or a line break.
void append_field(std::string& out, const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) {
    out += text;
    return;
  }
  out += '"';
  for (char ch : text) {
    if (ch == '"') out += '"';
    out += ch;
  }
  out += '"';
}

std::string text_of(const Value& v) { return v.is(Kind::Str) ? v.as_str() : to_string(v); }

}  // namespace

std::string csv_table(const Value& table) {
  const TableGrid g = table_grid(table);
  std::string out;
  append_field(out, g.col_label.empty() ? g.row_label : g.row_label + "\\" + g.col_label);  // a\b
  for (const Value& c : g.cols) {
    out += ',';
    append_field(out, text_of(c));
  }
  out += '\n';
  for (std::size_t r = 0; r < g.rows.size(); ++r) {
    append_field(out, text_of(g.rows[r]));
    for (const Value* cell : g.cells[r]) {
      out += ',';
      if (cell) append_field(out, text_of(*cell));
    }
    out += '\n';
  }
  return out;
}

}  // namespace grundy::lang
