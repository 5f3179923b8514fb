#include "runtime/Kernels.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <type_traits>

#include "runtime/Error.hpp"
#include "runtime/Witness.hpp"

namespace grundy {

// ---- HeapKernel ----

HeapKernel::HeapKernel(HeapSpec spec) : spec_(std::move(spec)) {
  for (std::size_t k = 0; k < spec_.K(); ++k) {
    const std::uint8_t d = spec_.digits[k];
    const auto kk = static_cast<std::int64_t>(k);
    if (k >= 1 && (d & HeapSpec::kOne)) ones_.push_back(kk);
    if (k >= 1 && (d & HeapSpec::kNone)) nones_.push_back(kk);
    if (d & HeapSpec::kTwo) {
      twos_.push_back(kk);
      unequal_.push_back((d & HeapSpec::kUnequal) != 0);
    }
    if (d & HeapSpec::kThree) threes_.push_back(kk);
  }
  const bool plain_subtraction = twos_.empty() && threes_.empty() && spec_.tail == 0;
  mode_ = plain_subtraction && ones_.size() + nones_.size() < 63 ? Mode::Subtraction : Mode::Plain;
  stamp_.assign(64, 0);
}

void HeapKernel::grow_stamps(std::uint32_t v) {
  std::size_t n = std::max<std::size_t>(stamp_.size() * 2, static_cast<std::size_t>(v) + 1);
  stamp_.resize(n, 0);
}

void HeapKernel::note_max(std::uint32_t v) {
  max_value_ = v;
  // XORs of values up to v stay below bit_ceil(v + 1); a mex is at most one more.
  const std::uint64_t need = 2 * std::bit_ceil(static_cast<std::uint64_t>(v) + 1) + 2;
  if (stamp_.size() < need) stamp_.resize(need, 0);
}

void HeapKernel::next_gen() {
  if (++gen_ == 0) {  // byte marks: clear once every 255 heaps
    std::fill(stamp_.begin(), stamp_.end(), 0);
    gen_ = 1;
  }
}

void HeapKernel::add_prefix(std::uint32_t v) {
  if (static_cast<std::size_t>(v) + 1 >= prefix_.size()) {  // the last entry stays out
    const std::size_t old = prefix_.size();
    const std::size_t size = std::max<std::size_t>(old * 2, static_cast<std::size_t>(v) + 2);
    prefix_.resize(size, 0);
    skip_.resize(size);
    for (std::size_t i = old; i < size; ++i) skip_[i] = static_cast<std::uint32_t>(i);
  }
  if (prefix_[v]) return;
  prefix_[v] = 1;
  skip_[v] = v + 1;
  while (prefix_mex_ < prefix_.size() && prefix_[prefix_mex_]) ++prefix_mex_;
}

std::uint32_t HeapKernel::not_in_prefix(std::uint32_t v) {
  if (v >= skip_.size()) return v;
  std::uint32_t root = v;
  while (skip_[root] != root) root = skip_[root];
  while (skip_[v] != root) {  // path compression
    const std::uint32_t next = skip_[v];
    skip_[v] = root;
    v = next;
  }
  return root;
}

namespace {
inline bool even_parity(std::uint32_t v, std::uint32_t mask) { return (std::popcount(v & mask) & 1) == 0; }
}  // namespace

template <typename T>
std::uint64_t HeapKernel::mark_removals(const std::vector<T>& g, std::int64_t n, std::uint8_t* const stamp,
                                        const std::uint8_t gen, bool& use_prefix) {
  const T* const base = g.data();
  std::uint64_t work = 0;
  for (std::int64_t k : ones_) {  // ascending
    if (k >= n) break;
    stamp[base[n - k]] = gen;
    ++work;
  }
  {  // ascending: whether n is among them, by bisection (a subtraction set's every element is,
     // and a loop over them was half the time of a set of 500)
    const auto upto = std::upper_bound(nones_.begin(), nones_.end(), n);
    if (upto != nones_.begin() && *(upto - 1) == n) stamp[0] = gen;
    work += static_cast<std::uint64_t>(upto - nones_.begin());
  }
  use_prefix = false;
  const auto K = static_cast<std::int64_t>(spec_.K());
  if (spec_.tail && n >= K) {
    if ((spec_.tail & HeapSpec::kNone) && n <= spec_.tail_end) stamp[0] = gen;
    if (spec_.tail & HeapSpec::kOne) {
      while (static_cast<std::int64_t>(prefix_upto_) <= n - K) {
        add_prefix(g[prefix_upto_]);
        ++prefix_upto_;
      }
      use_prefix = n - K >= 1;
    }
  }
  return work;
}

template std::uint64_t HeapKernel::mark_removals(const std::vector<std::uint8_t>&, std::int64_t, std::uint8_t*,
                                                 std::uint8_t, bool&);
template std::uint64_t HeapKernel::mark_removals(const std::vector<std::uint16_t>&, std::int64_t, std::uint8_t*,
                                                 std::uint8_t, bool&);
template std::uint64_t HeapKernel::mark_removals(const std::vector<std::uint32_t>&, std::int64_t, std::uint8_t*,
                                                 std::uint8_t, bool&);

std::uint32_t HeapKernel::mex_marked(const std::uint8_t* const stamp, const std::uint8_t gen, bool use_prefix) {
  std::uint32_t v = use_prefix ? prefix_mex_ : 0;
  // Runs of values in the tail's prefix are jumped over.
  while (true) {
    if (stamp[v] == gen) ++v;
    else if (use_prefix && in_prefix(v)) v = not_in_prefix(v);
    else return v;
  }
}

template <typename T>
std::uint32_t HeapKernel::value_at(const std::vector<T>& g, std::size_t n) {
  next_gen();
  return value_at(g, n, stamp_.data(), gen_, nullptr);
}

// Every option value is below the size of `stamp`: run() keeps stamp_ above twice the
// largest value, and a lane of a block (values of a byte) holds 512 marks.
template <typename T>
std::uint32_t HeapKernel::value_at(const std::vector<T>& g, std::size_t un, std::uint8_t* const stamp,
                                   const std::uint8_t gen, const Covered* covered) {
  const auto n = static_cast<std::int64_t>(un);
  const T* const base = g.data();
  // Options looked at (--max-steps); splits into three heaps are counted as they go, since
  // one heap may have billions of them.
  bool use_prefix = false;
  std::uint64_t work = 1 + mark_removals(g, n, stamp, gen, use_prefix);
  for (std::int64_t k : threes_) {
    const std::int64_t r = n - k;
    for (std::int64_t a = 1; 3 * a <= r; ++a) {
      const std::uint32_t ga = base[a];
      for (std::int64_t b = a; a + 2 * b <= r; ++b) stamp[ga ^ base[b] ^ base[r - a - b]] = gen;
      spend(static_cast<std::uint64_t>((r - a) / 2 - a + 1), un);
    }
  }
  const bool sparse = mode_ == Mode::Sparse;
  // With large values, only split values below the number of options are marked (the mex
  // is at most that), so that the marks touched stay in the cache.
  std::uint64_t limit = 0;
  if (!sparse && max_value_ >= 4096) {
    limit = ones_.size() + nones_.size() + 2 + (use_prefix ? static_cast<std::uint64_t>(n) : 0);
    for (std::int64_t k : twos_) limit += static_cast<std::uint64_t>(std::max<std::int64_t>(0, (n - k) / 2));
  }
  for (std::size_t i = 0; i < twos_.size(); ++i) {
    const std::int64_t r = n - twos_[i];
    if (r < 2) continue;
    if (limit) {
      const std::int64_t hi = unequal_[i] ? (r - 1) / 2 : r / 2;
      work += static_cast<std::uint64_t>(hi);
      for (std::int64_t a = 1; a <= hi; ++a) {
        const std::uint64_t x = base[a] ^ base[r - a];
        if (x < limit) stamp[x] = gen;
      }
    } else if (sparse) {
      // Splits with a rare part: all common values among the options, and some rare ones.
      // The rare heaps below r are a prefix of rare_ (usually all of it); their values are
      // read in step from rare_value_, the other part's from the table just below heap r,
      // with no test in the loop.
      const std::uint32_t* const rh = rare_.data();
      const std::uint32_t* const rv = rare_value_.data();
      std::size_t count = rare_.size();
      if (count && rh[count - 1] >= r) {
        count =
            static_cast<std::size_t>(std::lower_bound(rh, rh + count, static_cast<std::uint64_t>(r)) - rh);
      }
      std::size_t skip = count;  // the split into two equal heaps, when the parts must differ
      if (unequal_[i] && r % 2 == 0) {
        const std::uint32_t* half = std::lower_bound(rh, rh + count, static_cast<std::uint64_t>(r / 2));
        if (half != rh + count && *half == r / 2) skip = static_cast<std::size_t>(half - rh);
      }
      const T* const top = base + r;
      auto mark = [&](std::size_t from, std::size_t to) {
        if (from >= to) return;
        work += to - from;
        const std::size_t cut = skip >= from && skip < to ? skip : to;
        for (std::size_t j = from; j < cut; ++j) stamp[rv[j] ^ top[-static_cast<std::int64_t>(rh[j])]] = gen;
        for (std::size_t j = cut + 1; j < to; ++j)
          stamp[rv[j] ^ top[-static_cast<std::int64_t>(rh[j])]] = gen;
      };
      if (covered) {  // what the block has not marked (from <= to <= count: rare_ only grows)
        const Covered& c = covered[i];
        mark(0, c.from);
        mark(std::max(c.from, c.equal_from), std::min(c.to, c.equal_to));
        mark(c.to, count);
      } else {
        mark(0, count);
      }
    } else {
      const std::int64_t hi = unequal_[i] ? (r - 1) / 2 : r / 2;
      work += static_cast<std::uint64_t>(std::max<std::int64_t>(hi, 0));
      for (std::int64_t a = 1; a <= hi; ++a) stamp[base[a] ^ base[r - a]] = gen;
    }
  }
  spend(work, un);
  work = 0;
  if (!sparse || twos_.empty()) return mex_marked(stamp, gen, use_prefix);
  auto taken = [&](std::uint32_t v) { return stamp[v] == gen || (use_prefix && in_prefix(v)); };
  std::uint32_t v = use_prefix ? prefix_mex_ : 0;
  // Sparse space: every common value among the options is marked, so the first common
  // value not marked bounds the mex. A rare value below it may still be an option through
  // a split into two common heaps: look for a witness of each.
  pending_.clear();
  while (true) {
    if (taken(v)) {
      ++v;
    } else if (even_parity(v, mask_)) {
      pending_.push_back(v);
      ++v;
    } else {
      break;
    }
  }
  const std::uint32_t first_common = v;
  if (pending_.empty()) return first_common;
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    if (witness_scan_available()) {
      // Values of a byte: the waiting ones are a set that 32 splits at a time are tested
      // against (runtime/Witness.hpp). The same order of splits as below. Two bytes XOR
      // below 256, so a waiting value of 256 or more has no witness: it is the mex unless a
      // smaller one is missing too, and it never enters the set (where only its low byte
      // would, and be confirmed by a split that makes that byte).
      const auto wide =
          std::find_if(pending_.begin(), pending_.end(), [](std::uint32_t x) { return x > 0xFF; });
      if (wide == pending_.begin()) return *wide;
      pending_.erase(wide == pending_.end() ? wide : wide + 1, pending_.end());
      ByteSet waiting;
      for (std::uint32_t x : pending_) {
        if (x <= 0xFF) waiting.add(static_cast<std::uint8_t>(x));
      }
      constexpr std::int64_t kWide = 32, kSamples = 16, kStride = 7919;
      for (std::size_t i = 0; i < twos_.size() && !waiting.empty(); ++i) {
        const std::int64_t r = n - twos_[i];
        const std::int64_t hi = unequal_[i] ? (r - 1) / 2 : r / 2;
        const std::int64_t blocks = (hi + kWide - 1) / kWide;
        for (std::int64_t b = 0; b < std::min(blocks, kSamples) && !waiting.empty(); ++b) {
          const std::int64_t a0 = 1 + (b * kStride) % blocks * kWide;
          work +=
              static_cast<std::uint64_t>(witness_scan(base, r, a0, std::min(hi, a0 + kWide - 1), waiting));
        }
      }
      for (std::size_t i = 0; i < twos_.size() && !waiting.empty(); ++i) {
        const std::int64_t r = n - twos_[i];
        work +=
            static_cast<std::uint64_t>(witness_scan(base, r, 1, unequal_[i] ? (r - 1) / 2 : r / 2, waiting));
      }
      spend(work, un);
      for (std::uint32_t x : pending_) {
        if (x > 0xFF || waiting.contains(static_cast<std::uint8_t>(x))) return x;
      }
      return first_common;
    }
  }
  // The scan marks what it sees like the plain loop (only stores, no dependency between
  // steps) and looks at the values still waiting after each block of splits; it runs
  // through every split if need be, so that a value reported missing really is.
  // (Targeting each waiting value through its most frequent partners was slower.)
  std::vector<std::uint32_t>& waiting = waiting_;
  waiting.assign(pending_.begin(), pending_.end());
  // waiting[0] is a value not seen yet; the others are looked at only once it is seen.
  auto settle = [&] {
    if (stamp[waiting[0]] != gen) return false;
    for (std::size_t w = 0; w < waiting.size();) {
      if (stamp[waiting[w]] == gen) {
        waiting[w] = waiting.back();
        waiting.pop_back();
      } else {
        ++w;
      }
    }
    return waiting.empty();
  };
  // First a few blocks spread over the range (the splits of one region give similar values),
  // then every split in order.
  constexpr std::int64_t kBlock = 16, kSamples = 64, kStride = 7919;
  for (std::size_t i = 0; i < twos_.size() && !waiting.empty(); ++i) {
    const std::int64_t r = n - twos_[i];
    const std::int64_t hi = unequal_[i] ? (r - 1) / 2 : r / 2;
    const std::int64_t blocks = (hi + kBlock - 1) / kBlock;
    const std::int64_t samples = std::min(blocks, kSamples);
    for (std::int64_t b = 0; b < samples; ++b) {
      const std::int64_t a0 = 1 + (b * kStride) % blocks * kBlock;
      const std::int64_t end = std::min(hi, a0 + kBlock - 1);
      work += static_cast<std::uint64_t>(end - a0 + 1);
      for (std::int64_t a = a0; a <= end; ++a) stamp[base[a] ^ base[r - a]] = gen;
      if (settle()) break;
    }
  }
  for (std::size_t i = 0; i < twos_.size() && !waiting.empty(); ++i) {
    const std::int64_t r = n - twos_[i];
    const std::int64_t hi = unequal_[i] ? (r - 1) / 2 : r / 2;
    for (std::int64_t a = 1; a <= hi;) {
      const std::int64_t end = std::min(hi, a + 63);
      work += static_cast<std::uint64_t>(end - a + 1);
      for (; a <= end; ++a) stamp[base[a] ^ base[r - a]] = gen;
      if (settle()) break;
    }
  }
  spend(work, un);
  for (std::uint32_t x : pending_) {
    if (stamp[x] != gen) return x;
  }
  return first_common;
}

// Heaps n .. n + kLanes - 1 (n = g.size()) of a table of bytes in the sparse space; returns
// the table's size after them, or the heap whose value does not fit a byte (overflow_).
std::size_t HeapKernel::run_block(std::vector<std::uint8_t>& g) {
  const std::size_t n = g.size();
  if (lanes_.empty()) lanes_.assign(kLanes * kLaneMarks, 0);
  if (++lane_gen_ == 0) {
    std::fill(lanes_.begin(), lanes_.end(), 0);
    lane_gen_ = 1;
  }
  const std::uint8_t gen = lane_gen_;
  std::uint8_t* const lanes = lanes_.data();
  const std::uint32_t* const rh = rare_.data();
  const std::uint32_t* const rv = rare_value_.data();
  auto rank = [&](std::uint64_t heap) {  // the number of rare heaps below `heap`
    return static_cast<std::size_t>(std::lower_bound(rh, rh + rare_.size(), heap) - rh);
  };
  covered_.assign(twos_.size(), Covered{});
  std::uint64_t work = 0;
  for (std::size_t i = 0; i < twos_.size(); ++i) {
    // Heap n + l leaves r0 + l tokens to split. A rare part h with kLanes <= h < r0 leaves
    // r0 + l - h, from 1 up to n - 1 for every lane: known, and consecutive across lanes.
    const auto r0 = static_cast<std::int64_t>(n) - twos_[i];
    if (r0 <= static_cast<std::int64_t>(kLanes)) continue;
    Covered& c = covered_[i];
    c.from = rank(kLanes);
    c.to = rank(static_cast<std::uint64_t>(r0));
    c.equal_from = c.equal_to = c.to;
    if (unequal_[i]) {
      c.equal_from = rank(static_cast<std::uint64_t>(r0 + 1) / 2);
      c.equal_to = rank(static_cast<std::uint64_t>(r0 + static_cast<std::int64_t>(kLanes) - 1) / 2 + 1);
    }
    const std::uint8_t* const top = g.data() + r0;
    auto mark = [&](std::size_t from, std::size_t to) {
      for (std::size_t j = from; j < to; ++j) {
        const std::uint8_t* p = top - rh[j];
        const std::uint64_t spread = std::uint64_t{rv[j]} * 0x0101010101010101u;
        for (std::size_t half = 0; half < kLanes; half += 8) {
          std::uint64_t x;
          std::memcpy(&x, p + half, 8);
          x ^= spread;
          std::uint8_t* const lane = lanes + half * kLaneMarks;
#pragma GCC unroll 8
          for (std::size_t l = 0; l < 8; ++l) lane[l * kLaneMarks + ((x >> (8 * l)) & 0xFF)] = gen;
        }
      }
      if (to > from) work += (to - from) * kLanes;
    };
    mark(c.from, std::min(c.to, c.equal_from));
    mark(std::max(c.from, c.equal_to), c.to);
  }
  spend(work, n);
  for (std::size_t l = 0; l < kLanes; ++l) {
    const std::size_t m = n + l;
    const std::uint32_t v = value_at(g, m, lanes + l * kLaneMarks, gen, covered_.data());
    if (v > 0xFF) {
      overflow_ = v;
      return m;
    }
    g.push_back(static_cast<std::uint8_t>(v));
    if (v > max_value_) note_max(v);
    note_heap(m, v);
  }
  return g.size();
}

void HeapKernel::force_mask(std::uint32_t mask) {
  if (twos_.empty() || mask == 0) return;
  forced_mask_ = true;
  mode_ = Mode::Sparse;
  mask_ = mask;
  clear_rare();  // filled as heaps are computed (call before the first extend)
  // Past the XORs of the values, the scan for the mex goes on through the values that are
  // rare under the mask: up to twice the mask's top bit. The masks choose_mode picks stay
  // within what note_max makes room for; a forced one may not.
  const std::uint64_t need = 2 * std::bit_ceil(static_cast<std::uint64_t>(mask) + 1) + 2;
  if (stamp_.size() < need) stamp_.resize(need, 0);
}

bool HeapKernel::threadable() const {
  return !twos_.empty() && threes_.empty() && spec_.tail == 0 && max_value_ < 4096 && mask_ < 4096;
}

void HeapKernel::clear_rare() {
  rare_.clear();
  rare_value_.clear();
}

void HeapKernel::note_heap(std::size_t n, std::uint32_t v) {
  if (mode_ == Mode::Sparse && n >= 1 && even_parity(v, mask_)) {
    rare_.push_back(static_cast<std::uint32_t>(n));
    rare_value_.push_back(v);
  }
}

template <typename T>
void HeapKernel::choose_mode(const std::vector<T>& g) {
  next_review_ = g.size() * 2;
  if (force_plain_ || forced_mask_ || twos_.empty()) return;
  for (; hist_upto_ < g.size(); ++hist_upto_) {
    const std::uint32_t v = g[hist_upto_];
    if (v >= hist_.size()) hist_.resize(static_cast<std::size_t>(v) + 1, 0);
    ++hist_[v];
  }
  const std::uint32_t top = static_cast<std::uint32_t>(hist_.size());  // max value + 1
  const int bits = std::bit_width(top);
  if (bits > 12) {
    mode_ = Mode::Plain;
    return;
  }
  std::vector<std::uint32_t> present;
  for (std::uint32_t v = 0; v < top; ++v) {
    if (hist_[v]) present.push_back(v);
  }
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  std::uint32_t best_mask = 0;
  for (std::uint32_t m = 1; m < (1u << bits); ++m) {
    std::uint64_t rare = 0;
    for (std::uint32_t v : present) {
      if (even_parity(v, m)) rare += hist_[v];
    }
    if (rare < best) {
      best = rare;
      best_mask = m;
    }
  }
  // Sparse as soon as the rare heaps are an eighth of the table: a heap then costs them and
  // the witnesses, against half the table for the plain loop (Grundy's game turns sparse at
  // 4096 rather than 32768: 10% of its time to 10^6).
  if (best > g.size() / 8) {
    mode_ = Mode::Plain;
    clear_rare();
    return;
  }
  if (mode_ == Mode::Sparse && best_mask == mask_) return;
  mode_ = Mode::Sparse;
  mask_ = best_mask;
  clear_rare();
  for (std::size_t i = 1; i < g.size(); ++i) note_heap(i, g[i]);
}

template <typename T>
std::size_t HeapKernel::run_subtraction(std::vector<T>& g, std::size_t upto) {
  const std::size_t K = spec_.K();
  const std::uint64_t per_heap = ones_.size() + nones_.size() + 1;
  while (g.size() < upto) {
    const std::size_t n = g.size();
    if ((n & 0xFFFF) == 0) report(n);
    std::uint64_t seen = 0;
    if (n < K) {
      for (std::int64_t k : ones_) {
        if (static_cast<std::size_t>(k) >= n) break;
        seen |= std::uint64_t{1} << g[n - static_cast<std::size_t>(k)];
      }
      for (std::int64_t k : nones_) {
        if (static_cast<std::size_t>(k) == n) seen |= 1;
      }
      g.push_back(static_cast<T>(std::countr_one(seen)));
      work_ += per_heap;
      continue;
    }
    // Every removal applies and leaves a non-empty heap: no tests in the loop.
    const std::size_t end = std::min(upto, (n | 0xFFFF) + 1);
    work_ += (end - n) * per_heap;
    g.resize(end);
    T* out = g.data();
    for (std::size_t m = n; m < end; ++m) {
      seen = 0;
      for (std::int64_t k : ones_) seen |= std::uint64_t{1} << out[m - static_cast<std::size_t>(k)];
      out[m] = static_cast<T>(std::countr_one(seen));
    }
  }
  return g.size();
}

template <typename T>
std::size_t HeapKernel::run(std::vector<T>& g, std::size_t upto) {
  if (mode_ == Mode::Subtraction) return run_subtraction(g, upto);
  if (g.capacity() < upto) g.reserve(std::max(upto, g.capacity() + g.capacity() / 2));
  while (g.size() < upto) {
    const std::size_t n = g.size();
    // Polls by work too (value_at spends it): with splits into three heaps one heap costs
    // O(n^2), and Ctrl-C and --max-steps must still stop it within moments.
    if ((n & 0xFFF) == 0) report(n);
    if (n >= next_review_) choose_mode(g);
    if (threads_ > 1 && mode_ == Mode::Plain && !twos_.empty() && threes_.empty()) {
      const std::size_t reached = run_plain_threaded(g, std::min(upto, next_review_));
      if (overflow_) return reached;
      if (reached > n) continue;
    }
    if (threads_ > 1 && mode_ == Mode::Sparse && threadable()) {
      // Up to the next review of the mode (which may change the mask and the rare heaps).
      const std::size_t reached = run_threaded(g, std::min(upto, next_review_));
      if (overflow_) return reached;
      if (reached > n) continue;
    }
    if constexpr (std::is_same_v<T, std::uint8_t>) {
      // A block starts at a multiple of kLanes (so that the polls above still come) and ends
      // before the next review of the mode and the end of the table asked for.
      if (mode_ == Mode::Sparse && mask_ < kLaneMarks && n % kLanes == 0 && n >= 2 * kLanes &&
          n + kLanes <= upto && n + kLanes <= next_review_) {
        if (run_block(g) < n + kLanes) return g.size();
        continue;
      }
    }
    const std::uint32_t v = value_at(g, n);
    if (v > std::numeric_limits<T>::max()) {
      overflow_ = v;
      return n;
    }
    g.push_back(static_cast<T>(v));
    if (v > max_value_) note_max(v);
    note_heap(n, v);
  }
  return g.size();
}

void HeapKernel::report(std::size_t n) {
  const std::uint64_t work = work_;
  work_ = 0;
  if (poll_ && *poll_) (*poll_)(n, upto_, work);
}

bool HeapKernel::extend(DenseTable& table, std::size_t upto, const Poll& poll) {
  // The poll is the kernel's for as long as this call runs.
  struct Polling {
    HeapKernel& k;
    Polling(HeapKernel& kernel, const Poll& p, std::size_t upto) : k(kernel) {
      k.poll_ = &p;
      k.upto_ = upto;
      k.work_ = 0;
    }
    ~Polling() { k.poll_ = nullptr; }
  } polling(*this, poll, upto);
  std::size_t limit = upto;
  if (spec_.tail && spec_.tail_end != INT64_MAX) {
    // The prefix of a tail stays a prefix only up to heap tail_end + 1.
    const auto last = static_cast<std::uint64_t>(spec_.tail_end) + 2;
    if (last < limit) limit = static_cast<std::size_t>(last);
  }
  while (table.size() < limit) {
    overflow_ = 0;
    table.visit([&](auto& g) { return run(g, limit); });
    if (table.size() < limit && overflow_) {
      table.widen_for(overflow_);
      const std::size_t n = table.size();
      table.push(overflow_);
      if (overflow_ > max_value_) note_max(overflow_);
      note_heap(n, overflow_);
    }
  }
  report(table.size());
  return table.size() >= upto;
}

void HeapKernel::resume(const DenseTable& table) {
  std::uint32_t top = 0;
  table.visit([&](const auto& g) {
    for (auto v : g) top = std::max<std::uint32_t>(top, v);
  });
  if (top > max_value_) note_max(top);
  // Any mask gives the same values; the review picks one from these values and lists the
  // rare heaps under it.
  hist_.clear();
  hist_upto_ = 0;
  clear_rare();
  if (mode_ == Mode::Sparse && !forced_mask_) mode_ = Mode::Plain;
  next_review_ = table.size();
}

std::string HeapKernel::describe() const {
  switch (mode_) {
    case Mode::Subtraction: return "subtraction kernel";
    case Mode::Plain:
      return twos_.empty() ? "take-and-break kernel" : "take-and-break kernel, plain O(n) loop per heap";
    case Mode::Sparse: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "sparse-space kernel, mask 0x%x, %zu rare heaps", mask_, rare_.size());
      return buf;
    }
  }
  return "kernel";
}

}  // namespace grundy
