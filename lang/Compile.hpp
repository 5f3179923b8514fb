// Compiles the rules of a game instance to code over unboxed integers (runtime/IntProgram.hpp):
// parameters are folded in as constants, collections that do not depend on the state are
// listed once, expressions become a flat array of nodes evaluated with checked arithmetic,
// and the innermost `for k in lo..hi` of a rule whose parts are affine in k becomes one run
// (first option, slope, count) that the evaluator reads as a strided loop over its table.
//
// Only integers and booleans are handled: states that are integers or tuples of integers,
// parts that are bare states of the same game, ranges, int collections fixed by the
// parameters, arithmetic, comparisons, and/or/not, min/max/abs, if-then-else, `in`. Anything
// else (other games, functions, lists as values) leaves the game to the rules' cursor.
#pragma once

#include <memory>
#include <optional>

#include "lang/Ast.hpp"
#include "runtime/Game.hpp"
#include "runtime/IntProgram.hpp"

namespace grundy::lang {

class Interpreter;

// Null when the rules use something the compiler does not handle.
std::shared_ptr<const IntProgram> compile_rules(const GameDecl& decl, const GameInstance& game,
                                                Interpreter& m);

// A function of integers compiled on its own (`def none_divides(k, d) = ...`, a loop where it
// calls itself in tail position): its value, an integer or a truth value (`truth`), is node
// `root` of `code` with the parameters in registers 0, 1, ... (IntProgram::value_with).
struct CompiledFunction {
  std::shared_ptr<const IntProgram> code;
  std::int32_t root = -1;
  bool truth = false;
};
// Nothing when its body uses what the compiler does not handle, or it takes no parameter.
std::optional<CompiledFunction> compile_function(const DefDecl& decl, Interpreter& m);

}  // namespace grundy::lang
