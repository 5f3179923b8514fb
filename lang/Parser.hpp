// Source text -> AST, one statement at a time, reporting every syntax error found.
#pragma once

#include <atomic>

#include "lang/Ast.hpp"
#include "lang/Diagnostics.hpp"
#include "lang/Source.hpp"

namespace grundy::lang {

// Statements that failed to parse are reported to `diags` and left out of the program.
// The text before byte `from` is not read (the REPL's `play` in front of a position), but
// stays in the source lines that diagnostics show.
// A program whose parse would hold more than `max_memory` bytes of heap throws an Error
// (kind Limit) at the statement it stopped in; Ctrl-C (`interrupt` set) one of kind
// Interrupted.
Program parse_program(const Sources& sources, int file, Diagnostics& diags, std::uint32_t from = 0,
                      std::uint64_t max_memory = UINT64_MAX, const std::atomic<bool>* interrupt = nullptr);

}  // namespace grundy::lang
