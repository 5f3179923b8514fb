// Nim-values of the states of compiled rules, kept in a hash map: for states with a set or a
// list among their coordinates (packed words, runtime/IntProgram.hpp), which no dense box of
// runtime/BoxTable.hpp can span. The search is the memoized one of the evaluator, over the
// program instead of the rules as written: depth first, a state's listing stopped at the
// first option not known yet and resumed there once it is (IntProgram::Resume), as a
// hand-written recursion over a std::unordered_map goes on with its loop.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "runtime/BoxTable.hpp"
#include "runtime/StateMap.hpp"

namespace grundy {

class HashedValues {
 public:
  static constexpr std::uint32_t kInProgress = UINT32_MAX;  // on the search's path

  explicit HashedValues(int arity) : values_(arity) {}
  int arity() const { return values_.arity(); }
  std::optional<std::uint32_t> known(const std::int64_t* c) const {
    const std::uint32_t* v = values_.find(c);
    if (v == nullptr || *v == kInProgress) return std::nullopt;
    return *v;
  }
  // The value, kInProgress, or nothing when the state was not met.
  const std::uint32_t* find(const std::int64_t* c) const { return values_.find(c); }
  void prefetch(const std::int64_t* c) const { values_.prefetch(c); }
  void set(const std::int64_t* c, std::uint32_t v) { values_.set(c, v); }
  void erase(const std::int64_t* c) { values_.erase(c); }
  std::uint64_t bytes() const { return values_.bytes(); }

 private:
  StateMap<std::uint32_t> values_;
};

// The nim-value of `c` by the compiled rules, kept in `memo` with those of the states it
// needs; nothing when the rules cannot decide (an error, a loop, a limit: `why` says), and
// the general search takes over.
std::optional<std::uint32_t> hashed_value(HashedValues& memo, const IntProgram& rules, const std::int64_t* c,
                                          const BoxHooks& hooks, std::string& why);

}  // namespace grundy
