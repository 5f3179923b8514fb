// Every-SG play: each turn the mover moves in every component that still has a move, and
// whoever cannot move loses. Jia Zhihao's analysis: the winner of each component plays it to
// last as long as possible and the loser to end it as soon as possible, so a component lasts
// steps(G) moves, where
//   steps(G) = 0                                   if G has no options,
//            = 1 + max steps(G') over P-options G'  if G is an N-position,
//            = 1 + min steps(G') over all options   if G is a P-position,
// and the mover wins the whole game iff the largest steps among the components is odd.
#pragma once

#include "runtime/SumSpace.hpp"

namespace grundy {

class EverySolver {
 public:
  EverySolver(Evaluator& ev, const Limits& limits) : ev_(ev), limits_(limits), space_(ev) {}

  // The remoteness of one component: a position, or a normal sum taken as one game.
  std::uint32_t steps(const Sum& component);
  // True when the player to move wins every (C1 + C2 + ...).
  bool wins(const std::vector<Sum>& components);
  // The move a player makes in one component by Jia's strategy: from an N-position to the
  // P-option that lasts longest, from a P-position to the option that ends soonest.
  Sum strategy_move(const Sum& component);
  // The options of every (C1 + C2 + ...): one move in each component that has one (a
  // normal sum being one component), as every-sums, each once; with `winning_only`, the one
  // the strategy above makes. Past --max-steps (the combinations), --max-rows or
  // --max-memory, an error naming the limit.
  std::vector<Value> options(const std::vector<Sum>& components, bool winning_only);
  void clear();

 private:
  Evaluator& ev_;
  const Limits& limits_;
  SumSpace space_;
  absl::flat_hash_map<SumKey, std::uint32_t> memo_;
};

}  // namespace grundy
