// The loops that tabulate nim-values, lowered once per program: which calls, folds and
// comprehensions the interpreter can answer from a game's table (lang/Ast.hpp, Shortcut),
// found in the syntax after names are resolved, rather than matched at every evaluation.
// The interpreter takes them (lang/Shortcuts.cpp, its members known_grundy, query_of_call,
// fold and prefetch).
#pragma once

#include "lang/Ast.hpp"
#include "lang/World.hpp"

namespace grundy::lang {

// Marks the shortcuts of every expression of `p`: its statements, functions and rules.
void lower_shortcuts(Program& p, const World& w);

}  // namespace grundy::lang
