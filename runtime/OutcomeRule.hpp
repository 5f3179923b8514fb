// Outcomes by a theorem: games whose winner is known from the state, with no search
// (Fibonacci nim by Zeckendorf's theorem, Wythoff's game by the golden ratio). The language
// recognises rules that say such a game exactly (lang/KnownGames.hpp); the evaluator asks
// the rule before any search for `wins` and `outcome` of an integer state. The nim-values
// are still computed from the rules.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace grundy {

class GameInstance;

class OutcomeRule {
 public:
  virtual ~OutcomeRule() = default;
  // True when the player to move at the state of `n` integers `c` wins; nothing when the
  // theorem does not answer there (the search does then, with the rules' own errors).
  virtual std::optional<bool> wins(const std::int64_t* c, int n) = 0;
  // What the theorem says, for --explain.
  virtual std::string describe() const = 0;
};

// A ruleset whose rules say a game with an OutcomeRule makes one per instance.
class OutcomeRuleSource {
 public:
  virtual ~OutcomeRuleSource() = default;
  // Null when this instance's parameters do not fit the theorem.
  virtual std::unique_ptr<OutcomeRule> outcome_rule(const GameInstance& game) const = 0;
};

}  // namespace grundy
