// The positions of one loopy game explored so far (runtime/Loopy.hpp): each one's id, its
// options and its label.
//
// Positions are held as the compiled rules' coordinates while the rules list every option:
// a word or a few per position, found by an array (one-integer states 0 <= n < kDense, as a
// hand-written labelling indexes its arrays) or a hash map of packed coordinates, with no
// boxed Value made per position. The first position the compiled rules cannot list turns the
// graph into Values for good (`to_values`), ids kept.
//
// The options are kept one of two ways. In general as ids, u's in succ[first[u] ..
// first[u + 1]). A game of one integer whose moves go by a few distinct differences n - m
// (a subtraction game, Square-But-One's squares and +1, WindUp's steps round the circle) keeps
// instead, per position, one bit per difference seen (`by_offsets`): Square-But-One to 10^6
// has 6.7 * 10^8 moves, 2.7 GB as ids each way, and 1,001 differences, 125 bytes a position.
// The options of u are then u - d for the bits set, and its predecessors are found rather than
// kept: v + d for each difference d, where that position has d's bit. Past a few differences
// more than the moves per position (a move to n / 2) the graph turns to ids (`to_ids`).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "runtime/BoxTable.hpp"
#include "runtime/StateMap.hpp"
#include "runtime/Value.hpp"

namespace grundy {

class LoopyGraph {
 public:
  static constexpr std::uint32_t kOpen = 0xFFFFFFFFu;  // not labelled yet (and not held, in dense_)
  static constexpr std::uint32_t kInf = 0xFFFFFFFEu;
  // One-integer states 0 <= n < kDenseStates are found by an array, not hashed.
  static constexpr std::int64_t kDenseStates = std::int64_t{1} << 23;

  // A graph of coordinates (arity > 0: the compiled rules' state shape), or of Values.
  explicit LoopyGraph(int arity = 0, IntProgram::Packing packing = {});

  std::uint32_t size() const { return static_cast<std::uint32_t>(label.size()); }
  bool by_coords() const { return arity_ > 0; }
  int arity() const { return arity_; }
  // Position u's state as the language sees it.
  Value state(std::uint32_t u) const;
  // Position u's coordinates (by_coords() only): `arity()` of them.
  const std::int64_t* coords(std::uint32_t u) const {
    return coords_.data() + static_cast<std::size_t>(u) * static_cast<std::size_t>(arity_);
  }

  std::optional<std::uint32_t> find(const Value& s) const;
  std::optional<std::uint32_t> find(const std::int64_t* c) const {
    if (in_dense(c)) {
      const auto n = static_cast<std::size_t>(c[0]);
      if (n < dense_.size() && dense_[n] != kOpen) return dense_[n];
      return std::nullopt;
    }
    if (const std::uint32_t* at = hashed_.find(c)) return *at;
    return std::nullopt;
  }
  // Adds a position not held yet, unlabelled; returns its id.
  std::uint32_t add(const Value& s);
  std::uint32_t add(const std::int64_t* c);
  // From coordinates to Values, for good (the ids stay).
  void to_values();
  // Drops the positions from `from` on (an exploration that failed), and their options.
  void truncate(std::uint32_t from);
  // The memory the graph holds, for --max-memory.
  std::uint64_t bytes() const;

  // ---- options ----
  bool by_offsets() const { return offsets_; }
  // The positions whose options are held: 0 .. listed() - 1.
  std::uint32_t listed() const {
    return static_cast<std::uint32_t>(offsets_ ? row_of_.size() : first.size() - 1);
  }
  // Holds u's options (u = listed()), as ids (coordinates too where by_offsets()).
  void put_options(std::uint32_t u, const std::uint32_t* ids, std::size_t n);
  // by_offsets(): u's options one at a time, as u's state less theirs (the j-th of u's), then
  // end_row(); no id is looked up, where the options are held already. False: a difference
  // past 64 bits, and the row is to be given again as ids (put_options, after to_ids()).
  bool row_option(std::size_t j, std::int64_t n, std::int64_t m) {
    if (!diverged_) set_same_bits();
    std::int64_t d = 0;
    if (__builtin_sub_overflow(n, m, &d)) [[unlikely]]
      return false;
    // The j-th option of a position mostly moves by the j-th difference of the one before.
    const std::uint32_t i = j < last_.size() && last_d_[j] == d ? last_[j] : offset_index(j, d);
    if (i / 64 >= row_.size()) [[unlikely]]
      row_.resize(i / 64 + 1, 0);
    row_[i / 64] |= std::uint64_t{1} << (i % 64);
    return true;
  }
  // row_option for the options m(0) .. m(count - 1), the j0-th of the position's on, adding
  // each one not held yet with add(m); returns how many it took (fewer: a difference past 64
  // bits). Square-But-One lists its 6.7 * 10^8 moves here, so the batch goes in two passes
  // whose common case calls nothing (a call in the loop spilled its pointers to the stack):
  // first whether each option is held, then its difference's bit, found where the position
  // before had the same j-th difference, and gathered in a register while the word is the
  // same (or-ing each into memory made every option wait for the one before).
  //
  // Mostly (Square-But-One between two squares, WindUp away from 0) a row's differences are the
  // ones of a row before at the same places: the batch is then compared with that row (a loop
  // without a branch), its bits not set, and the row ends as that row's pattern; its options are
  // not looked up either where all the states they lie between are held.
  //
  // `diffs`, when given, holds the batch's differences n - m(j) (a batch of `n - k * k`, its
  // squares): the comparison with the row before is then a memcmp.
  template <class M, class Add>
  std::int64_t row_options(std::size_t j0, std::int64_t n, M&& m_of, std::int64_t count, Add& add,
                           const std::int64_t* diffs = nullptr) {
    const int same = diverged_ ? 0 : same_as_before(j0, n, m_of, count, diffs);
    if (same == 0 && !diverged_) set_same_bits();
    for (std::int64_t j = 0; j < count && same != 2; ++j) {
      const std::uint64_t* bits = held_.data();
      const std::uint64_t held = dense_ok_ ? held_.size() * 64 : 0;
      // Eight at a time, without a branch per option: mostly every one is held.
      for (; held > 0 && j + 8 <= count; j += 8) {
        std::uint64_t all = 1;
        for (int q = 0; q < 8; ++q) {
          const auto m = static_cast<std::uint64_t>(m_of(j + q));
          all &= m < held ? bits[m < held ? m / 64 : 0] >> (m % 64) : 0;
        }
        if ((all & 1) == 0) break;
      }
      for (; j < count; ++j) {
        const auto m = static_cast<std::uint64_t>(m_of(j));
        if (!(m < held && (bits[m / 64] >> (m % 64) & 1) != 0)) break;
      }
      if (j == count) break;
      const std::int64_t m = m_of(j);
      if (!find_int(m)) add(m);
    }
    if (same != 0) {
      same_ += static_cast<std::size_t>(count);
      return count;
    }
    constexpr std::size_t kNone = ~std::size_t{0};
    std::size_t word = kNone;  // of the bits in acc
    std::uint64_t acc = 0;
    const auto flush = [&] {
      if (word == kNone) return;
      if (word >= row_.size()) row_.resize(word + 1, 0);
      row_[word] |= acc;
    };
    for (std::int64_t j = 0; j < count; ++j) {
      const std::uint32_t* last = last_.data();
      const std::int64_t* last_d = last_d_.data();
      const std::size_t lasts = last_.size();
      std::int64_t d = 0;
      for (; j < count; ++j) {
        const std::size_t at = j0 + static_cast<std::size_t>(j);
        if (__builtin_sub_overflow(n, m_of(j), &d) || at >= lasts || last_d[at] != d) [[unlikely]]
          break;
        const std::uint32_t i = last[at];
        if (i / 64 != word) [[unlikely]] {
          flush();
          word = i / 64;
          acc = 0;
        }
        acc |= std::uint64_t{1} << (i % 64);
      }
      if (j == count) break;
      if (__builtin_sub_overflow(n, m_of(j), &d)) {
        flush();
        return j;
      }
      const std::uint32_t i = offset_index(j0 + static_cast<std::size_t>(j), d);
      if (i / 64 != word) {
        flush();
        word = i / 64;
        acc = 0;
      }
      acc |= std::uint64_t{1} << (i % 64);
    }
    flush();
    return count;
  }
  // Holds the row listed as the next position's, of n options.
  void end_row(std::size_t n);
  void drop_row() {
    std::fill(row_.begin(), row_.end(), 0);
    same_ = 0;
    diverged_ = false;
  }
  // Calls f(v) for each option v of u (each edge held: an option the rules give twice is
  // given twice as ids, once by offsets, and for_each_pred agrees).
  template <class F>
  void for_each_option(std::uint32_t u, F&& f) const {
    if (!offsets_) {
      for (std::uint32_t e = first[u]; e < first[u + 1]; ++e) f(succ[e]);
      return;
    }
    const std::int64_t n = coords(u)[0];
    for_each_difference(u, [&](std::int64_t d) { f(*find_int(n - d)); });
  }
  // by_offsets() only: f(d) for each option u - d of u.
  template <class F>
  void for_each_difference(std::uint32_t u, F&& f) const {
    const std::uint32_t p = row_of_[u];
    for (std::uint64_t w = pat_at_[p]; w < pat_at_[p + 1]; ++w) {
      for (std::uint64_t bits = pats_[w]; bits != 0; bits &= bits - 1)
        f(delta_[(w - pat_at_[p]) * 64 + static_cast<std::uint64_t>(__builtin_ctzll(bits))]);
    }
  }
  // by_offsets(): whether every move lowers the state (each difference n - m is positive), so
  // that the graph has no cycle.
  bool lowers_only() const {
    return offsets_ && std::all_of(delta_.begin(), delta_.end(), [](std::int64_t d) { return d > 0; });
  }
  std::uint32_t out_degree(std::uint32_t u) const {
    if (!offsets_) return first[u + 1] - first[u];
    return pat_moves_[row_of_[u]];
  }
  // by_offsets() only: calls f(u) for each position u that moves to v (each edge once).
  template <class F>
  void for_each_pred(std::uint32_t v, F&& f) const {
    const std::int64_t n = coords(v)[0];
    const std::uint32_t listed = this->listed();
    for (std::size_t i = 0; i < delta_.size(); ++i) {
      std::int64_t m = 0;
      if (__builtin_add_overflow(n, delta_[i], &m)) continue;
      const auto u = find_int(m);
      if (!u || *u >= listed) continue;
      const std::uint32_t p = row_of_[*u];
      const std::uint64_t w = pat_at_[p] + i / 64;
      if (w < pat_at_[p + 1] && (pats_[w] >> (i % 64) & 1) != 0) f(*u);
    }
  }
  // Whether the offsets are worth keeping: few differences, or many fewer than the moves
  // listed (each difference costs a look-up per predecessor asked for).
  bool offsets_pay() const {
    return delta_.size() <= 64 || delta_.size() <= 16 * (moves_ / std::max<std::uint64_t>(listed(), 1));
  }
  // Whether some rows were listed by their differences (by_offsets(), or before to_ids()):
  // for_each_option gives those in the order of the differences, not the rules'.
  bool reordered() const { return offsets_ || reordered_; }
  // From offsets to ids, for good (the graph's Values need no integer states, or the
  // differences stopped paying).
  void to_ids();

  std::vector<std::uint32_t> first{0};  // ids: u's options are succ[first[u] .. first[u + 1])
  std::vector<std::uint32_t> succ;
  std::vector<std::uint32_t> label;
  std::vector<std::uint32_t> remote;  // kOpen: a draw; empty: not computed
  // The positions 0 .. labelled - 1 have their values in `label` (an outcome alone explores
  // without labelling), and whether the last exploration listed options with the compiled rules.
  std::uint32_t labelled = 0;
  bool compiled = false;

 private:
  std::optional<std::uint32_t> find_int(std::int64_t n) const {
    if (dense_ok_ && n >= 0 && n < kDense) {
      const auto at = static_cast<std::size_t>(n);
      if (at < dense_.size() && dense_[at] != kOpen) return dense_[at];
      return std::nullopt;
    }
    if (const std::uint32_t* at = hashed_.find(&n)) return *at;
    return std::nullopt;
  }
  std::uint32_t offset_index(std::size_t j, std::int64_t d);
  void remember_row(std::size_t n);
  // Whether the options m(0) .. m(count - 1), the j0-th of n's on, move by the differences
  // last_d_ has at those places (a row before's): 0 not; 2 they do, and are held: they lie
  // between n less the largest of those differences and n less the least, and all the states
  // between are; 1 they do, and may not be held.
  template <class M>
  int same_as_before(std::size_t j0, std::int64_t n, M& m_of, std::int64_t count, const std::int64_t* diffs) {
    const std::size_t end = j0 + static_cast<std::size_t>(count);
    if (!dense_ok_ || count == 0 || end > last_d_.size()) return 0;
    const std::int64_t* d = last_d_.data() + j0;
    std::int64_t least = d[0], most = d[0];
    if (diffs != nullptr) {
      if (std::memcmp(diffs, d, static_cast<std::size_t>(count) * sizeof(std::int64_t)) != 0) return 0;
      // The span of those places, as found for a row before while last_d_ is unchanged
      // (Square-But-One's rows between two squares are batches at the same places).
      Span& s = spans_[(j0 / static_cast<std::size_t>(count) + static_cast<std::size_t>(count)) % spans_.size()];
      bool known = s.j0 == j0 && s.count == count;
      for (std::size_t b = j0 / 64; known && b <= (end - 1) / 64; ++b) known = written_at_[b] <= s.writes;
      if (!known) {
        for (std::int64_t j = 1; j < count; ++j) {
          least = std::min(least, d[j]);
          most = std::max(most, d[j]);
        }
        s = Span{j0, count, last_d_writes_, least, most};
      }
      least = s.least;
      most = s.most;
    } else {
      // Differences compared modulo 2^64: an option whose difference wraps to one of last_d_'s
      // is that option (both lie in the bounds below).
      std::uint64_t diff = 0;
      for (std::int64_t j = 0; j < count; ++j) {
        diff |= (static_cast<std::uint64_t>(n) - static_cast<std::uint64_t>(m_of(j))) ^
                static_cast<std::uint64_t>(d[j]);
        least = std::min(least, d[j]);
        most = std::max(most, d[j]);
      }
      if (diff != 0) return 0;
    }
    // The batch's own span, not the row's so far: Square-But-One's first batch lies just
    // below n, where states are still being found, and the batches after it far below.
    std::int64_t lo = 0, hi = 0;
    const bool held = !__builtin_sub_overflow(n, most, &lo) && !__builtin_sub_overflow(n, least, &hi) &&
                      lo >= 0 && all_held(0, static_cast<std::uint64_t>(lo), static_cast<std::uint64_t>(hi));
    return held ? 2 : 1;
  }
  // The row's first same_ options were found the same as the row before's without setting
  // their bits: they are set now (a later batch differs, or the row is shorter).
  void set_same_bits() {
    std::size_t j = 0;
    if (same_ > 0 && same_ <= ident_) {  // bits 0 .. same_ - 1: whole words at a time
      const std::size_t words = (same_ + 63) / 64;
      if (words > row_.size()) row_.resize(words, 0);
      for (std::size_t w = 0; w + 1 < words; ++w) row_[w] = ~std::uint64_t{0};
      row_[words - 1] |= same_ % 64 == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << (same_ % 64)) - 1;
      j = same_;
    }
    for (; j < same_; ++j) {
      const std::uint32_t i = last_[j];
      if (i / 64 >= row_.size()) row_.resize(i / 64 + 1, 0);
      row_[i / 64] |= std::uint64_t{1} << (i % 64);
    }
    diverged_ = true;
  }

  // States n of 0 <= n < kDense are found by n: a heap game's, read as a hand-written
  // labelling reads its arrays.
  static constexpr std::int64_t kDense = kDenseStates;
  static bool is_dense(const Value& s) { return s.is(Kind::Int) && s.as_int() >= 0 && s.as_int() < kDense; }
  bool in_dense(const std::int64_t* c) const { return dense_ok_ && c[0] >= 0 && c[0] < kDense; }
  void put_dense(std::int64_t n, std::uint32_t id);
  void drop_dense(std::int64_t n);

  int arity_;  // 0: Values
  IntProgram::Packing packing_;
  bool dense_ok_;                     // by_coords(): a state is one plain integer
  std::vector<std::uint32_t> dense_;  // kOpen: not held
  // dense_'s held states, a bit each: row_options asks for every option whether it is held,
  // and Square-But-One's rows reach back over a million states, a 4 MB dense_ that misses the
  // cache where these 125 KB do not.
  std::vector<std::uint64_t> held_;
  // Whether all the states lo .. hi are held, in a few steps however far apart: full_[0]'s bit
  // w says whether held_[w] is all ones, full_[l + 1]'s whether full_[l]'s word w is.
  static constexpr std::size_t kFullLevels = 3;  // 2^23 states: 2^17 words, 2^11, 32, 1
  std::array<std::vector<std::uint64_t>, kFullLevels> full_;
  bool all_held(std::size_t level, std::uint64_t lo, std::uint64_t hi) const;
  std::vector<std::int64_t> coords_;  // by_coords(): arity_ per position
  StateMap<std::uint32_t> hashed_;    // by_coords(): the positions not in dense_
  std::vector<Value> values_;         // otherwise
  absl::flat_hash_map<Value, std::uint32_t> index_;

  // by_offsets(): the differences n - m seen, in the order first seen, and the rows of bits
  // (one per difference, 64 a word). Rows repeat: Square-But-One's row changes only at a square
  // and with n's parity, WindUp's only within 17 of 0. So a row is held once, as a pattern, and
  // a position names its pattern: 4 bytes a position rather than Square-But-One's 128 (a 128
  // MB array whose growth, zeroing pages and copying, was a sixth of the time).
  bool offsets_;
  std::vector<std::int64_t> delta_;
  absl::flat_hash_map<std::int64_t, std::uint32_t> delta_index_;
  // The j-th difference of the last position listed that had a j-th, and its index.
  std::vector<std::int64_t> last_d_;
  // The writes of last_d_'s places so far, and per 64 places the count when one was last
  // written: Square-But-One's rows, listed breadth first, differ in their last places only.
  std::uint64_t last_d_writes_ = 0;
  std::vector<std::uint64_t> written_at_;
  // same_as_before's least and most of last_d_[j0 .. j0 + count), as of `writes`.
  struct Span {
    std::size_t j0 = ~std::size_t{0};
    std::int64_t count = 0;
    std::uint64_t writes = 0;
    std::int64_t least = 0, most = 0;
  };
  std::array<Span, 256> spans_{};
  std::vector<std::uint32_t> last_;
  std::size_t ident_ = 0;  // last_[j] == j for every j < ident_ (differences first met in order)
  std::vector<std::uint64_t> row_;        // the row being listed
  std::vector<std::uint32_t> row_of_;     // u's pattern, for each position listed
  std::vector<std::uint64_t> pats_;       // pattern p's words: pats_[pat_at_[p] .. pat_at_[p + 1])
  std::vector<std::uint64_t> pat_at_{0};  // (no zero word at the end)
  std::vector<std::uint32_t> pat_moves_;  // its bits set
  // A hash of the pattern's words to the pattern: a pattern whose hash is taken by another is
  // held again, under no hash.
  absl::flat_hash_map<std::uint64_t, std::uint32_t> pat_index_;
  std::uint64_t moves_ = 0;  // listed
  // Rows before whose differences are last_d_[0 .. len) still (Square-But-One's rows alternate
  // between two lengths, with and without its +1), and their patterns. A row held is put here;
  // a place of last_d_ written takes out those that reach past it.
  struct Before {
    std::size_t len = 0;  // 0: none
    std::uint32_t pat = 0;
  };
  std::array<Before, 4> before_{};
  // Of the row being listed, the options from its start found the same as the row before's
  // (their bits not set), until one is not (diverged_: the bits are set from then on).
  std::size_t same_ = 0;
  bool diverged_ = false;
  bool reordered_ = false;
};

}  // namespace grundy
