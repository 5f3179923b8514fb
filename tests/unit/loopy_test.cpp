// Loopy games (LANGUAGE.md section 10): Smith's values against an oracle that knows nothing of
// them, the published cases, sums, strategies and the errors.
#include <algorithm>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/unit/support.hpp"

namespace {

using grundy::test::contains;
using grundy::test::lines_of;
using grundy::test::run_explained;
using grundy::test::run_ok;
using grundy::test::run_source;
using Digraph = std::vector<std::vector<int>>;

// Outcomes of every vertex of g by retrograde analysis: 'P', 'N' or 'D'.
std::vector<char> retrograde(const Digraph& g) {
  const std::size_t n = g.size();
  std::vector<std::vector<int>> pred(n);
  std::vector<int> left(n);
  for (std::size_t u = 0; u < n; ++u) {
    left[u] = static_cast<int>(g[u].size());
    for (int v : g[u]) pred[static_cast<std::size_t>(v)].push_back(static_cast<int>(u));
  }
  std::vector<char> out(n, 'D');
  std::vector<int> queue;
  for (std::size_t u = 0; u < n; ++u) {
    if (left[u] == 0) {
      out[u] = 'P';
      queue.push_back(static_cast<int>(u));
    }
  }
  for (std::size_t at = 0; at < queue.size(); ++at) {
    const auto v = static_cast<std::size_t>(queue[at]);
    for (int p : pred[v]) {
      auto& o = out[static_cast<std::size_t>(p)];
      if (o != 'D') continue;
      if (out[v] == 'P') {
        o = 'N';
        queue.push_back(p);
      } else if (--left[static_cast<std::size_t>(p)] == 0) {
        o = 'P';
        queue.push_back(p);
      }
    }
  }
  return out;
}

// The product of g and h: vertex (u, v) is u * |h| + v, moving in one of them.
Digraph product(const Digraph& g, const Digraph& h) {
  const std::size_t m = h.size();
  Digraph p(g.size() * m);
  for (std::size_t u = 0; u < g.size(); ++u) {
    for (std::size_t v = 0; v < m; ++v) {
      auto& out = p[u * m + v];
      for (int w : g[u]) out.push_back(static_cast<int>(static_cast<std::size_t>(w) * m + v));
      for (int w : h[v]) out.push_back(static_cast<int>(u * m + static_cast<std::size_t>(w)));
    }
  }
  return p;
}

Digraph nim_heap(int k) {
  Digraph h(static_cast<std::size_t>(k) + 1);
  for (int j = 0; j <= k; ++j) {
    for (int i = 0; i < j; ++i) h[static_cast<std::size_t>(j)].push_back(i);
  }
  return h;
}

// gamma(u) = k iff u + *k is P; otherwise inf{k : u + *k is N}, k up to the most options + 1.
std::vector<std::string> oracle_values(const Digraph& g) {
  std::size_t most = 0;
  for (const auto& o : g) most = std::max(most, o.size());
  const int top = static_cast<int>(most) + 1;
  std::vector<std::string> out(g.size());
  std::vector<std::vector<char>> with(static_cast<std::size_t>(top) + 1);
  for (int k = 0; k <= top; ++k) with[static_cast<std::size_t>(k)] = retrograde(product(g, nim_heap(k)));
  for (std::size_t u = 0; u < g.size(); ++u) {
    std::string escapes;
    bool finite = false;
    for (int k = 0; k <= top && !finite; ++k) {
      const std::size_t m = static_cast<std::size_t>(k) + 1;
      const char o = with[static_cast<std::size_t>(k)][u * m + static_cast<std::size_t>(k)];
      if (o == 'P') {
        out[u] = std::to_string(k);
        finite = true;
      } else if (o == 'N') {
        escapes += (escapes.empty() ? "" : ", ") + std::to_string(k);
      }
    }
    if (!finite) out[u] = escapes.empty() ? "inf" : "inf{" + escapes + "}";
  }
  return out;
}

std::string graph_text(const std::string& name, const Digraph& g) {
  std::string s = "loopy game " + name + " = graph { ";
  for (std::size_t u = 0; u < g.size(); ++u) {
    s += std::to_string(u);
    for (std::size_t i = 0; i < g[u].size(); ++i) s += (i ? ", " : " -> ") + std::to_string(g[u][i]);
    s += "; ";
  }
  return s + "}\n";
}

Digraph random_digraph(std::mt19937& rng, int n, double density) {
  std::bernoulli_distribution edge(density);
  Digraph g(static_cast<std::size_t>(n));
  for (int u = 0; u < n; ++u) {
    for (int v = 0; v < n; ++v) {
      if (edge(rng)) g[static_cast<std::size_t>(u)].push_back(v);
    }
  }
  return g;
}

std::string listed(const std::vector<std::string>& xs) {
  std::string s = "[";
  for (std::size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + xs[i];
  return s + "]\n";
}

// The oracle's values and its outcomes (N, P, D) of the states xs, as a program lists them.
struct OracleListed {
  std::string values, outcomes;
};
OracleListed oracle_listed(const Digraph& g, const std::vector<int>& xs) {
  const std::vector<std::string> want = oracle_values(g);
  const auto retro = retrograde(g);
  std::vector<std::string> values, outcomes;
  for (int x : xs) {
    values.push_back(want[static_cast<std::size_t>(x)]);
    outcomes.emplace_back(1, retro[static_cast<std::size_t>(x)]);
  }
  return {listed(values), listed(outcomes)};
}

}  // namespace

TEST_CASE("Smith's values of random digraphs agree with the oracle G + *k", "[fast][loopy]") {
  std::mt19937 rng(20261127);
  for (int round = 0; round < 300; ++round) {
    const int n = 1 + static_cast<int>(rng() % 12);
    const double density = 0.08 + 0.3 * static_cast<double>(rng() % 100) / 100.0;
    const Digraph g = random_digraph(rng, n, density);
    // The vertices asked one at a time in a shuffled order: each query labels only what the
    // ones before it did not reach, the rest fixed.
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    std::shuffle(order.begin(), order.end(), rng);
    std::string program = graph_text("G", g) + "let xs = [";
    for (std::size_t i = 0; i < order.size(); ++i) program += (i ? ", " : "") + std::to_string(order[i]);
    program += "]\nlet vs = [grundy(G(x)) for x in xs]\n[vs[i] for i in [";
    std::vector<std::size_t> back(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) back[static_cast<std::size_t>(order[i])] = i;
    for (std::size_t u = 0; u < back.size(); ++u) program += (u ? ", " : "") + std::to_string(back[u]);
    program += "]]\n[outcome(G(u)) for u in 0.." + std::to_string(n - 1) + "]\n";
    // The same graph as rules over a table of edges (compiled), asked in order.
    program += "loopy game H(E) { state u  move v for v in E[u] }\nlet E = [";
    for (std::size_t u = 0; u < g.size(); ++u) {
      program += u ? ", [" : "[";
      for (std::size_t i = 0; i < g[u].size(); ++i) program += (i ? ", " : "") + std::to_string(g[u][i]);
      program += "]";
    }
    program += "]\n[grundy(H[E](u)) for u in 0.." + std::to_string(n - 1) + "]\n";
    // And as states the compiled rules hold other ways: tuples, negative integers, and sets
    // whose elements pass the 64 of a bitmask partway through the exploration (the graph
    // turns from coordinates to Values there, its positions kept).
    const std::string last = std::to_string(n - 1);
    program +=
        "loopy game A(E) { state (u, o)  move (v, o) for v in E[u] }\n[grundy(A[E](u, 7)) for u in 0.." +
        last + "]\n";
    program +=
        "loopy game B(E) { state u  move v - 1000 for v in E[u + 1000] }\n[grundy(B[E](u - 1000)) for u in "
        "0.." +
        last + "]\n";
    program +=
        "loopy game C(E, o) { state s  move {v + o} for k in s for v in E[k - o] }\n"
        "[grundy(C[E, 55]({u + 55})) for u in 0.." +
        last + "]\n";
    const std::vector<std::string> want = oracle_values(g);
    std::vector<std::string> outcomes;
    const auto retro = retrograde(g);
    for (char c : retro) outcomes.emplace_back(1, c);
    INFO(program);
    CHECK(run_ok(program) ==
          listed(want) + listed(outcomes) + listed(want) + listed(want) + listed(want) + listed(want));
  }
}

TEST_CASE("sums of loopy positions follow Smith's rule, checked on the product graph", "[fast][loopy]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 150; ++round) {
    const int a = 1 + static_cast<int>(rng() % 6), b = 1 + static_cast<int>(rng() % 6);
    const Digraph g = random_digraph(rng, a, 0.3), h = random_digraph(rng, b, 0.3);
    const auto want = retrograde(product(g, h));
    std::string program = graph_text("G", g) + graph_text("H", h) + "[outcome(G(u) + H(v)) for u in 0.." +
                          std::to_string(a - 1) + " for v in 0.." + std::to_string(b - 1) + "]\n";
    std::vector<std::string> outs;
    for (char c : want) outs.emplace_back(1, c);
    INFO(program);
    CHECK(run_ok(program) == listed(outs));
  }
}

TEST_CASE("a loopy game whose rules take 64 positions at a time has the values of the rules as written",
          "[fast][loopy]") {
  // WindUp's `for s in S` is an item per element, its options computed for 64 positions at
  // once (IntProgram::cell_options); id() keeps the same rules from being compiled.
  const std::string id = "def id(x) = if false then [id(x)][0] else x\n";
  const std::string compiled = "loopy game W(n, S) { state i  move (i - s + n) % n for s in S if i > 0 }\n";
  const std::string plain = "loopy game W(n, S) { state i  move (id(i) - s + n) % n for s in S if i > 0 }\n";
  for (const char* q : {"[grundy(W[300, {3, 5, 17}](i)) for i in 0..299]\n",
                        "[grundy(W[150, {1, 2, 5}](i)) for i in 0..149]\n[remoteness(W[150, {1, 2, 5}](i)) for i in "
                        "0..149]\n",
                        "[outcome(W[97, {2, 7}](i)) for i in 0..96]\n"}) {
    INFO(q);
    const std::string want = run_ok(id + plain + q);
    CHECK(run_ok(id + compiled + q) == want);
  }
  // A state of two coordinates, an `if` on the loop's value after it, and a loop over a list
  // with a repeated value (the option given twice): the same values as written.
  const std::string pair =
      "loopy game P { state (a, b)  move ((a + s) % 9, B(b) - 1) for s in [2, 4, 2] if b > 0 if (a + s) % 4 != 1  "
      "move (a, (b + 3) % 20) for s in {1} if a % 2 == 0 }\n"
      "[grundy(P(a, b)) for a in 0..8 for b in 0..19]\n";
  const std::string b_compiled = "def B(x) = x\n", b_plain = "def B(x) = id(x)\n";
  CHECK(run_ok(id + b_compiled + pair) == run_ok(id + b_plain + pair));
}

TEST_CASE("published loopy values: WindUp, a self-loop, a pass, Square-But-One", "[fast][loopy][known]") {
  const std::string windup =
      "loopy game WindUp(n, S) { state i  move (i - s + n) % n for s in S if i > 0 }\n";
  // cgt-tools' cases; (7, {1, 2, 5}) has finite values on a cycle, which a rule that makes a value
  // finite only when every option's is gets wrong.
  CHECK(run_ok(windup + "[grundy(WindUp[7, {1, 2, 5}](i)) for i in 0..6]\n") == "[0, 1, 2, 0, 1, 2, 0]\n");
  CHECK(run_ok(windup + "[grundy(WindUp[4, {2}](i)) for i in 0..3]\n") == "[0, inf, 1, inf]\n");
  CHECK(run_ok(windup + "[grundy(WindUp[5, {1, 3}](i)) for i in 0..4]\n") ==
        "[0, inf{0}, inf{0}, inf{0}, 0]\n");
  CHECK(run_ok(windup + "[grundy(WindUp[6, {2, 3}](i)) for i in 0..5]\n") == "[0, 1, 1, 2, 0, 0]\n");
  // 1 + 1 in WindUp(5, {1, 3}) is a draw: 1 is N but not *1.
  CHECK(run_ok(windup + "outcome(WindUp[5, {1, 3}](1) + WindUp[5, {1, 3}](1))\n") == "D\n");
  CHECK(run_ok("loopy game S = graph { a -> a }\n[grundy(S(a)), outcome(S(a)), draws(S(a))]\n") ==
        "[inf, D, true]\n");
  CHECK(run_ok(
            "loopy game Pass = graph { a -> a, t; t }\ngame Nim { state n  move k for k in 0..n-1 }\n"
            "[grundy(Pass(a)), outcome(Pass(a)), outcome(Pass(a) + Nim(1)), outcome(Pass(a) + Pass(a))]\n") ==
        "[inf{0}, N, D, D]\n");
  const std::string sbo =
      "loopy game SBO { state n  move n - k * k for k in 1..n if k * k <= n  move n + 1 if n % 2 == 0 and n "
      "> 0 }\n"
      "game Nim { state n  move k for k in 0..n-1 }\n";
  CHECK(run_ok(sbo + "[grundy(SBO(n)) for n in 0..16]\n") ==
        "[0, 1, inf{1}, inf, inf{0}, 0, inf{0}, inf, inf, inf{0}, inf{1}, inf, inf, inf, inf{0}, inf, "
        "inf{0}]\n");
  CHECK(run_ok(sbo + "[n for n in 0..200 if outcome(SBO(n)) == P]\n") == "[0, 5]\n");
  // The same values whatever order the positions are asked in.
  CHECK(run_ok(sbo + "[grundy(SBO(16 - n)) for n in 0..16]\n") ==
        "[inf{0}, inf, inf{0}, inf, inf, inf, inf{1}, inf{0}, inf, inf, inf{0}, 0, inf{0}, inf, inf{1}, 1, "
        "0]\n");
  CHECK(run_ok(sbo + "[outcome(SBO(4) + SBO(4)), outcome(SBO(4) + SBO(1)), outcome(SBO(2) + Nim(1)), "
                     "outcome(SBO(5) + SBO(5)), outcome(SBO(10) + Nim(0)), outcome(SBO(10) + Nim(1))]\n") ==
        "[D, D, N, P, D, N]\n");
  CHECK(run_ok(sbo + "[winning(SBO(6)), drawing(SBO(7)), remoteness(SBO(6)), remoteness(SBO(3))]\n") ==
        "[[SBO(5)], [SBO(3)], 3, inf]\n");
}

TEST_CASE("winning moves of a loopy game make progress: smallest remoteness first", "[fast][loopy]") {
  // a is N and both its options are P; always answering b would go round for ever.
  const std::string ring = "loopy game Ring = graph { a -> b, t;  b -> a;  t }\n";
  CHECK(run_ok(ring + "[grundy(Ring(a)), grundy(Ring(b)), grundy(Ring(t))]\n") == "[1, 0, 0]\n");
  CHECK(run_ok(ring + "winning(Ring(a))\n") == "[Ring(t), Ring(b)]\n");
  CHECK(run_ok(ring + "[remoteness(Ring(a)), remoteness(Ring(b)), remoteness(Ring(t))]\n") == "[1, 2, 0]\n");
  // In a sum: inf{1} + *1 = inf{0}, won by moving the loopy part to a position of value 1.
  CHECK(
      run_ok("loopy game SBO { state n  move n - k * k for k in 1..n if k * k <= n  move n + 1 if n % 2 == 0 "
             "and n > 0 }\ngame Nim { state n  move k for k in 0..n-1 }\nwinning(SBO(2) + Nim(1))\n") ==
      "[SBO(1) + Nim(1)]\n");
}

TEST_CASE("loopy games: what has no theory, and what never ends, is said plainly", "[fast][loopy][errors]") {
  const auto split = run_source("loopy game G { state n  split [n - 1, n - 1] if n > 0 }\ngrundy(G(3))\n");
  CHECK(split.code == grundy::kExitCompile);
  CHECK(contains(split.err, "a loopy game may not split"));
  const std::string ring = "loopy game Ring = graph { a -> b, t;  b -> a;  t }\n";
  const auto misere = run_source(ring + "outcome(misere Ring(a))\n");
  CHECK(misere.code == grundy::kExitRuntime);
  CHECK(contains(misere.err, "misere play of a loopy game has no theory"));
  const auto every = run_source(ring + "wins(every (Ring(a) + Ring(b)))\n");
  CHECK(every.code == grundy::kExitRuntime);
  CHECK(contains(every.err, "every play of a loopy game has no theory"));
  // Without `loopy` a cycle is an error whose hint names it.
  const auto cycle = run_source("game G { state n  move n + 1 if n < 3  move 0 if n == 3 }\ngrundy(G(0))\n");
  CHECK(cycle.code == grundy::kExitRuntime);
  CHECK(contains(cycle.err, "loopy game"));
  const auto graph = run_source("game R = graph { a -> b; b -> a }\n");
  CHECK(graph.code == grundy::kExitCompile);
  CHECK(contains(graph.err, "loopy game R = graph"));
  // A heap that may always grow: --max-states, and the next query still runs.
  grundy::SessionOptions small;
  small.limits.max_states = 1000;
  const auto up = run_source("loopy game Up { state n  move n + 1 }\ngrundy(Up(0))\n", small);
  CHECK(up.code == grundy::kExitRuntime);
  CHECK(contains(up.err, "too many states"));
  CHECK(run_ok("loopy game Up { state n  move n + 1 if n > 0 and n < 10  move n - 1 if n > 0 }\n"
               "[grundy(Up(0)), outcome(Up(1))]\n") == "[0, N]\n");
  // A finite value is a nim-value; inf is not one, where a number is needed.
  const auto sum = run_source(ring + "loopy game S = graph { a -> a }\nsum([grundy(S(a))])\n");
  CHECK(sum.code == grundy::kExitRuntime);
}

TEST_CASE("the options of a sum with loopy parts are listed once each, as multisets", "[fast][loopy]") {
  // Each self-loop leaves the sum as it was: one option, not one per component.
  const std::string ab = "loopy game A = graph { a -> a }\nloopy game B = graph { b -> b, c;  c }\n";
  CHECK(run_ok(ab + "options(A(a) + B(b))\ndrawing(A(a) + B(b))\nlen(options(A(a) + B(b) + B(b)))\n") ==
        "[A(a) + B(b), A(a) + B(c)]\n[A(a) + B(b), A(a) + B(c)]\n2\n");
}

TEST_CASE("an ordinary game whose moves reach a loopy game: its finite values count, an infinite one is said",
          "[fast][loopy][errors]") {
  // Ring(a) = 1 and Ring(b) = 0 (a -> t is the move to 0; b's one move reverses through a).
  const std::string ring = "loopy game Ring = graph { a -> b, t;  b -> a;  t }\n";
  CHECK(run_ok(ring + "game K { state n  split [Ring(a), Ring(b)] if n > 0  move Ring(b) if n == 2 }\n"
                      "[grundy(K(n)) for n in 0..2]\n[outcome(K(n)) for n in 0..2]\n") ==
        "[0, 0, 2]\n[P, P, N]\n");
  // A move to an infinite position (inf{0}) beside a winning one: won all the same, in either order.
  const std::string pass = "loopy game L = graph { x -> x, t;  t }\n";
  CHECK(run_ok(pass +
               "game H { state n  move L(x) if n == 1  move 0 if n == 1 }\n[outcome(H(1)), wins(H(1))]\n") ==
        "[N, true]\n");
  CHECK(run_ok(pass +
               "game H { state n  move 0 if n == 1  move L(x) if n == 1 }\n[outcome(H(1)), wins(H(1))]\n") ==
        "[N, true]\n");
  // Without a winning move, drawn or lost only the loopy game's labelling would tell: an error.
  const auto drawn = run_source(pass + "game H { state n  move L(x) if n == 1 }\noutcome(H(1))\n");
  CHECK(drawn.code == grundy::kExitRuntime);
  CHECK(contains(drawn.err, "H is not a loopy game"));
  CHECK_FALSE(contains(drawn.err, "the rules loop"));
  const auto value =
      run_source(pass + "game H { state n  move L(x) if n == 1  move 0 if n == 1 }\ngrundy(H(1))\n");
  CHECK(value.code == grundy::kExitRuntime);
  CHECK(contains(value.err, "whose value is inf{0}"));
  // Misère play that reaches a loopy game: no theory, as for a loopy position itself.
  const auto misere = run_source(
      ring + "game M { state n  move Ring(a) if n == 2  move n - 1 if n > 0 }\noutcome(misere M(2))\n");
  CHECK(misere.code == grundy::kExitRuntime);
  CHECK(contains(misere.err, "misere play of a loopy game has no theory"));
}

TEST_CASE("grundy check counts a loopy game's small states by outcome instead of calling it a loop",
          "[fast][loopy]") {
  grundy::SessionOptions check;
  check.check_only = true;
  const auto r = run_source(
      "loopy game SBO { state n  move n - k * k for k in 1..n if k * k <= n  move n + 1 if n % 2 == 0 and n "
      "> 0 }\n"
      "loopy game Ring = graph { a -> b, t;  b -> a;  t }\n",
      check);
  CHECK(r.code == 0);
  CHECK(r.out ==
        "loopy game SBO: of the states 0..63, 2 P, 13 N, 49 D\n"
        "loopy game Ring: of its 3 nodes, 2 P, 1 N, 0 D\n");
  CHECK(r.err.empty());
}

TEST_CASE("winning and drawing moves of G + H + *k agree with the product graph", "[fast][loopy]") {
  std::mt19937 rng(2026);
  for (int round = 0; round < 40; ++round) {
    const int a = 1 + static_cast<int>(rng() % 5), b = 1 + static_cast<int>(rng() % 5);
    const Digraph g = random_digraph(rng, a, 0.35), h = random_digraph(rng, b, 0.35);
    const int k = static_cast<int>(rng() % 4);
    const Digraph whole = product(product(g, h), nim_heap(k));
    const auto outcome = retrograde(whole);
    std::string program =
        graph_text("G", g) + graph_text("H", h) + "game Nim { state n  move j for j in 0..n-1 }\n";
    std::string want;
    for (int u = 0; u < a; ++u) {
      for (int v = 0; v < b; ++v) {
        const std::string x =
            "G(" + std::to_string(u) + ") + H(" + std::to_string(v) + ") + Nim(" + std::to_string(k) + ")";
        program += "[len(winning(" + x + ")), len(drawing(" + x + ")), [outcome(y) for y in winning(" + x +
                   ")], [outcome(y) for y in drawing(" + x + ")]]\n";
        // The distinct options of the product's vertex, by outcome.
        const auto at = static_cast<std::size_t>((u * b + v) * (k + 1) + k);
        std::set<int> to(whole[at].begin(), whole[at].end());
        int won = 0, drawn = 0;
        for (int w : to) {
          won += outcome[static_cast<std::size_t>(w)] == 'P';
          drawn += outcome[static_cast<std::size_t>(w)] == 'D';
        }
        const auto repeat = [](int n, const char* s) {
          std::string out = "[";
          for (int i = 0; i < n; ++i) out += std::string(i ? ", " : "") + s;
          return out + "]";
        };
        want += "[" + std::to_string(won) + ", " + std::to_string(drawn) + ", " + repeat(won, "P") + ", " +
                repeat(drawn, "D") + "]\n";
      }
    }
    INFO(program);
    CHECK(run_ok(program) == want);
  }
}

TEST_CASE("the winning moves of a sum with thousands of ordinary parts come from the values",
          "[fast][loopy]") {
  // The heaps xor to 0 and WindUp(1) is inf{0}: the one winning move is WindUp's to 0. Each
  // option once used to cost O(parts): 999 heaps took seconds, 9,999 minutes.
  const std::string games =
      "loopy game WindUp(n, S) { state i  move (i - s + n) % n for s in S if i > 0 }\n"
      "game Nim { state n  move k for k in 0..n-1 }\n";
  CHECK(run_ok(games + "len(winning(sum([Nim(i) for i in 1..9999] + [WindUp[5, {1, 3}](1)])))\n") == "1\n");
  CHECK(run_ok(games + "winning(Nim(10^6) + Nim(10^6) + WindUp[5, {1, 3}](1))\n") ==
        "[Nim(1000000) + Nim(1000000) + WindUp[5, {1, 3}](0)]\n");
  // WindUp(0) is 0: the heaps' moves to the value that makes the total 0 win.
  CHECK(run_ok(games + "winning(Nim(3) + Nim(5) + WindUp[5, {1, 3}](0))\n") ==
        "[Nim(3) + Nim(3) + WindUp[5, {1, 3}](0)]\n");
  CHECK(run_ok(games + "len(drawing(Nim(10^5) + WindUp[5, {1, 3}](1) + WindUp[5, {1, 3}](2)))\n") ==
        "100004\n");
}

namespace {

// A random loopy game of one integer i in 0 .. n-1, as rules and as its digraph: moves by a
// few differences (a subtraction set, round a circle, i + c, the squares), which the graph
// keeps as bits per difference, mixed with moves by many (an affine map, i / 2, a fixed target).
struct IntGame {
  std::string rules;  // the clauses, with @(x) for the option x: "move @(i - s) for s in {1, 3}"
  Digraph g;
};

IntGame random_int_game(std::mt19937& rng, int n, bool many) {
  IntGame out{"", Digraph(static_cast<std::size_t>(n))};
  const auto pick = [&](int lo, int hi) {
    return lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1));
  };
  const auto add = [&](int u, int v) { out.g[static_cast<std::size_t>(u)].push_back(v); };
  const auto set_text = [](const std::vector<int>& s) {
    std::string t = "{";
    for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
    return t + "}";
  };
  const auto random_set = [&](int lo, int hi) {
    std::set<int> s;
    for (int k = pick(1, 4); k > 0; --k) s.insert(pick(lo, hi));
    return std::vector<int>(s.begin(), s.end());
  };
  const int clauses = pick(1, 3);
  for (int c = 0; c < clauses; ++c) {
    const int q = pick(1, 4), r = pick(0, q - 1);
    const std::string when = " i % " + std::to_string(q) + " != " + std::to_string(r);
    const auto unless = [&](int i) { return i % q != r; };
    switch (pick(0, many ? 6 : 3)) {
      case 0: {  // a subtraction set
        const auto s = random_set(1, std::max(1, std::min(n, 20)));
        out.rules += " move @(i - s) for s in " + set_text(s) + " if i >= s and" + when;
        for (int i = 0; i < n; ++i) {
          for (int x : s) {
            if (i >= x && unless(i)) add(i, i - x);
          }
        }
        break;
      }
      case 1: {  // round a circle; s = 0 or n is a pass, and two s of one residue move twice to one place
        const auto s = random_set(0, n);
        out.rules += " move @((i - s + " + std::to_string(n) + ") % " + std::to_string(n) + ") for s in " +
                     set_text(s) + " if" + when;
        for (int i = 0; i < n; ++i) {
          for (int x : s) {
            if (unless(i)) add(i, (i - x + n) % n);
          }
        }
        break;
      }
      case 2: {  // up, so that play may go on for ever
        const int k = pick(1, 3);
        out.rules += " move @(i + " + std::to_string(k) + ") if i + " + std::to_string(k) + " < " +
                     std::to_string(n) + " and" + when;
        for (int i = 0; i + k < n; ++i) {
          if (unless(i)) add(i, i + k);
        }
        break;
      }
      case 3: {  // the squares
        out.rules += " move @(i - k * k) for k in 1..i if k * k <= i and" + when;
        for (int i = 0; i < n; ++i) {
          for (int k = 1; k * k <= i; ++k) {
            if (unless(i)) add(i, i - k * k);
          }
        }
        break;
      }
      case 4: {  // an affine map: a difference per position
        const int a = pick(2, 9), b = pick(0, n - 1);
        out.rules += " move @((i * " + std::to_string(a) + " + " + std::to_string(b) + ") % " +
                     std::to_string(n) + ") if" + when;
        for (int i = 0; i < n; ++i) {
          if (unless(i)) add(i, (i * a + b) % n);
        }
        break;
      }
      case 5: {
        out.rules += " move @(i / 2) if" + when;
        for (int i = 0; i < n; ++i) {
          if (unless(i)) add(i, i / 2);
        }
        break;
      }
      default: {
        const int t = pick(0, n - 1);
        out.rules += " move @(" + std::to_string(t) + ") if" + when;
        for (int i = 0; i < n; ++i) {
          if (unless(i)) add(i, t);
        }
      }
    }
  }
  return out;
}

// The rules with @(x) written as x (state i) or as (x, o) (state (i, o)).
std::string spelled(std::string rules, bool pair) {
  for (std::size_t at = 0; (at = rules.find("@(", at)) != std::string::npos;) {
    int depth = 0;
    std::size_t end = at + 1;
    for (; end < rules.size(); ++end) {
      depth += rules[end] == '(' ? 1 : rules[end] == ')' ? -1 : 0;
      if (depth == 0) break;
    }
    const std::string x = rules.substr(at + 2, end - at - 2);
    const std::string with = pair ? "(" + x + ", o)" : x;
    rules.replace(at, end - at + 1, with);
    at += with.size();
  }
  return rules;
}

// The game as G (state i: its options kept by their differences) and as T (state (i, o), the
// same moves kept as ids), asked in a shuffled order: values, outcomes, remoteness and the
// values of the options in the rules' order.
std::string int_game_program(const IntGame& game, const std::vector<int>& xs) {
  std::string p = "loopy game G { state i " + spelled(game.rules, false) + " }\n" +
                  "loopy game T { state (i, o) " + spelled(game.rules, true) + " }\nlet xs = [";
  for (std::size_t i = 0; i < xs.size(); ++i) p += (i ? ", " : "") + std::to_string(xs[i]);
  p += "]\n";
  for (const char* f : {"grundy", "outcome", "remoteness"}) {
    p += "[" + std::string(f) + "(G(x)) for x in xs]\n[" + f + "(T(x, 0)) for x in xs]\n";
  }
  p += "[[grundy(y) for y in options(G(x))] for x in xs]\n[[grundy(y) for y in options(T(x, 0))] for x in "
       "xs]\n";
  return p;
}

// The line of `text` that holds `needle` (empty: none).
std::string line_with(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  if (at == std::string::npos) return "";
  const std::size_t from = text.rfind('\n', at), to = text.find('\n', at);
  return text.substr(from == std::string::npos ? 0 : from + 1,
                     to == std::string::npos ? std::string::npos : to - from - 1);
}

std::vector<int> shuffled(std::mt19937& rng, int n) {
  std::vector<int> xs(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) xs[static_cast<std::size_t>(i)] = i;
  std::shuffle(xs.begin(), xs.end(), rng);
  return xs;
}

}  // namespace

TEST_CASE("random games of one integer: options kept by their differences agree with the oracle and with ids",
          "[fast][loopy]") {
  std::mt19937 rng(20261201);
  int by_offsets = 0, to_ids = 0;
  for (int round = 0; round < 160; ++round) {
    // Small games against the oracle; larger ones, which pass the 1,024 positions after which
    // a graph whose differences do not pay turns to ids, against the same rules kept as ids.
    const bool large = round % 4 == 3;
    const int n = large ? 1100 + static_cast<int>(rng() % 1500) : 1 + static_cast<int>(rng() % 40);
    const IntGame game = random_int_game(rng, n, round % 2 == 1);
    const std::vector<int> xs = shuffled(rng, n);
    const std::string program = int_game_program(game, xs);
    INFO(program);
    const auto run = run_explained(program);
    const std::vector<std::string> lines = lines_of(run.out);
    REQUIRE(lines.size() == 8);
    for (std::size_t i = 0; i < 8; i += 2) CHECK(lines[i] == lines[i + 1]);
    if (!large) {
      const OracleListed want = oracle_listed(game.g, xs);
      CHECK(lines[0] + "\n" == want.values);
      CHECK(lines[2] + "\n" == want.outcomes);
    }
    // G's first query tells how its graph began, its last how it ended.
    const std::size_t last = run.explain.rfind("explain: G:");
    REQUIRE(last != std::string::npos);
    by_offsets += contains(line_with(run.explain, "explain: G:"), "by their differences");
    to_ids += large && !contains(line_with(run.explain.substr(last), "explain: G:"), "by their differences");
  }
  // Both ways were taken, and both ends of the large games.
  CHECK(by_offsets > 100);
  CHECK(to_ids > 5);
}

namespace {
// The queries (of G(...)) run on G, state i, whose options may be kept by their differences,
// and on T, state (i, o), the same rules kept as ids: the same answers. Returns G's --explain.
std::string explain_of_g_checked_against_ids(const std::string& rules, const std::string& queries_g) {
  std::string t = queries_g;
  for (std::size_t at = 0; (at = t.find("G(", at)) != std::string::npos;) {
    const std::size_t end = t.find(')', at);
    t.replace(at, end - at + 1, "T(" + t.substr(at + 2, end - at - 2) + ", 0)");
    at = end;
  }
  const auto g = run_explained("loopy game G { state i " + spelled(rules, false) + " }\n" + queries_g);
  const auto ids = run_explained("loopy game T { state (i, o) " + spelled(rules, true) + " }\n" + t);
  INFO(rules);
  CHECK(g.out == ids.out);
  return g.explain;
}
}  // namespace

TEST_CASE("a graph kept by differences turns to ids where they stop paying or pass 64 bits",
          "[fast][loopy]") {
  // A move to i / 2 has a difference per position: past 1,024 positions the graph turns to ids,
  // with the rows of the first query, labelled by their differences, among them.
  const std::string halves =
      " move @(i - 1) if i > 0  move @(i / 2) if i % 3 == 0  move @(i + 2) if i % 7 == 1 and i < 2990";
  const std::string ga = explain_of_g_checked_against_ids(
      halves,
      "[grundy(G(i)) for i in 0..40]\n[grundy(G(i)) for i in 2900..2999]\n"
      "[remoteness(G(i)) for i in 2900..2999]\n[len(winning(G(i))) for i in 2900..2999]\n");
  CHECK(contains(line_with(ga, "(41 in all)"), "kept by their differences"));
  CHECK(contains(line_with(ga, "(3000 in all)"), "options from the compiled rules"));
  CHECK_FALSE(contains(line_with(ga, "(3000 in all)"), "by their differences"));

  // Differences past 64 bits: 2^63 - 8 + k moves to -(2^63 - 8 + k), a difference of 2^64 - 16
  // + 2k. The rows listed before it (i - 1 from above) are turned to ids with it.
  const std::string wide =
      " move @(i - 1) if i > 9223372036854775800  move @(i + 2) if i == 9223372036854775801"
      "  move @(0 - i) if i >= 9223372036854775800 and i <= 9223372036854775803"
      "  move @(0 - i - 1) if i < -9223372036854775800 and i >= -9223372036854775803"
      "  move @(5) if i == -9223372036854775800";
  const std::string gw = explain_of_g_checked_against_ids(
      wide,
      "[grundy(G(9223372036854775806)), grundy(G(-9223372036854775803)), grundy(G(5))]\n"
      "[grundy(G(i)) for i in 9223372036854775800..9223372036854775806]\n"
      "[remoteness(G(9223372036854775806)), outcome(G(-9223372036854775801))]\n");
  CHECK(contains(line_with(gw, "explain: G:"), "options from the compiled rules"));
  CHECK_FALSE(contains(gw, "by their differences"));
  // A subtraction game stays by its differences, queries after queries.
  const std::string gs = explain_of_g_checked_against_ids(
      " move @(i - s) for s in {2, 7, 11} if i >= s  move @(i + 1) if i % 5 == 3 and i < 20000",
      "[grundy(G(i)) for i in 0..30]\n[grundy(G(i)) for i in 19990..20000]\n[outcome(G(i)) for i in "
      "10000..10020]\n");
  CHECK(contains(line_with(gs, "explain: G:"), "by their differences"));
  CHECK_FALSE(contains(gs, "options from the compiled rules\n"));
}

TEST_CASE("an exploration stopped halfway through a row of differences leaves nothing of it behind",
          "[fast][loopy][limits]") {
  // --max-steps stops G(500) after a row's options are listed, before they are held; the
  // graph is kept for the next batch, whose first row, G(2)'s, a row left half set would give
  // moves to G(1 - k) it does not have (G(2) = inf{0, 1} rather than 2).
  const std::string game =
      "loopy game G { state i  move i - s for s in 1..30 if i >= s  move i + 1 if i == 3 }\n";
  const std::string ask = "grundy(G(2))\n[grundy(G(i)) for i in 0..6]\n[remoteness(G(i)) for i in 0..6]\n";
  grundy::SessionOptions few;
  few.limits.max_steps = 500;
  std::ostringstream out, err;
  grundy::Session session(out, err, few);
  CHECK(session.run_source(game, "a.game") == grundy::kExitOk);
  CHECK(session.run_source("grundy(G(500))\n", "b.game") == grundy::kExitRuntime);
  CHECK(contains(err.str(), "--max-steps"));
  CHECK(session.run_source(ask, "c.game") == grundy::kExitOk);
  CHECK(out.str() == run_ok(game + ask));
}

TEST_CASE("outcomes asked first come from retrograde analysis alone, and values asked after them agree",
          "[fast][loopy]") {
  // outcome, wins and draws of a game not labelled yet take the retrograde pass, no values; the
  // values, remoteness and outcomes asked after them label the positions that pass explored.
  // Against the oracle for small games, and for large ones against the same rules kept as ids
  // and asked for values first. Some games move to themselves (a difference of 0), and some
  // large ones off the states 0 .. n-1.
  std::mt19937 rng(20261202);
  int retrograde_alone = 0, descents = 0;
  for (int round = 0; round < 96; ++round) {
    const bool large = round % 6 == 5;
    const int n = large ? 1100 + static_cast<int>(rng() % 1500) : 1 + static_cast<int>(rng() % 40);
    IntGame game = random_int_game(rng, n, round % 2 == 1);
    const int q = 2 + static_cast<int>(rng() % 5);
    if (round % 3 == 0) {  // a pass: i to itself
      game.rules += " move @(i) if i % " + std::to_string(q) + " == 1";
      for (int i = 0; i < n; ++i) {
        if (i % q == 1) game.g[static_cast<std::size_t>(i)].push_back(i);
      }
    }
    // Off 0 .. n-1, to states below 0 that the rules move on from (the oracle's digraph has
    // none of them: only G and T are compared).
    if (large && round % 2 == 1) game.rules += " move @(0 - i - 1) if i % " + std::to_string(q + 1) + " == 2";
    const std::vector<int> xs = shuffled(rng, n);
    std::string list = "[";
    for (std::size_t i = 0; i < xs.size(); ++i) list += (i ? ", " : "") + std::to_string(xs[i]);
    list += "]";
    // The first query's positions answer the queries after it from its retrograde pass while the
    // graph does not grow; the others, labelled, from their values.
    const auto queries = [&](const std::string& g) {
      return "let xs = " + list + "\nlet x = xs[0]\noutcome(" + g + ")\n[outcome(" + g + ") for x in xs]\n[wins(" + g +
             ") for x in xs]\n[draws(" + g + ") for x in xs]\n[remoteness(" + g + ") for x in xs]\n[grundy(" +
             g + ") for x in xs]\n[outcome(" + g + ") for x in xs]\n";
    };
    const std::string first =
        "loopy game G { state i " + spelled(game.rules, false) + " }\n" + queries("G(x)");
    // T is labelled first (a grundy query before them), so that its outcomes come from values.
    const std::string labelled = "loopy game T { state (i, o) " + spelled(game.rules, true) + " }\n" +
                                 "[grundy(T(x, 0)) for x in " + list + "]\n" + queries("T(x, 0)");
    INFO(first);
    const auto g = run_explained(first);
    const auto t = run_explained(labelled);
    const std::vector<std::string> gl = lines_of(g.out), tl = lines_of(t.out);
    REQUIRE(gl.size() == 7);
    REQUIRE(tl.size() == 8);
    for (std::size_t i = 0; i < 7; ++i) CHECK(gl[i] == tl[i + 1]);
    CHECK(gl[1] == gl[6]);
    // (Or, where every move lowers the state, values and outcomes at once by mex in increasing order.)
    const bool descent = contains(g.explain, "valued by mex in increasing order");
    descents += descent;
    retrograde_alone += contains(g.explain, "outcomes by retrograde analysis") || descent;
    if (!large) {
      const OracleListed want = oracle_listed(game.g, xs);
      CHECK(gl[1] + "\n" == want.outcomes);
      CHECK(gl[5] + "\n" == want.values);
    }
  }
  CHECK(retrograde_alone == 96);
  CHECK(descents > 5);
}

TEST_CASE("a loopy game whose every move lowers the state is valued as the ordinary game is", "[fast][loopy]") {
  // No cycle: values by mex in increasing order, in one pass (Loopy.cpp, by_descent), the ordinary
  // game's values; remoteness and outcomes those of the same rules kept as Values (id(): not
  // compiled, Smith's labelling and the retrograde pass).
  const std::string rules = "state n  move n - k * k for k in 1..n if k * k <= n  move n - 7 if n >= 7";
  const std::string id = "import nim\ndef id(x) = if false then [id(x)][0] else x\n";
  const auto loopy = run_explained(id + "loopy game L { " + rules + " }\n[grundy(L(n)) for n in 0..3000]\n"
                                   "[remoteness(L(n)) for n in 0..3000]\n[outcome(L(n) + Nim(n % 5)) for n in 0..300]\n");
  const auto plain = run_source(id + "game L { " + rules + " }\n[grundy(L(n)) for n in 0..3000]\n");
  const auto slow = run_source(id + "loopy game L { state n  move id(n) - k * k for k in 1..n if k * k <= n  move n - 7 if n >= 7 }\n"
                               "[grundy(L(n)) for n in 0..3000]\n[remoteness(L(n)) for n in 0..3000]\n"
                               "[outcome(L(n) + Nim(n % 5)) for n in 0..300]\n");
  INFO(loopy.explain);
  CHECK(contains(loopy.explain, "valued by mex in increasing order"));
  REQUIRE(lines_of(loopy.out).size() == 3);
  CHECK(lines_of(loopy.out)[0] == lines_of(plain.out)[0]);
  CHECK(loopy.out == slow.out);
  // Queries one after another over a growing graph value only the positions new to each.
  const std::string steps = "remoteness(L(10))\ngrundy(L(500))\noutcome(L(700))\nremoteness(L(2999))\ngrundy(L(3000))\n"
                            "outcome(L(3000) + Nim(2))\n";
  const auto grown = run_source(id + "loopy game L { " + rules + " }\n" + steps);
  const auto grown_slow =
      run_source(id + "loopy game L { state n  move id(n) - k * k for k in 1..n if k * k <= n  move n - 7 if n >= 7 }\n" + steps);
  CHECK(lines_of(grown.out).size() == 6);
  CHECK(grown.out == grown_slow.out);
  // Values alone first (no remoteness kept), then remoteness, then values of new positions.
  const std::string values_first = "grundy(L(500))\ngrundy(L(900))\nremoteness(L(900))\nremoteness(L(400))\n"
                                   "grundy(L(1200))\nremoteness(L(1100))\noutcome(L(1500))\n";
  const auto later = run_source(id + "loopy game L { " + rules + " }\n" + values_first);
  const auto later_slow = run_source(
      id + "loopy game L { state n  move id(n) - k * k for k in 1..n if k * k <= n  move n - 7 if n >= 7 }\n" + values_first);
  CHECK(lines_of(later.out).size() == 7);
  CHECK(later.out == later_slow.out);
  // The squares alone: P-positions 0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39 (OEIS A030193).
  const auto squares = run_source("loopy game Q { state n  move n - k * k for k in 1..n if k * k <= n }\n"
                                  "[n for n in 0..40 if outcome(Q(n)) == P]\n");
  CHECK(squares.out == "[0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39]\n");
}

TEST_CASE("rows of many batches, listed breadth first among rows of other lengths, keep their differences right",
          "[fast][loopy]") {
  // Square-But-One's kind of game past 256 squares a row (rows of two and more batches of the
  // compiled rules), with moves up and a condition that gives some rows k * k + k instead:
  // its rows are listed breadth first, far apart, of lengths that differ in their last places,
  // and each batch is compared with the row before's at the same places (LoopyGraph::
  // same_as_before, whose spans are kept while those places are not written). Outcomes against
  // the oracle's retrograde analysis of the same digraph; values against the same rules kept
  // as ids.
  constexpr int n = 72000;
  for (const int q : {3, 5}) {
    IntGame game{"", Digraph(static_cast<std::size_t>(n))};
    game.rules = " move @(i - k * k) for k in 1..i if k * k <= i and i % " + std::to_string(q) + " != 1" +
                 " move @(i - k * k - k) for k in 1..i if k * k + k <= i and i % " + std::to_string(q) + " == 1" +
                 " move @(i + 1) if i % 2 == 0 and i > 0 and i + 1 < " + std::to_string(n) +
                 " move @(i + 2) if i % 7 == 3 and i + 2 < " + std::to_string(n);
    for (int i = 0; i < n; ++i) {
      auto& out = game.g[static_cast<std::size_t>(i)];
      if (i % q != 1) {
        for (int k = 1; k * k <= i; ++k) out.push_back(i - k * k);
      } else {
        for (int k = 1; k * k + k <= i; ++k) out.push_back(i - k * k - k);
      }
      if (i % 2 == 0 && i > 0 && i + 1 < n) out.push_back(i + 1);
      if (i % 7 == 3 && i + 2 < n) out.push_back(i + 2);
    }
    std::mt19937 rng(static_cast<unsigned>(q));
    std::vector<int> xs{n - 1, n - 2, 66049, 66050, 65536};
    for (int j = 0; j < 40; ++j) xs.push_back(static_cast<int>(rng() % n));
    std::string list = "[";
    for (std::size_t i = 0; i < xs.size(); ++i) list += (i ? ", " : "") + std::to_string(xs[i]);
    list += "]";
    const std::string program = "loopy game G { state i " + spelled(game.rules, false) + " }\n" +
                                "loopy game T { state (i, o) " + spelled(game.rules, true) + " }\nlet xs = " +
                                list + "\n[outcome(G(x)) for x in xs]\n[grundy(G(x)) for x in xs]\n" +
                                "[grundy(T(x, 0)) for x in xs]\n";
    INFO(program);
    const auto run = run_explained(program);
    CHECK(contains(line_with(run.explain, "explain: G:"), "kept by their differences"));
    const std::vector<std::string> lines = lines_of(run.out);
    REQUIRE(lines.size() == 3);
    const auto retro = retrograde(game.g);
    std::string outcomes = "[";
    for (std::size_t i = 0; i < xs.size(); ++i)
      outcomes += (i ? ", " : "") + std::string(1, retro[static_cast<std::size_t>(xs[i])]);
    CHECK(lines[0] == outcomes + "]");
    CHECK(lines[1] == lines[2]);
  }
}
