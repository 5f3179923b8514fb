// Recognises rules that say exactly a subtraction game or a take-and-break game, so that
// the runtime can compute them with a native kernel (runtime/Kernels.hpp) and prove their
// periods. Hand-written rules such as
//
//   state n  move n - s for s in S if s <= n                  # subtraction game S
//   state n  move n - k for k in 1..min(m, n)                  # Bash: subtraction {1..m}
//   state n  move n - k for k in 1..n if k != 2                # all but {2}
//   state n  split [a, n - t - a] for t in 1..2 for a in 0..n-t    # Kayles, 0.77
//   state n  split [a, n - a] for a in 1..(n - 1) / 2          # Grundy's game
//   state n  move k for k in 0..n-1   split [a, n - a] for a in 1..n/2   # Lasker's Nim
//
// become a HeapShape at compile time; its invariant parts (the set S, the bound m, the
// removals t) are evaluated per instance, with the instance's parameters, into a HeapSpec.
// The analysis is syntactic and conservative: anything it does not understand (lets, other
// games, filters it cannot place, bounds that could reach negative heaps) leaves the game
// to the general evaluation. The runtime also checks the spec against the rules' own
// options for small heaps before using it (verify_spec).
#pragma once

#include <memory>
#include <optional>

#include "lang/Ast.hpp"
#include "runtime/Game.hpp"
#include "runtime/Kernels.hpp"

namespace grundy::lang {

class Interpreter;

class HeapShape {
 public:
  virtual ~HeapShape() = default;
  // The spec of one instance, or nothing when its parameters do not make one (a removal
  // that is not a positive int, an error while evaluating a set, ...).
  virtual std::optional<HeapSpec> spec(const GameInstance& game, Interpreter& m) const = 0;
};

// Null when the rules are not (recognisably) a heap game.
std::unique_ptr<HeapShape> recognize_heap(const GameDecl& decl);

}  // namespace grundy::lang
