#include "runtime/Period.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace grundy {

namespace {
// For each p, the length of the run, ending at the end of the table, where g[i] == g[i + p]:
// z[p] for the table read backwards (the Z-function: the longest common prefix of r and
// r[p..], r[i] = g[L - 1 - i]). The run of p then starts at L - p - z[p]. One O(L) pass
// for every p at once; scanning back from the end for each p separately took O(L) per p
// on values with long constant stretches (subtraction {100000}).
template <typename Z, typename T>
std::vector<Z> runs_from_end(const std::vector<T>& g) {
  const auto L = static_cast<std::int64_t>(g.size());
  std::vector<Z> z(static_cast<std::size_t>(L), 0);
  if (L == 0) return z;
  const T* const end = g.data() + L - 1;  // r[i] is end[-i]
  z[0] = static_cast<Z>(L);
  std::int64_t lo = 0, hi = 0;  // [lo, hi): the rightmost match r[lo..hi) == r[0..hi-lo)
  for (std::int64_t i = 1; i < L; ++i) {
    std::int64_t k = 0;
    if (i < hi)
      k = std::min<std::int64_t>(hi - i, static_cast<std::int64_t>(z[static_cast<std::size_t>(i - lo)]));
    while (i + k < L && end[-k] == end[-(i + k)]) ++k;
    z[static_cast<std::size_t>(i)] = static_cast<Z>(k);
    if (i + k > hi) {
      lo = i;
      hi = i + k;
    }
  }
  return z;
}

// Calls f(g, z) with z = runs_from_end(g), in 32 bits when the table allows.
template <typename F>
auto with_runs(const DenseTable& values, F&& f) {
  return values.visit([&](const auto& g) {
    if (g.size() <= UINT32_MAX) return f(g, runs_from_end<std::uint32_t>(g));
    return f(g, runs_from_end<std::uint64_t>(g));
  });
}
}  // namespace

std::optional<PeriodInfo> proven_period(const DenseTable& values, const HeapSpec& spec) {
  if (!spec.provable()) return std::nullopt;
  // HeapSpec::proof_bound, with the code's largest take and number of heaps read once
  // (each is a pass over the digits, and a subtraction {1, 3, 70000} has 70001).
  const std::int64_t h = spec.max_heaps();
  const std::int64_t k = spec.max_take();
  auto bound = [&](std::int64_t n0, std::int64_t p) { return std::max(h * n0 + (h - 1) * p + k, k + 1); };
  return with_runs(values, [&](const auto& g, const auto& z) -> std::optional<PeriodInfo> {
    const auto L = static_cast<std::int64_t>(g.size());
    for (std::int64_t p = 1; p < L; ++p) {
      // Even with n0 = 0 the bound must fit: bound(0, p) <= L - p.
      if (bound(0, p) > L - p) break;
      const std::int64_t n0 = L - p - static_cast<std::int64_t>(z[static_cast<std::size_t>(p)]);
      if (n0 >= L - p) continue;
      if (bound(n0, p) <= L - p) return PeriodInfo{n0, p, true};
    }
    return std::nullopt;
  });
}

std::optional<PeriodInfo> observed_period(const DenseTable& values) {
  return with_runs(values, [&](const auto& g, const auto& z) -> std::optional<PeriodInfo> {
    const auto L = static_cast<std::int64_t>(g.size());
    for (std::int64_t p = 1; 3 * p < L / 2; ++p) {
      const std::int64_t n0 = L - p - static_cast<std::int64_t>(z[static_cast<std::size_t>(p)]);
      if (n0 + 3 * p < L / 2) return PeriodInfo{n0, p, false};
    }
    return std::nullopt;
  });
}

}  // namespace grundy
