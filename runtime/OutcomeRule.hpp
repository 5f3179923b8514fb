// Outcomes by a theorem: games whose winner is known from the state, with no search
// (Fibonacci nim by Zeckendorf's theorem, Wythoff's game by the golden ratio). The language
// recognises rules that say such a game exactly (lang/KnownGames.hpp) and names the theorem
// in the instance's plan; the evaluator asks the rule before any search for `wins` and
// `outcome` of an integer state. The nim-values are still computed from the rules.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace grundy {

class OutcomeRule {
 public:
  virtual ~OutcomeRule() = default;
  // True when the player to move at the state of `n` integers `c` wins; nothing when the
  // theorem does not answer there (the search does then, with the rules' own errors).
  virtual std::optional<bool> wins(const std::int64_t* c, int n) = 0;
  // What the theorem says, for --explain.
  virtual std::string describe() const = 0;
};

// A theorem that gives the outcome of every state, with no search, as a plan names it
// (runtime/Plan.hpp).
struct OutcomeTheorem {
  enum class Kind : std::uint8_t {
    Wythoff,             // state (a, b): lost when the smaller heap is floor(d * phi)
    MultipleSubtraction  // state (n, limit), the K-multiple dynamic subtraction game
  };
  Kind kind = Kind::Wythoff;
  std::int64_t k = 1;  // MultipleSubtraction: the multiple (2 for Fibonacci nim)
  int heap = 0;        // MultipleSubtraction: the coordinate that is the heap, 0 or 1
};

}  // namespace grundy
