// --threads N for the sparse-space kernel (runtime/Kernels.hpp). A heap's value needs the
// values of every heap below it, so threads cannot each take a heap; the heaps go in blocks
// of kBlock, each computed in two phases (the scheme of docs/distributed.md, on one machine):
//
//  1. ahead, once the values below L = (the block's start) - A * kBlock are known, A =
//     max(kAhead, N): the marks of the splits with a rare part whose two parts both lie
//     below L, and a scan of such splits for witnesses of the rare values below the first
//     common value those marks miss;
//  2. in turn, once the block just before it is finished: the marks of the other splits
//     with a rare part (one part below about A * kBlock, the other at L or above), the
//     removals, the mex, and for each rare value below it still unconfirmed a scan of
//     every split (those phase 1 looked at again: it stopped at its own targets).
//
// Thread 0, the caller's, runs phase 2 of every block in order (the chain) and the polls
// between blocks; the other N - 1 threads run phase 1 of the blocks furthest ahead that they
// may, and the chain runs phase 1 of the blocks no helper took. So the chain waits only for a
// helper's block that it reaches A blocks after the helper took it, and a thread that the
// machine puts aside (other processes) rarely stalls it.
//
// Every mark is the value of an option, and a value is declared missing only once every
// split that could make it has been looked at (a common one: every split with a rare part),
// so the values are those of one thread whatever L is; only the number of splits looked at
// differs. The table grows in phase 2 alone, in order, so what a poll sees (the progress
// bar, a checkpoint) is finished heaps, and a stop (a limit, Ctrl-C, a value too wide for
// the table or the marks) leaves it at a heap boundary.
#include <algorithm>
#include <atomic>
#include <bit>
#include <limits>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "runtime/KernelPipeline.hpp"
#include "runtime/Kernels.hpp"
#include "runtime/Witness.hpp"

namespace grundy {

namespace {

// Heaps per block: some 0.2 ms of work at 10^6 heaps, what a thread takes at a time.
constexpr std::size_t kBlock = 128;
// Phase 1 of block j may run once block j - kAhead is finished (L is its start), so a helper
// works up to kAhead blocks ahead of the chain: slack for a thread the machine puts aside,
// paid for by phase 2, which marks the rare heaps below about (kAhead + 1) * kBlock (rare
// heaps are densest among the small ones: some 200 of Grundy's game's 1,273 lie below
// 1,024). 4 took less CPU than 8 and as little time as 2 (Grundy's game to 4 * 10^6).
constexpr std::size_t kAhead = 4;
constexpr std::size_t kLanes = 16;  // heaps whose marks phase 1 reads in one pass (kBlock is a multiple)
constexpr std::size_t kNoSkip = std::numeric_limits<std::size_t>::max();

inline bool even_parity(std::uint32_t v, std::uint32_t mask) { return (std::popcount(v & mask) & 1) == 0; }

}  // namespace

template <typename T>
class SparseThreads {
 public:
  // Heaps g.size() .. g.size() + blocks * kBlock - 1.
  SparseThreads(HeapKernel& k, std::vector<T>& g, std::size_t blocks);
  // False when no thread could be started (the heaps done so far are kept). Rethrows what a
  // thread threw: the poll's limits and interrupts.
  bool run();
  std::uint32_t largest() const { return largest_; }

 private:
  // The marks of one heap: value v at p[v * kLanes]. A block's kBlock heaps are groups of
  // kLanes whose marks interleave, so that a pass over the rare heaps for a whole group
  // writes at fixed offsets from one pointer (HeapKernel::run_block keeps a row per heap).
  struct Marks {
    std::uint8_t* p;
    std::uint8_t& operator[](std::size_t v) const { return p[v * kLanes]; }
  };
  // The marks of a block, from its phase 1 to its phase 2: block j in slot j % (ahead_ + 1).
  // Each thread's data on cache lines of its own: a line that two cores write (a worker's
  // count of work beside another's vectors) costs more than the work.
  struct alignas(64) Slot {
    std::vector<std::uint8_t> rows;  // the marks of the kBlock heaps (stride_ values each)
    std::uint8_t gen = 0;
  };
  // Per entry of twos_, what phase 2's pass over kLanes heaps at once marked: the rare heaps
  // group_from .. group_to - 1 less equal_from .. equal_to - 1 (as HeapKernel::run_block).
  struct Group {
    bool on = false;
    std::size_t group_from = 0, group_to = 0, equal_from = 0, equal_to = 0;
  };
  struct alignas(64) Worker {
    std::vector<std::uint32_t> rh, rv;  // the kernel's rare heaps and their values, a copy
    std::vector<std::uint32_t> pending, waiting;
    std::vector<Group> groups;
    std::uint64_t work = 0;
    // How many of the rare heaps lie below `heap` (none below 1).
    std::size_t rank(std::int64_t heap) const {
      if (heap <= 0) return 0;
      return static_cast<std::size_t>(
          std::lower_bound(rh.begin(), rh.end(), static_cast<std::uint64_t>(heap)) - rh.begin());
    }
  };
  void ahead_of(Worker& w, std::size_t j);
  bool in_turn_of(std::size_t j);  // phase 2 of block j, and the polls between blocks
  void sync(Worker& w);
  void ahead(Worker& w, Slot& s, std::size_t start, std::int64_t L);
  bool in_turn(Worker& w, Slot& s, std::size_t start, std::int64_t L);  // false: stop after this heap
  // The rare heaps h with r - L < h < min(L, r): the splits of r tokens phase 1 marks.
  static std::pair<std::size_t, std::size_t> ahead_range(const Worker& w, std::int64_t r, std::int64_t L);
  std::size_t equal_split(const Worker& w, std::size_t i, std::int64_t r) const;
  Marks marks(Slot& s, std::size_t l) const {
    return Marks{s.rows.data() + (l / kLanes) * kLanes * stride_ + l % kLanes};
  }
  // `rows`: the marks of a group of kLanes heaps.
  void lanes(Worker& w, std::uint8_t* rows, std::uint8_t gen, std::int64_t r0, std::size_t from,
             std::size_t to) const;
  void mark(Worker& w, Marks row, std::uint8_t gen, std::int64_t r, std::size_t from, std::size_t to,
            std::size_t skip) const;
  bool confirm(Worker& w, Marks row, std::uint8_t gen, std::int64_t r, std::int64_t lo, std::int64_t hi,
               bool sample) const;

  HeapKernel& k_;
  std::vector<T>& g_;
  const T* base_ = nullptr;
  const std::size_t start_, blocks_;
  const unsigned threads_;
  // Every value of the run lies below it (a power of two), and so does the XOR of two: a
  // pending value at or past it has no witness. A value that reaches it ends the run.
  std::uint32_t xor_bound_ = 1;
  std::size_t stride_ = 0;  // marks per heap: the mex of a heap lies below it
  std::vector<Worker> workers_;
  // Phase 1 of block j may run once block j - ahead_ is finished (L is its start): kAhead,
  // or one block for each thread if there are more. A slot more holds the block in phase 2.
  const std::size_t ahead_;
  KernelPipeline pipeline_;
  std::unique_ptr<Slot[]> slots_;
  alignas(64) std::atomic<std::uint64_t> work_{0};
  std::mutex rare_mutex_;  // the kernel's rare list, which phase 2 appends to
  // Written by the chain at each heap, on a line of their own.
  alignas(64) std::uint32_t largest_ = 0;
  std::size_t polled_ = 0;  // the table's size at the last poll
};

template <typename T>
SparseThreads<T>::SparseThreads(HeapKernel& k, std::vector<T>& g, std::size_t blocks)
    : k_(k),
      g_(g),
      start_(g.size()),
      blocks_(blocks),
      threads_(k.threads_),
      ahead_(std::max<std::size_t>(kAhead, k.threads_)),
      pipeline_(k.threads_, blocks, ahead_) {
  // The workers read the table through one pointer while phase 2 appends: no reallocation.
  if (g_.capacity() < start_ + blocks_ * kBlock) g_.reserve(start_ + blocks_ * kBlock);
  base_ = g_.data();
  xor_bound_ = static_cast<std::uint32_t>(std::bit_ceil(static_cast<std::uint64_t>(k_.max_value_) + 1));
  // Past the marked values, the mex is the first common value: below twice a power of two
  // above the mask (HeapKernel::note_max, force_mask).
  const std::uint64_t top = std::max<std::uint64_t>(xor_bound_, std::bit_ceil(std::uint64_t{k_.mask_} + 1));
  stride_ = static_cast<std::size_t>(2 * top + 2);
  workers_.resize(threads_);
  slots_ = std::make_unique<Slot[]>(ahead_ + 1);
  for (std::size_t i = 0; i <= ahead_; ++i) slots_[i].rows.assign(kBlock * stride_, 0);
}

template <typename T>
bool SparseThreads<T>::run() {
  return pipeline_.run([this](unsigned t, std::size_t j, std::size_t) { ahead_of(workers_[t], j); },
                       [this](std::size_t j) { return in_turn_of(j); });
}

// Phase 1 of block j: L, the heaps whose values it reads, lies ahead_ blocks back, finished
// by the time a thread may take it.
template <typename T>
void SparseThreads<T>::ahead_of(Worker& w, std::size_t j) {
  const std::size_t start = start_ + j * kBlock;
  ahead(w, slots_[pipeline_.slot(j)], start, static_cast<std::int64_t>(start - ahead_ * kBlock));
  work_ += w.work;
  w.work = 0;
}

template <typename T>
bool SparseThreads<T>::in_turn_of(std::size_t j) {
  Worker& w = workers_[0];
  const std::size_t start = start_ + j * kBlock;
  const bool go_on =
      in_turn(w, slots_[pipeline_.slot(j)], start, static_cast<std::int64_t>(start - ahead_ * kBlock));
  work_ += w.work;
  w.work = 0;
  // As often as on one thread (HeapKernel::run, spend), while no other thread appends.
  k_.work_ += work_.exchange(0);
  if (k_.work_ >= HeapKernel::kPollWork || g_.size() >= polled_ + 4096) {
    polled_ = g_.size();
    k_.report(polled_);
  }
  return go_on;
}

template <typename T>
void SparseThreads<T>::sync(Worker& w) {
  std::lock_guard<std::mutex> lock(rare_mutex_);
  const std::vector<std::uint32_t>& rh = k_.rare_;
  const std::vector<std::uint32_t>& rv = k_.rare_value_;
  w.rh.insert(w.rh.end(), rh.begin() + static_cast<std::ptrdiff_t>(w.rh.size()), rh.end());
  w.rv.insert(w.rv.end(), rv.begin() + static_cast<std::ptrdiff_t>(w.rv.size()), rv.end());
}

template <typename T>
std::pair<std::size_t, std::size_t> SparseThreads<T>::ahead_range(const Worker& w, std::int64_t r,
                                                                  std::int64_t L) {
  // The rare heaps below L are the same in every copy of the list from phase 1 on, and a
  // range that starts at L or above is empty in every copy: both phases find the same one.
  auto rank = [&w](std::int64_t heap) { return w.rank(heap); };
  const std::size_t from = rank(r - L + 1), to = rank(std::min(L, r));
  return {from, std::max(from, to)};
}

template <typename T>
std::size_t SparseThreads<T>::equal_split(const Worker& w, std::size_t i, std::int64_t r) const {
  if (!k_.unequal_[i] || r % 2 != 0) return kNoSkip;
  const auto half = std::lower_bound(w.rh.begin(), w.rh.end(), static_cast<std::uint64_t>(r / 2));
  return half != w.rh.end() && *half == r / 2 ? static_cast<std::size_t>(half - w.rh.begin()) : kNoSkip;
}

template <typename T>
void SparseThreads<T>::mark(Worker& w, const Marks row, const std::uint8_t gen, std::int64_t r,
                            std::size_t from, std::size_t to, std::size_t skip) const {
  if (from >= to) return;
  const std::uint32_t* const rh = w.rh.data();
  const std::uint32_t* const rv = w.rv.data();
  const T* const top = base_ + r;
  w.work += to - from;
  const std::size_t cut = skip >= from && skip < to ? skip : to;
  for (std::size_t j = from; j < cut; ++j) row[rv[j] ^ top[-static_cast<std::int64_t>(rh[j])]] = gen;
  for (std::size_t j = cut + 1; j < to; ++j) row[rv[j] ^ top[-static_cast<std::int64_t>(rh[j])]] = gen;
}

// Looks among the splits (a, r - a), a = lo .. hi, for witnesses of the values of w.waiting,
// marks the values it confirms and takes them off; a few blocks spread over the range first
// when `sample` (the splits of one region give similar values). True when none waits.
template <typename T>
bool SparseThreads<T>::confirm(Worker& w, const Marks row, const std::uint8_t gen, std::int64_t r,
                               std::int64_t lo, std::int64_t hi, bool sample) const {
  std::vector<std::uint32_t>& waiting = w.waiting;
  if (waiting.empty()) return true;
  if (lo > hi) return false;
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    if (witness_scan_available()) {  // every waiting value is below xor_bound_ <= 256
      ByteSet set;
      for (std::uint32_t x : waiting) set.add(static_cast<std::uint8_t>(x));
      constexpr std::int64_t kWide = 32, kSamples = 16, kStride = 7919;
      const std::int64_t blocks = (hi - lo + kWide) / kWide;
      for (std::int64_t b = 0; sample && b < std::min(blocks, kSamples) && !set.empty(); ++b) {
        const std::int64_t a0 = lo + (b * kStride) % blocks * kWide;
        w.work += static_cast<std::uint64_t>(witness_scan(base_, r, a0, std::min(hi, a0 + kWide - 1), set));
      }
      if (!set.empty()) w.work += static_cast<std::uint64_t>(witness_scan(base_, r, lo, hi, set));
      for (std::size_t i = 0; i < waiting.size();) {
        if (set.contains(static_cast<std::uint8_t>(waiting[i]))) {
          ++i;
        } else {
          row[waiting[i]] = gen;
          waiting[i] = waiting.back();
          waiting.pop_back();
        }
      }
      return waiting.empty();
    }
  }
  // Marks what it sees, like the one-thread scan, and looks at the waiting values after each
  // block of splits: waiting[0] first, the others once it is seen.
  auto settle = [&] {
    if (row[waiting[0]] != gen) return false;
    for (std::size_t i = 0; i < waiting.size();) {
      if (row[waiting[i]] == gen) {
        waiting[i] = waiting.back();
        waiting.pop_back();
      } else {
        ++i;
      }
    }
    return waiting.empty();
  };
  constexpr std::int64_t kSpan = 16, kSamples = 64, kStride = 7919;
  const std::int64_t blocks = (hi - lo + kSpan) / kSpan;
  for (std::int64_t b = 0; sample && b < std::min(blocks, kSamples); ++b) {
    const std::int64_t a0 = lo + (b * kStride) % blocks * kSpan;
    const std::int64_t end = std::min(hi, a0 + kSpan - 1);
    w.work += static_cast<std::uint64_t>(end - a0 + 1);
    for (std::int64_t a = a0; a <= end; ++a) row[base_[a] ^ base_[r - a]] = gen;
    if (settle()) return true;
  }
  for (std::int64_t a = lo; a <= hi;) {
    const std::int64_t end = std::min(hi, a + 63);
    w.work += static_cast<std::uint64_t>(end - a + 1);
    for (; a <= end; ++a) row[base_[a] ^ base_[r - a]] = gen;
    if (settle()) return true;
  }
  return false;
}

// The splits (h, r0 + l - h) of heaps l0 + l, l = 0 .. kLanes - 1, for the rare heaps h of
// w.rh[from .. to - 1]: the other parts are kLanes consecutive heaps.
template <typename T>
void SparseThreads<T>::lanes(Worker& w, std::uint8_t* const rows, std::uint8_t gen, std::int64_t r0,
                             std::size_t from, std::size_t to) const {
  if (from >= to) return;
  const std::uint32_t* const rh = w.rh.data();
  const std::uint32_t* const rv = w.rv.data();
  w.work += (to - from) * kLanes;
  for (std::size_t j = from; j < to; ++j) {
    const T* const p = base_ + r0 - rh[j];
    const T x = static_cast<T>(rv[j]);
#pragma GCC unroll 16
    for (std::size_t l = 0; l < kLanes; ++l) rows[static_cast<std::size_t>(x ^ p[l]) * kLanes + l] = gen;
  }
}

template <typename T>
void SparseThreads<T>::ahead(Worker& w, Slot& s, std::size_t start, std::int64_t L) {
  sync(w);  // holds every rare heap below L
  if (++s.gen == 0) {
    std::fill(s.rows.begin(), s.rows.end(), 0);
    s.gen = 1;
  }
  const std::uint8_t gen = s.gen;
  const std::uint32_t mask = k_.mask_;
  auto rank = [&w](std::int64_t heap) { return w.rank(heap); };
  // The marks, kLanes heaps at a time: the rare heaps in every one's range of phase 1 are
  // read once for all of them (other parts consecutive across the heaps), the rest per heap.
  for (std::size_t l0 = 0; l0 < kBlock; l0 += kLanes) {
    const auto n0 = static_cast<std::int64_t>(start + l0);
    for (std::size_t i = 0; i < k_.twos_.size(); ++i) {
      const std::int64_t r0 = n0 - k_.twos_[i];
      const std::int64_t last = r0 + static_cast<std::int64_t>(kLanes) - 1;
      if (r0 < 2) {
        for (std::size_t l = 0; l < kLanes; ++l) {
          const std::int64_t r = r0 + static_cast<std::int64_t>(l);
          if (r < 2) continue;
          const auto [from, to] = ahead_range(w, r, L);
          mark(w, marks(s, l0 + l), gen, r, from, to, equal_split(w, i, r));
        }
        continue;
      }
      // Common to all: from the last heap's start to the first one's end; less the rare
      // heaps that are half of one of the heaps (left out of unequal splits), done per heap.
      const std::size_t common_from = ahead_range(w, last, L).first;
      const std::size_t common_to = std::max(common_from, ahead_range(w, r0, L).second);
      std::size_t equal_from = common_to, equal_to = common_to;
      if (k_.unequal_[i]) {
        equal_from = std::clamp(rank((r0 + 1) / 2), common_from, common_to);
        equal_to = std::clamp(rank(last / 2 + 1), equal_from, common_to);
      }
      lanes(w, s.rows.data() + l0 * stride_, gen, r0, common_from, equal_from);
      lanes(w, s.rows.data() + l0 * stride_, gen, r0, equal_to, common_to);
      for (std::size_t l = 0; l < kLanes; ++l) {
        const std::int64_t r = r0 + static_cast<std::int64_t>(l);
        const Marks row = marks(s, l0 + l);
        const auto [from, to] = ahead_range(w, r, L);
        const std::size_t skip = equal_split(w, i, r);
        if (common_from >= common_to) {
          mark(w, row, gen, r, from, to, skip);
        } else {
          mark(w, row, gen, r, from, common_from, skip);
          mark(w, row, gen, r, equal_from, equal_to, skip);
          mark(w, row, gen, r, common_to, to, skip);
        }
      }
    }
  }
  for (std::size_t l = 0; l < kBlock; ++l) {
    const auto n = static_cast<std::int64_t>(start + l);
    const Marks row = marks(s, l);
    // The rare values below the first common one these marks miss. (Aiming further, at
    // those the marks of phase 2 may still reveal as pending, cost more than it saved.)
    w.waiting.clear();
    for (std::uint32_t v = 0; v < xor_bound_; ++v) {
      if (row[v] == gen) continue;
      if (!even_parity(v, mask)) break;
      w.waiting.push_back(v);
    }
    for (std::size_t i = 0; i < k_.twos_.size() && !w.waiting.empty(); ++i) {
      const std::int64_t r = n - k_.twos_[i];
      const std::int64_t hi = k_.unequal_[i] ? (r - 1) / 2 : r / 2;
      confirm(w, row, gen, r, std::max<std::int64_t>(1, r - L + 1), hi, true);  // both parts below L
    }
  }
}

template <typename T>
bool SparseThreads<T>::in_turn(Worker& w, Slot& s, std::size_t start, std::int64_t L) {
  sync(w);  // holds every rare heap below start
  const std::uint8_t gen = s.gen;
  const std::uint32_t mask = k_.mask_;
  auto rank = [&w](std::int64_t heap) { return w.rank(heap); };
  std::vector<Group>& groups = w.groups;
  groups.assign(k_.twos_.size(), Group{});
  for (std::size_t l = 0; l < kBlock; ++l) {
    const std::size_t un = start + l;
    const auto n = static_cast<std::int64_t>(un);
    const Marks row = marks(s, l);
    if (l % kLanes == 0) {
      // The rare parts h from kLanes up to r - L (whose other parts phase 1 could not read)
      // of these kLanes heaps: the other parts lie below heap n, finished, and consecutive.
      for (std::size_t i = 0; i < k_.twos_.size(); ++i) {
        Group& c = groups[i];
        c.on = false;
        const std::int64_t r0 = n - k_.twos_[i];
        const std::int64_t last = r0 + static_cast<std::int64_t>(kLanes) - 1;
        if (r0 < 2 || ahead_range(w, last, L).first >= ahead_range(w, r0, L).second) continue;
        c.on = true;
        c.group_to = ahead_range(w, r0, L).first;
        c.group_from = std::min(rank(static_cast<std::int64_t>(kLanes)), c.group_to);
        c.equal_from = c.equal_to = c.group_to;
        if (k_.unequal_[i]) {
          c.equal_from = std::clamp(rank((r0 + 1) / 2), c.group_from, c.group_to);
          c.equal_to = std::clamp(rank(last / 2 + 1), c.equal_from, c.group_to);
        }
        lanes(w, s.rows.data() + l * stride_, gen, r0, c.group_from, c.equal_from);
        lanes(w, s.rows.data() + l * stride_, gen, r0, c.equal_to, c.group_to);
      }
    }
    for (std::int64_t k : k_.ones_) {  // ascending
      if (k >= n) break;
      row[base_[n - k]] = gen;
    }
    const auto upto = std::upper_bound(k_.nones_.begin(), k_.nones_.end(), n);
    if (upto != k_.nones_.begin() && *(upto - 1) == n) row[0] = gen;
    w.work += k_.ones_.size() + static_cast<std::uint64_t>(upto - k_.nones_.begin()) + 1;
    for (std::size_t i = 0; i < k_.twos_.size(); ++i) {
      const std::int64_t r = n - k_.twos_[i];
      if (r < 2) continue;
      const auto count = static_cast<std::size_t>(
          std::lower_bound(w.rh.begin(), w.rh.end(), static_cast<std::uint64_t>(r)) - w.rh.begin());
      const auto [from, to] = ahead_range(w, r, L);
      const std::size_t skip = equal_split(w, i, r);
      const Group& c = groups[i];
      if (c.on) {
        mark(w, row, gen, r, 0, c.group_from, skip);
        mark(w, row, gen, r, c.equal_from, c.equal_to, skip);
        mark(w, row, gen, r, c.group_to, from, skip);
        mark(w, row, gen, r, to, count, skip);
      } else if (from < to) {
        mark(w, row, gen, r, 0, from, skip);
        mark(w, row, gen, r, to, count, skip);
      } else {
        mark(w, row, gen, r, 0, count, skip);
      }
    }
    // Every common value among the options is marked now: the first one missing bounds the mex.
    std::vector<std::uint32_t>& pending = w.pending;
    pending.clear();
    std::uint32_t v = 0;
    while (true) {
      if (row[v] == gen) {
        ++v;
      } else if (even_parity(v, mask)) {
        pending.push_back(v);
        ++v;
      } else {
        break;
      }
    }
    std::uint32_t value = v;
    if (!pending.empty()) {
      const auto wide =
          std::find_if(pending.begin(), pending.end(), [&](std::uint32_t x) { return x >= xor_bound_; });
      w.waiting.assign(pending.begin(), wide);
      if (wide != pending.end()) pending.erase(wide + 1, pending.end());
      // Every split once: those with both parts below L (sampled first: most witnesses are
      // found there soon), then those with a part at L or above.
      for (std::size_t i = 0; i < k_.twos_.size() && !w.waiting.empty(); ++i) {
        const std::int64_t r = n - k_.twos_[i];
        const std::int64_t hi = k_.unequal_[i] ? (r - 1) / 2 : r / 2;
        confirm(w, row, gen, r, std::max<std::int64_t>(1, r - L + 1), hi, true);
        confirm(w, row, gen, r, 1, std::min(hi, r - L), false);
      }
      for (std::uint32_t x : pending) {
        if (x >= xor_bound_ || row[x] != gen) {
          value = x;
          break;
        }
      }
    }
    if (value > std::numeric_limits<T>::max()) {
      k_.overflow_ = value;
      return false;
    }
    g_.push_back(static_cast<T>(value));
    largest_ = std::max(largest_, value);
    if (n >= 1 && even_parity(value, mask)) {
      w.rh.push_back(static_cast<std::uint32_t>(n));
      w.rv.push_back(value);
      std::lock_guard<std::mutex> lock(rare_mutex_);
      k_.rare_.push_back(static_cast<std::uint32_t>(n));
      k_.rare_value_.push_back(value);
    }
    if (value >= xor_bound_) return false;  // the marks were sized below it
  }
  return true;
}

template <typename T>
std::size_t HeapKernel::run_threaded(std::vector<T>& g, std::size_t end) {
  const std::size_t n = g.size();
  // From twice the reach of phase 2 on (L at half the table or more), and for as many heaps
  // again: below that one thread is as fast.
  const std::size_t reach = (std::max<std::size_t>(kAhead, threads_) + 1) * kBlock;
  if (n < 2 * reach || end < n + 2 * reach) return n;
  SparseThreads<T> run(*this, g, (end - n) / kBlock);
  return run_threads(g, n, run);
}

template std::size_t HeapKernel::run_threaded(std::vector<std::uint8_t>&, std::size_t);
template std::size_t HeapKernel::run_threaded(std::vector<std::uint16_t>&, std::size_t);
template std::size_t HeapKernel::run_threaded(std::vector<std::uint32_t>&, std::size_t);

}  // namespace grundy
