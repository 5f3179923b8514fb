// What made an option of written rules, for messages about runaway games: the rule as
// written, the values its loops had, and the fix when the rule looks like a known slip
// (`move n - k for k in 1..3`, which leaves fewer than 0 tokens; the fix bounds k by n).
#pragma once

#include <cstddef>
#include <string>

#include "lang/Ast.hpp"
#include "lang/Source.hpp"
#include "runtime/Game.hpp"
#include "runtime/Value.hpp"

namespace grundy::lang {

using Frame = std::vector<Value>;

// Item `item` of `decl` made the last option, its loops bound in `frame`.
OptionOrigin origin_of(const Sources& sources, const GameDecl& decl, std::size_t item, const Frame& frame);

// The condition of a state item (`state n if n >= 0`) as written: "n >= 0".
std::string guard_text(const Sources& sources, const GameDecl& decl, const GameItem& state);

}  // namespace grundy::lang
