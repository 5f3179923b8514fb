// The syntax tree. Every node carries the Where of the token that names it; the resolver
// fills in the `Binding`s so that evaluation never looks a name up by string, and the
// lowering the `Shortcut`s. Plain syntax: values (runtime/Value.hpp) are made from it later.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/Error.hpp"

namespace grundy::lang {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

// What a name refers to, decided by the resolver.
struct Binding {
  enum class To : std::uint8_t {
    Unresolved,
    Local,    // a slot of the current frame: state, parameter, let, clause variable
    Global,   // a top-level let
    Game,     // a game definition
    Def,      // a function
    Builtin,  // min, max, grundy, ...
    Label,    // a node label of a graph game, in G(label)
    Constant  // N, P
  };
  To to = To::Unresolved;
  int index = -1;  // slot, global, game, def or builtin number; Label, Constant: the constant's
};

struct Clause {
  enum class Kind : std::uint8_t { For, If };
  Kind kind = Kind::For;
  Where where;
  std::vector<std::string> names;  // For: one name, or several to destructure a tuple
  std::vector<Where> name_wheres;
  std::vector<int> slots;  // filled by the resolver
  ExprPtr expr;            // the collection, or the condition
};

enum class ExprKind : std::uint8_t {
  Int,       // ival
  Str,       // text
  Bool,      // ival
  Name,      // text; binding
  Unary,     // op; args[0]
  Binary,    // op; args[0], args[1]   (and, or short-circuit)
  Modifier,  // op "misere" / "every"; args[0]
  Range,     // args[0] .. args[1]
  Call,      // args[0] callee, args[1..] arguments; clauses: a generator argument
  Index,     // args[0] base, args[1..] index or game parameters
  Tuple,     // args
  List,      // args; clauses: a comprehension of args[0]
  Set,       // args; clauses as for List
  If,        // args[0] ? args[1] : args[2]
};

// A binary operator, decided once by the parser so that evaluation does not compare strings.
enum class BinOp : std::uint8_t {
  None,
  And,
  Or,
  Eq,
  Ne,
  In,
  NotIn,
  Lt,
  Le,
  Gt,
  Ge,
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Pow,
  Xor
};

inline BinOp bin_op(std::string_view text) {
  static constexpr std::pair<std::string_view, BinOp> kOps[] = {
      {"and", BinOp::And},      {"or", BinOp::Or},  {"==", BinOp::Eq}, {"!=", BinOp::Ne}, {"in", BinOp::In},
      {"not in", BinOp::NotIn}, {"<", BinOp::Lt},   {"<=", BinOp::Le}, {">", BinOp::Gt},  {">=", BinOp::Ge},
      {"+", BinOp::Add},        {"-", BinOp::Sub},  {"*", BinOp::Mul}, {"/", BinOp::Div}, {"%", BinOp::Mod},
      {"^", BinOp::Pow},        {"xor", BinOp::Xor}};
  for (const auto& [t, op] : kOps) {
    if (t == text) return op;
  }
  return BinOp::None;
}

// A prefix operator (Unary and Modifier expressions), decided once by the parser.
enum class PrefixOp : std::uint8_t { None, Neg, Not, Misere, Every };

// Shortcuts the interpreter takes, found once when the program is lowered
// (lang/Shortcuts.cpp) instead of matched against the syntax at every evaluation. What they
// depend on at run time (a game's table, its parameters) the interpreter still checks.
struct Shortcut {
  // grundy, wins or outcome of G(x, ...), G a game named directly: integer arguments go
  // straight to G's table or theorem, without building the position. `table_read`: grundy
  // with arguments that are numbers or locals, read from the table when it has the value.
  int query_game = -1;
  bool table_read = false;
  // sum or len of a comprehension, `sum(x for ...)` or `sum([x for ...])`: folded as its
  // elements come, the list never built.
  const std::vector<Clause>* fold_clauses = nullptr;
  const Expr* fold_element = nullptr;
  // ... that is exactly `for n in lo..hi` over grundy(G(n)), or over grundy(G[p, ...](n)) with
  // parameters that do not read n: G's table filled to hi at once, then read in blocks.
  int fold_heaps_game = -1;
  // A comprehension (a list, set or tuple, table(...), a fold) whose first clause is
  // `for n in lo..hi` with bounds cheap to evaluate twice, and whose element, or first `if`,
  // always asks grundy(G(n)): that query, asked for hi before the loop starts, and n's slot.
  const Expr* prefetch = nullptr;
  const Expr* prefetch_range = nullptr;
  int prefetch_slot = -1;
};

struct Expr {
  ExprKind kind = ExprKind::Int;
  Where where;
  std::int64_t ival = 0;
  std::string text;                  // literal text, name, or operator
  BinOp op = BinOp::None;            // Binary: the operator in `text`
  PrefixOp prefix = PrefixOp::None;  // Unary, Modifier: the operator in `text`
  std::vector<ExprPtr> args;
  std::vector<Clause> clauses;
  Binding binding;
  // Levels of parentheses written around it: `every ((A + B) + C)` keeps A + B as one
  // component, and so does `every ((A + B))` (the outer level is every's own).
  std::uint8_t grouped = 0;
  // Levels of this subtree; the parser keeps it under kMaxExprDepth, so that the recursive
  // passes (resolver, evaluation, destruction) cannot exhaust the stack.
  std::uint32_t depth = 1;
  Shortcut shortcut;  // set by the lowering
};

inline constexpr std::uint32_t kMaxExprDepth = 10000;

// Where an expression's text starts: a binary expression's place is its operator's.
inline std::uint32_t text_start(const Expr& e) {
  const Expr* at = &e;
  while ((at->kind == ExprKind::Binary || at->kind == ExprKind::Range || at->kind == ExprKind::Index) &&
         !at->args.empty() && at->grouped == 0) {
    at = at->args[0].get();
  }
  return at->where.offset < e.where.offset ? at->where.offset : e.where.offset;
}

// One item of a game's body, in written order.
struct GameItem {
  // Formula: `value EXPR`, the state's nim-value written out (at most one per game).
  enum class Kind : std::uint8_t { State, Let, Move, Split, Formula };
  Kind kind = Kind::Move;
  Where where;
  std::vector<std::string> names;  // State: the pattern's names; Let: the name
  std::vector<Where> name_wheres;
  std::vector<int> slots;      // filled by the resolver
  bool tuple_pattern = false;  // State: `(a, b)` rather than `n`
  bool spread = false;         // Split: exprs[0] is a comprehension listing the parts
  std::vector<ExprPtr> exprs;  // Let/Move: one expression; Split: the parts
  std::vector<Clause> clauses;
};

// A node of a graph game as written: a number or a name.
struct Label {
  bool number = false;
  std::int64_t ival = 0;  // number
  std::string name;       // otherwise
  friend bool operator==(const Label&, const Label&) = default;
};

struct GraphEdge {
  Where where;
  Label from;
  std::vector<Label> to;
  std::vector<Where> to_wheres;
};

struct GameDecl {
  enum class Form : std::uint8_t { Rules, Octal, Subtraction, Graph, Alias };
  Form form = Form::Rules;
  bool loopy = false;  // `loopy game`: play may go on for ever, a draw
  std::string name;
  Where where;  // the name
  std::vector<std::string> params;
  std::vector<Where> param_wheres;
  std::vector<GameItem> items;  // Rules
  std::string code;             // Octal
  Where code_where;
  ExprPtr expr;                  // Subtraction: the set; Alias: the instance
  std::vector<GraphEdge> edges;  // Graph
  // Filled by the resolver.
  int frame_size = 0;
  int state_arity = 1;
};

struct DefDecl {
  std::string name;
  Where where;
  std::vector<std::string> params;
  std::vector<Where> param_wheres;
  ExprPtr body;
  int frame_size = 0;
};

struct Stmt {
  enum class Kind : std::uint8_t { Game, Def, Let, Assert, Import, Expr };
  Kind kind = Kind::Expr;
  Where where;
  std::unique_ptr<GameDecl> game;
  std::unique_ptr<DefDecl> def;
  std::string name;            // Let: the name; Import: the module or path
  bool import_path = false;    // Import: a quoted path rather than a module name
  ExprPtr expr;                // Let, Assert, Expr
  int frame_size = 0;          // slots for comprehension variables
  int global = -1;             // Let: the global slot
  bool defined_twice = false;  // Game, Def, Let: its name was taken earlier in the batch
};

struct Program {
  int file = -1;
  std::vector<Stmt> stmts;
  // Names whose definitions failed to parse, or that this program defines a second time:
  // uses of them in this program bind to nothing and are not reported, as errors about them
  // would only be cascades.
  std::vector<std::string> broken_names;
};

}  // namespace grundy::lang
