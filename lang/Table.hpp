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

}  // namespace grundy::lang
