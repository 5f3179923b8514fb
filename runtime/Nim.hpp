// A Nim heap as a native ruleset: the value of heap n is n, with no search. Rules that say
// exactly "take any number from one heap" compile to it, and misère play relies on it.
#pragma once

#include <algorithm>

#include "runtime/Error.hpp"
#include "runtime/Game.hpp"

namespace grundy {

// A Nim heap's size. Rules recognised as Nim (`move k for k in 0..n-1`) without a guard give
// a negative state no option, as an empty heap: 0 there (the Nim shorthand refuses one).
inline std::int64_t nim_heap(const Position& p) { return std::max<std::int64_t>(p.state.as_int(), 0); }
// A Nim heap's value is its size; no memo, no search.
inline std::uint64_t nim_value(const Position& p) { return static_cast<std::uint64_t>(nim_heap(p)); }

class NimRuleset : public Ruleset {
 public:
  // `descending`: options listed n-1, n-2, ..., 0 (as `move n - k for k in 1..n` writes them).
  // `of_rules`: the game's rules, recognised: a negative state is a position with no option,
  // as the rules as written give it, rather than an error.
  NimRuleset(std::string name, bool descending = false, bool of_rules = false)
      : name_(std::move(name)), descending_(descending), of_rules_(of_rules) {}
  const std::string& name() const override { return name_; }
  std::unique_ptr<OptionCursor> options(const GameInstance& game, const Value& state) const override;
  std::string check_state(const Value& state) const override;
  bool is_nim() const override { return true; }

 private:
  std::string name_;
  bool descending_;
  bool of_rules_;
};

}  // namespace grundy
