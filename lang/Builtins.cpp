// The builtin functions, and the table of every builtin (lang/BuiltinTable.hpp): one entry,
// {name, arity, signature, function}, per builtin; the queries are in lang/Queries.cpp.
#include <algorithm>

#include "lang/BuiltinTable.hpp"
#include "lang/Faults.hpp"
#include "lang/Interpreter.hpp"
#include "lang/Queries.hpp"
#include "runtime/Checked.hpp"
#include "runtime/Mex.hpp"

namespace grundy::lang {

namespace {

const char* name_of(const BuiltinCall& c) { return kBuiltins[static_cast<std::size_t>(c.which)].name.data(); }

// min and max: of their arguments, or of the one collection given.
Value extremum(BuiltinCall& c, bool least) {
  // min(a, b) of two integers, the common case in rules (`1..min(m, n)`), without a list.
  if (c.args.size() == 2 && c.args[0].is(Kind::Int) && c.args[1].is(Kind::Int)) {
    const std::int64_t a = c.args[0].as_int(), b = c.args[1].as_int();
    return Value::integer(least ? std::min(a, b) : std::max(a, b));
  }
  const char* name = name_of(c);
  std::vector<Value> listed;
  const std::vector<Value>& xs = c.args.size() == 1 ? c.in.items_in(c.args[0], c.arg0, name, listed) : c.args;
  if (xs.empty()) fail_at(c.arg0, std::string(name) + " of an empty collection");
  Value best = xs[0];
  for (const Value& x : xs) {
    if (x.kind() != best.kind()) fail_at(c.arg0, std::string(name) + " of mixed kinds of values");
    if (least ? x < best : best < x) best = x;
  }
  return best;
}

Value builtin_min(BuiltinCall& c) { return extremum(c, true); }
Value builtin_max(BuiltinCall& c) { return extremum(c, false); }

Value builtin_abs(BuiltinCall& c) {
  const std::int64_t x = need_int(c.args[0], c.arg0, "abs");
  std::int64_t r = 0;
  if (checked::abs(x, r) != checked::Fault::None) overflow(c.at, "abs(" + std::to_string(x) + ")");
  return Value::integer(r);
}

Value builtin_len(BuiltinCall& c) {
  const Value& x = c.args[0];
  if (x.is(Kind::Range)) {
    const std::int64_t lo = x.range_lo(), hi = x.range_hi();
    if (hi < lo) return Value::integer(0);
    std::int64_t n = 0;
    if (__builtin_sub_overflow(hi, lo, &n) || n == INT64_MAX) overflow(c.at, "len(" + to_string(x) + ")");
    return Value::integer(n + 1);
  }
  if (x.is(Kind::Str)) return Value::integer(static_cast<std::int64_t>(x.as_str().size()));
  if (x.is(Kind::Sum)) return Value::integer(static_cast<std::int64_t>(x.parts().size()));
  return Value::integer(static_cast<std::int64_t>(elements_of(x, c.arg0, "len").size()));
}

// Of integers, or of positions: then their disjunctive sum.
Value builtin_sum(BuiltinCall& c) {
  std::vector<Value> listed;
  const std::vector<Value>& xs = c.in.items_in(c.args[0], c.arg0, "sum", listed);
  if (!xs.empty() && is_gamey(xs[0])) {
    std::vector<Value> parts;
    for (const Value& x : xs) {
      if (!is_gamey(x) || x.modifier() != Modifier::Normal)
        fail_at(c.arg0, "sum of positions met " + describe(x));
      if (x.is(Kind::Sum)) parts.insert(parts.end(), x.parts().begin(), x.parts().end());
      else parts.push_back(x);
    }
    return Value::sum(std::move(parts));
  }
  std::int64_t total = 0;
  for (const Value& x : xs) {
    const std::int64_t y = need_int(x, c.arg0, "an element of sum");
    std::int64_t next = 0;
    if (__builtin_add_overflow(total, y, &next)) overflow(c.at, "+", total, y);
    total = next;
  }
  return Value::integer(total);
}

Value builtin_sorted(BuiltinCall& c) {
  std::vector<Value> xs = c.in.items_of(c.args[0], c.arg0, "sorted");
  std::sort(xs.begin(), xs.end());
  return Value::list(std::move(xs));
}

Value builtin_mex(BuiltinCall& c) {
  std::vector<bool> seen;
  std::vector<Value> listed;
  for (const Value& x : c.in.items_in(c.args[0], c.arg0, "mex", listed)) {
    const std::int64_t v = need_int(x, c.arg0, "an element of mex");
    if (v >= 0 && v < (1 << 24)) {
      if (static_cast<std::size_t>(v) >= seen.size()) seen.resize(static_cast<std::size_t>(v) + 1);
      seen[static_cast<std::size_t>(v)] = true;
    }
  }
  return Value::integer(mex(seen));
}

// The index argument i of update or remove, within the list's bounds.
std::size_t index_arg(const BuiltinCall& c, std::size_t size, const char* what) {
  const Where at = c.e->args[2]->where;
  const std::int64_t i = need_int(c.args[1], at, what);
  if (i < 0 || static_cast<std::size_t>(i) >= size)
    fail_at(at, "index " + std::to_string(i) + " is out of range");
  return static_cast<std::size_t>(i);
}

Value builtin_update(BuiltinCall& c) {
  const Value& x = c.args[0];
  if (!x.is(Kind::List) && !x.is(Kind::Tuple))
    fail_at(c.arg0, "update needs a list or tuple, got " + describe(x));
  std::vector<Value> xs = x.items();
  xs[index_arg(c, xs.size(), "the index of update")] = c.args[2];
  return x.is(Kind::List) ? Value::list(std::move(xs)) : Value::tuple(std::move(xs));
}

Value builtin_remove(BuiltinCall& c) {
  const Value& x = c.args[0];
  if (x.is(Kind::Set)) {
    std::vector<Value> xs;
    for (const Value& y : x.items()) {
      if (y != c.args[1]) xs.push_back(y);
    }
    return Value::set(std::move(xs));
  }
  if (!x.is(Kind::List)) fail_at(c.arg0, "remove needs a list or set, got " + describe(x));
  std::vector<Value> xs = x.items();
  xs.erase(xs.begin() + static_cast<std::ptrdiff_t>(index_arg(c, xs.size(), "the index of remove")));
  return Value::list(std::move(xs));
}

// Every element a boolean, as `if` asks of its condition: `all([1])` is an error, not true.
// (A generator argument has made its whole list first: what is asked must not fail.)
Value truth_of(BuiltinCall& c, bool all) {
  std::vector<Value> listed;
  const char* name = all ? "all" : "any";
  bool found = false;
  for (const Value& x : c.in.items_in(c.args[0], c.arg0, name, listed)) {
    if (!x.is(Kind::Bool)) fail_at(c.arg0, std::string("an element of ") + name + " must be a boolean, got " + describe(x));
    if (x.as_bool() != all) found = true;
  }
  return Value::boolean(all ? !found : found);
}
Value builtin_all(BuiltinCall& c) { return truth_of(c, true); }
Value builtin_any(BuiltinCall& c) { return truth_of(c, false); }

Value builtin_list(BuiltinCall& c) { return Value::list(c.in.items_of(c.args[0], c.arg0, "list")); }
Value builtin_set(BuiltinCall& c) { return Value::set(c.in.items_of(c.args[0], c.arg0, "set")); }

}  // namespace

const BuiltinInfo kBuiltins[static_cast<int>(Builtin::Count_)] = {
    {"grundy", 1, 1, "grundy(X): the nim-value of a position or sum", query_grundy},
    {"outcome", 1, 1, "outcome(X): N if the player to move wins, P if not, D for a loopy game's draw",
     query_play},
    {"wins", 1, 1, "wins(X): true if the player to move wins", query_play},
    {"options", 1, 1, "options(X): the positions X can move to", query_play},
    {"winning", 1, 1, "winning(X): the options that win", query_play},
    {"draws", 1, 1, "draws(X): true if play from X goes on for ever (a loopy game's D)", query_loopy},
    {"drawing", 1, 1, "drawing(X): the options that keep a draw", query_loopy},
    {"remoteness", 1, 1, "remoteness(X): moves to the end under best play; inf for a draw", query_loopy},
    {"table", 1, 1, "table(EXPR for x in A) or table(EXPR for a in A for b in B)", query_table, true},
    {"period", 1, 2, "period(G), period(G, limit) or period(Q)", query_period},
    {"steps", 1, 1, "steps(X): the remoteness of Every-SG play", query_steps},
    {"quotient", 1, 2, "quotient(G) or quotient(G, hmax): the misere quotient of a heap game",
     query_quotient},
    {"size", 1, 1, "size(Q): the number of elements of a quotient", query_quotient_part},
    {"psize", 1, 1, "psize(Q): the number of its P-elements", query_quotient_part},
    {"tame", 1, 1, "tame(Q): whether it is a quotient of misere Nim", query_quotient_part},
    {"presentation", 1, 1, "presentation(Q): generators, relations and P", query_quotient_part},
    {"phi", 2, 2, "phi(Q, n): the element of heap n, as a word", query_quotient_part},
    {"dot", 1, 1, "dot(X): the positions reachable from X as a Graphviz DOT graph", query_dot},
    {"plot", 2, 2, "plot(FILE, EXPR for n in A..B) or plot(FILE, EXPR for a in A for b in B): a picture, SVG or PNG",
     query_plot, true},
    {"genus", 1, 1, "genus(X): Conway's misere genus, e.g. 0^120", query_genus},
    {"min", 1, -1, "min(a, b, ...) or min(collection)", builtin_min},
    {"max", 1, -1, "max(a, b, ...) or max(collection)", builtin_max},
    {"abs", 1, 1, "abs(n)", builtin_abs},
    {"len", 1, 1, "len(collection)", builtin_len},
    {"sum", 1, 1, "sum(collection): of ints, or of positions (a sum)", builtin_sum},
    {"sorted", 1, 1, "sorted(collection): a sorted list", builtin_sorted},
    {"mex", 1, 1, "mex(collection): the least non-negative int not in it", builtin_mex},
    {"update", 3, 3, "update(list, i, v): a new list with index i set to v", builtin_update},
    {"remove", 2, 2, "remove(list, i) or remove(set, x)", builtin_remove},
    {"list", 1, 1, "list(collection)", builtin_list},
    {"set", 1, 1, "set(collection)", builtin_set},
    {"all", 1, 1, "all(collection): true if every element is true (true when empty)", builtin_all},
    {"any", 1, 1, "any(collection): true if some element is true (false when empty)", builtin_any},
};

}  // namespace grundy::lang
