// --threads for the take-and-break kernel's plain loop (runtime/Kernels.hpp): the codes whose
// values are not sparse (Lasker's Nim, whose values grow with the heap), where a heap's value
// is the mex over all its splits, O(n) of them. A heap needs the values of every heap below
// it, but nearly all of its splits read only heaps well below: heap n's split (a, r - a) with
// both parts below L, the heaps finished when its phase 1 starts, may be marked on any thread
// (runtime/KernelPipeline.hpp); phase 2, in turn on the caller's thread, marks the few splits
// with a part at L or above (a <= r - L), the removals and the tail, and takes the mex.
//
// The marks are only those of values below the number of the heap's options (its mex lies
// below), in a row per slot of the window; each mark is the value of an option, and phase 2
// marks every split phase 1 left, so the values are those of one thread whatever L is.
#include <algorithm>
#include <atomic>
#include <limits>
#include <memory>
#include <vector>

#include "runtime/KernelPipeline.hpp"
#include "runtime/Kernels.hpp"

namespace grundy {

namespace {

// A heap is shared out once its splits are this many: below, the flags and wake-ups between
// threads cost about as much as the heap.
constexpr std::uint64_t kMinSplits = 4096;

}  // namespace

template <typename T>
class PlainThreads {
 public:
  // Heaps g.size() .. end - 1.
  PlainThreads(HeapKernel& k, std::vector<T>& g, std::size_t end);
  // False when no thread could be started (the heaps done so far are kept). Rethrows what a
  // thread threw: the poll's limits and interrupts.
  bool run();
  std::uint32_t largest() const { return largest_; }

 private:
  struct alignas(64) Slot {
    std::vector<std::uint8_t> marks;
    std::uint8_t gen = 0;
    std::int64_t L = 0;  // the heaps below it were finished when phase 1 started
  };
  // The splits of heap n = start_ + j into parts below L, marked in slot s.
  void ahead(std::size_t j, std::size_t finished);
  bool in_turn(std::size_t j);  // false: stop after this heap
  // Marks heap n's splits whose parts both lie below s.L (phase 1), or the others (phase 2).
  std::uint64_t mark_splits(Slot& s, std::int64_t n, bool below_L) const;
  // Marks the values below `limit` of the splits (a, r - a), a = lo .. hi.
  std::uint64_t mark(Slot& s, std::uint64_t limit, std::int64_t r, std::int64_t lo, std::int64_t hi) const;
  // The most options heap n has: its mex lies below, and only values below it are marked.
  static std::uint64_t bound(const HeapKernel& k, std::int64_t n);
  // The units phase 1 may run ahead of the last one finished.
  static std::size_t window(const HeapKernel& k, std::size_t end);

  HeapKernel& k_;
  std::vector<T>& g_;
  const T* base_ = nullptr;
  const std::size_t start_, end_;
  KernelPipeline pipeline_;
  std::unique_ptr<Slot[]> slots_;
  alignas(64) std::atomic<std::uint64_t> work_{0};
  // Written by phase 2 alone, on a line of their own.
  alignas(64) std::uint32_t largest_ = 0;
  std::size_t polled_ = 0;  // the table's size at the last poll
};

template <typename T>
PlainThreads<T>::PlainThreads(HeapKernel& k, std::vector<T>& g, std::size_t end)
    : k_(k),
      g_(g),
      start_(g.size()),
      end_(end),
      pipeline_(k.threads_, end - g.size(), window(k, end)) {
  // The threads read the table through one pointer while phase 2 appends: no reallocation.
  if (g_.capacity() < end_) g_.reserve(end_);
  base_ = g_.data();
  const std::uint64_t most = bound(k_, static_cast<std::int64_t>(end_) - 1);
  slots_ = std::make_unique<Slot[]>(pipeline_.slots());
  for (std::size_t i = 0; i < pipeline_.slots(); ++i) slots_[i].marks.assign(most + 1, 0);
}

template <typename T>
std::uint64_t PlainThreads<T>::bound(const HeapKernel& k, std::int64_t n) {
  // The removals, the tail's prefix (at most n values), the splits, and no move at all.
  std::uint64_t b = k.ones_.size() + k.nones_.size() + 2 + static_cast<std::uint64_t>(n);
  for (std::int64_t t : k.twos_) b += static_cast<std::uint64_t>(std::max<std::int64_t>(0, (n - t) / 2));
  return b;
}

template <typename T>
std::size_t PlainThreads<T>::window(const HeapKernel& k, std::size_t end) {
  // Two heaps a thread: slack for one put aside, at a phase 2 of a few splits per heap; the
  // rows of the window within some 32 MB however many threads there are.
  constexpr std::uint64_t kRowsBytes = std::uint64_t{32} << 20;
  const std::uint64_t row = bound(k, static_cast<std::int64_t>(end) - 1) + 1;
  const std::uint64_t most = std::max<std::uint64_t>(2, kRowsBytes / row);
  return static_cast<std::size_t>(std::min<std::uint64_t>(2 * std::uint64_t{k.threads_}, most));
}

template <typename T>
bool PlainThreads<T>::run() {
  return pipeline_.run([this](unsigned, std::size_t j, std::size_t finished) { ahead(j, finished); },
                       [this](std::size_t j) { return in_turn(j); });
}

template <typename T>
std::uint64_t PlainThreads<T>::mark(Slot& s, std::uint64_t limit, std::int64_t r, std::int64_t lo,
                                    std::int64_t hi) const {
  if (lo > hi) return 0;
  // Locals: a store of a byte may alias any member, which would be read again each time.
  std::uint8_t* const row = s.marks.data();
  const std::uint8_t gen = s.gen;
  const T* const base = base_;
  for (std::int64_t a = lo; a <= hi; ++a) {
    const std::uint64_t x = base[a] ^ base[r - a];
    if (x < limit) row[x] = gen;
  }
  return static_cast<std::uint64_t>(hi - lo + 1);
}

template <typename T>
std::uint64_t PlainThreads<T>::mark_splits(Slot& s, std::int64_t n, bool below_L) const {
  const std::uint64_t limit = bound(k_, n);
  std::uint64_t work = 0;
  for (std::size_t i = 0; i < k_.twos_.size(); ++i) {
    const std::int64_t r = n - k_.twos_[i];
    const std::int64_t hi = k_.unequal_[i] ? (r - 1) / 2 : r / 2;
    // Both parts of (a, r - a) lie below L when r - a < L (then a <= r - a < L too).
    work += below_L ? mark(s, limit, r, std::max<std::int64_t>(1, r - s.L + 1), hi)
                    : mark(s, limit, r, 1, std::min(hi, r - s.L));
  }
  return work;
}

template <typename T>
void PlainThreads<T>::ahead(std::size_t j, std::size_t finished) {
  Slot& s = slots_[pipeline_.slot(j)];
  if (++s.gen == 0) {  // byte marks: cleared once every 255 heaps of the slot
    std::fill(s.marks.begin(), s.marks.end(), 0);
    s.gen = 1;
  }
  s.L = static_cast<std::int64_t>(start_ + finished);
  const std::uint64_t work = mark_splits(s, static_cast<std::int64_t>(start_ + j), true);
  work_.fetch_add(work, std::memory_order_relaxed);
}

template <typename T>
bool PlainThreads<T>::in_turn(std::size_t j) {
  Slot& s = slots_[pipeline_.slot(j)];
  const auto n = static_cast<std::int64_t>(start_ + j);
  std::uint64_t work = 1 + mark_splits(s, n, false);
  bool use_prefix = false;
  work += k_.mark_removals(g_, n, s.marks.data(), s.gen, use_prefix);
  const std::uint32_t value = k_.mex_marked(s.marks.data(), s.gen, use_prefix);
  if (value > std::numeric_limits<T>::max()) {
    k_.overflow_ = value;
    return false;
  }
  g_.push_back(static_cast<T>(value));
  largest_ = std::max(largest_, value);
  // As often as on one thread (HeapKernel::run, spend), while no other thread appends.
  k_.work_ += work + work_.exchange(0);
  if (k_.work_ >= HeapKernel::kPollWork || g_.size() >= polled_ + 4096) {
    polled_ = g_.size();
    k_.report(polled_);
  }
  return true;
}

template <typename T>
std::size_t HeapKernel::run_plain_threaded(std::vector<T>& g, std::size_t end) {
  const std::size_t n = g.size();
  std::uint64_t splits = 0;
  for (std::int64_t k : twos_) splits += static_cast<std::uint64_t>(std::max<std::int64_t>(0, (static_cast<std::int64_t>(n) - k) / 2));
  if (splits < kMinSplits || end < n + 2 * std::size_t{threads_}) return n;
  PlainThreads<T> run(*this, g, end);
  return run_threads(g, n, run);
}

template std::size_t HeapKernel::run_plain_threaded(std::vector<std::uint8_t>&, std::size_t);
template std::size_t HeapKernel::run_plain_threaded(std::vector<std::uint16_t>&, std::size_t);
template std::size_t HeapKernel::run_plain_threaded(std::vector<std::uint32_t>&, std::size_t);

}  // namespace grundy
