// The work a query has ahead, known before it starts where the rules are compiled
// (runtime/IntProgram.hpp): grundy(Wythoff(100000, 100000)) ran 46 s, and the cutting game
// at (100000, 100000) 64 s, to stop at --max-steps. A lower bound on the steps says so at once.
#pragma once

#include <cstdint>
#include <functional>

#include "runtime/IntProgram.hpp"

namespace grundy {

// A lower bound on the steps the general search takes to value state `c` (`arity`
// integers): it lists every option of every position it enters, a step for each that a
// `for` makes, and it enters every distinct part of c's options that `known` does not have
// (up to 2^20 of them). Cheap: runs of options are counted, not listed, the count stops far
// past `enough` (64 times) or after 200 ms, and 0 when c's own options pass `enough` (the
// search says which loop is too long).
std::uint64_t steps_ahead(const IntProgram& rules, const std::int64_t* c, int arity,
                          const std::function<bool(const std::int64_t*)>& known, std::uint64_t enough);

}  // namespace grundy
