// Sums taken as one game, for the searches that cannot split a sum into its components'
// values (misère play, Every-SG remoteness). Each component position met is interned as a
// small integer, and a sum is keyed by the sorted ids of its components that can still move
// (a component without options can never be moved), so G + H and H + G, or G + H + K(0),
// are one state, and keys hash and compare as plain integer arrays.
#pragma once

#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/inlined_vector.h>

#include "runtime/Evaluator.hpp"

namespace grundy {

// Interned component ids, sorted, none terminal; a sum of a few components keeps them in
// place (a memo of millions of sums, each a heap block, spent its time allocating and
// comparing through pointers).
using SumKey = absl::InlinedVector<std::uint32_t, 5>;

class SumSpace {
 public:
  explicit SumSpace(Evaluator& ev) : ev_(ev) {}
  bool terminal(const Position& p);
  SumKey key(const Sum& sum);
  Sum parts(const SumKey& key) const;
  // Steps through the sums reachable in one move: (component, option) is the cursor, and
  // the next option's key is written to `out`. A sum reached by two moves comes twice:
  // mex, min and max do not mind, and dropping duplicates costs more.
  bool next_option(const SumKey& sum, std::size_t& component, std::size_t& option, SumKey& out);
  // The normal-play value of a sum: the xor of its components' (cached) values.
  std::uint64_t grundy(const SumKey& key);
  std::string describe(const SumKey& key) const;
  Evaluator& evaluator() { return ev_; }
  void clear();

 private:
  struct Component {
    Position position;
    bool expanded = false;
    std::vector<SumKey> options;  // each option's parts that can move, as ids (unsorted)
    std::int64_t grundy = -1;
  };
  std::uint32_t intern(const Position& p);
  Component& expand(std::uint32_t id);

  Evaluator& ev_;
  absl::flat_hash_map<Position, std::uint32_t> ids_;
  std::vector<Component> components_;
  absl::flat_hash_map<Position, bool> terminal_;
};

[[noreturn]] void throw_sum_loop(const SumSpace& space, const SumKey& sum);
void check_sum_limits(const Limits& limits, std::uint64_t states, const char* what);

}  // namespace grundy
