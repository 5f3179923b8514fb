#include "runtime/Tuples.hpp"

#include "runtime/OutcomeMemo.hpp"

#include <algorithm>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <absl/container/flat_hash_set.h>

namespace grundy {

// ---- the table ----

std::string TupleMemo::describe() const {
  std::string s;
  for (int i = 0; i < arity_; ++i) {
    if (i) s += " x ";
    s += std::to_string(dims_[static_cast<std::size_t>(i)]);
  }
  return s + " cells of " + std::to_string(width_) + " byte" + (width_ > 1 ? "s" : "");
}

namespace {
template <typename To, typename From>
std::vector<To> widen_copy(std::vector<From>& from, To unknown) {
  const From old = static_cast<From>(~From{0});
  std::vector<To> to(from.size());
  for (std::size_t i = 0; i < from.size(); ++i) to[i] = from[i] == old ? unknown : from[i];
  std::vector<From>().swap(from);
  return to;
}
}  // namespace

void TupleMemo::widen(std::uint32_t v) {
  if (width_ == 1) {
    if (v < 0xFFFFu) {
      b2_ = widen_copy<std::uint16_t>(b1_, 0xFFFF);
      width_ = 2;
      return;
    }
    b4_ = widen_copy<std::uint32_t>(b1_, 0xFFFFFFFFu);
    width_ = 4;
    return;
  }
  b4_ = widen_copy<std::uint32_t>(b2_, 0xFFFFFFFFu);
  width_ = 4;
}

void TupleMemo::set(std::int64_t i, std::uint32_t v) {
  if (v >= unknown()) widen(v);
  const auto u = static_cast<std::size_t>(i);
  if (width_ == 1) b1_[u] = static_cast<std::uint8_t>(v);
  else if (width_ == 2) b2_[u] = static_cast<std::uint16_t>(v);
  else b4_[u] = v;
}

bool TupleMemo::grow(const std::int64_t* c, std::uint64_t max_cells) {
  std::array<std::int64_t, kMaxBoxArity> dims = dims_;
  std::uint64_t cells = 1;
  for (int i = 0; i < arity_; ++i) {
    auto& d = dims[static_cast<std::size_t>(i)];
    if (c[i] < 0) return false;
    if (static_cast<std::uint64_t>(c[i]) >= max_cells) return false;  // and c[i] + 1 cannot overflow
    if (c[i] >= d) {
      const std::int64_t twice = d > (INT64_MAX / 2) ? INT64_MAX : 2 * d;
      d = std::max({c[i] + 1, twice, std::int64_t{arity_ == 1 ? 64 : 8}});
    }
    if (static_cast<std::uint64_t>(d) > max_cells) return false;
    cells *= static_cast<std::uint64_t>(d);
    if (cells > max_cells) return false;
  }
  // Rows of the last coordinate lie `pitch` cells apart. The box grows by doubling, so a
  // row of dims cells is most often a power of two long, and a run down a column (Wythoff's
  // `move (a - k, b)`) then meets the same few sets of the L1 cache at every step: it took
  // twice as long as in a box of 301 x 301. A pitch that is an odd multiple of 16 cells
  // spreads the column over the cache.
  const std::int64_t row = dims[static_cast<std::size_t>(arity_ - 1)];
  std::int64_t pitch = row;
  if (arity_ > 1 && row >= 64) {
    pitch = (row + 15) / 16 * 16;
    if (pitch % 32 == 0) pitch += 16;
  }
  std::array<std::int64_t, kMaxBoxArity> strides{};
  std::int64_t s = 1;
  for (int i = arity_; i-- > 0;) {
    strides[static_cast<std::size_t>(i)] = s;
    s *= i + 1 == arity_ ? pitch : dims[static_cast<std::size_t>(i)];
  }
  const auto storage = static_cast<std::uint64_t>(s);
  auto move_to = [&](auto& old) {
    using T = typename std::decay_t<decltype(old)>::value_type;
    std::vector<T> fresh(storage, static_cast<T>(~T{0}));
    if (cells_ > 0) {
      // Copy the old box row by row (the last coordinate is contiguous in both).
      const auto old_row = dims_[static_cast<std::size_t>(arity_ - 1)];
      Coords at{};
      for (std::uint64_t k = 0; k < cells_; k += static_cast<std::uint64_t>(old_row)) {
        std::int64_t from = 0, to = 0;
        for (int i = 0; i + 1 < arity_; ++i) {
          from += at[static_cast<std::size_t>(i)] * strides_[static_cast<std::size_t>(i)];
          to += at[static_cast<std::size_t>(i)] * strides[static_cast<std::size_t>(i)];
        }
        std::copy(old.begin() + from, old.begin() + from + old_row, fresh.begin() + to);
        for (int i = arity_ - 1; i-- > 0;) {
          auto& a = at[static_cast<std::size_t>(i)];
          if (++a < dims_[static_cast<std::size_t>(i)]) break;
          a = 0;
        }
      }
    }
    old.swap(fresh);
  };
  if (width_ == 1) move_to(b1_);
  else if (width_ == 2) move_to(b2_);
  else move_to(b4_);
  dims_ = dims;
  strides_ = strides;
  cells_ = cells;
  return true;
}

// ---- the sink: options read from the table ----

namespace {

// The loops over a run of options, each in a function of its own: with the whole sink
// around them the compiler kept the count in memory, and the store through `stamp` made it
// reload it at every option (a dependency through memory, 2.5x the time of the loop).
template <typename T>
[[gnu::noinline]] void stamp_singles(const T* p, std::int64_t sp, std::int64_t n, std::uint32_t* stamp,
                                     std::uint32_t gen) {
  for (; n > 0; --n, p += sp) stamp[*p] = gen;
}
template <typename T>
[[gnu::noinline]] void stamp_pairs(const T* p, const T* q, std::int64_t sp, std::int64_t sq, std::int64_t n,
                                   std::uint32_t* stamp, std::uint32_t gen) {
  for (; n > 0; --n, p += sp, q += sq) stamp[*p ^ *q] = gen;
}
// As stamp_pairs, for cells that may be unknown (all ones): true when one was. A cell is
// all ones exactly when adding 1 to it carries into the bit above its width, so an OR of
// the sums keeps that bit, with no test per option.
template <typename T>
[[gnu::noinline]] bool stamp_pairs_checked(const T* p, const T* q, std::int64_t sp, std::int64_t sq,
                                           std::int64_t n, std::uint32_t* stamp, std::uint32_t gen) {
  static_assert(sizeof(T) < sizeof(unsigned));
  unsigned carried = 0;
  for (; n > 0; --n, p += sp, q += sq) {
    const unsigned a = *p, b = *q;
    carried |= (a + 1) | (b + 1);
    stamp[a ^ b] = gen;
  }
  return (carried >> (8 * sizeof(T))) != 0;
}

// The first slot from 0 on not marked with `gen`: Wythoff's values run to hundreds, and so
// does this scan, once per state, as long as the options' loops themselves.
std::uint32_t mex_scan_plain(const std::uint32_t* stamp, std::uint32_t gen) {
  std::uint32_t v = 0;
#if defined(__SSE2__)
  const __m128i g = _mm_set1_epi32(static_cast<int>(gen));
  for (;; v += 4) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(stamp + v));
    const int same = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, g)));
    if (same != 0xF)
      return v + static_cast<std::uint32_t>(__builtin_ctz(static_cast<unsigned>(~same) & 0xFu));
  }
#else
  while (stamp[v] == gen) ++v;
  return v;
#endif
}
#if defined(__x86_64__)
__attribute__((target("avx2"))) std::uint32_t mex_scan_avx2(const std::uint32_t* stamp, std::uint32_t gen) {
  const __m256i g = _mm256_set1_epi32(static_cast<int>(gen));
  for (std::uint32_t v = 0;; v += 8) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(stamp + v));
    const int same = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(x, g)));
    if (same != 0xFF)
      return v + static_cast<std::uint32_t>(__builtin_ctz(static_cast<unsigned>(~same) & 0xFFu));
  }
}
#endif
std::uint32_t mex_scan(const std::uint32_t* stamp, std::uint32_t gen) {
#if defined(__x86_64__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return mex_scan_avx2(stamp, gen);
#endif
  return mex_scan_plain(stamp, gen);
}

constexpr int kRunParts = 4;
// Values below this are marked in the stamp array (every value of a 1- or 2-byte table),
// larger ones in a list; eight more slots, never marked, end the mex's scan.
constexpr std::uint32_t kStampSlots = 65537;
constexpr std::size_t kMaxChildren = std::size_t{1} << 20;  // options of one state not known yet

class BoxSink : public OptionSink {
 public:
  // The marks outlive one search (a fresh array per query would cost more than the query).
  BoxSink(TupleMemo& m, const BoxHooks& hooks)
      : m_(m), hooks_(hooks), stamp_(scratch().stamp), gen_(scratch().gen) {
    if (stamp_.size() < kStampSlots + 8) stamp_.assign(kStampSlots + 8, 0);
  }

  // Marks the values of the options whose parts are all known, and lists the parts that
  // are not known yet.
  void start() {
    any_unknown_ = false;
    crowded_ = false;
    grow_ = false;
    if (++gen_ == 0) {
      std::fill(stamp_.begin(), stamp_.end(), 0);
      gen_ = 1;
    }
    big_.clear();
    children_.clear();
    child_index_.clear();
  }

  bool option(const std::int64_t* coords, int parts) override {
    const int ar = m_.arity();
    std::uint32_t x = 0;
    bool unknown = false;
    for (int j = 0; j < parts; ++j) {
      const std::int64_t* p = coords + j * ar;
      if (!m_.inside(p)) return want(p);
      const std::int64_t i = m_.index(p);
      const std::uint32_t v = m_.get(i);
      if (v == m_.unknown()) {
        unknown = true;
        if (!child(p, i)) return false;
      } else {
        x ^= v;
      }
    }
    if (unknown) any_unknown_ = true;
    else mark(x);
    return true;
  }

  // Sweep mode: the cells of `extent` whose rank (their place in its lexicographic order)
  // is below `rank` are known; an option that is neither such a cell nor known blocks the
  // sweep instead of being listed for a search.
  void sweep(const Coords& extent) {
    sweeping_ = true;
    extent_ = extent;
    std::uint64_t s = 1;
    for (int i = m_.arity(); i-- > 0;) {
      sweep_strides_[static_cast<std::size_t>(i)] = s;
      s *= static_cast<std::uint64_t>(extent[static_cast<std::size_t>(i)]) + 1;
    }
  }
  void sweep_at(std::uint64_t rank) { rank_ = rank; }
  void search() { sweeping_ = false; }

  bool run(const std::int64_t* first, const std::int64_t* slope, int parts, std::int64_t count) override {
    if (count <= 0) return true;
    if (parts > kRunParts) return one_by_one(first, slope, parts, count);
    std::int64_t base[kRunParts], step[kRunParts];
    bool swept = false;
    const int ar = m_.arity();
    // The common shapes with their loops unrolled: this runs once per rule and state.
    const bool placed = ar == 1 && parts == 1   ? place<1, 1>(first, slope, 1, count, base, step, swept)
                        : ar == 1 && parts == 2 ? place<1, 2>(first, slope, 2, count, base, step, swept)
                        : ar == 2 && parts == 1 ? place<2, 1>(first, slope, 1, count, base, step, swept)
                        : ar == 2 && parts == 2 ? place<2, 2>(first, slope, 2, count, base, step, swept)
                                                : place<0, 0>(first, slope, parts, count, base, step, swept);
    if (!placed) return false;
    if (swept) {
      read_known(base, step, parts, count);
      return true;
    }
    bool unknown = false;
    m_.visit([&](const auto& vec) {
      using T = typename std::decay_t<decltype(vec)>::value_type;
      const T* t = vec.data();
      const T none = static_cast<T>(~T{0});
      std::uint32_t* stamp = stamp_.data();
      const std::uint32_t gen = gen_;
      if constexpr (sizeof(T) <= 2) {
        if (parts == 1) {
          // An unknown cell marks the slot of `none`, which no value of one part reaches:
          // one test after the loop instead of one per option.
          const std::uint32_t before = stamp[none];
          stamp[none] = 0;
          stamp_singles(t + base[0], step[0], count, stamp, gen);
          unknown = stamp[none] == gen;
          stamp[none] = before;
          return;
        }
        if (parts == 2) {
          unknown = stamp_pairs_checked(t + base[0], t + base[1], step[0], step[1], count, stamp, gen);
          return;
        }
      }
      {
        for (std::int64_t k = 0; k < count; ++k) {
          std::uint32_t x = 0;
          for (int j = 0; j < parts; ++j) {
            const T v = t[base[j] + k * step[j]];
            unknown |= v == none;
            x ^= v;
          }
          mark(x);
        }
      }
    });
    // Some part is not known yet: go through the run again, one option at a time, to list it.
    if (unknown) return one_by_one(first, slope, parts, count);
    return true;
  }

  // A run's parts in the table: each part's first cell and step, and whether the sweep has
  // filled every cell of the run. False (with grow_wanted() when the box is to grow) when
  // the run leaves the box or its last option overflows. AR and PARTS: 0 when not fixed.
  template <int AR, int PARTS>
  bool place(const std::int64_t* first, const std::int64_t* slope, int parts_, std::int64_t& count,
             std::int64_t* base, std::int64_t* step, bool& swept) {
    const int ar = AR ? AR : m_.arity();
    const int parts = PARTS ? PARTS : parts_;
    const int n = parts * ar;
    std::int64_t last[kMaxBoxArity * kRunParts];
    for (int q = 0; q < n; ++q) {
      std::int64_t t = 0;
      if (__builtin_mul_overflow(slope[q], count - 1, &t) || __builtin_add_overflow(first[q], t, &last[q])) {
        return false;
      }
    }
    // Two parts that run towards each other through the same cells, as in
    // `split [(i, h), (w - i, h)] for i in 2..w-2`: the option at k is the option at
    // count - 1 - k, so the first half of the run is all of its options.
    if (parts == 2) {
      bool mirrored = true;
      for (int i = 0; i < ar; ++i) {
        mirrored = mirrored && first[i] == last[ar + i] &&
                   static_cast<std::uint64_t>(slope[i]) + static_cast<std::uint64_t>(slope[ar + i]) == 0;
      }
      if (mirrored) {
        count = (count + 1) / 2;
        for (int q = 0; q < n; ++q) last[q] = first[q] + slope[q] * (count - 1);
      }
    }
    swept = sweeping_;
    const auto& dims = m_.dims();
    const auto& strides = m_.strides();
    for (int j = 0; j < parts; ++j) {
      std::int64_t b = 0, d = 0;
      std::uint64_t rank_first = 0, rank_last = 0;
      for (int i = 0; i < ar; ++i) {
        const auto u = static_cast<std::size_t>(i);
        const std::int64_t f = first[j * ar + i], l = last[j * ar + i];
        if (std::min(f, l) < 0 || std::max(f, l) >= dims[u]) return want_run(first + j * ar, last + j * ar);
        b += f * strides[u];
        if (count > 1) d += slope[j * ar + i] * strides[u];  // both ends inside: no overflow
        if (std::max(f, l) > extent_[u]) swept = false;
        rank_first += static_cast<std::uint64_t>(f) * sweep_strides_[u];
        rank_last += static_cast<std::uint64_t>(l) * sweep_strides_[u];
      }
      if (rank_first >= rank_ || rank_last >= rank_) swept = false;
      base[j] = b;
      step[j] = d;
    }
    return true;
  }

  std::uint32_t mex() {
    // The slots after the last are never marked, so the scan stops there at the latest.
    std::uint32_t v = mex_scan(stamp_.data(), gen_);
    if (v < kStampSlots || big_.empty()) return v;
    std::sort(big_.begin(), big_.end());
    for (std::uint32_t b : big_) {
      if (b == v) ++v;
      else if (b > v) break;
    }
    return v;
  }

  void pulse() override {
    if (hooks_.poll) hooks_.poll();
  }

  bool any_unknown() const { return any_unknown_; }
  bool crowded() const { return crowded_; }
  bool grow_wanted() const { return grow_; }
  const Coords& grow_to() const { return grow_to_; }
  const std::vector<Coords>& children() const { return children_; }

 private:
  bool one_by_one(const std::int64_t* first, const std::int64_t* slope, int parts, std::int64_t count) {
    const int n = parts * m_.arity();
    std::vector<std::int64_t> c(first, first + n);
    for (std::int64_t k = 0; k < count; ++k) {
      if (!option(c.data(), parts)) return false;
      for (int q = 0; q < n; ++q) c[static_cast<std::size_t>(q)] += slope[q];
    }
    return true;
  }
  void mark(std::uint32_t x) {
    if (x < kStampSlots) stamp_[x] = gen_;
    else big_.push_back(x);
  }
  // Marks the values of a run whose cells are all known: nothing to test per option.
  void read_known(const std::int64_t* base, const std::int64_t* step, int parts, std::int64_t count) {
    m_.visit([&](const auto& vec) {
      using T = typename std::decay_t<decltype(vec)>::value_type;
      const T* t = vec.data();
      std::uint32_t* stamp = stamp_.data();
      const std::uint32_t gen = gen_;
      if constexpr (sizeof(T) <= 2) {
        if (parts == 1) return stamp_singles(t + base[0], step[0], count, stamp, gen);
        if (parts == 2) return stamp_pairs(t + base[0], t + base[1], step[0], step[1], count, stamp, gen);
      }
      {
        for (std::int64_t k = 0; k < count; ++k) {
          std::uint32_t x = 0;
          for (int j = 0; j < parts; ++j) x ^= t[base[j] + k * step[j]];
          mark(x);
        }
      }
    });
  }
  bool child(const std::int64_t* p, std::int64_t i) {
    if (sweeping_) return false;  // not known and not before the state: the sweep is over
    // Millions of options not known yet (one state's options spread over a huge range):
    // give up, in good time and before the list passes the search stack's share of
    // --max-memory. The general search takes such a state (and counts its steps).
    if (children_.size() >= kMaxChildren ||
        children_.size() * (sizeof(Coords) + 2 * sizeof(std::int64_t)) > hooks_.max_stack_bytes) {
      crowded_ = true;
      return false;
    }
    if (!child_index_.insert(i).second) return true;
    Coords c{};
    std::copy(p, p + m_.arity(), c.begin());
    children_.push_back(c);
    return true;
  }
  // A run leaves the box: the box is to grow to its end outside (the corner of the run's
  // cells nearest 0 when some coordinate is negative, so that the search meets that).
  bool want_run(const std::int64_t* first, const std::int64_t* last) {
    const int ar = m_.arity();
    std::int64_t lo[kMaxBoxArity], hi[kMaxBoxArity];
    for (int i = 0; i < ar; ++i) {
      lo[i] = std::min(first[i], last[i]);
      hi[i] = std::max(first[i], last[i]);
    }
    for (int i = 0; i < ar; ++i) {
      if (lo[i] < 0) return want(lo);
    }
    return want(hi);
  }
  bool want(const std::int64_t* p) {
    grow_ = true;
    grow_to_ = Coords{};
    std::copy(p, p + m_.arity(), grow_to_.begin());
    return false;
  }

  struct Scratch {
    std::vector<std::uint32_t> stamp;
    std::uint32_t gen = 0;
  };
  static Scratch& scratch() {
    thread_local Scratch s;
    return s;
  }

  TupleMemo& m_;
  const BoxHooks& hooks_;
  std::vector<std::uint32_t>& stamp_;
  std::uint32_t& gen_;
  std::vector<std::uint32_t> big_;
  bool any_unknown_ = false;
  bool crowded_ = false;
  bool grow_ = false;
  Coords grow_to_{};
  std::vector<Coords> children_;
  absl::flat_hash_set<std::int64_t> child_index_;
  bool sweeping_ = false;
  Coords extent_{};
  std::uint64_t rank_ = 0;
  std::array<std::uint64_t, kMaxBoxArity> sweep_strides_{};
};

std::string show(const Coords& c, int arity) {
  std::string s = "(";
  for (int i = 0; i < arity; ++i) {
    if (i) s += ", ";
    s += std::to_string(c[static_cast<std::size_t>(i)]);
  }
  return s + ")";
}

enum class Fill : std::uint8_t { Done, OverBudget, Failed };

// Stores the value the sink has found for the cell at `at`.
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
  void flush() {
    if (hooks_.computed && done_ > told_) hooks_.computed(done_ - told_);
    told_ = done_;
  }
  std::uint64_t done() const { return done_; }

 private:
  const BoxHooks& hooks_;
  std::uint64_t done_ = 0, told_ = 0;
};

void settle(TupleMemo& memo, BoxSink& sink, const std::int64_t* at, const BoxHooks& hooks) {
  if (hooks.reserve) hooks.reserve(1);
  memo.set(memo.index(at), sink.mex());
  if (hooks.computed) hooks.computed(1);
}

// Top-down from `root`: a state's options not known yet are stacked and computed first.
// Stops (OverBudget) once it has computed `budget` states; what it computed stays.
Fill search(TupleMemo& memo, const IntProgram& rules, BoxSink& sink, const Coords& root,
            const BoxHooks& hooks, std::uint64_t budget, std::string& why) {
  const int ar = memo.arity();
  sink.search();
  struct Entry {
    Coords c;
    bool expanded;
  };
  std::vector<Entry> stack{{root, false}};
  absl::flat_hash_set<Coords> grey;  // expanded and not finished: the ancestors of the top
  std::uint64_t ticks = 0;
  std::uint64_t done = 0;
  while (!stack.empty()) {
    if ((++ticks & 0xFFF) == 0 && hooks.poll) hooks.poll();
    const Coords at = stack.back().c;
    const bool expanded = stack.back().expanded;
    if (memo.known(at.data())) {
      if (expanded) grey.erase(at);
      stack.pop_back();
      continue;
    }
    sink.start();
    const bool ok = rules.options(at.data(), sink);
    if (!ok) {
      if (sink.grow_wanted() && memo.grow(sink.grow_to().data(), hooks.max_cells)) continue;
      why = sink.grow_wanted()
                ? "the option " + show(sink.grow_to(), ar) + " of " + show(at, ar) +
                      " does not fit a table of at most " + std::to_string(hooks.max_cells) + " cells"
            : sink.crowded() ? "the options of " + show(at, ar) + " not known yet fill the search stack"
                             : "the compiled rules stop at " + show(at, ar);
      return Fill::Failed;
    }
    if (!sink.any_unknown()) {
      settle(memo, sink, at.data(), hooks);
      if (++done >= budget) return Fill::OverBudget;
      if (expanded) grey.erase(at);
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      stack.back().expanded = true;
      grey.insert(at);
    }
    for (const Coords& child : sink.children()) {
      if (grey.count(child)) {
        why = "a loop through " + show(child, ar);
        return Fill::Failed;
      }
      stack.push_back({child, false});
    }
    if (grey.size() + done >= hooks.room) {
      why = "more states than --max-states allows";
      return Fill::Failed;
    }
    // States waiting count against a budget as states done do: a chain of options that
    // are all not known yet (n -> n - 3 -> ...) stacked 330,000 states for H(10^6), 60 MB,
    // before the first was done.
    if (stack.size() > budget) return Fill::OverBudget;
    // Every unknown child of every expanded state waits on the stack: with n options per
    // state that is n^2 / 2 entries. Past a quarter of --max-memory the general search,
    // which keeps one cursor per level and counts its memory, takes over.
    if (stack.size() * sizeof(Entry) > hooks.max_stack_bytes) {
      why = "the search stack holds " + std::to_string(stack.size()) + " states";
      return Fill::Failed;
    }
  }
  return Fill::Done;
}

// Lexicographic order within an extent: a cell's rank, and the cell after it.
std::uint64_t rank_in(const Coords& x, const Coords& extent, int ar) {
  std::uint64_t r = 0;
  for (int i = 0; i < ar; ++i) {
    r = r * (static_cast<std::uint64_t>(extent[static_cast<std::size_t>(i)]) + 1) +
        static_cast<std::uint64_t>(x[static_cast<std::size_t>(i)]);
  }
  return r;
}
void advance(Coords& x, const Coords& extent, int ar) {
  for (int i = ar; i-- > 0;) {
    auto& a = x[static_cast<std::size_t>(i)];
    if (i == 0 || a < extent[static_cast<std::size_t>(i)]) {
      ++a;
      return;
    }
    a = 0;
  }
}

// The sweep's extent and first cell not known to be filled, once `c` joins the extent.
// Where the extent grows in a coordinate after the first, cells before the old mark join
// it that nobody filled: the mark goes back to the first of them.
std::pair<Coords, Coords> sweep_plan(const TupleMemo::Sweep& sw, const Coords& c, int ar) {
  if (!sw.any) return {c, Coords{}};
  Coords extent = sw.extent, mark = sw.mark;
  for (int j = 0; j < ar; ++j) {
    const auto u = static_cast<std::size_t>(j);
    if (c[u] <= sw.extent[u]) continue;
    extent[u] = c[u];
    Coords first_new{};
    first_new[u] = sw.extent[u] + 1;
    if (std::lexicographical_compare(first_new.begin(), first_new.begin() + ar, mark.begin(),
                                     mark.begin() + ar)) {
      mark = first_new;
    }
  }
  return {extent, mark};
}

// Fills every cell of the extent from the mark up to `target` in lexicographic order; the
// query needs the cells up to `need`. Done once `need` is filled, or Failed when a cell up to
// it has options that are neither before it nor known (the sweep is then off for good) or
// the compiled rules stop there. Cells filled stay filled either way.
Fill sweep_to(TupleMemo& memo, const IntProgram& rules, BoxSink& sink, const Coords& need,
              const Coords& target, const BoxHooks& hooks) {
  const int ar = memo.arity();
  TupleMemo::Sweep& sw = memo.sweep();
  auto [extent, x] = sweep_plan(sw, target, ar);
  std::uint64_t rank = rank_in(x, extent, ar);
  const std::uint64_t needed = rank_in(need, extent, ar);
  const std::uint64_t last = rank_in(target, extent, ar);
  sw.any = true;
  sw.extent = extent;
  sink.sweep(extent);
  // The cells filled are reported in batches, not one by one as settle() does: the caller
  // made sure that all of them fit --max-states, so there is nothing to reserve either.
  Tally tally(hooks);
  for (std::uint64_t ticks = 0; rank <= last; ++rank, advance(x, extent, ar)) {
    if ((++ticks & 0xFFF) == 0) {
      tally.flush();
      if (hooks.poll) hooks.poll();
    }
    const std::int64_t i = memo.index(x.data());
    if (memo.get(i) != memo.unknown()) continue;
    sink.start();
    sink.sweep_at(rank);
    if (!rules.options(x.data(), sink) || sink.any_unknown()) {
      sw.mark = x;
      if (rank > needed) return Fill::Done;  // only cells the query did not ask for are left
      sw.off = true;
      return Fill::Failed;
    }
    memo.set(i, sink.mex());
    tally.add();
  }
  sw.mark = x;
  return Fill::Done;
}

// Cells a sweep may fill at once without asking whether the search would need them.
constexpr std::uint64_t kSmallSweep = 1 << 12;

}  // namespace

std::optional<std::uint32_t> box_value(TupleMemo& memo, const IntProgram& rules, const std::int64_t* c,
                                       const BoxHooks& hooks, std::string& why) {
  const int ar = memo.arity();
  Coords root{};
  std::copy(c, c + ar, root.begin());
  if (!memo.inside(c) && !memo.grow(c, hooks.max_cells)) {
    why = "the state " + show(root, ar) + " does not fit a table of at most " +
          std::to_string(hooks.max_cells) + " cells";
    return std::nullopt;
  }
  if (auto v = memo.known(c)) return v;
  BoxSink sink(memo, hooks);
  std::uint64_t budget = UINT64_MAX;
  if (!memo.sweep().off) {
    const auto [extent, mark] = sweep_plan(memo.sweep(), root, ar);
    std::uint64_t cells = rank_in(root, extent, ar) - rank_in(mark, extent, ar) + 1;
    // A grid of queries in order asks for the rest of the row next: when it is short, fill
    // it now (a query then finds its value known, with no sweep to set up).
    Coords target = root;
    const auto row = static_cast<std::uint64_t>(extent[static_cast<std::size_t>(ar - 1)] -
                                                root[static_cast<std::size_t>(ar - 1)]);
    if (ar > 1 && cells + row <= kSmallSweep) {
      target[static_cast<std::size_t>(ar - 1)] = extent[static_cast<std::size_t>(ar - 1)];
      cells += row;
    }
    // A sweep fills cells the query may not need; it must not be what passes --max-states.
    if (cells <= hooks.room) {
      // Far to go: first see whether the search stays small (Wythoff(300, 0) needs 300
      // states of the 90,000 a sweep would fill); past 1/32 of the cells it does not.
      if (cells > kSmallSweep) {
        const Fill f = search(memo, rules, sink, root, hooks, std::max<std::uint64_t>(cells / 32, 1), why);
        if (f == Fill::Done) return memo.known(c);
        if (f == Fill::Failed) return std::nullopt;
      }
      if (sweep_to(memo, rules, sink, root, target, hooks) == Fill::Done) return memo.known(c);
    }
  }
  // Most often (a grid of queries in order) every option is known already: no search.
  sink.start();
  sink.search();
  if (rules.options(c, sink) && !sink.any_unknown()) {
    settle(memo, sink, c, hooks);
    return memo.known(c);
  }
  if (search(memo, rules, sink, root, hooks, budget, why) == Fill::Failed) return std::nullopt;
  return memo.known(c);
}

// ---- outcomes, with the first losing option cutting the search short ----

namespace {

class OutcomeSink : public OptionSink {
 public:
  enum class Found : std::uint8_t { Nothing, Losing, Unknown };

  OutcomeSink(OutcomeMemo& outcomes, const TupleMemo& values, const BoxHooks& hooks)
      : o_(outcomes), v_(values), any_values_(values.cells() > 0), hooks_(hooks) {}

  void pulse() override {
    if (hooks_.poll) hooks_.poll();
  }

  // Looks at the options from number `skip` on (the earlier ones are known to be N).
  void start(std::int64_t skip) {
    skip_ = skip;
    seen_ = 0;
    found_ = Found::Nothing;
    grow_ = false;
    searching_ = false;
    in_run_ = false;
  }

  bool option(const std::int64_t* coords, int parts) override {
    if (seen_++ < skip_) return true;
    if (parts == 0) return stop(Found::Losing, coords);  // split []: the empty sum, a P-position
    return look(coords);
  }

  bool run(const std::int64_t* first, const std::int64_t* slope, int parts, std::int64_t count) override {
    if (count <= 0) return true;
    if (seen_ + count <= skip_) {
      seen_ += count;
      return true;
    }
    const int ar = o_.arity();
    const std::int64_t start = seen_;
    std::int64_t k = std::max<std::int64_t>(0, skip_ - seen_);
    if (parts == 0) {  // split []: the empty sum, a P-position
      seen_ += k + 1;
      return stop(Found::Losing, first);
    }
    // Stepped rather than multiplied, in unsigned arithmetic: the step after the last
    // option may leave the 64-bit range (and is not used).
    std::int64_t c[kMaxBoxArity];
    for (int i = 0; i < ar; ++i) c[i] = first[i] + k * slope[i];
    for (; k < count; ++k) {
      if (!look(c)) {
        seen_ = start + k + 1;
        if (found_ == Found::Unknown) {
          run_ = Run{{}, {}, k, count, start};
          std::copy(first, first + ar, run_.first.begin());
          std::copy(slope, slope + ar, run_.slope.begin());
          in_run_ = true;
        }
        return false;
      }
      for (int i = 0; i < ar; ++i) {
        c[i] = static_cast<std::int64_t>(static_cast<std::uint64_t>(c[i]) +
                                         static_cast<std::uint64_t>(slope[i]));
      }
    }
    seen_ = start + count;
    return true;
  }

  // Where in a run of options the unknown option found lies, so that the search can go on
  // through the run from there without listing the state's options again (which costs
  // more than looking at a few options: Fibonacci nim's states have a losing option
  // among their first five).
  struct Run {
    Coords first, slope;
    std::int64_t k = 0, count = 0;
    std::int64_t start = 0;  // the number of the run's first option among the state's options
  };
  bool in_run() const { return in_run_; }
  const Run& run_found() const { return run_; }

  // For the search's resumption of a run: the option p's outcome when known.
  Found judge(const std::int64_t* p) {
    found_ = Found::Nothing;
    in_run_ = false;
    grow_ = false;
    searching_ = false;
    if (look(p)) return Found::Nothing;
    return found_;
  }

  Found found() const { return found_; }
  std::int64_t position() const { return seen_ - 1; }  // of the option found
  const Coords& child() const { return child_; }
  bool child_searching() const { return searching_; }  // the unknown child is an ancestor
  bool grow_wanted() const { return grow_; }

 private:
  bool look(const std::int64_t* p) {
    switch (o_.probe(p)) {
      case OutcomeMemo::kWins: return true;
      case OutcomeMemo::kLoses: return stop(Found::Losing, p);
      case OutcomeMemo::kOutside:
        grow_ = true;
        std::copy(p, p + o_.arity(), child_.begin());
        return false;
      case OutcomeMemo::kSearching:  // an ancestor: the search sees the loop
        searching_ = true;
        return stop(Found::Unknown, p);
      default: break;
    }
    if (any_values_) {
      if (auto g = v_.known(p)) {
        if (*g == 0) return stop(Found::Losing, p);
        return true;
      }
    }
    return stop(Found::Unknown, p);
  }
  // child_'s coordinates past the arity stay 0.
  bool stop(Found f, const std::int64_t* p) {
    found_ = f;
    for (int i = 0; i < o_.arity(); ++i) child_[static_cast<std::size_t>(i)] = p[i];
    return false;
  }

  OutcomeMemo& o_;
  const TupleMemo& v_;
  const bool any_values_;
  const BoxHooks& hooks_;
  std::int64_t skip_ = 0;
  std::int64_t seen_ = 0;
  Found found_ = Found::Nothing;
  bool grow_ = false;
  bool searching_ = false;
  Coords child_{};
  bool in_run_ = false;
  Run run_;
};

}  // namespace

std::optional<bool> box_outcome(OutcomeMemo& outcomes, const TupleMemo& values, const IntProgram& rules,
                                const std::int64_t* c, const BoxHooks& hooks, std::string& why) {
  const int ar = outcomes.arity();
  Coords root{};
  std::copy(c, c + ar, root.begin());
  if (auto g = values.known(c)) return *g != 0;
  // The table's memory is its tiles written, and a directory of a pointer per tile the box
  // spans, kept to an eighth of it.
  const std::uint64_t max_tiles = hooks.max_outcome_bytes / OutcomeMemo::tile_bytes();
  const std::uint64_t max_directory = hooks.max_outcome_bytes / 64;
  auto grow = [&](const std::int64_t* p) { return outcomes.grow(p, max_directory); };
  auto no_room = [&](const std::string& state) {
    why = "the state " + state + " lies outside a table whose directory may hold " +
          std::to_string(max_directory) + " tiles (--max-memory)";
  };
  if (!outcomes.inside(c) && !grow(c)) {
    no_room(show(root, ar));
    return std::nullopt;
  }
  auto known = [&](const std::int64_t* p) -> std::optional<bool> {
    if (auto w = outcomes.get(p)) return w;
    if (auto g = values.known(p)) return *g != 0;
    return std::nullopt;
  };
  Tally tally(hooks);
  auto record = [&](const Coords& at, bool wins) {
    // `room` is what --max-states leaves: past it, the limit's own error.
    if (tally.done() >= hooks.room && hooks.reserve) {
      tally.flush();
      hooks.reserve(1);
    }
    outcomes.set(at.data(), wins);
    tally.add();
  };
  struct Entry {
    Coords c;
    std::int64_t skip;  // options before this one are known to be N
    bool expanded;
    bool in_run = false;  // the option being decided lies in `run`: go on from there
    OutcomeSink::Run run{};
  };
  std::vector<Entry> stack{{root, 0, false}};
  // The expanded states on the stack (the ancestors of the top) carry a mark in the memo
  // itself, where a loop meets them again; however the search ends (an answer, giving up,
  // an exception from a hook), no mark stays behind.
  std::uint64_t grey = 0;
  struct Unmark {
    OutcomeMemo& memo;
    const std::vector<Entry>& stack;
    ~Unmark() {
      for (const Entry& e : stack) {
        if (e.expanded) memo.unmark_searching(e.c.data());
      }
    }
  } unmark{outcomes, stack};
  OutcomeSink sink(outcomes, values, hooks);
  std::uint64_t ticks = 0;
  auto poll = [&] {
    tally.flush();
    if (hooks.poll) hooks.poll();
  };
  // The top entry is decided (wins: the player to move there wins): it is recorded and
  // popped, and its parent, whose pending option it was, goes on after it, or wins too when
  // it loses, and so on up, as the returns of a recursive win() would.
  auto settle = [&](bool wins) {
    for (;;) {
      Entry& e = stack.back();
      record(e.c, wins);  // replaces the mark
      if (e.expanded) --grey;
      stack.pop_back();
      if (stack.empty()) return;
      Entry& parent = stack.back();
      if (!wins) {
        wins = true;
        continue;
      }
      if (parent.in_run) ++parent.run.k;
      else ++parent.skip;
      return;
    }
  };
  auto cannot_grow = [&](const Coords& at) {
    no_room(show(sink.child(), ar) + ", an option of " + show(at, ar) + ",");
  };
  // The option sink.child() of the top entry is not known yet: decide it first (true), or
  // give up (false).
  auto descend = [&] {
    Entry& e = stack.back();
    if (!e.expanded) {
      e.expanded = true;
      outcomes.mark_searching(e.c.data());
      ++grey;
    }
    const Coords& child = sink.child();
    if (sink.child_searching()) {
      why = "a loop through " + show(child, ar);
      return false;
    }
    if (grey + tally.done() >= hooks.room) {
      why = "more states than --max-states allows";
      return false;
    }
    // A game that goes on without end (its states grow) meets this first.
    if ((stack.size() + 1) * sizeof(Entry) > hooks.max_stack_bytes) {
      why = "the search stack holds " + std::to_string(stack.size()) + " states";
      return false;
    }
    stack.push_back({child, 0, false});
    return true;
  };
  if (auto w = known(c)) return *w;
  while (!stack.empty()) {
    if ((++ticks & 0xFFF) == 0) poll();
    if (outcomes.tiles_used() > max_tiles) {  // each step writes at most one cell
      why = "the outcome table passes its share of --max-memory (" + std::to_string(outcomes.tiles_used()) +
            " tiles)";
      return std::nullopt;
    }
    Entry& e = stack.back();
    if (e.in_run) {
      OutcomeSink::Run& r = e.run;
      OutcomeSink::Found f = OutcomeSink::Found::Nothing;
      std::int64_t p[kMaxBoxArity];
      for (; r.k < r.count; ++r.k) {
        if ((++ticks & 0xFFF) == 0) poll();
        for (int i = 0; i < ar; ++i)
          p[i] = r.first[static_cast<std::size_t>(i)] + r.k * r.slope[static_cast<std::size_t>(i)];
        f = sink.judge(p);
        if (f != OutcomeSink::Found::Nothing || sink.grow_wanted()) break;
      }
      if (sink.grow_wanted()) {
        if (grow(sink.child().data())) continue;
        cannot_grow(e.c);
        return std::nullopt;
      }
      if (f == OutcomeSink::Found::Losing) {
        settle(true);
        continue;
      }
      if (f == OutcomeSink::Found::Unknown) {
        e.skip = r.start + r.k;
        if (!descend()) return std::nullopt;
        continue;
      }
      // Every option of the run is N: the options after it are listed from there.
      e.in_run = false;
      e.skip = r.start + r.count;
    }
    sink.start(e.skip);
    const bool all = rules.options(e.c.data(), sink);
    if (!all && sink.found() == OutcomeSink::Found::Nothing) {
      if (sink.grow_wanted() && grow(sink.child().data())) continue;
      if (sink.grow_wanted()) cannot_grow(e.c);
      else why = "the compiled rules stop at " + show(e.c, ar);
      return std::nullopt;
    }
    if (sink.found() != OutcomeSink::Found::Unknown) {
      settle(sink.found() == OutcomeSink::Found::Losing);
      continue;
    }
    // The first option not known yet: decide it, then come back to the options after it.
    e.skip = sink.position();
    e.in_run = sink.in_run();
    if (e.in_run) e.run = sink.run_found();
    if (!descend()) return std::nullopt;
  }
  if (auto w = known(c)) return *w;
  return std::nullopt;
}

}  // namespace grundy
