// The memory that values kept by a memo (or by the function calls in progress) take, for
// --max-memory. Value::bytes() counts a shared body once per holder, which is right for a
// fresh list but far too much when many held values share one big part: the states (xs, 0),
// (xs, 1), ... of a game, or the arguments (xs, i) of a recursion over a list, all hold the
// same xs. A meter counts small values by Value::bytes() and each large body once, however
// many of the values it holds share it.
#pragma once

#include <cstdint>

#include <absl/container/flat_hash_map.h>

#include "runtime/Value.hpp"

namespace grundy {

class ValueMeter {
 public:
  // Bodies whose bytes() is below this are counted for each holder (cheap to know); from it
  // up, once.
  static constexpr std::uint64_t kShared = 1024;

  // Counts v as held once more; returns the bytes this adds to what is held.
  std::uint64_t hold(const Value& v);
  // Undoes one hold(v); returns the bytes this takes away.
  std::uint64_t release(const Value& v);
  // Forgets every value held (their holder dropped them all).
  void clear() { large_.clear(); }

 private:
  // Large bodies held, with the number of holds of each.
  absl::flat_hash_map<const void*, std::uint64_t> large_;
};

}  // namespace grundy
