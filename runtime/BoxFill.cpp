// Filling a box of states (runtime/BoxTable.hpp, box_value): the sink that reads a state's
// options from the table (a run of options as one strided loop, the mex scanned in SIMD), the
// top-down search, and the sweep in lexicographic order. One job, kept in one file so that the
// sink's loops inline into the fill.
#include <algorithm>
#include <bit>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <absl/container/flat_hash_set.h>

#include "runtime/BoxMoves.hpp"
#include "runtime/BoxTable.hpp"
#include "runtime/Runaway.hpp"

namespace grundy {

// ---- the sink: options read from the table ----

namespace {

// The loops over a run of options, each in a function of its own: with the whole sink
// around them the compiler kept the count in memory, and the store through `stamp` made it
// reload it at every option (a dependency through memory, 2.5x the time of the loop). The
// three small ones start a cache line (gnu::aligned(64)): stamp_singles' loop of five
// instructions took twice the time when an unrelated change to the binary left it across a
// line's end. (stamp_known's loop sits further in, and aligning its start made it slower.)
template <typename T>
[[gnu::noinline, gnu::aligned(64)]] void stamp_singles(const T* p, std::int64_t sp, std::int64_t n, std::uint32_t* stamp,
                                     std::uint32_t gen) {
  for (; n > 0; --n, p += sp) stamp[*p] = gen;
}
template <typename T>
[[gnu::noinline, gnu::aligned(64)]] void stamp_pairs(const T* p, const T* q, std::int64_t sp, std::int64_t sq, std::int64_t n,
                                   std::uint32_t* stamp, std::uint32_t gen) {
  for (; n > 0; --n, p += sp, q += sq) stamp[*p ^ *q] = gen;
}
// As stamp_pairs, for cells that may be unknown (all ones): true when one was. A cell is
// all ones exactly when adding 1 to it carries into the bit above its width, so an OR of
// the sums keeps that bit, with no test per option.
template <typename T>
[[gnu::noinline, gnu::aligned(64)]] bool stamp_pairs_checked(const T* p, const T* q, std::int64_t sp, std::int64_t sq,
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

// Options coord(j), j = from, from + 1, ..., whose values the table knows, marked: returns the
// first j whose value it does not know (count: none). A loop of its own, as above.
template <typename T, class Coord>
[[gnu::noinline]] std::int64_t stamp_known(const T* t, std::uint64_t size, Coord coord, std::int64_t from,
                                           std::int64_t count, std::uint32_t* stamp, std::uint32_t gen) {
  constexpr T none = static_cast<T>(~T{0});
  for (std::int64_t j = from; j < count; ++j) {
    const auto x = static_cast<std::uint64_t>(coord(j));
    const T v = x < size ? t[x] : none;
    if (v == none) return j;
    stamp[v] = gen;
  }
  return count;
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
// A run of consecutive states of one integer at least this long is looked up in the index
// of the known cells (runtime/IntervalValues.hpp) when it starts or ends with them; a state
// with more such runs marks the others.
constexpr std::int64_t kIntervalRun = 64;
constexpr std::size_t kMaxIntervalRuns = 4;
// Values below this are marked in the stamp array (every value of a 1- or 2-byte table),
// larger ones in a list; eight more slots, never marked, end the mex's scan.
constexpr std::uint32_t kStampSlots = 65537;
constexpr std::size_t kMaxChildren = std::size_t{1} << 20;  // options of one state not known yet

class BoxSink : public OptionSink {
 public:
  // The marks outlive one search (a fresh array per query would cost more than the query).
  BoxSink(BoxTable& m, const BoxHooks& hooks)
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
    runs_.clear();
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

  bool takes_all() const override { return true; }
  // One-integer options of one part: the known values marked in one pass over the table,
  // the others as option() takes them.
  std::int64_t batch(const std::int64_t* coords, int parts, int width, std::int64_t count) override {
    if (parts != 1 || m_.arity() != 1 || m_.cells() == 0 || m_.strides()[0] != 1)
      return OptionSink::batch(coords, parts, width, count);
    return read_batch(count, [coords](std::int64_t j) { return coords[j]; });
  }
  std::int64_t batch_minus(std::int64_t c, const std::int64_t* x, std::int64_t count) override {
    if (m_.arity() != 1 || m_.cells() == 0 || m_.strides()[0] != 1)
      return OptionSink::batch_minus(c, x, count);
    return read_batch(count, [c, x](std::int64_t j) { return c - x[j]; });
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
    if (parts == 1 && count >= kIntervalRun && m_.arity() == 1 && (slope[0] == 1 || slope[0] == -1) &&
        runs_.size() < kMaxIntervalRuns) {
      // A run of consecutive states: its values looked up in the index of the known cells
      // rather than marked one by one (intervals_for checks both ends against the box).
      std::int64_t end = 0;
      if (!__builtin_add_overflow(first[0], slope[0] * (count - 1), &end)) {
        const std::int64_t a = std::min(first[0], end), b = std::max(first[0], end);
        if (const IntervalValues* iv = m_.intervals_for(a, b)) {
          intervals_ = iv;
          runs_.push_back({a, b});
          return true;
        }
      }
    }
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
    if (!runs_.empty()) return mex_with_runs();
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
  // The options of one integer coord(0), coord(1), ... read from the table in one loop: a known
  // value marked, any other listed as an option. Returns how many it took.
  template <class Coord>
  std::int64_t read_batch(std::int64_t count, Coord coord) {
    std::int64_t j = 0;
    m_.visit([&](const auto& vec) {
      using T = typename std::decay_t<decltype(vec)>::value_type;
      const T none = static_cast<T>(~T{0});
      const auto size =
          std::min(static_cast<std::uint64_t>(vec.size()), static_cast<std::uint64_t>(m_.dims()[0]));
      const T* t = vec.data();
      std::uint32_t* stamp = stamp_.data();  // in locals: the stores through stamp may not alias them
      const std::uint32_t gen = gen_;
      for (;; ++j) {
        if constexpr (sizeof(T) <= 2) {  // every value of the table has its slot
          j = stamp_known(t, size, coord, j, count, stamp, gen);
        } else {
          for (; j < count; ++j) {
            const auto x = static_cast<std::uint64_t>(coord(j));
            const T v = x < size ? t[x] : none;
            if (v == none) break;
            mark(v);
          }
        }
        if (j == count) return;
        const std::int64_t c = coord(j);
        if (!option(&c, 1)) return;
      }
    });
    return j;
  }

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
  // The least value that no run of runs_ holds and no other option has: the first value
  // absent from the first run, tried against the others and the marks, and so on.
  std::uint32_t mex_with_runs() {
    std::sort(big_.begin(), big_.end());
    for (std::uint32_t v = 0;; ++v) {
      v = intervals_->absent_from(v, runs_[0].a, runs_[0].b);
      bool taken = v < kStampSlots ? stamp_[v] == gen_ : std::binary_search(big_.begin(), big_.end(), v);
      for (std::size_t r = 1; r < runs_.size() && !taken; ++r) taken = intervals_->has(v, runs_[r].a, runs_[r].b);
      if (!taken) return v;
    }
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

  BoxTable& m_;
  const BoxHooks& hooks_;
  std::vector<std::uint32_t>& stamp_;
  std::uint32_t& gen_;
  std::vector<std::uint32_t> big_;
  // Runs of consecutive states looked up in the table's index (IntervalValues) rather than
  // marked: the cells a..b.
  struct Run {
    std::int64_t a, b;
  };
  std::vector<Run> runs_;
  const IntervalValues* intervals_ = nullptr;
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

enum class Fill : std::uint8_t { Done, OverBudget, Failed, Sparse };

// A box the search would grow past kSparseFloor cells while it has reached fewer than one
// in kSparseShare of them is no table for this game: its states lie far apart (moves that
// multiply, p -> 2p .. 9p up to 2^32, reach a few thousand states of a box of billions,
// and each doubling of the box zeroes pages the search never reads). A hash map holds them.
constexpr std::uint64_t kSparseFloor = std::uint64_t{1} << 22;
constexpr std::uint64_t kSparseShare = 64;

// Stores the value the sink has found for the cell at `at`.
void settle(BoxTable& memo, BoxSink& sink, const std::int64_t* at, const BoxHooks& hooks) {
  if (hooks.reserve) hooks.reserve(1);
  memo.set(memo.index(at), sink.mex());
  if (hooks.computed) hooks.computed(1);
}

// Top-down from `root`: a state's options not known yet are stacked and computed first.
// Stops (OverBudget) once it has computed `budget` states; what it computed stays.
Fill search(BoxTable& memo, const IntProgram& rules, BoxSink& sink, const Coords& root, const BoxHooks& hooks,
            std::uint64_t budget, std::string& why) {
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
      if (sink.grow_wanted()) {
        const std::uint64_t cells = memo.cells_to_hold(sink.grow_to().data(), hooks.max_cells);
        if (cells > kSparseFloor && cells / kSparseShare > done + stack.size()) {
          why = "its states lie far apart: the option " + coords_text(sink.grow_to(), ar, rules.packing) +
                " of " + coords_text(at, ar, rules.packing) + " needs a table of " + std::to_string(cells) +
                " cells, and the search has reached " + std::to_string(done + stack.size()) + " states";
          return Fill::Sparse;
        }
        if (memo.grow(sink.grow_to().data(), hooks.max_cells)) continue;
      }
      why = sink.grow_wanted()
                ? "the option " + coords_text(sink.grow_to(), ar, rules.packing) + " of " +
                      coords_text(at, ar, rules.packing) + " does not fit a table of at most " +
                      std::to_string(hooks.max_cells) + " cells"
            : sink.crowded() ? "the options of " + coords_text(at, ar, rules.packing) +
                                   " not known yet fill the search stack"
                             : "the compiled rules stop at " + coords_text(at, ar, rules.packing);
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
      // The expanded entries, in stack order, are the path from the root.
      if (hooks.deep && grey.size() >= kRunawayDepth && (grey.size() & 0xFFFF) == 0) {
        std::vector<Coords> path;
        path.reserve(grey.size());
        for (const Entry& e : stack) {
          if (e.expanded) path.push_back(e.c);
        }
        hooks.deep(path.size(), [&path](std::size_t i) { return path[i]; });
      }
    }
    for (const Coords& child : sink.children()) {
      if (grey.count(child)) {
        why = "a loop through " + coords_text(child, ar, rules.packing);
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
std::pair<Coords, Coords> sweep_plan(const BoxTable::Sweep& sw, const Coords& c, int ar) {
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

// The mex of state l of a batch where each of its options is one state whose value the table
// holds, below 64 (a knight's, a king's): a word of bits marked, no sink. Nothing otherwise.
std::optional<std::uint32_t> quick_mex(const BoxTable& memo, const IntProgram& rules, const IntProgram::Cells& batch,
                                       int l) {
  std::uint64_t seen = 0;
  const bool known = rules.each_option(batch, l, [&](const std::int64_t* p, int parts) {
    if (parts != 1 || !memo.inside(p)) return false;
    const std::uint32_t v = memo.get(memo.index(p));  // unknown: 255 or more
    if (v >= 64) return false;
    seen |= std::uint64_t{1} << v;
    return true;
  });
  if (!known) return std::nullopt;
  return static_cast<std::uint32_t>(std::countr_one(seen));
}

// The rules' moves as tables for this box, where they are of that shape (runtime/BoxMoves.hpp).
const BoxMoves* box_moves(BoxTable& memo, const IntProgram& rules) {
  BoxTable::Sweep& sw = memo.sweep();
  if (sw.moves_dims != memo.dims()) {
    sw.moves = BoxMoves::plan(rules, memo);
    sw.moves_dims = memo.dims();
  }
  return sw.moves.get();
}

// Fills every cell of the extent from the mark up to `target` in lexicographic order; the
// query needs the cells up to `need`. Done once `need` is filled, or Failed when a cell up to
// it has options that are neither before it nor known (the sweep is then off for good) or
// the compiled rules stop there. Cells filled stay filled either way.
Fill sweep_to(BoxTable& memo, const IntProgram& rules, BoxSink& sink, const Coords& need,
              const Coords& target, const BoxHooks& hooks) {
  const int ar = memo.arity();
  BoxTable::Sweep& sw = memo.sweep();
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
  // The cells not known yet, a batch at a time where the rules list a batch's options at once
  // (IntProgram::cell_options), settled in order as one by one.
  const bool batched = rules.by_cells();
  std::array<std::int64_t, IntProgram::kCellLanes * kMaxBoxArity> pending{};
  std::array<std::uint64_t, IntProgram::kCellLanes> ranks{};
  std::array<std::int64_t, IntProgram::kCellLanes> where{};
  int waiting = 0;
  IntProgram::Cells batch;
  std::optional<Fill> stopped;
  // Settles the cells waiting; false (and `stopped`) at one with options neither before it
  // nor known, where the sweep stops.
  const auto flush = [&] {
    if (batched) rules.cell_options(pending.data(), waiting, batch);
    for (int l = 0; l < waiting; ++l) {
      const std::int64_t* at = pending.data() + l * ar;
      if (batched && l < batch.done) {
        if (const auto v = quick_mex(memo, rules, batch, l)) {
          memo.set(where[static_cast<std::size_t>(l)], *v);
          tally.add();
          continue;
        }
      }
      sink.start();
      sink.sweep_at(ranks[static_cast<std::size_t>(l)]);
      if (!(batched && l < batch.done ? rules.send(batch, l, sink) : rules.options(at, sink)) || sink.any_unknown()) {
        std::copy(at, at + ar, sw.mark.begin());
        waiting = 0;
        // Only cells the query did not ask for are left, or the sweep is off for good.
        if (ranks[static_cast<std::size_t>(l)] > needed) {
          stopped = Fill::Done;
        } else {
          sw.off = true;
          stopped = Fill::Failed;
        }
        return false;
      }
      memo.set(where[static_cast<std::size_t>(l)], sink.mex());
      tally.add();
    }
    waiting = 0;
    return true;
  };
  const int lanes = batched ? IntProgram::kCellLanes : 1;
  const BoxMoves* moves = box_moves(memo, rules);
  for (std::uint64_t ticks = 0; rank <= last; ++rank, advance(x, extent, ar)) {
    if ((++ticks & 0xFFF) == 0) {
      tally.flush();
      if (hooks.poll) hooks.poll();
    }
    const std::int64_t i = memo.index(x.data());
    if (memo.get(i) != memo.unknown()) continue;
    if (moves && moves->settle(memo, x.data(), i)) {
      tally.add();
      continue;
    }
    std::copy(x.begin(), x.begin() + ar, pending.begin() + waiting * ar);
    ranks[static_cast<std::size_t>(waiting)] = rank;
    where[static_cast<std::size_t>(waiting)] = i;
    if (++waiting == lanes && !flush()) return *stopped;
  }
  if (waiting > 0 && !flush()) return *stopped;
  sw.mark = x;
  return Fill::Done;
}

// Cells a sweep may fill at once without asking whether the search would need them.
constexpr std::uint64_t kSmallSweep = 1 << 12;

// Fills the cells from 0 up to `root` in order of the sum of their coordinates (and in
// lexicographic order within one sum): the order of a game whose every move lowers that sum
// while one coordinate may grow, which the lexicographic sweep cannot take (a knight that
// moves towards a corner, (x - 2, y + 1) and (x + 1, y - 2)), as a contest solution fills
// its table by anti-diagonals. A cell with an option not known yet is left to the search;
// past a few of those the order is not the game's, and this sweep is off for good. Done
// once root is filled.
Fill diagonal_to(BoxTable& memo, const IntProgram& rules, BoxSink& sink, const Coords& root, const BoxHooks& hooks) {
  const int ar = memo.arity();
  // after[j]: the most the coordinates after j can add up to.
  std::array<std::int64_t, kMaxBoxArity + 1> after{};
  for (int j = ar; j-- > 0;) after[static_cast<std::size_t>(j)] = after[static_cast<std::size_t>(j) + 1] + root[static_cast<std::size_t>(j)];
  Tally tally(hooks);
  sink.search();
  std::uint64_t ticks = 0, filled = 0, left = 0;
  bool failed = false;
  Coords x{};
  // The cells not known yet, a batch at a time where the rules list the options of a batch
  // at once (IntProgram::cell_options); each is settled in order all the same, so that a
  // cell reads the values of the cells before it in the batch.
  const bool batched = rules.by_cells();
  std::array<std::int64_t, IntProgram::kCellLanes * kMaxBoxArity> pending{};
  std::array<std::int64_t, IntProgram::kCellLanes> where{};
  int waiting = 0;
  IntProgram::Cells batch;
  const auto settle_cell = [&](const std::int64_t* at, std::int64_t i, int lane) {
    if (lane >= 0 && lane < batch.done) {
      if (const auto v = quick_mex(memo, rules, batch, lane)) {
        memo.set(i, *v);
        tally.add();
        ++filled;
        return;
      }
    }
    sink.start();
    if (!(lane >= 0 && lane < batch.done ? rules.send(batch, lane, sink) : rules.options(at, sink))) {
      failed = true;  // a stop of the rules' own: the search meets it where it must
      return;
    }
    if (sink.any_unknown()) {
      failed = ++left > filled / 64 + 64;
      return;
    }
    memo.set(i, sink.mex());
    tally.add();
    ++filled;
  };
  const auto flush = [&] {
    if (waiting == 0) return;
    rules.cell_options(pending.data(), waiting, batch);
    for (int l = 0; l < waiting && !failed; ++l) settle_cell(pending.data() + l * ar, where[static_cast<std::size_t>(l)], l);
    waiting = 0;
  };
  const BoxMoves* moves = box_moves(memo, rules);
  const auto visit = [&] {
    if ((++ticks & 0xFFF) == 0) {
      tally.flush();
      if (hooks.poll) hooks.poll();
    }
    const std::int64_t i = memo.index(x.data());
    if (memo.get(i) != memo.unknown()) return;
    if (moves && moves->settle(memo, x.data(), i)) {
      tally.add();
      ++filled;
      return;
    }
    if (!batched) return settle_cell(x.data(), i, -1);
    std::copy(x.begin(), x.begin() + ar, pending.begin() + waiting * ar);
    where[static_cast<std::size_t>(waiting)] = i;
    if (++waiting == IntProgram::kCellLanes) flush();
  };
  // The cells whose coordinates from j on add up to `rest`.
  const auto cells = [&](const auto& self, int j, std::int64_t rest) -> void {
    const auto u = static_cast<std::size_t>(j);
    if (j == ar - 1) {
      x[u] = rest;
      visit();
      return;
    }
    const std::int64_t hi = std::min(root[u], rest);
    if (j == ar - 2) {  // the last two coordinates in one loop: a call per cell cost what its mex did
      for (x[u] = std::max<std::int64_t>(0, rest - after[u + 1]); x[u] <= hi && !failed; ++x[u]) {
        x[u + 1] = rest - x[u];
        if (moves) {  // a run of cells by the moves' tables, up to the first they cannot settle
          std::uint64_t set = 0;
          const std::int64_t went = moves->fill_diagonal(memo, x.data(), std::min<std::int64_t>(hi - x[u] + 1, 0x1000), set);
          tally.add(set);
          filled += set;
          ticks += static_cast<std::uint64_t>(went);
          x[u] += went;
          x[u + 1] = rest - x[u];
          if (went > 0) {
            if (hooks.poll) hooks.poll();
            if (x[u] > hi) break;
          }
        }
        visit();
      }
      return;
    }
    for (x[u] = std::max<std::int64_t>(0, rest - after[u + 1]); x[u] <= hi && !failed; ++x[u]) self(self, j + 1, rest - x[u]);
  };
  for (std::int64_t s = 0; s <= after[0] && !failed; ++s) cells(cells, 0, s);
  if (!failed) flush();
  if (memo.known(root.data())) return Fill::Done;
  memo.sweep().diagonal_off = true;
  return Fill::Failed;
}

}  // namespace

std::optional<std::uint32_t> box_value(BoxTable& memo, const IntProgram& rules, const std::int64_t* c,
                                       const BoxHooks& hooks, std::string& why, bool* sparse) {
  const int ar = memo.arity();
  Coords root{};
  std::copy(c, c + ar, root.begin());
  if (!memo.inside(c) && !memo.grow(c, hooks.max_cells)) {
    why = "the state " + coords_text(root, ar, rules.packing) + " does not fit a table of at most " +
          std::to_string(hooks.max_cells) + " cells";
    return std::nullopt;
  }
  if (auto v = memo.known(c)) return v;
  BoxSink sink(memo, hooks);
  std::uint64_t budget = UINT64_MAX;
  bool searched = false;  // the search has just gone past a share of the cells below root
  // The share of a sweep's cells the search may visit first to see whether it stays small: a
  // cell of the search costs what 32 of a sweep's do, or 512 where the sweep reads the moves
  // from tables (runtime/BoxMoves.hpp).
  const std::uint64_t probe = box_moves(memo, rules) ? 512 : 32;
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
      // states of the 90,000 a sweep would fill); past 1/probe of the cells it does not.
      if (cells > kSmallSweep) {
        const Fill f = search(memo, rules, sink, root, hooks, std::max<std::uint64_t>(cells / probe, 1), why);
        if (f == Fill::Done) return memo.known(c);
        if (f == Fill::Failed || f == Fill::Sparse) {
          if (sparse) *sparse = f == Fill::Sparse;
          return std::nullopt;
        }
      }
      if (sweep_to(memo, rules, sink, root, target, hooks) == Fill::Done) return memo.known(c);
      searched = cells > kSmallSweep;
    }
  }
  if (memo.sweep().off && !memo.sweep().diagonal_off && ar > 1) {
    std::uint64_t cells = 1;
    for (int j = 0; j < ar; ++j) cells *= static_cast<std::uint64_t>(root[static_cast<std::size_t>(j)]) + 1;
    if (cells > kSmallSweep && cells <= hooks.room) {
      // As above: first whether the search stays small, unless it has just been seen not to.
      if (!searched) {
        const Fill f = search(memo, rules, sink, root, hooks, std::max<std::uint64_t>(cells / probe, 1), why);
        if (f == Fill::Done) return memo.known(c);
        if (f == Fill::Failed || f == Fill::Sparse) {
          if (sparse) *sparse = f == Fill::Sparse;
          return std::nullopt;
        }
      }
      if (diagonal_to(memo, rules, sink, root, hooks) == Fill::Done) return memo.known(c);
    }
  }
  // Most often (a grid of queries in order) every option is known already: no search.
  sink.start();
  sink.search();
  if (rules.options(c, sink) && !sink.any_unknown()) {
    settle(memo, sink, c, hooks);
    return memo.known(c);
  }
  const Fill f = search(memo, rules, sink, root, hooks, budget, why);
  if (f == Fill::Failed || f == Fill::Sparse) {
    if (sparse) *sparse = f == Fill::Sparse;
    return std::nullopt;
  }
  return memo.known(c);
}

}  // namespace grundy
