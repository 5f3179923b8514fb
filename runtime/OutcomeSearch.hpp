// The outcome of one state of a game whose options are single states, as a hand-written
// win() finds it: depth first in rule order, N as soon as one option is P, so most options
// are never looked at. Outcomes go into an OutcomeMemo (tiles where the search goes); values
// already in the box of nim-values are used too.
#pragma once

#include <optional>
#include <string>

#include "runtime/BoxTable.hpp"
#include "runtime/OutcomeMemo.hpp"

namespace grundy {

// Whether the player to move wins at `c`, for rules whose options are single states: N as
// soon as one option is P, searched depth first in rule order like a hand-written win()
// (so most options are never looked at). Values already in `values` are used too. Nothing
// when the compiled rules cannot decide (see box_value).
// Under misère play (`misere`), a state with no options is won, `split []` is an option the
// opponent wins, and `values` (normal play's) is not read.
std::optional<bool> box_outcome(OutcomeMemo& outcomes, const BoxTable& values, const IntProgram& rules,
                                const std::int64_t* c, const BoxHooks& hooks, std::string& why,
                                bool misere = false);

}  // namespace grundy
