// Dense memo tables over a box of integer states (one integer or a tuple of up to four),
// filled by compiled rules (runtime/IntProgram.hpp) top-down, or swept bottom-up where a
// query needs most of the box. Each state is one array cell of 1, 2 or 4 bytes (all ones =
// not known yet) instead of a hash map entry, and the options of a state are read straight
// from the array, a run of options (a, b - k) for k in 1..b being one strided loop.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/IntProgram.hpp"
#include "runtime/IntervalValues.hpp"
#include "runtime/Value.hpp"

namespace grundy {

class BoxMoves;

constexpr int kMaxBoxArity = IntProgram::kMaxArity;
using Coords = std::array<std::int64_t, kMaxBoxArity>;

// Coordinates as a hash map's key (unused ones 0), the four words mixed inline: absl hashes
// an array of them as bytes, and compares keys with a call to memcmp, which was a third of
// the search of a game over sets.
struct CoordsHash {
  std::size_t operator()(const Coords& k) const {
    std::uint64_t h = 0;
    for (std::int64_t x : k) h = (h ^ static_cast<std::uint64_t>(x)) * 0x9E3779B97F4A7C15ULL + (h >> 29);
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ULL;
    return static_cast<std::size_t>(h ^ (h >> 32));
  }
};
struct CoordsEq {
  bool operator()(const Coords& a, const Coords& b) const {
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
  }
};
// The key of `arity` coordinates.
inline Coords coords_key(const std::int64_t* c, int arity) {
  Coords k{};
  std::copy(c, c + arity, k.begin());
  return k;
}

// A set of small integers as the bitmask of compiled rules (IntProgram::Op::Bit); false
// when it is not one (an element that is not an integer in 0..kMaxElement).
inline bool mask_of(const Value& set, std::int64_t& mask) {
  if (!set.is(Kind::Set)) return false;
  mask = 0;
  for (const Value& x : set.items()) {
    if (!x.is(Kind::Int) || x.as_int() < 0 || x.as_int() > IntProgram::kMaxElement) return false;
    mask |= std::int64_t{1} << x.as_int();
  }
  return true;
}

inline Value set_of_mask(std::int64_t mask) {
  std::vector<Value> items;
  for (auto m = static_cast<std::uint64_t>(mask); m != 0; m &= m - 1)
    items.push_back(Value::integer(__builtin_ctzll(m)));
  return Value::sorted_set(std::move(items));
}

// A list of small integers packed as compiled rules hold it (IntProgram::pack_list); false
// when it is not one (too long, or an element that is not an integer small enough).
inline bool packed_of(const Value& list, std::int64_t& word) {
  if (!list.is(Kind::List) || list.items().size() > static_cast<std::size_t>(IntProgram::kMaxListLength))
    return false;
  std::int64_t items[IntProgram::kMaxListLength];
  std::int64_t n = 0;
  for (const Value& x : list.items()) {
    if (!x.is(Kind::Int)) return false;
    items[n++] = x.as_int();
  }
  return IntProgram::pack_list(items, n, word);
}

inline Value list_of_packed(std::int64_t word) {
  std::int64_t xs[IntProgram::kMaxListLength];
  const std::int64_t n = IntProgram::unpack_list(word, xs);
  std::vector<Value> items;
  for (std::int64_t i = 0; i < n; ++i) items.push_back(Value::integer(xs[i]));
  return Value::list(std::move(items));
}

// A state of `arity` coordinates (one, or a tuple of them) as coordinates: integers, sets
// and lists as `packing` says. False when it is not one.
inline bool coords_of(const Value& state, int arity, Coords& c, IntProgram::Packing packing = {}) {
  auto one = [&](const Value& v, int i) {
    auto& x = c[static_cast<std::size_t>(i)];
    if (packing.sets >> i & 1) return mask_of(v, x);
    if (packing.lists >> i & 1) return packed_of(v, x);
    if (!v.is(Kind::Int)) return false;
    x = v.as_int();
    return true;
  };
  if (arity == 1) return one(state, 0);
  if (!state.is(Kind::Tuple) || static_cast<int>(state.items().size()) != arity) return false;
  for (int i = 0; i < arity; ++i) {
    if (!one(state.items()[static_cast<std::size_t>(i)], i)) return false;
  }
  return true;
}

// The value of coordinate i as the language sees it.
inline Value coord_value(std::int64_t x, int i, IntProgram::Packing packing) {
  if (packing.sets >> i & 1) return set_of_mask(x);
  if (packing.lists >> i & 1) return list_of_packed(x);
  return Value::integer(x);
}

// The state of coordinates c (coords_of's inverse).
inline Value state_of(const std::int64_t* c, int arity, IntProgram::Packing packing = {}) {
  if (arity == 1) return coord_value(c[0], 0, packing);
  std::vector<Value> items;
  for (int i = 0; i < arity; ++i) items.push_back(coord_value(c[i], i, packing));
  return Value::tuple(std::move(items));
}

class BoxTable {
 public:
  explicit BoxTable(int arity) : arity_(arity) {}
  int arity() const { return arity_; }
  std::uint64_t cells() const { return cells_; }
  int width() const { return width_; }
  // The value of a state when it is known.
  std::optional<std::uint32_t> known(const std::int64_t* c) const {
    if (!inside(c)) return std::nullopt;
    const std::uint32_t v = get(index(c));
    if (v == unknown()) return std::nullopt;
    return v;
  }
  std::string describe() const;

  // Internals of the search (Tuples.cpp).
  bool inside(const std::int64_t* c) const {
    if (cells_ == 0) return false;
    for (int i = 0; i < arity_; ++i) {
      if (c[i] < 0 || c[i] >= dims_[static_cast<std::size_t>(i)]) return false;
    }
    return true;
  }
  std::int64_t index(const std::int64_t* c) const {
    std::int64_t at = 0;
    for (int i = 0; i < arity_; ++i) at += c[i] * strides_[static_cast<std::size_t>(i)];
    return at;
  }
  std::uint32_t get(std::int64_t i) const {
    const auto u = static_cast<std::size_t>(i);
    return width_ == 1 ? b1_[u] : width_ == 2 ? b2_[u] : b4_[u];
  }
  std::uint32_t unknown() const { return width_ == 1 ? 0xFFu : width_ == 2 ? 0xFFFFu : 0xFFFFFFFFu; }
  void set(std::int64_t i, std::uint32_t v) {
    if (v >= unknown()) widen(v);
    const auto u = static_cast<std::size_t>(i);
    if (width_ == 1) b1_[u] = static_cast<std::uint8_t>(v);
    else if (width_ == 2) b2_[u] = static_cast<std::uint16_t>(v);
    else b4_[u] = v;
    if (intervals_) [[unlikely]]
      note_interval(i, v);
  }
  // A table of one integer: the values over the interval of its known cells, where the run
  // of cells a..b (all known) starts or ends with that interval (runtime/IntervalValues.hpp);
  // null otherwise. Made at the first such run, and dropped for good when runs seldom start
  // or end with it (each cell filled then costs the index for nothing).
  const IntervalValues* intervals_for(std::int64_t a, std::int64_t b);
  // Makes the box hold c (and twice the old size in each growing dimension); false when
  // it would pass max_cells.
  bool grow(const std::int64_t* c, std::uint64_t max_cells);
  // The cells the box would span after grow(c), or 0 when it would pass max_cells.
  std::uint64_t cells_to_hold(const std::int64_t* c, std::uint64_t max_cells) const {
    std::array<std::int64_t, kMaxBoxArity> dims = dims_;
    return dims_to_hold(c, max_cells, dims);
  }
  const std::array<std::int64_t, kMaxBoxArity>& strides() const { return strides_; }
  const std::array<std::int64_t, kMaxBoxArity>& dims() const { return dims_; }
  template <typename F>
  decltype(auto) visit(F&& f) const {
    if (width_ == 1) return f(b1_);
    if (width_ == 2) return f(b2_);
    return f(b4_);
  }

  // The bottom-up sweep (Tuples.cpp): every cell x with 0 <= x <= extent (coordinatewise)
  // that comes before `mark` in lexicographic order is known. Lexicographic order does not
  // depend on the box's size, so growing the box keeps this true.
  struct Sweep {
    bool off = false;  // the rules once led outside what a sweep can read: top-down only
    // The same for the sweep by the sum of the coordinates (BoxFill.cpp, diagonal_to).
    bool diagonal_off = false;
    bool any = false;  // extent and mark are set
    Coords extent{};
    Coords mark{};
    // The rules' moves as tables (runtime/BoxMoves.hpp), and the dimensions of the box they
    // were last planned for (null where the rules are not of their shape).
    std::shared_ptr<const BoxMoves> moves;
    std::array<std::int64_t, kMaxBoxArity> moves_dims{};
  };
  Sweep& sweep() { return sweep_; }

 private:
  void widen(std::uint32_t v);
  void note_interval(std::int64_t i, std::uint32_t v);
  std::optional<std::uint32_t> known_at(std::int64_t i) const {
    if (i < 0 || i >= dims_[0]) return std::nullopt;
    const std::uint32_t v = get(i);
    if (v == unknown()) return std::nullopt;
    return v;
  }
  std::unique_ptr<IntervalValues> intervals_;  // the table is never copied
  bool intervals_off_ = false;
  std::uint64_t interval_hits_ = 0, interval_misses_ = 0;
  std::uint64_t dims_to_hold(const std::int64_t* c, std::uint64_t max_cells,
                             std::array<std::int64_t, kMaxBoxArity>& dims) const;
  int arity_;
  int width_ = 1;
  std::uint64_t cells_ = 0;
  std::array<std::int64_t, kMaxBoxArity> dims_{};
  std::array<std::int64_t, kMaxBoxArity> strides_{};
  std::vector<std::uint8_t> b1_;
  std::vector<std::uint16_t> b2_;
  std::vector<std::uint32_t> b4_;
  Sweep sweep_;
};

// What the search needs from the evaluator.
struct BoxHooks {
  std::function<void()> poll;                   // every few thousand states; may throw
  std::function<void(std::uint64_t)> reserve;   // before computing more states; may throw
  std::function<void(std::uint64_t)> computed;  // states computed
  // Options the outcome search looked at, in eighths of a step, to --max-steps (a search
  // that is finite but far too long, such as one whose options come in the worst order,
  // stops in seconds). May throw.
  std::function<void(std::uint64_t)> looked;
  std::uint64_t max_cells = std::uint64_t{1} << 26;
  std::uint64_t max_stack_bytes = UINT64_MAX;    // the search's stack of states to visit
  std::uint64_t max_outcome_bytes = UINT64_MAX;  // the outcome search's table, its directory included
  // A search's path and table together, past which it stops with the limit's error (exhausted):
  // a chain of states holds its whole path and few values.
  std::uint64_t max_search_bytes = UINT64_MAX;
  // States that may still be added, those being searched included; past it the search
  // gives up and the general search reports the limit.
  std::uint64_t room = UINT64_MAX;
  // The top-down search's path (root first), every 2^16 states once it is kRunawayDepth
  // deep: the evaluator stops a game whose states run away (runtime/Runaway.hpp). May throw.
  // `depth` positions, given by `at`, so that a path millions deep is not copied to be looked at.
  std::function<void(std::size_t depth, const std::function<Coords(std::size_t)>& at)> deep;
  // A search that cannot go on within the limits, with `path` states on its path from
  // `root`: past --max-states, or its path and table past max_search_bytes, or its table past
  // its own share. The general search would
  // meet the same limit, later and with more memory (hashed_value). Throws the limit's error.
  enum class Limit { States, Memory };
  std::function<void(const Coords& root, std::uint64_t path, Limit)> exhausted;
};

// The value of `c`, computed with `rules` into `memo`; nothing when the compiled rules cannot
// decide (an error, a state outside what a box can hold, a loop): the general search takes
// over and meets the same thing if the query needs it. `why` says what.
//
// Two ways to fill: top-down from `c`, which computes only the states `c` reaches, and a
// sweep over the box from 0 to `c` in lexicographic order, which computes every state there
// but reads each run of options straight from the table, as a hand-written loop does, once
// its two ends are seen to lie before the state in that order. The sweep is taken when the
// top-down search turns out to reach a good part of the box anyway; it stops for good the
// first time an option is neither before its state nor known (the rules are not such that
// options come first in that order). *sparse is set when it stopped because the states it
// reaches lie too far apart for a box (a hash map should hold them: HashedValues).
std::optional<std::uint32_t> box_value(BoxTable& memo, const IntProgram& rules, const std::int64_t* c,
                                       const BoxHooks& hooks, std::string& why, bool* sparse = nullptr);

// States computed, told to hooks.computed a batch at a time (a call per state was a tenth
// of the outcome search) and whenever the search polls or ends, however it ends.
class Tally {
 public:
  explicit Tally(const BoxHooks& hooks) : hooks_(hooks) {}
  ~Tally() { flush(); }
  Tally(const Tally&) = delete;
  Tally& operator=(const Tally&) = delete;
  void add() {
    if ((++done_ & 0x3FF) == 0) flush();
  }
  void add(std::uint64_t n) {
    done_ += n;
    if (done_ - told_ >= 0x400) flush();
  }
  void flush() {
    if (hooks_.computed && done_ > told_) hooks_.computed(done_ - told_);
    told_ = done_;
  }
  std::uint64_t done() const { return done_; }

 private:
  const BoxHooks& hooks_;
  std::uint64_t done_ = 0, told_ = 0;
};

// A state as a message names it: (3, 5).
std::string coords_text(const Coords& c, int arity, IntProgram::Packing packing = {});

}  // namespace grundy
