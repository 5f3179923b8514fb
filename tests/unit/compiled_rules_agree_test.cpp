// Rules compiled over unboxed integers, with values in a dense box filled top-down or swept and
// outcomes found by a search that stops at the first losing option, must agree with the
// rules evaluated as written. The same rules wrapped in a function call (`def id`), which
// the compiler does not take, give the reference values.
#include <atomic>
#include <chrono>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "runtime/Progress.hpp"
#include "tests/unit/brute_force.hpp"
#include "tests/unit/support.hpp"

namespace {

using grundy::SessionOptions;
using grundy::test::contains;
using grundy::test::run_explained;
using grundy::test::run_source;

// `text` with every "ID(" written as `by` followed by "(".
std::string substitute(const std::string& text, const std::string& by) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t at; (at = text.find("ID(", from)) != std::string::npos; from = at + 3) {
    out.append(text, from, at - from);
    out.append(by);
    out.push_back('(');
  }
  out.append(text, from, std::string::npos);
  return out;
}

std::string wythoff_rules() {
  return "move (a - k, b) for k in 1..a  move (a, b - k) for k in 1..b  move (a - k, b - k) for k in "
         "1..min(a, b)";
}

// `rules` uses ID(...) where the reference wraps a value in id() (a function that calls itself
// other than in tail position, which the compiler neither inlines nor loops); compiled, ID(x) is x.
// Returns what --explain said of the compiled rules.
std::string agree(const std::string& state, const std::string& rules, const std::string& queries) {
  const std::string plain = substitute(rules, "");
  const auto fast = run_explained("def id(x) = if false then [id(x)][0] else x\ngame G { state " + state + " " +
                                  plain + " }\n" + queries);
  const auto slow = run_explained("def id(x) = if false then [id(x)][0] else x\ngame G { state " + state + " " +
                                  substitute(rules, "id") + " }\n" + queries);
  INFO(plain << "\n" << fast.explain << slow.explain);
  CHECK(contains(fast.explain, "G: compiled rules"));
  CHECK_FALSE(contains(slow.explain, "G: compiled rules"));
  CHECK(fast.out == slow.out);
  return fast.explain;
}

// A program that must stop with a runtime error saying `what`.
void fails_with(const std::string& program, const char* what) {
  const auto r = run_source(program);
  INFO(program);
  CHECK(r.code == grundy::kExitRuntime);
  CHECK(contains(r.err, what));
}

// Two programs that must print the same, the first without an error.
void same_output(const std::string& a, const std::string& b) {
  const auto x = run_source(a);
  const auto y = run_source(b);
  CHECK(x.code == 0);
  CHECK(x.out == y.out);
}

// --explain says that the compiled rules (or the searches over them) stopped and handed over.
bool handed_over(const std::string& explain) {
  return contains(explain, " stop: ") || contains(explain, " stops: ");
}

// The compiled rules answered every query themselves (the rules as written would hide a
// mistake of theirs by taking over when they stop).
void agree_throughout(const std::string& state, const std::string& rules, const std::string& queries) {
  const std::string said = agree(state, rules, queries);
  INFO(said);
  CHECK_FALSE(handed_over(said));
}

// Values, outcomes and misere outcomes of the heaps G(0..to) (misere to misere_to).
std::string heap_queries(int to, int misere_to) {
  const std::string n = std::to_string(to);
  return "[grundy(G(n)) for n in 0.." + n + "]\n[wins(G(n)) for n in 0.." + n + "]\n" +
         "[outcome(misere G(n)) for n in 0.." + std::to_string(misere_to) + "]\n";
}

}  // namespace

TEST_CASE("compiled tuple rules agree with the rules as written", "[fast][compile]") {
  const std::string grid =
      "[grundy(G(a, b)) for a in 0..14 for b in 0..14]\n[wins(G(a, b)) for a in 0..14 for b in 0..14]\n";
  agree("(a, b)",
        "move (a - k, ID(b)) for k in 1..a  move (a, b - k) for k in 1..b  move (a - k, b - k) for k in "
        "1..min(a, b)",
        grid);
  agree("(w, h)",
        "split [(i, h), (ID(w) - i, h)] for i in 2..w-2  split [(w, j), (w, h - j)] for j in 2..h-2", grid);
  agree("(n, limit)", "move (n - k, ID(2) * k) for k in 1..min(n, limit)",
        "[n for n in 2..60 if not wins(G(n, n - 1))]\n[grundy(G(n, n)) for n in 0..40]\n");
  agree("(a, b)",
        "let s = a + b  move (a - 1, ID(b)) if a > 0 and s % 3 != 0  move (a, b - 2) if b >= 2 "
        "split [(a - 1, 0), (0, b - 1)] if a >= 1 and b >= 1",
        grid);
  agree("(a, b)", "move (a - s, ID(b)) for s in {1, 3, 4} if s <= a  move (b % (a + 1), a / 2) if a > b",
        grid);
  agree("(x, y, z)",
        "move (x - 1, ID(y), z) if x > 0  move (x, y - 1, z + 1) if y > 0  "
        "move (x, y, z - k) for k in 1..z if k in 1..2 or k == z",
        "[grundy(G(x, y, z)) for x in 0..4 for y in 0..4 for z in 0..6]\n"
        "[wins(G(x, y, z)) for x in 0..4 for y in 0..4 for z in 0..6]\n");
  // A loop whose variable the option does not use: the same option many times.
  agree("(a, b)", "move (0, ID(b)) for k in 1..a*b if a > 0  move (a, b - 1) for k in 1..3 if b > 0", grid);
  // One integer: coin turning (Mock Turtles) and a game whose moves are not affine.
  agree("k", "split []  split [a] for a in 1..ID(k)-1  split [a, b] for a in 1..k-1 for b in a+1..k-1",
        "[grundy(G(k)) for k in 1..40]\n");
  agree("n", "move n / 2 if ID(n) > 0  move n - 3 if n >= 3 and n % 2 == 1",
        "[grundy(G(n)) for n in 0..300]\n[wins(G(n)) for n in 0..300]\ngrundy(G(10^12))\n");
}

TEST_CASE("compiled rules over sets of small integers (bitmasks) agree with the rules as written",
          "[fast][compile]") {
  // Every subset of 0..7, and sets that are not bitmasks (an element 100: the rules as written
  // take them).
  const std::string subsets =
      "let subsets = [{x for x in 0..7 if (m / 2 ^ x) % 2 == 1} for m in 0..255]\n"
      "[grundy(G(s)) for s in subsets]\n[wins(G(s)) for s in subsets]\n"
      "[outcome(misere G(s)) for s in subsets]\n";
  const std::string not_masks = "[grundy(G({100, 3})), wins(G({5, 100}))]\n";
  agree_throughout(
      "s",
      "move s - {ID(k)} for k in s  move s + {k + 1} - {k} for k in s if k % 3 == 1 and not (k + 1 in s)  "
      "move s - {k, 6, 7} for k in 0..5 if k in s or 6 in s",
      subsets + not_masks);
  agree_throughout(
      "s",
      "split [s - {ID(k)}, {k - 1}] for k in s if k >= 2  move s - {k, k + 1} for k in s if k + 1 in s "
      "move s - {k} for k in s if len(s) % 2 == 0 or k % 2 == 1  move {len(s)} if len(s) >= 3",
      subsets);
  // An element past 62 leaves the bitmask: the rules take over from there. Masks up to 2^62
  // are values in a hash map like any others.
  CHECK(handed_over(agree("s", "move s - {ID(k)} + {k + 1} for k in s if k < 70",
                          "[grundy(G({60})), wins(G({58, 61}))]\n")));
  agree_throughout("s", "move s - {ID(k)} for k in s", "grundy(G({60, 61, 62}))\n");
  // A set beside an integer that runs (s, n - k) for k in 1..n: a run of options whose set
  // stays put.
  agree_throughout("(s, n)",
                   "move (s, n - ID(k)) for k in 1..n  move (s - {j}, n + j) for j in s  split [(s, n - 1), "
                   "({}, j)] for j in s if n > 0",
                   "[grundy(G(s, n)) for s in [{}, {1}, {2, 3}, {1, 4, 6}] for n in 0..6]\n"
                   "[wins(G(s, n)) for s in [{}, {1}, {2, 3}, {1, 4, 6}] for n in 0..6]\n");
  // LeetCode 464 "Can I Win": the numbers used, and the total.
  agree_throughout(
      "(used, total)",
      "move ({0}, 15) for k in 1..7 if not (k in used) and total + k >= 15 and total < 15  "
      "move (used + {ID(k)}, total + k) for k in 1..7 if not (k in used) and total + k < 15",
      "[wins(G({}, t)) for t in 0..15]\n[wins(G({k}, k)) for k in 1..7]\n[grundy(G({1, 2}, 3))]\n");
  // The same rules over sorted lists (sorted() is left to the interpreter): the same values.
  same_output(
      "game G { state (used, total)  move (used + {k}, total + k) for k in 1..9 if not (k in used) and "
      "total + k <= 20 }\n[grundy(G({}, 0)), grundy(G({2, 5}, 7)), wins(G({1}, 1))]\n",
      "game G { state (used, total)  move (sorted(used + [k]), total + k) for k in 1..9 if not (k in used) "
      "and "
      "total + k <= 20 }\n[grundy(G([], 0)), grundy(G([2, 5], 7)), wins(G([1], 1))]\n");
}

TEST_CASE("compiled rules over lists of small integers (packed words) agree with the rules as written",
          "[fast][compile]") {
  // Chomp by column heights, every position of up to 4 columns of height up to 4, and some
  // that are not packed lists (a column of 300): the rules as written take them.
  const std::string walls =
      "let walls = [[a, b, c, d] for a in 0..4 for b in 0..a for c in 0..b for d in 0..c]\n";
  const std::string chomp_rules =
      "move [if i >= c then min(hs[i], ID(j)) else hs[i] for i in 0..len(hs)-1] "
      "for c in 0..len(hs)-1 for j in 0..hs[c]-1 if c > 0 or j > 0";
  agree_throughout("hs", chomp_rules,
                   walls +
                       "[wins(G(hs)) for hs in walls]\n[outcome(misere G(hs)) for hs in walls]\n"
                       "[wins(G([a, b])) for a in 0..6 for b in 0..a]\n");
  agree_throughout("hs", chomp_rules, walls + "[grundy(G(hs)) for hs in walls]\n");
  agree("hs", chomp_rules,
        "wins(G([3, 3, 2, 2, 2, 1, 1, 1]))\nwins(G([300, 2]))\n[grundy(G([2, 1, 1, 1, 1, 1, 1]))]\n");
  // update, appending, indexing by a loop variable, a list and an integer in one state.
  const std::string rules =
      "move (update(xs, i, xs[i] - ID(k)), n) for i in 0..len(xs)-1 for k in 1..xs[i]  "
      "move (xs + [n], n - 1) if n > 0 and len(xs) < 3  move ([], n) if len(xs) == 3 and xs[0] == xs[2]";
  agree_throughout("(xs, n)", rules,
                   "[wins(G(xs, n)) for xs in [[], [1], [2, 1], [3, 0, 2]] for n in 0..3]\n"
                   "[wins(G([a, b], n)) for a in 0..3 for b in 0..3 for n in 0..3]\n"
                   "[outcome(misere G([a], n)) for a in 0..3 for n in 0..4]\n"
                   "[grundy(G(xs, n)) for xs in [[], [1], [2, 1], [3, 0, 2]] for n in 0..3]\n");
  // Items of 128 and more (the top bit of an item's byte).
  agree_throughout("xs", "move update(xs, i, xs[i] / ID(2)) for i in 0..len(xs)-1 if xs[i] > 0",
                   "[wins(G([255, 200, 130])), wins(G([255, 128])), wins(G([200, 129])), wins(G([128]))]\n");
  // The same rules over tuples of integers give the same values.
  same_output(
      "game G { state hs  move update(hs, i, hs[i] - k) for i in 0..2 for k in 1..hs[i] }\n"
      "[grundy(G([a, b, c])) for a in 0..3 for b in 0..3 for c in 0..3]\n",
      "game G { state (a, b, c)  move (a - k, b, c) for k in 1..a  move (a, b - k, c) for k in 1..b  "
      "move (a, b, c - k) for k in 1..c }\n[grundy(G(a, b, c)) for a in 0..3 for b in 0..3 for c in 0..3]\n");
}

TEST_CASE("a list written item by item keeps its items' order and widths, and hands over where one does not fit",
          "[fast][compile]") {
  // Items rotate (order), and one grows to the width's edge: 6 items of 0..511, 3 of
  // 0..262143, 1 of 56 bits; past it the list is not a packed word and the rules take over.
  agree_throughout("xs", "move [xs[1], xs[2], xs[0] - ID(1)] if xs[0] > 0",
                   "[grundy(G([a, b, c])) for a in 0..3 for b in 0..3 for c in 0..3]\n"
                   "[wins(G([a, 262143, c])) for a in 0..2 for c in 0..2]\n");
  agree("xs", "move [xs[0] - ID(1), xs[1], xs[2], xs[3], xs[4], xs[5] + 1] if xs[0] > 0",
        "[grundy(G([k, 1, 2, 3, 4, 505])) for k in 0..9]\n[wins(G([k, 0, 0, 0, 0, 509])) for k in 0..4]\n");
  agree("xs", "move [xs[0] - ID(1), xs[1] + 1, xs[2]] if xs[0] > 0",
        "[grundy(G([k, 262140, 7])) for k in 0..6]\n");
  agree("xs", "move [xs[0] - ID(1)] if xs[0] > 0  move [xs[0] - 2, 3] if xs[0] > 1",
        "[grundy(G([k])) for k in 0..12]\n");
  agree("xs", "move [xs[0] + ID(1)] if xs[0] < 72057594037927938",  // 2^56 + 2
        "[grundy(G([72057594037927932 + k])) for k in 0..6]\n");
}

TEST_CASE(
    "compiled rules over lists: members, loops, sorted, remove and joins agree with the rules as written",
    "[fast][compile]") {
  // Heaps as a sorted list (a multiset): take from one heap, or split one in two; a heap of 0
  // is removed. for x in xs, x in xs, sorted, remove and xs + ys, each against the reference.
  const std::string heaps =
      "[wins(G(hs)) for hs in [[], [1], [2], [1, 1], [1, 2], [3, 3], [1, 2, 3], [2, 2, 4], [1, 1, 1, 5]]]\n"
      "[grundy(G(hs)) for hs in [[1, 2], [3, 3], [1, 2, 3], [2, 2, 4], [1, 4, 6]]]\n"
      "[outcome(misere G(hs)) for hs in [[1], [1, 1], [2, 3], [1, 1, 2]]]\n";
  agree_throughout("hs",
                   "move sorted(remove(hs, i) + (if hs[i] > ID(k) then [hs[i] - k] else [])) "
                   "for i in 0..len(hs)-1 for k in 1..hs[i]  "
                   "move sorted(remove(hs, i) + [a, hs[i] - a]) for i in 0..len(hs)-1 for a in 1..hs[i]-1 "
                   "if 2 * a <= hs[i] and len(hs) < 6",
                   heaps);
  // A move for each distinct heap size (for x in xs), guarded by membership.
  agree_throughout("hs",
                   "move sorted(update(hs, i, ID(x) - 1)) for x in hs for i in 0..len(hs)-1 "
                   "if hs[i] == x and x > 0 and not (x - 1 in hs)",
                   heaps);
  // Halve a heap into two (joined as a list), or drop one: the list grows past 7 heaps and
  // its items narrow (8 of up to 127, 10 of up to 31, ...).
  agree_throughout("xs",
                   "move sorted(remove(xs, i) + [xs[i] / 2, (ID(xs[i]) + 1) / 2]) for i in 0..len(xs)-1 "
                   "if xs[i] > 1  move remove(xs, i) for i in 0..len(xs)-1",
                   "[wins(G([3])), wins(G([6, 5])), grundy(G([8])), grundy(G([2, 7])), wins(G([12])), "
                   "grundy(G([1, 1, 1, 1, 1, 1, 1, 1, 1, 4]))]\n");
  // A list that cannot narrow: 200 among 7 items fits, among 8 it does not (at most 127);
  // and 57 items fit no width. The rules as written take those states.
  agree("(xs, n)", "move (xs + [ID(1)], n - 1) if n > 0  move (remove(xs, 0), n) if len(xs) > 0",
        "[wins(G([200, 1, 1, 1, 1, 1, 1], 2)), grundy(G([120, 3, 3, 3, 3, 3, 3, 3], 2))]\n"
        "[wins(G([1 for i in 1..57], 1)), wins(G([1 for i in 1..55], 2))]\n");
  // Every width: lists of n items of the largest value that fits, and one past it.
  for (int n : {7, 8, 9, 10, 11, 12, 14, 15, 18, 19, 28, 29, 56}) {
    const int bits = n <= 7 ? 8 : 56 / n;
    const std::string top = std::to_string((1 << bits) - 1);
    CAPTURE(n);
    const std::string rules =
        "move update(xs, i, xs[i] - ID(1)) for i in 0..len(xs)-1 if xs[i] > 0 and i == 0";
    agree_throughout("xs", rules, "wins(G([" + top + " for i in 1.." + std::to_string(n) + "]))\n");
    agree("xs", rules,
          "wins(G([" + std::to_string(1 << bits) + " for i in 1.." + std::to_string(n) + "]))\n");
  }
  // remove of a set is a set difference; for x in a set the state holds.
  agree_throughout("s", "move remove(s, ID(k)) for k in s if k % 2 == 0 or k + 1 in s",
                   "[wins(G(set(0..a))) for a in 0..9]\n[grundy(G({1, 4, 5, 8})), grundy(G({0, 2, 3}))]\n");
}

TEST_CASE("compiled rules read constant tables and inline the functions they call", "[fast][compile]") {
  // Tokens on a graph given as a list of out-edges (a top-level let and a parameter): every
  // token moves at once, along an edge; the game ends when one cannot.
  const std::string graph = "let E = [[1, 2], [2, 3], [3, 4], [4], [5, 6], [6], [], [0, 6]]\n";
  const std::string rules =
      "move [a, ID(b)] for a in E[ts[0]] for b in E[ts[1]]  move [ts[1], ts[0]] if ts[0] in E[ts[1]] and "
      "len(E[ts[0]]) == 2 and E[ts[0]][1] > W[ts[1]]";
  agree_throughout("ts", rules,
                   graph +
                       "let W = [5, 4, 3, 2, 1, 0, 0, 0]\n"
                       "[wins(G([a, b])) for a in 0..7 for b in 0..7]\n"
                       "[grundy(G([a, b])) for a in 0..5 for b in 0..5]\n");
  // An index past the table is the rules' own error.
  fails_with(graph + "game T { state ts  move [a] for a in E[ts[0] + 3] }\nwins(T([6]))\n", "index");
  fails_with("let W = [1, 2]\ngame T { state n  move n - W[n] if n > 0 }\ngrundy(T(5))\n", "index");
  // A helper function, called from the rule: compiled as if written inline.
  const std::string bite =
      "def bite(hs, c, j) = [if i >= c then min(hs[i], j) else hs[i] for i in 0..len(hs)-1]\n";
  const std::string chomp =
      "game Chomp { state hs  move bite(hs, c, j) for c in 0..len(hs)-1 for j in 0..hs[c]-1 if c > 0 or j > "
      "0 }\n"
      "[wins(Chomp([a, b, c])) for a in 0..4 for b in 0..a for c in 0..b]\n";
  const auto inlined = run_explained(bite + chomp);
  CHECK(contains(inlined.explain, "Chomp: compiled rules"));
  same_output(
      bite + chomp,
      "def bite(hs, c, j) = if false then [bite(hs, c, j)][0] else [if i >= c then min(hs[i], j) else hs[i] "
      "for i in 0..len(hs)-1]\n" +
          chomp);
  // A helper's argument that fails is met although the body does not use it.
  fails_with("def f(a, b) = a\ngame F { state n  move f(n - 1, 1 / (n - 2)) if n > 0 }\ngrundy(F(4))\n",
             "division by zero");
  // Arguments computed from the state (x + dx) that the body reads only on some paths (after
  // `and`): compiled, with the rules' values, and their failures met as written.
  const std::string knight =
      "def inside(x, y) = x >= 0 and y >= 0 and x < 9 and y < 9\n"
      "game G { state (x, y)  move (x + dx, y + dy) for (dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)] "
      "if inside(x + dx, y + dy) }\n"
      "[grundy(G(x, y)) for x in 0..8 for y in 0..8]\n[wins(G(x, y)) for x in 0..8 for y in 0..8]\n";
  const auto compiled = run_explained(knight);
  CHECK(contains(compiled.explain, "G: compiled rules"));
  same_output(knight, "def inside(x, y) = if false then [inside(x, y)][0] else x >= 0 and y >= 0 and x < 9 and y < 9\n" +
                          knight.substr(knight.find("game G")));
  fails_with("def f(a, b) = a > 0 and b > 0\n"
             "game F { state (x, y)  move (x - 1, y) if f(x - 1, y * 4611686018427387904) }\ngrundy(F(3, 2))\n",
             "overflow");
}

// `def` as written, and the same function with its call of itself wrapped so that it is not
// in tail position (the rules as written): the same output, compiled only as written.
void loops_agree(const std::string& def, const std::string& wrapped, const std::string& rest) {
  const auto looped = run_explained(def + rest);
  const auto plain = run_explained(wrapped + rest);
  INFO(def << rest << looped.explain << plain.explain);
  CHECK(contains(looped.explain, "compiled rules"));
  CHECK_FALSE(contains(plain.explain, "compiled rules"));
  CHECK(looped.out == plain.out);
}

TEST_CASE("a function that calls itself in tail position runs as a loop, with the rules' values and errors",
          "[fast][compile]") {
  // HDU 5724's row: a piece jumps to the nearest empty square on its right (a list state).
  const std::string row =
      "game Row { state cs  move update(update(cs, i, 0), ne(cs, i), 1) for i in 0..7 if cs[i] == 1 and ne(cs, i) "
      "< 8 }\n"
      "[grundy(Row([a % 2, a / 2 % 2, a / 4 % 2, a / 8 % 2, a / 16 % 2, a / 32 % 2, a / 64 % 2, a / 128])) "
      "for a in 0..255]\n";
  loops_agree("def ne(cs, i) = if i >= 8 then 8 else if cs[i] == 0 then i else ne(cs, i + 1)\n",
              "def ne(cs, i) = if i >= 8 then 8 else if cs[i] == 0 then i else [ne(cs, i + 1)][0]\n", row);
  // Euclid's algorithm in a pair's rules, and trial division in a heap's (a boolean result).
  loops_agree("def gcd(a, b) = if b == 0 then a else gcd(b, a % b)\n",
              "def gcd(a, b) = if b == 0 then a else [gcd(b, a % b)][0]\n",
              "game G { state (a, b)  move (a - k, b) for k in 1..a if gcd(a - k, b) == 1  move (a, b - k) for k in "
              "1..b if gcd(a, b - k) == 1 }\n"
              "[grundy(G(a, b)) for a in 0..12 for b in 0..12]\n[wins(G(a, b)) for a in 0..20 for b in 0..20]\n");
  loops_agree("def np(k, d) = if d * d > k then true else if k % d == 0 then false else np(k, d + 1)\n",
              "def np(k, d) = if d * d > k then true else if k % d == 0 then false else [np(k, d + 1)][0]\n",
              "game P { state n  move n - p for p in 2..n if np(p, 2) }\n[grundy(P(n)) for n in 0..300]\n");
  // Three parameters, the arguments of each call computed from the last call's (a swap).
  loops_agree("def walk(a, b, t) = if t == 0 then a else walk(b, a + b, t - 1)\n",
              "def walk(a, b, t) = if t == 0 then a else [walk(b, a + b, t - 1)][0]\n",
              "game F { state n  move n - walk(0, 1, t) for t in 2..12 if walk(0, 1, t) <= n }\n"
              "[grundy(F(n)) for n in 0..200]\n");
  // A loop whose body has constants the rules lack (13, 17): the rules' temporaries must not
  // take their registers. They did once, and the options came out wrong (grundy 1 at 4).
  const std::string odd =
      "game G { state xs  move [max(0, min(xs[0] - 1, xs[0] - 1 - (g(xs[0] % 3, 0) - 221)))] if xs[0] >= 3  "
      "move [xs[0] - 1] if xs[0] == 1 or xs[0] == 2 }\n[grundy(G([n])) for n in 0..40]\n";
  loops_agree("def g(x, d) = if d >= 13 then x else g(x + 17, d + 1)\n",
              "def g(x, d) = if d >= 13 then x else [g(x + 17, d + 1)][0]\n", odd);
  const auto odd_run = run_explained("def g(x, d) = if d >= 13 then x else g(x + 17, d + 1)\n" + odd);
  CHECK_FALSE(handed_over(odd_run.explain));
  CHECK(odd_run.out.rfind("[0, 1, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, ", 0) == 0);
  // The parameters set together (a swap), and one function called from two rules and with
  // the same arguments twice in one (their last results shared): the values of the rules.
  loops_agree("def sw(a, b, t) = if t <= 0 then a * 8 + b else sw(b, a, t - 1)\n",
              "def sw(a, b, t) = if t <= 0 then a * 8 + b else [sw(b, a, t - 1)][0]\n",
              "game S { state (x, y)  move (x - 1, y) if x > 0 and sw(x, y, x + y) % 3 != 0  "
              "move (x, y - 1) if y > 0 and sw(x, y, x + y) % 3 != 1 and sw(y, x, y) % 2 == 0 }\n"
              "[grundy(S(x, y)) for x in 0..9 for y in 0..9]\n[wins(S(x, y)) for x in 0..30 for y in 0..30]\n");
  // The last argument a branch (`if`, `or`), each way of which writes it: a step written
  // straight into its parameter must be every way's, or the other way's value is lost.
  loops_agree("def h(k, s) = if k == 0 then s else h(k - 1, if k % 3 == 0 then s + k else s % 7 + 2 * k)\n",
              "def h(k, s) = if k == 0 then s else [h(k - 1, if k % 3 == 0 then s + k else s % 7 + 2 * k)][0]\n",
              "game H { state n  move n - k for k in 1..min(n, 4) if h(n + k, 0) % 3 != 1 }\n"
              "[grundy(H(n)) for n in 0..120]\n");
  loops_agree("def o(k, b) = if k == 0 then b else o(k - 1, k % 4 == 1 or (b and k % 5 != 0))\n",
              "def o(k, b) = if k == 0 then b else [o(k - 1, k % 4 == 1 or (b and k % 5 != 0))][0]\n",
              "game O { state n  move n - k for k in 1..min(n, 3) if o(n * 2 + k, false) }\n"
              "[grundy(O(n)) for n in 0..120]\n");
  // A chain longer than --max-depth is the rules' own error, and so is a step that fails.
  fails_with("def down(n) = if n <= 0 then 0 else down(n - 1)\ngame D { state n  move n - 1 if down(n * 1000) == 0 }\n"
             "grundy(D(30))\n",
             "nested deeper than");
  fails_with("def f(n, d) = if n == 0 then 0 else f(n - 1, 10 / (n - 5))\ngame D { state n  move n - 1 if f(n, 1) == 0 "
             "}\ngrundy(D(9))\n",
             "division by zero");
  // A chain shorter than the limit, from a rule, needs no nesting of its own.
  CHECK(run_source("def down(n) = if n <= 0 then 0 else down(n - 1)\ngame D { state n  move n - 1 if n > 0 and down(n * 300) "
                   "== 0 }\ngrundy(D(30))\n")
            .out == "0\n");
}

// Random tail-recursive helpers of two or three parameters (constants of their own, swaps,
// divisions that may fail) called from the conditions and options of a pair's rules, from a
// range's and at the top of the program: values, outcomes (a large position's, a misere one's)
// and errors as the same functions give with their call of themselves not in tail position.
namespace random_loops {
struct Gen {
  std::mt19937 rng;
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
  std::string expr(const std::vector<std::string>& vars, int depth = 0) {
    if (depth > 2 || pick(0, 9) < 3) {
      const int i = pick(0, static_cast<int>(vars.size()));
      return i < static_cast<int>(vars.size()) ? vars[static_cast<std::size_t>(i)] : std::to_string(pick(0, 20));
    }
    const std::string a = expr(vars, depth + 1), b = expr(vars, depth + 1);
    switch (pick(0, 6)) {
      case 0: return "(" + a + " + " + b + ")";
      case 1: return "(" + a + " - " + b + ")";
      case 2: return "(" + a + ") * " + std::to_string(pick(0, 5));
      case 3: return "(" + a + ") % " + std::to_string(pick(1, 9));
      case 4: return "max(" + a + ", " + b + ")";
      case 5: return "min(" + a + ", " + b + ")";
      default:
        if (pick(0, 6) == 0) return "(" + a + ") / (" + vars[static_cast<std::size_t>(pick(0, static_cast<int>(vars.size()) - 1))] + " - " + std::to_string(pick(0, 30)) + ")";
        return "(" + a + ") / " + std::to_string(pick(1, 4));
    }
  }
  std::string test(const std::vector<std::string>& vars) {
    static const char* ops[] = {"<", "<=", "==", "!=", ">", ">="};
    return expr(vars) + " " + ops[pick(0, 5)] + " " + expr(vars);
  }
  // def name(x, d[, y]): a chain of at most `d >= c` steps; `slow`: its call not in tail position.
  std::string def(const std::string& name, int params, bool slow) {
    std::vector<std::string> vs = {"x", "d"};
    if (params == 3) vs.push_back("y");
    std::vector<std::string> next;
    for (std::size_t i = 0; i < vs.size(); ++i) next.push_back(expr(vs));
    next[1] = "d + 1";
    if (params == 3 && pick(0, 1) == 0) {
      next[0] = "y";
      next[2] = "x";
    }
    std::string call = name + "(" + next[0] + ", " + next[1] + (params == 3 ? ", " + next[2] : "") + ")";
    if (slow) call = "[" + call + "][0]";
    std::string head = "def " + name + "(x, d" + (params == 3 ? ", y" : "") + ")";
    return head + " = if d >= " + std::to_string(pick(1, 25)) + " then " + expr(vs) + " else if " + test(vs) +
           " then " + expr(vs) + " else " + call + "\n";
  }
};

std::string program(unsigned seed, bool slow) {
  Gen g{std::mt19937(seed)};
  const int pf = g.pick(2, 3), pg = g.pick(2, 3);
  std::string out = g.def("f", pf, slow) + g.def("g", pg, slow);
  const auto call = [&](const std::vector<std::string>& vars) {
    const bool f = g.pick(0, 1) == 0;
    std::string c = std::string(f ? "f(" : "g(") + g.expr(vars) + ", " + std::to_string(g.pick(0, 3));
    if ((f ? pf : pg) == 3) c += ", " + g.expr(vars);
    return c + ")";
  };
  const std::vector<std::string> v = {"a", "b"};
  out += "game G { state (a, b)  move (a - 1 - ((" + call(v) + ") % 2 + 2) % 2, b) if a >= 2 and (" + call(v) + ") % 3 != 1" +
         "  move (a, b - 1) if b > 0 and (" + call(v) + ") % 2 == 0" +
         "  move (max(0, a - 1 - ((" + call(v) + ") % 3 + 3) % 3), b) if a > 0 and " + call(v) + " != " + call(v) +
         " + 1  move (a - k, b) for k in 1..a if (" + call({"a", "b", "k"}) + ") % 4 == 0 }\n";
  out += "[grundy(G(a, b)) for a in 0..9 for b in 0..9]\n[wins(G(a, b)) for a in 0..14 for b in 0..14]\n"
         "wins(G(90, 60))\nwins(misere G(20, 15))\n[" + call({"n"}) + " for n in 0..40]\n";
  return out;
}
}  // namespace random_loops

TEST_CASE("random tail-recursive helpers in rules give the values and errors of the same helpers as written",
          "[fast][compile]") {
  // The first error's message, without its place (the sources differ there).
  const auto message = [](const std::string& err) {
    const std::size_t at = err.find("error: ");
    return at == std::string::npos ? std::string() : err.substr(at, err.find('\n', at) - at);
  };
  int compiled = 0, failed = 0;
  for (unsigned seed = 1; seed <= 30; ++seed) {
    std::ostringstream why;
    SessionOptions explained;
    explained.limits.explain = &why;
    const auto fast = run_source(random_loops::program(seed, false), explained);
    const auto slow = run_source(random_loops::program(seed, true));
    INFO(random_loops::program(seed, false) << fast.err << slow.err);
    CHECK(fast.code == slow.code);
    CHECK(fast.out == slow.out);
    CHECK(message(fast.err) == message(slow.err));
    if (contains(why.str(), "G: compiled rules")) ++compiled;
    if (fast.code != 0) ++failed;
  }
  CHECK(compiled >= 20);
  CHECK(failed < 15);
}

// The message of the first error in `err`, without its place (the sources differ there).
std::string message_of(const std::string& err) {
  const std::size_t at = err.find("error: ");
  return at == std::string::npos ? "" : err.substr(at, err.find('\n', at) - at);
}

// A program calling `def` as written, and the same with the function's body `x` written as
// `if false then [[]][0] else x`, which the compiler does not take (a list of lists) and which
// keeps the function's calls as they were (a chain stays a chain): the same output and errors.
void functions_agree(const std::string& def, const std::string& rest) {
  const std::size_t eq = def.find(" = ");
  const std::string as_written = def.substr(0, eq) + " = if false then len([[]]) else " + def.substr(eq + 3);
  const auto fast = run_source(def + rest);
  const auto slow = run_source(as_written + rest);
  INFO(def << as_written << rest << fast.err << slow.err);
  CHECK(fast.code == slow.code);
  CHECK(fast.out == slow.out);
  CHECK(message_of(fast.err) == message_of(slow.err));
}

TEST_CASE("a function of integers called from the top of a program is compiled, with the values and errors "
          "of the function as written",
          "[fast][compile]") {
  functions_agree("def np(k, d) = if d * d > k then true else if k % d == 0 then false else np(k, d + 1)\n",
                  "len([p for p in 2..3000 if np(p, 2)])\n[np(n, 2) for n in -3..40]\n");
  functions_agree("def g(a, b) = if b == 0 then a else g(b, a % b)\n",
                  "[g(a, b) for a in -12..12 for b in -12..12]\n");
  // One that calls another (compiled in place), with a division in a branch not taken.
  functions_agree("def h(a, b) = sq(a) + (if b == 0 then 0 else a / b)\n",
                  "def sq(x) = x * x\n[h(a, b) for a in -5..5 for b in -3..3]\n");
  // An overflow, a division by zero, and chains to and past --max-depth: the errors as written.
  functions_agree("def sq(x) = x * x\n", "sq(3037000499)\nsq(3037000500)\n");
  functions_agree("def q(a, b) = a / b + 1\n", "q(7, 2)\nq(7, 0)\n");
  for (int n = 9980; n <= 10001; ++n) {
    functions_agree("def down(n) = if n == 0 then 0 else down(n - 1)\n", "down(" + std::to_string(n) + ")\n");
  }
  // Arguments that are not integers: the function as written.
  functions_agree("def f(x, y) = if x then y else y\n", "[f(true, 3), f(false, 4)]\n");
}

TEST_CASE("compiled rules read constant lists of sets and lists, set(), set comprehensions and sums",
          "[fast][compile]") {
  // Node Kayles on a graph of 8 vertices (a vertex and its neighbours go), its adjacency lists
  // a top-level let, written every way the rules may say it; every subset of the vertices.
  const std::string graph =
      "let E = [[1, 4], [0, 2, 5], [1, 3], [2, 7], [0, 5], [1, 4, 6], [5, 7], [3, 6]]\n"
      "let C = [set([v] + E[v]) for v in 0..7]\n";
  const std::string subsets =
      "let subsets = [{x for x in 0..7 if (m / 2 ^ x) % 2 == 1} for m in 0..255]\n"
      "[grundy(G(s)) for s in subsets]\n[wins(G(s)) for s in subsets]\n"
      "[outcome(misere G(s)) for s in subsets]\n";
  for (const char* rules : {
           "move s - ({ID(v)} + set(E[v])) for v in s",
           "move s - {ID(v)} - set(E[v]) for v in s",
           "move s - {ID(v)} - {u for u in E[v]} for v in s",
           "move s - set([ID(v)] + E[v]) for v in s",
           "move s - C[ID(v)] for v in s",
           // Comprehensions with conditions: over a row, a range, the state's set, a list.
           "move s - {u for u in E[v] if u != ID(v) and u in s} - {v} for v in s",
           "move s - {u for u in 0..7 if u == ID(v) or u in E[v]} for v in s",
           "move {u - 1 for u in s if u > ID(v)} + {u for u in s if u < v} for v in s",
           "move s - {u % 8 for u in [v + 1, v + 7] + E[v] if len(E[v]) > ID(1)} - {v} for v in s",
       }) {
    CAPTURE(rules);
    agree_throughout("s", rules, graph + subsets);
  }
  // The closed neighbourhoods as a game's parameter, a list of sets.
  const std::string by_parameter = "game N(C) { state s  move s - C[v] for v in s }\n";
  const std::string queries =
      "let subsets = [{x for x in 0..7 if (m / 2 ^ x) % 2 == 1} for m in 0..255]\n"
      "[grundy(N[C](s)) for s in subsets]\n[wins(N[C](s)) for s in subsets]\n";
  CHECK(contains(run_explained(graph + by_parameter + queries).explain, "compiled rules"));
  same_output(graph + by_parameter + queries, graph +
                                                  "def id(x) = if false then [id(x)][0] else x\n"
                                                  "game N(C) { state s  move s - C[id(v)] for v in s }\n" +
                                                  queries);
  // A row with an element past 62, or a list that does not pack: the rules as written take the
  // states that need it, and give its values.
  const std::string far = "let E = [[1, 100], [0, 2], [1, 3], [2], [70, 1]]\n";
  CHECK(handed_over(agree("s", "move s - {ID(v)} - set(E[v]) for v in s",
                          far + "[grundy(G({0, 1, 2, 3})), wins(G({2, 3, 4})), grundy(G({1, 2}))]\n")));
  agree("s", "move s - {ID(v)} + {u for u in E[v] if u > 60} for v in s if v < 5",
        far + "[grundy(G({0, 1, 2, 3, 4})), wins(G({2, 3, 4})), grundy(G({1, 3, 62}))]\n");
  agree("s", "move s - set([ID(v)] + E[v]) for v in s",
        "let E = [[1, 2, 3, 4, 5, 6, 7, 40], [0], [0], [0], [0], [0], [0], [0]]\n"
        "[grundy(G(set(0..7))), wins(G({0, 3}))]\n");
  // An index out of range, and set() of an integer: the rules' own errors.
  fails_with(graph + "game T { state s  move s - set(E[v + 1]) for v in s }\ngrundy(T({7}))\n", "index");
  fails_with(graph + "game T { state s  move s - C[v + 1] - {v} for v in s }\ngrundy(T({7}))\n", "index");
  fails_with("let W = [1, 2]\ngame T { state s  move s - set(W[v]) for v in s }\ngrundy(T({1}))\n",
             "set needs a list");

  // Can I Win with the numbers used as the whole state: sum(used) of a mask; min and max.
  agree_throughout("used", "move used + {k} for k in 1..7 if sum(used) < ID(15) and not (k in used)",
                   "[wins(G({})), grundy(G({})), wins(G({3})), wins(G({1, 6}))]\n"
                   "[outcome(misere G({k})) for k in 1..7]\n");
  agree_throughout("s",
                   "move s - {max(s)} + {min(s) - 1} if len(s) > 1 and min(s) > ID(0)  "
                   "move s - {k} for k in s if k * 2 > max(s) + min(s) or sum(s) % 5 == k % 5",
                   subsets);
  fails_with("game M { state s  move s - {max(s)} if len(s) < 3 }\ngrundy(M({1, 2}))\n", "empty collection");
  fails_with("game M { state s  move s - {min(s)} if len(s) < 3 }\nwins(M({4, 2}))\n", "empty collection");
  // Of lists: sum, min, max and set() of a packed list.
  agree_throughout(
      "xs",
      "move update(xs, i, xs[i] - 1) for i in 0..len(xs)-1 if xs[i] > 0 and sum(xs) % 3 != ID(1)  "
      "move [min(xs) - 1] + remove(xs, 0) if len(xs) > 0 and len(xs) < 4 and min(xs) > 1 and max(xs) < 4  "
      "move [len(set(xs))] if len(xs) > 2 and 1 in set(xs)",
      "[wins(G([a, b, c])) for a in 0..3 for b in 0..3 for c in 0..3]\n"
      "[grundy(G([a, b])) for a in 0..4 for b in 0..4]\n");
  agree("xs", "move [ID(1)] + xs if len(set(xs)) < 3 and len(xs) < 4",
        "[grundy(G([100, 2])), grundy(G([63])), grundy(G([62]))]\n");
  fails_with("game L { state xs  move remove(xs, 0) if min(xs) < 5 }\ngrundy(L([2, 3]))\n",
             "empty collection");

  // A helper that returns a constant row or a list made from its argument, looped over (every
  // token on a graph moves; one on a sink stays).
  const std::string tokens =
      "let E = [[1, 2], [2, 3], [3, 4], [4], [5, 6], [6], [], [0, 6]]\n"
      "def nxt(v) = if len(E[v]) == 0 then [v] else E[v]\n";
  agree_throughout("ts", "move sorted([a, ID(b)]) for a in nxt(ts[0]) for b in nxt(ts[1]) if ts != [6, 6]",
                   tokens +
                       "[wins(G([a, b])) for a in 0..7 for b in a..7]\n"
                       "[grundy(G([a, b])) for a in 0..5 for b in a..5]\n");
  // A row too long to pack, read as a list: handed to the rules as written where it is needed.
  agree("ts", "move [x, ID(1)] for x in E[ts[0]] + [ts[1]] if x > ts[0] and x < 4",
        "let E = [[1, 2], [2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 100], [0], [1]]\n"
        "[wins(G([a, 1])) for a in 0..3]\n");
}

TEST_CASE("conditions on a range's variable cut the range, and the same options come out",
          "[fast][compile]") {
  const std::string grid =
      "[grundy(G(a, b)) for a in 0..14 for b in 0..14]\n[wins(G(a, b)) for a in 0..14 for b in 0..14]\n"
      "[outcome(misere G(a, b)) for a in 0..9 for b in 0..9]\n";
  // A constant list in increasing order is cut by value; one out of order is not, and both
  // give the options of the rules as written.
  agree_throughout("(a, b)",
                   "move (a - s, ID(b)) for s in S if s <= a if 2 * s > b - 3  "
                   "move (a, b - s) for s in [9, 5, 2, 1] if s <= b  "
                   "move (b, a - s) for s in S if s < a and s >= b",
                   "let S = {1, 2, 4, 7, 11}\n" + grid);
  // Conditions whose left side only grows with k (k * k, 2 ^ k, k * (k + 1) / 2, with a
  // constant added): the range cut by bisection, a prefix or a suffix; one the analysis
  // cannot call rising ((k + a) * k, a may be anything) is tested as written; a range from
  // below 0 is left to the rules as written.
  agree_throughout("(a, b)",
                   "move (a - k * k, ID(b)) for k in 1..a if k * k <= a  "
                   "move (a, b - k) for k in 1..b if 2 ^ k + 1 < b + 2  "
                   "move (a - 1, b) for k in 0..a if k * (k + 1) / 2 >= a + 3 if a > 0  "
                   "move (a - 1, b - 1) for k in 0..a if (k + a) * k > b if b > 0",
                   grid);
  agree("(a, b)", "move (a - 1, ID(b)) for k in -2..a if k * k <= b if a > 0", grid);
  // The rules as written overflow at k ~ 6300 (k ^ 5); cut from the end, the same error.
  for (const char* q : {"grundy(P(1000000))\n", "wins(P(1000000))\n"}) {
    fails_with(std::string("game P { state n  move n - k for k in 1..n if k * k * k * k * k <= n }\n") + q,
               "overflow");
  }
  // A modular condition right after a range: strided runs, residue by residue; == and !=,
  // the residue on either side, one no k meets, a range from below 0 (tested as written),
  // and a for nested after the condition.
  agree_throughout("(a, b)",
                   "move (a - k, ID(b)) for k in 1..a if k % 4 != 2  "
                   "move (a, b - 2 * k) for k in 0..b / 2 if 1 == k % 3  "
                   "move (a - 1, b) for k in 0..a if k % 5 == 7  "
                   "move (a - 1, b - 1) for k in a - 3..a if k % 2 == 0 and a > 0 and b > 0  "
                   "move (a - k, b - j) for k in 1..a if k % 3 != 0 for j in 0..min(b, 2)",
                   grid);
  // Conditions that read k only as k % M: combined, through a function, a membership; a
  // period of 21 (the moduli 3 and 7), and one past 64 left as written.
  agree_throughout("(a, b)",
                   "move (a - k, ID(b)) for k in 1..a if f(k)  "
                   "move (a, b - k) for k in 1..b if k % 10 in {1, 3, 4} and not (k % 4 == 0)  "
                   "move (a - k, b - 1) for k in 1..a if k % 65 == 1 if b > 0",
                   "def f(k) = k % 3 == 0 or k % 7 == 2\n" + grid);
  // At k % 3 == 0 the condition divides by zero: the rules' own error, met where they meet it.
  fails_with("game Z { state n  move n - k for k in 1..n if 6 / (k % 3) > 2 }\ngrundy(Z(5))\n",
             "division by zero");
  // The same option for every k let through: one option, which the outcome search may stop
  // at and come back to.
  agree_throughout("(a, b)", "move (a - 1, ID(b)) for k in 0..a if k % 3 == 1  move (a, b - 1) if b > 0",
                   grid);
  // Every comparison, slopes 1, 2, -3, k on either side, with other conditions around them.
  agree_throughout("(a, b)",
                   "move (a - k, ID(b)) for k in 1..a if 2 * k + b >= a  "
                   "move (a, b - k) for k in 1..b if a - 3 * k < b and k % 2 == 1  "
                   "move (a - k, b - 1) for k in 0..a if b > 0 and b % 4 == k  "
                   "move (a - k, b) for k in 1..a if k > b / 2 if a <= 10 + k  "
                   "move (b / 2, a - k) for k in 1..a if 7 != k and a + b > k + 10 if k <= b",
                   grid);
  // A condition free of k, tested once before the loop; an empty range after the cut.
  agree_throughout("(a, b)",
                   "move (a - 1, ID(b)) for k in 1..3 if a > 0  move (a, b - k) for k in 1..b if k > b + 5  "
                   "move (a, b - k) for k in 1..b if b - k >= a if -k > -3",
                   grid);
  // Contest style: LeetCode 464 with the bounds the two rules imply.
  agree_throughout("(used, total)",
                   "move ({0}, 30) for k in 1..9 if not (k in used) and total + k >= 30 and total < 30  "
                   "move (used + {ID(k)}, total + k) for k in 1..9 if not (k in used) and total + k < 30",
                   "[wins(G({}, t)) for t in 0..30]\n[grundy(G({k}, k)) for k in 1..9]\n");
}

TEST_CASE("a value the rules use twice is computed once, and never read where its branch did not run",
          "[fast][compile]") {
  const std::string grid =
      "[grundy(G(a, b)) for a in 0..12 for b in 0..12]\n[wins(G(a, b)) for a in 0..12 for b in 0..12]\n";
  // (a + b) first met inside `b > 2 and ...`, then after the `or`, where that branch may not
  // have run: the second use computes it again.
  agree_throughout("(a, b)",
                   "move (a - 1, ID(b)) if (b > 2 and (a + b) % 2 == 0) or (a + b) % 3 == 0 if a > 0  "
                   "move (a, b - 1) if b > 0 and ((a * b) % 4 == 1 or (a * b) % 5 == 2 or a * b == 0)",
                   grid);
  // Truth values inside truth values, an `if` whose branches are alike, a value used in both
  // the condition and the option.
  agree_throughout("(a, b)",
                   "move (if a > b then a - 1 else a - 1, ID(b)) if a > 0 if ((a > 1 and b > 0) == (b > 1)) or a == 1  "
                   "move (a, b - (a + b) % 3 - 1) if b > (a + b) % 3 and not (a > 5 and b > 5 and a + b > 13)  "
                   "move (b / 2, a / 2) if (a > 3 or b > 3) and (a + b) % 2 == 1",
                   grid);
  // A helper whose arguments must be evaluated first (they may fail) and are used on a path only.
  agree_throughout("(x, y)",
                   "move (x - 2, y + 1) if inside(x - 2, ID(y) + 1)  move (x + 1, y - 2) if inside(x + 1, y - 2)",
                   "def inside(x, y) = x >= 0 and y >= 0 and x < 13 and y < 13\n" + grid);
}

TEST_CASE("rules of conditions and options are listed a batch of states at a time, with the values of one by one",
          "[fast][compile]") {
  // Swept by anti-diagonals (a knight towards the corner) and in lexicographic order (an
  // option in the same row, read from the cell settled just before it in the batch).
  const std::string knight =
      "move (x + dx, y + dy) for (dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)] if inside(x + dx, ID(y) + dy)";
  agree_throughout("(x, y)", knight,
                   "def inside(x, y) = x >= 0 and y >= 0 and x < 100 and y < 100\n"
                   "[grundy(G(99, 99)), grundy(G(98, 97))]\n[grundy(G(x, y)) for x in 90..99 for y in 0..99]\n");
  agree_throughout("(a, b)",
                   "move (a, b - 1) if b > 0 and b % 3 != 1  move (a - 1, ID(b) + 2) if a > 0 and b < 90  "
                   "move (a - 1, b / 2) if a > 1 and (b == 3 or 100 / (b - 3) > 5)",
                   "[grundy(G(a, b)) for a in 0..40 for b in 0..90]\n[wins(G(a, b)) for a in 0..9 for b in 0..9]\n");
  // A loop over a few constant values is an item per value in the batch: the values in
  // order, a condition on the loop's value after it, and a value given twice.
  agree_throughout("(a, b)",
                   "move ((a + s) % 11, ID(b) - 1) for s in {1, 2, 5} if b > 0  "
                   "move (a, b - 2) for s in [3, 1, 3] if (a + s) % 3 != 0 and b >= 2",
                   "[grundy(G(a, b)) for a in 0..10 for b in 0..60]\n[wins(G(a, b)) for a in 0..10 for b in 0..12]\n");
  // A state whose options overflow, in the batch of a sweep but not on the query's way: the
  // sweep hands it to the search, which never meets it; a query that needs it meets the error.
  const std::string far =
      "move (a - 1, ID(b)) if a > 0 and not (a == 5 and b == 5)  move (a, b * 4611686018427387904) if a == 5 and b == 5";
  agree("(a, b)", far, "[grundy(G(a, 3)) for a in 0..9]\ngrundy(G(5, 9))\n[grundy(G(a, 9)) for a in 0..4]\n");
  fails_with("game G { state (a, b)  " + substitute(far, "") + " }\ngrundy(G(6, 5))\n", "overflow");
}

TEST_CASE("a range whose options are affine but for a min or max is listed as runs between the kinks",
          "[fast][compile]") {
  // Three-row Chomp: (j, min(b, j), min(c, j)) is three runs, cut where j passes c and b.
  const std::string chomp =
      "move (j, min(ID(b), j), min(c, j)) for j in 1..a-1  move (a, j, min(c, j)) for j in 0..b-1  move (a, b, j) for j in "
      "0..c-1";
  agree_throughout("(a, b, c)", chomp,
                   "[grundy(G(a, b, c)) for a in 0..9 for b in 0..a for c in 0..b]\n"
                   "[wins(G(a, b, c)) for a in 0..12 for b in 0..a for c in 0..b]\n"
                   "winning(G(12, 7, 3))\nwinning(G(30, 17, 17))\n");
  // Slopes of both signs, a max against a constant, kinks past the range's ends, and a split.
  agree_throughout("(a, b)", "move (a - k, max(ID(b) - 2 * k, 0) + min(k, 3)) for k in 1..a  move (a, b - k) for k in 1..b",
                   "[grundy(G(a, b)) for a in 0..25 for b in 0..25]\n[wins(G(a, b)) for a in 0..25 for b in 0..25]\n");
  agree("(w, h)", "split [(k, min(ID(h), k + 1)), (w - k, h)] for k in 1..w - 1  move (w, h - 1) if h > 0",
        "[grundy(G(w, h)) for w in 0..14 for h in 0..14]\n");
  // A piece whose far end overflows: the rules as written meet it.
  fails_with("game G { state (a, b)  move (0, min(b, 4611686018427387904 * k)) for k in 1..a }\ngrundy(G(3, 5))\n",
             "overflow");
}

TEST_CASE("moves of a fixed shape are read from tables over the box, with the values of the rules", "[fast][compile]") {
  // runtime/BoxMoves.hpp: tests on one coordinate each, options' coordinates made of one each.
  // --explain says so; the values are the rules'.
  const auto tables = [](const std::string& state, const std::string& rules, const std::string& queries,
                         bool whole = true) {
    const std::string said = agree(state, rules, queries);
    INFO(said);
    CHECK(contains(said, "read from tables over the box"));
    if (whole) CHECK_FALSE(handed_over(said));
  };
  // A king's steps, swept in lexicographic order.
  tables("(a, b)", "move (a - 1, ID(b)) if a > 0  move (a, b - 1) if b > 0  move (a - 1, b - 1) if a > 0 and b > 0",
         "[grundy(G(a, b)) for a in 0..30 for b in 0..30]\n");
  // Coordinates swapped, one made constant, and tests through an inlined helper: by anti-diagonals.
  tables("(a, b)",
         "move (ID(b), a - 1) if a > 0 and b < 40  move (0, b) if a > 2 and a % 3 != 1  "
         "move (a + 1, b - 2) if ok(a + 1) and b >= 2",
         "def ok(v) = v >= 0 and v <= 40\n[grundy(G(a, b)) for a in 0..40 for b in 0..40]\n");
  // A test that fails (60 / 0) where an earlier one says no, and an option that leaves the box:
  // those cells go to the rules, which meet no error.
  tables("(a, b)", "move (a - 1, ID(b)) if a > 0 and b != 7 and 60 / (b - 7) > 3  move (a - 1, b + 3) if a > 0 and b > 50",
         "[grundy(G(a, b)) for a in 0..20 for b in 0..60]\n", false);
  // Three coordinates, a run along the last two.
  tables("(a, b, c)",
         "move (a - 1, ID(b), c) if a > 0  move (a, b - 1, c + 1) if b > 0 and c < 9  move (a, b, c - 1) if c > 0 and c % 2 == 0",
         "[grundy(G(a, b, c)) for a in 0..9 for b in 0..9 for c in 0..9]\n");
  // A test of two coordinates at once is not of that shape: the rules list those moves.
  const std::string two = agree("(a, b)", "move (a - 1, ID(b)) if a > b  move (a, b - 1) if b > 0",
                                "[grundy(G(a, b)) for a in 0..20 for b in 0..20]\n");
  CHECK_FALSE(contains(two, "read from tables"));
}

TEST_CASE("compiled rules meet the errors of the rules only where the query goes", "[fast][compile]") {
  // A move to a negative state is a state like any other for rules; the box hands over.
  const auto neg = run_source(
      "game G { state (a, b)  move (a - 1, b) if a > -2  move (a, b - 1) if b > 0 }\n"
      "grundy(G(2, 2))\nwins(G(1, 3))\n");
  CHECK(neg.code == 0);
  const auto ref = run_source(
      "def id(x) = if false then [id(x)][0] else x\ngame G { state (a, b)  move (id(a) - 1, b) if a > -2  "
      "move (a, b - 1) if b > 0 }\ngrundy(G(2, 2))\nwins(G(1, 3))\n");
  CHECK(neg.out == ref.out);
  // A loop is named by the search.
  fails_with("game L { state (a, b)  move (b, a) }\ngrundy(L(1, 2))\n", "the rules loop");
  fails_with("game L { state (a, b)  move (b, a) }\nwins(L(1, 2))\n", "the rules loop");
  // Overflow in a rule is reported as the rules report it.
  fails_with(
      "game O { state (a, b)  move (a - 1, b * 4611686018427387904) if a > 0 }\n"
      "grundy(O(3, 3))\n",
      "overflow");
  // A condition before the one that cuts the range divides by zero at a k the cut leaves out,
  // and a range's end divides by zero where a condition after it would say no: the rules as
  // written meet the error, and so does the compiled program.
  fails_with("game D { state n  move n - k for k in 1..n if n / (k - 5) > 0 if k <= 3 }\ngrundy(D(9))\n",
             "division by zero");
  fails_with("game D { state (a, b)  move (a - k * b, b) for k in 1..a / b if b > 0 }\nwins(D(3, 0))\n",
             "division by zero");
  // An index out of range, in a list the compiled rules pack: the rules' own error.
  fails_with(
      "game X { state xs  move update(xs, 0, xs[3] - 1) if len(xs) > 0 and xs[0] > 0 }\nwins(X([2, 1]))\n",
      "index");
  fails_with("game U { state xs  move update(xs, len(xs), 1) if len(xs) < 2 }\nwins(U([]))\n", "index");
  // Options listed a batch at a time overflow at k = 9: the outcome search stops at the
  // first option of G(9), before it, and answers (by the compiled rules, no hand-over);
  // its value needs every option, and meets the rules' error.
  const std::string power = "game G { state n  move k ^ 20 / k ^ 20 * 0 + n - 1 for k in 1..n }\n";
  const auto stops_early = run_explained(power + "wins(G(9))\n");
  CHECK(stops_early.out == "true\n");
  CHECK_FALSE(handed_over(stops_early.explain));
  fails_with(power + "grundy(G(9))\n", "overflow");
  // A cut range's condition overflows where the rules as written would test it: the same error.
  for (const char* q : {"grundy(B(3))\n", "wins(B(3))\n"}) {
    fails_with(
        std::string("game B { state n  move n - k for k in 1..n if k * 4611686018427387904 < n }\n") + q,
        "overflow");
  }
}

TEST_CASE(
    "a run of options overflowing at its far end, or inside its arithmetic there, is the rules' overflow",
    "[fast][compile]") {
  // The compiled code runs once per run, at its start; the far end's values follow from the
  // slopes. Each query agrees with the rules as written (wrapped in id(), not compiled).
  const std::string ends[] = {"b + k * 4611686018427387904",
                              "b + k * 4611686018427387904 - k * 4611686018427387904"};
  for (const std::string& second : ends) {
    for (const std::string query : {"grundy(O(1, 0))", "wins(O(1, 0))", "grundy(O(2, 0))", "wins(O(3, 0))"}) {
      const std::string rules = "move (a - k, " + second + ") for k in 1..a }\n" + query + "\n";
      const auto fast = run_source("game O { state (a, b)  " + rules);
      const auto slow =
          run_source("def id(x) = if false then [id(x)][0] else x\ngame O { state (a, b)  move (id(a) - k, " +
                     second + ") for k in 1..a }\n" + query + "\n");
      INFO(second << "  " << query << "\n" << fast.out << fast.err);
      CHECK(fast.code == slow.code);
      CHECK(fast.out == slow.out);
      // From a = 2 on, the option at k = 2 has 2 * 2^62 in it.
      const bool over = query.find("(1, 0)") == std::string::npos;
      CHECK(fast.code == (over ? grundy::kExitRuntime : 0));
      if (over) CHECK(contains(fast.err, "overflow"));
    }
  }
}

TEST_CASE("Fibonacci nim and Wythoff against brute force", "[fast][compile][known]") {
  // Fibonacci nim written with a condition that is always true, which is not read as the
  // game whose outcomes a theorem gives (runtime/DynamicSubtraction.hpp): the outcome search
  // does the work. (Written `k + k`, it is read as the theorem's game: said below.)
  const auto r = run_source(
      "game FibNim { state (n, limit)  move (n - k, 2 * k) for k in 1..min(n, limit) if k > 0 }\n"
      "game W { state (a, b)  move (a - k, b) for k in 1..a  move (a, b - k) for k in 1..b  "
      "move (a - k, b - k) for k in 1..min(a, b) }\n"
      "[n for n in 2..3000 if not wins(FibNim(n, n - 1))]\n"
      "[grundy(W(a, b)) for a in 0..40 for b in 0..40]\n");
  REQUIRE(r.code == 0);
  std::string fib = "[";
  for (auto f : grundy::brute::fibonacci_upto(3000)) fib += (fib.size() > 1 ? ", " : "") + std::to_string(f);
  fib += "]\n";
  CHECK(r.out.substr(0, fib.size()) == fib);
  const auto w = grundy::brute::wythoff(40);
  std::string grid = "[";
  for (int a = 0; a <= 40; ++a) {
    for (int b = 0; b <= 40; ++b) {
      grid += (grid.size() > 1 ? ", " : "") +
              std::to_string(w[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)]);
    }
  }
  CHECK(r.out.substr(fib.size()) == grid + "]\n");
}

TEST_CASE("the bottom-up sweep of a box gives the values of the search, in any order of queries",
          "[fast][compile][sweep]") {
  const std::string wythoff =
      "move (a - k, ID(b)) for k in 1..a  move (a, b - k) for k in 1..b  "
      "move (a - k, b - k) for k in 1..min(a, b)";
  const std::string cut =
      "split [(i, h), (ID(w) - i, h)] for i in 2..w-2  split [(w, j), (w, h - j)] for j in 2..h-2";
  // One far query (the search gives way to a sweep), then the rest of the box in orders that
  // grow the sweep's extent in either coordinate, backwards, and scattered.
  const std::string queries =
      "grundy(G(70, 66))\n"
      "[grundy(G(a, b)) for b in 0..80 for a in 0..75]\n"
      "[grundy(G(90 - a, 85 - b)) for a in 0..90 for b in 0..85]\n"
      "[grundy(G((37 * i) % 101, (53 * i) % 97)) for i in 0..400]\n";
  agree("(a, b)", wythoff, queries);
  agree("(w, h)", cut, queries);
  // A fresh table for each order.
  agree("(a, b)", wythoff, "[grundy(G(a, b)) for b in 0..60 for a in 0..60]\n");
  agree("(a, b)", wythoff, "[grundy(G(60 - a, 60 - b)) for a in 0..60 for b in 0..60]\n");
  agree("(w, h)", cut, "grundy(G(3, 150))\ngrundy(G(150, 3))\ngrundy(G(120, 120))\n");
  // Against the brute force, far enough that the sweep does the work.
  const auto r = run_explained("game W { state (a, b)  " + substitute(wythoff, "") + " }\n" +
                               "game C { state (w, h)  " + substitute(cut, "") + " }\n" +
                               "grundy(W(120, 110))\ngrundy(C(90, 100))\n"
                               "[grundy(W(a, b)) for a in 0..120 for b in 0..110]\n"
                               "[grundy(C(w, h)) for w in 1..90 for h in 1..100]\n");
  const auto w = grundy::brute::wythoff(120);
  const auto c = grundy::brute::cut(100);
  std::string expect = std::to_string(w[120][110]) + "\n" + std::to_string(c[90][100]) + "\n[";
  for (std::size_t a = 0; a <= 120; ++a) {
    for (std::size_t b = 0; b <= 110; ++b) expect += (a || b ? ", " : "") + std::to_string(w[a][b]);
  }
  expect += "]\n[";
  for (std::size_t x = 1; x <= 90; ++x) {
    for (std::size_t y = 1; y <= 100; ++y) expect += (x > 1 || y > 1 ? ", " : "") + std::to_string(c[x][y]);
  }
  CHECK(r.out == expect + "]\n");
}

TEST_CASE("the sweep by anti-diagonals gives the values of the search, and gives way where the moves do not fit it",
          "[fast][compile][sweep]") {
  // A knight towards the corner: every move lowers x + y, and (x + 1, y - 2) leaves the
  // lexicographic order. Written out, with a helper and constant tuples, in three dimensions.
  const std::string knight =
      "move (x - 2, ID(y) + 1) if x >= 2 and y + 1 < 90  move (x - 2, y - 1) if x >= 2 and y >= 1  "
      "move (x + 1, y - 2) if x + 1 < 90 and y >= 2  move (x - 1, y - 2) if x >= 1 and y >= 2";
  const std::string queries = "grundy(G(89, 89))\n[grundy(G(x, y)) for x in 0..89 for y in 0..89]\n"
                              "[wins(G(x, 89 - x)) for x in 0..89]\n";
  agree("(x, y)", knight, queries);
  agree("(x, y)", knight, "grundy(G(45, 89))\ngrundy(G(89, 89))\n[grundy(G(89 - x, y)) for x in 0..89 for y in 0..89]\n");
  agree("(x, y, z)",
        "move (x + 1, ID(y) - 1, z - 1) if x < 30 and y >= 1 and z >= 1  move (x - 1, y + 1, z - 1) if x >= 1 and y < 30 "
        "and z >= 1  move (x - 1, y, z) if x >= 1  move (x, y - 2, z + 1) if y >= 2 and z < 30",
        "grundy(G(30, 30, 30))\n[grundy(G(x, y, z)) for x in 0..30 for y in 0..30 for z in 0..30]\n");
  // Moves that raise the sum (y + 2) but lower x: the lexicographic sweep's order, not this one.
  agree("(x, y)", "move (x - 1, ID(y) + 2) if x >= 1 and y + 2 < 200  move (x, y - 1) if y >= 1",
        "grundy(G(150, 100))\n[grundy(G(x, y)) for x in 0..150 for y in 0..199]\n");
  // Neither order: moves that raise the sum and move back in x; the search does it.
  agree("(x, y)", "move (x - 1, ID(y) + 2) if x >= 1 and y + 2 < 120  move (x + 2, y - 1) if x + 2 < 120 and y >= 1",
        "grundy(G(100, 100))\n[grundy(G(x, y)) for x in 0..119 for y in 0..119]\n");
  const std::string helper =
      "def inside(x, y) = x >= 0 and y >= 0 and x < 90 and y < 90\n"
      "game G { state (x, y)  move (x + dx, y + dy) for (dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)] if "
      "inside(x + dx, y + dy) }\n";
  same_output(helper + queries, "game G { state (x, y)  " + substitute(knight, "") + " }\n" + queries);
}

TEST_CASE("a sweep that meets an option after its state, or an error, leaves the query to the search",
          "[fast][compile][sweep]") {
  // (a, 0) moves to (a + 1, 0): after it in the sweep's order, and not known.
  agree("(a, b)",
        "move (a, b - 1) if b > 0  move (ID(a) + 1, 0) if a < 30 and b == 0  move (a - 1, b) if a > 0 and b "
        "> 0",
        "grundy(G(40, 40))\n[grundy(G(a, b)) for a in 0..45 for b in 0..45]\n");
  // Every state with a == b divides by zero, but no query reaches one: the sweep, which
  // would, must not report it, and the values must be those of the rules.
  agree("(a, b)", "let d = 60 / (a - b)  move (a - 1, ID(b)) if a > b + 1  move (a, b - 1) if b > a + 1",
        "grundy(G(80, 0))\ngrundy(G(0, 80))\n[grundy(G(a, 0)) for a in 1..80]\n[grundy(G(0, b)) for b in "
        "1..80]\n");
  const auto r = run_source(
      "game G { state (a, b)  let d = 60 / (a - b)  move (a - 1, b) if a > b + 1 }\n"
      "grundy(G(80, 0))\ngrundy(G(0, 80))\ngrundy(G(3, 3))\n");
  CHECK(r.code == grundy::kExitRuntime);
  CHECK(r.out == "1\n0\n");
  CHECK(contains(r.err, "division by zero"));
  // The states a sweep would fill count against --max-states: it is not taken where the
  // search alone fits.
  SessionOptions tight;
  tight.limits.max_states = 700;
  const auto s = run_source(
      "game W { state (a, b)  " + wythoff_rules() + " }\ngrundy(W(0, 300))\ngrundy(W(300, 0))\n", tight);
  INFO(s);
  CHECK(s.code == 0);
}

TEST_CASE("an interrupt is seen inside one state's millions of compiled options", "[fast][compile][limits]") {
  // G(4000) alone has 16M options and its followers about 2 * 10^10 together; an interrupt
  // raised while the compiled rules run must stop them within moments, not after thousands
  // of states (the checks between states come every few thousand states). The second
  // form spends the state's budget by one step in the outer loop and one in the inner run
  // alternately: the checks must not depend on how the steps fall.
  const char* rules = GENERATE("game G { state n  move k % n for k in 2..n * n }\n",
                               "game G { state n  move k % n for k in 2..n * n for j in 0..0 }\n");
  CAPTURE(rules);
  std::atomic<bool> interrupt{false};
  SessionOptions options;
  options.limits.interrupt = &interrupt;
  std::thread press([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    interrupt = true;
  });
  const auto started = std::chrono::steady_clock::now();
  const auto r = run_source(std::string(rules) + "grundy(G(4000))\n", options);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  press.join();
  CHECK(r.code == grundy::kExitRuntime);
  CHECK(contains(r.err, "interrupted"));
  CHECK(took < 10.0);  // without the checks inside a state: minutes
}

TEST_CASE("polls come inside one state's compiled options however its steps fall",
          "[fast][compile][limits]") {
  // The root has 8M options, each one step of the outer loop and one of the inner run: the
  // polls (which see Ctrl-C and draw progress) must come every 2^16 steps inside the state,
  // a few hundred times, and not only between states.
  struct Counter : grundy::Progress {
    int updates = 0;
    void begin(const std::string&) override {}
    void update(std::uint64_t, std::uint64_t) override { ++updates; }
    void end() override {}
  } counter;
  SessionOptions options;
  options.limits.progress = &counter;
  const auto r = run_source(
      "game G(m) { state (a, b)  move (0, 0) for k in 1..a * m for j in 0..0 }\n"
      "grundy(G[4000000](2, 0))\n",
      options);
  REQUIRE(r.code == 0);
  CHECK(r.out == "1\n");
  CHECK(counter.updates >= 200);
}

TEST_CASE("a query straight to the table answers as the position built first does", "[fast][compile]") {
  // grundy_of_call skips building the position; a position bound by `let` takes the
  // general way (Evaluator::grundy of a Position). Values and errors must not differ.
  const std::string games =
      "game W { state (a, b)  move (a - k, b) for k in 1..a  move (a, b - k) for k in 1..b "
      " move (a - k, b - k) for k in 1..min(a, b) }\n"
      "game K { state n  split [a, n - t - a] for t in 1..2 for a in 0..n-t }\n"
      "game D { state n  move n - k for k in 1..n if k % 3 != 0 }\n"
      "game F { state (n, limit)  move (n - k, 2 * k) for k in 1..min(n, limit) }\n"
      "game Nim { state n  move k for k in 0..n-1 }\n";
  const char* calls[] = {"W(7, 4)",    "W(-1, 2)",   "K(30)", "D(25)",    "F(20, 19)", "Nim(9)",
                         "W(1, 2, 3)", "W(1, true)", "K(-3)", "F(3, -1)", "F(2^62, 0)"};
  for (const char* call : calls) {
    CAPTURE(call);
    const auto direct = run_source(games + "grundy(" + call + ")\n");
    const auto built = run_source(games + "let p = " + call + "\ngrundy(p)\n");
    CHECK(direct.code == built.code);
    CHECK(direct.out == built.out);
    // The same message (the source line and caret differ: `grundy(p)` is another line).
    auto message = [](const std::string& err) {
      const std::size_t at = err.find(": error:");
      return at == std::string::npos ? err : err.substr(at, err.find('\n', at) - at);
    };
    CHECK(message(direct.err) == message(built.err));
  }
}

TEST_CASE("an outcome search stopped by Ctrl-C leaves no mark behind", "[fast][compile][limits]") {
  // The states the search has expanded carry a mark in its memo, where a loop would meet
  // them; stopped midway, the search must take every mark back, or the next query (at the
  // REPL, after Ctrl-C) would see a loop that is not there and give up the outcome search.
  std::atomic<bool> interrupt{false};
  // Ctrl-C pressed as the outcome search begins (it shows progress): not before the
  // statement, which the parser would see first.
  struct PressAtBegin : grundy::Progress {
    std::atomic<bool>* flag = nullptr;
    bool armed = false;
    void begin(const std::string&) override {
      if (armed) *flag = true;
    }
    void update(std::uint64_t, std::uint64_t) override {}
    void end() override {}
  } press;
  press.flag = &interrupt;
  std::ostringstream out, err, why;
  SessionOptions options;
  options.limits.interrupt = &interrupt;
  options.limits.explain = &why;
  options.limits.progress = &press;
  grundy::Session session(out, err, options);
  // A first query sets the game up (the setup looks at the interrupt flag too).
  REQUIRE(session.run_source("game C { state (n, m)  move (n - 1, m) if n > 0 }\nwins(C(1, 0))\n",
                             "first.game") == 0);
  // Pressed: the search's first poll, 4096 steps down the chain, stops it with thousands of
  // states on its stack.
  press.armed = true;
  REQUIRE(session.run_source("wins(C(20000, 0))\n", "second.game") == grundy::kExitRuntime);
  press.armed = false;
  CHECK(contains(err.str(), "second.game:1:1: error: interrupted"));
  interrupt = false;
  REQUIRE(session.run_source("wins(C(19000, 0))\nwins(C(19999, 0))\n", "third.game") == 0);
  CHECK(out.str() == "true\nfalse\ntrue\n");
  INFO(why.str());
  CHECK_FALSE(contains(why.str(), "outcome search stops"));
}

TEST_CASE("the outcome search, going on through a run where it left off, agrees with the values",
          "[fast][compile]") {
  // wins() in a session of its own (its outcome search, which resumes a run of options after
  // deciding the one it stopped at) against grundy() != 0 in another (the box of values).
  for (const std::string game :
       {"game F { state (n, limit)  move (n - k, k + 1) for k in 1..min(n, limit) }",
        // Wythoff's game, `b + 0` so that its theorem does not take the outcomes
        "game F { state (a, b)  move (a - k, b + 0) for k in 1..a  move (a, b - k) for k in 1..b  "
        "move (a - k, b - k) for k in 1..min(a, b) }",
        "game F { state (a, b)  move (a - k, b + k - 1) for k in 2..a  move (a, b - 1) if b > 0 and a % 3 != "
        "1 }",
        "game F { state (a, b)  move (b, a - k) for k in 1..min(a, 3) }"}) {
    INFO(game);
    const std::string grid = " for a in 0..40 for b in 0..40 ";
    CHECK(grundy::test::run_line(game + "\n[(a, b)" + grid + "if wins(F(a, b))]\n") ==
          grundy::test::run_line(game + "\n[(a, b)" + grid + "if grundy(F(a, b)) != 0]\n"));
  }
}

TEST_CASE("a range listed a batch of values at a time gives the options of the rules as written",
          "[fast][compile]") {
  const std::string grid =
      "[grundy(G(a, b)) for a in 0..20 for b in 0..12]\n[wins(G(a, b)) for a in 0..20 for b in 0..12]\n"
      "[outcome(misere G(a, b)) for a in 0..9 for b in 0..9]\n";
  // Branches over a batch: the side of `or`, `and` and `if` not taken divides by zero, and
  // must not be evaluated for those values.
  agree_throughout(
      "(a, b)",
      "move (a - k, ID(b)) for k in 1..a if k == 2 or 12 / (k - 2) > 1  "
      "move (a, b - k) for k in 1..b if k != 3 and 30 / (k - 3) > 4  "
      "move (a - k, if k == 4 then b else abs(b / (k - 4))) for k in 1..a if k % 4 == 0 or k < 3  "
      "move (b / 2, a - k) for k in 1..a if not (k in {2, 5}) and (k + b) % 3 != 1",
      grid);
  // Sets and lists built per value, with the range's variable inside a comprehension's body.
  agree_throughout("(a, b)",
                   "move (a - k, ID(b) - len([j for j in 0..k % 5]) % 2) for k in 1..a if b > 0  "
                   "move (a - k, len([min(j, k) for j in 1..3]) + b - 4) for k in 1..a if b >= 1  "
                   "move (a - 1, b - len({k} + {2 * k})) for k in 0..b if a > 0 and b >= 2",
                   grid);
  // Chomp, its bite a comprehension per option; grundy and wins of every position of 4 x 4.
  agree_throughout("hs",
                   "move [if i >= c then min(hs[i], ID(j)) else hs[i] for i in 0..len(hs)-1] "
                   "for c in 0..len(hs)-1 for j in 0..hs[c]-1 if c > 0 or j > 0",
                   "[grundy(G([a, b, c, d])) for a in 0..4 for b in 0..a for c in 0..b for d in 0..c]\n"
                   "[wins(G([a, b, c, d])) for a in 0..4 for b in 0..a for c in 0..b for d in 0..c]\n");
  // A condition that divides by zero at k = 6 of G(n): the options before it come first, and
  // the outcome search may stop at one of them (G(n) has the losing option n - 1 when n - 1 is
  // a P-position); the values need every option and meet the rules' error.
  const std::string late = "game G { state n  move n - k for k in 1..n if 60 / (k - 6) != 7 }\n";
  same_output(late + "[wins(G(n)) for n in 0..5]\n",
              "def id(x) = if false then [id(x)][0] else x\n" +
                  std::string("game G { state n  move n - k for k in 1..n "
                              "if 60 / (id(k) - 6) != 7 }\n") +
                  "[wins(G(n)) for n in 0..5]\n");
  fails_with(late + "grundy(G(9))\n", "division by zero");
  // A sum inside an option's coordinate overflows at k = 3 (9 * 2^59 + 2^62), the product before
  // it does not: the rules' overflow, where they meet it.
  const std::string sum =
      "game S { state (a, b)  move (a - k, b + (k * k * 576460752303423488 + "
      "4611686018427387904) * 0) for k in 1..a }\n";
  fails_with(sum + "grundy(S(3, 0))\n", "overflow");
  same_output(sum + "[grundy(S(a, 0)) for a in 0..2]\n", "[0, 1, 2]\n");
  // A long constant list whose options leave the box: the listing stops at one of them (the box
  // grows) and goes on from that item.
  agree("(n, t)",
        "move (x - 1 + n, ID(t) - 1) for x in L if t > 0 and x != 9  move (n - k, t) for k in 1..n if t == 0",
        "let L = [x for x in 1..60]\n[grundy(G(n, t)) for n in 0..3 for t in 0..2]\n"
        "[wins(G(n, t)) for n in 0..3 for t in 0..2]\n");
  // Items that do not fit a packed list at some values (k + 250 > 255): the rules as written
  // take those states, and the same values come out.
  agree("xs",
        "move [xs[i] - 1 + ID(k) * 0 for i in 0..len(xs)-1] + [k + 250] for k in 1..8 "
        "if len(xs) < 2 and xs[0] > 0",
        "[grundy(G([n])) for n in 0..6]\n[wins(G([n])) for n in 0..6]\n");
  agree("xs",
        "move [if j == 0 then xs[0] - 1 else ID(k) * 90 for j in 0..1] for k in 1..4 if xs[0] > 0  "
        "move [xs[0], xs[1] - k] for k in 1..4 if len(xs) == 2 and xs[1] >= k",
        "[grundy(G([a, n])) for a in 0..3 for n in 0..6]\n[wins(G([a, n])) for a in 0..3 for n in 0..6]\n");
  // A row of coins (take one, or two side by side): update and xs[i] over a batch, a value
  // too large for the items' width (the rules as written take those states), and an index
  // past the end, the rules' error.
  const std::string coins =
      "[grundy(G([1 for i in 1..n])) for n in 0..12]\n[wins(G([1, 1, 0, 1, 1, 1, 0, 1, 1]))]\n";
  agree_throughout("cells",
                   "move update(cells, i, 0) for i in 0..len(cells)-1 if cells[i] == ID(1)  "
                   "move update(update(cells, i, 0), i + 1, 0) for i in 0..len(cells)-2 if cells[i] == 1 and "
                   "cells[i + 1] == 1",
                   coins);
  agree("cells", "move update(cells, i, 30 * ID(i % 2)) for i in 0..len(cells)-1 if cells[i] == 1", coins);
  for (const char* q : {"grundy(R([1, 1, 1, 1, 1, 1]))\n", "wins(R([0, 0, 0, 0, 0, 1]))\n"}) {
    fails_with(std::string("game R { state cells  move update(cells, i + 1, 0) for i in 0..len(cells)-1 "
                           "if cells[i] == 1 and (i + 1 == len(cells) or cells[i + 1] == 1) }\n") +
                   q,
               "index");
  }
}

TEST_CASE("expressions of the loop's variable alone, kept by k for all states, give the rules' options",
          "[fast][compile]") {
  // n - k * k: k * k kept by k, the difference taken by the table's reader; with grundy() of
  // every heap to 3000 (the sweep) and wins() (the searches).
  agree("n", "move n - k * k for k in 1..n if k * k <= ID(n)",
        "sum(grundy(G(n)) for n in 0..3000)\n[grundy(G(n)) for n in 0..200]\n[wins(G(n)) for n in 0..200]\n");
  // Values below zero (n - (k - 20) * k adds): the differences are checked.
  agree("n", "move n - (k - 20) * ID(k) for k in 1..10 if n < 100",
        "sum(grundy(G(n)) for n in 0..150)\n[wins(G(n)) for n in 90..110]\n");
  // A condition of k alone that is not periodic, and ones on a set's elements (not consecutive).
  agree("n", "move n - k for k in 1..n if ID(k) * k % 11 < 5 or k % 13 == 4",
        "sum(grundy(G(n)) for n in 0..2000)\n[wins(G(n)) for n in 0..100]\n");
  agree("s",
        "move s - {k} for k in s if ID(k) * k % 7 != 2  move s - {k, k + 1} for k in s if k * k % 5 == 1",
        "[grundy(G(set(0..a))) for a in 0..14]\n[wins(G(set(a..20))) for a in 0..20]\n"
        "[grundy(G({k for k in 0..a if k % 3 != 1})) for a in 0..20]\n");
  // A second condition, over the values the first one left (no longer consecutive).
  agree("n", "move n - k for k in 1..n if ID(k) * k % 5 != 1 if k * k % 7 != 2",
        "sum(grundy(G(n)) for n in 0..1000)\n[wins(G(n)) for n in 0..100]\n");
  // Ranges at both ends of the 64-bit integers, the one state's after the other's (k / 3 % 3
  // kept from k = -2^63, then asked up to 2^63 - 1).
  agree("n",
        "move n - 1 - abs(k % 8) for k in (if n % 2 == 0 then -9223372036854775807 - 1 else "
        "9223372036854775800).."
        "(if n % 2 == 0 then -9223372036854775800 else 9223372036854775807) if n > 9 and ID(k) / 3 % 3 == 0",
        "sum(grundy(G(n)) for n in 0..40)\n[wins(G(n)) for n in 0..40]\n");
  // 60 / (k - 6), of k alone, is evaluated only where `n < 30` does not decide: kept for the
  // values before k = 6, and the rules' error where they meet it.
  const std::string guarded = "game G { state n  move n - k for k in 1..n if n < 30 or 60 / (k - 6) > 2 }\n";
  same_output(guarded + "sum(grundy(G(n)) for n in 0..29)\n",
              "def id(x) = if false then [id(x)][0] else x\n"
              "game G { state n  move n - k for k in 1..n if n < 30 or 60 / (id(k) - 6) > 2 }\n"
              "sum(grundy(G(n)) for n in 0..29)\n");
  fails_with(guarded + "grundy(G(40))\n", "division by zero");
  // n - x(k) past the 64-bit range: the rules' overflow.
  fails_with(
      "game G { state n  move n - (k * k - 9223372036854775807) for k in 1..3 if n < 100 }\n"
      "sum(grundy(G(n)) for n in 0..10)\n",
      "integer overflow");
}

TEST_CASE("a misere outcome sweeps the box below its position where it can, and searches where not",
          "[fast][compile]") {
  // Misere Wythoff: every option comes before its state, the box swept in lexicographic order.
  agree("(a, b)",
        "move (a - k, ID(b)) for k in 1..a  move (a, b - k) for k in 1..b  move (a - k, b - k) for k in "
        "1..min(a, b)",
        "[wins(misere G(40, 50)), wins(misere G(37, 61)), outcome(misere G(12, 0))]\n"
        "[(a, b) for a in 0..30 for b in 0..30 if not wins(misere G(a, b))]\n");
  // Options past the box below (b + k - 1 > b), and a terminal state other than (0, 0): the
  // sweep stops where it meets them and the search takes over.
  agree("(a, b)", "move (a - k, ID(b) + k - 1) for k in 1..a  move (a, b - k) for k in 2..b if a % 3 != 1",
        "[wins(misere G(20, 20)), wins(misere G(9, 30)), wins(misere G(25, 3))]\n"
        "[(a, b) for a in 0..12 for b in 0..12 if not wins(misere G(a, b))]\n");
  // Queries in increasing order, each sweep passing by the box the ones before swept (which
  // neither holds the next one's box nor lies within it); one, two and three coordinates.
  agree("(a, b)",
        "move (a - k, ID(b)) for k in 1..a  move (a, b - k) for k in 1..b  move (a - k, b - k) for k in "
        "1..min(a, b)",
        "[(a, b) for a in 0..25 for b in 0..25 if not wins(misere G(a, b))]\n"
        "[(a, b) for b in 0..30 for a in 0..30 if not wins(misere G(a, b))]\n");
  agree("n", "move n - k for k in 1..min(3, ID(n))  move n / 2 if n % 5 == 1",
        "[n for n in 0..400 if not wins(misere G(n))]\n");
  agree("(x, y, z)", "move (x - 1, ID(y), z) if x > 0  move (x, y - 1, z) if y > 1  move (x, y, z - k) for k in 1..z if k != 2",
        "[(x, y, z) for x in 0..5 for y in 0..6 for z in 0..7 if not wins(misere G(x, y, z))]\n"
        "[(x, y, z) for z in 0..7 for x in 0..5 for y in 0..6 if not wins(misere G(x, y, z))]\n");
  // A loop, met by the search after the sweep stops at it.
  fails_with(
      "game L { state (a, b)  move (a, b - 1) if b > 0  move (a, 5) if b == 0 and a > 0 }\n"
      "wins(misere L(1, 3))\n",
      "the rules loop");
}

TEST_CASE("the outcome search, going on through the options it kept from a batch, agrees with the values",
          "[fast][compile]") {
  // wins() (its search keeps the options after the one it stopped at, and looks at them in
  // turn after deciding it; or, past a few, goes on from the one it stopped at) against
  // grundy() != 0, in sessions of their own. Each game with the positions asked.
  struct Case {
    const char* rules;
    const char* positions;
  };
  const Case cases[] = {
      {"state (used, t)  move (used + {k}, t + k) for k in 1..12 if not (k in used) and t + k < 40",
       "F(s, t) for s in [{}, {1}, {2, 3}, {12}] for t in 0..25"},
      {"state hs  move [if i >= c then min(hs[i], j) else hs[i] for i in 0..len(hs)-1] "
       "for c in 0..len(hs)-1 for j in 0..hs[c]-1 if c > 0 or j > 0",
       "F(s) for s in [[5, 5, 4, 2], [6, 6, 6], [7, 3, 3, 1]]"},
      {"state (a, b)  move (a - k * k, b + k % 2) for k in 1..a if k * k <= a  "
       "move (a, b - k) for k in 1..b if (a + k) % 3 != 0",
       "F(s, t) for s in 0..30 for t in 0..20"},
      // A set's elements, a list's items, a table's row: a listing goes on after a batch from
      // the elements left, or the next index.
      {"state (s, t)  move (s - {k, k + 1}, t) for k in s if k != t  move (s, t - 1) if t > 0",
       "F(s, t) for s in [set(0..9), {1, 3, 4, 7, 8, 12}, set(2..14)] for t in 0..5"},
      {"state hs  move update(hs, i, x - 1) for i in 0..len(hs)-1 for x in hs if x > 0 and x <= hs[i]",
       "F(s) for s in [[5, 5, 4, 2], [9, 9], [3, 8, 1]]"},
      {"state (n, t)  move (m, t - 1) for m in E[n] if t > 0 and m % 3 != t % 3",
       "F(s, t) for s in 0..30 for t in 0..20"},
      // Batches too long to keep: the listing goes on from the option it stopped at.
      {"state (s, t)  move (s - {k}, t - 1) for k in s if t > 0 and k >= 3 * t",
       "F(s, t) for s in [set(0..40), set(5..50)] for t in 0..3"},
      {"state (n, t)  move (n - x, t) for x in L if x <= n and (n + x + t) % 4 != 0  move (n, t - 1) if t > "
       "0",
       "F(s, t) for s in 0..150 for t in 0..3"},
  };
  // A graph on 31 nodes for the table: n -> 2n + 1, 2n + 2, n + 3 below 31; a list of 60.
  const std::string lets =
      "let E = [[m for m in [2 * n + 1, 2 * n + 2, n + 3] if m < 31] for n in 0..30]\nlet L = [x for x in "
      "1..60]\n";
  for (const Case& c : cases) {
    const std::string game = lets + "game F { " + c.rules + " }\n";
    const std::string pos = std::string(c.positions).substr(0, std::string(c.positions).find(" for"));
    INFO(game);
    CHECK(grundy::test::run_line(game + "[" + c.positions + " if wins(" + pos + ")]\n") ==
          grundy::test::run_line(game + "[" + c.positions + " if grundy(" + pos + ") != 0]\n"));
  }
}

TEST_CASE("the outcome search's table takes memory only where it is written", "[fast][compile][limits]") {
  // Fibonacci nim to 20,000 spans a box of 20,001 x 40,002 states, 200 MB at two bits a
  // state; the search touches a few hundred thousand of them. In 64 MB it must still answer
  // (the Zeckendorf losing positions), without giving up the outcome search. `if k > 0`: the
  // search, not the theorem for `2 * k`.
  SessionOptions options;
  options.limits.max_memory = std::uint64_t{64} << 20;
  const auto r = run_explained(
      "game F { state (n, limit)  move (n - k, 2 * k) for k in 1..min(n, limit) if k > 0 }\n"
      "[n for n in 2..20000 if not wins(F(n, n - 1))]\n",
      options);
  std::string fib = "[";
  for (auto f : grundy::brute::fibonacci_upto(20000)) fib += (fib.size() > 1 ? ", " : "") + std::to_string(f);
  CHECK(r.out == fib + "]\n");
  CHECK_FALSE(contains(r.explain, "outcome search stops"));
}

TEST_CASE("an outcome search down a game without end stops at its share of the memory",
          "[fast][compile][limits]") {
  // (a, b) -> (a, b + 1) for ever: the search's stack of states grows by one a step. Too
  // small a limit for the runaway's depth: it must stop at the search's share of
  // --max-memory with the path it holds, not hand the same path to the search of nim-values.
  SessionOptions options;
  options.limits.max_memory = std::uint64_t{16} << 20;
  std::ostringstream why;
  options.limits.explain = &why;
  const auto r = run_source(
      "game U { state (a, b)  move (a - k, b + 1) for k in 0..min(a, 3) }\nwins(U(3, 0))\n", options);
  INFO(r << why.str());
  CHECK(r.code == grundy::kExitRuntime);
  CHECK(contains(r.err, "out of memory"));
  CHECK(contains(r.err, "of them on the path of the search from U(3, 0)"));
  CHECK(!contains(why.str(), "the outcome search stops"));
}

TEST_CASE("an outcome search down a game without end stops by the rule, a million deep",
          "[fast][compile][limits]") {
  const auto r = run_source(
      "game U { state (a, b)  move (a - k, b + 1) for k in 0..min(a, 3) }\nwins(U(3, 0))\n");
  CHECK(r.code == grundy::kExitRuntime);
  // Its loop's range reads the position (`min(a, 3)`): a condition, so four times as deep.
  CHECK(contains(r.err, "U(3, 0) -> U(3, 1) -> ... -> U(3, 1048576): the states grow without end"));
}

TEST_CASE("a range cut to the divisors of a number gives the options of the rules as written",
          "[fast][compile]") {
  const std::string line = heap_queries(400, 120);
  // Divisors small and large, the square root itself (n = 36, 49), a range that starts above 1
  // or ends below n, the condition written either way round, and a negative number.
  agree_throughout("n", "move n - k for k in 1..ID(n) if n % k == 0", line);
  agree_throughout("n", "move n - k for k in 2..ID(n) - 1 if 0 == n % k", line);
  agree_throughout("n", "move n - k for k in 3..ID(n) / 2 + 1 if (0 - n) % k == 0  move n - 1 if n % 7 == 3",
                   line);
  agree_throughout("n", "split [k, n - k] for k in 1..ID(n) - 1 if n % k == 0",
                   "[grundy(G(n)) for n in 0..200]\n");
  // A number that changes from state to state in a tuple, and is 0 (every k divides it).
  agree_throughout(
      "(a, b)",
      "move (a - k, b) for k in 1..ID(a) if b % k == 0  move (a, b - k) for k in 1..b if (a + b) % k == 0",
      "[grundy(G(a, b)) for a in 0..30 for b in 0..30]\n[wins(G(a, b)) for a in 0..30 for b in 0..30]\n");
  // The outcome search stops in the divisors and goes on after the option it decided.
  agree_throughout("n", "move n - k for k in 1..ID(n) if (n * 3) % k == 0 and k % 2 == 1",
                   "[wins(G(n)) for n in 0..1500]\n");
  // A loop inside the divisors' loop: a listing that stops inside it goes on there.
  agree_throughout("n", "move n - k + j for k in 1..ID(n) if n % k == 0 for j in 0..k / 2 if j * j < k",
                   "[wins(G(n)) for n in 0..1500]\n[grundy(G(n)) for n in 0..300]\n");
}

TEST_CASE("a range under a disjunction of bounds is one cut range per part, with the rules' options",
          "[fast][compile]") {
  const std::string line = heap_queries(300, 100);
  // Parts that overlap (k = n / 3 meets both), an equality first (its negation is tested per k),
  // three parts, a part free of k, and a condition after the disjunction.
  agree_throughout("n", "move n - k for k in 1..ID(n) if 3 * k <= n or k == n", line);
  agree_throughout("n", "move n - k for k in 1..ID(n) if k == n or 3 * k <= n or 2 * k >= n + 4", line);
  agree_throughout("n", "move n - k for k in 1..ID(n) if k <= 2 or n % 5 == 0 if k % 2 == 1 or k == n", line);
  agree_throughout(
      "(a, b)", "move (a - k, b) for k in 1..ID(a) if k <= b or k > a - 2  move (a, b - 1) if b > 0",
      "[grundy(G(a, b)) for a in 0..25 for b in 0..25]\n[wins(G(a, b)) for a in 0..25 for b in 0..25]\n");
  // A part that fails where the rules as written never evaluate it (they stop at the first part
  // that holds): the compiled rules hand over and the answers are the rules'.
  same_output(
      "game G { state n  move n - k for k in 1..n if k <= n or n / (k - k) > 0 }\n[grundy(G(n)) for n in "
      "0..30]\n",
      "game G { state n  move n - k for k in 1..n }\n[grundy(G(n)) for n in 0..30]\n");
}

TEST_CASE("a condition periodic in k through the state's numbers gives the rules' options, per state",
          "[fast][compile]") {
  const std::string line = heap_queries(300, 100);
  agree_throughout("n", "move n - k for k in 1..ID(n) if (n - k) % 3 != 0", line);
  agree_throughout("n", "move n - k for k in 2..ID(n) if (n + 2 * k) % 5 == 1 or (k - n) % 2 == 0", line);
  agree_throughout("n", "move n - k for k in 1..ID(n) / 2 if (3 * n - k) % 4 == n % 4 and k % 3 != 0", line);
  // x changes sign in the range (-1 % 3 is -1, not 2): not periodic there, each k tested.
  agree_throughout("n", "move n - k for k in 1..ID(n) if (n / 2 - k) % 3 == 2 or (k - n / 3) % 4 == -1",
                   line);
  agree_throughout(
      "(a, b)", "move (a - k, b) for k in 1..ID(a) if (a + b + k) % 3 == 0  move (a, b - 1) if b > 0",
      "[grundy(G(a, b)) for a in 0..25 for b in 0..25]\n[wins(G(a, b)) for a in 0..25 for b in 0..25]\n");
  // x % M whose x leaves the 64-bit range at the range's far end (k = 8 and on): below that the
  // strided runs, past it the rules' own error.
  const std::string far =
      "game G { state n  move n - k for k in 1..n if (k + 9223372036854775800) % 3 != 0 }\n";
  same_output(far + "[grundy(G(n)) for n in 0..7]\n",
              "game G { state n  move n - k for k in 1..n if (k + 9223372036854775800 - 3) % 3 != 0 }\n"
              "[grundy(G(n)) for n in 0..7]\n");
  const auto r = run_source(far + "grundy(G(20))\n");
  CHECK(r.code == grundy::kExitRuntime);
  CHECK(contains(r.err, "overflow"));
}

TEST_CASE("a batch divided by a number the same for every value gives the rules' quotients and remainders",
          "[fast][compile]") {
  const std::string line = "[grundy(G(n)) for n in 0..300]\n[wins(G(n)) for n in 0..300]\n";
  // Small constants (each its own loop), the state (1 included, 32-bit and wider operands), and
  // negative dividends (% and / truncate toward zero).
  agree_throughout("n", "move n - k for k in 1..ID(n) if (k * k) % n < 5 or k / 7 == n / 10", line);
  agree_throughout("n", "move n - k for k in 1..ID(n) if (k * 4000000000 + n) % (n + 3) < 2", line);
  agree_throughout("n", "move n - k for k in 1..ID(n) if (n - 2 * k) % 3 == -1 or (n - 3 * k) / 4 == -2",
                   line);
  agree_throughout(
      "n", "move n - k for k in 1..ID(n) if (k * k) % (n % 7 + 1) == 0 and (k * k) / (n % 5 + 1) > 3", line);
}

TEST_CASE("expressions over a batch as straight programs give the rules' options and errors",
          "[fast][compile]") {
  // Can I Win: a negated membership, a set built per value, a sum; every state of 1..6 to 12.
  agree_throughout("(used, total)",
                   "move ({0}, 12) for k in 1..6 if not (ID(k) in used) and total + k >= 12 and total < 12  "
                   "move (used + {k}, total + k) for k in 1..6 if not (ID(k) in used) and total + k < 12",
                   "[wins(G(s, t)) for s in [{}, {1}, {2, 3}, {1, 4, 6}, {5}] for t in 0..11]\n"
                   "[grundy(G(s, t)) for s in [{}, {3}, {1, 2}] for t in 0..11]\n");
  // The numbers of a range not in a set, from a mask (Clause::excluded): few and many of them
  // (a loop, a batch), `not in`, a set computed from the state, a range reaching below 0 and
  // past the elements a set holds (as written), and conditions after it.
  agree_throughout("(s, n)",
                   "move (s + {k}, n - 1) for k in 0..n if not (ID(k) in s + {n % 3}) and k % 2 == n % 2  "
                   "move (s + {k}, n - 1) for k in n - 7..n + 1 if ID(k) not in s and k >= 0 and n > 0  "
                   "move (s - {k % 8}, n - 1) for k in 60 - n..65 if not (ID(k) in s) and n > 3",
                   "[grundy(G(s, n)) for s in [{}, {1}, {0, 2, 5}, {61, 62}] for n in 0..9]\n"
                   "[wins(G(s, n)) for s in [{}, {4}, {1, 3, 5, 7}, {0, 62}] for n in 0..9]\n"
                   "[outcome(misere G(s, n)) for s in [{}, {2}] for n in 0..6]\n");
  // A branch that no value of the batch takes, and that divides by zero, is not evaluated.
  agree_throughout("n", "move n - k for k in 1..n if (if ID(k) > 0 then k % 2 == 0 or k < 3 else 1 / (n - n) == 1)",
                   "sum(grundy(G(n)) for n in 0..300)\n[wins(G(n)) for n in 0..40]\n");
  // A comprehension whose body chooses by a condition the same for every value; an item the
  // same for every value that does not fit a packed list (b = 3: 300), as written from there.
  agree("xs",
        "move [if i == 0 then ID(k) else xs[1] * 100 for i in 0..1] for k in 0..xs[0]-1 if len(xs) == 2  "
        "move [xs[0], 0] for j in 0..0 if len(xs) == 2 and xs[1] >= 100",
        "[grundy(G([a, b])) for a in 0..4 for b in 0..3]\n[wins(G([a, b])) for a in 0..4 for b in 0..3]\n");
  // A power and a membership in a constant set that read the state as well as k: by value
  // (neither is an operation on values), among operations that are.
  agree_throughout("n", "move n - k for k in 1..n if not ((ID(n) + k) ^ 2 % 7 == 1) and (n * k) % 5 in {0, 2, 3}",
                   "sum(grundy(G(n)) for n in 0..400)\n[wins(G(n)) for n in 0..100]\n");
  // A part free of k that divides by zero at a = 7: no value of the batch goes on, as the rules
  // as written fail at the first; other states as written.
  const std::string straight =
      "game G { state (a, b)  move (a - k, b + k * k * 0 + 60 / (a - 7)) for k in 1..a if b < 99 }\n";
  fails_with(straight + "grundy(G(7, 0))\n", "division by zero");
  fails_with(straight + "wins(G(7, 0))\n", "division by zero");
  same_output(straight + "[wins(G(a, 0)) for a in 0..6]\n",
              "def id(x) = if false then [id(x)][0] else x\n"
              "game G { state (a, b)  move (a - k, b + id(k) * k * 0 + 60 / (a - 7)) for k in 1..a if b < 99 }\n"
              "[wins(G(a, 0)) for a in 0..6]\n");
  // A sum that overflows at the third value of a batch: the options before it first, then the
  // rules' overflow.
  const std::string late =
      "game G { state (a, b)  move (a - k, b - 1 + k * k * 576460752303423488) for k in 1..a if b > 0 }\n";
  fails_with(late + "grundy(G(5, 1))\n", "overflow");
  same_output(late + "[grundy(G(a, 1)) for a in 0..3]\n",
              "def id(x) = if false then [id(x)][0] else x\n"
              "game G { state (a, b)  move (a - k, b - 1 + id(k) * k * 576460752303423488) for k in 1..a if b > 0 }\n"
              "[grundy(G(a, 1)) for a in 0..3]\n");
}

TEST_CASE("options that are runs of consecutive states take the values the rules give", "[fast][tables][compile]") {
  // HDU 1729's box of capacity S holding c stones: add up to c * c. Its values by the theorem:
  // with q the largest integer such that q + q * q < S, the value is S - c when c > q, and that
  // of the box of capacity q otherwise.
  auto box = [](auto&& self, std::int64_t s, std::int64_t c) -> std::int64_t {
    if (c == 0) return 0;
    std::int64_t q = 0;
    while ((q + 1) + (q + 1) * (q + 1) < s) ++q;
    return c > q ? s - c : self(self, q, c);
  };
  std::string want = "[";
  for (std::int64_t c : {1, 2, 3, 10, 31, 32, 999, 1000, 4000, 99999}) {
    want += (want.size() > 1 ? ", " : "") + std::to_string(box(box, 100000, c));
  }
  want += "]\n";
  const auto r = run_source(
      "game Box(S) { state c  move c + k for k in 1..min(c * c, S - c) }\n"
      "[grundy(Box[100000](c)) for c in [1, 2, 3, 10, 31, 32, 999, 1000, 4000, 99999]]\n");
  CHECK(r.code == 0);
  CHECK(r.out == want);
  // Take up to half: g(2k) = k, g(2k + 1) = g(k) (runs that end with the table swept
  // upwards), and the same with a run that stops short of the known cells (n - 3).
  auto half = [](std::int64_t n) {
    while (n % 2 == 1) n /= 2;
    return n / 2;
  };
  std::string halves = "[";
  for (std::int64_t n = 0; n <= 3000; ++n) halves += (n ? ", " : "") + std::to_string(half(n));
  halves += "]\n";
  const auto h = run_source("game H { state n  move n - k for k in 1..n / 2 }\n"
                                          "[grundy(H(n)) for n in 0..3000]\n");
  CHECK(h.out == halves);
  // (Kept small: the reference lists every option of the rules as written, n^2 / 2 of them.)
  agree("n", "move ID(n - k) for k in 1..n / 2", "[grundy(G(n)) for n in 0..600]\n");
  agree("n", "move ID(n - k) for k in 3..n / 2", "[grundy(G(n)) for n in 0..600]\n");
  agree("n", "move ID(n - k) for k in 1..n / 2  move ID(n - k) for k in n / 2 + 2..n - 1 if n > 300",
        "[grundy(G(n)) for n in 0..600]\n");
  agree("n", "move ID(n + k) for k in 1..min(n * n, 900 - n)  move ID(n + 1) for k in 1..1 if n % 7 == 3 and n < 900",
        "[grundy(G(n)) for n in 0..900]\n");
}
