// quotient(G) and what is read off a quotient: size, psize, tame, presentation, phi, and
// period (lang/Queries.cpp). The quotients themselves are the misère solver's
// (runtime/MisereQuotients.cpp); a quotient value names its game and heaps, and the solver
// keeps the monoid.
#include <optional>

#include "lang/Faults.hpp"
#include "lang/Interpreter.hpp"
#include "lang/Queries.hpp"
#include "runtime/Period.hpp"

namespace grundy::lang {

namespace {

std::string summary(const GameInstance& g, const MisereQuotient& q, std::int64_t heaps) {
  std::string s = "misere quotient of " + g.display_name();
  if (!q.period) s += ", heaps to " + std::to_string(q.reached);
  s += ": |Q| = " + std::to_string(q.q.size) + ", |P| = " + std::to_string(q.q.psize());
  if (q.period) {
    s += ", phi periodic from " + std::to_string(q.period->n0) + " with period " +
         std::to_string(q.period->p) + " (proven)";
  } else if (!q.stopped.empty()) {
    s += " (partial: " + q.stopped + ")";
  } else if (heaps < 0) {
    s += " (partial: no period proven by heap " + std::to_string(q.reached) + ")";
  } else {
    s += " (partial)";
  }
  return s;
}

std::shared_ptr<const MisereQuotient> quotient_arg(BuiltinCall& c, std::string_view what) {
  const Value& v = c.args[0];
  if (!v.is(Kind::Quotient)) {
    fail_at(c.arg0, std::string(what) + " needs a quotient, got " + describe(v),
            "make one with quotient(G), e.g. quotient(Kayles)");
  }
  const std::int64_t heaps = v.quotient_heaps();
  return c.in.misere().quotient(*v.game(), heaps < 0 ? std::nullopt : std::optional<std::int64_t>(heaps));
}

}  // namespace

// quotient(G) / quotient(G, hmax): runtime/Quotient.hpp.
Value query_quotient(BuiltinCall& c) {
  const Value& g = c.args[0];
  if (!g.is(Kind::Game)) {
    fail_at(c.arg0, "quotient needs a game, got " + describe(g),
            g.is(Kind::Position) ? "give the game without a state: quotient(" + g.game()->display_name() + ")"
                                 : "e.g. quotient(Kayles)");
  }
  std::optional<std::int64_t> hmax;
  if (c.args.size() > 1) {
    const Where at = c.e->args[2]->where;
    hmax = need_int(c.args[1], at, "the last heap of quotient");
    if (*hmax < 0) fail_at(at, "the last heap of quotient must be at least 0, got " + std::to_string(*hmax));
  }
  std::shared_ptr<const MisereQuotient> q;
  try {
    q = c.in.misere().quotient(*g.game(), hmax);
  } catch (Error& err) {
    if (!err.where.known()) err.where = c.at;
    throw;
  }
  return Value::quotient(g.game(), hmax.value_or(-1), summary(*g.game(), *q, hmax.value_or(-1)));
}

Value query_quotient_part(BuiltinCall& c) {
  const std::shared_ptr<const MisereQuotient> q = quotient_arg(c, kBuiltins[static_cast<int>(c.which)].name);
  switch (c.which) {
    case Builtin::Size: return Value::integer(q->q.size);
    case Builtin::Psize: return Value::integer(q->q.psize());
    case Builtin::Tame: return Value::boolean(q->tame());
    case Builtin::Presentation: return Value::string(q->names().presentation());
    case Builtin::Phi: {
      const Where at = c.e->args[2]->where;
      const std::int64_t n = need_int(c.args[1], at, "the heap of phi");
      if (n < 0) fail_at(at, "the heap of phi must be at least 0, got " + std::to_string(n));
      if (!q->covers(n)) {
        fail_at(at,
                "heap " + std::to_string(n) + " is past this quotient, which covers heaps to " +
                    std::to_string(q->reached),
                "ask quotient(" + c.args[0].game()->display_name() + ", " + std::to_string(n) + ")");
      }
      return Value::word(q->names().word(q->element(n)));
    }
    default: break;
  }
  fail_at(c.at, "not a query of quotients");
}

// period(Q): the proven period of phi, or the observed one of a partial quotient.
Value quotient_period(BuiltinCall& c) {
  const std::shared_ptr<const MisereQuotient> q = quotient_arg(c, "period");
  if (q->period) {
    return Value::tuple({Value::integer(q->period->n0), Value::integer(q->period->p), Value::word("proven")});
  }
  DenseTable phi;
  for (std::uint16_t e : q->phi) phi.push(e);
  if (const auto p = observed_period(phi)) {
    return Value::tuple({Value::integer(p->n0), Value::integer(p->p), Value::word("observed")});
  }
  fail_at(c.arg0, "phi shows no period in the heaps to " + std::to_string(q->reached) + " of this quotient",
          "a partial quotient covers only its heaps; ask quotient(G) for more");
}

}  // namespace grundy::lang
