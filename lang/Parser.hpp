// Source text -> AST, one statement at a time, reporting every syntax error found.
#pragma once

#include "lang/Ast.hpp"
#include "lang/Diagnostics.hpp"
#include "lang/Source.hpp"

namespace grundy::lang {

// Statements that failed to parse are reported to `diags` and left out of the program.
Program parse_program(const Sources& sources, int file, Diagnostics& diags);

}  // namespace grundy::lang
