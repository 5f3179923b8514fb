// Native kernels for one-heap games: subtraction games (finite and "all but" sets) and
// take-and-break games (octal and hexadecimal codes, Grundy's game). A HeapSpec
// (runtime/HeapSpec.hpp) describes the rules as a code; a HeapKernel computes value[0],
// value[1], ... bottom-up into a DenseTable without looking at positions, cursors or the
// syntax tree.
//
// Two-heap splits use the sparse-space algorithm of Berlekamp, Gangolli-Plambeck and
// Flammenkamp when the values allow it: with a bit mask m, a value v is "rare" when
// popcount(v & m) is even, "common" when odd. common ^ common and rare ^ rare are rare,
// rare ^ common is common. Rare values are few, so the common values among the options
// are exactly those of the splits with one rare part: |R| steps instead of n/2. The rare
// candidates below the first missing common value are then confirmed by a scan that stops
// as soon as each has a witness. The result is exact for any mask; the mask only decides
// the speed, so it is chosen from the values seen, and the kernel falls back to the plain
// O(n) loop per heap when rare values are not rare.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/Dense.hpp"
#include "runtime/HeapSpec.hpp"

namespace grundy {

// Called every few thousand heaps, and within a heap whose options are many, with the
// number of options (splits) looked at since the last call: the caller charges them to
// --max-steps. Throws to stop (a limit, an interrupt); may report progress. Every option
// looked at is reported by the time extend() returns.
using Poll = std::function<void(std::size_t done, std::size_t target, std::uint64_t work)>;

class HeapKernel {
 public:
  enum class Mode : std::uint8_t { Subtraction, Plain, Sparse };
  explicit HeapKernel(HeapSpec spec);

  // Extends `table` (values of heaps 0..size-1, as this kernel computed them) to heaps
  // 0..upto-1. Returns false, leaving the table at the heap it reached, when the spec
  // cannot be computed there (a tail that ends before the heap).
  bool extend(DenseTable& table, std::size_t upto, const Poll& poll);

  // Takes up a table of this code's values computed before (a file of values): the state a
  // run to its size would have (its largest value; the mode reviewed, and the rare heaps
  // listed, at the next heap), so that extend() goes on from its end.
  void resume(const DenseTable& table);

  const HeapSpec& spec() const { return spec_; }
  Mode mode() const { return mode_; }
  std::uint32_t mask() const { return mask_; }
  std::size_t rare_count() const { return rare_.size(); }
  // For tests and benchmarks: never use the sparse-space algorithm, or use it from the
  // start with a given mask (the values are the same for any mask; only speed differs).
  void force_plain(bool on) { force_plain_ = on; }
  void force_mask(std::uint32_t mask);
  // Threads (--threads): 1 runs the one-thread code; more compute the heaps of the sparse
  // space in blocks (runtime/KernelThreads.cpp), and those of the plain loop one by one
  // (runtime/PlainThreads.cpp), each in two phases. The values are the same.
  void set_threads(unsigned n) { threads_ = n == 0 ? 1 : n; }
  unsigned threads() const { return threads_; }
  // Heaps computed on threads so far (for tests: that the threads ran).
  std::size_t threaded_heaps() const { return threaded_; }
  std::string describe() const;

 private:
  template <typename T>
  std::size_t run(std::vector<T>& g, std::size_t upto);
  template <typename T>
  std::size_t run_subtraction(std::vector<T>& g, std::size_t upto);
  // Which splits with a rare part a block has marked already, per entry of twos_: the rare
  // heaps from..to-1 of rare_, less equal_from..equal_to-1 (those that may be half a heap of
  // the block, which a split into unequal heaps leaves out).
  struct Covered {
    std::size_t from = 0, to = 0, equal_from = 0, equal_to = 0;
  };
  template <typename T>
  std::uint32_t value_at(const std::vector<T>& g, std::size_t n);
  template <typename T>
  std::uint32_t value_at(const std::vector<T>& g, std::size_t n, std::uint8_t* stamp, std::uint8_t gen,
                         const Covered* covered);
  // The marks of heap n's removals (ones_, nones_, the tail's), and whether the tail's values
  // of the heaps below count among its options (use_prefix); the options looked at.
  template <typename T>
  std::uint64_t mark_removals(const std::vector<T>& g, std::int64_t n, std::uint8_t* stamp, std::uint8_t gen,
                              bool& use_prefix);
  // The mex of the values marked, and of the tail's prefix when use_prefix.
  std::uint32_t mex_marked(const std::uint8_t* stamp, std::uint8_t gen, bool use_prefix);
  std::size_t run_block(std::vector<std::uint8_t>& g);
  // Heaps g.size() .. end - 1 (or fewer: a whole number of blocks, and it stops at a value
  // past the marks it sized) on threads_ threads; returns the table's size after them.
  template <typename T>
  std::size_t run_threaded(std::vector<T>& g, std::size_t end);
  template <typename T>
  friend class SparseThreads;
  // The plain O(n) loop per heap on threads_ threads (runtime/PlainThreads.cpp), from heaps
  // whose splits are many enough to share; returns the table's size after them.
  template <typename T>
  std::size_t run_plain_threaded(std::vector<T>& g, std::size_t end);
  template <typename T>
  friend class PlainThreads;
  // Runs `threads` (SparseThreads, PlainThreads) from heap n of g and keeps the kernel's
  // account of them however they end; returns the table's size after them.
  template <typename T, class Threads>
  std::size_t run_threads(std::vector<T>& g, std::size_t n, Threads& threads) {
    bool ran = false;
    try {
      ran = threads.run();
    } catch (...) {
      if (threads.largest() > max_value_) note_max(threads.largest());  // the table holds it: a later extend reads it
      threaded_ += g.size() - n;
      throw;
    }
    threaded_ += g.size() - n;
    if (!ran) threads_ = 1;  // none to be had: one thread from here on
    if (threads.largest() > max_value_) note_max(threads.largest());
    return g.size();
  }
  // The threads run the sparse space in blocks when the code has splits into two heaps and
  // nothing that reads the heaps just below (three heaps, a tail) beyond removals.
  bool threadable() const;
  template <typename T>
  void choose_mode(const std::vector<T>& g);
  // Counts options looked at while computing heap n; polls once enough have gathered.
  void spend(std::uint64_t work, std::size_t n) {
    work_ += work;
    if (work_ >= kPollWork) report(n);
  }
  void report(std::size_t n);
  static constexpr std::uint64_t kPollWork = std::uint64_t{1} << 20;
  void clear_rare();
  void note_heap(std::size_t n, std::uint32_t v);  // heap n has value v: a rare heap?
  void grow_stamps(std::uint32_t v);
  void note_max(std::uint32_t v);

  void next_gen();
  void add_prefix(std::uint32_t v);
  bool in_prefix(std::uint32_t v) const { return v < prefix_.size() && prefix_[v]; }
  std::uint32_t not_in_prefix(std::uint32_t v);  // the smallest value >= v not in the prefix

  HeapSpec spec_;
  Mode mode_ = Mode::Plain;
  bool force_plain_ = false;
  bool forced_mask_ = false;
  unsigned threads_ = 1;
  std::size_t threaded_ = 0;
  std::vector<std::int64_t> ones_;    // k with kOne (k >= 1)
  std::vector<std::int64_t> nones_;   // k with kNone
  std::vector<std::int64_t> twos_;    // k with kTwo
  std::vector<bool> unequal_;         // per entry of twos_
  std::vector<std::int64_t> threes_;  // k with kThree
  // Sparse space.
  std::uint32_t mask_ = 0;
  std::vector<std::uint32_t> rare_;        // heaps >= 1 whose value is rare, ascending
  std::vector<std::uint32_t> rare_value_;  // their values, in step with rare_
  std::size_t next_review_ = 2048;         // table size at which to reconsider the mode
  // Marks of the values seen among one heap's options.
  std::vector<std::uint8_t> stamp_;
  std::uint8_t gen_ = 1;
  // A block of kLanes heaps in the sparse space (tables of bytes): the splits of all of them
  // with a rare part that lies below the block are read in one pass over the rare heaps, 16
  // consecutive values at a time, into a set of marks per heap.
  static constexpr std::size_t kLanes = 16, kLaneMarks = 512;
  std::vector<std::uint8_t> lanes_;
  std::uint8_t lane_gen_ = 0;
  std::vector<Covered> covered_;
  std::vector<std::uint32_t> pending_;  // rare values below the first missing common one
  std::vector<std::uint32_t> waiting_;  // those still without a witness
  std::uint32_t max_value_ = 0;
  // The tail: the values of heaps 1..prefix_upto_-1, as a presence set with its mex.
  std::vector<std::uint8_t> prefix_;
  std::vector<std::uint32_t> skip_;  // union-find: towards the next value not in the prefix
  std::size_t prefix_upto_ = 1;
  std::uint32_t prefix_mex_ = 0;
  std::uint32_t overflow_ = 0;  // a value that did not fit the table's width
  // Value histogram, for choosing the mask.
  std::vector<std::uint64_t> hist_;
  std::size_t hist_upto_ = 0;
  // While extend() runs: its poll and target, and the options looked at since the last poll.
  const Poll* poll_ = nullptr;
  std::size_t upto_ = 0;
  std::uint64_t work_ = 0;
};

}  // namespace grundy
