// The language through grundy::Session: printing, expressions, rules, queries, and the
// design document's examples.
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "lang/Statements.hpp"
#include "tests/unit/support.hpp"

namespace {

using grundy::test::contains;
using grundy::test::lines_of;
using grundy::test::run_line;
using grundy::test::run_lines;
using grundy::test::run_ok;
using grundy::test::run_source;

struct Case {
  const char* source;
  const char* printed;  // the whole stdout
};

// Runs each case as its own program, so that one failure names its own source.
void check_cases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    const auto r = run_source(c.source);
    INFO("program:\n" << c.source << "\n" << r);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(r.out == c.printed);
  }
}

}  // namespace

TEST_CASE("values print in the language's syntax", "[lang][print]") {
  check_cases({
      {"3", "3\n"},
      {"-7", "-7\n"},
      {"true", "true\n"},
      {"false", "false\n"},
      {"(2, 5)", "(2, 5)\n"},
      {"[0, 1, 1, 2]", "[0, 1, 1, 2]\n"},
      {"[]", "[]\n"},
      {"{4, 1, 3, 1}", "{1, 3, 4}\n"},
      {"N", "N\n"},
      {"P", "P\n"},
      {"\"hi\"", "hi\n"},
      {"[\"hi\", \"a b\"]", "[\"hi\", \"a b\"]\n"},
      {"1..5", "1..5\n"},
      {"[(1, [2, 3]), (4, [])]", "[(1, [2, 3]), (4, [])]\n"},
      {"9223372036854775807", "9223372036854775807\n"},
      {"-9223372036854775807 - 1", "-9223372036854775808\n"},
  });
}

TEST_CASE("positions and sums print as they are written", "[lang][print]") {
  const std::string out = run_ok(
      "game Kayles = octal \"0.77\"\n"
      "game Nim { state n   move k for k in 0..n-1 }\n"
      "game Bash(m) { state n   move n - k for k in 1..min(m, n) }\n"
      "game SNim(S) { state n   move n - s for s in S if s <= n }\n"
      "game W { state (a, b)  move (a - 1, b) if a > 0 }\n"
      "game Row { state cells  move remove(cells, 0) if len(cells) > 0 }\n"
      "Kayles(10)\n"
      "W(3, 5)\n"
      "Bash[3](10)\n"
      "SNim[{1, 3, 4}](7)\n"
      "SNim[{4, 3, 1}](7)\n"
      "SNim[{4, 3, 1}](7) == SNim[{1, 3, 4}](7)\n"
      "Row([1, 0])\n"
      "Kayles(3) + Kayles(4)\n"
      "misere (Nim(1) + Nim(2))\n"
      "every (Nim(1) + Nim(2))\n"
      "misere Nim(3)\n");
  CHECK(out ==
        "Kayles(10)\n"
        "W(3, 5)\n"
        "Bash[3](10)\n"
        "SNim[{1, 3, 4}](7)\n"
        "SNim[{1, 3, 4}](7)\n"
        "true\n"
        "Row([1, 0])\n"
        "Kayles(3) + Kayles(4)\n"
        "misere (Nim(1) + Nim(2))\n"
        "every (Nim(1) + Nim(2))\n"
        "misere Nim(3)\n");
}

TEST_CASE("modified sums print as text that reads back as the same value", "[lang][print][every]") {
  // A component of an every sum that is itself a sum (a split inside it) keeps its own
  // parentheses, also when it is the only one: `every ((K(1) + K(4)))` is one component,
  // `every (K(1) + K(4))` two.
  const std::string kayles = "game K { state n  split [a, n - t - a] for t in 1..2 for a in 0..n-t }\n";
  const std::vector<std::string> values{"winning(every K(6))[0]",
                                        "options(every K(5))[2]",
                                        "every (K(1) + K(4))",
                                        "every ((K(1) + K(4)))",
                                        "every ((K(1) + K(4)) + K(2))",
                                        "options(every (K(3) + K(4)))[1]",
                                        "misere (K(1) + K(4))",
                                        "misere K(3)",
                                        "every K(3)"};
  for (const std::string& v : values) {
    const std::string printed = run_line(kayles + v + "\n");
    INFO(v << " prints " << printed);
    CHECK(run_line(kayles + "let x = " + v + "\nx == " + printed + "\n") == "true");
  }
  CHECK(run_line(kayles + "winning(every K(6))\n") == "[every ((K(1) + K(4)))]");
  CHECK(run_line(kayles + "[wins(every (K(1) + K(4))), wins(every ((K(1) + K(4))))]\n") == "[true, false]");
}

TEST_CASE("options and winning list options in rule order", "[lang][options]") {
  const std::string out = run_ok(
      "game Nim { state n   move k for k in 0..n-1 }\n"
      "game K {\n"
      "  state n\n"
      "  split [a, n - t - a] for t in 1..2 for a in 0..n-t\n"
      "}\n"
      "game MT { state k  split []  split [a] for a in 1..k-1 }\n"
      "options(Nim(2))\n"
      "options(K(3))\n"
      "options(Nim(1) + Nim(2))\n"
      "winning(Nim(3) + Nim(1))\n"
      "winning(Nim(2) + Nim(2))\n"
      "options(MT(1))\n"
      "options(MT(2))\n"
      "options(Nim(0))\n"
      "grundy(Nim(3) + Nim(5))\n"
      "outcome(Nim(0))\n"
      "outcome(Nim(2) + Nim(2))\n"
      "outcome(Nim(2) + Nim(3))\n"
      "wins(Nim(1))\n"
      "wins(Nim(0))\n");
  CHECK(out ==
        "[Nim(0), Nim(1)]\n"
        "[K(0) + K(2), K(1) + K(1), K(0) + K(1)]\n"
        "[Nim(0) + Nim(2), Nim(1) + Nim(0), Nim(1) + Nim(1)]\n"
        "[Nim(1) + Nim(1)]\n"
        "[]\n"
        "[0]\n"
        "[0, MT(1)]\n"
        "[]\n"
        "6\n"
        "P\n"
        "P\n"
        "N\n"
        "true\n"
        "false\n");
}

TEST_CASE("winning lists each winning sum once, from the first component that reaches it",
          "[lang][options]") {
  // Equal components give equal sums; a split part equal to the moved component does too
  // (K(2) + K(1) from either K(2) or K(3)). Against the definition: every option of the sum
  // whose value is 0, as a multiset, in order of first appearance.
  const std::string kayles = "game K { state n  split [a, n - t - a] for t in 1..2 for a in 0..n-t }\n";
  for (const char* sum : {"K(3) + K(3) + K(1)", "K(2) + K(3) + K(2) + K(5)", "K(4) + K(4) + K(4)",
                          "K(1) + K(2) + K(3) + K(6) + K(6)"}) {
    INFO(sum);
    const std::string by_definition =
        run_line(kayles + "let os = options(" + sum + ")\n[o for o in os if not wins(o)]\n");
    CHECK(run_line(kayles + "winning(" + sum + ")\n") == by_definition);
  }
  CHECK(run_line("game Nim { state n  move k for k in 0..n-1 }\nwinning(Nim(3) + Nim(3) + Nim(1))\n") ==
        "[Nim(2) + Nim(3) + Nim(1), Nim(3) + Nim(3) + Nim(0)]");
  // One position, asked of the outcome search option by option: the same list, with splits
  // (options that are sums) and options in other games among them.
  const std::string mixed =
      kayles + "game C { state (a, b)  move (a - k, b) for k in 1..a  move (a, min(b, j)) for j in 0..b-1  "
               "split [K(a), K(b)] if a == b  move K(a + b) if a + b < 5 }\n";
  for (const char* x : {"C(3, 3)", "C(4, 2)", "C(6, 6)", "C(1, 1)", "C(0, 0)", "K(9)"}) {
    INFO(x);
    CHECK(run_line(mixed + "winning(" + x + ")\n") ==
          run_line(mixed + "[o for o in options(" + x + ") if not wins(o)]\n"));
  }
}

TEST_CASE("winning of a misere sum by its quotient lists the options the definition does",
          "[lang][options][misere]") {
  // Heaps past 64: the sum's quotient answers each option by three factors (the parts before,
  // the option, the parts after); small ones, the search; both as the definition says.
  const std::string kayles = "import octal\n";
  for (const char* sum : {"Kayles(70) + Kayles(3) + Kayles(5)", "Kayles(71) + Kayles(71) + Kayles(2) + Kayles(0)",
                          "Kayles(80) + Kayles(9) + Kayles(4) + Kayles(1)", "Kayles(3) + Kayles(4) + Kayles(6)",
                          "Kayles(12) + Dawson(3) + Dawson(5)"}) {
    INFO(sum);
    const std::string by_definition =
        run_line(kayles + "[o for o in options(misere (" + sum + ")) if not wins(o)]\n");
    CHECK(run_line(kayles + "winning(misere (" + sum + "))\n") == by_definition);
  }
}

TEST_CASE("the SJ condition on a large heap is checked heap by heap, and the theorem answers",
          "[lang][misere]") {
  // Take one or two, or all from more than two: every follower of value 0 is terminal and no
  // move splits, so the SJ theorem holds; a heap of 200,000 is checked without a search frame
  // per follower. Against the theorem's rule on the nim-values, and the explanation.
  const std::string game = "game T { state n  move n - k for k in 1..min(2, n)  move 0 if n > 2 }\n";
  const auto r = grundy::test::run_explained(
      game + "let g = [grundy(T(400)), grundy(T(200000))]\n"
             "assert wins(misere (T(400) + T(200000))) == (((g[0] ^ g[1]) != 0) == (g[0] > 1 or g[1] > 1))\n"
             "wins(misere (T(400) + T(200000) + T(3)))\n");
  CHECK(contains(r.explain, "the SJ theorem (its condition checked"));
  // A game that breaks the condition far down: the search finds it, no theorem is used.
  const auto s = grundy::test::run_explained(
      "game U { state n  move n - 1 if n > 0  move n - 2 if n == 7 }\nwins(misere (U(3000) + U(2000)))\n");
  CHECK_FALSE(contains(s.explain, "the SJ theorem (its condition checked"));
}

TEST_CASE("nim-values past 32 bits: Nim heaps of 10^12 and their sums", "[lang][nim]") {
  const std::string nim = "import nim\ngame N { state n  move k for k in 0..n-1 }\n";
  CHECK(run_line(nim + "grundy(Nim(10^12) + Nim(3))\n") == "1000000000003");
  CHECK(run_line(nim + "grundy(N(9223372036854775807))\n") == "9223372036854775807");
  CHECK(run_line(nim + "[wins(Nim(4294967295)), wins(Nim(2^40) + N(2^40))]\n") == "[true, false]");
  CHECK(run_line(nim + "winning(Nim(10^12) + Nim(3) + Nim(5))\n") == "[Nim(6) + Nim(3) + Nim(5)]");
  // Tame: Bouton's misère rule, the genus g^(g, g xor 2) and a heap's one step to 0.
  CHECK(run_lines(nim + "wins(misere (Nim(10^12) + Nim(3)))\ngenus(Nim(10^12))\nsteps(Nim(10^12))\n", 3) ==
        std::vector<std::string>{"true", "1000000000000^{1000000000000,1000000000002}", "1"});
  CHECK(run_lines(nim + "genus(Nim(1) + Nim(1) + Nim(1))\ngenus(Nim(3) + Nim(1))\ngenus(Nim(0))\n", 3) ==
        std::vector<std::string>{"1^031", "2^20", "0^120"});
}

TEST_CASE("the stdlib's octal games list their options natively", "[lang][options][stdlib]") {
  // Kayles(3) as 0.77: remove one pin (leaving 2, or 1 + 1), or two pins (leaving 1).
  CHECK(run_line("import octal\noptions(Kayles(3))\n") == "[Kayles(2), Kayles(1) + Kayles(1), Kayles(1)]");
}

TEST_CASE("integer arithmetic", "[lang][int]") {
  check_cases({
      {"7 / 2", "3\n"},
      {"-7 / 2", "-3\n"},
      {"7 / -2", "-3\n"},
      {"-7 % 2", "-1\n"},
      {"7 % -2", "1\n"},
      {"2^10", "1024\n"},
      {"-2^2", "-4\n"},
      {"2^3^2", "512\n"},
      {"10^18", "1000000000000000000\n"},
      {"2 + 3 * 4", "14\n"},
      {"(2 + 3) * 4", "20\n"},
      {"3 xor 5", "6\n"},
      {"1 + 2 xor 4", "7\n"},  // xor binds looser than +
      {"3037000499 * 3037000499", "9223372030926249001\n"},
  });
}

TEST_CASE("booleans, comparisons and conditionals", "[lang]") {
  check_cases({
      {"not true", "false\n"},
      {"1 < 2 and 2 < 3", "true\n"},
      {"1 == 2 or false", "false\n"},
      {"not 1 == 2", "true\n"},  // not is looser than comparisons
      {"1 != 2", "true\n"},
      {"2 <= 2", "true\n"},
      {"3 >= 4", "false\n"},
      {"(1, 2) == (1, 2)", "true\n"},
      {"[1, 2] == [2, 1]", "false\n"},
      {"{1, 2} == {2, 1}", "true\n"},
      {"if 1 < 2 then 3 else 4", "3\n"},
      {"if 1 > 2 then \"big\" else \"small\"", "small\n"},
  });
}

TEST_CASE("collections and builtins", "[lang]") {
  check_cases({
      {"[y * y for y in 1..5 if y % 2 == 1]", "[1, 9, 25]\n"},
      {"[(a, b) for a in 1..2 for b in a..2]", "[(1, 1), (1, 2), (2, 2)]\n"},
      {"[x for x in 5..4]", "[]\n"},
      {"[x for x in {3, 1, 2}]", "[1, 2, 3]\n"},
      {"min(3, 1, 2)", "1\n"},
      {"max([4, 9, 2])", "9\n"},
      {"min({5, 7})", "5\n"},
      {"abs(-5)", "5\n"},
      {"len([1, 2, 3])", "3\n"},
      {"len({1, 1, 2})", "2\n"},
      {"sum([1, 2, 3])", "6\n"},
      {"sum([])", "0\n"},
      {"sorted([3, 1, 2])", "[1, 2, 3]\n"},
      {"mex({0, 1, 3})", "2\n"},
      {"mex([1, 2])", "0\n"},
      {"update([1, 2, 3], 1, 9)", "[1, 9, 3]\n"},
      {"remove([1, 2, 3], 0)", "[2, 3]\n"},
      {"remove({1, 3, 4}, 3)", "{1, 4}\n"},
      {"all([true, true])", "true\n"},
      {"all([true, false, true])", "false\n"},
      {"all([])", "true\n"},
      {"any([false, true])", "true\n"},
      {"any(x > 2 for x in 1..2)", "false\n"},
      {"any({})", "false\n"},
      {"[n for n in 2..30 if all(n % d != 0 for d in 2..n-1)]", "[2, 3, 5, 7, 11, 13, 17, 19, 23, 29]\n"},
      {"[10, 20, 30][1]", "20\n"},
      {"(7, 8)[0]", "7\n"},
  });
}

TEST_CASE("statements, lets, lines and comments", "[lang]") {
  check_cases({
      {"let x = 5\nx * 2\n", "10\n"},
      {"let x = 5\nlet y = x + 1\ny\n", "6\n"},
      {"1 +\n  2\n", "3\n"},
      {"[1,\n 2]\n", "[1, 2]\n"},
      {"(1,\n 2)\n", "(1, 2)\n"},
      {"1; 2\n", "1\n2\n"},
      {"# a comment\n1  # another\n\n\n2\n", "1\n2\n"},
      {"let x = 1\nassert x == 1\nimport nim\ngame A { state n }\n", ""},
      {"", ""},
      {"2", "2\n"},  // no newline at the end of the file
  });
}

TEST_CASE("functions", "[lang][def]") {
  check_cases({
      {"def fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2)\nfib(20)\n", "6765\n"},
      {"def sq(x) = x * x\nsq(sq(3))\n", "81\n"},
      {"def f(x) = g(x) + 1\ndef g(x) = 2 * x\nf(3)\n", "7\n"},  // visible in the whole file
      {"def add(a, b) = a + b\nadd(2, 3)\n", "5\n"},
  });
}

TEST_CASE("rules: clauses, locals, shapes and forward references", "[lang][rules]") {
  check_cases({
      // A game is visible in its whole file.
      {"grundy(A(2))\ngame A { state n  move n - 1 if n > 0 }\n", "0\n"},
      // A local computed from the state.
      {"game T { state n  let m = n - 1  move m if m >= 0 }\n[grundy(T(n)) for n in 0..5]\n",
       "[0, 1, 0, 1, 0, 1]\n"},
      // Destructuring in a clause.
      {"game P {\n"
       "  state (a, b)\n"
       "  move (x, y) for (x, y) in [(a - 1, b), (a, b - 1)] if x >= 0 and y >= 0\n"
       "}\n"
       "[grundy(P(a, b)) for a in 0..2 for b in 0..2]\n",
       "[0, 1, 0, 1, 0, 1, 0, 1, 0]\n"},
      // A list state.
      {"game Row {\n"
       "  state cells\n"
       "  move update(cells, i, 0) for i in 0..len(cells)-1 if cells[i] == 1\n"
       "}\n"
       "grundy(Row([1, 1, 0, 1]))\n"
       "options(Row([1, 0, 1]))\n",
       "1\n[Row([0, 0, 1]), Row([1, 0, 0])]\n"},
      // Another game's position in a move; an instance named with `game B3 = Bash[3]`.
      {"game Nim { state n   move k for k in 0..n-1 }\n"
       "game Bash(m) { state n   move n - k for k in 1..min(m, n) }\n"
       "game B3 = Bash[3]\n"
       "game ToNim { state n  move Nim(n) }\n"
       "grundy(ToNim(5))\n"
       "[grundy(B3(n)) for n in 0..8]\n",
       "0\n[0, 1, 2, 3, 0, 1, 2, 3, 0]\n"},
      // Functions inside rules (section 9).
      {"def fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2)\n"
       "game FibTake {\n"
       "  state n\n"
       "  move n - fib(k) for k in 2..40 if fib(k) <= n\n"
       "}\n"
       "[grundy(FibTake(n)) for n in 0..6]\n",
       "[0, 1, 2, 3, 0, 1, 2]\n"},
      // A game with two parameters.
      {"game Take(lo, hi) { state n  move n - k for k in lo..min(hi, n) }\n"
       "[grundy(Take[2, 3](n)) for n in 0..10]\n",
       "[0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 0]\n"},
  });
}

TEST_CASE("graph games", "[lang][graph]") {
  check_cases({
      {"game Chess = graph { 0 -> 1, 2;  1 -> 3;  2 -> 3 }\n[grundy(Chess(n)) for n in 0..3]\n",
       "[0, 1, 1, 0]\n"},
      {"game G = graph { start -> mid; mid -> end }\n[grundy(G(start)), grundy(G(mid))]\n", "[0, 1]\n"},
      {"game G = graph { 0 -> 1, 2; 3 }\ngrundy(G(3))\ngrundy(G(0))\n", "0\n1\n"},
  });
}

TEST_CASE("table prints something and exits 0", "[lang][table]") {
  // The layout is the core's to decide; here only that it runs and prints lines.
  const std::string one = run_ok("table(n * n for n in 0..5)\n");
  CHECK_FALSE(one.empty());
  const std::string two = run_ok("table(a * b for a in 0..3 for b in 0..3)\n");
  CHECK(lines_of(two).size() >= 4);
}

TEST_CASE("the design's section 1 example", "[lang][design]") {
  const std::string out = run_ok(R"(# Kayles: knock down one pin or two adjacent pins; the row splits in two.
game Kayles {
  state n
  split [a, n - t - a] for t in 1..2 for a in 0..n-t
}

grundy(Kayles(10))                     # prints 2
table(grundy(Kayles(n)) for n in 0..23)
wins(Kayles(3) + Kayles(4) + Kayles(7))   # first player to move wins? prints true/false
winning(Kayles(3) + Kayles(4))         # the moves that win, as positions
period(Kayles)                         # prints preperiod, period and whether it is proven
)");
  const auto lines = lines_of(out);
  REQUIRE(lines.size() >= 5);
  CHECK(lines.front() == "2");
  CHECK(lines[lines.size() - 3] == "false");
  CHECK(lines[lines.size() - 2] ==
        "[Kayles(0) + Kayles(1) + Kayles(4), Kayles(3) + Kayles(0) + Kayles(3), "
        "Kayles(3) + Kayles(1) + Kayles(2)]");
  CHECK(lines.back().rfind("(71, 12, ", 0) == 0);
}

TEST_CASE("the design's section 6 seed examples", "[lang][design]") {
  const std::string out = run_ok(R"(game Bash(m) { state n   move n - k for k in 1..min(m, n) }
game Nim     { state n   move k for k in 0..n-1 }
game SNim(S) { state n   move n - s for s in S if s <= n }
game Wythoff {
  state (a, b)
  move (a - k, b) for k in 1..a
  move (a, b - k) for k in 1..b
  move (a - k, b - k) for k in 1..min(a, b)
}
game FibNim {                      # take at most twice what the opponent just took
  state (n, limit)
  move (n - k, 2 * k) for k in 1..min(n, limit)
}
game Cut {                         # cut a w x h sheet; making a 1 x 1 piece wins
  state (w, h)
  split [(i, h), (w - i, h)] for i in 2..w-2
  split [(w, j), (w, h - j)] for j in 2..h-2
}
game Lasker {                      # take any number, or split a heap in two
  state n
  move k for k in 0..n-1
  split [a, n - a] for a in 1..n/2
}
game MockTurtle {                  # coin turning: a single head at position k
  state k
  split []
  split [a] for a in 1..k-1
  split [a, b] for a in 1..k-1 for b in a+1..k-1
}

assert not wins(Bash[2](9))                        # n % (m + 1) == 0 loses
assert wins(Nim(3) + Nim(3) + Nim(1))
assert not wins(Nim(3) + Nim(3))
assert grundy(SNim[{1, 3, 4}](7)) == 0
assert [n for n in 2..100 if not wins(FibNim(n, n - 1))] == [2, 3, 5, 8, 13, 21, 34, 55, 89]
assert not wins(Cut(2, 2))
assert wins(misere (Nim(1) + Nim(1)))
assert not wins(misere (Nim(1) + Nim(2) + Nim(3)))
table(outcome(Wythoff(a, b)) for a in 0..10 for b in 0..10)
)");
  CHECK(lines_of(out).size() >= 11);
}

TEST_CASE("the design's section 9 example", "[lang][design]") {
  CHECK(run_ok(R"(def fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2)
game FibTake {                     # take a Fibonacci number of tokens
  state n
  move n - fib(k) for k in 2..40 if fib(k) <= n
}
assert [grundy(FibTake(n)) for n in 0..6] == [0, 1, 2, 3, 0, 1, 2]
)") == "");
}

TEST_CASE("the DECISIONS modifier examples", "[lang][misere]") {
  check_cases({
      {"import nim\nwins(misere (Nim(1) + Nim(2) + Nim(3)))\n", "false\n"},
      {"import nim\nwins(misere (Nim(1) + Nim(1)))\n", "true\n"},
      {"import nim\noutcome(misere Nim(0))\n", "N\n"},  // no options: the opponent moved last
      {"import nim\noutcome(misere Nim(1))\n", "P\n"},
      {"import nim\nwins(misere Nim(1) + Nim(1))\n", "true\n"},  // misere covers the whole sum
      {"import nim\noptions(misere Nim(2))\n", "[misere Nim(0), misere Nim(1)]\n"},
      // every: the mover moves in each component that can move.
      {"import nim\noptions(every (Nim(1) + Nim(2)))\n",
       "[every (Nim(0) + Nim(0)), every (Nim(0) + Nim(1))]\n"},
  });
}

TEST_CASE("period of a hand-written game is observed, of a shorthand proven", "[lang][period]") {
  // B's rules are recognised as the subtraction game {1, 2, 3}, so its period is proven too;
  // C hides the same game behind a `let`, which the recognizer does not look through.
  const auto lines = run_lines(
      "game B { state n  move n - k for k in 1..min(3, n) }\n"
      "game C { state n  let m = n  move m - k for k in 1..min(3, m) }\n"
      "game S = subtraction {1, 2, 3}\n"
      "period(B)\n"
      "period(C)\n"
      "period(S)\n",
      3);
  CHECK(lines[0] == "(0, 4, proven)");
  CHECK(lines[1] == "(0, 4, observed)");
  CHECK(lines[2] == "(0, 4, proven)");
}

TEST_CASE("a value rule gives normal play's values, and the options stay the rules'", "[lang][value]") {
  // Subtraction {1, 2, 3} by its formula n % 4, next to the same rules searched: every query
  // that depends on values agrees; misère and every play, options and winning use the rules.
  const std::string games =
      "game F { state n  value n % 4  move n - k for k in 1..min(n, 3) }\n"
      "game S { state n  move n - k for k in 1..min(n, 3) if n >= 0 }\n";
  const std::vector<std::string> queries{
      "[grundy(F(n)) for n in 0..30]", "grundy(F(7) + F(9) + S(2))",
      "winning(F(5) + F(6))",          "[wins(misere (F(a) + F(b))) for a in 0..6 for b in 0..6]",
      "options(F(2) + F(1))",          "[wins(every (F(a) + F(b))) for a in 0..6 for b in 0..6]",
      "[steps(F(n)) for n in 0..9]",   "genus(F(2) + F(5))"};
  for (const std::string& q : queries) {
    INFO(q);
    auto as_searched = [](std::string text) {  // F(...) written as S(...)
      for (std::size_t at; (at = text.find("F(")) != std::string::npos;) text[at] = 'S';
      return text;
    };
    CHECK(as_searched(run_line(games + q + "\n")) == run_line(games + as_searched(q) + "\n"));
  }
  // The formula answers where a search could not go.
  CHECK(run_line(games + "grundy(F(10^18) + F(3))\n") == "3");
  // It is trusted when the program runs: a wrong one gives its own values (check tells).
  CHECK(run_line("game W { state n  value n % 3  move n - k for k in 1..min(n, 3) }\ngrundy(W(3))\n") == "0");
  // `value` is a keyword only at the start of a rule.
  CHECK(run_line("def value(x) = x + 1\nlet v = value(2)\nv\n") == "3");
}

TEST_CASE("a statement fed a line at a time splits as the whole text does", "[lang]") {
  // The REPL feeds the lines of a long statement one by one (grundy::lang::StatementScanner); the
  // file reader splits the whole text at once. Both must see the same statements.
  const std::vector<std::string> texts = {
      "grundy(Nim(3))\nlet x = [1,\n  2,\n  3]\nx + \n [4]\n",
      "game G { state n\n  move n - 1 if n > 0 # a comment (\n}\ngrundy(G(3)); 1 + 2\n",
      "\"a string with ( and # in it\"\nlet y = 1 and\n  true\n",
      "[n for n in 0..3\n if n % 2 == 0]\nwins(misere\n Nim(1))\n",
  };
  for (const std::string& text : texts) {
    const grundy::lang::StatementSplit whole = grundy::lang::split_statements(text);
    grundy::lang::StatementScanner scanner;
    std::size_t from = 0;
    while (from < text.size()) {
      const std::size_t end = text.find('\n', from);
      const std::size_t to = end == std::string::npos ? text.size() : end + 1;
      scanner.feed(std::string_view(text).substr(from, to - from));
      // What the REPL asks after each line: the text so far, split whole, agrees.
      const grundy::lang::StatementSplit so_far = grundy::lang::split_statements(text.substr(0, to));
      CHECK(scanner.unfinished() == (!so_far.unclosed.empty() || so_far.trailing_operator));
      from = to;
    }
    const grundy::lang::StatementSplit fed = scanner.finish();
    CHECK(fed.text == whole.text);
    REQUIRE(fed.statements.size() == whole.statements.size());
    for (std::size_t i = 0; i < fed.statements.size(); ++i) {
      CHECK(fed.statements[i].begin == whole.statements[i].begin);
      CHECK(fed.statements[i].end == whole.statements[i].end);
    }
  }
}

TEST_CASE("a state's guard admits the positions it says and refuses the others",
          "[lang][guard]") {
  // Brute force: every heap from -5 to 5 of a game whose guard uses its parameter; the
  // guard holds exactly for 0 <= n <= m, and the values there are those of Bash[m].
  for (int m = 1; m <= 4; ++m) {
    for (int n = -5; n <= 5; ++n) {
      const std::string src = "game B(m) { state n if n >= 0 and n <= m\n"
                              "  move n - k for k in 1..min(m, n) }\n"
                              "grundy(B[" + std::to_string(m) + "](" + std::to_string(n) + "))\n";
      const auto r = run_source(src);
      INFO(src << r.err);
      if (n >= 0 && n <= m) {
        CHECK(r.code == 0);
        CHECK(r.out == std::to_string(n % (m + 1)) + "\n");
      } else {
        CHECK(r.code == grundy::kExitRuntime);
        CHECK(contains(r.err, "is not a position of B[" + std::to_string(m) +
                                  "]: its state must satisfy n >= 0 and n <= m"));
      }
    }
  }
  // The guard sees the state and the parameters, not the rules' lets: a compile error.
  CHECK(run_source("game G { state n if k > 0  let k = n  move n - 1 if n > 0 }\n").code ==
        grundy::kExitCompile);
}

TEST_CASE("the outcome of one position, searched alone, agrees with its nim-value and with a "
          "brute force under misere play", "[lang][outcome][misere]") {
  // A game on lists with an irregular rule, its states up to [3, 3, 3]; wins() is asked
  // before any nim-value is known, so the depth-first outcome search answers it.
  const char* src = R"(
game T { state xs  move update(xs, i, v) for i in 0..len(xs)-1 for v in 0..xs[i]-1 if (v + 2 * i) % 3 != 1 }
let S = [[a, b, c] for a in 0..3 for b in 0..3 for c in 0..3]
let normal = [wins(T(xs)) for xs in S]
let mis = [wins(misere T(xs)) for xs in S]
def mw(p) = len(options(p)) == 0 or len([o for o in options(p) if not mw(o)]) > 0
assert normal == [grundy(T(xs)) != 0 for xs in S]
assert mis == [mw(T(xs)) for xs in S]
len([w for w in mis if w]) * 100 + len([w for w in normal if w])
)";
  const auto r = run_source(src);
  INFO(r);
  REQUIRE(r.code == 0);
  // Neither all won nor all lost: the comparison above means something.
  const int counts = std::stoi(r.out);
  CHECK(counts / 100 > 0);
  CHECK(counts / 100 < 64);
  CHECK(counts % 100 > 0);
  CHECK(counts % 100 < 64);
}

TEST_CASE("a function's call of itself in tail position runs as a loop, still counted against --max-depth",
          "[lang][def]") {
  // The sum 1 + ... + n by an accumulator: n (n + 1) / 2, at any depth the limit allows,
  // with no C++ frame per call (half a million nested calls would need far more stack).
  grundy::SessionOptions deep;
  deep.max_depth = 1000000;
  CHECK(run_ok("def s(n, a) = if n == 0 then a else s(n - 1, a + n)\ns(500000, 0)\n", deep) == "125000250000\n");
  // Trial division and Euclid's algorithm, the call in the else of a chain of ifs.
  CHECK(run_ok("def np(k, d) = if d * d > k then true else if k % d == 0 then false else np(k, d + 1)\n"
               "len([p for p in 2..10000 if np(p, 2)])\n"
               "def gcd(a, b) = if b == 0 then a else gcd(b, a % b)\ngcd(1071, 462)\n") == "1229\n21\n");
  // Past the limit, the error of the nested calls it stands for, at the call.
  const auto r = run_source("def f(n) = if n == 0 then 0 else f(n - 1)\nf(9990)\nf(20000)\n");
  CHECK(r.code == grundy::kExitRuntime);
  CHECK(r.out == "0\n");
  CHECK(contains(r.err, "function calls nested deeper than 10000 (in f)"));
  CHECK(contains(r.err, ":1:34:"));
  // As many steps as the nested calls: at --max-depth 10, ten calls (f(9)) and not eleven,
  // at the top, in rules compiled and in rules as written (id() keeps them from compiling),
  // as with the call not in tail position. The loop once stopped a step early.
  grundy::SessionOptions ten;
  ten.max_depth = 10;
  const std::string id = "def id(x) = if false then [id(x)][0] else x\n";
  for (const char* f : {"def f(t) = if t <= 0 then 0 else f(t - 1)\n", "def f(t) = if t <= 0 then 0 else [f(t - 1)][0]\n"}) {
    INFO(f);
    CHECK(run_ok(id + f + "f(9)\n", ten) == "0\n");
    CHECK(run_source(id + f + "f(10)\n", ten).code == grundy::kExitRuntime);
    CHECK(run_ok(id + f + "game A { state n  move n - 1 if n > 0 and f(n) == 0 }\ngrundy(A(9))\n", ten) == "1\n");
    CHECK(run_ok(id + f + "game A { state n  move n - 1 if n > 0 and f(n) == 0  move id(n) if id(false) }\n"
                              "grundy(A(9))\n",
                 ten) == "1\n");
  }
}
