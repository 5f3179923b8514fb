// The rules of a box game whose every rule is a move of a fixed shape: conditions, then one
// option, each condition a conjunction of tests on one coordinate of the state at a time, each
// coordinate of the option a function of one coordinate of the state. A knight's, a king's and
// a rook-step's moves are of it, and a contest solution writes them as
// `if (x >= 2 && y + 1 < n) seen |= 1 << g[x - 2][y + 1]`: for each rule and each coordinate of
// the state, one table over the box holds what the rule's tests on that coordinate and the
// option's coordinates made of it come to at each of its values, so that a cell's options are a
// read and an add per rule and coordinate (BoxFill.cpp's sweeps), not an evaluation of the rules.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/BoxTable.hpp"

namespace grundy {

class BoxMoves {
 public:
  // Nothing where the rules are not of that shape or the tables would pass kMaxEntries.
  static std::shared_ptr<const BoxMoves> plan(const IntProgram& rules, const BoxTable& memo);
  static constexpr std::size_t kMaxEntries = std::size_t{1} << 21;
  // Whether the rules are of that shape (for --explain; plan() may still decline a box).
  static bool applies(const IntProgram& rules);

  // Whether the tables were made for a box of memo's dimensions.
  bool fits(const BoxTable& memo) const { return dims_ == memo.dims(); }

  // The mex of the cell at coordinates c, where every option of it lies in the box with its value
  // known and below 64; kUnknown otherwise (the rules themselves then list its options, and meet
  // what the rules as written meet). (Not an optional: its two parts went through memory, and
  // the read of the whole stalled on the two writes, a third of a knight's cell.)
  static constexpr std::uint32_t kUnknown = 0xFFFFFFFFu;

  // Sets the cell at c (index i of memo) to its mex where mex() finds it; whether it did.
  bool settle(BoxTable& memo, const std::int64_t* c, std::int64_t i) const {
    const std::uint32_t v = mex(memo, c);
    if (v == kUnknown) return false;
    memo.set(i, v);
    return true;
  }

  // The cells c + t * (0, ..., 0, 1, -1), t = 0 .. count - 1, in turn (a run of an anti-diagonal
  // of the last two coordinates, BoxFill.cpp's diagonal_to): sets each one not known yet whose
  // mex mex() finds, in one loop with no call per cell. Returns how many it went through before
  // the first it could not (count: all), and adds the ones it set to `set`.
  std::int64_t fill_diagonal(BoxTable& memo, const std::int64_t* c, std::int64_t count, std::uint64_t& set) const;
  std::uint32_t mex(const BoxTable& memo, const std::int64_t* c) const {
    switch (arity_) {  // the loop over the coordinates unrolled: a knight's cell is eight reads
      case 1: return mex_of<1>(memo, c);
      case 2: return mex_of<2>(memo, c);
      case 3: return mex_of<3>(memo, c);
      default: return mex_of<4>(memo, c);
    }
  }

 private:
  template <int A>
  std::uint32_t mex_of(const BoxTable& memo, const std::int64_t* c) const {
    std::uint64_t seen = 0;
    const std::int64_t* t = at_.data();
    for (std::size_t k = 0; k < rules_; ++k, t += per_rule_) {
      std::int64_t index = base_[k];
      bool takes = true;
      for (int s = 0; s < A; ++s) {
        const std::int64_t e = t[from_[static_cast<std::size_t>(s)] + c[s]];
        if (e >= 0) {
          index += e;
        } else if (e == kAsk) {
          return kUnknown;
        } else {
          takes = false;  // the other coordinates still read: one may ask for the rules
        }
      }
      if (!takes) continue;
      const std::uint32_t v = memo.get(index);  // unknown: 255 or more
      if (v >= 64) return kUnknown;
      seen |= std::uint64_t{1} << v;
    }
    return static_cast<std::uint32_t>(std::countr_one(seen));
  }
  // A table's entry: the offset its coordinate adds to the option's cell (0 or more), or:
  static constexpr std::int64_t kNo = -1;   // the rule's tests on this coordinate say no
  static constexpr std::int64_t kAsk = -2;  // a test fails, or the option leaves the box: ask the rules
  int arity_ = 0;
  std::array<std::int64_t, kMaxBoxArity> dims_{};
  std::size_t rules_ = 0;
  std::size_t per_rule_ = 0;                  // entries per rule: the sum of the dimensions
  std::array<std::size_t, kMaxBoxArity> from_{};  // coordinate s's table within a rule's
  std::vector<std::int64_t> base_;            // per rule: the offset of its constant coordinates
  std::vector<std::int64_t> at_;
};

}  // namespace grundy
