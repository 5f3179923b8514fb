#include "lang/KnownGames.hpp"

#include "runtime/Nim.hpp"

namespace grundy::lang {

namespace {
bool is_local(const Expr& e, int slot) {
  return e.kind == ExprKind::Name && e.binding.to == Binding::To::Local && e.binding.index == slot;
}
bool is_int(const Expr& e, std::int64_t v) { return e.kind == ExprKind::Int && e.ival == v; }
bool is_minus(const Expr& e) { return e.kind == ExprKind::Binary && e.text == "-"; }
}  // namespace

std::shared_ptr<const Ruleset> recognize_nim(const GameDecl& g) {
  if (g.form != GameDecl::Form::Rules || !g.params.empty() || g.items.size() != 2) return nullptr;
  const GameItem& state = g.items[0];
  const GameItem& move = g.items[1];
  if (state.kind != GameItem::Kind::State || state.tuple_pattern || state.slots.size() != 1) return nullptr;
  if (move.kind != GameItem::Kind::Move || move.exprs.size() != 1 || move.clauses.size() != 1) return nullptr;
  const Clause& c = move.clauses[0];
  if (c.kind != Clause::Kind::For || c.slots.size() != 1 || c.expr->kind != ExprKind::Range) return nullptr;
  const int n = state.slots[0];
  const int k = c.slots[0];
  const Expr& lo = *c.expr->args[0];
  const Expr& hi = *c.expr->args[1];
  const Expr& to = *move.exprs[0];
  // move k for k in 0..n-1
  if (is_local(to, k) && is_int(lo, 0) && is_minus(hi) && is_local(*hi.args[0], n) &&
      is_int(*hi.args[1], 1)) {
    return std::make_shared<NimRuleset>(g.name, false);
  }
  // move n - k for k in 1..n
  if (is_minus(to) && is_local(*to.args[0], n) && is_local(*to.args[1], k) && is_int(lo, 1) &&
      is_local(hi, n)) {
    return std::make_shared<NimRuleset>(g.name, true);
  }
  return nullptr;
}

}  // namespace grundy::lang
