// The interpreter's operators, indexing and collections (lang/Interpreter.hpp): integer
// arithmetic is checked (runtime/Checked.hpp), `+` also adds positions into sums and joins
// lists, strings and sets.
#include <algorithm>
#include <iterator>

#include "lang/Faults.hpp"
#include "lang/Interpreter.hpp"
#include "runtime/Checked.hpp"

namespace grundy::lang {

namespace {

std::int64_t arith(BinOp op, std::int64_t a, std::int64_t b, Where where) {
  using checked::Fault;
  std::int64_t r = 0;
  Fault f = Fault::None;
  const char* sign = "";
  switch (op) {
    case BinOp::Add: f = checked::add(a, b, r), sign = "+"; break;
    case BinOp::Sub: f = checked::sub(a, b, r), sign = "-"; break;
    case BinOp::Mul: f = checked::mul(a, b, r), sign = "*"; break;
    case BinOp::Div: f = checked::div(a, b, r), sign = "/"; break;
    case BinOp::Mod: f = checked::mod(a, b, r), sign = "%"; break;
    case BinOp::Pow: f = checked::pow(a, b, r), sign = "^"; break;
    case BinOp::Xor: return a ^ b;
    default: fail_at(where, "not an arithmetic operator");
  }
  switch (f) {
    case Fault::None: return r;
    case Fault::Overflow: overflow(where, sign, a, b);
    case Fault::DivisionByZero: fail_at(where, "division by zero", "check the divisor before dividing");
    case Fault::NegativeExponent:
      fail_at(where, "negative exponent " + std::to_string(b), "^ takes an exponent >= 0");
  }
  return r;
}

}  // namespace

// A comprehension over one range and nothing else makes exactly that many elements: room
// for them at once, rather than copies at every doubling of the list.
void Interpreter::reserve_for(const std::vector<Clause>& cs, std::vector<Value>& items, Frame& frame) {
  if (cs.size() != 1 || cs[0].kind != Clause::Kind::For || cs[0].expr->kind != ExprKind::Range) return;
  const Expr& r = *cs[0].expr;
  if (r.args[0]->kind != ExprKind::Int && r.args[0]->kind != ExprKind::Name) return;  // no side effects
  if (r.args[1]->kind != ExprKind::Int && r.args[1]->kind != ExprKind::Name) return;
  const Value lo = eval(*r.args[0], frame), hi = eval(*r.args[1], frame);
  if (!lo.is(Kind::Int) || !hi.is(Kind::Int) || hi.as_int() < lo.as_int()) return;
  const auto n = static_cast<std::uint64_t>(hi.as_int()) - static_cast<std::uint64_t>(lo.as_int()) + 1;
  // Capped: a loop that fails early must not have taken gigabytes first.
  const std::uint64_t budget = heap_budget(w_.limits.max_memory);
  const std::uint64_t room = budget - std::min(heap_bytes(), budget);
  if (n <= w_.limits.max_steps && n <= room / (2 * sizeof(Value))) {
    items.reserve(std::min<std::uint64_t>(n, std::uint64_t{1} << 22));
  }
}

Value Interpreter::collection(const Expr& e, Frame& frame) {
  std::vector<Value> items;
  if (e.clauses.empty()) {
    items.reserve(e.args.size());
    for (const auto& a : e.args) items.push_back(eval(*a, frame));
  } else {
    reserve_for(e.clauses, items, frame);
    if (e.shortcut.prefetch) prefetch(e, frame);
    each(e.clauses, 0, frame, [&] {
      check_growth(items, e.where);
      items.push_back(eval(*e.args[0], frame));
    });
  }
  if (e.kind == ExprKind::Tuple) return Value::tuple(std::move(items));
  if (e.kind == ExprKind::Set) return Value::set(std::move(items));
  return Value::list(std::move(items));
}

Value Interpreter::binary(const Expr& e, Frame& frame) {
  const std::string& text = e.text;
  const BinOp op = e.op;
  if (op == BinOp::And || op == BinOp::Or) {
    const char* what = op == BinOp::And ? "the operand of 'and'" : "the operand of 'or'";
    const bool left = condition(*e.args[0], frame, what);
    if (op == BinOp::And ? !left : left) return Value::boolean(left);
    return Value::boolean(condition(*e.args[1], frame, what));
  }
  Value a = eval(*e.args[0], frame);
  Value b = eval(*e.args[1], frame);
  // Two ints, the usual case: no further tests.
  if (a.is(Kind::Int) && b.is(Kind::Int)) {
    const std::int64_t x = a.as_int(), y = b.as_int();
    switch (op) {
      case BinOp::Eq: return Value::boolean(x == y);
      case BinOp::Ne: return Value::boolean(x != y);
      case BinOp::Lt: return Value::boolean(x < y);
      case BinOp::Le: return Value::boolean(x <= y);
      case BinOp::Gt: return Value::boolean(x > y);
      case BinOp::Ge: return Value::boolean(x >= y);
      case BinOp::Add:
      case BinOp::Sub:
      case BinOp::Mul:
      case BinOp::Div:
      case BinOp::Mod:
      case BinOp::Pow:
      case BinOp::Xor: return Value::integer(arith(op, x, y, e.where));
      default: break;
    }
  }
  if (op == BinOp::Eq) return Value::boolean(a == b);
  if (op == BinOp::Ne) return Value::boolean(a != b);
  if (op == BinOp::In || op == BinOp::NotIn) {
    bool found = false;
    if (b.is(Kind::Range)) {
      found = a.is(Kind::Int) && a.as_int() >= b.range_lo() && a.as_int() <= b.range_hi();
    } else if (b.is(Kind::Set)) {
      found = std::binary_search(b.items().begin(), b.items().end(), a, Value::less);
    } else {
      const auto& items = elements_of(b, e.args[1]->where, "'in'");
      found = std::find(items.begin(), items.end(), a) != items.end();
    }
    return Value::boolean(op == BinOp::In ? found : !found);
  }
  if (op == BinOp::Lt || op == BinOp::Le || op == BinOp::Gt || op == BinOp::Ge) {
    if (a.kind() != b.kind() ||
        !(a.is(Kind::Int) || a.is(Kind::Tuple) || a.is(Kind::List) || a.is(Kind::Str))) {
      fail_at(e.where, "cannot compare " + describe(a) + " with " + describe(b));
    }
    const int c = compare(a, b);
    if (op == BinOp::Lt) return Value::boolean(c < 0);
    if (op == BinOp::Le) return Value::boolean(c <= 0);
    if (op == BinOp::Gt) return Value::boolean(c > 0);
    return Value::boolean(c >= 0);
  }
  if (op == BinOp::Add) {
    // 0 is the empty sum, as it prints: 0 + G is G.
    if (a.is(Kind::Int) && a.as_int() == 0 && is_gamey(b) && b.modifier() == Modifier::Normal) return b;
    if (b.is(Kind::Int) && b.as_int() == 0 && is_gamey(a) && a.modifier() == Modifier::Normal) return a;
    if (is_gamey(a) && is_gamey(b)) {
      if (a.modifier() != Modifier::Normal || b.modifier() != Modifier::Normal) {
        fail_at(e.where, "cannot add to a misere or every sum",
                "put the modifier in front of the whole sum: misere (A + B)");
      }
      std::vector<Value> parts = a.is(Kind::Sum) ? a.parts() : std::vector<Value>{a};
      if (b.is(Kind::Sum)) parts.insert(parts.end(), b.parts().begin(), b.parts().end());
      else parts.push_back(b);
      return Value::sum(std::move(parts));
    }
    if (a.is(Kind::List) && b.is(Kind::List)) {
      check_size(a.items().size() + b.items().size(), sizeof(Value), e.where);
      std::vector<Value> items;
      items.reserve(a.items().size() + b.items().size());  // not twice that, as a copy and an insert would
      items.insert(items.end(), a.items().begin(), a.items().end());
      items.insert(items.end(), b.items().begin(), b.items().end());
      return Value::list(std::move(items));
    }
    if (a.is(Kind::Str) && b.is(Kind::Str)) {
      check_size(a.as_str().size() + b.as_str().size(), 1, e.where);
      return Value::string(a.as_str() + b.as_str());
    }
    if (a.is(Kind::Set) && b.is(Kind::Set)) {
      check_size(a.items().size() + b.items().size(), sizeof(Value), e.where);
      // Both are in order: one merge, no sort.
      std::vector<Value> items;
      items.reserve(a.items().size() + b.items().size());
      std::set_union(a.items().begin(), a.items().end(), b.items().begin(), b.items().end(),
                     std::back_inserter(items), Value::less);
      return Value::sorted_set(std::move(items));
    }
    if (is_gamey(a) || is_gamey(b)) {
      fail_at(e.where, "cannot add " + describe(is_gamey(a) ? b : a) + " to a position",
              "a sum adds positions: Nim(3) + Nim(4)");
    }
  }
  if (op == BinOp::Sub && a.is(Kind::Set) && b.is(Kind::Set)) {
    std::vector<Value> items;
    for (const Value& x : a.items()) {
      if (!std::binary_search(b.items().begin(), b.items().end(), x, Value::less)) items.push_back(x);
    }
    return Value::sorted_set(std::move(items));  // a's order, some left out
  }
  if (!a.is(Kind::Int) || !b.is(Kind::Int)) {
    // '+' and '-' take more than ints: the message says what they take, and both sides.
    if (op == BinOp::Add)
      fail_at(e.where, "'+' adds two ints, joins two lists or two strings, or unites two sets; got " + describe(a) +
                           " and " + describe(b));
    if (op == BinOp::Sub)
      fail_at(e.where, "'-' subtracts two ints or takes a set from a set; got " + describe(a) + " and " + describe(b));
    fail_at(e.where, "'" + text + "' needs two ints, got " + describe(a.is(Kind::Int) ? b : a));
  }
  return Value::integer(arith(op, a.as_int(), b.as_int(), e.where));
}

Value Interpreter::index(const Expr& e, Frame& frame) {
  const Expr& base = *e.args[0];
  if (base.kind == ExprKind::Name && base.binding.to == Binding::To::Game) {
    std::vector<Value> params;
    for (std::size_t i = 1; i < e.args.size(); ++i) params.push_back(eval(*e.args[i], frame));
    return Value::game(
        instance(w_.games[static_cast<std::size_t>(base.binding.index)], std::move(params), e.where));
  }
  Value b = eval(base, frame);
  const std::int64_t i = need_int(eval(*e.args[1], frame), e.args[1]->where, "an index");
  if (b.is(Kind::Range)) {
    // Unsigned: the span of a range may not fit in an int64 (-2^63..2^63-1).
    const bool empty = b.range_hi() < b.range_lo();
    const std::uint64_t last =
        static_cast<std::uint64_t>(b.range_hi()) - static_cast<std::uint64_t>(b.range_lo());
    if (i < 0 || empty || static_cast<std::uint64_t>(i) > last) {
      fail_at(e.args[1]->where, "index " + std::to_string(i) + " is out of range " + to_string(b),
              "indices run from 0 to len - 1; negative indices are not allowed");
    }
    return Value::integer(
        static_cast<std::int64_t>(static_cast<std::uint64_t>(b.range_lo()) + static_cast<std::uint64_t>(i)));
  }
  if (b.is(Kind::Str)) {
    if (i < 0 || static_cast<std::size_t>(i) >= b.as_str().size()) {
      fail_at(e.args[1]->where, "index " + std::to_string(i) + " is out of range");
    }
    return Value::string(std::string(1, b.as_str()[static_cast<std::size_t>(i)]));
  }
  const auto& items = elements_of(b, base.where, "indexing");
  if (i < 0 || static_cast<std::size_t>(i) >= items.size()) {
    fail_at(e.args[1]->where,
            "index " + std::to_string(i) + " is out of range: the " + kind_name(b.kind()) + " has " +
                std::to_string(items.size()) + " elements",
            "indices run from 0 to len - 1; negative indices are not allowed");
  }
  return items[static_cast<std::size_t>(i)];
}

}  // namespace grundy::lang
