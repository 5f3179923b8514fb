#include "runtime/DynamicSubtraction.hpp"

#include <algorithm>
#include <limits>

namespace grundy {

namespace {
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
}

DynamicSubtraction::DynamicSubtraction(std::int64_t k, int heap) : k_(k), heap_(heap) {}

bool DynamicSubtraction::reach(std::int64_t n) {
  while (a_.back() <= n) {
    if (a_.size() >= kMaxTerms) return false;
    if (b_.back() == kMax) return true;  // the next term would pass every int64
    const std::int64_t next = b_.back() + 1;
    const std::size_t i = a_.size();
    a_.push_back(next);
    std::int64_t ka = 0;
    while (below_ < i && !__builtin_mul_overflow(k_, a_[below_], &ka) && ka < next) ++below_;
    std::int64_t b = next;
    if (below_ > 0 && __builtin_add_overflow(b_[below_ - 1], next, &b)) b = kMax;
    b_.push_back(b);
  }
  return true;
}

std::optional<bool> DynamicSubtraction::wins_at(std::int64_t n, std::int64_t limit) {
  if (n <= 0 || limit <= 0) return false;  // `for t in 1..min(n, limit)` takes nothing
  // The most any state below may take: all of n at once, else n - 1 (the first move took
  // one at least). k times it must fit, or the rules overflow where the search goes.
  if ((limit >= n ? n : n - 1) > kMax / k_) return std::nullopt;
  if (!reach(n)) return std::nullopt;
  std::int64_t smallest = 0;
  for (std::int64_t rest = n; rest > 0; rest -= smallest) {
    smallest = *(std::upper_bound(a_.begin(), a_.end(), rest) - 1);
  }
  return smallest <= limit;
}

std::string DynamicSubtraction::describe() const {
  std::string out = std::to_string(k_) + "-multiple dynamic subtraction";
  if (k_ == 2) out += " (Fibonacci nim)";
  out += ": (n, limit) is won when the smallest term of n written greedily over ";
  if (k_ == 1) return out + "the powers of 2 is at most limit";
  if (k_ == 2) return out + "the Fibonacci numbers (Zeckendorf) is at most limit";
  DynamicSubtraction first(k_);
  first.reach(40);
  for (std::size_t i = 0; i < 8 && i < first.a_.size(); ++i) out += std::to_string(first.a_[i]) + ", ";
  return out + "... is at most limit";
}

}  // namespace grundy
