// The builtin functions and queries, by number; the resolver binds names to these numbers
// and the machine dispatches on them.
#pragma once

#include <string_view>

namespace grundy::lang {

enum class Builtin : int {
  // queries (section 5 of the language), first and ending with Genus (is_query)
  Grundy,
  Outcome,
  Wins,
  Options,
  Winning,
  Table,
  Period,
  Steps,
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
  Count_
};

// Whether a builtin asks about positions (so its result depends on games, not only on its
// arguments' values).
constexpr bool is_query(int builtin) { return builtin <= static_cast<int>(Builtin::Genus); }

struct BuiltinInfo {
  std::string_view name;
  int min_args;
  int max_args;  // -1: any number
  std::string_view signature;
};

inline constexpr BuiltinInfo kBuiltins[] = {
    {"grundy", 1, 1, "grundy(X): the nim-value of a position or sum"},
    {"outcome", 1, 1, "outcome(X): N if the player to move wins, else P"},
    {"wins", 1, 1, "wins(X): true if the player to move wins"},
    {"options", 1, 1, "options(X): the positions X can move to"},
    {"winning", 1, 1, "winning(X): the options that win"},
    {"table", 1, 1, "table(EXPR for x in A) or table(EXPR for a in A for b in B)"},
    {"period", 1, 2, "period(G) or period(G, limit)"},
    {"steps", 1, 1, "steps(X): the remoteness of Every-SG play"},
    {"genus", 1, 1, "genus(X): Conway's misere genus, e.g. 0^120"},
    {"min", 1, -1, "min(a, b, ...) or min(collection)"},
    {"max", 1, -1, "max(a, b, ...) or max(collection)"},
    {"abs", 1, 1, "abs(n)"},
    {"len", 1, 1, "len(collection)"},
    {"sum", 1, 1, "sum(collection): of ints, or of positions (a sum)"},
    {"sorted", 1, 1, "sorted(collection): a sorted list"},
    {"mex", 1, 1, "mex(collection): the least non-negative int not in it"},
    {"update", 3, 3, "update(list, i, v): a new list with index i set to v"},
    {"remove", 2, 2, "remove(list, i) or remove(set, x)"},
    {"list", 1, 1, "list(collection)"},
    {"set", 1, 1, "set(collection)"},
};
static_assert(sizeof(kBuiltins) / sizeof(kBuiltins[0]) == static_cast<int>(Builtin::Count_));

}  // namespace grundy::lang
