#include "lang/Shortcuts.hpp"

#include "lang/Faults.hpp"
#include "lang/Interpreter.hpp"
#include "runtime/BoxTable.hpp"

namespace grundy::lang {

namespace {

bool is_builtin_call(const Expr& e, Builtin b) {
  if (e.kind != ExprKind::Call) return false;
  const Expr& callee = *e.args[0];
  return callee.kind == ExprKind::Name && callee.binding.to == Binding::To::Builtin &&
         callee.binding.index == static_cast<int>(b);
}

// A game that answers from its table by its name alone: no parameters, not an alias.
bool plain_game(const GameEntry& entry) {
  return entry.param_count == 0 && !(entry.decl && entry.decl->form == GameDecl::Form::Alias);
}

// The game G of `grundy(G(...))`, G a plain game: -1 for any other expression.
int grundy_game(const Expr& e, const World& w) {
  if (!is_builtin_call(e, Builtin::Grundy) || e.args.size() != 2 || !e.clauses.empty()) return -1;
  const Expr& arg = *e.args[1];
  if (arg.kind != ExprKind::Call || arg.args.size() < 2 || !arg.clauses.empty()) return -1;
  const Expr& game = *arg.args[0];
  if (game.kind != ExprKind::Name || game.binding.to != Binding::To::Game) return -1;
  return plain_game(w.games[static_cast<std::size_t>(game.binding.index)]) ? game.binding.index : -1;
}

// The same for `grundy(G(v))` where v is the local in `slot`.
int heap_game(const Expr& e, int slot, const World& w) {
  const int g = grundy_game(e, w);
  if (g < 0 || e.args[1]->args.size() != 2) return -1;
  const Expr& n = *e.args[1]->args[1];
  return n.kind == ExprKind::Name && n.binding.to == Binding::To::Local && n.binding.index == slot ? g : -1;
}

// Whether evaluating e may read the local in `slot`.
bool reads_local(const Expr& e, int slot) {
  if (e.kind == ExprKind::Name && e.binding.to == Binding::To::Local && e.binding.index == slot) return true;
  for (const ExprPtr& a : e.args) {
    if (a && reads_local(*a, slot)) return true;
  }
  for (const Clause& c : e.clauses) {
    if (c.expr && reads_local(*c.expr, slot)) return true;
  }
  return false;
}

// As heap_game, and also for `grundy(G[p, ...](v))` whose parameters do not read v: the same
// instance at every step of the loop.
int heap_game_of_loop(const Expr& e, int slot, const World& w) {
  if (const int g = heap_game(e, slot, w); g >= 0) return g;
  if (!is_builtin_call(e, Builtin::Grundy) || e.args.size() != 2 || !e.clauses.empty()) return -1;
  const Expr& arg = *e.args[1];
  if (arg.kind != ExprKind::Call || arg.args.size() != 2 || !arg.clauses.empty()) return -1;
  const Expr& callee = *arg.args[0];
  const Expr& n = *arg.args[1];
  if (callee.kind != ExprKind::Index || n.kind != ExprKind::Name || n.binding.to != Binding::To::Local ||
      n.binding.index != slot) {
    return -1;
  }
  const Expr& game = *callee.args[0];
  if (game.kind != ExprKind::Name || game.binding.to != Binding::To::Game) return -1;
  const GameEntry& entry = w.games[static_cast<std::size_t>(game.binding.index)];
  if ((entry.decl && entry.decl->form == GameDecl::Form::Alias) ||
      entry.param_count != static_cast<int>(callee.args.size()) - 1) {
    return -1;
  }
  for (std::size_t i = 1; i < callee.args.size(); ++i) {
    if (reads_local(*callee.args[i], slot)) return -1;
  }
  return game.binding.index;
}

// The `grundy(G(v))` that evaluating `e` always evaluates: `e` itself, or an operand of an
// operator that evaluates both (not and/or, which may skip the second).
const Expr* always_asked(const Expr& e, int slot, const World& w) {
  if (heap_game(e, slot, w) >= 0) return &e;
  if (e.kind == ExprKind::Unary) return always_asked(*e.args[0], slot, w);
  if (e.kind != ExprKind::Binary || e.op == BinOp::And || e.op == BinOp::Or) return nullptr;
  if (const Expr* q = always_asked(*e.args[0], slot, w)) return q;
  return always_asked(*e.args[1], slot, w);
}

// A range bound that may be evaluated once more at no cost: numbers, names, arithmetic.
bool plain_bound(const Expr& e) {
  if (e.kind == ExprKind::Int || e.kind == ExprKind::Name) return true;
  if (e.kind == ExprKind::Unary) return plain_bound(*e.args[0]);
  return e.kind == ExprKind::Binary && plain_bound(*e.args[0]) && plain_bound(*e.args[1]);
}

// A loop `for n in lo..hi` that asks grundy(G(n)) at every step (in the element, or in the
// first `if`): asked heap by heap, the compiled rules fill G's table a heap per query, each
// with a search of its own (3x the time).
void mark_prefetch(Shortcut& s, const std::vector<Clause>& clauses, const Expr& element, const World& w) {
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
  s.prefetch = always_asked(*asked, c.slots[0], w);
  s.prefetch_range = c.expr.get();
  s.prefetch_slot = c.slots[0];
}

void lower(Expr& e, const World& w);

void lower(std::vector<Clause>& clauses, const World& w) {
  for (Clause& c : clauses) {
    if (c.expr) lower(*c.expr, w);
  }
}

void lower(Expr& e, const World& w) {
  for (ExprPtr& a : e.args) lower(*a, w);
  lower(e.clauses, w);
  Shortcut& s = e.shortcut;
  if ((e.kind == ExprKind::List || e.kind == ExprKind::Set || e.kind == ExprKind::Tuple) &&
      !e.clauses.empty()) {
    mark_prefetch(s, e.clauses, *e.args[0], w);
    return;
  }
  if (e.kind != ExprKind::Call) return;
  // table(E for ...) and plot(FILE, E for ...): E is the generator's element.
  if ((is_builtin_call(e, Builtin::Table) && e.args.size() == 2) ||
      (is_builtin_call(e, Builtin::Plot) && e.args.size() == 3)) {
    mark_prefetch(s, e.clauses, *e.args.back(), w);
    return;
  }
  const bool query = is_builtin_call(e, Builtin::Grundy) || is_builtin_call(e, Builtin::Wins) ||
                     is_builtin_call(e, Builtin::Outcome);
  if (query && e.clauses.empty() && e.args.size() == 2) {
    const Expr& arg = *e.args[1];
    const std::size_t n = arg.kind == ExprKind::Call ? arg.args.size() - 1 : 0;
    const Expr* callee = arg.kind == ExprKind::Call ? arg.args[0].get() : nullptr;
    if (callee && callee->kind == ExprKind::Name && callee->binding.to == Binding::To::Game && n >= 1 &&
        n <= static_cast<std::size_t>(kMaxBoxArity)) {
      s.query_game = callee->binding.index;
      // The arguments as they usually are in a tabulation: loop variables and integers.
      s.table_read = grundy_game(e, w) >= 0;
      for (std::size_t i = 1; s.table_read && i < arg.args.size(); ++i) {
        const Expr& x = *arg.args[i];
        s.table_read =
            x.kind == ExprKind::Int || (x.kind == ExprKind::Name && x.binding.to == Binding::To::Local);
      }
    }
    return;
  }
  if ((is_builtin_call(e, Builtin::Sum) || is_builtin_call(e, Builtin::Len)) && e.args.size() == 2) {
    if (!e.clauses.empty()) {  // sum(x for x in ...)
      s.fold_clauses = &e.clauses;
      s.fold_element = e.args[1].get();
    } else {  // sum([x for x in ...])
      const Expr& a = *e.args[1];
      if (a.kind != ExprKind::List || a.clauses.empty() || a.args.size() != 1) return;
      s.fold_clauses = &a.clauses;
      s.fold_element = a.args[0].get();
    }
    const std::vector<Clause>& cs = *s.fold_clauses;
    if (cs.size() == 1 && cs[0].kind == Clause::Kind::For && cs[0].slots.size() == 1 &&
        cs[0].expr->kind == ExprKind::Range) {
      s.fold_heaps_game = heap_game_of_loop(*s.fold_element, cs[0].slots[0], w);
    }
    mark_prefetch(s, cs, *s.fold_element, w);
  }
}

}  // namespace

void lower_shortcuts(Program& p, const World& w) {
  for (Stmt& s : p.stmts) {
    if (s.expr) lower(*s.expr, w);
    if (s.def && s.def->body) lower(*s.def->body, w);
    if (!s.game) continue;
    if (s.game->expr) lower(*s.game->expr, w);
    for (GameItem& it : s.game->items) {
      for (ExprPtr& e : it.exprs) lower(*e, w);
      lower(it.clauses, w);
    }
  }
}

// ---- the interpreter's side ----

namespace {
// Whether integers given to G are G's coordinates as its tables hold them: not where the
// compiled rules hold a set or a list as a word (`S(7)` of a game whose state is a set must
// fail as its rules do, not read the table at the set {0, 1, 2}).
bool integer_coordinates(const GameInstance& g) { return !g.plan().packing().any(); }
}  // namespace

std::optional<std::uint64_t> Interpreter::known_grundy(const Expr& e, Frame& frame) {
  const GameEntry& entry = w_.games[static_cast<std::size_t>(e.shortcut.query_game)];
  if (!entry.plain || !plain_game(entry) || !integer_coordinates(*entry.plain)) return std::nullopt;
  const Expr& arg = *e.args[1];
  const std::size_t n = arg.args.size() - 1;
  Coords c{};
  for (std::size_t i = 0; i < n; ++i) {
    const Expr& x = *arg.args[i + 1];
    if (x.kind == ExprKind::Int) {
      c[i] = x.ival;
      continue;
    }
    const Value& v = frame[static_cast<std::size_t>(x.binding.index)];
    if (!v.is(Kind::Int)) return std::nullopt;
    c[i] = v.as_int();
  }
  auto v = ev_.known_table_value(*entry.plain, c.data(), static_cast<int>(n));
  // A guarded game answers only for its positions: the caller builds the position then.
  if (v && entry.plain->rules().has_guard()) return std::nullopt;
  return v;
}

// A guarded game (`state n if n >= 0`) answers from its table only for its positions; the
// others fail as building them would.
void Interpreter::check_guard(const GameInstance& g, const std::int64_t* c, std::size_t n, const Expr& call) {
  if (!g.rules().has_guard()) return;
  std::vector<Value> items;
  for (std::size_t i = 0; i < n; ++i) items.push_back(Value::integer(c[i]));
  const Value state = n == 1 ? items[0] : Value::tuple(std::move(items));
  const std::string why = g.rules().check_position(g, state);
  if (!why.empty()) fail_at(call.where, why);
}

std::optional<Value> Interpreter::query_of_call(Builtin b, const Expr& e, Frame& frame) {
  const Expr& arg = *e.args[1];
  const Expr& callee = *arg.args[0];
  const std::size_t n = arg.args.size() - 1;
  GameEntry& entry = w_.games[static_cast<std::size_t>(e.shortcut.query_game)];
  const bool alias = entry.decl && entry.decl->form == GameDecl::Form::Alias;
  const GameInstance* g =
      entry.plain && !alias && entry.plain->planned() ? entry.plain : instance(entry, {}, callee.where);
  if (g->rules().loopy()) return std::nullopt;  // values inf{K} and draws: the query as written
  // Integer arguments go straight to the table; anything else builds the position.
  Coords c{};
  std::size_t i = 0;
  Value v;
  for (; i < n; ++i) {
    v = eval(*arg.args[i + 1], frame);
    if (!v.is(Kind::Int)) break;
    c[i] = v.as_int();
  }
  auto answer = [b](bool wins) {
    return b == Builtin::Wins ? Value::boolean(wins) : Value::outcome(wins ? 'N' : 'P');
  };
  if (i == n && g->rules().state_arity() == static_cast<int>(n) && integer_coordinates(*g)) {
    check_guard(*g, c.data(), n, arg);
    if (b == Builtin::Grundy) {
      if (auto x = ev_.table_value(*g, c.data(), static_cast<int>(n)))
        return Value::integer(static_cast<std::int64_t>(*x));
    } else if (auto w = ev_.table_wins(*g, c.data(), static_cast<int>(n))) {
      return answer(*w);
    }
  }
  std::vector<Value> args;
  for (std::size_t j = 0; j < i; ++j) args.push_back(Value::integer(c[j]));
  if (i < n) {
    args.push_back(std::move(v));
    for (std::size_t j = i + 1; j < n; ++j) args.push_back(eval(*arg.args[j + 1], frame));
  }
  const Sum sum = sum_of(position_of(g, std::move(args), arg), arg.where, b);
  if (b == Builtin::Grundy) return Value::integer(static_cast<std::int64_t>(ev_.grundy(sum)));
  return answer(ev_.wins(sum));
}

std::optional<Value> Interpreter::fold(const Expr& e, Builtin b, Frame& frame, std::vector<Value>& listed) {
  const std::vector<Clause>& clauses = *e.shortcut.fold_clauses;
  const Expr& element = *e.shortcut.fold_element;
  const Where at = e.where, arg0 = e.args[1]->where;
  if (e.shortcut.fold_heaps_game >= 0) {
    const GameEntry& entry = w_.games[static_cast<std::size_t>(e.shortcut.fold_heaps_game)];
    const bool with_params = element.args[1]->args[0]->kind == ExprKind::Index;
    if (with_params ? entry.param_count > 0 : plain_game(entry)) {
      if (auto v = fold_heaps(e, entry, b, frame)) return v;
    }
  }
  if (e.shortcut.prefetch) prefetch(e, frame);
  std::int64_t count = 0, total = 0;
  bool fell_back = false;
  each(clauses, 0, frame, [&] {
    Value x = eval(element, frame);
    if (fell_back) {
      check_growth(listed, e.where);
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

void Interpreter::prefetch(const Expr& e, Frame& frame) {
  const Shortcut& s = e.shortcut;
  const Expr& query = *s.prefetch;
  const GameEntry& entry = w_.games[static_cast<std::size_t>(query.args[1]->args[0]->binding.index)];
  if (!plain_game(entry)) return;
  const Value range = eval(*s.prefetch_range, frame);
  if (!range.is(Kind::Range)) return;
  check_loop(range, s.prefetch_range->where);
  ask_last(range, s.prefetch_slot, query, frame);
}

void Interpreter::ask_last(const Value& range, int slot, const Expr& query, Frame& frame) {
  // From a negative heap on, the loop fails at its first step: that error, not one at hi.
  if (range.range_hi() < range.range_lo() || range.range_lo() < 0) return;
  frame[static_cast<std::size_t>(slot)] = Value::integer(range.range_hi());
  (void)eval(query, frame);
}

// The fold of `grundy(G(n)) for n in lo..hi`, G a game of one integer: its table is filled to
// hi first (as the loop would fill it, a heap at a time) and then read in a tight loop.
std::optional<Value> Interpreter::fold_heaps(const Expr& e, const GameEntry& entry, Builtin b, Frame& frame) {
  const Clause& c = (*e.shortcut.fold_clauses)[0];
  const Expr& element = *e.shortcut.fold_element;
  const Where at = e.where;
  // A range written as such evaluates to a range (or fails as the loop would).
  const Value range = eval(*c.expr, frame);
  check_loop(range, c.expr->where);
  const std::int64_t lo = range.range_lo(), hi = range.range_hi();
  if (hi < lo) return Value::integer(0);
  // The steps of the whole loop, as it would count them (check_loop made sure they are left).
  count_steps(static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1, c.expr->where);
  ask_last(range, c.slots[0], element, frame);
  Value& slot = frame[static_cast<std::size_t>(c.slots[0])];
  // Made by the query, when G is a game of one integer; G[p, ...] made again from its parameters,
  // which the loop does not change.
  const Expr& callee = *element.args[1]->args[0];
  const GameInstance* g = callee.kind == ExprKind::Index ? eval(callee, frame).game() : entry.plain;
  if (g && !integer_coordinates(*g)) g = nullptr;
  // A guarded game's heaps read from the table are positions all the same: each is asked.
  const bool guarded = g && g->rules().has_guard();
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
    for (std::size_t i = 0; i < known && guarded; ++i) {
      const std::int64_t heap = x + static_cast<std::int64_t>(i);
      check_guard(*g, &heap, 1, *element.args[1]);
    }
    // Each value checked: a run formula's values reach 2^63 - 1.
    for (std::size_t i = 0; i < known; ++i) add(static_cast<std::int64_t>(block[i]));
    if (static_cast<std::uint64_t>(known) == left) break;
    x += static_cast<std::int64_t>(known);
  }
  if (b == Builtin::Len) {
    return Value::integer(
        static_cast<std::int64_t>(static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1));
  }
  return Value::integer(total);
}

}  // namespace grundy::lang
