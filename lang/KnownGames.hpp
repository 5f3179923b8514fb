// Rules that say exactly what a well-known game says compile to its native ruleset, so that
// theorems about it (Nim's value n, Bouton's misère rule) can be used.
#pragma once

#include <memory>
#include <optional>

#include "lang/Ast.hpp"
#include "runtime/Game.hpp"

namespace grundy::lang {

// `state n  move k for k in 0..n-1` or `state n  move n - k for k in 1..n`: a Nim heap.
std::shared_ptr<const Ruleset> recognize_nim(const GameDecl& g);

// `state (n, limit)  move (n - t, K * t) for t in 1..min(n, limit)`: the K-multiple dynamic
// subtraction game (Fibonacci nim for K = 2; runtime/DynamicSubtraction.hpp), whose outcomes
// a theorem gives. Also with `t * K`, with `min(limit, n)` or `1..limit if t <= n`, with `t`
// alone for K = 1, and with the new limit capped at the tokens left, `min(K * t, n - t)`,
// which changes no outcome; the state may also be (limit, n). K is anything that does not
// depend on the state (a number, a parameter).
struct DynamicShape {
  const Expr* k = nullptr;  // null: K = 1
  std::int64_t times = 1;   // K times this: 2 for `t + t`
  int heap = 0;             // the state's coordinate that is n: 0 for (n, limit), 1 for (limit, n)
};
std::optional<DynamicShape> recognize_dynamic_subtraction(const GameDecl& g);

// `state (a, b)  move (a - k, b) for k in 1..a  move (a, b - k) for k in 1..b
//  move (a - k, b - k) for k in 1..min(a, b)`, the moves in any order (and each `1..min(x, y)`
// also as `1..x if k <= y`): Wythoff's game
// (runtime/Wythoff.hpp), whose outcomes a theorem gives.
bool recognize_wythoff(const GameDecl& g);

}  // namespace grundy::lang
