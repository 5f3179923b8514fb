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

#include <absl/container/flat_hash_map.h>

#include "runtime/BoxTable.hpp"

namespace grundy {

class HashedValues {
 public:
  static constexpr std::uint32_t kInProgress = UINT32_MAX;  // on the search's path

  explicit HashedValues(int arity) : arity_(arity) {}
  int arity() const { return arity_; }
  std::optional<std::uint32_t> known(const std::int64_t* c) const {
    const auto it = values_.find(key(c));
    if (it == values_.end() || it->second == kInProgress) return std::nullopt;
    return it->second;
  }
  // The value, kInProgress, or nothing when the state was not met.
  const std::uint32_t* find(const std::int64_t* c) const {
    const auto it = values_.find(key(c));
    return it == values_.end() ? nullptr : &it->second;
  }
  void set(const std::int64_t* c, std::uint32_t v) { values_[key(c)] = v; }
  void erase(const std::int64_t* c) { values_.erase(key(c)); }
  std::uint64_t bytes() const { return values_.capacity() * (sizeof(std::pair<Coords, std::uint32_t>) + 1); }

 private:
  Coords key(const std::int64_t* c) const { return coords_key(c, arity_); }
  int arity_;
  absl::flat_hash_map<Coords, std::uint32_t, CoordsHash, CoordsEq> values_;
};

// The nim-value of `c` by the compiled rules, kept in `memo` with those of the states it
// needs; nothing when the rules cannot decide (an error, a loop, a limit: `why` says), and
// the general search takes over.
std::optional<std::uint32_t> hashed_value(HashedValues& memo, const IntProgram& rules, const std::int64_t* c,
                                          const BoxHooks& hooks, std::string& why);

}  // namespace grundy
