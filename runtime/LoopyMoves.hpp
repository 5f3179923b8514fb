// The moves of a sum with a loopy part (runtime/Loopy.hpp), as options(), winning() and
// drawing() list them: each option's value by Smith's sum rule. Winning moves come in order of
// the remoteness of the part moved to (ties in rule order): in a loopy game moving to just any
// P-option may go round for ever, and always taking the first one listed makes progress.
#pragma once

#include <vector>

#include "runtime/Evaluator.hpp"

namespace grundy {

// want: 0 for every option, 'P' for the options that leave a P-position (the winning moves),
// 'D' for those that leave a draw.
std::vector<Value> list_loopy_options(Evaluator& ev, const Sum& sum, char want);

}  // namespace grundy
