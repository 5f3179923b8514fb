#include "lang/Interpreter.hpp"

#include <algorithm>
#include <functional>
#include <string_view>

#include "lang/Faults.hpp"
#include "runtime/Checked.hpp"
#include "runtime/Show.hpp"
#include "runtime/StackGuard.hpp"

namespace grundy::lang {

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

// ---- limits ----

void Interpreter::steps_exceeded(Where where) const {
  throw Error(ErrorKind::Limit,
              "more than " + std::to_string(w_.limits.max_steps) +
                  " steps in one statement, counted over all the 'for' clauses it ran; the "
                  "count ran out at this one",
              // No single range is to blame here: one larger than the limit is reported
              // before it runs (check_loop), so this is the whole statement's work.
              "the statement as a whole needs more steps: raise the limit with --max-steps N, "
              "or ask about a smaller position",
              where);
}

void Interpreter::count_listed(std::uint64_t n, const Value& range, Where where, const char* what) {
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

void Interpreter::check_loop(const Value& collection, Where where) {
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

void Interpreter::check_interrupt() const {
  if (w_.limits.interrupt && w_.limits.interrupt->load(std::memory_order_relaxed)) {
    throw Error(ErrorKind::Interrupted, "interrupted");
  }
}

bool Interpreter::condition(const Expr& e, Frame& frame, const char* what) {
  Value v = eval(e, frame);
  if (!v.is(Kind::Bool)) {
    fail_at(e.where, std::string(what) + " must be a boolean, got " + describe(v),
            "compare explicitly, e.g. `n > 0` or `x == 0`");
  }
  return v.as_bool();
}

void Interpreter::bind(const Clause& c, const Value& v, Frame& frame) {
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

void Interpreter::each(const std::vector<Clause>& cs, std::size_t i, Frame& frame,
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

Interpreter::Expanding::Expanding(Interpreter& m, const GameInstance& game, const Value& state, What what)
    : m_(m), key_(&game, state, what) {
  // Rules that ask about another position, whose rules ask about another, ...: as deep as
  // function calls may nest.
  if (m_.expanding_.size() >= static_cast<std::size_t>(m_.w_.max_depth)) {
    throw Error(ErrorKind::Limit,
                "queries inside rules nested deeper than " + std::to_string(m_.w_.max_depth) + " (at " +
                    shown(Position{&game, state}) + ")",
                "raise the limit with --max-depth N, or let the rules ask about fewer positions");
  }
  if (!m_.expanding_.insert(key_).second) {
    const std::string at = shown(Position{&game, state});
    if (what == What::Value) {
      fail_loop("the rules loop: the value rule of " + at + " asks for the value of " + at + " itself",
                "`value` gives a state's nim-value from the state, e.g. value n % 3; to ask the rules, "
                "leave the value rule out");
    }
    fail_loop("the rules loop: listing the options of " + at + " asks a question about " + at + " itself",
              "a rule may ask about other positions, not about the position it moves from "
              "or one that leads back to it");
  }
}

Interpreter::Expanding::~Expanding() { m_.expanding_.erase(key_); }

Interpreter::Holding::Holding(Interpreter& m, const Value& v, Where where) : m_(m), v_(v) {
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

Interpreter::Holding::~Holding() { m_.w_.limits.held -= std::min(m_.calls_.release(v_), m_.w_.limits.held); }

void Interpreter::begin_statement() {
  w_.limits.steps = 0;
  // What functions have memoized (a REPL command or a redefinition may have dropped it);
  // no call is in progress between statements.
  calls_.clear();
  std::uint64_t held = 0;
  for (const DefEntry& d : w_.defs) held += d.memo.bytes();
  w_.limits.held = held;
}

void Interpreter::size_exceeded(std::uint64_t n, std::uint64_t bytes, Where where, bool chars) const {
  const std::string value = "a value of " + std::to_string(n) + (chars ? " characters" : " elements");
  const std::string limit = "the limit of " + std::to_string(w_.limits.max_memory >> 20) + " MB";
  // A value that is small itself: what else the statement holds (a memo, other values) is
  // what reached the limit, and the value's size, which depends on the allocator, says
  // nothing.
  const bool large = bytes >= heap_budget(w_.limits.max_memory) / 16;
  throw Error(ErrorKind::Limit,
              large ? "out of memory: " + value +
                          (bytes != UINT64_MAX ? " (" + std::to_string(bytes >> 20) + " MB more)" : std::string()) +
                          " takes the process past " + limit
                    : "out of memory: this statement takes the process to " + limit,
              "raise the limit with --max-memory MB", where);
}

const std::vector<Value>& Interpreter::items_in(const Value& v, Where where, const char* what,
                                                std::vector<Value>& out) {
  if (v.is(Kind::Range)) {
    const std::int64_t lo = v.range_lo(), hi = v.range_hi();
    if (hi >= lo) {
      // Each element listed is a step; the count itself may not fit in an int64.
      const std::uint64_t n = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
      count_listed(n, v, where, what);
      check_size(n == UINT64_MAX ? n : n + 1, sizeof(Value), where);
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

std::vector<Value> Interpreter::items_of(const Value& v, Where where, const char* what) {
  std::vector<Value> out;
  const std::vector<Value>& items = items_in(v, where, what, out);
  if (&items != &out) return items;
  return out;
}

// ---- evaluation ----

void Interpreter::to_parts(const Value& v, const GameInstance& self, Option& out, Where where) {
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

Value Interpreter::eval(const Expr& e, Frame& frame) {
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
        case Binding::To::Constant: return w_.constants[static_cast<std::size_t>(e.binding.index)];
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

Value Interpreter::call(const Expr& e, Frame& frame) {
  // Every recursion of the language goes through a call (a function, a query inside a rule
  // about a position of the same game): stop it with an error before the stack ends.
  check_stack();
  const Expr& callee = *e.args[0];
  if (e.shortcut.table_read) {
    if (auto v = known_grundy(e, frame)) return Value::integer(static_cast<std::int64_t>(*v));
  }
  if (callee.kind == ExprKind::Name && callee.binding.to == Binding::To::Builtin) {
    try {
      return call_builtin(e, callee.binding.index, frame);
    } catch (Error& err) {
      if (!err.where.known()) err.where = e.where;
      throw;
    }
  }
  if (callee.kind == ExprKind::Name && callee.binding.to == Binding::To::Def) {
    return call_def(e, w_.defs[static_cast<std::size_t>(callee.binding.index)], frame);
  }
  Value f = eval(callee, frame);
  if (!f.is(Kind::Game)) {
    fail_at(callee.where, "cannot call " + describe(f), "only functions, builtins and games take arguments");
  }
  std::vector<Value> args;
  for (std::size_t i = 1; i < e.args.size(); ++i) args.push_back(eval(*e.args[i], frame));
  return position_of(f.game(), std::move(args), e);
}

namespace {

// Whether a call to function `from` can reach function `target` (calls in its body, and in
// theirs, in any clause or argument).
bool reaches(const World& w, const Expr& e, int target, std::vector<char>& seen) {
  if (e.kind == ExprKind::Call && !e.args.empty() && e.args[0]->kind == ExprKind::Name &&
      e.args[0]->binding.to == Binding::To::Def) {
    const int k = e.args[0]->binding.index;
    if (k == target) return true;
    if (k >= 0 && static_cast<std::size_t>(k) < w.defs.size() && !seen[static_cast<std::size_t>(k)]) {
      seen[static_cast<std::size_t>(k)] = 1;
      const DefDecl* d = w.defs[static_cast<std::size_t>(k)].decl;
      if (d && d->body && reaches(w, *d->body, target, seen)) return true;
    }
  }
  for (const ExprPtr& a : e.args) {
    if (a && reaches(w, *a, target, seen)) return true;
  }
  for (const Clause& c : e.clauses) {
    if (c.expr && reaches(w, *c.expr, target, seen)) return true;
  }
  return false;
}

bool plain(const Value& v) { return v.is(Kind::Int) || v.is(Kind::Bool) || v.is(Kind::Str); }

// Counts the direct calls of `target` in e (`in_clause`: one of them inside a comprehension
// or generator, where it may run many times), and whether another function called reaches it.
void self_calls(const World& w, const Expr& e, int target, bool in_clause, int& calls, bool& looped,
                bool& mutual) {
  if (e.kind == ExprKind::Call && !e.args.empty() && e.args[0]->kind == ExprKind::Name &&
      e.args[0]->binding.to == Binding::To::Def) {
    const int k = e.args[0]->binding.index;
    if (k == target) {
      ++calls;
      looped = looped || in_clause;
    } else if (k >= 0 && static_cast<std::size_t>(k) < w.defs.size()) {
      std::vector<char> seen(w.defs.size());
      const DefDecl* d = w.defs[static_cast<std::size_t>(k)].decl;
      mutual = mutual || (d && d->body && reaches(w, *d->body, target, seen));
    }
  }
  const bool inner = in_clause || !e.clauses.empty();
  for (const ExprPtr& a : e.args) {
    if (a) self_calls(w, *a, target, inner, calls, looped, mutual);
  }
  for (const Clause& c : e.clauses) {
    if (c.expr) self_calls(w, *c.expr, target, true, calls, looped, mutual);
  }
}

}  // namespace

bool Interpreter::recursive(int def) {
  DefEntry& d = w_.defs[static_cast<std::size_t>(def)];
  if (d.recursive < 0) {
    std::vector<char> seen(w_.defs.size());
    d.recursive = d.decl && d.decl->body && reaches(w_, *d.decl->body, def, seen) ? 1 : 0;
    if (d.recursive == 1) {
      int calls = 0;
      bool looped = false, mutual = false;
      self_calls(w_, *d.decl->body, def, false, calls, looped, mutual);
      if (calls == 1 && !looped && !mutual) d.recursive = 2;
    }
  }
  return d.recursive >= 1;
}

// A pure function: its results are memoized (fib(40) written naively stays cheap), when it
// is recursive or called on plain values (DefEntry::recursive).
Value Interpreter::call_def(const Expr& e, DefEntry& d, Frame& frame) {
  std::vector<Value> args;
  for (std::size_t i = 1; i < e.args.size(); ++i) args.push_back(eval(*e.args[i], frame));
  if (auto v = compiled_call(d, args)) return *v;
  const bool keep = recursive(e.args[0]->binding.index) || std::all_of(args.begin(), args.end(), plain);
  // A function that calls itself once on any path (trial division, a digit sum, gcd) is a
  // chain: no call of the chain is met again within it, so only the call that starts it is
  // kept (is_prime to 10^5 kept every (k, d) it tried: 900 MB). Its inner calls still look:
  // s(n) = s(n - 1) + n asked for n = 0, 1, 2, ... finds s(n - 1) kept by the call before.
  const bool chained = d.recursive == 2 && d.active > 0;
  Value key = Value::tuple(args);
  if (keep) {
    if (auto it = d.memo.find(key); it != d.memo.end()) return it->second;
  }
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
    ++d.active;
    try {
      result = body_of(d, inner);
    } catch (...) {
      --depth_;
      --d.active;
      throw;
    }
    --depth_;
    --d.active;
  }
  if (!keep || chained) return result;
  // A cache, bounded: past its share of --max-memory it starts again empty (the results are
  // the same; only calls met again cost their time again).
  if (d.memo.bytes() > function_memo_budget(d)) {
    w_.limits.held -= std::min(d.memo.bytes(), w_.limits.held);
    d.memo.clear();
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

// The call by the function's compiled body, where it has one and every argument is an integer.
// Nothing where it has not, or the compiled body stops (an overflow, a division by zero, past
// the depth its loop may go): the body as written then meets what the compiled one met. Only
// from the top of the calls (depth 0): deeper, --max-depth leaves the loop fewer steps.
std::optional<Value> Interpreter::compiled_call(DefEntry& d, const std::vector<Value>& args) {
  if (depth_ != 0 || args.empty() || args.size() > IntProgram::kMaxFunctionArgs) return std::nullopt;
  std::int64_t ints[IntProgram::kMaxFunctionArgs];
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is(Kind::Int)) return std::nullopt;
    ints[i] = args[i].as_int();
  }
  if (!d.compile_tried) {
    d.compile_tried = true;
    d.compiled = compile_function(*d.decl, *this);
  }
  if (!d.compiled) return std::nullopt;
  const auto v = d.compiled->code->value_with(d.compiled->root, ints, static_cast<int>(args.size()));
  if (!v) return std::nullopt;
  return d.compiled->truth ? Value::boolean(*v != 0) : Value::integer(*v);
}

// A chain's call of itself in tail position (`none_divides(k, d + 1)` as the else of the last
// `if`) goes on in the same frame, as a loop: the result is the same, and a step costs neither
// a C++ frame nor a memo entry. Each step still counts against --max-depth, as the nested
// call it stands for does.
Value Interpreter::body_of(DefEntry& d, Frame& frame) {
  const Expr* at = d.decl->body.get();
  if (d.recursive != 2) return eval(*at, frame);
  std::vector<Value> args;
  for (int steps = 1;; ++steps) {
    while (at->kind == ExprKind::If) {
      at = condition(*at->args[0], frame, "the condition of `if`") ? at->args[1].get() : at->args[2].get();
    }
    const Expr* callee = at->kind == ExprKind::Call && at->clauses.empty() ? at->args[0].get() : nullptr;
    if (!callee || callee->kind != ExprKind::Name || callee->binding.to != Binding::To::Def ||
        &w_.defs[static_cast<std::size_t>(callee->binding.index)] != &d) {
      return eval(*at, frame);
    }
    if ((steps & 0xFFF) == 0) check_interrupt();
    args.clear();
    for (std::size_t i = 1; i < at->args.size(); ++i) args.push_back(eval(*at->args[i], frame));
    // Step s stands for the call nested s deeper than this one, which call() lets through
    // while its depth (this call's, depth_ - 1, plus s) is below the limit.
    if (depth_ - 1 + steps >= w_.max_depth) {
      throw Error(ErrorKind::Limit,
                  "function calls nested deeper than " + std::to_string(w_.max_depth) + " (in " + d.decl->name + ")",
                  "raise the limit with --max-depth N, or write the function without deep recursion", at->where);
    }
    std::fill(frame.begin(), frame.end(), Value());
    std::move(args.begin(), args.end(), frame.begin());
    at = d.decl->body.get();
  }
}

Value Interpreter::call_builtin(const Expr& e, int which, Frame& frame) {
  const auto b = static_cast<Builtin>(which);
  const BuiltinInfo& info = kBuiltins[which];
  BuiltinCall c{*this, b, &e, &frame, {}, e.where, e.args.size() > 1 ? e.args[1]->where : e.where};
  if (info.as_written) return info.fn(c);
  if (e.shortcut.query_game >= 0) {
    if (auto v = query_of_call(b, e, frame)) return *v;
  }
  if (e.shortcut.fold_clauses) {
    std::vector<Value> listed;
    if (auto v = fold(e, b, frame, listed)) return *v;
    if (!listed.empty()) c.args.push_back(Value::list(std::move(listed)));  // a sum of positions
  }
  if (!c.args.empty()) {
    // the elements listed by fold()
  } else if (!e.clauses.empty()) {  // a generator argument: the list it makes
    std::vector<Value> items;
    each(e.clauses, 0, frame, [&] {
      check_growth(items, e.where);
      items.push_back(eval(*e.args.back(), frame));
    });
    c.args.push_back(Value::list(std::move(items)));
  } else {
    for (std::size_t i = 1; i < e.args.size(); ++i) c.args.push_back(eval(*e.args[i], frame));
  }
  return info.fn(c);
}

Value Interpreter::position_of(const GameInstance* g, std::vector<Value> args, const Expr& call) {
  const int arity = g->rules().state_arity();
  if (static_cast<int>(args.size()) != arity) {
    fail_at(call.where, g->display_name() + " takes " + std::to_string(arity) +
                            (arity == 1 ? " value, got " : " values, got ") + std::to_string(args.size()));
  }
  Value state = args.size() == 1 ? args[0] : Value::tuple(std::move(args));
  std::string why = g->rules().check_position(*g, state);
  if (!why.empty()) fail_at(call.where, why);
  return Value::position(g, std::move(state));
}

// ---- what the queries take ----

Sum Interpreter::sum_of(const Value& v, Where where, Builtin which) {
  const std::string query(kBuiltins[static_cast<int>(which)].name);
  if (v.is(Kind::Sum) && v.modifier() != Modifier::Normal) {
    const bool misere = v.modifier() == Modifier::Misere;
    if (which == Builtin::Grundy) {
      fail_at(where,
              std::string("grundy(") + (misere ? "misere" : "every") +
                  " X) has no meaning: the nim-value is a normal-play notion",
              misere ? "ask outcome(misere X), wins(misere X), winning(misere X) or genus(X)"
                     : "ask outcome(every X), wins(every X), winning(every X) or steps(X)");
    }
    if (which == Builtin::Steps && misere) {
      fail_at(where, "steps is the remoteness of Every-SG play; it has no meaning under misere",
              "ask steps(X) or steps(every X)");
    }
    if (which == Builtin::Genus) {
      fail_at(where, "genus takes a normal-play position or sum, not a modified one",
              "ask genus(X): it already describes X in misere play");
    }
  }
  Sum o;
  if (v.is(Kind::Int) && v.as_int() == 0) return o;  // 0 is the empty sum, as it prints
  if (v.is(Kind::Position)) {
    o.parts.push_back(Position{v.game(), v.state()});
  } else if (v.is(Kind::Sum)) {
    for (const Value& p : v.parts()) {
      if (p.is(Kind::Sum)) {
        for (const Value& q : p.parts()) o.parts.push_back(Position{q.game(), q.state()});
      } else {
        o.parts.push_back(Position{p.game(), p.state()});
      }
    }
  } else if (v.is(Kind::Game)) {
    fail_at(where, query + " needs a position, got the game " + shown(v),
            "give it a state: " + shown(v) + "(10)");
  } else {
    fail_at(where, query + " needs a position or a sum, got " + describe(v));
  }
  if (Evaluator::any_loopy(o)) {
    if (v.modifier() != Modifier::Normal) {
      fail_at(where,
              std::string(v.modifier() == Modifier::Misere ? "misere" : "every") +
                  " play of a loopy game has no theory (play that may go on for ever, under " +
                  (v.modifier() == Modifier::Misere ? "misere" : "every") + " rules)",
              "ask outcome(X) of normal play, where a draw is D");
    }
    if (which == Builtin::Genus || which == Builtin::Steps) {
      fail_at(where, query + " does not take a loopy game: play from it may go on for ever",
              "ask grundy(X), outcome(X) or remoteness(X)");
    }
  }
  return o;
}

Value Interpreter::every_sum(const Expr& operand, Frame& frame) {
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

}  // namespace grundy::lang
