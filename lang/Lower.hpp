// Lowering: what the rules of one game instance say in terms the runtime can use, found once
// per instance, when it is made (Interpreter::instance), and again when a top-level let its
// rules read changes (the REPL). The result is a plain Plan (runtime/Plan.hpp): the
// subtraction or take-and-break code the rules are (lang/Recognize.hpp), checked against
// the rules on their small heaps; the rules compiled over integers (lang/Compile.hpp); a
// theorem for their outcomes (lang/KnownGames.hpp). The evaluator picks its strategy from
// that data alone.
#pragma once

#include <memory>
#include <optional>

#include "lang/KnownGames.hpp"
#include "lang/Recognize.hpp"
#include "runtime/Plan.hpp"

namespace grundy::lang {

class Interpreter;
struct GameEntry;

// What the rules of a game declaration say whatever its parameters, found once per
// declaration: the shapes the recognisers read in its syntax.
struct RuleShapes {
  std::unique_ptr<HeapShape> heap;      // a subtraction or take-and-break game
  std::optional<DynamicShape> dynamic;  // the K-multiple dynamic subtraction game
  bool wythoff = false;                 // Wythoff's game
};
std::shared_ptr<const RuleShapes> read_shapes(const GameDecl& decl);

// The plan of an instance of `entry`'s game. Errors of the rules while a plan is made leave
// that part of the plan out (the search meets them where a query needs them); an interrupt,
// or a limit while the code is checked against the rules, stops it.
Plan lower(const GameEntry& entry, const GameInstance& game, Interpreter& m);

}  // namespace grundy::lang
