// Evaluation of resolved expressions: arithmetic (checked), collections, positions, function
// calls and the queries. Rules use it to compute their options (RuleGame.cpp); statements use
// it to compute what they print (Session.cpp).
#pragma once

#include <functional>
#include <optional>

#include <absl/container/flat_hash_set.h>
#include <vector>

#include "lang/Builtins.hpp"
#include "lang/World.hpp"
#include "runtime/Evaluator.hpp"
#include "runtime/Every.hpp"
#include "runtime/Misere.hpp"

namespace grundy::lang {

using Frame = std::vector<Value>;

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

class Machine {
 public:
  explicit Machine(World& world)
      : w_(world),
        ev_(world.registry, world.limits),
        misere_(ev_, world.registry, world.limits),
        every_(ev_, world.limits) {}

  Value eval(const Expr& e, Frame& frame);
  bool condition(const Expr& e, Frame& frame, const char* what);
  void bind(const Clause& c, const Value& v, Frame& frame);

  // The rules of a game, compiled on first use (shorthands whose set or instance is an
  // expression are evaluated then).
  const std::shared_ptr<const Ruleset>& rules_of(GameEntry& g, Where where);
  const GameInstance* instance(GameEntry& g, std::vector<Value> params, Where where);
  // Adds to `out` the positions that a move's value stands for: a position, the parts of a
  // sum, or a state of `self`.
  void to_parts(const Value& v, const GameInstance& self, Option& out, Where where);

  // Marks a position whose rules are computing an option, for as long as they do. A rule
  // that asks a query about that same position (`move n - 1 if wins(misere G(n))` in G)
  // would compute its options again inside, for ever: that is an error naming the position.
  class Expanding {
   public:
    Expanding(Machine& m, const GameInstance& game, const Value& state);
    ~Expanding();
    Expanding(const Expanding&) = delete;
    Expanding& operator=(const Expanding&) = delete;

   private:
    Machine& m_;
    std::pair<const GameInstance*, Value> key_;
  };
  // Counts a value as held (Limits::held) for as long as it lives: the arguments of a call
  // in progress. Checks --max-memory when they are large.
  class Holding {
   public:
    Holding(Machine& m, const Value& v, Where where);
    ~Holding();
    Holding(const Holding&) = delete;
    Holding& operator=(const Holding&) = delete;

   private:
    Machine& m_;
    Value v_;
  };

  Evaluator& evaluator() { return ev_; }
  MisereSolver& misere() { return misere_; }
  EverySolver& every() { return every_; }
  void check_interrupt() const;

  // Iterations of `for` clauses (rules and comprehensions) and range elements listed in the
  // current top-level statement; past --max-steps an error. Session calls begin_statement.
  void begin_statement();
  void count_steps(std::uint64_t n, Where where) {
    w_.limits.steps += n;
    if (w_.limits.steps > w_.limits.max_steps) steps_exceeded(where);
  }
  // A builtin about to list the n + 1 values of `range` (sum(0..n)): one step each, and
  // more than the steps left an error at once that names the builtin (`what`).
  void count_listed(std::uint64_t n, const Value& range, Where where, const char* what);
  // A `for` about to run over `collection`: a range longer than the steps left is an error
  // at once, rather than after max_steps iterations.
  void check_loop(const Value& collection, Where where);
  // A collection of n values (or a string of n bytes) about to be built: an error naming
  // --max-memory when it, with what the memos and the calls in progress hold, would pass
  // the memory limit.
  void check_size(std::uint64_t n, std::uint64_t bytes_each, Where where) const {
    std::uint64_t bytes = 0;  // a product, not a quotient: this runs once per element built
    if (__builtin_mul_overflow(n, bytes_each, &bytes)) size_exceeded(n, bytes_each == 1, where);
    check_bytes(n, bytes, where, bytes_each == 1);
  }
  // The same for a collection of n values that takes `bytes` with its elements.
  void check_bytes(std::uint64_t n, std::uint64_t bytes, Where where, bool chars = false) const {
    const std::uint64_t held = ev_.held_bytes() + w_.limits.held;
    if (bytes > w_.limits.max_memory || held > w_.limits.max_memory - bytes) size_exceeded(n, chars, where);
  }

 private:
  [[noreturn]] void steps_exceeded(Where where) const;
  [[noreturn]] void size_exceeded(std::uint64_t n, bool chars, Where where) const;
  Value call(const Expr& e, Frame& frame);
  Value builtin(const Expr& e, int which, Frame& frame);
  // sum or len of a comprehension, folded as its elements come: the list is never built.
  // Empty when the call is not of that form, and when the elements turn out not to be
  // integers (a sum of positions): then they are all in `listed`, which is not empty.
  std::optional<Value> folded(const Expr& e, Builtin b, Frame& frame, std::vector<Value>& listed);
  // The fold of `grundy(G(n)) for n in lo..hi`, G a game of one integer: its table is
  // filled to hi first (as the loop would fill it, a heap at a time) and then read in a
  // tight loop. Empty when the fold is not of that form.
  std::optional<Value> folded_heaps(const std::vector<Clause>& clauses, const Expr& element, Builtin b,
                                    Frame& frame, Where at);
  // The game G of `grundy(G(...))`, G without parameters and not an alias: nothing for any
  // other expression.
  const GameEntry* grundy_query(const Expr& e) const;
  // The same for `grundy(G(v))` where v is the local in `slot`.
  const GameEntry* heap_query(const Expr& e, int slot) const;
  // grundy(G(hi)) asked ahead of a loop over `range` whose every step asks grundy(G(n))
  // (`query`, n in `slot`): G's table is filled to hi at once. Nothing for an empty range
  // or one that starts below 0.
  void ask_last(const Value& range, int slot, const Expr& query, Frame& frame);
  // A loop `for n in lo..hi` that asks grundy(G(n)) at every step (in the element, or in
  // the first `if`) has G's table filled to hi before it starts: asked heap by heap, the
  // compiled rules fill it a heap per query, each with a search of its own (3x the time).
  void prefetch_heaps(const std::vector<Clause>& clauses, const Expr& element, Frame& frame);
  // G(args...) once G and its arguments are evaluated: the position, checked.
  Value position_of(const GameInstance* g, std::vector<Value> args, const Expr& call);
  // grundy, wins or outcome of G(x, y, ...) for a game G without parameters: the answer
  // from G's table, outcome theorem or outcome search when one gives it, without building
  // the position (a loop over a grid asks it 10^5 times); nothing when `arg` is not such a
  // call.
  std::optional<Value> query_of_call(Builtin b, const Expr& arg, Frame& frame);
  // The same for `grundy(G(x))` whose value is in G's table already: the loop of a
  // tabulation, `[grundy(G(n)) for n in 0..N]`, at the cost of a table read.
  std::optional<std::uint32_t> known_grundy(const Expr& call, Frame& frame);
  Value index(const Expr& e, Frame& frame);
  Value binary(const Expr& e, Frame& frame);
  Value collection(const Expr& e, Frame& frame);
  void reserve_for(const std::vector<Clause>& cs, std::vector<Value>& items, Frame& frame);
  Value table(const Expr& e, Frame& frame);
  void each(const std::vector<Clause>& cs, std::size_t i, Frame& frame, const std::function<void()>& body);
  Option option_of(const Value& v, Where where, const char* query);
  Value option_value(const Option& o, Modifier mod = Modifier::Normal) const;
  Value modified_query(Builtin which, const Value& x, Where where);
  std::vector<Value> every_options(const Value& x, bool winning_only, Where where);
  Value every_sum(const Expr& operand, Frame& frame);
  // The options of a position or sum (winning ones only, if asked), streamed so that a large
  // sum never holds all its options at once.
  std::vector<Value> list_options(const Option& o, Modifier mod, bool winning_only);

  World& w_;
  absl::flat_hash_set<std::pair<const GameInstance*, Value>> expanding_;
  ValueMeter calls_;  // the arguments of the calls in progress (Holding)
  Evaluator ev_;
  MisereSolver misere_;
  EverySolver every_;
  int depth_ = 0;
};

}  // namespace grundy::lang
