#include "lang/Analysis.hpp"

#include "lang/BuiltinTable.hpp"

namespace grundy::lang {

bool invariant(const Expr& e, const Fixed& fixed) {
  switch (e.kind) {
    case ExprKind::Int:
    case ExprKind::Str:
    case ExprKind::Bool: return true;
    case ExprKind::Name:
      switch (e.binding.to) {
        case Binding::To::Local: return fixed.slot(e.binding.index);
        case Binding::To::Global:
        case Binding::To::Constant: return true;
        default: return false;
      }
    case ExprKind::Modifier: return false;
    case ExprKind::Call: {
      const Expr& callee = *e.args[0];
      if (callee.kind != ExprKind::Name) return false;
      if (callee.binding.to == Binding::To::Builtin) {
        if (is_query(callee.binding.index)) return false;
      } else if (callee.binding.to != Binding::To::Def) {
        return false;
      }
      if (!e.clauses.empty()) return false;
      for (std::size_t i = 1; i < e.args.size(); ++i) {
        if (!invariant(*e.args[i], fixed)) return false;
      }
      return true;
    }
    default:
      if (!e.clauses.empty()) return false;  // comprehensions bind their own names
      for (const auto& a : e.args) {
        if (!invariant(*a, fixed)) return false;
      }
      return true;
  }
}

bool mentions(const Expr& e, int slot) {
  if (e.kind == ExprKind::Name) return e.binding.to == Binding::To::Local && e.binding.index == slot;
  for (const auto& a : e.args) {
    if (mentions(*a, slot)) return true;
  }
  for (const Clause& c : e.clauses) {
    if (c.expr && mentions(*c.expr, slot)) return true;
  }
  return false;
}

bool Lin::add(const Lin& o, std::int64_t k) {
  std::int64_t t = 0;
  if (__builtin_mul_overflow(o.c, k, &t) || __builtin_add_overflow(c, t, &c)) return false;
  for (const auto& [s, v] : o.slots) {
    std::int64_t& mine = slots[s];
    if (__builtin_mul_overflow(v, k, &t) || __builtin_add_overflow(mine, t, &mine)) return false;
    if (mine == 0) slots.erase(s);
  }
  for (const auto& [e, v] : o.opaque) {
    if (__builtin_mul_overflow(v, k, &t)) return false;
    opaque.emplace_back(e, t);
  }
  return true;
}

std::optional<Lin> minus(const Lin& a, const Lin& b) {
  Lin r = a;
  if (!r.add(b, -1)) return std::nullopt;
  return r;
}

bool differ_by_constant(const Lin& a, const Lin& b, std::int64_t& d) {
  if (a.slots != b.slots) return false;
  auto key = [](const std::vector<std::pair<const Expr*, std::int64_t>>& v) {
    std::map<const Expr*, std::int64_t> m;
    for (const auto& [e, k] : v) m[e] += k;
    for (auto it = m.begin(); it != m.end();) it = it->second == 0 ? m.erase(it) : std::next(it);
    return m;
  };
  if (key(a.opaque) != key(b.opaque)) return false;
  return !__builtin_sub_overflow(a.c, b.c, &d);
}

std::optional<Lin> lin(const Expr& e, const Fixed& fixed, const std::set<int>& vars) {
  Lin out;
  switch (e.kind) {
    case ExprKind::Int: out.c = e.ival; return out;
    case ExprKind::Name:
      if (e.binding.to == Binding::To::Local &&
          (vars.count(e.binding.index) || fixed.slot(e.binding.index))) {
        out.slots[e.binding.index] = 1;
        return out;
      }
      break;
    case ExprKind::Unary:
      if (e.prefix == PrefixOp::Neg) {
        auto a = lin(*e.args[0], fixed, vars);
        if (!a || !out.add(*a, -1)) return std::nullopt;
        return out;
      }
      break;
    case ExprKind::Binary:
      if (e.op == BinOp::Add || e.op == BinOp::Sub) {
        auto a = lin(*e.args[0], fixed, vars);
        auto b = lin(*e.args[1], fixed, vars);
        if (!a || !b) return std::nullopt;
        if (!a->add(*b, e.op == BinOp::Add ? 1 : -1)) return std::nullopt;
        return a;
      }
      if (e.op == BinOp::Mul) {
        for (int i = 0; i < 2; ++i) {
          if (e.args[i]->kind != ExprKind::Int) continue;
          auto o = lin(*e.args[1 - i], fixed, vars);
          if (!o || !out.add(*o, e.args[i]->ival)) return std::nullopt;
          return out;
        }
      }
      break;
    default: break;
  }
  if (invariant(e, fixed)) {
    out.opaque.emplace_back(&e, 1);
    return out;
  }
  return std::nullopt;
}

std::optional<Lin> as_ge0(const Expr& e, const Fixed& fixed, const std::set<int>& vars) {
  if (e.kind != ExprKind::Binary) return std::nullopt;
  const BinOp op = e.op;
  if (op != BinOp::Lt && op != BinOp::Le && op != BinOp::Gt && op != BinOp::Ge) return std::nullopt;
  auto l = lin(*e.args[0], fixed, vars);
  auto r = lin(*e.args[1], fixed, vars);
  if (!l || !r) return std::nullopt;
  const bool right_bigger = op == BinOp::Lt || op == BinOp::Le;
  auto f = right_bigger ? minus(*r, *l) : minus(*l, *r);
  if (!f) return std::nullopt;
  if ((op == BinOp::Lt || op == BinOp::Gt) && __builtin_sub_overflow(f->c, 1, &f->c)) return std::nullopt;
  return f;
}

}  // namespace grundy::lang
