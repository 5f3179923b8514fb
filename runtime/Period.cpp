#include "runtime/Period.hpp"

#include "runtime/Error.hpp"

namespace grundy {

namespace {
// The first index of the run, ending at the end of the table, where g[i] == g[i + p].
template <typename T>
std::int64_t run_start(const std::vector<T>& g, std::int64_t p) {
  const auto L = static_cast<std::int64_t>(g.size());
  std::int64_t i = L - p - 1;
  const T* a = g.data();
  while (i >= 0 && a[i] == a[i + p]) --i;
  return i + 1;
}
}  // namespace

std::optional<PeriodInfo> proven_period(const DenseTable& values, const HeapSpec& spec) {
  if (!spec.provable()) return std::nullopt;
  return values.visit([&](const auto& g) -> std::optional<PeriodInfo> {
    const auto L = static_cast<std::int64_t>(g.size());
    for (std::int64_t p = 1; p < L; ++p) {
      // Even with n0 = 0 the bound must fit: bound(0, p) <= L - p.
      if (spec.proof_bound(0, p) > L - p) break;
      const std::int64_t n0 = run_start(g, p);
      if (n0 >= L - p) continue;
      if (spec.proof_bound(n0, p) <= L - p) return PeriodInfo{n0, p, true};
    }
    return std::nullopt;
  });
}

std::optional<PeriodInfo> observed_period(const DenseTable& values) {
  return values.visit([&](const auto& g) -> std::optional<PeriodInfo> {
    const auto L = static_cast<std::int64_t>(g.size());
    for (std::int64_t p = 1; 3 * p < L / 2; ++p) {
      const std::int64_t n0 = run_start(g, p);
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
  FastPath& f = ev.fast_path(game);
  const bool code = f.kind == FastPath::Kind::Kernel;
  // The kernel may give way to the rules on the way (a recognised code that the rules
  // leave at some heap): only a kernel's table is proven.
  auto provable = [&f] { return f.kind == FastPath::Kind::Kernel && f.spec->provable(); };
  const std::int64_t last = limit ? *limit : code ? kPeriodLimitCodes : kPeriodLimitRules;
  if (last < 1) fail("the limit of period must be at least 1, got " + std::to_string(last));
  if (f.p > 0) return PeriodInfo{f.n0, f.p, true};
  if (f.run_a > 0) return PeriodInfo{0, f.run_a + f.run_b, true};  // subtraction of a run
  DenseTable own;  // for games without a dense table: values one by one
  const DenseTable* table = nullptr;
  std::optional<PeriodInfo> seen;
  for (std::int64_t count = std::min<std::int64_t>(last + 1, 256);; count = std::min(2 * count, last + 1)) {
    table = ev.dense_values(game, static_cast<std::uint64_t>(count));
    if (!table) {
      while (static_cast<std::int64_t>(own.size()) < count) {
        const Position p{&game, Value::integer(static_cast<std::int64_t>(own.size()))};
        const std::uint64_t v = ev.grundy(p);
        // Only Nim-like values grow this far; they have no period to find.
        if (v >= kInProgress) fail("the nim-value of " + to_string(p) + " is too large for a table of values");
        own.push(static_cast<std::uint32_t>(v));
      }
      table = &own;
    }
    if (f.p > 0) return PeriodInfo{f.n0, f.p, true};
    if (provable()) {
      if (auto r = proven_period(*table, *f.spec)) {
        f.n0 = r->n0;
        f.p = r->p;
        return *r;
      }
      seen = observed_period(*table);
    } else if ((seen = observed_period(*table))) {
      return *seen;
    }
    if (count > last) break;
  }
  if (seen) return *seen;
  fail("no period shows up among the heaps 0.." + std::to_string(last) + " of " +
           game.display_name() + " (the limit)",
       "search further with period(" + game.display_name() + ", N), e.g. N = " +
           std::to_string(last < (INT64_MAX / 4) ? last * 4 : last));
}

}  // namespace grundy
