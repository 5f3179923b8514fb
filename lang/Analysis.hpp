// The one analysis of rule expressions that the recognisers (lang/Recognize.cpp,
// lang/KnownGames.cpp) and the compiler (lang/Compile.cpp) share: which expressions do not
// change with the state (and may be evaluated once per game instance), and which are affine
// forms over the state's and the clauses' variables.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "lang/Ast.hpp"

namespace grundy::lang {

// What does not change while a game's options are listed: the instance's parameters (the
// frame's first slots), the variables of `for` clauses enumerated once (`fixed`), top-level
// lets and constants. Everything else bound to a slot (the state, lets in the body, other
// clause variables) changes.
struct Fixed {
  int params = 0;
  std::set<int> fixed;
  bool slot(int s) const { return s < params || fixed.count(s) > 0; }
};

// True when `e` depends on nothing that changes (a number, a parameter, a top-level let, a
// pure function or a builtin of such values) and asks no query about a position.
bool invariant(const Expr& e, const Fixed& fixed);

// True when `e` reads the local `slot`.
bool mentions(const Expr& e, int slot);

// An affine form c + sum(coef * slot) + sum(coef * opaque), where an opaque term is an
// invariant expression, kept as it is written.
struct Lin {
  std::int64_t c = 0;
  std::map<int, std::int64_t> slots;
  std::vector<std::pair<const Expr*, std::int64_t>> opaque;

  std::int64_t coef(int slot) const {
    auto it = slots.find(slot);
    return it == slots.end() ? 0 : it->second;
  }
  bool constant() const { return slots.empty() && opaque.empty(); }
  // this += k * o; false on overflow.
  bool add(const Lin& o, std::int64_t k);
  Lin without(int slot) const {
    Lin l = *this;
    l.slots.erase(slot);
    return l;
  }
};

std::optional<Lin> minus(const Lin& a, const Lin& b);
// True when `a - b` is the constant `d` (opaque terms must be the very same expressions).
bool differ_by_constant(const Lin& a, const Lin& b, std::int64_t& d);

// `e` as an affine form over the slots in `vars` (and the fixed ones), or nothing.
std::optional<Lin> lin(const Expr& e, const Fixed& fixed, const std::set<int>& vars);
// `L op R` with op one of < <= > >= as F >= 0.
std::optional<Lin> as_ge0(const Expr& e, const Fixed& fixed, const std::set<int>& vars);

}  // namespace grundy::lang
