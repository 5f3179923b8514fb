// A Nim heap as a native ruleset: the value of heap n is n, with no search. Rules that say
// exactly "take any number from one heap" compile to it, and misère play relies on it.
#pragma once

#include "runtime/Error.hpp"
#include "runtime/Game.hpp"

namespace grundy {

// A Nim heap's value is its size; no memo, no search.
inline std::uint64_t nim_value(const Position& p) {
  const std::int64_t n = p.state.as_int();
  if (n < 0) throw Error(ErrorKind::Runtime, "heap sizes are >= 0, got " + to_string(p));
  return static_cast<std::uint64_t>(n);
}

class NimRuleset : public Ruleset {
 public:
  // `descending`: options listed n-1, n-2, ..., 0 (as `move n - k for k in 1..n` writes them).
  NimRuleset(std::string name, bool descending = false) : name_(std::move(name)), descending_(descending) {}
  const std::string& name() const override { return name_; }
  std::unique_ptr<OptionCursor> options(const GameInstance& game, const Value& state) const override;
  std::string check_state(const Value& state) const override;
  bool is_nim() const override { return true; }

 private:
  std::string name_;
  bool descending_;
};

}  // namespace grundy
