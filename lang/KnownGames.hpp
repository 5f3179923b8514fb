// Rules that say exactly what a well-known game says compile to its native ruleset, so that
// theorems about it (Nim's value n, Bouton's misère rule) can be used.
#pragma once

#include <memory>

#include "lang/Ast.hpp"
#include "runtime/Game.hpp"

namespace grundy::lang {

// `state n  move k for k in 0..n-1` or `state n  move n - k for k in 1..n`: a Nim heap.
std::shared_ptr<const Ruleset> recognize_nim(const GameDecl& g);

}  // namespace grundy::lang
