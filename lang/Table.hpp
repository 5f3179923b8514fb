// Layout of table(...): a sequence with its indices, or a grid with row and column headers.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/Value.hpp"

namespace grundy::lang {

struct TableCell {
  Value row;  // the first loop's value
  Value col;  // the second loop's value (grids)
  Value value;
};

struct TableData {
  std::string row_label;
  std::string col_label;
  std::vector<TableCell> cells;
  // A grid prints rows x columns cells, more than `cells` when it is sparse; past this many
  // render_grid throws an Error naming --max-rows.
  std::uint64_t max_cells = UINT64_MAX;
  // Called after each line of text is added (to hold the text to --max-memory).
  std::function<void()> poll;
};

// Consecutive integer indices print ten to a line, each line labelled by its first index's
// decade; other indices print one per line.
std::string render_sequence(const TableData& t);
std::string render_grid(const TableData& t);

// A table value's cells as rows and columns, for other programs (--format json and csv): a
// sequence has the one column "value"; a grid's cells are null (nullptr) where it has none.
// Empty (no rows) for a table made without its cells (World::table_cells: text output with no
// SessionOptions::on_value to hand them to).
struct TableGrid {
  std::string row_label, col_label;  // col_label empty: a sequence
  std::vector<Value> rows, cols;
  std::vector<std::vector<const Value*>> cells;  // [row][column]
};
TableGrid table_grid(const Value& table);
// The table as CSV (RFC 4180): a header of the rows' label (a grid's "row\column") and the
// columns, then a line per row.
std::string csv_table(const Value& table);

}  // namespace grundy::lang
