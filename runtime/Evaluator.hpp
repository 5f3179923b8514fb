// Normal-play evaluation: memoized mex over options, XOR over the parts of sums and splits.
// The search is iterative (an explicit stack of frames), so a chain of a million positions
// does not touch the C++ stack, and a position met again while in progress is a loop.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "runtime/Game.hpp"

namespace grundy {

struct Limits {
  // Memo entries in all game instances together; past it evaluation stops with a message
  // naming --max-states instead of exhausting memory.
  std::uint64_t max_states = 20'000'000;
  // Cells of one table(...); a typo like 0..10^9 should not print for hours.
  std::uint64_t max_rows = 1'000'000;
  // Set from a signal handler; polled between positions.
  const std::atomic<bool>* interrupt = nullptr;
};

class Evaluator {
 public:
  // `limits` is read at each query, so a session may change it between queries.
  Evaluator(GameRegistry& games, const Limits& limits) : games_(games), limits_(limits) {}
  Evaluator(GameRegistry&, Limits&&) = delete;  // it keeps a reference

  std::uint32_t grundy(const Position& p);
  // XOR of the parts' values: the Sprague-Grundy theorem.
  std::uint32_t grundy(const Option& parts);
  // Every option of p, in rule order, duplicates (equal as multisets) removed.
  std::vector<Option> options(const Position& p);

  const Limits& limits() const { return limits_; }

 private:
  GameRegistry& games_;
  const Limits& limits_;
};

// Options of a sum: each component's options, the moved component replaced in place by
// the parts of its option. Deduplicated as multisets.
std::vector<Option> sum_options(Evaluator& ev, const Option& sum);

// The smallest non-negative integer not in `seen` (seen[v] set for each value present).
std::uint32_t mex(const std::vector<bool>& seen);

}  // namespace grundy
