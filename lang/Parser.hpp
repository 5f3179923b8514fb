// Source text -> AST, one statement at a time, reporting every syntax error found.
#pragma once

#include "lang/Ast.hpp"
#include "lang/Diagnostics.hpp"
#include "lang/Source.hpp"

namespace grundy::lang {

// Statements that failed to parse are reported to `diags` and left out of the program.
// The text before byte `from` is not read (the REPL's `play` in front of a position), but
// stays in the source lines that diagnostics show.
Program parse_program(const Sources& sources, int file, Diagnostics& diags, std::uint32_t from = 0);

}  // namespace grundy::lang
