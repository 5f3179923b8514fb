// The builtin functions and queries, by number: the resolver binds names to these numbers
// and checks their arities here, the interpreter calls the function each entry names. One
// entry per builtin (lang/Builtins.cpp defines them, the queries in lang/Queries.cpp).
#pragma once

#include <string_view>
#include <vector>

#include "lang/Ast.hpp"
#include "runtime/Value.hpp"

namespace grundy::lang {

class Interpreter;
using Frame = std::vector<Value>;

enum class Builtin : int {
  // queries (section 5 of the language), first and ending with Genus (is_query)
  Grundy,
  Outcome,
  Wins,
  Options,
  Winning,
  Draws,
  Drawing,
  Remoteness,
  Table,
  Period,
  Steps,
  Quotient,
  Size,
  Psize,
  Tame,
  Presentation,
  Phi,
  Dot,
  Plot,
  Genus,
  // functions
  Min,
  Max,
  Abs,
  Len,
  Sum,
  Sorted,
  Mex,
  Update,
  Remove,
  List,
  Set,
  All,
  Any,
  Count_
};

// Whether a builtin asks about positions (so its result depends on games, not only on its
// arguments' values).
constexpr bool is_query(int builtin) { return builtin <= static_cast<int>(Builtin::Genus); }

// A builtin at work: its call in the program, the frame it runs in, and its arguments,
// evaluated (a generator argument, `min(x for x in S)`, is the list it makes) unless the
// builtin takes them as written.
struct BuiltinCall {
  Interpreter& in;
  Builtin which;
  const Expr* e;  // the call as written; null for a query asked from outside a program (play)
  Frame* frame;
  std::vector<Value> args;
  Where at;    // the call
  Where arg0;  // its first argument
};
using BuiltinFn = Value (*)(BuiltinCall& call);

struct BuiltinInfo {
  std::string_view name;
  int min_args;
  int max_args;  // -1: any number
  std::string_view signature;
  BuiltinFn fn;
  bool as_written = false;  // the arguments go unevaluated (table's clauses are its own)
};

extern const BuiltinInfo kBuiltins[static_cast<int>(Builtin::Count_)];

}  // namespace grundy::lang
