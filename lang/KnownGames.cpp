#include "lang/KnownGames.hpp"

#include "lang/Analysis.hpp"
#include "lang/BuiltinTable.hpp"
#include "runtime/Nim.hpp"

namespace grundy::lang {

namespace {
bool is_local(const Expr& e, int slot) {
  return e.kind == ExprKind::Name && e.binding.to == Binding::To::Local && e.binding.index == slot;
}
bool is_int(const Expr& e, std::int64_t v) { return e.kind == ExprKind::Int && e.ival == v; }
bool is_binary(const Expr& e, BinOp op) { return e.kind == ExprKind::Binary && e.op == op; }
bool is_minus(const Expr& e) { return is_binary(e, BinOp::Sub); }
// callee(a, b) with a builtin callee and no generator.
bool is_call2(const Expr& e, Builtin callee) {
  return e.kind == ExprKind::Call && e.args.size() == 3 && e.clauses.empty() &&
         e.args[0]->kind == ExprKind::Name && e.args[0]->binding.to == Binding::To::Builtin &&
         static_cast<Builtin>(e.args[0]->binding.index) == callee;
}
// min(x, y) of the locals x and y, in either order.
bool is_min_of(const Expr& e, int x, int y) {
  return is_call2(e, Builtin::Min) && ((is_local(*e.args[1], x) && is_local(*e.args[2], y)) ||
                                       (is_local(*e.args[1], y) && is_local(*e.args[2], x)));
}
// `v <= y` or `y >= v`, v and y locals.
bool is_at_most(const Expr& e, int v, int y) {
  return (is_binary(e, BinOp::Le) && is_local(*e.args[0], v) && is_local(*e.args[1], y)) ||
         (is_binary(e, BinOp::Ge) && is_local(*e.args[0], y) && is_local(*e.args[1], v));
}
// The variable of a move whose clauses take it over 1..x, or with y >= 0 over 1..min(x, y)
// written as `for v in 1..min(x, y)` (either order) or `for v in 1..x if v <= y` (or the
// other way round); -1 when they say anything else.
int one_to_min(const GameItem& move, int x, int y = -1) {
  if (move.kind != GameItem::Kind::Move || move.exprs.size() != 1 || move.clauses.empty()) return -1;
  const Clause& c = move.clauses[0];
  if (c.kind != Clause::Kind::For || c.slots.size() != 1 || c.expr->kind != ExprKind::Range ||
      !is_int(*c.expr->args[0], 1)) {
    return -1;
  }
  const int v = c.slots[0];
  const Expr& hi = *c.expr->args[1];
  if (move.clauses.size() == 1) {
    if (y < 0) return is_local(hi, x) ? v : -1;
    return is_min_of(hi, x, y) ? v : -1;
  }
  if (y < 0 || move.clauses.size() != 2 || move.clauses[1].kind != Clause::Kind::If) return -1;
  const Expr& cond = *move.clauses[1].expr;
  if ((is_local(hi, x) && is_at_most(cond, v, y)) || (is_local(hi, y) && is_at_most(cond, v, x))) return v;
  return -1;
}
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
    return std::make_shared<NimRuleset>(g.name, false, true);
  }
  // move n - k for k in 1..n
  if (is_minus(to) && is_local(*to.args[0], n) && is_local(*to.args[1], k) && is_int(lo, 1) &&
      is_local(hi, n)) {
    return std::make_shared<NimRuleset>(g.name, true, true);
  }
  return nullptr;
}

std::optional<DynamicShape> recognize_dynamic_subtraction(const GameDecl& g) {
  if (g.form != GameDecl::Form::Rules || g.items.size() != 2) return std::nullopt;
  const GameItem& state = g.items[0];
  const GameItem& move = g.items[1];
  if (state.kind != GameItem::Kind::State || !state.tuple_pattern || state.slots.size() != 2)
    return std::nullopt;
  const Expr* to = move.exprs.empty() ? nullptr : move.exprs[0].get();
  if (!to || to->kind != ExprKind::Tuple || to->args.size() != 2) return std::nullopt;
  // The heap is the coordinate the move takes from: (n, limit) or (limit, n).
  const int heap = is_minus(*to->args[0]) ? 0 : 1;
  const int n = state.slots[static_cast<std::size_t>(heap)];
  const int limit = state.slots[static_cast<std::size_t>(1 - heap)];
  const int t = one_to_min(move, n, limit);
  if (t < 0) return std::nullopt;
  auto is_left = [&](const Expr& e) {
    return is_minus(e) && is_local(*e.args[0], n) && is_local(*e.args[1], t);
  };
  if (!is_left(*to->args[static_cast<std::size_t>(heap)])) return std::nullopt;
  const int params = static_cast<int>(g.params.size());
  // K * t, t * K, t + t or t: the new limit; K's value is checked per instance.
  auto taken = [&](const Expr& e) -> std::optional<DynamicShape> {
    if (is_local(e, t)) return DynamicShape{nullptr, 1, heap};
    if (is_binary(e, BinOp::Add) && is_local(*e.args[0], t) && is_local(*e.args[1], t))
      return DynamicShape{nullptr, 2, heap};
    if (!is_binary(e, BinOp::Mul)) return std::nullopt;
    if (is_local(*e.args[1], t) && invariant(*e.args[0], Fixed{params, {}}))
      return DynamicShape{e.args[0].get(), 1, heap};
    if (is_local(*e.args[0], t) && invariant(*e.args[1], Fixed{params, {}}))
      return DynamicShape{e.args[1].get(), 1, heap};
    return std::nullopt;
  };
  const Expr& next = *to->args[static_cast<std::size_t>(1 - heap)];
  if (auto shape = taken(next)) return shape;
  // min(K * t, n - t): a limit past the tokens left allows nothing more.
  if (!is_call2(next, Builtin::Min)) return std::nullopt;
  if (is_left(*next.args[2])) return taken(*next.args[1]);
  if (is_left(*next.args[1])) return taken(*next.args[2]);
  return std::nullopt;
}

bool recognize_wythoff(const GameDecl& g) {
  if (g.form != GameDecl::Form::Rules || !g.params.empty() || g.items.size() != 4) return false;
  const GameItem& state = g.items[0];
  if (state.kind != GameItem::Kind::State || !state.tuple_pattern || state.slots.size() != 2) return false;
  const int a = state.slots[0];
  const int b = state.slots[1];
  // Which of the three moves each item is: 1 from a, 2 from b, 3 from both.
  auto which = [&](const GameItem& it) -> int {
    if (it.kind != GameItem::Kind::Move || it.exprs.size() != 1) return 0;
    const Expr& to = *it.exprs[0];
    if (to.kind != ExprKind::Tuple || to.args.size() != 2) return 0;
    auto less = [&](const Expr& e, int heap, int k) {
      return k >= 0 && is_minus(e) && is_local(*e.args[0], heap) && is_local(*e.args[1], k);
    };
    if (int k = one_to_min(it, a); less(*to.args[0], a, k) && is_local(*to.args[1], b)) return 1;
    if (int k = one_to_min(it, b); is_local(*to.args[0], a) && less(*to.args[1], b, k)) return 2;
    if (int k = one_to_min(it, a, b); less(*to.args[0], a, k) && less(*to.args[1], b, k)) return 3;
    return 0;
  };
  int seen = 0;
  for (std::size_t i = 1; i < 4; ++i) seen |= 1 << which(g.items[i]);
  return seen == 0b1110;
}

}  // namespace grundy::lang
