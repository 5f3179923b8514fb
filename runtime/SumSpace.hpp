// Sums taken as one game, for the searches that cannot split a sum into its components'
// values (misère play, Every-SG remoteness). A sum is keyed by its canonical multiset of
// components: components without options are dropped (they can never be moved) and the
// rest are sorted, so G + H and H + G, or G + H + K(0), are one state.
#pragma once

#include <vector>

#include <absl/container/flat_hash_map.h>

#include "runtime/Evaluator.hpp"

namespace grundy {

using SumKey = std::vector<Value>;  // Value::position components, sorted, none terminal

class SumSpace {
 public:
  explicit SumSpace(Evaluator& ev) : ev_(ev) {}
  bool terminal(const Position& p);
  SumKey key(const Option& sum);
  // Every sum reachable in one move, deduplicated.
  std::vector<SumKey> options(const SumKey& sum);
  static Option parts(const SumKey& key);
  Evaluator& evaluator() { return ev_; }
  void clear() { terminal_.clear(); }

 private:
  Evaluator& ev_;
  absl::flat_hash_map<Value, bool> terminal_;
};

// Positions can be searched in a sum without recursion: the frames of this stack hold the
// options still to be visited.
[[noreturn]] void throw_sum_loop(const SumKey& again);
void check_sum_limits(const Limits& limits, std::uint64_t states, const char* what);

}  // namespace grundy
