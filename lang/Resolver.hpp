// Names, arity and shapes: binds every name of a program to a slot, a global, a game, a
// function or a builtin, and checks what can be checked before running. Errors go to the
// Diagnostics; uses of a name whose definition failed to parse are not reported again.
#pragma once

#include <vector>

#include "lang/Diagnostics.hpp"
#include "lang/World.hpp"

namespace grundy::lang {

// One batch may not define a name twice, as one file may not (a later batch may: the REPL's
// redefinition). A second definition is reported and marked defined_twice, and its name is
// one of the program's broken names.
void check_duplicates(const std::vector<Program*>& batch, Diagnostics& diags);

// Adds the games, functions and top-level lets of `program` to the world's global names. A
// later definition takes over a name (the REPL's redefinition); a statement marked
// defined_twice (a name taken earlier in the same batch, already reported) is skipped.
void declare(World& world, Program& program);

// Resolves every game, function and statement of `program`.
void resolve(World& world, Program& program, Diagnostics& diags);

}  // namespace grundy::lang
