#include "runtime/IntervalValues.hpp"

#include <algorithm>

namespace grundy {

void IntervalValues::reserve(std::uint32_t v) {
  if (v < cap_) return;
  std::uint32_t cap = std::max<std::uint32_t>(cap_, 64);
  while (cap <= v) cap *= 2;
  first_.resize(cap, kAbsentFirst);
  last_.resize(cap, kAbsentLast);
  cap_ = cap;
  max_first_.assign(2 * std::size_t{cap}, kAbsentFirst);
  min_last_.assign(2 * std::size_t{cap}, kAbsentLast);
  for (std::uint32_t u = 0; u < cap; ++u) {
    max_first_[cap + u] = first_[u];
    min_last_[cap + u] = last_[u];
  }
  for (std::size_t node = cap; node-- > 1;) {
    max_first_[node] = std::max(max_first_[2 * node], max_first_[2 * node + 1]);
    min_last_[node] = std::min(min_last_[2 * node], min_last_[2 * node + 1]);
  }
}

void IntervalValues::update(std::uint32_t v) {
  std::size_t node = std::size_t{cap_} + v;
  max_first_[node] = first_[v];
  min_last_[node] = last_[v];
  for (node /= 2; node >= 1; node /= 2) {
    max_first_[node] = std::max(max_first_[2 * node], max_first_[2 * node + 1]);
    min_last_[node] = std::min(min_last_[2 * node], min_last_[2 * node + 1]);
  }
}

void IntervalValues::take_above(std::uint32_t v) {
  reserve(v);
  const auto at = static_cast<std::int32_t>(++hi_);
  if (first_[v] == kAbsentFirst) first_[v] = at;
  last_[v] = at;
  update(v);
}

void IntervalValues::take_below(std::uint32_t v) {
  reserve(v);
  const auto at = static_cast<std::int32_t>(--lo_);
  if (last_[v] == kAbsentLast) last_[v] = at;
  first_[v] = at;
  update(v);
}

std::uint32_t IntervalValues::absent_from(std::uint32_t v, std::int64_t a, std::int64_t b) const {
  if (v >= cap_) return v;
  const bool from_start = a == lo_;
  // Whether some value below the node is absent from the run.
  auto any_absent = [&](std::size_t node) {
    return from_start ? max_first_[node] > b : min_last_[node] < a;
  };
  // Up from v's leaf to the first node whose right part (past v) holds an absent value,
  // then down to its leftmost absent leaf.
  std::size_t node = std::size_t{cap_} + v;
  if (!any_absent(node)) {
    while (true) {
      if (node == 1) return cap_;  // every value from v to cap_ - 1 is in the run
      if (node % 2 == 0 && any_absent(node + 1)) {
        node = node + 1;
        break;
      }
      node /= 2;
    }
  }
  while (node < cap_) node = any_absent(2 * node) ? 2 * node : 2 * node + 1;
  return static_cast<std::uint32_t>(node - cap_);
}

}  // namespace grundy
