#include "runtime/Period.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "runtime/Error.hpp"
#include "runtime/Shorthands.hpp"

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

PeriodInfo find_period(Evaluator& ev, const GameInstance& game, std::optional<std::int64_t> limit) {
  const Ruleset& rules = game.rules();
  if (rules.state_arity() != 1) {
    fail("period needs a game whose state is one integer; " + game.display_name() + " takes " +
             std::to_string(rules.state_arity()) + " values",
         "period looks at the sequence grundy(G(0)), grundy(G(1)), ...");
  }
  if (dynamic_cast<const GraphRuleset*>(&rules)) {
    fail("period needs a game whose state is a heap size; the states of " + game.display_name() +
             " are the nodes of its graph",
         "period looks at the sequence grundy(G(0)), grundy(G(1)), ...; ask grundy of each node instead");
  }
  FastPath& f = ev.fast_path(game);
  const bool code = f.kind == FastPath::Kind::Kernel;
  const std::int64_t last = limit ? *limit : code ? kPeriodLimitCodes : kPeriodLimitRules;
  if (last < 1) fail("the limit of period must be at least 1, got " + std::to_string(last));
  if (f.p > 0) return PeriodInfo{f.n0, f.p, true};
  if (f.run_a > 0) {  // subtraction of a run: period a + b, from heap 0
    std::int64_t p = 0;
    if (__builtin_add_overflow(f.run_a, f.run_b, &p)) {
      fail("the values of " + game.display_name() + " repeat only after a + b = " +
               std::to_string(static_cast<std::uint64_t>(f.run_a) + static_cast<std::uint64_t>(f.run_b)) +
               " heaps, past the largest 64-bit heap",
           "its values are (n mod (a + b)) / a, here with a = " + std::to_string(f.run_a) +
               " and b = " + std::to_string(f.run_b));
    }
    return PeriodInfo{0, p, true};
  }
  DenseTable own;  // for games without a dense table: values one by one
  const DenseTable* table = nullptr;
  // A proof may show up in a prefix of the values (it holds for ever); an observed period
  // must hold on all of them, up to the limit and beyond when more are known.
  for (std::int64_t count = std::min<std::int64_t>(last + 1, 256);; count = std::min(2 * count, last + 1)) {
    table = ev.dense_values(game, static_cast<std::uint64_t>(count));
    if (!table) {
      while (static_cast<std::int64_t>(own.size()) < count) {
        const Position p{&game, Value::integer(static_cast<std::int64_t>(own.size()))};
        const std::uint64_t v = ev.grundy(p);
        // Only Nim-like values grow this far; they have no period to find.
        if (v >= kInProgress)
          fail("the nim-value of " + to_string(p) + " is too large for a table of values");
        own.push(static_cast<std::uint32_t>(v));
      }
      table = &own;
    }
    if (f.p > 0) return PeriodInfo{f.n0, f.p, true};
    // The kernel may have given way to the rules on the way (a recognised code that the
    // rules leave at some heap): only a kernel's table is proven.
    if (f.kind == FastPath::Kind::Kernel && f.spec->provable()) {
      if (auto r = proven_period(*table, *f.spec)) {
        f.n0 = r->n0;
        f.p = r->p;
        return *r;
      }
    }
    if (count > last) break;
  }
  if (auto seen = observed_period(*table)) return *seen;
  fail("no period shows up among the heaps 0.." + std::to_string(last) + " of " + game.display_name() +
           " (the limit)",
       "search further with period(" + game.display_name() +
           ", N), e.g. N = " + std::to_string(last < (INT64_MAX / 4) ? last * 4 : last));
}

}  // namespace grundy
