// The query builtins (lang/BuiltinTable.hpp): grundy, outcome, wins, options, winning, steps,
// genus, period and table. They take the position or sum a value stands for
// (Interpreter::sum_of) to the runtime: the evaluator for normal play, the misère and every
// solvers under a modifier, and runtime/Moves for the options shown.
#include "lang/Queries.hpp"

#include <algorithm>

#include "lang/Faults.hpp"
#include "lang/Interpreter.hpp"
#include "lang/Table.hpp"
#include "runtime/Moves.hpp"
#include "runtime/Progress.hpp"

namespace grundy::lang {

namespace {

// What wins() or outcome() says of a position the player to move wins (or not).
Value wins_answer(Builtin b, bool wins) {
  return b == Builtin::Wins ? Value::boolean(wins) : Value::outcome(wins ? 'N' : 'P');
}

// The components of an every sum: each summand as written, a split one being a normal sum.
std::vector<Sum> every_components(const Value& v) {
  std::vector<Sum> out;
  for (const Value& p : v.parts()) {
    Sum c;
    if (p.is(Kind::Sum)) {
      for (const Value& q : p.parts()) c.parts.push_back(Position{q.game(), q.state()});
    } else {
      c.parts.push_back(Position{p.game(), p.state()});
    }
    out.push_back(std::move(c));
  }
  return out;
}

// outcome, wins, options and winning of a misère or every sum.
Value modified_query(BuiltinCall& c) {
  Interpreter& in = c.in;
  const Builtin b = c.which;
  const Value& x = c.args[0];
  const bool misere = x.modifier() == Modifier::Misere;
  const Sum all = in.sum_of(x, c.arg0, b);
  switch (b) {
    case Builtin::Wins:
    case Builtin::Outcome: {
      const bool w = misere ? in.misere().wins(all) : in.every().wins(every_components(x));
      return wins_answer(b, w);
    }
    case Builtin::Options:
    case Builtin::Winning: {
      const bool winning = b == Builtin::Winning;
      if (misere)
        return Value::list(list_options(in.evaluator(), in.misere(), all, Modifier::Misere, winning));
      if (winning && !in.every().wins(every_components(x))) return Value::list({});
      try {
        return Value::list(in.every().options(every_components(x), winning));
      } catch (Error& err) {
        if (!err.where.known()) err.where = c.arg0;
        throw;
      }
    }
    default: break;
  }
  fail_at(c.arg0, "this query does not take a modified position");
}

}  // namespace

Value query_grundy(BuiltinCall& c) {
  const Sum s = c.in.sum_of(c.args[0], c.arg0, Builtin::Grundy);
  if (Evaluator::any_loopy(s)) return loopy_query(c, s);
  return Value::integer(static_cast<std::int64_t>(c.in.evaluator().grundy(s)));
}

// outcome, wins, options and winning.
Value query_play(BuiltinCall& c) {
  const Builtin b = c.which;
  if (c.args[0].modifier() != Modifier::Normal) return modified_query(c);
  const Sum s = c.in.sum_of(c.args[0], c.arg0, b);
  if (Evaluator::any_loopy(s)) return loopy_query(c, s);
  if (b == Builtin::Outcome || b == Builtin::Wins) return wins_answer(b, c.in.evaluator().wins(s));
  return Value::list(
      list_options(c.in.evaluator(), c.in.misere(), s, Modifier::Normal, b == Builtin::Winning));
}

Value query_steps(BuiltinCall& c) {
  const Value& x = c.args[0];
  const Sum s = c.in.sum_of(x, c.arg0, Builtin::Steps);
  if (x.modifier() == Modifier::Every) {
    std::uint32_t longest = 0;
    for (const Sum& part : every_components(x)) longest = std::max(longest, c.in.every().steps(part));
    return Value::integer(longest);
  }
  return Value::integer(c.in.every().steps(s));
}

Value query_genus(BuiltinCall& c) {
  return Value::string(c.in.misere().genus(c.in.sum_of(c.args[0], c.arg0, Builtin::Genus)));
}

// period(G) / period(G, limit): (n0, p, proven) or (n0, p, observed); runtime/Period.hpp.
Value query_period(BuiltinCall& c) {
  const std::vector<Value>& args = c.args;
  if (args[0].is(Kind::Quotient) && args.size() == 1) return quotient_period(c);
  if (!args[0].is(Kind::Game)) {
    fail_at(c.arg0, "period needs a game, got " + describe(args[0]),
            args[0].is(Kind::Position)
                ? "give the game without a state: period(" + args[0].game()->display_name() + ")"
                : "e.g. period(Kayles) or period(SNim[{1, 3, 4}])");
  }
  std::optional<std::int64_t> limit;
  if (args.size() > 1) limit = need_int(args[1], c.e->args[2]->where, "the limit of period");
  const PeriodInfo r = c.in.evaluator().period(*args[0].game(), limit);
  return Value::tuple(
      {Value::integer(r.n0), Value::integer(r.p), Value::word(r.proven ? "proven" : "observed")});
}

// table(EXPR for x in A) or table(EXPR for a in A for b in B): its clauses are its own.
Value query_table(BuiltinCall& call) {
  Interpreter& in = call.in;
  const Expr& e = *call.e;
  Frame& frame = *call.frame;
  const Limits& limits = in.world().limits;
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
  data.max_cells = limits.max_rows;
  data.poll = [&limits] {
    if (heap_over(limits.max_memory)) limits.memory_exceeded("the table");
  };
  data.row_label = label_of(*fors[0]);
  if (fors.size() == 2) data.col_label = label_of(*fors[1]);
  ProgressScope bar(limits.progress, "table");  // a bar on a terminal after a second
  if (e.shortcut.prefetch) in.prefetch(e, frame);
  in.each(e.clauses, 0, frame, [&] {
    if (data.cells.size() == data.cells.capacity()) {  // the next cell doubles the vector
      const std::uint64_t more = std::max<std::size_t>(data.cells.capacity(), 1) * 2 * sizeof(TableCell);
      if (heap_over(limits.max_memory, more)) limits.memory_exceeded("the table");
    }
    Value key2 = fors.size() == 2 ? key_of(*fors[1]) : Value();
    data.cells.push_back({key_of(*fors[0]), key2, in.eval(*e.args[1], frame)});
    if (limits.progress) limits.progress->update(data.cells.size(), 0);
    data.poll();
    if (data.cells.size() > limits.max_rows) {
      throw Error(ErrorKind::Limit, "the table has more than " + std::to_string(limits.max_rows) + " cells",
                  "raise the limit with --max-rows N", e.where);
    }
  });
  std::string text = fors.size() == 2 ? render_grid(data) : render_sequence(data);
  if (!in.world().table_cells) return Value::table(std::move(text));
  std::vector<Value> cells;
  cells.reserve(data.cells.size());
  for (TableCell& c : data.cells) cells.push_back(Value::tuple({c.row, c.col, c.value}));
  return Value::table(std::move(text), {Value::string(data.row_label), Value::string(data.col_label),
                                        Value::list(std::move(cells))});
}

}  // namespace grundy::lang
