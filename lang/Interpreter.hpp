// The interpreter: evaluates resolved expressions (arithmetic, checked; collections;
// positions; function calls; comprehensions) and calls the builtins of lang/BuiltinTable.hpp.
// Rules use it to list their options (lang/RuleGame.cpp); statements to compute what they
// print (lang/Driver.cpp). The queries it passes to the runtime: Evaluator (normal play),
// MisereSolver and EverySolver.
//
// Its parts: Interpreter.cpp (evaluation, calls, limits), Operators.cpp (operators, indexing,
// collections), Shortcuts.cpp (the loops that tabulate nim-values, lowered once).
#pragma once

#include <functional>
#include <optional>
#include <tuple>
#include <vector>

#include <absl/container/flat_hash_set.h>

#include "lang/BuiltinTable.hpp"
#include "lang/World.hpp"
#include "runtime/Evaluator.hpp"
#include "runtime/Every.hpp"
#include "runtime/Misere.hpp"

namespace grundy::lang {

// Steps through one collection; a range is never materialized.
class Iteration {
 public:
  void start(const Value& collection, Where where);
  bool next(Value& out);

 private:
  Value coll_;
  bool range_ = false;
  bool done_ = false;
  std::int64_t cur_ = 0, hi_ = -1;
  std::size_t idx_ = 0;
};

class Interpreter {
 public:
  explicit Interpreter(World& world)
      : w_(world),
        ev_(world.registry, world.limits),
        misere_(ev_, world.registry, world.limits),
        every_(ev_, world.limits) {}

  Value eval(const Expr& e, Frame& frame);
  bool condition(const Expr& e, Frame& frame, const char* what);
  void bind(const Clause& c, const Value& v, Frame& frame);
  // Runs `body` for every binding of the clauses from i on (`for` and `if`, nested in order).
  void each(const std::vector<Clause>& cs, std::size_t i, Frame& frame, const std::function<void()>& body);

  // The instance of a game with these parameters (lang/Games.cpp makes it, and its plan).
  const GameInstance* instance(GameEntry& g, std::vector<Value> params, Where where) {
    return w_.maker->instance(g, std::move(params), where);
  }
  // Adds to `out` the positions that a move's value stands for: a position, the parts of a
  // sum, or a state of `self`.
  void to_parts(const Value& v, const GameInstance& self, Option& out, Where where);
  // G(args...) once G and its arguments are evaluated: the position, checked.
  Value position_of(const GameInstance* g, std::vector<Value> args, const Expr& call);
  // The sum a query takes: a position, a sum (of any modifier), or 0; `query` names the
  // query in errors, which say when it has no meaning under the sum's modifier.
  Sum sum_of(const Value& v, Where where, Builtin query);
  // The elements of any collection: a list's own, or a range's listed into `out` (one step
  // each, within the memory limit).
  const std::vector<Value>& items_in(const Value& v, Where where, const char* what, std::vector<Value>& out);
  std::vector<Value> items_of(const Value& v, Where where, const char* what);

  // Marks a position whose rules are computing an option, or whose value rule its value, for
  // as long as they do. A rule that asks a query about that same position (`move n - 1 if
  // wins(misere G(n))` in G, `value grundy(G(n))`) would compute it again inside, for ever:
  // that is an error naming the position, at once. Nested, they count against --max-depth.
  class Expanding {
   public:
    enum class What : std::uint8_t { Options, Value };
    Expanding(Interpreter& m, const GameInstance& game, const Value& state, What what = What::Options);
    ~Expanding();
    Expanding(const Expanding&) = delete;
    Expanding& operator=(const Expanding&) = delete;

   private:
    Interpreter& m_;
    std::tuple<const GameInstance*, Value, What> key_;
  };
  // Counts a value as held (Limits::held) for as long as it lives: the arguments of a call
  // in progress. Checks --max-memory when they are large.
  class Holding {
   public:
    Holding(Interpreter& m, const Value& v, Where where);
    ~Holding();
    Holding(const Holding&) = delete;
    Holding& operator=(const Holding&) = delete;

   private:
    Interpreter& m_;
    Value v_;
  };

  World& world() { return w_; }
  // Whether function `def` may call itself, directly or through others (DefEntry::recursive).
  bool recursive(int def);
  // The bytes one function's memo may hold before it starts again empty: for a function that
  // calls itself more than once (fib, a game searched by hand), whose memo is what keeps it
  // from exponential time, an eighth of --max-memory; for others (a helper a rule calls once
  // per state, a chain), whose calls seldom come again, 16 MB.
  std::uint64_t function_memo_budget(const DefEntry& d) const {
    if (d.recursive == 1) return w_.limits.max_memory / 8;
    return std::min<std::uint64_t>(std::uint64_t{16} << 20, w_.limits.max_memory / 8);
  }
  Evaluator& evaluator() { return ev_; }
  MisereSolver& misere() { return misere_; }
  EverySolver& every() { return every_; }
  void check_interrupt() const;

  // Iterations of `for` clauses (rules and comprehensions) and range elements listed in the
  // current top-level statement; past --max-steps an error. The driver calls begin_statement.
  void begin_statement();
  void count_steps(std::uint64_t n, Where where) {
    w_.limits.steps += n;
    if (w_.limits.steps > w_.limits.max_steps) steps_exceeded(where);
    if (heap_over(w_.limits.max_memory)) w_.limits.memory_exceeded("this statement");
  }
  // A builtin about to list the n + 1 values of `range` (sum(0..n)): one step each, and
  // more than the steps left an error at once that names the builtin (`what`).
  void count_listed(std::uint64_t n, const Value& range, Where where, const char* what);
  // A `for` about to run over `collection`: a range longer than the steps left is an error
  // at once, rather than after max_steps iterations.
  void check_loop(const Value& collection, Where where);
  // A collection of n values (or a string of n bytes) about to be built at once: an error
  // naming --max-memory when it, with what the heap holds, would pass the memory limit.
  void check_size(std::uint64_t n, std::uint64_t bytes_each, Where where) const {
    std::uint64_t bytes = 0;
    const bool chars = bytes_each == 1;
    if (__builtin_mul_overflow(n, bytes_each, &bytes)) size_exceeded(n, UINT64_MAX, where, chars);
    if (heap_over(w_.limits.max_memory, bytes)) {
      size_exceeded(n, bytes, where, chars);
    }
  }
  // Before items.push_back in a collection built one element at a time: a full vector
  // allocates twice its size while the old buffer lives, and that must fit too.
  void check_growth(const std::vector<Value>& items, Where where) const {
    const std::uint64_t more =
        items.size() < items.capacity() ? 0 : std::max<std::uint64_t>(items.capacity(), 1) * 2 * sizeof(Value);
    if (heap_over(w_.limits.max_memory, more)) {
      size_exceeded(items.size() + 1, more, where);
    }
  }

  // ---- the shortcuts of lang/Shortcuts.cpp ----
  // grundy(G(x, ...)) read from G's table when it has the value; nothing otherwise.
  std::optional<std::uint64_t> known_grundy(const Expr& call, Frame& frame);
  // grundy, wins or outcome of G(x, ...): the answer from G's table, theorem or outcome
  // search when one gives it, without building the position (a loop over a grid asks it
  // 10^5 times), else the query of the position; nothing when `e` has no such shortcut.
  void check_guard(const GameInstance& g, const std::int64_t* c, std::size_t n, const Expr& call);
  std::optional<Value> query_of_call(Builtin b, const Expr& e, Frame& frame);
  // sum or len of a comprehension, folded as its elements come. Empty when the elements
  // turn out not to be integers (a sum of positions): then they are all in `listed`.
  std::optional<Value> fold(const Expr& e, Builtin b, Frame& frame, std::vector<Value>& listed);
  // The table a comprehension's loop asks grundy(G(n)) of, filled to the loop's end first.
  void prefetch(const Expr& comprehension, Frame& frame);

 private:
  friend class Expanding;
  friend class Holding;
  [[noreturn]] void steps_exceeded(Where where) const;
  // `bytes`: what building the value was about to allocate.
  [[noreturn]] void size_exceeded(std::uint64_t n, std::uint64_t bytes, Where where, bool chars = false) const;
  Value call(const Expr& e, Frame& frame);
  Value call_def(const Expr& e, DefEntry& d, Frame& frame);
  std::optional<Value> compiled_call(DefEntry& d, const std::vector<Value>& args);
  Value body_of(DefEntry& d, Frame& frame);
  Value call_builtin(const Expr& e, int which, Frame& frame);
  // every X: the components are the summands as written.
  Value every_sum(const Expr& operand, Frame& frame);
  // Operators.cpp
  Value index(const Expr& e, Frame& frame);
  Value binary(const Expr& e, Frame& frame);
  Value collection(const Expr& e, Frame& frame);
  void reserve_for(const std::vector<Clause>& cs, std::vector<Value>& items, Frame& frame);
  // Shortcuts.cpp
  std::optional<Value> fold_heaps(const Expr& e, const GameEntry& entry, Builtin b, Frame& frame);
  void ask_last(const Value& range, int slot, const Expr& query, Frame& frame);

  World& w_;
  absl::flat_hash_set<std::tuple<const GameInstance*, Value, Expanding::What>> expanding_;
  ValueMeter calls_;  // the arguments of the calls in progress (Holding)
  Evaluator ev_;
  MisereSolver misere_;
  EverySolver every_;
  int depth_ = 0;
};

}  // namespace grundy::lang
