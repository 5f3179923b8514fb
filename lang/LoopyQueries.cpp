// The queries of loopy games (LANGUAGE.md section 10): values, outcomes with draws, remoteness,
// and the moves that win or hold a draw, through the runtime's Smith labelling
// (runtime/Loopy.hpp) and his sum rule.
#include "lang/Faults.hpp"
#include "lang/Interpreter.hpp"
#include "lang/Queries.hpp"
#include "runtime/LoopyMoves.hpp"

namespace grundy::lang {

Value loopy_query(BuiltinCall& c, const Sum& s) {
  Evaluator& ev = c.in.evaluator();
  switch (c.which) {
    case Builtin::Grundy: {
      const LoopyValue v = ev.loopy_value(s);
      return v.finite ? Value::integer(static_cast<std::int64_t>(v.value)) : Value::loopy(v.escapes);
    }
    case Builtin::Outcome: return Value::outcome(ev.loopy_outcome(s));
    case Builtin::Wins: return Value::boolean(ev.loopy_outcome(s) == 'N');
    case Builtin::Options: return Value::list(list_loopy_options(ev, s, 0));
    case Builtin::Winning: return Value::list(list_loopy_options(ev, s, 'P'));
    default: break;
  }
  fail_at(c.arg0, "this query does not take a loopy game");
}

Value query_loopy(BuiltinCall& c) {
  const Sum s = c.in.sum_of(c.args[0], c.arg0, c.which);
  Evaluator& ev = c.in.evaluator();
  const bool loopy = Evaluator::any_loopy(s);
  switch (c.which) {
    case Builtin::Draws: return Value::boolean(loopy && ev.loopy_outcome(s) == 'D');
    case Builtin::Drawing: return Value::list(loopy ? list_loopy_options(ev, s, 'D') : std::vector<Value>{});
    case Builtin::Remoteness: {
      if (s.size() != 1) {
        fail_at(c.arg0, "remoteness takes one position, not a sum",
                "ask remoteness of each part, or outcome(X) of the sum");
      }
      const auto r = ev.loopy().remoteness(s[0]);
      return r ? Value::integer(static_cast<std::int64_t>(*r)) : Value::word("inf");
    }
    default: break;
  }
  fail_at(c.arg0, "not a loopy query");
}

}  // namespace grundy::lang
