// Games whose outcomes come from a theorem (runtime/OutcomeRule.hpp): the k-multiple
// dynamic subtraction game (Fibonacci nim for k = 2) and Wythoff's game. The theorem's
// answers must be the rules' own: against a brute-force search here, and against the same
// rules written so that they are not recognised (a condition that holds anyway), which the
// outcome search evaluates.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "runtime/DynamicSubtraction.hpp"
#include "runtime/Wythoff.hpp"
#include "tests/unit/brute_force.hpp"
#include "tests/unit/support.hpp"

namespace {

using grundy::DynamicSubtraction;
using grundy::test::contains;
using grundy::test::run_explained;
using grundy::test::run_source;

// The heaps n >= 1 lost at the start, when the first player may take all but one: (n, n - 1).
std::vector<std::int64_t> first_losses(DynamicSubtraction& d, std::int64_t upto) {
  std::vector<std::int64_t> out;
  for (std::int64_t n = 1; n <= upto; ++n) {
    if (!d.wins_at(n, n - 1).value()) out.push_back(n);
  }
  return out;
}

}  // namespace

TEST_CASE("the k-multiple theorem agrees with a brute-force search", "[known][dynamic]") {
  for (std::int64_t k = 1; k <= 7; ++k) {
    CAPTURE(k);
    grundy::brute::FibNim brute(k);
    DynamicSubtraction theorem(k);
    for (std::int64_t n = -2; n <= 160; ++n) {
      for (std::int64_t limit = -2; limit <= 2 * n + 3; ++limit) {
        CAPTURE(n, limit);
        const auto w = theorem.wins_at(n, limit);
        REQUIRE(w.has_value());
        REQUIRE(*w == (n > 0 && limit > 0 && brute.wins(n, limit)));
      }
    }
  }
}

TEST_CASE("the k-multiple theorem's losing heaps are the published ones", "[known][dynamic]") {
  DynamicSubtraction one(1), two(2), three(3);
  // k = 1: the powers of 2; k = 2: the Fibonacci numbers (HDU 2516); k = 3: 1 2 3 4 6 8 11
  // 15 21 29 40 ..., each from 8 on the one before plus the one four back (POJ 3922).
  CHECK(first_losses(one, 300) == std::vector<std::int64_t>{1, 2, 4, 8, 16, 32, 64, 128, 256});
  CHECK(first_losses(two, 300) == std::vector<std::int64_t>{1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233});
  CHECK(first_losses(three, 120) ==
        std::vector<std::int64_t>{1, 2, 3, 4, 6, 8, 11, 15, 21, 29, 40, 55, 76, 105});
  // Far out: a Fibonacci number loses, one more wins by taking 1. F(92) is past the
  // theorem's reach for k = 2 (twice a take of F(92) - 1 overflows): the search decides it.
  auto answer = [](DynamicSubtraction& d, std::int64_t n, std::int64_t limit) {
    const auto w = d.wins_at(n, limit);
    REQUIRE(w.has_value());
    return *w;
  };
  CHECK_FALSE(two.wins_at(7540113804746346429, 7540113804746346428).has_value());  // F(92)
  CHECK_FALSE(answer(two, 2880067194370816120, 2880067194370816119));              // F(90)
  CHECK(answer(two, 2880067194370816121, 1));
  // k = 1: 2^62 is a power of 2, lost; the smallest term of 2^62 + 4 is 4.
  CHECK_FALSE(answer(one, std::int64_t{1} << 62, (std::int64_t{1} << 62) - 1));
  CHECK(answer(one, (std::int64_t{1} << 62) + 4, 4));
  CHECK_FALSE(answer(one, (std::int64_t{1} << 62) + 4, 3));
}

TEST_CASE("the k-multiple theorem leaves to the search what could overflow", "[known][dynamic]") {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  DynamicSubtraction two(2), huge(std::int64_t{1} << 62);
  // k * n fits: every take below fits.
  CHECK(two.wins_at(kMax / 2, kMax).has_value());
  // All of n may be taken at once and 2 * n does not fit.
  CHECK_FALSE(two.wins_at(kMax / 2 + 1, kMax).has_value());
  // At most n - 1 can be taken anywhere below, and 2 * (n - 1) fits.
  CHECK(two.wins_at(kMax / 2 + 1, 3).has_value());
  CHECK(huge.wins_at(1, 1).has_value());
  CHECK_FALSE(huge.wins_at(2, 2).has_value());
  CHECK_FALSE(huge.wins_at(3, 1).has_value());
}

TEST_CASE("rules saying the k-multiple game take the theorem, with the rules' answers",
          "[known][dynamic][lang]") {
  // Each game twice: as written, and with a condition that holds anyway, which keeps the
  // rules from being recognised.
  const std::string games =
      "game F { state (n, limit)  move (n - k, 2 * k) for k in 1..min(n, limit) }\n"
      "game Fs { state (n, limit)  move (n - k, 2 * k) for k in 1..min(n, limit) if k > 0 }\n"
      "game M(q) { state (n, l)  move (n - t, min(n - t, t * q)) for t in 1..min(l, n) }\n"
      "game Ms(q) { state (n, l)  move (n - t, min(n - t, t * q)) for t in 1..min(l, n) if t > 0 }\n"
      "game Fi { state (n, limit)  move (n - k, 2 * k) for k in 1..limit if k <= n }\n"
      "game Sw { state (limit, n)  move (2 * k, n - k) for k in 1..min(n, limit) }\n"
      "game One { state (n, l)  move (n - t, t) for t in 1..min(n, l) }\n"
      "game Ones { state (n, l)  move (n - t, t) for t in 1..min(n, l) if t > 0 }\n"
      "game Ft { state (n, limit)  move (n - k, k + k) for k in 1..min(n, limit) }\n";
  const auto r = run_explained(
      games +
      "[(n, l) for n in -2..70 for l in -2..150 if wins(F(n, l)) != wins(Fs(n, l)) or wins(Fi(n, l)) != "
      "wins(Fs(n, l)) "
      "or wins(Sw(l, n)) != wins(Fs(n, l)) or wins(Ft(n, l)) != wins(Fs(n, l))]\n"
      "[(q, n, l) for q in 1..5 for n in 0..45 for l in 0..50 if wins(M[q](n, l)) != wins(Ms[q](n, l))]\n"
      "[(n, l) for n in 0..70 for l in 0..70 if outcome(One(n, l)) != outcome(Ones(n, l))]\n"
      "[len(winning(F(n, n - 1))) == len(winning(Fs(n, n - 1))) for n in [10, 20, 21, 100]]\n"
      "winning(F(20, 19))\n"
      "wins(F(10^18, 10^18 - 1))\nwins(F(2^62, 3))\n");
  CHECK(r.out == "[]\n[]\n[]\n[true, true, true, true]\n[F(18, 4)]\ntrue\ntrue\n");
  CHECK(contains(r.explain, "F: outcomes (wins, outcome) by a theorem: 2-multiple dynamic subtraction"));
  CHECK(contains(r.explain, "M[3]: outcomes (wins, outcome) by a theorem: 3-multiple"));
  CHECK(contains(r.explain, "Fi: outcomes (wins, outcome) by a theorem: 2-multiple"));
  CHECK(contains(r.explain, "Sw: outcomes (wins, outcome) by a theorem: 2-multiple"));
  CHECK(contains(r.explain, "Ft: outcomes (wins, outcome) by a theorem: 2-multiple"));
  CHECK(contains(r.explain, "One: outcomes (wins, outcome) by a theorem: 1-multiple"));
  CHECK_FALSE(contains(r.explain, "Fs: outcomes"));
  CHECK_FALSE(contains(r.explain, "Ms[3]: outcomes"));
}

TEST_CASE("a k-multiple game whose k does not fit the theorem is searched", "[known][dynamic][lang]") {
  // k = 0 leaves nothing to take after the first move, so any heap is won; k = 2^62 overflows at the second
  // move, an error of the rules, with or without the theorem.
  const auto zero = run_explained(
      "game M(q) { state (n, l)  move (n - t, q * t) for t in 1..min(n, l) }\n"
      "[wins(M[0](n, 5)) for n in 0..7]\n");
  CHECK(zero.out == "[false, true, true, true, true, true, true, true]\n");
  CHECK_FALSE(contains(zero.explain, "by a theorem"));
  const auto over = run_source(
      "game M(q) { state (n, l)  move (n - t, q * t) for t in 1..min(n, l) }\nwins(M[2^62](3, 1))\n");
  CHECK(over.code == grundy::kExitRuntime);
  CHECK(contains(over.err, "overflow"));
}

TEST_CASE("Wythoff's theorem agrees with a brute-force search", "[known][wythoff]") {
  const auto g = grundy::brute::wythoff(150);
  for (std::int64_t a = 0; a <= 150; ++a) {
    for (std::int64_t b = 0; b <= 150; ++b) {
      CAPTURE(a, b);
      REQUIRE(grundy::wythoff_loses(a, b) ==
              (g[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] == 0));
    }
  }
}

TEST_CASE("Wythoff's theorem is exact up to the 64-bit limit", "[known][wythoff]") {
  // (floor(k phi), floor(k phi) + k) for k = 1000, 10^6, 123456789123, 10^15 + 7, 2^61 and
  // 3522585005634720000, from floor(k phi) = (k + isqrt(5 k^2)) / 2 in exact arithmetic.
  const std::pair<std::int64_t, std::int64_t> losing[] = {{1618, 2618},
                                                          {1618033, 2618033},
                                                          {199757280942, 323214070065},
                                                          {1618033988749906, 2618033988749913},
                                                          {3730932361629093762, 6036775370842787714},
                                                          {5699662267377716820, 9222247273012436820}};
  for (auto [a, b] : losing) {
    CAPTURE(a, b);
    CHECK(grundy::wythoff_loses(a, b));
    CHECK(grundy::wythoff_loses(b, a));
    CHECK_FALSE(grundy::wythoff_loses(a + 1, b));
    CHECK_FALSE(grundy::wythoff_loses(a - 1, b));
    CHECK_FALSE(grundy::wythoff_loses(a, b + 1));
    CHECK_FALSE(grundy::wythoff_loses(a + 1, b + 1));
  }
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  CHECK_FALSE(grundy::wythoff_loses(0, kMax));
  CHECK_FALSE(grundy::wythoff_loses(kMax, kMax));
  CHECK(grundy::wythoff_loses(0, 0));
}

TEST_CASE("rules saying Wythoff's game take the theorem, with the rules' answers", "[known][wythoff][lang]") {
  const std::string games =
      "game W { state (a, b)  move (a - k, b) for k in 1..a  move (a, b - k) for k in 1..b "
      " move (a - k, b - k) for k in 1..min(a, b) }\n"
      "game V { state (x, y)  move (x - j, y - j) for j in 1..x if y >= j  move (x, y - i) for i in 1..y "
      " move (x - i, y) for i in 1..x }\n"
      "game Ws { state (a, b)  move (a - k, b) for k in 1..a  move (a, b - k) for k in 1..b "
      " move (a - k, b - k) for k in 1..min(a, b) if k > 0 }\n"
      // Not Wythoff: the diagonal move takes one more from b (its losing pairs below were
      // checked by a separate brute-force search).
      "game Not { state (a, b)  move (a - k, b) for k in 1..a  move (a, b - k) for k in 1..b "
      " move (a - k, b - k - 1) for k in 1..min(a, b) }\n";
  const auto r = run_explained(games +
                               "[(a, b) for a in -2..40 for b in -2..40 if wins(W(a, b)) != wins(Ws(a, b)) "
                               "or wins(V(a, b)) != wins(Ws(a, b))]\n"
                               "[(a, b) for a in 0..12 for b in a..12 if not wins(Not(a, b))]\n"
                               "outcome(W(3730932361629093762, 6036775370842787714))\n"
                               "outcome(W(6036775370842787714, 3730932361629093761))\n");
  CHECK(r.out == "[]\n[(0, 0), (1, 3), (4, 6), (7, 9), (10, 12)]\nP\nN\n");
  CHECK(contains(r.explain, "W: outcomes (wins, outcome) by a theorem: Wythoff's game"));
  CHECK(contains(r.explain, "V: outcomes (wins, outcome) by a theorem: Wythoff's game"));
  CHECK_FALSE(contains(r.explain, "Ws: outcomes"));
  CHECK_FALSE(contains(r.explain, "Not: outcomes"));
}
