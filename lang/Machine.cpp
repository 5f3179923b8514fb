#include "lang/Machine.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <string_view>

#include <absl/container/flat_hash_set.h>

#include "lang/Builtins.hpp"
#include "lang/Lower.hpp"
#include "lang/RuleGame.hpp"
#include "lang/Table.hpp"
#include "runtime/Checked.hpp"
#include "runtime/Mex.hpp"
#include "runtime/Period.hpp"
#include "runtime/Progress.hpp"
#include "runtime/Shorthands.hpp"
#include "runtime/Show.hpp"
#include "runtime/StackGuard.hpp"
#include "runtime/Tuples.hpp"

namespace grundy::lang {

namespace {

[[noreturn]] void fail_at(Where where, std::string message, std::string hint = {}) {
  throw Error(ErrorKind::Runtime, std::move(message), std::move(hint), where);
}

std::string describe(const Value& v) { return std::string(kind_name(v.kind())) + " " + shown(v, 60); }

std::int64_t need_int(const Value& v, Where where, const char* what) {
  if (!v.is(Kind::Int)) fail_at(where, std::string(what) + " must be an int, got " + describe(v));
  return v.as_int();
}

// `what` is the operation written out, e.g. "2 ^ 63" or "abs(-9223372036854775808)".
[[noreturn]] void overflow(Where where, const std::string& what) {
  fail_at(where, "integer overflow: " + what + " is outside the 64-bit range",
          "integers are checked 64-bit values (-9223372036854775808 to 9223372036854775807)");
}

[[noreturn]] void overflow(Where where, const char* op, std::int64_t a, std::int64_t b) {
  overflow(where, std::to_string(a) + " " + op + " " + std::to_string(b));
}

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

bool is_gamey(const Value& v) { return v.is(Kind::Position) || v.is(Kind::Sum); }

// What wins() or outcome() says of a position the player to move wins (or not).
Value wins_answer(Builtin b, bool wins) {
  return b == Builtin::Wins ? Value::boolean(wins) : Value::outcome(wins ? 'N' : 'P');
}

const std::vector<Value>& elements_of(const Value& v, Where where, const char* what) {
  if (v.is(Kind::List) || v.is(Kind::Tuple) || v.is(Kind::Set)) return v.items();
  fail_at(where, std::string(what) + " needs a list, tuple or set, got " + describe(v));
}

// The elements of any collection: a list's own, or a range's listed into `out`.
const std::vector<Value>& items_in(Machine& m, const Value& v, Where where, const char* what,
                                   std::vector<Value>& out) {
  if (v.is(Kind::Range)) {
    const std::int64_t lo = v.range_lo(), hi = v.range_hi();
    if (hi >= lo) {
      // Each element listed is a step; the count itself may not fit in an int64.
      const std::uint64_t n = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
      m.count_listed(n, v, where, what);
      m.check_size(n == UINT64_MAX ? n : n + 1, sizeof(Value), where);
    }
    // Counted, not `i <= hi`: a range may end at the largest int64.
    for (std::int64_t i = lo; hi >= lo; ++i) {
      out.push_back(Value::integer(i));
      if (i == hi) break;
    }
    return out;
  }
  return elements_of(v, where, what);
}

// Materializes any collection, ranges included.
std::vector<Value> items_of(Machine& m, const Value& v, Where where, const char* what) {
  std::vector<Value> out;
  const std::vector<Value>& items = items_in(m, v, where, what, out);
  if (&items != &out) return items;
  return out;
}

}  // namespace

// ---- iteration ----

void Iteration::start(const Value& collection, Where where) {
  coll_ = collection;
  idx_ = 0;
  range_ = collection.is(Kind::Range);
  if (range_) {
    cur_ = collection.range_lo();
    hi_ = collection.range_hi();
    done_ = cur_ > hi_;
    return;
  }
  if (!(collection.is(Kind::List) || collection.is(Kind::Tuple) || collection.is(Kind::Set))) {
    fail_at(where, "cannot loop over " + describe(collection),
            collection.is(Kind::Int) ? "to loop over 0, 1, ..., n write `for k in 0..n`"
                                     : "loop over a range a..b, a list, a tuple or a set");
  }
}

bool Iteration::next(Value& out) {
  if (range_) {
    if (done_) return false;
    out = Value::integer(cur_);
    if (cur_ == hi_) done_ = true;  // stepping past INT64_MAX would overflow
    else ++cur_;
    return true;
  }
  const auto& items = coll_.items();
  if (idx_ >= items.size()) return false;
  out = items[idx_++];
  return true;
}

// ---- machine ----

void Machine::steps_exceeded(Where where) const {
  throw Error(ErrorKind::Limit,
              "more than " + std::to_string(w_.limits.max_steps) +
                  " steps in one statement: a 'for' ran over too many values",
              "raise the limit with --max-steps N; a range as large as 0..10^18 can never be "
              "run through",
              where);
}

void Machine::count_listed(std::uint64_t n, const Value& range, Where where, const char* what) {
  const std::uint64_t left = w_.limits.max_steps - std::min(w_.limits.steps, w_.limits.max_steps);
  if (n >= left) {  // n + 1 values, and n + 1 may not fit
    throw Error(ErrorKind::Limit,
                "the range " + to_string(range) + " has " +
                    (n == UINT64_MAX ? std::string("2^64") : std::to_string(n + 1)) +
                    " values, more than the " + std::to_string(w_.limits.max_steps) +
                    " steps a statement may take: " + what + " lists them one by one",
                "raise the limit with --max-steps N", where);
  }
  count_steps(n + 1, where);
}

void Machine::check_loop(const Value& collection, Where where) {
  if (!collection.is(Kind::Range) || collection.range_hi() < collection.range_lo()) return;
  const std::uint64_t n = static_cast<std::uint64_t>(collection.range_hi()) -
                          static_cast<std::uint64_t>(collection.range_lo());  // count - 1
  if (n < w_.limits.max_steps) return;  // shorter ones are counted as they run
  throw Error(ErrorKind::Limit,
              "the range " + to_string(collection) + " has " +
                  (n == UINT64_MAX ? std::string("2^64") : std::to_string(n + 1)) +
                  " values, more than the " + std::to_string(w_.limits.max_steps) +
                  " steps a statement may take",
              "raise the limit with --max-steps N, or bound the range by the state, e.g. "
              "for k in 1..n",
              where);
}

void Machine::check_interrupt() const {
  if (w_.limits.interrupt && w_.limits.interrupt->load(std::memory_order_relaxed)) {
    throw Error(ErrorKind::Interrupted, "interrupted");
  }
}

bool Machine::condition(const Expr& e, Frame& frame, const char* what) {
  Value v = eval(e, frame);
  if (!v.is(Kind::Bool)) {
    fail_at(e.where, std::string(what) + " must be a boolean, got " + describe(v),
            "compare explicitly, e.g. `n > 0` or `x == 0`");
  }
  return v.as_bool();
}

void Machine::bind(const Clause& c, const Value& v, Frame& frame) {
  if (c.slots.size() == 1) {
    frame[static_cast<std::size_t>(c.slots[0])] = v;
    return;
  }
  if (!(v.is(Kind::Tuple) || v.is(Kind::List)) || v.items().size() != c.slots.size()) {
    fail_at(c.where, "cannot unpack " + describe(v) + " into " + std::to_string(c.slots.size()) + " names");
  }
  for (std::size_t i = 0; i < c.slots.size(); ++i) {
    frame[static_cast<std::size_t>(c.slots[i])] = v.items()[i];
  }
}

void Machine::each(const std::vector<Clause>& cs, std::size_t i, Frame& frame,
                   const std::function<void()>& body) {
  if (i == cs.size()) {
    body();
    return;
  }
  const Clause& c = cs[i];
  if (c.kind == Clause::Kind::If) {
    if (condition(*c.expr, frame, "the condition of `if`")) each(cs, i + 1, frame, body);
    return;
  }
  Iteration it;
  const Value collection = eval(*c.expr, frame);
  check_loop(collection, c.expr->where);
  if (collection.is(Kind::Range) && c.slots.size() == 1) {
    // The common loop, an integer into one slot, without an Iteration or a Value per step.
    Value& slot = frame[static_cast<std::size_t>(c.slots[0])];
    const std::int64_t hi = collection.range_hi();
    for (std::int64_t x = collection.range_lo(); x <= hi; ++x) {
      check_interrupt();
      count_steps(1, c.expr->where);
      slot = Value::integer(x);
      each(cs, i + 1, frame, body);
      if (x == hi) break;  // stepping past INT64_MAX would overflow
    }
    return;
  }
  it.start(collection, c.expr->where);
  Value v;
  while (it.next(v)) {
    check_interrupt();
    count_steps(1, c.expr->where);
    bind(c, v, frame);
    each(cs, i + 1, frame, body);
  }
}

const std::shared_ptr<const Ruleset>& Machine::rules_of(GameEntry& g, Where where) {
  if (g.rules) return g.rules;
  const GameDecl& d = *g.decl;
  Frame frame(static_cast<std::size_t>(d.frame_size));
  if (d.form == GameDecl::Form::Subtraction) {
    Value set = eval(*d.expr, frame);
    std::vector<std::int64_t> moves;
    for (const Value& v : items_of(*this, set, d.expr->where, "subtraction")) {
      const std::int64_t s = need_int(v, d.expr->where, "a subtraction amount");
      if (s <= 0) {
        fail_at(d.expr->where, "subtraction amounts must be positive, got " + std::to_string(s),
                "a move must take at least one token, or the game would never end");
      }
      moves.push_back(s);
    }
    g.rules = std::make_shared<SubtractionRuleset>(g.name, std::move(moves));
  } else if (d.form == GameDecl::Form::Alias) {
    // `game A = A`, or A = B with B = A: the instance would be looked up for ever.
    if (g.resolving) {
      fail_at(d.expr->where, "game " + g.name + " is defined in terms of itself",
              "an alias names an instance of another game, e.g. game B3 = Bash[3]");
    }
    struct Resolving {
      GameEntry& g;
      explicit Resolving(GameEntry& e) : g(e) { g.resolving = true; }
      ~Resolving() { g.resolving = false; }
    } resolving(g);
    Value inst = eval(*d.expr, frame);
    if (!inst.is(Kind::Game)) {
      fail_at(d.expr->where, "game " + g.name + " = ... needs a game, got " + describe(inst),
              "e.g. game B3 = Bash[3]");
    }
    g.alias = inst.game();
    g.state_arity = inst.game()->rules().state_arity();
    // The alias shares the instance, and so its memo.
    static thread_local std::shared_ptr<const Ruleset> none;
    return none;
  } else {
    fail_at(where, "game " + g.name + " was not compiled");
  }
  return g.rules;
}

const GameInstance* Machine::instance(GameEntry& g, std::vector<Value> params, Where where) {
  if (g.decl && g.decl->form == GameDecl::Form::Alias) {
    if (!g.alias) rules_of(g, where);
    if (!params.empty()) fail_at(where, g.name + " has no parameters");
    return g.alias;
  }
  if (params.empty() && g.plain && g.plain->planned()) return g.plain;
  const auto& rules = rules_of(g, where);
  if (static_cast<int>(params.size()) != g.param_count) {
    fail_at(where, g.name + " takes " + std::to_string(g.param_count) +
                       (g.param_count == 1 ? " parameter, got " : " parameters, got ") +
                       std::to_string(params.size()));
  }
  const GameRegistry::Planner plan = [this, &g](const GameInstance& inst) { return lower(g, inst, *this); };
  if (params.empty()) return g.plain = w_.registry.instance(rules, Value::tuple({}), plan);
  return w_.registry.instance(rules, Value::tuple(std::move(params)), plan);
}

void Machine::to_parts(const Value& v, const GameInstance& self, Option& out, Where where) {
  switch (v.kind()) {
    case Kind::Position: out.push_back(Position{v.game(), v.state()}); return;
    case Kind::Sum:
      if (v.modifier() != Modifier::Normal) {
        fail_at(where, "a move cannot lead to a misere or every position",
                "modifiers apply to a whole position or sum in a query");
      }
      for (const Value& p : v.parts()) out.push_back(Position{p.game(), p.state()});
      return;
    default: {
      std::string why = self.rules().check_state(v);
      if (!why.empty()) fail_at(where, why);
      out.push_back(Position{&self, v});
    }
  }
}

Value Machine::eval(const Expr& e, Frame& frame) {
  switch (e.kind) {
    case ExprKind::Int: return Value::integer(e.ival);
    case ExprKind::Bool: return Value::boolean(e.ival != 0);
    case ExprKind::Str: return Value::string(e.text);
    case ExprKind::Name:
      switch (e.binding.to) {
        case Binding::To::Local: return frame[static_cast<std::size_t>(e.binding.index)];
        case Binding::To::Global: {
          const GlobalEntry& g = w_.globals[static_cast<std::size_t>(e.binding.index)];
          if (!g.assigned) fail_at(e.where, "'" + g.name + "' is used before its let has run");
          return g.value;
        }
        case Binding::To::Game:
          return Value::game(instance(w_.games[static_cast<std::size_t>(e.binding.index)], {}, e.where));
        case Binding::To::Label:
        case Binding::To::Constant: return e.binding.constant;
        default: fail_at(e.where, "'" + e.text + "' cannot be used as a value");
      }
    case ExprKind::Unary: {
      Value v = eval(*e.args[0], frame);
      if (e.prefix == PrefixOp::Not) {
        if (!v.is(Kind::Bool)) fail_at(e.where, "'not' needs a boolean, got " + describe(v));
        return Value::boolean(!v.as_bool());
      }
      const std::int64_t x = need_int(v, e.args[0]->where, "the operand of '-'");
      std::int64_t r = 0;
      if (checked::neg(x, r) != checked::Fault::None) overflow(e.where, "-(" + std::to_string(x) + ")");
      return Value::integer(r);
    }
    case ExprKind::Binary: return binary(e, frame);
    case ExprKind::Modifier: {
      if (e.prefix == PrefixOp::Every) return every_sum(*e.args[0], frame);
      Value v = eval(*e.args[0], frame);
      // 0 is the empty sum (it prints as 0): `misere 0` is the misere empty sum, which the
      // player to move wins (the opponent moved last), as `every 0` is an every sum.
      if (v.is(Kind::Int) && v.as_int() == 0) v = Value::sum({});
      if (!is_gamey(v) || v.modifier() != Modifier::Normal) {
        fail_at(e.args[0]->where, "'" + e.text + "' applies to a position or sum, got " + describe(v));
      }
      std::vector<Value> parts = v.is(Kind::Sum) ? v.parts() : std::vector<Value>{v};
      return Value::sum(std::move(parts), Modifier::Misere);
    }
    case ExprKind::Range: {
      const std::int64_t lo = need_int(eval(*e.args[0], frame), e.args[0]->where, "a range bound");
      const std::int64_t hi = need_int(eval(*e.args[1], frame), e.args[1]->where, "a range bound");
      return Value::range(lo, hi);
    }
    case ExprKind::Call: return call(e, frame);
    case ExprKind::Index: return index(e, frame);
    case ExprKind::Tuple:
    case ExprKind::List:
    case ExprKind::Set: return collection(e, frame);
    case ExprKind::If:
      return condition(*e.args[0], frame, "the condition of `if`") ? eval(*e.args[1], frame)
                                                                   : eval(*e.args[2], frame);
  }
  fail_at(e.where, "cannot evaluate this expression");
}

// A comprehension over one range and nothing else makes exactly that many elements: room
// for them at once, rather than copies at every doubling of the list.
void Machine::reserve_for(const std::vector<Clause>& cs, std::vector<Value>& items, Frame& frame) {
  if (cs.size() != 1 || cs[0].kind != Clause::Kind::For || cs[0].expr->kind != ExprKind::Range) return;
  const Expr& r = *cs[0].expr;
  if (r.args[0]->kind != ExprKind::Int && r.args[0]->kind != ExprKind::Name) return;  // no side effects
  if (r.args[1]->kind != ExprKind::Int && r.args[1]->kind != ExprKind::Name) return;
  const Value lo = eval(*r.args[0], frame), hi = eval(*r.args[1], frame);
  if (!lo.is(Kind::Int) || !hi.is(Kind::Int) || hi.as_int() < lo.as_int()) return;
  const auto n = static_cast<std::uint64_t>(hi.as_int()) - static_cast<std::uint64_t>(lo.as_int()) + 1;
  // Capped: a loop that fails early must not have taken gigabytes first.
  if (n <= w_.limits.max_steps && n <= w_.limits.max_memory / sizeof(Value)) {
    items.reserve(std::min<std::uint64_t>(n, std::uint64_t{1} << 22));
  }
}

Value Machine::collection(const Expr& e, Frame& frame) {
  std::vector<Value> items;
  if (e.clauses.empty()) {
    items.reserve(e.args.size());
    for (const auto& a : e.args) items.push_back(eval(*a, frame));
  } else {
    reserve_for(e.clauses, items, frame);
    prefetch_heaps(e.clauses, *e.args[0], frame);
    std::uint64_t bytes = 0;
    each(e.clauses, 0, frame, [&] {
      check_bytes(items.size() + 1, bytes + sizeof(Value), e.where);
      items.push_back(eval(*e.args[0], frame));
      // An element built for this list ([[x] for x in ...]) is held by it alone; one that
      // is shared lives on anyway, and costs only its slot here.
      bytes += sizeof(Value) + (items.back().shared() ? 0 : items.back().bytes());
    });
  }
  if (e.kind == ExprKind::Tuple) return Value::tuple(std::move(items));
  if (e.kind == ExprKind::Set) return Value::set(std::move(items));
  return Value::list(std::move(items));
}

Value Machine::binary(const Expr& e, Frame& frame) {
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
      found = std::binary_search(b.items().begin(), b.items().end(), a);
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
      std::vector<Value> items;
      items.reserve(a.items().size() + b.items().size());
      items.insert(items.end(), a.items().begin(), a.items().end());
      items.insert(items.end(), b.items().begin(), b.items().end());
      return Value::set(std::move(items));
    }
    if (is_gamey(a) || is_gamey(b)) {
      fail_at(e.where, "cannot add " + describe(is_gamey(a) ? b : a) + " to a position",
              "a sum adds positions: Nim(3) + Nim(4)");
    }
  }
  if (op == BinOp::Sub && a.is(Kind::Set) && b.is(Kind::Set)) {
    std::vector<Value> items;
    for (const Value& x : a.items()) {
      if (!std::binary_search(b.items().begin(), b.items().end(), x)) items.push_back(x);
    }
    return Value::set(std::move(items));
  }
  if (!a.is(Kind::Int) || !b.is(Kind::Int)) {
    fail_at(e.where, "'" + text + "' needs two ints, got " + describe(a.is(Kind::Int) ? b : a));
  }
  return Value::integer(arith(op, a.as_int(), b.as_int(), e.where));
}

Value Machine::index(const Expr& e, Frame& frame) {
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

Machine::Expanding::Expanding(Machine& m, const GameInstance& game, const Value& state)
    : m_(m), key_(&game, state) {
  // Rules that ask about another position, whose rules ask about another, ...: as deep as
  // function calls may nest.
  if (m_.expanding_.size() >= static_cast<std::size_t>(m_.w_.max_depth)) {
    throw Error(ErrorKind::Limit,
                "queries inside rules nested deeper than " + std::to_string(m_.w_.max_depth) + " (at " +
                    shown(Position{&game, state}) + ")",
                "raise the limit with --max-depth N, or let the rules ask about fewer positions");
  }
  if (!m_.expanding_.insert(key_).second) {
    throw Error(ErrorKind::Runtime,
                "the rules loop: listing the options of " + shown(Position{&game, state}) +
                    " asks a question about " + shown(Position{&game, state}) + " itself",
                "a rule may ask about other positions, not about the position it moves from "
                "or one that leads back to it");
  }
}

Machine::Expanding::~Expanding() { m_.expanding_.erase(key_); }

Machine::Holding::Holding(Machine& m, const Value& v, Where where) : m_(m), v_(v) {
  const std::uint64_t b = m_.calls_.hold(v_);
  m_.w_.limits.held += b;
  if (b < ValueMeter::kShared) return;  // small arguments: counted, checked with the results
  try {
    check_memory(m_.w_.limits, m_.ev_.held_bytes(), "the arguments of the calls in progress");
  } catch (Error& err) {
    err.where = where;
    m_.w_.limits.held -= std::min(m_.calls_.release(v_), m_.w_.limits.held);
    throw;
  }
}

Machine::Holding::~Holding() { m_.w_.limits.held -= std::min(m_.calls_.release(v_), m_.w_.limits.held); }

void Machine::begin_statement() {
  w_.limits.steps = 0;
  // What functions have memoized (a REPL command or a redefinition may have dropped it);
  // no call is in progress between statements.
  calls_.clear();
  std::uint64_t held = 0;
  for (const DefEntry& d : w_.defs) held += d.memo.bytes();
  w_.limits.held = held;
}

void Machine::size_exceeded(std::uint64_t n, bool chars, Where where) const {
  const std::uint64_t held = ev_.held_bytes() + w_.limits.held;
  throw Error(ErrorKind::Limit,
              "out of memory: a value of " + std::to_string(n) + (chars ? " characters" : " elements") +
                  ((held >> 20) > 0 ? ", with the " + std::to_string(held >> 20) +
                                          " MB that memos and calls in progress hold,"
                                    : std::string()) +
                  " passes the limit of " + std::to_string(w_.limits.max_memory >> 20) + " MB",
              "raise the limit with --max-memory MB", where);
}

Value Machine::call(const Expr& e, Frame& frame) {
  // Every recursion of the language goes through a call (a function, a query inside a rule
  // about a position of the same game): stop it with an error before the stack ends.
  check_stack();
  const Expr& callee = *e.args[0];
  if (auto v = known_grundy(e, frame)) return Value::integer(*v);
  if (callee.kind == ExprKind::Name && callee.binding.to == Binding::To::Builtin) {
    try {
      return builtin(e, callee.binding.index, frame);
    } catch (Error& err) {
      if (!err.where.known()) err.where = e.where;
      throw;
    }
  }
  if (callee.kind == ExprKind::Name && callee.binding.to == Binding::To::Def) {
    DefEntry& d = w_.defs[static_cast<std::size_t>(callee.binding.index)];
    std::vector<Value> args;
    for (std::size_t i = 1; i < e.args.size(); ++i) args.push_back(eval(*e.args[i], frame));
    Value key = Value::tuple(args);
    if (auto it = d.memo.find(key); it != d.memo.end()) return it->second;
    if (depth_ >= w_.max_depth) {
      throw Error(
          ErrorKind::Limit,
          "function calls nested deeper than " + std::to_string(w_.max_depth) + " (in " + d.decl->name + ")",
          "raise the limit with --max-depth N, or write the function without deep recursion", e.where);
    }
    try {
      check_stack();
    } catch (Error& err) {
      err.where = e.where;
      throw;
    }
    Frame inner(static_cast<std::size_t>(d.decl->frame_size));
    std::copy(args.begin(), args.end(), inner.begin());
    Value result;
    {
      // The arguments stay alive until the call returns: d(s + s, k - 1) holds every s of
      // the recursion at once.
      const Holding holding(*this, key, e.where);
      ++depth_;
      try {
        result = eval(*d.decl->body, inner);
      } catch (...) {
        --depth_;
        throw;
      }
      --depth_;
    }
    w_.limits.held += d.memo.emplace(key, result);
    try {
      check_memory(w_.limits, ev_.held_bytes(), "the memoized results of functions");
    } catch (Error& err) {
      err.where = e.where;
      throw;
    }
    return result;
  }
  Value f = eval(callee, frame);
  if (!f.is(Kind::Game)) {
    fail_at(callee.where, "cannot call " + describe(f), "only functions, builtins and games take arguments");
  }
  std::vector<Value> args;
  for (std::size_t i = 1; i < e.args.size(); ++i) args.push_back(eval(*e.args[i], frame));
  return position_of(f.game(), std::move(args), e);
}

Value Machine::position_of(const GameInstance* g, std::vector<Value> args, const Expr& call) {
  const int arity = g->rules().state_arity();
  if (static_cast<int>(args.size()) != arity) {
    fail_at(call.where, g->display_name() + " takes " + std::to_string(arity) +
                            (arity == 1 ? " value, got " : " values, got ") + std::to_string(args.size()));
  }
  Value state = args.size() == 1 ? args[0] : Value::tuple(std::move(args));
  std::string why = g->rules().check_state(state);
  if (!why.empty()) fail_at(call.where, why);
  return Value::position(g, std::move(state));
}

const GameEntry* Machine::grundy_query(const Expr& e) const {
  if (e.kind != ExprKind::Call || e.args.size() != 2 || !e.clauses.empty()) return nullptr;
  const Expr& callee = *e.args[0];
  if (callee.kind != ExprKind::Name || callee.binding.to != Binding::To::Builtin ||
      callee.binding.index != static_cast<int>(Builtin::Grundy)) {
    return nullptr;
  }
  const Expr& arg = *e.args[1];
  if (arg.kind != ExprKind::Call || arg.args.size() < 2 || !arg.clauses.empty()) return nullptr;
  const Expr& game = *arg.args[0];
  if (game.kind != ExprKind::Name || game.binding.to != Binding::To::Game) return nullptr;
  const GameEntry& entry = w_.games[static_cast<std::size_t>(game.binding.index)];
  if (entry.param_count > 0 || (entry.decl && entry.decl->form == GameDecl::Form::Alias)) return nullptr;
  return &entry;
}

std::optional<std::uint32_t> Machine::known_grundy(const Expr& e, Frame& frame) {
  const GameEntry* entry = grundy_query(e);
  if (!entry || !entry->plain) return std::nullopt;
  const Expr& arg = *e.args[1];
  const std::size_t n = arg.args.size() - 1;
  if (n > static_cast<std::size_t>(kMaxBoxArity)) return std::nullopt;
  // The arguments as they usually are in a tabulation: loop variables and integers.
  Coords c{};
  for (std::size_t i = 0; i < n; ++i) {
    const Expr& x = *arg.args[i + 1];
    if (x.kind == ExprKind::Int) {
      c[i] = x.ival;
      continue;
    }
    if (x.kind != ExprKind::Name || x.binding.to != Binding::To::Local) return std::nullopt;
    const Value& v = frame[static_cast<std::size_t>(x.binding.index)];
    if (!v.is(Kind::Int)) return std::nullopt;
    c[i] = v.as_int();
  }
  return ev_.known_table_value(*entry->plain, c.data(), static_cast<int>(n));
}

std::optional<Value> Machine::query_of_call(Builtin b, const Expr& arg, Frame& frame) {
  if (arg.kind != ExprKind::Call) return std::nullopt;
  const Expr& callee = *arg.args[0];
  const std::size_t n = arg.args.size() - 1;
  if (callee.kind != ExprKind::Name || callee.binding.to != Binding::To::Game || n == 0 ||
      n > static_cast<std::size_t>(kMaxBoxArity)) {
    return std::nullopt;
  }
  GameEntry& entry = w_.games[static_cast<std::size_t>(callee.binding.index)];
  const bool alias = entry.decl && entry.decl->form == GameDecl::Form::Alias;
  const GameInstance* g = entry.plain && !alias ? entry.plain : instance(entry, {}, callee.where);
  // Integer arguments go straight to the table; anything else builds the position.
  Coords c{};
  std::size_t i = 0;
  Value v;
  for (; i < n; ++i) {
    v = eval(*arg.args[i + 1], frame);
    if (!v.is(Kind::Int)) break;
    c[i] = v.as_int();
  }
  if (i == n && g->rules().state_arity() == static_cast<int>(n)) {
    if (b == Builtin::Grundy) {
      if (auto x = ev_.table_value(*g, c.data(), static_cast<int>(n))) return Value::integer(*x);
    } else if (auto w = ev_.table_wins(*g, c.data(), static_cast<int>(n))) {
      return wins_answer(b, *w);
    }
  }
  std::vector<Value> args;
  for (std::size_t j = 0; j < i; ++j) args.push_back(Value::integer(c[j]));
  if (i < n) {
    args.push_back(std::move(v));
    for (std::size_t j = i + 1; j < n; ++j) args.push_back(eval(*arg.args[j + 1], frame));
  }
  Value p = position_of(g, std::move(args), arg);
  const char* name = kBuiltins[static_cast<std::size_t>(b)].name.data();
  const Option o = option_of(p, arg.where, name);
  if (b == Builtin::Grundy) return Value::integer(ev_.grundy(o));
  return wins_answer(b, ev_.wins(o));
}

Option Machine::option_of(const Value& v, Where where, const char* query) {
  if (v.is(Kind::Sum) && v.modifier() != Modifier::Normal) {
    const bool misere = v.modifier() == Modifier::Misere;
    if (std::string(query) == "grundy") {
      fail_at(where,
              std::string("grundy(") + (misere ? "misere" : "every") +
                  " X) has no meaning: the nim-value is a normal-play notion",
              misere ? "ask outcome(misere X), wins(misere X), winning(misere X) or genus(X)"
                     : "ask outcome(every X), wins(every X), winning(every X) or steps(X)");
    }
    if (std::string(query) == "steps" && misere) {
      fail_at(where, "steps is the remoteness of Every-SG play; it has no meaning under misere",
              "ask steps(X) or steps(every X)");
    }
    if (std::string(query) == "genus") {
      fail_at(where, "genus takes a normal-play position or sum, not a modified one",
              "ask genus(X): it already describes X in misere play");
    }
  }
  Option o;
  if (v.is(Kind::Int) && v.as_int() == 0) return o;  // 0 is the empty sum, as it prints
  if (v.is(Kind::Position)) {
    o.push_back(Position{v.game(), v.state()});
  } else if (v.is(Kind::Sum)) {
    for (const Value& p : v.parts()) {
      if (p.is(Kind::Sum)) {
        for (const Value& q : p.parts()) o.push_back(Position{q.game(), q.state()});
      } else {
        o.push_back(Position{p.game(), p.state()});
      }
    }
  } else if (v.is(Kind::Game)) {
    fail_at(where, std::string(query) + " needs a position, got the game " + shown(v),
            "give it a state: " + shown(v) + "(10)");
  } else {
    fail_at(where, std::string(query) + " needs a position or a sum, got " + describe(v));
  }
  return o;
}

namespace {
// The components of an every sum: each summand as written, a split one being a normal sum.
std::vector<Option> every_components(const Value& v) {
  std::vector<Option> out;
  for (const Value& p : v.parts()) {
    Option c;
    if (p.is(Kind::Sum)) {
      for (const Value& q : p.parts()) c.push_back(Position{q.game(), q.state()});
    } else {
      c.push_back(Position{p.game(), p.state()});
    }
    out.push_back(std::move(c));
  }
  return out;
}
}  // namespace

std::vector<Value> Machine::every_options(const Value& x, bool winning_only, Where where) {
  const std::vector<Option> comps = every_components(x);
  // Each component with a move must move: the options are one choice per such component.
  std::vector<std::vector<Option>> choices;
  for (const Option& c : comps) {
    if (winning_only) {
      std::vector<Option> one;
      if (!sum_options(ev_, c).empty()) one.push_back(every_.strategy_move(c));
      choices.push_back(std::move(one));
    } else {
      choices.push_back(sum_options(ev_, c));
    }
  }
  std::vector<Value> out;
  if (std::all_of(choices.begin(), choices.end(), [](const auto& c) { return c.empty(); })) return out;
  const std::size_t k = comps.size();
  // Each choice as a component value, and sorted as a key, made once: a combination only
  // gathers k of them.
  std::vector<std::vector<Value>> made(k), keys(k);
  // --max-memory: the choices made into values, and their keys, which share the states
  // (what a move made, a list state, is counted once); then the options and their keys.
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const std::vector<Option> own{comps[i]};
    for (const Option& chosen : choices[i].empty() ? own : choices[i]) {
      std::vector<Value> ps;
      for (const Position& p : chosen) {
        ps.push_back(Value::position(p.game, p.state));
        bytes += p.state.bytes();
      }
      made[i].push_back(Value::sum(ps));
      std::sort(ps.begin(), ps.end());
      keys[i].push_back(Value::sum(std::move(ps)));
      bytes += 2 * (kValueBodyBytes + chosen.size() * (sizeof(Value) + kValueBodyBytes));
    }
  }
  // Equal components have the same choices, and swapping their picks gives the same option
  // as a multiset: of those, only picks that do not decrease along a run of equal components
  // are made (the first of each such option in the order below is one of them). Eight
  // copies of Nim(20) combine in C(27, 8) ways, not 20^8.
  std::vector<std::size_t> same(k, k);  // the previous component equal to this one
  std::uint64_t combinations = 1;
  for (std::size_t i = 0; i < k; ++i) {
    if (choices[i].empty()) continue;
    std::uint64_t run = 1;  // components equal to i up to it: C(c + run - 1, run) ways
    for (std::size_t j = i; j-- > 0;) {
      if (!choices[j].empty() && comps[j] == comps[i]) {
        if (same[i] == k) same[i] = j;
        ++run;
      }
    }
    // The factor this component adds: C(c + run - 1, run) / C(c + run - 2, run - 1) =
    // (c + run - 1) / run, exact when taken in this order (past 2^64: 2^64).
    std::uint64_t next = 0;
    if (__builtin_mul_overflow(combinations, choices[i].size() + run - 1, &next)) combinations = UINT64_MAX;
    else combinations = next / run;
  }
  // Each combination is a step (--max-steps); more than the steps left is an error at once.
  const std::uint64_t left =
      w_.limits.max_steps > w_.limits.steps ? w_.limits.max_steps - w_.limits.steps : 0;
  if (combinations > left) {
    throw Error(
        ErrorKind::Limit,
        "the options of this every sum combine " +
            (combinations == UINT64_MAX ? std::string("more than 2^64") : std::to_string(combinations)) +
            " choices of moves, more than the " + std::to_string(w_.limits.max_steps) +
            " steps a statement may take",
        "raise the limit with --max-steps N, or ask outcome/winning instead", where);
  }
  absl::flat_hash_set<std::vector<Value>> seen;  // options equal as multisets are listed once
  std::vector<std::size_t> pick(k, 0);
  auto lowest = [&](std::size_t i) { return same[i] == k ? std::size_t{0} : pick[same[i]]; };
  for (std::size_t i = 0; i < k; ++i) pick[i] = lowest(i);

  while (true) {
    w_.limits.charge(1);
    std::vector<Value> parts, key;
    parts.reserve(k);
    key.reserve(k);
    for (std::size_t i = 0; i < k; ++i) {
      parts.push_back(made[i][pick[i]]);
      key.push_back(keys[i][pick[i]]);
    }
    std::sort(key.begin(), key.end());
    if (seen.insert(std::move(key)).second) {
      out.push_back(Value::sum(std::move(parts), Modifier::Every));
      bytes += kValueBodyBytes + 2 * k * sizeof(Value) + 3 * sizeof(Value);
      check_memory(w_.limits, ev_.held_bytes() + bytes, "the list of options");
    }
    if (out.size() > w_.limits.max_rows) {
      throw Error(ErrorKind::Limit,
                  "more than " + std::to_string(w_.limits.max_rows) + " options of an every sum",
                  "raise the limit with --max-rows N, or ask outcome/winning instead", where);
    }
    // The last component's choice varies fastest, as nested `for` clauses do.
    std::size_t i = k;
    while (i-- > 0) {
      if (!choices[i].empty() && pick[i] + 1 < choices[i].size()) break;
    }
    if (i == static_cast<std::size_t>(-1)) break;
    ++pick[i];
    for (std::size_t j = i + 1; j < k; ++j) pick[j] = lowest(j);
  }
  return out;
}

// every X: the components are the summands as written, so a parenthesised sum inside stays
// one component (rule 12: a split component is a normal sum of its parts).
Value Machine::every_sum(const Expr& operand, Frame& frame) {
  // The summands as written, and whether each was written in parentheses of its own (kept
  // whole as one component even when it is a sum).
  std::vector<std::pair<const Expr*, bool>> summands;
  std::function<void(const Expr&, bool)> collect = [&](const Expr& x, bool top) {
    const bool whole = x.grouped > (top ? 1 : 0);
    if (x.kind == ExprKind::Binary && x.op == BinOp::Add && !whole) {
      collect(*x.args[0], false);
      collect(*x.args[1], false);
    } else {
      summands.push_back({&x, whole});
    }
  };
  collect(operand, true);
  std::vector<Value> components;
  for (const auto& [s, whole] : summands) {
    Value v = eval(*s, frame);
    if (v.is(Kind::Int) && v.as_int() == 0) v = Value::sum({});
    if (!is_gamey(v) || v.modifier() != Modifier::Normal) {
      fail_at(s->where, "'every' applies to positions and sums, got " + describe(v));
    }
    components.push_back(std::move(v));
  }
  // `every s` with s a sum held in a name: its parts are the components (`every ((s))`
  // keeps it one).
  if (components.size() == 1 && components[0].is(Kind::Sum) && !summands[0].second) {
    std::vector<Value> parts = components[0].parts();
    components = std::move(parts);
  }
  return Value::sum(std::move(components), Modifier::Every);
}

std::vector<Value> Machine::list_options(const Option& o, Modifier mod, bool winning_only) {
  std::vector<Value> out;
  // Options equal as multisets are listed once. An option is the sum with component i
  // replaced by x, so two are equal exactly when their changes are: the key is x less
  // component i (a part of x equal to it cancels it, else it is marked as taken away),
  // not the whole sum again.
  absl::flat_hash_set<std::vector<Position>> seen;
  const Position taken_away{nullptr, Value()};
  const bool normal = mod == Modifier::Normal;
  const std::uint64_t total = normal && winning_only ? ev_.grundy(o) : 0;
  // The components as values, made once: every option of a sum of n parts shares the n - 1
  // it does not change, and holds only their slots.
  std::vector<Value> base;
  base.reserve(o.size());
  for (const Position& p : o) base.push_back(Value::position(p.game, p.state));
  // --max-memory: each option listed is a sum of about n parts (its body and n slots, the
  // moved part's new bodies), its key in `seen` and its slot in `out`.
  std::uint64_t bytes = 0;
  Option next;
  std::vector<Value> parts;
  for (std::size_t i = 0; i < o.size(); ++i) {
    // A component equal to an earlier one has the same options, and they give the same sums.
    if (std::find(o.begin(), o.begin() + static_cast<std::ptrdiff_t>(i), o[i]) !=
        o.begin() + static_cast<std::ptrdiff_t>(i)) {
      continue;
    }
    // `known_winning`: the move leaves a sum of value 0 (normal play), no need to ask.
    auto with = [&](const Option& x, bool known_winning) {
      std::vector<Position> key;
      bool cancelled = false;
      for (const Position& p : x) {
        if (!cancelled && p == o[i]) {
          cancelled = true;
          continue;
        }
        key.push_back(p);
      }
      std::sort(key.begin(), key.end());
      if (!cancelled) {
        key.push_back(taken_away);
        key.push_back(o[i]);
      }
      if (seen.contains(key)) return;
      if (winning_only && !known_winning) {
        next.assign(o.begin(), o.begin() + static_cast<std::ptrdiff_t>(i));
        next.insert(next.end(), x.begin(), x.end());
        next.insert(next.end(), o.begin() + static_cast<std::ptrdiff_t>(i) + 1, o.end());
        if (normal ? ev_.grundy(next) != 0 : misere_.wins(next)) return;
      }
      parts.assign(base.begin(), base.begin() + static_cast<std::ptrdiff_t>(i));
      for (const Position& p : x) parts.push_back(Value::position(p.game, p.state));
      parts.insert(parts.end(), base.begin() + static_cast<std::ptrdiff_t>(i) + 1, base.end());
      bytes += 2 * kValueBodyBytes + (parts.size() + 1) * sizeof(Value) + x.size() * kValueBodyBytes +
               key.size() * sizeof(Position);
      for (const Position& p : x) bytes += p.state.bytes();  // states the move made
      check_memory(w_.limits, ev_.held_bytes() + bytes, "the list of options");
      seen.insert(std::move(key));
      out.push_back(Value::sum(parts, mod));
      if (out.size() > w_.limits.max_rows) {
        throw Error(ErrorKind::Limit, "more than " + std::to_string(w_.limits.max_rows) + " options",
                    "raise the limit with --max-rows N");
      }
    };
    if (normal && winning_only) {
      // Under normal play a move in component i wins only if it leaves value total ^ g_i.
      const std::uint64_t target = total ^ ev_.grundy(o[i]);
      if (o[i].game->rules().is_nim()) {
        if (target < static_cast<std::uint64_t>(o[i].state.as_int())) {
          with(Option{Position{o[i].game, Value::integer(static_cast<std::int64_t>(target))}}, true);
        }
        continue;
      }
      for (const Option& x : ev_.options(o[i])) {
        if (ev_.grundy(x) == target) with(x, true);
      }
      continue;
    }
    for (const Option& x : ev_.options(o[i])) with(x, false);
  }
  return out;
}

Value Machine::modified_query(Builtin which, const Value& x, Where where) {
  const bool misere = x.modifier() == Modifier::Misere;
  const Option all = option_of(x, where, kBuiltins[static_cast<int>(which)].name.data());
  switch (which) {
    case Builtin::Wins:
    case Builtin::Outcome: {
      const bool w = misere ? misere_.wins(all) : every_.wins(every_components(x));
      return wins_answer(which, w);
    }
    case Builtin::Options:
    case Builtin::Winning: {
      const bool winning = which == Builtin::Winning;
      if (!misere) {
        if (winning && !every_.wins(every_components(x))) return Value::list({});
        return Value::list(every_options(x, winning, where));
      }
      return Value::list(list_options(all, Modifier::Misere, winning));
    }
    default: break;
  }
  fail_at(where, "this query does not take a modified position");
}

Value Machine::option_value(const Option& o, Modifier mod) const {
  std::vector<Value> parts;
  parts.reserve(o.size());
  for (const Position& p : o) parts.push_back(Value::position(p.game, p.state));
  return Value::sum(std::move(parts), mod);
}

Value Machine::table(const Expr& e, Frame& frame) {
  std::vector<const Clause*> fors;
  for (const Clause& c : e.clauses) {
    if (c.kind == Clause::Kind::For) fors.push_back(&c);
  }
  if (fors.size() > 2) {
    fail_at(e.where, "table takes one 'for' (a sequence) or two (a grid)");
  }
  auto key_of = [&](const Clause& c) {
    if (c.slots.size() == 1) return frame[static_cast<std::size_t>(c.slots[0])];
    std::vector<Value> items;
    for (int s : c.slots) items.push_back(frame[static_cast<std::size_t>(s)]);
    return Value::tuple(std::move(items));
  };
  auto label_of = [](const Clause& c) {
    if (c.names.size() == 1) return c.names[0];
    std::string s = "(";
    for (std::size_t i = 0; i < c.names.size(); ++i) s += (i ? ", " : "") + c.names[i];
    return s + ")";
  };
  TableData data;
  data.max_cells = w_.limits.max_rows;
  data.row_label = label_of(*fors[0]);
  if (fors.size() == 2) data.col_label = label_of(*fors[1]);
  ProgressScope bar(w_.limits.progress, "table");  // a bar on a terminal after a second
  prefetch_heaps(e.clauses, *e.args[1], frame);
  each(e.clauses, 0, frame, [&] {
    Value key2 = fors.size() == 2 ? key_of(*fors[1]) : Value();
    data.cells.push_back({key_of(*fors[0]), key2, eval(*e.args[1], frame)});
    if (w_.limits.progress) w_.limits.progress->update(data.cells.size(), 0);
    if (data.cells.size() > w_.limits.max_rows) {
      throw Error(ErrorKind::Limit,
                  "the table has more than " + std::to_string(w_.limits.max_rows) + " cells",
                  "raise the limit with --max-rows N", e.where);
    }
  });
  return Value::table(fors.size() == 2 ? render_grid(data) : render_sequence(data));
}

std::optional<Value> Machine::folded(const Expr& e, Builtin b, Frame& frame, std::vector<Value>& listed) {
  if (e.args.size() != 2) return std::nullopt;
  const std::vector<Clause>* clauses = &e.clauses;  // sum(x for x in ...)
  const Expr* element = e.args[1].get();
  if (clauses->empty()) {  // sum([x for x in ...])
    const Expr& a = *e.args[1];
    if (a.kind != ExprKind::List || a.clauses.empty() || a.args.size() != 1) return std::nullopt;
    clauses = &a.clauses;
    element = a.args[0].get();
  }
  const Where at = e.where, arg0 = e.args[1]->where;
  if (auto v = folded_heaps(*clauses, *element, b, frame, at)) return v;
  prefetch_heaps(*clauses, *element, frame);
  std::int64_t count = 0, total = 0;
  bool fell_back = false;
  each(*clauses, 0, frame, [&] {
    Value x = eval(*element, frame);
    if (fell_back) {
      check_size(listed.size() + 1, sizeof(Value), e.where);
      listed.push_back(std::move(x));
      return;
    }
    if (b == Builtin::Sum) {
      if (count == 0 && !x.is(Kind::Int)) {  // positions: summed by the general path
        fell_back = true;
        listed.push_back(std::move(x));
        return;
      }
      const std::int64_t y = need_int(x, arg0, "an element of sum");
      std::int64_t next = 0;
      if (__builtin_add_overflow(total, y, &next)) overflow(at, "+", total, y);
      total = next;
    }
    ++count;
  });
  if (fell_back) return std::nullopt;
  return Value::integer(b == Builtin::Len ? count : total);
}

const GameEntry* Machine::heap_query(const Expr& e, int slot) const {
  const GameEntry* entry = grundy_query(e);
  if (!entry) return nullptr;
  const Expr& arg = *e.args[1];
  if (arg.args.size() != 2) return nullptr;
  const Expr& n = *arg.args[1];
  return n.kind == ExprKind::Name && n.binding.to == Binding::To::Local && n.binding.index == slot ? entry
                                                                                                   : nullptr;
}

namespace {

// The `grundy(G(v))` that evaluating `e` always evaluates: `e` itself, or an operand of an
// operator that evaluates both (not and/or, which may skip the second).
template <typename IsQuery>
const Expr* always_asked(const Expr& e, int slot, const IsQuery& is_query) {
  if (is_query(e, slot)) return &e;
  if (e.kind == ExprKind::Unary) return always_asked(*e.args[0], slot, is_query);
  if (e.kind != ExprKind::Binary || e.op == BinOp::And || e.op == BinOp::Or) return nullptr;
  if (const Expr* q = always_asked(*e.args[0], slot, is_query)) return q;
  return always_asked(*e.args[1], slot, is_query);
}

// A range bound that may be evaluated once more at no cost: numbers, names, arithmetic.
bool plain_bound(const Expr& e) {
  if (e.kind == ExprKind::Int || e.kind == ExprKind::Name) return true;
  if (e.kind == ExprKind::Unary) return plain_bound(*e.args[0]);
  return e.kind == ExprKind::Binary && plain_bound(*e.args[0]) && plain_bound(*e.args[1]);
}

}  // namespace

void Machine::prefetch_heaps(const std::vector<Clause>& clauses, const Expr& element, Frame& frame) {
  if (clauses.empty()) return;
  const Clause& c = clauses[0];
  if (c.kind != Clause::Kind::For || c.slots.size() != 1 || c.expr->kind != ExprKind::Range ||
      !plain_bound(*c.expr->args[0]) || !plain_bound(*c.expr->args[1])) {
    return;
  }
  const Expr* asked = clauses.size() == 1                   ? &element
                      : clauses[1].kind == Clause::Kind::If ? clauses[1].expr.get()
                                                            : nullptr;
  if (!asked) return;
  const Expr* query = always_asked(
      *asked, c.slots[0], [this](const Expr& e, int slot) { return heap_query(e, slot) != nullptr; });
  if (!query) return;
  const Value range = eval(*c.expr, frame);
  if (!range.is(Kind::Range)) return;
  check_loop(range, c.expr->where);
  ask_last(range, c.slots[0], *query, frame);
}

void Machine::ask_last(const Value& range, int slot, const Expr& query, Frame& frame) {
  // From a negative heap on, the loop fails at its first step: that error, not one at hi.
  if (range.range_hi() < range.range_lo() || range.range_lo() < 0) return;
  frame[static_cast<std::size_t>(slot)] = Value::integer(range.range_hi());
  (void)eval(query, frame);
}

std::optional<Value> Machine::folded_heaps(const std::vector<Clause>& clauses, const Expr& element, Builtin b,
                                           Frame& frame, Where at) {
  if (clauses.size() != 1) return std::nullopt;
  const Clause& c = clauses[0];
  // A range written as such evaluates to a range (or fails as the loop would).
  if (c.kind != Clause::Kind::For || c.slots.size() != 1 || c.expr->kind != ExprKind::Range)
    return std::nullopt;
  const GameEntry* entry = heap_query(element, c.slots[0]);
  if (!entry) return std::nullopt;
  const Value range = eval(*c.expr, frame);
  check_loop(range, c.expr->where);
  const std::int64_t lo = range.range_lo(), hi = range.range_hi();
  if (hi < lo) return Value::integer(0);
  // The steps of the whole loop, as it would count them (check_loop made sure they are left).
  count_steps(static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1, c.expr->where);
  ask_last(range, c.slots[0], element, frame);
  Value& slot = frame[static_cast<std::size_t>(c.slots[0])];
  const GameInstance* g = entry->plain;  // made by the query, when G is a game of one integer
  std::int64_t total = 0;
  auto add = [&](std::int64_t y) {
    std::int64_t next = 0;
    if (__builtin_add_overflow(total, y, &next)) overflow(at, "+", total, y);
    total = next;
  };
  std::uint64_t block[4096];
  for (std::int64_t x = lo;;) {
    check_interrupt();
    const std::uint64_t left = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(x) + 1;
    const std::size_t known =
        g ? ev_.known_table_values(*g, x, block, std::min<std::uint64_t>(left, 4096)) : 0;
    if (known == 0) {  // a heap the table does not answer (a game without one, a negative heap)
      slot = Value::integer(x);
      add(need_int(eval(element, frame), element.where, "an element of sum"));
      if (x == hi) break;
      ++x;
      continue;
    }
    // Each value checked: a run formula's values reach 2^63 - 1.
    for (std::size_t i = 0; i < known; ++i) add(static_cast<std::int64_t>(block[i]));
    if (static_cast<std::uint64_t>(known) == left) break;
    x += static_cast<std::int64_t>(known);
  }
  if (b == Builtin::Len)
    return Value::integer(
        static_cast<std::int64_t>(static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1));
  return Value::integer(total);
}

Value Machine::builtin(const Expr& e, int which, Frame& frame) {
  const auto b = static_cast<Builtin>(which);
  if (b == Builtin::Table) return table(e, frame);
  if ((b == Builtin::Grundy || b == Builtin::Wins || b == Builtin::Outcome) && e.clauses.empty() &&
      e.args.size() == 2) {
    if (auto v = query_of_call(b, *e.args[1], frame)) return *v;
  }
  std::vector<Value> args;
  if (b == Builtin::Sum || b == Builtin::Len) {
    std::vector<Value> listed;
    if (auto v = folded(e, b, frame, listed)) return *v;
    if (!listed.empty()) args.push_back(Value::list(std::move(listed)));
  }
  if (!args.empty()) {
    // the elements listed by folded()
  } else if (!e.clauses.empty()) {
    std::vector<Value> items;
    each(e.clauses, 0, frame, [&] {
      check_size(items.size() + 1, sizeof(Value), e.where);
      items.push_back(eval(*e.args[1], frame));
    });
    args.push_back(Value::list(std::move(items)));
  } else {
    for (std::size_t i = 1; i < e.args.size(); ++i) args.push_back(eval(*e.args[i], frame));
  }
  const Where at = e.where;
  const Where arg0 = e.args.size() > 1 ? e.args[1]->where : e.where;
  const char* name = kBuiltins[which].name.data();
  switch (b) {
    case Builtin::Grundy: return Value::integer(ev_.grundy(option_of(args[0], arg0, "grundy")));
    case Builtin::Outcome:
    case Builtin::Wins:
    case Builtin::Options:
    case Builtin::Winning: {
      if (args[0].modifier() != Modifier::Normal) return modified_query(b, args[0], arg0);
      Option o = option_of(args[0], arg0, name);
      if (b == Builtin::Outcome || b == Builtin::Wins) return wins_answer(b, ev_.wins(o));
      return Value::list(list_options(o, Modifier::Normal, b == Builtin::Winning));
    }
    case Builtin::Steps: {
      const Value& x = args[0];
      Option o = option_of(x, arg0, "steps");
      if (x.modifier() == Modifier::Every) {
        std::uint32_t longest = 0;
        for (const Option& c : every_components(x)) longest = std::max(longest, every_.steps(c));
        return Value::integer(longest);
      }
      return Value::integer(every_.steps(o));
    }
    case Builtin::Genus: return Value::string(misere_.genus(option_of(args[0], arg0, "genus")));
    case Builtin::Period: {
      // period(G) / period(G, limit): (n0, p, proven) or (n0, p, observed); runtime/Period.hpp
      if (!args[0].is(Kind::Game)) {
        fail_at(arg0, "period needs a game, got " + describe(args[0]),
                args[0].is(Kind::Position)
                    ? "give the game without a state: period(" + args[0].game()->display_name() + ")"
                    : "e.g. period(Kayles) or period(SNim[{1, 3, 4}])");
      }
      std::optional<std::int64_t> limit;
      if (args.size() > 1) limit = need_int(args[1], e.args[2]->where, "the limit of period");
      const PeriodInfo r = ev_.period(*args[0].game(), limit);
      return Value::tuple(
          {Value::integer(r.n0), Value::integer(r.p), Value::word(r.proven ? "proven" : "observed")});
    }
    case Builtin::Min:
    case Builtin::Max: {
      std::vector<Value> listed;
      const std::vector<Value>& xs = args.size() == 1 ? items_in(*this, args[0], arg0, name, listed) : args;
      if (xs.empty()) fail_at(arg0, std::string(name) + " of an empty collection");
      Value best = xs[0];
      for (const Value& x : xs) {
        if (x.kind() != best.kind()) fail_at(arg0, std::string(name) + " of mixed kinds of values");
        if (b == Builtin::Min ? x < best : best < x) best = x;
      }
      return best;
    }
    case Builtin::Abs: {
      const std::int64_t x = need_int(args[0], arg0, "abs");
      std::int64_t r = 0;
      if (checked::abs(x, r) != checked::Fault::None) overflow(at, "abs(" + std::to_string(x) + ")");
      return Value::integer(r);
    }
    case Builtin::Len: {
      if (args[0].is(Kind::Range)) {
        const std::int64_t lo = args[0].range_lo(), hi = args[0].range_hi();
        if (hi < lo) return Value::integer(0);
        std::int64_t n = 0;
        if (__builtin_sub_overflow(hi, lo, &n) || n == INT64_MAX) {
          overflow(at, "len(" + to_string(args[0]) + ")");
        }
        return Value::integer(n + 1);
      }
      if (args[0].is(Kind::Str)) return Value::integer(static_cast<std::int64_t>(args[0].as_str().size()));
      if (args[0].is(Kind::Sum)) return Value::integer(static_cast<std::int64_t>(args[0].parts().size()));
      return Value::integer(static_cast<std::int64_t>(elements_of(args[0], arg0, "len").size()));
    }
    case Builtin::Sum: {
      std::vector<Value> listed;
      const std::vector<Value>& xs = items_in(*this, args[0], arg0, "sum", listed);
      if (!xs.empty() && is_gamey(xs[0])) {
        std::vector<Value> parts;
        for (const Value& x : xs) {
          if (!is_gamey(x) || x.modifier() != Modifier::Normal) {
            fail_at(arg0, "sum of positions met " + describe(x));
          }
          if (x.is(Kind::Sum)) parts.insert(parts.end(), x.parts().begin(), x.parts().end());
          else parts.push_back(x);
        }
        return Value::sum(std::move(parts));
      }
      std::int64_t total = 0;
      for (const Value& x : xs) {
        const std::int64_t y = need_int(x, arg0, "an element of sum");
        std::int64_t next = 0;
        if (__builtin_add_overflow(total, y, &next)) overflow(at, "+", total, y);
        total = next;
      }
      return Value::integer(total);
    }
    case Builtin::Sorted: {
      std::vector<Value> xs = items_of(*this, args[0], arg0, "sorted");
      std::sort(xs.begin(), xs.end());
      return Value::list(std::move(xs));
    }
    case Builtin::Mex: {
      std::vector<bool> seen;
      std::vector<Value> listed;
      for (const Value& x : items_in(*this, args[0], arg0, "mex", listed)) {
        const std::int64_t v = need_int(x, arg0, "an element of mex");
        if (v >= 0 && v < (1 << 24)) {
          if (static_cast<std::size_t>(v) >= seen.size()) seen.resize(static_cast<std::size_t>(v) + 1);
          seen[static_cast<std::size_t>(v)] = true;
        }
      }
      return Value::integer(mex(seen));
    }
    case Builtin::Update: {
      if (!args[0].is(Kind::List) && !args[0].is(Kind::Tuple)) {
        fail_at(arg0, "update needs a list or tuple, got " + describe(args[0]));
      }
      std::vector<Value> xs = args[0].items();
      const std::int64_t i = need_int(args[1], e.args[2]->where, "the index of update");
      if (i < 0 || static_cast<std::size_t>(i) >= xs.size()) {
        fail_at(e.args[2]->where, "index " + std::to_string(i) + " is out of range");
      }
      xs[static_cast<std::size_t>(i)] = args[2];
      return args[0].is(Kind::List) ? Value::list(std::move(xs)) : Value::tuple(std::move(xs));
    }
    case Builtin::Remove: {
      if (args[0].is(Kind::Set)) {
        std::vector<Value> xs;
        for (const Value& x : args[0].items()) {
          if (x != args[1]) xs.push_back(x);
        }
        return Value::set(std::move(xs));
      }
      if (!args[0].is(Kind::List)) fail_at(arg0, "remove needs a list or set, got " + describe(args[0]));
      std::vector<Value> xs = args[0].items();
      const std::int64_t i = need_int(args[1], e.args[2]->where, "the index of remove");
      if (i < 0 || static_cast<std::size_t>(i) >= xs.size()) {
        fail_at(e.args[2]->where, "index " + std::to_string(i) + " is out of range");
      }
      xs.erase(xs.begin() + i);
      return Value::list(std::move(xs));
    }
    case Builtin::List: return Value::list(items_of(*this, args[0], arg0, "list"));
    case Builtin::Set: return Value::set(items_of(*this, args[0], arg0, "set"));
    default: break;
  }
  fail_at(at, "unknown builtin");
}

}  // namespace grundy::lang
