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

std::string join_lines(std::vector<std::string> lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string& l = lines[i];
    while (!l.empty() && l.back() == ' ') l.pop_back();
    if (i) out += '\n';
    out += l;
  }
  return out;
}

}  // namespace

std::string render_sequence(const TableData& t) {
  if (t.cells.empty()) return t.row_label + ": (empty)";
  std::vector<std::string> values;
  std::size_t width = 1;
  for (const TableCell& c : t.cells) {
    values.push_back(to_string(c.value));
    width = std::max(width, values.back().size());
  }
  std::vector<std::string> lines;
  if (!consecutive_ints(t.cells)) {
    std::size_t kw = t.row_label.size();
    std::vector<std::string> keys;
    for (const TableCell& c : t.cells) {
      keys.push_back(to_string(c.row));
      kw = std::max(kw, keys.back().size());
    }
    for (std::size_t i = 0; i < keys.size(); ++i) {
      lines.push_back(fmt::format("{:>{}}  {}", keys[i], kw, values[i]));
    }
    return join_lines(std::move(lines));
  }
  // Ten columns: the column is the last decimal digit of the index.
  constexpr std::int64_t kCols = 10;
  const std::int64_t first = t.cells.front().row.as_int();
  const std::int64_t last = t.cells.back().row.as_int();
  const std::int64_t row0 = floor_div(first, kCols) * kCols;
  std::size_t label_w = t.row_label.size();
  for (std::int64_t r = row0; r <= last; r += kCols) label_w = std::max(label_w, std::to_string(r).size());
  width = std::max<std::size_t>(width, 1);
  std::string header = fmt::format("{:>{}}", t.row_label, label_w);
  for (std::int64_t c = 0; c < kCols; ++c) header += fmt::format(" {:>{}}", c, width);
  lines.push_back(header);
  for (std::int64_t r = row0; r <= last; r += kCols) {
    std::string line = fmt::format("{:>{}}", r, label_w);
    for (std::int64_t c = 0; c < kCols; ++c) {
      const std::int64_t n = r + c;
      if (n < first || n > last) line += fmt::format(" {:>{}}", "", width);
      else line += fmt::format(" {:>{}}", values[static_cast<std::size_t>(n - first)], width);
    }
    lines.push_back(line);
  }
  return join_lines(std::move(lines));
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
  std::vector<std::vector<std::string>> grid(rows.size(), std::vector<std::string>(cols.size()));
  for (const TableCell& c : t.cells) grid[row_at.at(c.row)][col_at.at(c.col)] = to_string(c.value);
  const std::string corner = t.row_label + "\\" + t.col_label;
  std::size_t label_w = corner.size();
  for (const Value& r : rows) label_w = std::max(label_w, to_string(r).size());
  std::size_t width = 1;
  for (const Value& c : cols) width = std::max(width, to_string(c).size());
  for (const auto& row : grid) {
    for (const auto& cell : row) width = std::max(width, cell.size());
  }
  std::vector<std::string> lines;
  std::string header = fmt::format("{:>{}}", corner, label_w);
  for (const Value& c : cols) header += fmt::format(" {:>{}}", to_string(c), width);
  lines.push_back(header);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line = fmt::format("{:>{}}", to_string(rows[r]), label_w);
    for (const auto& cell : grid[r]) line += fmt::format(" {:>{}}", cell, width);
    lines.push_back(line);
  }
  return join_lines(std::move(lines));
}

}  // namespace grundy::lang
