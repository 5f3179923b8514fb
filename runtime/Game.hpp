// Rulesets, game instances and positions: the nodes of the game DAG.
// A Ruleset says how a state moves; a GameInstance is a ruleset with its parameters bound
// (Bash[3]) and owns the memo of nim-values for its states; a Position is an instance and
// a state. The runtime never sees syntax: the language compiles rules into Rulesets.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "runtime/Meter.hpp"
#include "runtime/Plan.hpp"
#include "runtime/Value.hpp"

namespace grundy {

struct Strategy;

struct Position {
  const GameInstance* game = nullptr;
  Value state;
  friend bool operator==(const Position& a, const Position& b) {
    return a.game == b.game && a.state == b.state;
  }
  // An order for canonical multisets within one run (by instance address, then state).
  friend bool operator<(const Position& a, const Position& b) {
    if (a.game != b.game) return std::less<const GameInstance*>()(a.game, b.game);
    return compare(a.state, b.state) < 0;
  }
  template <typename H>
  friend H AbslHashValue(H h, const Position& p) {
    return H::combine(std::move(h), p.game, p.state.hash());
  }
};

// One option of a position: the parts one move leaves (one part for a move, any number for
// a split; none for `split []`).
using Option = std::vector<Position>;

// A disjunctive sum of positions, as a player faces it and the queries take it: the player to
// move picks one part and moves in it. A position alone is a sum of one part, and the empty
// sum (written 0) has none.
struct Sum {
  std::vector<Position> parts;
  Sum() = default;
  explicit Sum(std::vector<Position> ps) : parts(std::move(ps)) {}
  std::size_t size() const { return parts.size(); }
  bool empty() const { return parts.empty(); }
  const Position& operator[](std::size_t i) const { return parts[i]; }
  auto begin() const { return parts.begin(); }
  auto end() const { return parts.end(); }
  friend bool operator==(const Sum& a, const Sum& b) { return a.parts == b.parts; }
  template <typename H>
  friend H AbslHashValue(H h, const Sum& s) {
    return H::combine(std::move(h), s.parts);
  }
};

// Yields the options of one position, one at a time, so that evaluation can stop and
// resume without holding every option of every position on the path in memory.
// What made an option, in the rules' own terms, for a message about it: the rule as
// written (`n - k`), the values of its loops (k = 3) and, when the rule looks like a known
// slip, the fix (`for k in 1..min(3, n)`). Empty where the rules are not written ones.
struct OptionOrigin {
  std::string rule;
  std::string bindings;
  std::string fix;
  // The rule has an `if`, or a loop whose range the position bounds: it may mean to go where
  // it goes.
  bool conditional = false;
};

class OptionCursor {
 public:
  virtual ~OptionCursor() = default;
  virtual bool next(Option& out) = 0;
  // Where the option next() gave last came from.
  virtual OptionOrigin origin() const { return {}; }
};

class Ruleset {
 public:
  virtual ~Ruleset() = default;
  virtual const std::string& name() const = 0;
  // Number of values a position of this game takes: G(a, b) has two.
  virtual int state_arity() const { return 1; }
  virtual int param_count() const { return 0; }
  virtual std::unique_ptr<OptionCursor> options(const GameInstance& game, const Value& state) const = 0;
  // How a state prints inside G(...): the elements of a tuple state are spread.
  virtual void append_state(std::string& out, const Value& state) const;
  // Why `state` is not a state of this game, or empty when it is.
  virtual std::string check_state(const Value& state) const;
  // The same for a position written G(...) in a program: the state's shape, and for rules
  // with a guard (`state n if n >= 0`) the guard. Empty when it is a position of the game.
  virtual std::string check_position(const GameInstance& game, const Value& state) const {
    (void)game;
    return check_state(state);
  }
  // True when check_position asks more than the shape (a guard): shortcuts that read a
  // table without building the position must then build it.
  virtual bool has_guard() const { return false; }
  // True when the state is a heap size n and the options are exactly the heaps 0..n-1:
  // a Nim heap, whose value is n and whose misère play follows Bouton's rule.
  virtual bool is_nim() const { return false; }
  // True for a `loopy game`: play may go on for ever (a draw), and its values are Smith's
  // (runtime/Loopy.hpp), not the search's.
  virtual bool loopy() const { return false; }
  // True when the rules give each state's nim-value by a formula (`value` in a game's
  // body): normal play takes it instead of a search; the options still are the game's.
  virtual bool has_formula() const { return false; }
  // The formula's value at `state` (has_formula() only); throws Error when it is not a
  // non-negative integer.
  virtual std::uint64_t formula(const GameInstance& game, const Value& state) const;
};

// Options computed all at once, handed out one by one; for rulesets whose options are cheap.
class ListCursor : public OptionCursor {
 public:
  explicit ListCursor(std::vector<Option> options) : options_(std::move(options)) {}
  bool next(Option& out) override {
    if (i_ == options_.size()) return false;
    out = std::move(options_[i_++]);
    return true;
  }

 private:
  std::vector<Option> options_;
  std::size_t i_ = 0;
};

// What a memo holds for a state while its value is being computed: meeting it again is a
// loop in the rules.
inline constexpr std::uint32_t kInProgress = 0xFFFFFFFFu;

inline constexpr std::uint8_t kOutcomeInProgress = 1, kOutcomeWin = 2, kOutcomeLoss = 3;

class GameInstance {
 public:
  GameInstance(std::shared_ptr<const Ruleset> rules, Value params)
      : rules_(std::move(rules)), params_(std::move(params)) {}
  const Ruleset& rules() const { return *rules_; }
  const Value& params() const { return params_; }  // a Tuple, empty without parameters
  // Bash[3] or Kayles
  std::string display_name() const;
  // Nim-values under normal play, written only once complete (kInProgress before).
  mutable absl::flat_hash_map<Value, std::uint32_t> memo;
  // Outcomes found by Evaluator::position_wins, [0] normal play and [1] misère: kOutcomeWin,
  // kOutcomeLoss, or kOutcomeInProgress. Counted as states like memo's entries.
  mutable absl::flat_hash_map<Value, std::uint8_t> outcomes[2];
  // What the rules say that the runtime can use (runtime/Plan.hpp), as the language found it
  // when the instance was made.
  const Plan& plan() const { return plan_; }
  bool planned() const { return planned_; }
  // How the evaluator computes the values (runtime/Strategy.hpp), chosen from the plan on
  // first use; dense_states counts the entries of its tables, which count as states like
  // memo's.
  mutable std::shared_ptr<Strategy> fast;
  mutable std::uint64_t dense_states = 0;

 private:
  friend class GameRegistry;
  std::shared_ptr<const Ruleset> rules_;
  Value params_;
  Plan plan_;
  bool planned_ = false;
};

// Interns game instances so that equal (ruleset, parameters) share one memo.
class GameRegistry {
 public:
  // Makes an instance's plan (lang/Lower.cpp); may throw (an interrupt, a limit).
  using Planner = std::function<Plan(const GameInstance&)>;
  // The instance of `rules` with `params`, made on first use with the plan that `plan`
  // gives it (none: the plain search).
  const GameInstance* instance(const std::shared_ptr<const Ruleset>& rules, const Value& params,
                               const Planner& plan = {});
  // Makes the plans of the instances of `rules` again (after the values they were made from
  // changed), and drops how their values were being computed. A plan that meets a limit is
  // left to be made at the instance's next use; an interrupt stops.
  void replan(const Ruleset* rules, const Planner& plan);
  // Drops the instances of one ruleset (the REPL redefines a game).
  void forget(const Ruleset* rules);
  // Empties every memo, and every instance's strategy with its tables but those that
  // `keep_strategy` keeps (a native kernel's table, which is no memo of states).
  void clear_memos(const std::function<bool(const GameInstance&)>& keep_strategy = {});
  // Memo entries in all instances; the evaluator keeps it up to date.
  std::uint64_t states = 0;
  // What the states memoized by all instances hold (a list state of n elements, n of
  // them), as `meter` counts it: --max-memory counts it with the entries.
  std::uint64_t state_bytes = 0;
  ValueMeter meter;

 private:
  struct Key {
    const Ruleset* rules;
    Value params;
    friend bool operator==(const Key& a, const Key& b) { return a.rules == b.rules && a.params == b.params; }
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      return H::combine(std::move(h), k.rules, k.params);
    }
  };
  absl::flat_hash_map<Key, std::unique_ptr<GameInstance>> instances_;
};

std::string to_string(const Position& p);

}  // namespace grundy
