// Dense tables of nim-values for games whose state is one integer n >= 0: value[n] for
// n = 0, 1, ..., size - 1, stored in the narrowest unsigned type that holds every value so
// far (1 byte, widened to 2 and then 4 bytes the first time a value does not fit).
//
// A FastPath hangs off each GameInstance (GameInstance::fast). It records how the evaluator
// computes that instance's values: with a native kernel (runtime/Kernels.hpp), bottom-up
// through the rules into the dense table, or not at all (the general memoized search).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/CrossCheck.hpp"

namespace grundy {

class DenseTable {
 public:
  std::size_t size() const { return width_ == 1 ? b1_.size() : width_ == 2 ? b2_.size() : b4_.size(); }
  bool empty() const { return size() == 0; }
  int width() const { return width_; }  // bytes per value: 1, 2 or 4
  std::size_t bytes() const { return size() * static_cast<std::size_t>(width_); }

  std::uint32_t get(std::size_t i) const { return width_ == 1 ? b1_[i] : width_ == 2 ? b2_[i] : b4_[i]; }
  void push(std::uint32_t v) {
    if (v > max_value()) widen_for(v);
    if (width_ == 1) b1_.push_back(static_cast<std::uint8_t>(v));
    else if (width_ == 2) b2_.push_back(static_cast<std::uint16_t>(v));
    else b4_.push_back(v);
  }
  std::uint32_t max_value() const { return width_ == 1 ? 0xFFu : width_ == 2 ? 0xFFFFu : 0xFFFFFFFFu; }
  // Makes room for values up to v.
  void widen_for(std::uint32_t v);
  void reserve(std::size_t n);
  void truncate(std::size_t n);
  void clear();

  // Calls f(std::vector<T>&) with the storage of the current width.
  template <typename F>
  decltype(auto) visit(F&& f) {
    if (width_ == 1) return f(b1_);
    if (width_ == 2) return f(b2_);
    return f(b4_);
  }
  template <typename F>
  decltype(auto) visit(F&& f) const {
    if (width_ == 1) return f(b1_);
    if (width_ == 2) return f(b2_);
    return f(b4_);
  }

 private:
  int width_ = 1;
  std::vector<std::uint8_t> b1_;
  std::vector<std::uint16_t> b2_;
  std::vector<std::uint32_t> b4_;
};

class HeapKernel;
struct HeapSpec;
class IntProgram;
class TupleMemo;
class OutcomeMemo;
class OutcomeRule;

// How one game instance's values are computed; owned by the instance (GameInstance::fast).
struct FastPath {
  enum class Kind : std::uint8_t {
    Kernel,   // a native subtraction / take-and-break kernel fills `table`
    Dense,    // the rules, evaluated bottom-up for n = 0, 1, 2, ... into `table`
    Box,      // compiled rules, top-down into `box` (integer or tuple-of-integer states)
    General,  // the general memoized search only
  };
  FastPath();
  ~FastPath();
  FastPath(const FastPath&) = delete;
  FastPath& operator=(const FastPath&) = delete;

  Kind kind = Kind::General;
  DenseTable table;
  std::unique_ptr<HeapKernel> kernel;
  std::unique_ptr<HeapSpec> spec;            // Kernel: the rules as a code
  std::shared_ptr<const IntProgram> compiled;  // Box: the rules over unboxed integers
  std::unique_ptr<TupleMemo> box;            // Box: the values
  std::unique_ptr<OutcomeMemo> outcomes;     // Box: outcomes found by wins()
  bool outcomes_broken = false;
  // Outcomes by a theorem when the rules say a game that has one (runtime/OutcomeRule.hpp),
  // whatever computes the values.
  std::unique_ptr<OutcomeRule> outcome_rule;
  // A proven period: value(n) = value(n0 + (n - n0) % p) for n >= n0 (p == 0: none yet).
  std::int64_t n0 = 0;
  std::int64_t p = 0;
  // Kernel of a subtraction game of a run {a, ..., b} (run_a > 0): value(n) is
  // (n mod (a + b)) / a for every n, with no table (Bash[10^9] has a period of 10^9 + 1).
  // The values reach 2^63 - 1 (Bash[2^62](2^62) is 2^62), and a + b up to 2^64 - 2: both
  // are taken in 64-bit unsigned arithmetic, never in a table's 32 bits.
  std::int64_t run_a = 0;
  std::int64_t run_b = 0;
  std::uint64_t run_value(std::int64_t n) const {
    const std::uint64_t m = static_cast<std::uint64_t>(run_a) + static_cast<std::uint64_t>(run_b);
    return static_cast<std::uint64_t>(n) % m / static_cast<std::uint64_t>(run_a);
  }
  // Kernel of rules recognised as a code: heaps below verify_to are checked against the
  // rules (verify_spec) before the kernel computes them; those below verified are.
  std::int64_t verified = 0;
  std::int64_t verify_to = 0;
  std::size_t next_check = 256;  // table size at which to look for a proven period again
  bool busy = false;             // being filled (a rule's own query must not re-enter)
  bool broken = false;           // Dense/Box: the rules broke the pattern; the table stays valid
  std::string how;               // one line for --explain
  KernelAudit audit;             // Kernel, under --cross-check: the heaps checked so far

  // The value of heap n when it is already known (in the table, by the period, or by the
  // formula of a run, whose values need 64 bits).
  std::optional<std::uint64_t> known(std::int64_t n) const {
    if (n < 0) return std::nullopt;
    if (run_a > 0) return run_value(n);
    if (static_cast<std::uint64_t>(n) < table.size()) return table.get(static_cast<std::size_t>(n));
    if (p > 0) return table.get(static_cast<std::size_t>(n0 + (n - n0) % p));
    return std::nullopt;
  }
  // The values of heaps from, from + 1, ... into out[0..count) as long as they are known;
  // returns how many were. One division for the lot, where known() takes one per heap.
  std::size_t known_run(std::int64_t from, std::uint64_t* out, std::size_t count) const;
};

}  // namespace grundy
