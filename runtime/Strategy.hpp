// How the evaluator computes one game instance's values: one path, chosen from the instance's
// Plan on first use (Evaluator::strategy) and kept with the instance (GameInstance::fast). A
// path that meets rules it cannot follow hands over to a slower one and keeps what it
// computed: a kernel gives way to the dense table where the rules leave its code, a box or a
// dense table to the memoized search where an option breaks their pattern.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "runtime/BoxTable.hpp"
#include "runtime/CrossCheck.hpp"
#include "runtime/Dense.hpp"
#include "runtime/HashedValues.hpp"
#include "runtime/Kernels.hpp"
#include "runtime/OutcomeMemo.hpp"
#include "runtime/OutcomeRule.hpp"

namespace grundy {

// The memoized search only.
struct SearchPath {};

// A subtraction game of a run {a, ..., b}: value(n) is (n mod (a + b)) / a for every n
// (runtime/Kernels.hpp, run_value), with no table: Bash[10^9] has a period of 10^9 + 1.
struct RunPath {
  std::int64_t a = 1, b = 1;
  DenseTable table;  // the values listed, for dense_values() only
  std::uint64_t value(std::int64_t n) const { return run_value(a, b, n); }
};

// A native kernel fills `table` bottom-up for heaps below `below`, where the rules leave the
// code (`differs` says how); a proven period (p > 0) answers every heap past the table.
struct KernelPath {
  std::unique_ptr<HeapKernel> kernel;
  HeapSpec spec;
  bool provable = false;  // spec.provable(), which reads every digit (a set of 316 squares has 10^5)
  DenseTable table;
  std::int64_t below = INT64_MAX;
  std::string differs;
  std::int64_t n0 = 0, p = 0;
  std::size_t next_check = 256;  // table size at which to look for a proven period again
  KernelAudit audit;             // --cross-check: the heaps checked so far
};

// The rules evaluated bottom-up for n = 0, 1, 2, ... into `table`; `stopped` once an option
// broke the pattern (the table stays valid, the search takes over from there).
struct DensePath {
  DenseTable table;
  bool stopped = false;
  std::uint64_t query = 0;  // the last outermost query that filled it (Evaluator::QueryScope)
};

// Compiled rules, top-down into a box of states (values), and the search for outcomes that
// stops at the first losing option (outcomes); each `stopped` once the program could not go
// on (the rules take over from there).
struct BoxPath {
  std::shared_ptr<const IntProgram> program;
  std::unique_ptr<BoxTable> box;
  // Packed states (sets, lists): their values in a hash map instead of the box.
  std::unique_ptr<HashedValues> hashed;
  std::unique_ptr<OutcomeMemo> outcomes;
  bool stopped = false;
  bool outcomes_stopped = false;
};

struct Strategy {
  std::variant<SearchPath, RunPath, KernelPath, DensePath, BoxPath> path;
  // Outcomes by a theorem, whatever the path (runtime/OutcomeRule.hpp).
  std::unique_ptr<OutcomeRule> outcome_rule;
  bool busy = false;  // a table being filled: a query met inside goes to the search
  // Misère outcomes of one position over the compiled rules (Evaluator::table_misere_wins),
  // whatever the path of the nim-values; `misere_stopped` once that search gave up.
  std::unique_ptr<OutcomeMemo> misere_outcomes;
  bool misere_stopped = false;
  std::string how;    // one line for --explain
  bool explained_other_states = false;  // --explain said once that non-integer states are searched

  template <typename P>
  P* as() {
    return std::get_if<P>(&path);
  }
  template <typename P>
  const P* as() const {
    return std::get_if<P>(&path);
  }
  // The value of heap n when a path already has it (a table, a proven period, a formula).
  std::optional<std::uint64_t> known(std::int64_t n) const;
  // The values of heaps from, from + 1, ... into out[0..count) as long as they are known;
  // returns how many were. One division for the lot, where known() takes one per heap.
  std::size_t known_run(std::int64_t from, std::uint64_t* out, std::size_t count) const;
  // The table of values of a one-integer path (kernel or dense), or null.
  const DenseTable* table() const;
};

}  // namespace grundy
