// The moves a player is shown: the options of a sum, or only its winning ones, under normal
// or misère play, as the queries options() and winning() list them. Normal play finds a
// winning move by the Sprague-Grundy theorem (a move in component i wins exactly when it
// leaves the value nim-sum xor g_i there; in a Nim heap that is one move, with no search);
// misère play asks the misère solver of each option.
#pragma once

#include <vector>

#include "runtime/Evaluator.hpp"
#include "runtime/Misere.hpp"

namespace grundy {

// The sums one move leads to from `sum`, as Values (sums under `mod`, Normal or Misere),
// in rule order, each once (options equal as multisets are one); with `winning_only`, those
// the player to move wins by. Past --max-rows or --max-memory, an error naming the limit.
std::vector<Value> list_options(Evaluator& ev, MisereSolver& misere, const Sum& sum, Modifier mod,
                                bool winning_only);

// What tells an option apart from the others of the same sum: the sum with component
// `moved` replaced by x, so two are equal exactly when their changes are. The key is x less
// `moved` (a part of x equal to it cancels it, else `moved` is marked as taken away), not
// the whole sum again. (A self-loop in any component leaves the sum as it was: one option.)
std::vector<Position> change_key(const Option& x, const Position& moved);

}  // namespace grundy
