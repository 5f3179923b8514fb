// Outcomes (P or N) of the states of a box, for the search that stops at the first losing
// option. Such a search looks at few of the states its box spans (Fibonacci nim to 2000
// spans 8M cells and touches 17,000), so the box is cut into tiles of 4096 cells of two
// bits, allocated when first written: growing the box moves tile pointers, not cells, and
// memory is touched only near the states looked at.
//
// States with a set among their coordinates (a bitmask: the sets {1, 5} and {1, 6} lie 32
// apart, and a search touches one state per tile) are kept in a hash map instead. A state
// that is one list of up to four small integers (Chomp by its columns) is kept in a box over
// its items, as a contest solution keeps it in an array of that many dimensions; a list of
// another length than the first sends the memo to a hash map.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "runtime/BoxTable.hpp"
#include "runtime/IntProgram.hpp"
#include "runtime/StateMap.hpp"

namespace grundy {

class OutcomeMemo {
 public:
  // hashed: a hash map rather than tiles (the box then holds every state). one_list: a state
  // is one list packed into a word (IntProgram::pack_list), boxed by its items.
  explicit OutcomeMemo(int arity, bool hashed = false, bool one_list = false);
  int arity() const { return arity_; }
  bool hashed() const { return hashed_; }
  // Whether c lies in the box (every coordinate from 0 to below the box's size).
  bool inside(const std::int64_t* c) const {
    if (hashed_) return true;
    if (one_list_) [[unlikely]] {
      Coords x{};
      return items_of(c, x) && inside_box(x.data());
    }
    return inside_box(c);
  }
  // Makes the box hold c; false when its directory would pass max_directory tiles. Only the
  // tiles written take memory (tile_bytes() each): the box itself may span far more cells
  // than a dense table could hold (Fibonacci nim to 20,000 spans 8 * 10^8 cells and touches
  // a few hundred thousand).
  bool grow(const std::int64_t* c, std::uint64_t max_directory);
  // Whether holding c would leave the directory mostly empty: the states lie far apart
  // (moves that multiply, p -> 2p .. 9p up to 2^32, touch a few dozen tiles of millions),
  // and each doubling would zero and copy pointers the search never reads. A hash map
  // (to_hashed) holds them better.
  bool too_sparse_for(const std::int64_t* state) const {
    if (hashed_) return false;
    Coords x{};
    const std::int64_t* c = state;
    if (one_list_) {
      if (ar_ == 0) return false;  // the box takes its shape from the first list
      if (!items_of(state, x)) return true;
      c = x.data();
    }
    constexpr std::uint64_t kSparseFloor = std::uint64_t{1} << 20, kSparseShare = 64;
    std::uint64_t tiles = 1;
    for (int i = 0; i < ar_; ++i) {
      if (c[i] < 0) return false;  // grow() refuses it anyway
      const std::uint64_t need = std::max(static_cast<std::uint64_t>(c[i]) >> bits_, span_[static_cast<std::size_t>(i)] >> bits_);
      if (__builtin_mul_overflow(tiles, need + 1, &tiles)) return true;
    }
    return tiles > kSparseFloor && tiles / kSparseShare > used_;
  }
  // What the table says of c, in one pass (the search's inner loop asks this of every
  // option it looks at).
  enum Probe : unsigned { kUnknown = 0, kLoses = 1, kWins = 2, kSearching = 3, kOutside = 4 };
  Probe probe(const std::int64_t* c) const {
    if (hashed_) [[unlikely]]
      return probe_hashed(c);  // out of line: this stays small enough to inline
    if (one_list_) [[unlikely]] {
      Coords x{};
      return items_of(c, x) ? probe_box(x.data()) : kOutside;
    }
    return probe_box(c);
  }
  // For a probe of c soon after (a hashed memo's: a batch of options is looked up in turn).
  void prefetch(const std::int64_t* c) const {
    if (hashed_) cells_.prefetch(c);
  }
  // How many of the states c, c + slope, ... (at most `count` of them) are known to be won
  // before the first that is not, read straight from the tiles as a hand-written loop reads
  // a bool array (one-integer states 32 cells a word). Slopes of -1, 0 and 1 only: 0 for
  // others, and in a hashed memo.
  std::int64_t won_run(const std::int64_t* c, const std::int64_t* slope, std::int64_t count) const;
  // Whether won_run can read a run of this slope (decided once per run, not per option).
  bool readable(const std::int64_t* slope) const {
    if (hashed_ || one_list_) return false;  // a list's run moves its word, not its items
    bool moves = false;
    for (int i = 0; i < arity_; ++i) {
      if (slope[i] < -1 || slope[i] > 1) return false;
      moves = moves || slope[i] != 0;
    }
    return moves;
  }
  // True when the player to move wins at c, nothing when not known (or outside the box).
  std::optional<bool> get(const std::int64_t* c) const {
    const Probe v = probe(c);
    if (v == kLoses || v == kWins) return v == kWins;
    return std::nullopt;
  }
  void set(const std::int64_t* c, bool wins) { put(c, wins ? 2 : 1); }
  // The outcome search's mark on a state it has expanded and not finished: its ancestors,
  // which a loop meets again. For c inside the box.
  bool searching(const std::int64_t* c) const { return probe(c) == kSearching; }
  void mark_searching(const std::int64_t* c) { put(c, kSearching); }
  // Takes the mark back (nothing when the state has its outcome by now).
  void unmark_searching(const std::int64_t* c) {
    if (searching(c)) put(c, 0);
  }
  // Hashed: the map's memory in tiles.
  // From tiles to a hash map, every cell written kept (once: a hashed memo stays so).
  void to_hashed();
  std::uint64_t tiles_used() const {
    if (!hashed_) return used_;
    return cells_.bytes() / tile_bytes() + 1;
  }
  static constexpr std::uint64_t tile_bytes() { return sizeof(Tile); }

  // The box from the origin to `swept` (each coordinate up to it) whose every state is known,
  // as a sweep in lexicographic order leaves it: a later sweep over a larger box passes it
  // by rather than asking each of its states again (queries asked in increasing order, a
  // table of misère outcomes, would cost the square of the states otherwise).
  bool has_swept() const { return has_swept_; }
  const Coords& swept() const { return swept_; }
  void note_swept(const std::int64_t* to) {
    std::uint64_t now = 1, before = has_swept_ ? 1 : 0;
    for (int i = 0; i < arity_; ++i) {
      now *= static_cast<std::uint64_t>(to[i]) + 1;
      if (has_swept_) before *= static_cast<std::uint64_t>(swept_[static_cast<std::size_t>(i)]) + 1;
    }
    if (now <= before) return;  // the larger box is kept (two boxes' union is no box)
    std::copy(to, to + arity_, swept_.begin());
    has_swept_ = true;
  }

 private:
  // Tiles of 4096 cells: 4096, 64 x 64, 16 x 16 x 16 or 8 x 8 x 8 x 8.
  static constexpr int tile_bits(int arity) { return arity == 1 ? 12 : arity == 2 ? 6 : arity == 3 ? 4 : 3; }
  // A negative coordinate is a large unsigned one; an empty box spans 0 cells.
  bool inside_box(const std::int64_t* c) const {
    if (ar_ == 2)
      return static_cast<std::uint64_t>(c[0]) < span_[0] && static_cast<std::uint64_t>(c[1]) < span_[1];
    for (int i = 0; i < ar_; ++i) {
      if (static_cast<std::uint64_t>(c[i]) >= span_[static_cast<std::size_t>(i)]) return false;
    }
    return ar_ > 0;
  }
  Probe probe_box(const std::int64_t* c) const {
    if (!inside_box(c)) return kOutside;
    const Place at = place(c);
    const Tile* t = tiles_[at.tile].get();
    return t == nullptr ? kUnknown : static_cast<Probe>(cell(*t, at.cell));
  }
  // one_list_: the items of the list c[0] into x; false when its length is not the box's.
  bool items_of(const std::int64_t* c, Coords& x) const {
    const std::int64_t n = IntProgram::list_len(c[0]);
    if (n != ar_ || n == 0) return false;
    const int b = IntProgram::list_bits(n);
    const std::int64_t m = IntProgram::max_item(n);
    for (int i = 0; i < ar_; ++i) x[static_cast<std::size_t>(i)] = (c[0] >> (b * i)) & m;
    return true;
  }
  using Tile = std::array<std::uint8_t, 1024>;  // 4096 cells of two bits (Probe's first four)
  static unsigned cell(const Tile& t, std::size_t at) { return (t[at >> 2] >> ((at & 3) * 2)) & 3u; }
  void put(const std::int64_t* c, unsigned v);
  // Where c lies: its tile in the directory and its cell in the tile.
  struct Place {
    std::size_t tile, cell;
  };
  Place place(const std::int64_t* c) const {
    if (ar_ == 2) {  // the usual case, without the loop
      const auto x = static_cast<std::uint64_t>(c[0]), y = static_cast<std::uint64_t>(c[1]);
      constexpr int b = tile_bits(2);
      constexpr std::uint64_t m = (std::uint64_t{1} << b) - 1;
      return {static_cast<std::size_t>((x >> b) * static_cast<std::uint64_t>(strides_[0]) + (y >> b)),
              static_cast<std::size_t>(((x & m) << b) | (y & m))};
    }
    const auto mask = static_cast<std::uint64_t>((std::int64_t{1} << bits_) - 1);
    Place at{0, 0};
    for (int i = 0; i < ar_; ++i) {
      const auto x = static_cast<std::uint64_t>(c[i]);
      at.tile += (x >> bits_) * static_cast<std::uint64_t>(strides_[static_cast<std::size_t>(i)]);
      at.cell = (at.cell << bits_) | (x & mask);
    }
    return at;
  }

  std::int64_t won_line(std::int64_t x, std::int64_t step, std::int64_t count) const;
  static int won_cells(const Tile& t, int cell, int step, int limit);
  Probe probe_hashed(const std::int64_t* c) const;

  int arity_;
  bool hashed_;
  bool one_list_;
  int ar_;  // the box's: arity_, or a list's length (0 until the first list is seen)
  StateMap<std::uint8_t> cells_;                    // hashed_: the cells not 0
  int bits_;                                        // per coordinate: arity_ * bits_ == 12
  Coords dims_{};                                   // in tiles
  Coords strides_{};                                // of the directory
  std::array<std::uint64_t, kMaxBoxArity> span_{};  // in cells: dims_ << bits_
  std::vector<std::unique_ptr<Tile>> tiles_;
  std::uint64_t used_ = 0;
  Coords swept_{};
  bool has_swept_ = false;
};

}  // namespace grundy
