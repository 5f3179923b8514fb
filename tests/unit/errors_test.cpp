// The exit-code and diagnostics contract of grundy::Session: 0 ok, 1 failed assert, 65
// compile error, 70 runtime error; clang-style messages "file:line:col: error: ...", the
// source line, a caret, then an optional hint. The exact text of a diagnostic is asserted by
// the goldens (tests/cases, tests/diagnostics); these check what a golden cannot say at once
// (many variants of a kind of error, several batches in one session, the output stream).
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/unit/support.hpp"

namespace {

using grundy::kExitAssert;
using grundy::kExitCompile;
using grundy::kExitOk;
using grundy::kExitRuntime;
using grundy::test::contains;
using grundy::test::lines_of;
using grundy::test::run_source;
using grundy::test::RunResult;

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

// A diagnostic without the quoted source line and its caret (lines 2 and 3), so that a
// check on the message or the hint cannot pass by matching the program's own text.
std::string message_text(const std::string& err) {
  const auto lines = lines_of(err);
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i != 1 && i != 2) text += lines[i] + "\n";
  }
  return text;
}

// Checks the exit code and the start of the first stderr line ("test.game:L:C: error: ").
RunResult expect_error(std::string_view source, int code, std::string_view head) {
  RunResult r = run_source(source);
  INFO("program:\n" << source << "\n" << r);
  CHECK(r.code == code);
  CHECK(starts_with(r.err, head));
  return r;
}

// Either compile or runtime error is acceptable (the design leaves the choice open), as long
// as it is an error with a location.
RunResult expect_any_error(std::string_view source) {
  RunResult r = run_source(source);
  INFO("program:\n" << source << "\n" << r);
  CHECK((r.code == kExitCompile || r.code == kExitRuntime));
  CHECK(starts_with(r.err, "test.game:"));
  CHECK(contains(r.err, ": error: "));
  return r;
}

const char* const kLoop =
    "game Loop { state n  move n + 1 if n < 3  move n - 1 if n > 0 }\n"
    "grundy(Loop(0))\n";

const char* const kChain = "game Chain { state n  move n - 1 if n > 0 }\n";

}  // namespace

TEST_CASE("a missing construct is reported just after the last token", "[errors]") {
  // `grundy(Nim(3)` lacks its `)`: the caret goes right after `)` of Nim(3).
  const RunResult r = run_source("import nim\ngrundy(Nim(3)\n");
  INFO(r);
  CHECK(r.code == kExitCompile);
  CHECK(starts_with(r.err, "test.game:2:14: error: "));
}

TEST_CASE("compile errors run nothing", "[errors]") {
  const RunResult r = run_source("1\n2\nlet = 3\n");
  INFO(r);
  CHECK(r.code == kExitCompile);
  CHECK(r.out.empty());
  CHECK(starts_with(r.err, "test.game:3:"));
}

TEST_CASE("an unknown game without a near name", "[errors]") {
  expect_error("grundy(Zzyzx(3))\n", kExitCompile, "test.game:1:8: error: unknown game 'Zzyzx'");
}

TEST_CASE("wrong state shapes exit 65", "[errors]") {
  const std::string wythoff =
      "game Wythoff {\n"
      "  state (a, b)\n"
      "  move (a - k, b) for k in 1..a\n"
      "  move (a, b - k) for k in 1..b\n"
      "  move (a - k, b - k) for k in 1..min(a, b)\n"
      "}\n";
  expect_error(wythoff + "grundy(Wythoff(3))\n", kExitCompile, "test.game:7:");
  expect_error(wythoff + "grundy(Wythoff(1, 2, 3))\n", kExitCompile, "test.game:7:");
  expect_error("game K = octal \"0.77\"\ngrundy(K(1, 2))\n", kExitCompile, "test.game:2:");
}

TEST_CASE("moves that do not fit the state are errors", "[errors]") {
  expect_any_error("game Bad { state (a, b)  move a - 1 if a > 0 }\ngrundy(Bad(1, 1))\n");
  expect_any_error("game K = octal \"0.77\"\ngrundy(K(-1))\n");
}

TEST_CASE("an integer given to a game whose state is a set or a list fails as its rules do", "[errors]") {
  // The compiled rules hold a set as a bitmask and a list as a packed word; an integer state
  // is neither, and is not read as one (7 as the set {0, 1, 2}): each query meets the rules'
  // own error, as options() of it does. After a set was asked, so that its table exists.
  const std::string set_game = "game S { state s  move s - {k} for k in s }\ngrundy(S({0, 1, 2}))\n";
  for (const char* q : {"grundy(S(7))", "wins(S(5))", "outcome(S(1))", "[grundy(S(n)) for n in 0..9]",
                        "sum(grundy(S(n)) for n in 0..9)", "grundy(S(6) + S({1}))"}) {
    const RunResult r = expect_error(set_game + q + "\n", kExitRuntime, "test.game:1:");
    CHECK(contains(r.err, "cannot loop over int"));
    CHECK(r.out == "1\n");  // {0, 1, 2}: three removals, one at a time
  }
  const std::string list_game =
      "game L { state xs  move update(xs, i, xs[i] - 1) for i in 0..len(xs)-1 if xs[i] > 0 }\n";
  for (const char* q : {"grundy(L(5))", "wins(L(5))", "grundy(L(0))"}) {
    const RunResult r = expect_error(list_game + q + "\n", kExitRuntime, "test.game:1:");
    CHECK(contains(r.err, "len needs a list, tuple or set, got int"));
  }
  const std::string pair_game =
      "game P { state (used, t)  move (used + {k}, t + k) for k in 1..4 if not (k in used) and t + k < 9 }\n";
  const RunResult p = expect_error(pair_game + "grundy(P(3, 0))\n", kExitRuntime, "test.game:1:");
  CHECK(contains(p.err, "P(3, 0)"));
}

TEST_CASE("'+' and '-' of values they do not take say what they take, and both sides", "[errors]") {
  const RunResult add = expect_error("{1} + [2]\n", kExitRuntime, "test.game:1:5: error: ");
  CHECK(contains(add.err, "'+' adds two ints, joins two lists or two strings, or unites two sets; got set {1} and list [2]"));
  const RunResult sub = expect_error("[1] - 2\n", kExitRuntime, "test.game:1:5: error: ");
  CHECK(contains(sub.err, "'-' subtracts two ints or takes a set from a set; got list [1] and int 2"));
  const RunResult mul = expect_error("1 * [2]\n", kExitRuntime, "test.game:1:3: error: ");
  CHECK(contains(mul.err, "'*' needs two ints, got list [2]"));
}

TEST_CASE("other compile errors exit 65", "[errors]") {
  // Two games of one name in a file.
  expect_error("game A { state n }\ngame A { state n }\n", kExitCompile, "test.game:2:");
  // An unknown name.
  expect_error("1\nnope + 1\n", kExitCompile, "test.game:2:1: error: ");
  // A cycle in a graph literal.
  expect_error("game G = graph { 0 -> 1; 1 -> 0 }\n", kExitCompile, "test.game:1:");
  // A literal that does not fit in 64 bits.
  expect_error("9223372036854775808\n", kExitCompile, "test.game:1:1: error: ");
}

TEST_CASE("source nesting deeper than 256 brackets is a compile error", "[errors][limits]") {
  // 200 levels are fine; 300 are not (LANGUAGE.md 8.14).
  const std::string deep = std::string(300, '(') + "1" + std::string(300, ')') + "\n";
  expect_error(deep, kExitCompile, "test.game:1:");
  const std::string ok = std::string(200, '[') + "1" + std::string(200, ']') + "\n";
  const RunResult r = run_source(ok);
  CHECK(r.code == kExitOk);
  CHECK(r.out == ok);
}

TEST_CASE("a failed assert exits 1 after what ran before it", "[errors]") {
  const RunResult r = expect_error("1\nassert 1 == 2\n3\n", kExitAssert, "test.game:2:");
  CHECK(r.out == "1\n");
  CHECK(contains(r.err, ": error: "));
  CHECK(contains(r.err, "assert 1 == 2\n"));  // the source line is quoted
}

TEST_CASE("integer overflow exits 70 at the operator", "[errors][int]") {
  const RunResult r = expect_error("9223372036854775807 + 1\n", kExitRuntime, "test.game:1:21: error: ");
  const auto lines = lines_of(r.err);
  REQUIRE(lines.size() >= 3);
  CHECK(lines[1] == "9223372036854775807 + 1");
  CHECK(lines[2] == std::string(20, ' ') + "^");
  CHECK(r.out.empty());

  expect_error("1\n-9223372036854775807 - 2\n", kExitRuntime, "test.game:2:");
  expect_error("3037000500 * 3037000500\n", kExitRuntime, "test.game:1:");
  expect_error("(-9223372036854775807 - 1) / -1\n", kExitRuntime, "test.game:1:");
  expect_error("-(-9223372036854775807 - 1)\n", kExitRuntime, "test.game:1:");
  expect_error("abs(-9223372036854775807 - 1)\n", kExitRuntime, "test.game:1:");
  expect_error("2^63\n", kExitRuntime, "test.game:1:");
  expect_error("sum([9223372036854775807, 1])\n", kExitRuntime, "test.game:1:");
  expect_error("let big = 4611686018427387904\nbig + big\n", kExitRuntime, "test.game:2:");
  // Overflow inside a rule is reported too.
  expect_error("game G { state n  move n * 4611686018427387904 if n == 3 }\ngrundy(G(3))\n", kExitRuntime,
               "test.game:");
}

TEST_CASE("x % -1 is 0 for every x, the smallest int included", "[errors][int]") {
  // Only the quotient INT64_MIN / -1 = 2^63 is outside the range; the remainder is 0.
  CHECK(grundy::test::run_ok("(-9223372036854775807 - 1) % -1\n7 % -1\n-7 % -1\n") == "0\n0\n0\n");
  expect_error("(-9223372036854775807 - 1) / -1\n", kExitRuntime, "test.game:1:");
  // The same in compiled rules: the box must not hand over (it would only meet the same
  // remainder in the interpreter), and the answer is the interpreter's.
  const char* const rules =
      "game G { state (a, b)  move (a - 1, b) if a > 0 and (b - 9223372036854775807 - 1) % -1 == 0 }\n"
      "grundy(G(3, 0))\nwins(G(2, 0))\n";
  const grundy::test::Explained e = grundy::test::run_explained(rules);
  CHECK(e.out == "1\nfalse\n");
  CHECK(contains(e.explain, "compiled"));
  CHECK(!contains(e.explain, "stop"));
}

TEST_CASE("other runtime errors exit 70", "[errors]") {
  const RunResult r = expect_error("1\nlet z = 0\n1 / z\n", kExitRuntime, "test.game:3:");
  CHECK(r.out == "1\n");
  expect_error("let z = 0\n1 % z\n", kExitRuntime, "test.game:2:");
  expect_error("[1, 2][5]\n", kExitRuntime, "test.game:1:");
  expect_error("[1, 2][-1]\n", kExitRuntime, "test.game:1:");
  expect_any_error("1 + true\n");
  expect_any_error("assert 1\n");
  expect_any_error("[x for x in 1..3 if 1]\n");
  CHECK(contains(expect_error("all([true, 1])\n", kExitRuntime, "test.game:1:5:").err,
                 "an element of all must be a boolean, got int 1"));
  expect_error("any(3)\n", kExitRuntime, "test.game:1:");
}

TEST_CASE("normal-play queries refuse misere and every", "[errors][misere]") {
  expect_any_error("import nim\ngrundy(misere Nim(3))\n");
  expect_any_error("import nim\ngrundy(every (Nim(1) + Nim(2)))\n");
  expect_any_error("import nim\nsteps(misere Nim(1))\n");
}

TEST_CASE("a chain a million positions deep answers", "[errors][deep]") {
  const RunResult r = run_source(std::string(kChain) +
                                 "grundy(Chain(1000000))\n"
                                 "grundy(Chain(999999))\n");
  INFO(r);
  CHECK(r.code == kExitOk);
  CHECK(r.err.empty());
  CHECK(r.out == "0\n1\n");
}

TEST_CASE("the state limit stops evaluation with a message naming --max-states", "[errors][limits]") {
  grundy::SessionOptions options;
  options.limits.max_states = 1000;
  // kChain is the subtraction game {1}: its period is proven from 256 heaps, so it answers
  // any heap within the limit. The `let` hides the rule from the kernel recognizer.
  const std::string chain = "game Chain { state n  let m = n  move m - 1 if m > 0 }\n";
  const RunResult small = run_source(chain + "grundy(Chain(500))\n", options);
  CHECK(small.code == kExitOk);
  CHECK(small.out == "0\n");
  const RunResult big = run_source(chain + "1\ngrundy(Chain(5000))\n", options);
  INFO(big);
  CHECK(big.code == kExitRuntime);
  CHECK(big.out == "1\n");
  CHECK(starts_with(big.err, "test.game:3:"));
  CHECK(contains(message_text(big.err), "--max-states"));
}

TEST_CASE("a query that fits the state limit alone answers after queries that filled it",
          "[errors][limits]") {
  grundy::SessionOptions options;
  options.limits.max_states = 1000;
  // Each query alone holds at most 700 states (a game of pairs, whose values the rules as
  // written and the compiled ones would both memoize); together they pass the limit. The
  // memos of the earlier ones are caches: dropped, and the query answered alone.
  const std::string game =
      "def id(x) = if false then [id(x)][0] else x\n"
      "game G(k) { state (a, b)  move (id(a) - 1, b) if a > 0  move (a, b - 1) if b > 0 and (a + b) % k != 0 }\n";
  const RunResult r = run_source(game + "grundy(G[3](25, 25))\ngrundy(G[4](25, 25))\ngrundy(G[5](25, 25))\n"
                                        "wins(G[3](25, 25))\n",
                                 options);
  INFO(r);
  CHECK(r.code == kExitOk);
  CHECK(r.out == run_source(game + "grundy(G[3](25, 25))\n").out + run_source(game + "grundy(G[4](25, 25))\n").out +
                     run_source(game + "grundy(G[5](25, 25))\n").out + run_source(game + "wins(G[3](25, 25))\n").out);
  // A query that does not fit alone still stops, naming the flag.
  const RunResult big = run_source(game + "grundy(G[3](25, 25))\ngrundy(G[3](40, 40))\n", options);
  CHECK(big.code == kExitRuntime);
  CHECK(contains(message_text(big.err), "--max-states"));
}

TEST_CASE("the options of an every sum are steps, and equal components are combined once",
          "[errors][limits][every]") {
  // Eight copies of Nim(20): 20^8 choices of moves, C(27, 8) = 2220075 as multisets. More
  // than --max-steps allows is an error at once, at the query.
  grundy::SessionOptions options;
  options.limits.max_steps = 1'000'000;
  const std::string eight = "import nim\nlen(options(every (" + [] {
    std::string s;
    for (int i = 0; i < 8; ++i) s += i ? " + Nim(20)" : "Nim(20)";
    return s;
  }() + ")))\n";
  const RunResult r = run_source(eight, options);
  INFO(r);
  CHECK(r.code == kExitRuntime);
  CHECK(starts_with(r.err, "test.game:2:13: error: "));
  CHECK(contains(message_text(r.err), "combine 2220075 choices of moves"));
  CHECK(contains(message_text(r.err), "--max-steps"));
  // Distinct components multiply: 20 * 21 * 22 * 23 * 24 * 25 * 26 > 10^8.
  const RunResult distinct = run_source(
      "import nim\nlen(options(every (Nim(20) + Nim(21) + Nim(22) + Nim(23) + Nim(24) + Nim(25) + "
      "Nim(26))))\n");
  CHECK(distinct.code == kExitRuntime);
  CHECK(contains(message_text(distinct.err), "--max-steps"));
  // Equal components still list every option once, in the order of nested loops (these
  // are the lists the enumeration of every choice gave).
  const std::string same = grundy::test::run_ok(
      "import nim\nimport octal\n"
      "options(every (Nim(2) + Nim(2) + Kayles(2) + Nim(2)))\n"
      "options(every (Nim(1) + Kayles(2) + Nim(1) + Kayles(2)))\n"
      "len(options(every (Nim(4) + Nim(4) + Nim(4) + Nim(3) + Nim(4))))\n"
      "winning(every (Nim(3) + Nim(3) + Kayles(4)))\n");
  CHECK(same ==
        "[every (Nim(0) + Nim(0) + Kayles(1) + Nim(0)), every (Nim(0) + Nim(0) + Kayles(1) + Nim(1)), "
        "every (Nim(0) + Nim(0) + 0 + Nim(0)), every (Nim(0) + Nim(0) + 0 + Nim(1)), "
        "every (Nim(0) + Nim(1) + Kayles(1) + Nim(1)), every (Nim(0) + Nim(1) + 0 + Nim(1)), "
        "every (Nim(1) + Nim(1) + Kayles(1) + Nim(1)), every (Nim(1) + Nim(1) + 0 + Nim(1))]\n"
        "[every (Nim(0) + Kayles(1) + Nim(0) + Kayles(1)), every (Nim(0) + Kayles(1) + Nim(0) + 0), "
        "every (Nim(0) + 0 + Nim(0) + 0)]\n"
        "55\n"
        "[every (Nim(0) + Nim(0) + (Kayles(1) + Kayles(1)))]\n");
}

TEST_CASE("runaway recursion is a limit error naming --max-depth", "[errors][limits]") {
  const RunResult depth = expect_error("def f(n) = f(n + 1)\nf(0)\n", kExitRuntime, "test.game:");
  CHECK(contains(message_text(depth.err), "--max-depth"));
}

TEST_CASE("period with a bound names the bound when no period shows up", "[errors][period]") {
  const RunResult period =
      expect_error("import octal\nperiod(GrundysGame, 200)\n", kExitRuntime, "test.game:2:");
  CHECK(contains(message_text(period.err), "200"));
}

TEST_CASE("check mode parses and resolves but runs nothing", "[errors][check]") {
  grundy::SessionOptions options;
  options.check_only = true;
  const RunResult fine = run_source(std::string(kChain) + "grundy(Chain(5))\n1 + 1\n", options);
  CHECK(fine.code == kExitOk);
  CHECK(fine.out.empty());
  CHECK(fine.err.empty());
  // The rules are tried on small states, not run: a loop among them is seen before any query.
  const RunResult loop = run_source(kLoop, options);
  CHECK(loop.code == kExitCompile);
  CHECK(loop.out.empty());
  CHECK(starts_with(loop.err, "test.game:1:6: error: the rules loop: Loop(2) -> Loop(3) -> Loop(2)\n"));
  const RunResult bad = run_source("grundy(Kayle(3))\n", options);
  CHECK(bad.code == kExitCompile);
  CHECK(starts_with(bad.err, "test.game:1:8: error: "));
  const RunResult failing_assert = run_source("assert 1 == 2\n", options);
  CHECK(failing_assert.code == kExitOk);
}

TEST_CASE("one session runs batch after batch", "[errors][session]") {
  std::ostringstream out;
  std::ostringstream err;
  grundy::Session session(out, err);
  CHECK(session.run_source(kChain, "a.game") == kExitOk);
  CHECK(session.run_source("grundy(Chain(2))\n", "b.game") == kExitOk);
  CHECK(out.str() == "0\n");

  // Errors name their batch, and the session goes on.
  CHECK(session.run_source("grundy(Nope(1))\n", "e.game") == kExitCompile);
  CHECK(starts_with(err.str(), "e.game:1:8: error: "));
  CHECK(contains(message_text(err.str()), "'Nope'"));

  // A loop leaves no half-computed positions behind: the same query fails the same way.
  err.str("");
  CHECK(session.run_source(kLoop, "f.game") == kExitRuntime);
  const std::string first = err.str();
  err.str("");
  CHECK(session.run_source("grundy(Loop(0))\n", "g.game") == kExitRuntime);
  CHECK(contains(message_text(first), "Loop(2) -> Loop(3) -> Loop(2)"));
  CHECK(contains(message_text(err.str()), "Loop(2) -> Loop(3) -> Loop(2)"));
  CHECK(session.run_source("grundy(Chain(5))\n", "h.game") == kExitOk);
  CHECK(out.str() == "0\n1\n");
}

TEST_CASE("a later batch's definition replaces an earlier one (REPL)", "[errors][session][repl]") {
  // LANGUAGE.md 8.7: at the REPL a later definition replaces the earlier one; Session.hpp:
  // the REPL runs one batch after another in one Session.
  std::ostringstream out;
  std::ostringstream err;
  grundy::Session session(out, err);
  CHECK(session.run_source(kChain, "a.game") == kExitOk);
  CHECK(session.run_source("grundy(Chain(2))\n", "b.game") == kExitOk);
  INFO(err.str());
  CHECK(session.run_source("game Chain { state n  move n - 2 if n > 1 }\n", "c.game") == kExitOk);
  CHECK(session.run_source("grundy(Chain(2))\n", "d.game") == kExitOk);  // memo not reused
  CHECK(session.run_source("grundy(Chain(5))\n", "e.game") == kExitOk);  // 5 -> 3 -> 1
  CHECK(out.str() == "0\n1\n0\n");
}

namespace {

// A stream buffer that keeps what was written and, at each flush, what had been written by
// then; `fail` makes every write fail (a full disk).
class RecordingBuf : public std::streambuf {
 public:
  explicit RecordingBuf(bool fail = false) : fail_(fail) {}
  std::string text;
  std::vector<std::string> flushed;  // text at each flush

 protected:
  int overflow(int c) override {
    if (fail_) return traits_type::eof();
    if (c != traits_type::eof()) text += static_cast<char>(c);
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (fail_) return 0;
    text.append(s, static_cast<std::size_t>(n));
    return n;
  }
  int sync() override {
    flushed.push_back(text);
    return fail_ ? -1 : 0;
  }

 private:
  bool fail_;
};

}  // namespace

TEST_CASE("each statement's output is flushed when the statement ends", "[errors][output]") {
  // A later statement that runs long (or is killed) does not hold back what earlier ones
  // printed; a statement that prints many lines is flushed once.
  RecordingBuf buf;
  std::ostream out(&buf);
  std::ostringstream err;
  grundy::Session session(out, err);
  CHECK(session.run_source("1\nlet a = 2\ntable(n for n in 0..12)\n\"x\"\n", "test.game") == kExitOk);
  REQUIRE(buf.flushed.size() >= 3);
  CHECK(buf.flushed[0] == "1\n");
  CHECK(buf.flushed[1].substr(2).find('x') == std::string::npos);  // the whole table, not "x"
  CHECK(buf.flushed[2] == buf.text);
  CHECK(buf.text.ends_with("x\n"));
}

TEST_CASE("a failed write of the output is an I/O error", "[errors][output]") {
  RecordingBuf buf(/*fail=*/true);
  std::ostream out(&buf);
  std::ostringstream err;
  grundy::Session session(out, err);
  CHECK(session.run_source("1\n2\n", "test.game") == grundy::kExitIo);
  CHECK(starts_with(err.str(), "error: cannot write the output"));
}
