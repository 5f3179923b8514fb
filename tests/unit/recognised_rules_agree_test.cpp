// Fast paths seen from the language: hand-written rules recognised as kernels (checked with
// --explain's report and against the same rules written so that they are not recognised),
// dense tables and where they hand over to the search, proven periods and huge heaps.
#include <chrono>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/unit/brute_force.hpp"
#include "tests/unit/support.hpp"

namespace {

using grundy::SessionOptions;
using grundy::test::contains;
using grundy::test::list_ints;
using grundy::test::run_explained;
using grundy::test::run_line;
using grundy::test::run_lines;
using grundy::test::run_source;

// The values 0..max of `game` (a rule body after `state n`), written as given and written
// with a `let`, which the recognizer does not look through: the general evaluation.
void same_values(const std::string& body, const std::string& general_body, int max,
                 const std::string& kernel) {
  const std::string upto = std::to_string(max);
  const auto fast =
      run_explained("game G { state n " + body + " }\n[grundy(G(n)) for n in 0.." + upto + "]\n");
  INFO(body << "\n" << fast.explain);
  CHECK(contains(fast.explain, "G: native kernel for " + kernel));
  const auto slow = run_explained("game H { state n  let z = 0 " + general_body +
                                  " }\n[grundy(H(n)) for n in 0.." + upto + "]\n");
  CHECK_FALSE(contains(slow.explain, "native kernel"));
  CHECK(list_ints(fast.out.substr(0, fast.out.size() - 1)) ==
        list_ints(slow.out.substr(0, slow.out.size() - 1)));
}

}  // namespace

TEST_CASE("hand-written rules are recognised as kernels with the same values", "[fast][recognize]") {
  same_values("split [a, n - t - a] for t in 1..2 for a in 0..n-t",
              "split [a, n - t - a + z] for t in 1..2 for a in 0..n-t", 120, "0.77");
  same_values("split [a, n - 2 - a] for a in 0..n-2", "split [a, n - 2 - a + z] for a in 0..n-2", 120,
              "0.07");
  same_values("split [n - a - t, a] for t in {2} for a in 0..(n - t - 1) / 2",
              "split [n - a - t + z, a] for t in {2} for a in 0..(n - t - 1) / 2", 120,
              "0.07 (splits into unequal heaps)");
  same_values("split [a, n - a] for a in 1..(n - 1) / 2", "split [a, n - a + z] for a in 1..(n - 1) / 2", 150,
              "4. (splits into unequal heaps)");
  same_values("split [a, n - a] for a in 1..n-1 if a != n - a",
              "split [a, n - a + z] for a in 1..n-1 if a != n - a", 150, "4. (splits into unequal heaps)");
  // Conditions that keep the lower half of the splits, and the top of a full range (a = m
  // leaves the one heap m): Grundy's game, 4. and Officers written the long way.
  same_values("split [a, n - a] for a in 1..n-1 if a < n - a",
              "split [a, n - a + z] for a in 1..n-1 if a < n - a", 150, "4. (splits into unequal heaps)");
  same_values("split [a, n - a] for a in 1..n if n - a > a",
              "split [a, n - a + z] for a in 1..n if n - a > a", 150, "4. (splits into unequal heaps)");
  same_values("split [a, n - a] for a in 1..n if 2 * a <= n",
              "split [a, n - a + z] for a in 1..n if 2 * a <= n", 150, "4.;");
  same_values("split [a, n - 1 - a] for a in 1..n-1", "split [a, n - 1 - a + z] for a in 1..n-1", 150,
              "0.6;");
  same_values("move k for k in 0..n-1  split [a, n - a] for a in 1..n/2",
              "move k + z for k in 0..n-1  split [a, n - a] for a in 1..n/2", 150, "4.(3 from 1)");
  same_values("move n - s for s in {1, 3, 4} if s <= n", "move n - s + z for s in {1, 3, 4} if s <= n", 200,
              "subtraction {1, 3, 4}");
  same_values("move n - s for s in [2, 5, 9] if n >= s", "move n - s + z for s in [2, 5, 9] if n >= s", 200,
              "subtraction {2, 5, 9}");
  same_values("move n - k for k in 1..min(5, n)", "move n - k + z for k in 1..min(5, n)", 200,
              "subtraction {1, 2, 3, 4, 5}");
  same_values("move n - k for k in 1..n if k != 2", "move n - k + z for k in 1..n if k != 2", 300,
              "subtraction, all but {2}");
  same_values("move n - k for k in 1..n if k not in {2, 5}",
              "move n - k + z for k in 1..n if k not in {2, 5}", 300, "subtraction, all but {2, 5}");
  same_values("move n - k for k in 1..n-1", "move n - k + z for k in 1..n-1", 100, "0.(2 from 1)");
  same_values("move n - 1 if n >= 1  split [a, n - 1 - a] for a in 1..n-2",
              "move n - 1 + z if n >= 1  split [a, n - 1 - a] for a in 1..n-2", 150, "0.7");
  same_values("move n - 2 if n > 2  split [a, n - 2 - a] for a in 1..n-3",
              "move n - 2 + z if n > 2  split [a, n - 2 - a] for a in 1..n-3", 150, "0.06");
}

TEST_CASE("recognised parameters are evaluated per instance", "[fast][recognize]") {
  const auto r = run_explained(
      "game SNim(S) { state n  move n - s for s in S if s <= n }\n"
      "game Bash(m) { state n  move n - k for k in 1..min(m, n) }\n"
      "[grundy(SNim[{1, 3, 4}](n)) for n in 0..13]\n"
      "[grundy(Bash[3](n)) for n in 0..9]\n"
      "grundy(SNim[{2, 5}](10^18))\n"
      "grundy(Bash[1000](10^12))\n");
  const auto g25 = grundy::brute::subtraction({2, 5}, 1000);
  const auto [n0, p] = grundy::brute::period(g25, 100);
  const long long far = 1000000000000000000LL;
  CHECK(r.out == "[0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]\n[0, 1, 2, 3, 0, 1, 2, 3, 0, 1]\n" +
                     std::to_string(g25[static_cast<std::size_t>(n0 + (far - n0) % p)]) + "\n" +
                     std::to_string(1000000000000LL % 1001) + "\n");
  CHECK(contains(r.explain, "SNim[{1, 3, 4}]: native kernel for subtraction {1, 3, 4}"));
  CHECK(contains(r.explain, "Bash[3]: native kernel for subtraction {1, 2, 3}"));
}

TEST_CASE("rules that are not a heap game stay with the general evaluation", "[fast][recognize]") {
  const auto r = run_explained(
      "game Mock { state k  split []  split [a] for a in 1..k-1  split [a, b] for a in 1..k-1 for b in "
      "a+1..k-1 }\n"
      "game Half { state n  move n / 2 if n > 0 }\n"
      "game Fib { state n  move n - f for f in [1, 2, 3, 5, 8, 13] if f <= n and f > 0 }\n"
      "[grundy(Mock(k)) for k in 1..12]\n"
      "grundy(Half(10^15))\n"
      "grundy(Fib(40))\n");
  // Half(10^15): 50 halvings to 0, so the value is 0 (odd bit length gives 1).
  CHECK(r.out == "[1, 2, 4, 7, 8, 11, 13, 14, 16, 19, 21, 22]\n0\n" +
                     std::to_string(grundy::brute::subtraction({1, 2, 3, 5, 8, 13}, 40)[40]) + "\n");
  CHECK_FALSE(contains(r.explain, "Mock: native kernel"));
  CHECK_FALSE(contains(r.explain, "Half: native kernel"));
  CHECK(contains(r.explain, "Mock: compiled rules"));
}

TEST_CASE("a recognised game keeps the errors of its rules", "[fast][recognize]") {
  // A removal of 0 is a loop, found by the search as before.
  const auto loop = run_source("game L { state n  move n - s for s in {0, 1} if s <= n }\ngrundy(L(5))\n");
  CHECK(loop.code == grundy::kExitRuntime);
  CHECK(contains(loop.err, "the rules loop"));
  // [0, n] is the heap itself (seen before running, or when running).
  const auto self = run_source("game K { state n  split [a, n - a] for a in 0..n }\ngrundy(K(3))\n");
  CHECK(self.code != 0);
  CHECK(contains(self.err, "the rules loop"));
}

TEST_CASE("dense tables hand over to the search where the pattern breaks", "[fast][dense]") {
  // Heap 3 divides by zero, but no even heap needs it: the query must still answer, as the
  // memoized search alone would. Written with a function that may call itself (which the
  // compiler does not inline), the rules are evaluated by their cursor into a table filled
  // bottom-up; written inline, they are compiled.
  for (const std::string game : {"def d(n) = if false then [d(n)][0] else 10 / (n - 3)\ngame G { state n  move n "
                                 "- 2 if n >= 2  move d(n) if n == 3 }\n",
                                 "game G { state n  move n - 2 if n >= 2  move 10 / (n - 3) if n == 3 }\n"}) {
    const auto r = run_explained(game + "grundy(G(6))\ngrundy(G(8))\n");
    INFO(r.explain);
    CHECK(r.out == "1\n0\n");
    // Bottom-up meets heap 3 and hands over; top-down (compiled) never visits it.
    if (contains(game, "def")) CHECK(contains(r.explain, "G: the dense table stops at state 3"));
    else CHECK_FALSE(contains(r.explain, "stop"));
    const auto err = run_source(game + "grundy(G(5))\n");
    CHECK(err.code == grundy::kExitRuntime);
    CHECK(contains(err.err, "division by zero"));
  }
  // A move to a bigger state breaks the pattern; the loop is still named.
  const auto loop =
      run_source("game Loop { state n  move n + 1 if n < 3  move n - 1 if n > 0 }\ngrundy(Loop(0))\n");
  CHECK(contains(loop.err, "Loop(2) -> Loop(3) -> Loop(2)"));
}

TEST_CASE("period: proven for codes and recognised rules, observed otherwise", "[fast][period]") {
  const auto lines = run_lines(
      "import octal\n"
      "game Kay { state n  split [a, n - t - a] for t in 1..2 for a in 0..n-t }\n"
      "game S = subtraction {2, 5, 6}\n"
      "game Three { state n  let m = n  move m - 1 if m >= 1  move m - 2 if m >= 2 }\n"
      "period(Kayles)\nperiod(Dawson)\nperiod(DawsonsChess)\nperiod(Kay)\nperiod(S)\nperiod(Three)\n"
      "period(Kayles)[2] == \"proven\"\n",
      7);
  CHECK(lines[0] == "(71, 12, proven)");
  CHECK(lines[1] == "(53, 34, proven)");
  CHECK(lines[2] == "(52, 34, proven)");
  CHECK(lines[3] == "(71, 12, proven)");
  const auto s = grundy::brute::period(grundy::brute::subtraction({2, 5, 6}, 2000), 200);
  CHECK(lines[4] == "(" + std::to_string(s.first) + ", " + std::to_string(s.second) + ", proven)");
  CHECK(lines[5] == "(0, 3, observed)");
  CHECK(lines[6] == "true");
  // Grundy's game shows no period; the error names the limit.
  const auto none = run_source("import octal\nperiod(GrundysGame, 5000)\n");
  CHECK(none.code == grundy::kExitRuntime);
  CHECK(contains(none.err, "5000"));
}

TEST_CASE("period: subtraction sets with a large element are proven by the kernel", "[fast][period]") {
  // Their values are floor(n / 100000) mod 2 and (for {1, 3, 70000}) n mod 2 below 70000:
  // a short prefix of them shows a period of 1 or 2 that does not hold.
  const auto lines = run_lines(
      "import nim\n"
      "game S = subtraction {100000}\n"
      "game T = subtraction {1, 3, 70000}\n"
      "period(S)\nperiod(SNim[{1, 3, 70000}])\nperiod(T)\n"
      "[grundy(S(n)) for n in [99999, 100000, 199999, 200000, 10^18]]\n",
      4);
  CHECK(lines[0] == "(0, 200000, proven)");
  CHECK(lines[1] == "(0, 70003, proven)");
  CHECK(lines[2] == "(0, 70003, proven)");
  CHECK(lines[3] == "[0, 1, 1, 0, 0]");
  const auto t = grundy::brute::subtraction({1, 3, 70000}, 3 * 70003);
  bool two = true;
  for (std::size_t n = 0; n + 70003 < t.size(); ++n) {
    REQUIRE(t[n] == t[n + 70003]);
    two = two && t[n] == t[n + 2];
  }
  CHECK(!two);
}

TEST_CASE("rules recognised as Nim give a negative state no option, as written", "[fast][recognize]") {
  // No guard: N(-1) is a position, and `0..n-1` is empty there. The same rules kept from the
  // recogniser (`if true`) say so; a shorthand's states are heap sizes (an error).
  const std::string queries =
      "[grundy(N(-1)), grundy(N(-5) + N(3)), grundy(M(-2))]\n[wins(N(-1)), wins(N(-1) + N(2))]\n"
      "[outcome(misere N(-3)), outcome(misere (N(-3) + N(1))), outcome(misere (N(-3) + N(2) + N(2)))]\n"
      "options(N(-4))\nwinning(N(-1) + N(2))\n";
  const auto fast = run_source("game N { state n  move k for k in 0..n-1 }\n"
                               "game M { state n  move n - k for k in 1..n }\n" + queries);
  const auto slow = run_source("game N { state n  move k for k in 0..n-1 if true }\n"
                               "game M { state n  move n - k for k in 1..n if true }\n" + queries);
  CHECK(fast.code == 0);
  CHECK(fast.out == slow.out);
  CHECK(fast.out == "[0, 3, 0]\n[false, true]\n[N, P, P]\n[]\n[N(-1) + N(0)]\n");
  const auto shorthand = run_source("game H = subtraction {1, 2}\ngrundy(H(-1))\n");
  CHECK(shorthand.code == grundy::kExitRuntime);
  CHECK(contains(shorthand.err, "heap sizes are >= 0"));
}

TEST_CASE("period: the largest limit is a limit like the others", "[fast][period]") {
  // limit + 1 heaps overflowed: an internal error, or a loop that never polled.
  const auto lines = run_lines(
      "game S { state n  move n - s for s in {1, 3, 4} if s <= n }\n"
      "game K { state n  split [a, n - t - a] for t in 1..2 for a in 0..n-t }\n"
      "period(S, 9223372036854775807)\nperiod(K, 9223372036854775807)\n",
      2);
  CHECK(lines[0] == "(0, 7, proven)");
  CHECK(lines[1] == "(71, 12, proven)");
}

TEST_CASE("period: an observed period holds on every value up to the limit", "[fast][period]") {
  // One extra move at heap 300 (500) breaks the period of the rest; a period seen on the
  // first 256 values does not hold up to 4096.
  const auto lines = run_lines(
      "game G { state n  move n - s for s in {1, 3, 4} if s <= n  move 200 if n == 300 }\n"
      "game K { state n  split [a, n - t - a] for t in 1..2 for a in 0..n-t  move n - 100 if n == 500 }\n"
      "period(G, 4096)\nperiod(K, 4096)\n"
      "[grundy(G(n)) == grundy(G(n + 7)) for n in [292, 293, 300, 301]]\n",
      3);
  CHECK(lines[0] == "(301, 7, observed)");
  CHECK(lines[1] == "(502, 12, observed)");
  CHECK(lines[2] == "[true, false, false, true]");
  // Values computed beyond the limit count too: a period must not contradict them.
  // (H is a dense table: d, which calls itself, hides the moves from the compiler.)
  const auto more = run_lines(
      "def d(m) = if false then [d(m)][0] else m - 1\n"
      "game H { state n  move d(n) if n >= 1  move d(d(n)) if n >= 2  move 0 if n == 1002 }\n"
      "grundy(H(6000))\nperiod(H, 300)\n",
      2);
  CHECK(more[1] == "(1003, 3, observed)");
}

TEST_CASE("period: a graph game's states are nodes, not heaps", "[fast][period]") {
  for (const char* graph : {"game C = graph { 0 -> 1; 1 -> 2; 2 -> 3 }\n", "game C = graph { a -> b }\n"}) {
    const auto r = run_source(std::string(graph) + "period(C)\n");
    INFO(r);
    CHECK(r.code == grundy::kExitRuntime);
    CHECK(contains(r.err, "error: period needs a game whose state is a heap size"));
    CHECK(contains(r.err, "nodes"));
  }
}

TEST_CASE("proven periods of random codes hold far beyond the proof", "[fast][period]") {
  // Every period reported proven must hold on values computed independently.
  const std::vector<std::string> codes = {"0.07", "0.77",  "0.137", "0.51", "0.333", "0.7777",
                                          "0.04", "0.056", "0.35",  "4.7",  "0.8",   "0.15",
                                          "0.14", "0.52",  "0.45",  "0.44", "0.71"};
  for (const std::string& code : codes) {
    const auto r = run_source("game G = octal \"" + code + "\"\nperiod(G, 3000)\n");
    const std::string line = r.out;
    INFO(code << ": " << r);
    if (r.code != 0 || !contains(line, "proven")) continue;
    long n0 = 0, p = 0;
    REQUIRE(std::sscanf(line.c_str(), "(%ld, %ld", &n0, &p) == 2);
    const int far = static_cast<int>(std::min<long>(3 * n0 + 6 * p + 300, 4000));
    const auto g = grundy::brute::octal(code, far);
    for (long n = n0; n + p <= far; ++n)
      REQUIRE(g[static_cast<std::size_t>(n)] == g[static_cast<std::size_t>(n + p)]);
    if (n0 > 0) CHECK(g[static_cast<std::size_t>(n0 - 1)] != g[static_cast<std::size_t>(n0 - 1 + p)]);
    const auto smallest = grundy::brute::period(g, p);
    CHECK(smallest.second == p);
  }
}

TEST_CASE("huge heaps answer from a proven period at once", "[fast][period]") {
  const auto start = std::chrono::steady_clock::now();
  const auto lines = run_lines(
      "import octal\n"
      "game S134 = subtraction {1, 3, 4}\n"
      "grundy(S134(10^18))\noutcome(Kayles(10^18))\nwins(Dawson(10^18 + 1))\n"
      "grundy(Kayles(9223372036854775807))\n",
      4);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(secs < 1.0);
  CHECK(lines[0] == "1");  // 10^18 % 7 == 1
  const auto k = grundy::brute::octal("0.77", 200);
  auto kayles = [&](long long n) { return k[static_cast<std::size_t>(n < 71 ? n : 71 + (n - 71) % 12)]; };
  CHECK(lines[1] == (kayles(1000000000000000000LL) ? "N" : "P"));
  const auto d = grundy::brute::octal("0.07", 200);
  CHECK(lines[2] == (d[static_cast<std::size_t>(53 + (1000000000000000001LL - 53) % 34)] ? "true" : "false"));
  CHECK(lines[3] == std::to_string(kayles(9223372036854775807LL)));
}

TEST_CASE("a tabulation reads known values straight from the table, and only those", "[fast][table]") {
  // Values the loop finds in the table, values it must compute first (past the table, a
  // proven period, a negative heap), through a function, and after the game is redefined:
  // all as the general query gives them.
  const auto r = run_source(
      "game S = subtraction {1, 3, 4}\n"
      "[grundy(S(n)) for n in 0..20]\n"
      "sum(grundy(S(n)) for n in 0..100000)\n"
      "[grundy(S(n)) for n in 99990..100005]\n"
      "def f(k) = grundy(S(k))\n"
      "[f(n) for n in 0..8]\n"
      "[grundy(S(n)) for n in -1..1]\n");
  INFO(r);
  const auto g = grundy::brute::subtraction({1, 3, 4}, 100005);
  std::int64_t total = 0;
  for (int n = 0; n <= 100000; ++n) total += g[static_cast<std::size_t>(n)];
  auto slice = [&](int lo, int hi) {
    std::string s = "[";
    for (int n = lo; n <= hi; ++n) s += (n > lo ? ", " : "") + std::to_string(g[static_cast<std::size_t>(n)]);
    return s + "]\n";
  };
  CHECK(r.out == slice(0, 20) + std::to_string(total) + "\n" + slice(99990, 100005) + slice(0, 8));
  CHECK(r.code == grundy::kExitRuntime);
  CHECK(contains(r.err, "heap sizes are >= 0, got -1"));
  // As the REPL runs them: one batch after another in one session, S defined again.
  std::ostringstream out, err;
  grundy::Session session(out, err);
  for (const char* batch :
       {"game S = subtraction {1, 2}\n[grundy(S(n)) for n in 0..6]\ndef f(k) = grundy(S(k))\n",
        "game S = subtraction {1, 3, 4}\n[grundy(S(n)) for n in 0..6]\n[f(n) for n in 0..6]\n"}) {
    CHECK(session.run_source(batch, "<repl>") == 0);
  }
  CHECK(err.str().empty());
  CHECK(out.str() == "[0, 1, 2, 0, 1, 2, 0]\n[0, 1, 0, 1, 2, 3, 2]\n[0, 1, 0, 1, 2, 3, 2]\n");
}

TEST_CASE("a subtraction game of a run {a..b} is valued (n mod (a + b)) / a without a table",
          "[fast][period]") {
  for (const auto& [a, b] :
       std::vector<std::pair<int, int>>{{1, 1}, {1, 3}, {2, 5}, {3, 6}, {4, 4}, {5, 9}}) {
    std::vector<int> set;
    for (int k = a; k <= b; ++k) set.push_back(k);
    const auto g = grundy::brute::subtraction(set, 200);
    std::string expect = "[";
    for (int n = 0; n <= 200; ++n) expect += (n ? ", " : "") + std::to_string(g[static_cast<std::size_t>(n)]);
    const std::string run = "{" + std::to_string(a) + ".." + std::to_string(b) + "}";
    INFO(run);
    const auto r = run_explained("game S { state n  move n - k for k in " + std::to_string(a) + "..min(n, " +
                                 std::to_string(b) + ") }\n" + "[grundy(S(n)) for n in 0..200]\nperiod(S)\n");
    CHECK(contains(r.explain, "a run of takes"));
    CHECK(r.out == expect + "]\n(0, " + std::to_string(a + b) + ", proven)\n");
  }
  // Far beyond any table: Bash[10^9], whose period is 10^9 + 1.
  const auto big = run_lines(
      "import nim\ngrundy(Bash[10^9](10^18))\nperiod(Bash[10^9])\nwins(Bash[10^9](3 * (10^9 + 1)))\n", 3);
  CHECK(big == std::vector<std::string>{std::to_string(1000000000000000000LL % 1000000001LL),
                                        "(0, 1000000001, proven)", "false"});
}

TEST_CASE("long tabulations of native kernels fit the default limits", "[fast][kernels][limits]") {
  // A kernel's table counts against --max-steps by its heaps, not its options: Grundy's game
  // to 2 * 10^5 looks at some 4 * 10^8 splits and must not need a flag. The value and the sum
  // of the table are those of the plain O(n^2) loop (computed once, outside the tests).
  const auto lines = run_lines(
      "import octal\ngrundy(GrundysGame(200000))\nsum(grundy(GrundysGame(n)) for n in 0..200000)\n", 2);
  CHECK(lines == std::vector<std::string>{"23", "12652627"});
}

TEST_CASE("sum of grundy(G(n)) over a range reads the table in blocks, with the values of the loop",
          "[fast][dense]") {
  // The block read must give what a sum heap by heap gives: here against the brute-force
  // values of a subtraction game (whose period is proven early, so most heaps are read by
  // the period, across its wrap) and against the same sum with an `if`, which takes the
  // element-by-element path.
  const auto g = grundy::brute::subtraction({2, 5, 7}, 3000);
  for (const auto& [lo, hi] : std::vector<std::pair<int, int>>{{0, 3000}, {1, 1}, {17, 2999}, {300, 301}}) {
    std::int64_t want = 0;
    for (int n = lo; n <= hi; ++n) want += g[static_cast<std::size_t>(n)];
    const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
    INFO(range);
    CHECK(run_line("game S = subtraction {2, 5, 7}\nsum(grundy(S(n)) for n in " + range + ")\n") ==
          std::to_string(want));
  }
  const std::string rules =
      "game H { state n  move n / 2 if n > 0  move n - 3 if n >= 3 }\n"
      "game K { state n  split [a, n - t - a] for t in 1..2 for a in 0..n-t }\n";
  const auto sums =
      run_lines(rules +
                    "sum(grundy(H(n)) for n in 5..5000) == sum(grundy(H(n)) for n in 5..5000 if true)\n"
                    "sum([grundy(K(n)) for n in 0..9000]) == sum([grundy(K(n)) for n in 0..9000 if true])\n"
                    "len([grundy(K(n)) for n in 3..9000])\n",
                3);
  CHECK(sums == std::vector<std::string>{"true", "true", "8998"});
}

TEST_CASE("a loop that asks grundy(G(n)) at every step fills the table first, and only then",
          "[fast][dense]") {
  const std::string h = "game H { state n  move n / 2 if n > 0  move n - 3 if n >= 3 }\n";
  // The same count with the query in the first `if` (filled first) and behind `if true`
  // (heap by heap), in a list, a len and a table.
  const auto same =
      run_lines(h + "len([n for n in 0..6000 if grundy(H(n)) == 0]) == "
                    "len([n for n in 0..6000 if true if grundy(H(n)) == 0])\n"
                    "[grundy(H(n)) + 1 for n in 100..3000] == [grundy(H(n)) + 1 for n in 100..3000 if true]\n"
                    "table(grundy(H(n)) for n in 0..3)\n",
                4);
  CHECK(same == std::vector<std::string>{"true", "true", "n 0 1 2 3 4 5 6 7 8 9", "0 0 1 0 2"});
  // A query that only some steps reach (behind `and`) must not fill the table to the end of
  // the range: here that would pass --max-states.
  SessionOptions tight;
  tight.limits.max_states = 1000;
  CHECK(run_line(h + "[n for n in 0..1000000 if n < 20 and grundy(H(n)) == 0]\n", tight) ==
        run_line(h + "[n for n in 0..19 if grundy(H(n)) == 0]\n"));
  // A range of negative heaps fails at its first step, as heap by heap, not at its last.
  for (const std::string loop : {"sum(grundy(S(n)) for n in -8..-5)", "[grundy(S(n)) for n in -8..-5]"}) {
    const auto r = run_source("game S = subtraction {1, 3, 4}\n" + loop + "\n");
    INFO(r);
    CHECK(r.code == 70);
    CHECK(contains(r.err, "heap sizes are >= 0, got -8"));
  }
}
