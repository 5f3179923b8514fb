// Probes of a game's rules on its small states, for grundy check: before anything runs,
// the states with every coordinate from 0 up (about 256 of them) are tried for a loop, and
// a `value` rule is compared with the mex of the options' values. The rules are only
// tried: a state whose options fail (an error, a state of another shape) is passed over,
// since a run meets that only if a query goes there.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "runtime/Evaluator.hpp"
#include "runtime/Game.hpp"

namespace grundy {

// A loop that the small states of g lead to, searched depth first through options that are
// positions of g: the shortest cycle through the first position met again; empty when none
// shows up within the budgets (positions visited, options looked at).
std::vector<Position> probe_loop(const GameInstance& g, int arity, std::size_t max_positions = 20000,
                                 std::size_t max_options = 50000);

// For a game with a value rule: the first small state where the formula and the mex of its
// options' values (the options valued by the evaluator, the formula's own for g's states)
// differ, as "G(5): it gives 3, but the mex of its options' values (0, 1, 3) is 2"; empty
// when they agree on every small state whose options can be computed. A value rule that loops
// (asks for its own value) throws its error.
std::string probe_formula(Evaluator& ev, const GameInstance& g, int arity, std::size_t max_options = 200000);

// A game of one integer whose small states run away (runtime/Runaway.hpp): a move from a
// state at or above 0 to one below it, from where the smallest options keep going down, or
// a chain of moves, each to the largest option, climbing past 2^16 from 0. `from` made `to`
// by `origin`; `climbs` tells which.
struct RunawayMove {
  Position start, from, to;
  OptionOrigin origin;
  bool climbs = false;
};
std::optional<RunawayMove> probe_runaway(const GameInstance& g, std::size_t max_options = 100000);

}  // namespace grundy
