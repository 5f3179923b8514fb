// The runtime without the language: values, hand-written Rulesets, the Evaluator and the
// GameRegistry.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "runtime/ChunkedStack.hpp"
#include "runtime/Error.hpp"
#include "runtime/Evaluator.hpp"
#include "runtime/Game.hpp"
#include "runtime/IntProgram.hpp"
#include "runtime/Mex.hpp"
#include "runtime/OutcomeMemo.hpp"
#include "runtime/StateMap.hpp"
#include "runtime/Value.hpp"

namespace {

using grundy::Error;
using grundy::ErrorKind;
using grundy::Evaluator;
using grundy::GameInstance;
using grundy::GameRegistry;
using grundy::Kind;
using grundy::Limits;
using grundy::Modifier;
using grundy::Option;
using grundy::OptionCursor;
using grundy::Position;
using grundy::Ruleset;
using grundy::Value;

// A ruleset whose options are given by a function of the state: each option is a list of
// states of the same game (one for a move, several for a split).
class FnRuleset : public Ruleset {
 public:
  using Fn = std::function<std::vector<std::vector<Value>>(const Value&)>;
  FnRuleset(std::string name, Fn fn, int arity = 1)
      : name_(std::move(name)), fn_(std::move(fn)), arity_(arity) {}
  const std::string& name() const override { return name_; }
  int state_arity() const override { return arity_; }
  std::unique_ptr<OptionCursor> options(const GameInstance& game, const Value& state) const override {
    return std::make_unique<Cursor>(game, fn_(state));
  }

 private:
  // Hands out options one at a time, as the evaluator expects.
  class Cursor : public OptionCursor {
   public:
    Cursor(const GameInstance& game, std::vector<std::vector<Value>> options)
        : game_(game), options_(std::move(options)) {}
    bool next(Option& out) override {
      if (i_ == options_.size()) return false;
      out.clear();
      for (const Value& s : options_[i_]) out.push_back(Position{&game_, s});
      ++i_;
      return true;
    }

   private:
    const GameInstance& game_;
    std::vector<std::vector<Value>> options_;
    std::size_t i_ = 0;
  };

  std::string name_;
  Fn fn_;
  int arity_;
};

Value I(std::int64_t v) { return Value::integer(v); }

// Subtraction {1, 2}: n -> n - 1, n - 2.
std::shared_ptr<const Ruleset> sub12() {
  return std::make_shared<FnRuleset>("Sub12", [](const Value& s) {
    std::vector<std::vector<Value>> out;
    for (std::int64_t k = 1; k <= 2; ++k) {
      if (k <= s.as_int()) out.push_back({I(s.as_int() - k)});
    }
    return out;
  });
}

// n -> n - 1 while positive.
std::shared_ptr<const Ruleset> chain() {
  return std::make_shared<FnRuleset>("Chain", [](const Value& s) {
    std::vector<std::vector<Value>> out;
    if (s.as_int() > 0) out.push_back({I(s.as_int() - 1)});
    return out;
  });
}

// Options (of a position) or sums (one move from a sum), as they print.
template <typename Parts>
std::vector<std::string> texts(const std::vector<Parts>& options) {
  std::vector<std::string> out;
  for (const Parts& o : options) {
    std::vector<Value> parts;
    for (const Position& p : o) parts.push_back(Value::position(p.game, p.state));
    out.push_back(to_string(Value::sum(parts)));
  }
  return out;
}

const GameInstance* plain(GameRegistry& games, const std::shared_ptr<const Ruleset>& rules) {
  return games.instance(rules, Value::tuple({}));
}

}  // namespace

TEST_CASE("Value to_string uses the language's syntax", "[runtime][value]") {
  using grundy::to_string;
  CHECK(to_string(I(3)) == "3");
  CHECK(to_string(I(-9)) == "-9");
  CHECK(to_string(Value::boolean(true)) == "true");
  CHECK(to_string(Value::boolean(false)) == "false");
  CHECK(to_string(Value::outcome('N')) == "N");
  CHECK(to_string(Value::outcome('P')) == "P");
  CHECK(to_string(Value::tuple({I(2), I(5)})) == "(2, 5)");
  CHECK(to_string(Value::list({I(0), I(1), I(1), I(2)})) == "[0, 1, 1, 2]");
  CHECK(to_string(Value::list({})) == "[]");
  CHECK(to_string(Value::set({I(4), I(1), I(3), I(1)})) == "{1, 3, 4}");
  CHECK(to_string(Value::range(1, 5)) == "1..5");
  CHECK(to_string(Value::list({Value::string("hi")})) == "[\"hi\"]");
  CHECK(to_string(Value::sum({})) == "0");
}

TEST_CASE("trees of empty lists hash apart", "[runtime][value]") {
  // A tree as nested lists ([[]], [[], [[]]], ...) is all empty lists: with a hash that
  // mixed a list's running hash h with an item v as h ^ v, mix(h, h) was h, all of them
  // hashed as [], and memoized calls on trees took quadratic time.
  const Value e = Value::list({});
  const Value one = Value::list({e});
  const Value two = Value::list({e, e});
  const Value stalk = Value::list({one});
  const std::vector<Value> trees{e,
                                 one,
                                 two,
                                 stalk,
                                 Value::list({one, e}),
                                 Value::list({e, one}),
                                 Value::list({two}),
                                 Value::list({stalk}),
                                 Value::list({e, e, e})};
  for (std::size_t i = 0; i < trees.size(); ++i) {
    for (std::size_t j = i + 1; j < trees.size(); ++j) {
      INFO(to_string(trees[i]) << " and " << to_string(trees[j]));
      CHECK(trees[i].hash() != trees[j].hash());
    }
  }
  CHECK(Value::tuple({one}).hash() != Value::tuple({e}).hash());
}

TEST_CASE("values compare, hash and order consistently", "[runtime][value]") {
  const Value a = Value::list({I(1), Value::tuple({I(2), I(3)})});
  const Value b = Value::list({I(1), Value::tuple({I(2), I(3)})});
  const Value c = Value::list({I(1), Value::tuple({I(3), I(2)})});
  CHECK(a == b);
  CHECK(a.hash() == b.hash());
  CHECK(a != c);
  CHECK(compare(a, b) == 0);
  CHECK((compare(a, c) < 0) != (compare(c, a) < 0));
  CHECK(I(1) < I(2));
  CHECK_FALSE(I(2) < I(1));
  CHECK(Value::set({I(3), I(1)}) == Value::set({I(1), I(3), I(3)}));
  CHECK(Value::set({I(3), I(1)}).items().size() == 2);
  CHECK(I(1) != Value::boolean(true));
  CHECK(Value::range(3, 2).range_lo() == 3);
  CHECK(Value::range(3, 2).range_hi() == 2);
}

TEST_CASE("the registry interns instances, and positions print with parameters", "[runtime][registry]") {
  GameRegistry games;
  auto rules =
      std::make_shared<FnRuleset>("B", [](const Value&) { return std::vector<std::vector<Value>>{}; });
  const GameInstance* b3 = games.instance(rules, Value::tuple({I(3)}));
  const GameInstance* b3_again = games.instance(rules, Value::tuple({I(3)}));
  const GameInstance* b4 = games.instance(rules, Value::tuple({I(4)}));
  const GameInstance* bare = plain(games, rules);
  CHECK(b3 == b3_again);
  CHECK(b3 != b4);
  CHECK(b3->display_name() == "B[3]");
  CHECK(bare->display_name() == "B");
  CHECK(to_string(Position{b3, I(10)}) == "B[3](10)");
  CHECK(to_string(Position{bare, I(0)}) == "B(0)");
  const GameInstance* s = games.instance(rules, Value::tuple({Value::set({I(4), I(1), I(3)})}));
  CHECK(to_string(Position{s, I(7)}) == "B[{1, 3, 4}](7)");

  auto pairs = std::make_shared<FnRuleset>(
      "W", [](const Value&) { return std::vector<std::vector<Value>>{}; }, 2);
  const GameInstance* w = plain(games, pairs);
  CHECK(to_string(Position{w, Value::tuple({I(3), I(5)})}) == "W(3, 5)");
}

TEST_CASE("sums print and collapse", "[runtime][value]") {
  GameRegistry games;
  const GameInstance* g = plain(games, sub12());
  const Value p1 = Value::position(g, I(1));
  const Value p2 = Value::position(g, I(2));
  CHECK(Value::sum({p1}).is(Kind::Position));  // one normal-play part is that position
  CHECK(Value::sum({p1}) == p1);
  CHECK(to_string(Value::sum({p1, p2})) == "Sub12(1) + Sub12(2)");
  CHECK(to_string(Value::sum({p1, p2}, Modifier::Misere)) == "misere (Sub12(1) + Sub12(2))");
  CHECK(to_string(Value::sum({p1, p2}, Modifier::Every)) == "every (Sub12(1) + Sub12(2))");
  CHECK(to_string(Value::sum({p1}, Modifier::Misere)) == "misere Sub12(1)");
  CHECK(Value::sum({p1, p2}, Modifier::Misere).modifier() == Modifier::Misere);
}

TEST_CASE("mex", "[runtime]") {
  CHECK(grundy::mex({}) == 0);
  CHECK(grundy::mex({false, true}) == 0);
  CHECK(grundy::mex({true, true, false, true}) == 2);
  CHECK(grundy::mex({true, true, true}) == 3);
}

TEST_CASE("the values seen give the mex past one word, past the bit vector, and after clear", "[runtime]") {
  grundy::SeenValues seen;
  CHECK(seen.mex() == 0);
  for (std::uint64_t v = 0; v < 64; ++v) seen.add(v);
  CHECK(seen.mex() == 64);
  for (std::uint64_t v = 64; v < 70000; ++v) {
    if (v != 66000) seen.add(v);
  }
  CHECK(seen.mex() == 66000);
  seen.add(66000);
  seen.add(UINT64_MAX);  // past any mex
  CHECK(seen.mex() == 70000);
  seen.clear();
  seen.add(1);
  CHECK(seen.mex() == 0);
  seen.add(0);
  CHECK(seen.mex() == 2);
}

TEST_CASE("a chunked stack keeps its frames in place across chunks and destroys each once", "[runtime]") {
  static int alive = 0;
  struct Frame {
    explicit Frame(int x) : v(x) { ++alive; }
    ~Frame() { --alive; }
    int v;
  };
  {
    grundy::ChunkedStack<Frame> stack;
    const std::size_t n = 3 * grundy::ChunkedStack<Frame>::kChunk + 5;
    std::vector<const Frame*> where;
    for (std::size_t i = 0; i < n; ++i) where.push_back(&stack.emplace_back(static_cast<int>(i)));
    CHECK(stack.size() == n);
    CHECK(alive == static_cast<int>(n));
    for (std::size_t i = 0; i < n; ++i) {
      CHECK(&stack[i] == where[i]);  // never moved by a later push
      CHECK(stack[i].v == static_cast<int>(i));
    }
    for (std::size_t i = 0; i < grundy::ChunkedStack<Frame>::kChunk + 10; ++i) stack.pop_back();
    CHECK(alive == static_cast<int>(stack.size()));
    CHECK(stack.back().v == static_cast<int>(stack.size()) - 1);
    CHECK(stack.emplace_back(-1).v == -1);
    CHECK(stack.front().v == 0);
  }
  CHECK(alive == 0);
}

TEST_CASE("a hand-written subtraction game evaluates", "[runtime][evaluator]") {
  GameRegistry games;
  const Limits limits;  // the evaluator keeps a reference
  Evaluator ev(games, limits);
  const GameInstance* g = plain(games, sub12());
  for (std::int64_t n = 0; n <= 300; ++n) {
    INFO("n = " << n);
    CHECK(ev.grundy(Position{g, I(n)}) == static_cast<std::uint32_t>(n % 3));
  }
  CHECK(games.states == 301);
  // Sprague-Grundy: a sum is the xor of its parts.
  const grundy::Sum sum({Position{g, I(4)}, Position{g, I(5)}, Position{g, I(7)}});
  CHECK(ev.grundy(sum) == (1u ^ 2u ^ 1u));
  CHECK(ev.grundy(grundy::Sum{}) == 0);
}

TEST_CASE("options come in rule order, without multiset duplicates", "[runtime][evaluator]") {
  GameRegistry games;
  const Limits limits;  // the evaluator keeps a reference
  Evaluator ev(games, limits);
  const GameInstance* g = plain(games, sub12());
  CHECK(texts(ev.options(Position{g, I(5)})) == std::vector<std::string>{"Sub12(4)", "Sub12(3)"});
  CHECK(texts(ev.options(Position{g, I(1)})) == std::vector<std::string>{"Sub12(0)"});
  CHECK(ev.options(Position{g, I(0)}).empty());

  // Splits [a, n - a] for every a: [1, 3] and [3, 1] are one option; repeats are dropped.
  auto splits = std::make_shared<FnRuleset>("Split", [](const Value& s) {
    std::vector<std::vector<Value>> out;
    const std::int64_t n = s.as_int();
    for (std::int64_t a = 1; a < n; ++a) out.push_back({I(a), I(n - a)});
    if (n > 0) out.push_back({I(n - 1)});
    if (n > 0) out.push_back({I(n - 1)});
    out.push_back({});
    out.push_back({});
    return out;
  });
  const GameInstance* h = plain(games, splits);
  CHECK(texts(ev.options(Position{h, I(4)})) ==
        std::vector<std::string>{"Split(1) + Split(3)", "Split(2) + Split(2)", "Split(3)", "0"});
  // The same values through grundy: by hand, g(0) = mex{0} = 1 (the empty split is 0),
  // g(1) = mex{g(0), 0} = 2, g(2) = mex{g(1) ^ g(1), g(1), 0} = mex{0, 2, 0} = 1.
  CHECK(ev.grundy(Position{h, I(0)}) == 1);
  CHECK(ev.grundy(Position{h, I(1)}) == 2);
  CHECK(ev.grundy(Position{h, I(2)}) == 1);
}

TEST_CASE("options of a sum keep the moved component in place", "[runtime][evaluator]") {
  GameRegistry games;
  const Limits limits;  // the evaluator keeps a reference
  Evaluator ev(games, limits);
  const GameInstance* g = plain(games, sub12());
  const grundy::Sum sum({Position{g, I(2)}, Position{g, I(1)}});
  CHECK(texts(grundy::sum_options(ev, sum)) ==
        std::vector<std::string>{"Sub12(1) + Sub12(1)", "Sub12(0) + Sub12(1)", "Sub12(2) + Sub12(0)"});
  // Equal multisets reached from different components are listed once.
  const grundy::Sum twins({Position{g, I(1)}, Position{g, I(1)}});
  CHECK(texts(grundy::sum_options(ev, twins)) == std::vector<std::string>{"Sub12(0) + Sub12(1)"});
}

TEST_CASE("a loop in the rules raises grundy::Error and leaves no trace", "[runtime][loop]") {
  GameRegistry games;
  const Limits limits;  // the evaluator keeps a reference
  Evaluator ev(games, limits);
  // 0 -> 1 -> 2 -> 0, and 5 -> 4 (terminal) besides.
  auto cyc = std::make_shared<FnRuleset>("Cyc", [](const Value& s) {
    const std::int64_t n = s.as_int();
    if (n < 3) return std::vector<std::vector<Value>>{{I((n + 1) % 3)}};
    if (n == 5) return std::vector<std::vector<Value>>{{I(4)}};
    return std::vector<std::vector<Value>>{};
  });
  const GameInstance* g = plain(games, cyc);
  try {
    ev.grundy(Position{g, I(0)});
    FAIL("no error for a loop");
  } catch (const Error& e) {
    CHECK(e.kind == ErrorKind::Runtime);
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("Cyc(0) -> Cyc(1) -> Cyc(2) -> Cyc(0)") != std::string::npos);
  }
  CHECK(games.states == 0);
  // Asking again fails the same way instead of reading a half-computed memo.
  CHECK_THROWS_AS(ev.grundy(Position{g, I(1)}), Error);
  // Positions away from the loop still evaluate.
  CHECK(ev.grundy(Position{g, I(5)}) == 1);
}

TEST_CASE("a self-loop is a loop", "[runtime][loop]") {
  GameRegistry games;
  const Limits limits;  // the evaluator keeps a reference
  Evaluator ev(games, limits);
  auto self = std::make_shared<FnRuleset>(
      "Self", [](const Value& s) { return std::vector<std::vector<Value>>{{s}}; });
  CHECK_THROWS_AS(ev.grundy(Position{plain(games, self), I(7)}), Error);
}

TEST_CASE("deep chains do not use the C++ stack", "[runtime][deep]") {
  GameRegistry games;
  const Limits limits;  // the evaluator keeps a reference
  Evaluator ev(games, limits);
  const GameInstance* g = plain(games, chain());
  CHECK(ev.grundy(Position{g, I(100000)}) == 0);
  CHECK(ev.grundy(Position{g, I(100001)}) == 1);
}

TEST_CASE("the state limit raises a Limit error naming --max-states", "[runtime][limits]") {
  GameRegistry games;
  Limits limits;
  limits.max_states = 100;
  Evaluator ev(games, limits);
  const GameInstance* g = plain(games, chain());
  CHECK(ev.grundy(Position{g, I(50)}) == 0);
  try {
    ev.grundy(Position{g, I(1000)});
    FAIL("no error past the state limit");
  } catch (const Error& e) {
    CHECK(e.kind == ErrorKind::Limit);
    const std::string text = std::string(e.what()) + "\n" + e.hint;
    INFO(text);
    CHECK(text.find("--max-states") != std::string::npos);
  }
  // The positions that were complete before stay usable.
  CHECK(ev.grundy(Position{g, I(40)}) == 0);
}

TEST_CASE("an interrupt stops a long evaluation", "[runtime][limits]") {
  GameRegistry games;
  std::atomic<bool> interrupt{true};
  Limits limits;
  limits.interrupt = &interrupt;
  Evaluator ev(games, limits);
  const GameInstance* g = plain(games, chain());
  try {
    ev.grundy(Position{g, I(30000)});
    FAIL("no error after an interrupt");
  } catch (const Error& e) {
    CHECK(e.kind == ErrorKind::Interrupted);
  }
  interrupt = false;
  CHECK(ev.grundy(Position{g, I(30000)}) == 0);
}

TEST_CASE("forgetting a ruleset drops its memo", "[runtime][registry]") {
  GameRegistry games;
  const Limits limits;  // the evaluator keeps a reference
  Evaluator ev(games, limits);
  auto rules = sub12();
  const GameInstance* g = plain(games, rules);
  CHECK(ev.grundy(Position{g, I(10)}) == 1);
  CHECK(games.states == 11);
  games.forget(rules.get());
  CHECK(games.states == 0);
  const GameInstance* again = plain(games, rules);
  CHECK(ev.grundy(Position{again, I(10)}) == 1);
  games.clear_memos();
  CHECK(games.states == 0);
  CHECK(again->memo.empty());
}

TEST_CASE("the tiled outcome memo keeps what it was told as its box grows", "[runtime][box]") {
  for (int arity = 1; arity <= 4; ++arity) {
    CAPTURE(arity);
    grundy::OutcomeMemo memo(arity);
    std::map<std::vector<std::int64_t>, bool> told;
    std::uint64_t seed = 12345;
    auto next = [&] {  // xorshift: states spread over a box of growing size
      seed ^= seed << 13;
      seed ^= seed >> 7;
      seed ^= seed << 17;
      return seed;
    };
    for (int k = 0; k < 3000; ++k) {
      std::vector<std::int64_t> c(static_cast<std::size_t>(arity));
      // 2 .. 2^16, and at most 2^36 cells in all
      const std::uint64_t span = std::uint64_t{2} << std::min(k / 200, 36 / arity - 1);
      for (auto& x : c) x = static_cast<std::int64_t>(next() % span);
      if (!memo.inside(c.data())) REQUIRE(memo.grow(c.data(), std::uint64_t{1} << 40));
      REQUIRE(memo.inside(c.data()));
      const bool wins = next() % 2 == 0;
      auto it = told.find(c);
      if (it == told.end()) {
        REQUIRE_FALSE(memo.get(c.data()).has_value());
        memo.set(c.data(), wins);
        told.emplace(c, wins);
      } else {
        REQUIRE(memo.get(c.data()) == std::optional<bool>(it->second));
      }
    }
    for (const auto& [c, wins] : told) REQUIRE(memo.get(c.data()) == std::optional<bool>(wins));
    // A coordinate past the directory's cap (in tiles of up to 2^12 cells) is refused, not
    // wrapped; the largest coordinate is refused without overflow.
    std::vector<std::int64_t> far(static_cast<std::size_t>(arity), 0);
    far[0] = std::int64_t{1} << 40;
    REQUIRE_FALSE(memo.grow(far.data(), std::uint64_t{1} << 20));
    far[0] = INT64_MAX;
    REQUIRE_FALSE(memo.grow(far.data(), std::uint64_t{1} << 20));
  }
}

TEST_CASE("a run of won states read from the tiles is what probing them one by one says", "[runtime][box]") {
  std::uint64_t seed = 99;
  auto next = [&] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  for (int arity = 1; arity <= 3; ++arity) {
    CAPTURE(arity);
    grundy::OutcomeMemo memo(arity);
    // Mostly won cells (long runs across words and tiles), some lost, unknown and being
    // searched; a box of 2 or 3 tiles a side.
    const std::int64_t side = arity == 1 ? 3 * 4096 : arity == 2 ? 3 * 64 : 2 * 16;
    std::vector<std::int64_t> corner(static_cast<std::size_t>(arity), side - 1);
    REQUIRE(memo.grow(corner.data(), std::uint64_t{1} << 20));
    std::vector<std::int64_t> c(static_cast<std::size_t>(arity));
    const std::int64_t cells = arity == 1 ? side : arity == 2 ? side * side : side * side * side;
    for (std::int64_t i = 0; i < cells; ++i) {
      for (int d = 0, rest = static_cast<int>(i); d < arity; ++d, rest /= static_cast<int>(side)) {
        c[static_cast<std::size_t>(d)] = rest % side;
      }
      const std::uint64_t r = next() % 200;
      if (r == 0) continue;  // unknown
      if (r == 1) memo.mark_searching(c.data());
      else memo.set(c.data(), r > 3);  // won unless r is 2 or 3
    }
    for (int k = 0; k < 20000; ++k) {
      std::vector<std::int64_t> slope(static_cast<std::size_t>(arity));
      for (auto& s : slope) s = static_cast<std::int64_t>(next() % 3) - 1;
      for (auto& x : c) x = static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(side));
      const auto count = static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(2 * side)) + 1;
      std::int64_t want = 0;  // one by one, stopping at the box's edge as the run's reader does
      for (std::vector<std::int64_t> x = c; want < count; ++want) {
        if (memo.probe(x.data()) != grundy::OutcomeMemo::kWins) break;
        for (int d = 0; d < arity; ++d) x[static_cast<std::size_t>(d)] += slope[static_cast<std::size_t>(d)];
      }
      const bool still = std::all_of(slope.begin(), slope.end(), [](std::int64_t s) { return s == 0; });
      CAPTURE(c, slope, count);
      REQUIRE(memo.won_run(c.data(), slope.data(), count) == (still ? 0 : want));
    }
  }
}

TEST_CASE("an outcome memo that turns into a hash map keeps its cells and marks", "[runtime][box]") {
  for (int arity = 1; arity <= 4; ++arity) {
    CAPTURE(arity);
    grundy::OutcomeMemo memo(arity);
    std::map<std::vector<std::int64_t>, unsigned> told;  // 1 lost, 2 won, 3 being searched
    std::uint64_t seed = 777;
    for (int k = 0; k < 2000; ++k) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      std::vector<std::int64_t> c(static_cast<std::size_t>(arity));
      for (int i = 0; i < arity; ++i)
        c[static_cast<std::size_t>(i)] = static_cast<std::int64_t>((seed >> (8 * i + 11)) % 300);
      if (!memo.inside(c.data())) REQUIRE(memo.grow(c.data(), std::uint64_t{1} << 30));
      const unsigned v = 1 + static_cast<unsigned>(seed >> 60) % 3;
      if (v == 3) memo.mark_searching(c.data());
      else memo.set(c.data(), v == 2);
      told[c] = v;
    }
    memo.to_hashed();
    REQUIRE(memo.hashed());
    for (const auto& [c, v] : told) {
      CAPTURE(c);
      REQUIRE(static_cast<unsigned>(memo.probe(c.data())) == v);
    }
    // Past any directory now, and still empty where nothing was written.
    std::vector<std::int64_t> far(static_cast<std::size_t>(arity), std::int64_t{1} << 40);
    REQUIRE(memo.inside(far.data()));
    REQUIRE(memo.probe(far.data()) == grundy::OutcomeMemo::kUnknown);
    memo.set(far.data(), true);
    REQUIRE(memo.get(far.data()) == std::optional<bool>(true));
  }
}

TEST_CASE("a memo of one-list states boxes them by their items, and a list of another length hashes them",
          "[runtime][box]") {
  using grundy::IntProgram;
  for (int length = 1; length <= 4; ++length) {
    CAPTURE(length);
    grundy::OutcomeMemo memo(1, false, true);
    std::map<std::int64_t, bool> told;
    std::uint64_t seed = 4242;
    const std::int64_t most = std::min<std::int64_t>(IntProgram::max_item(length), 700);
    for (int k = 0; k < 3000; ++k) {
      std::int64_t items[4];
      for (int i = 0; i < length; ++i) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        items[i] = static_cast<std::int64_t>((seed >> 33) % static_cast<std::uint64_t>(most + 1));
      }
      std::int64_t c[grundy::kMaxBoxArity] = {};
      REQUIRE(IntProgram::pack_list(items, length, c[0]));
      if (!memo.inside(c)) REQUIRE(memo.grow(c, std::uint64_t{1} << 30));
      REQUIRE_FALSE(memo.hashed());
      const bool wins = (seed >> 20) % 2 == 0;
      if (auto it = told.find(c[0]); it != told.end()) {
        REQUIRE(memo.get(c) == std::optional<bool>(it->second));
      } else {
        REQUIRE_FALSE(memo.get(c).has_value());
        memo.set(c, wins);
        told.emplace(c[0], wins);
      }
    }
    // The box spans the items, not the words (lists of one or two items of up to 700 fit in
    // one tile, or 11 x 11 of them, however far apart their words lie).
    CHECK(memo.tiles_used() <= (length == 1 ? 1u : length == 2 ? 121u : told.size()));
    // A list one longer lies outside the box, and cannot join it: the cells go to a hash map,
    // under the words of their lists.
    // (A state's room: the memo may read a tuple's width from it.)
    std::int64_t longer_items[5] = {1, 2, 3, 4, 5}, longer[grundy::kMaxBoxArity] = {};
    REQUIRE(IntProgram::pack_list(longer_items, length + 1, longer[0]));
    REQUIRE_FALSE(memo.inside(longer));
    REQUIRE_FALSE(memo.grow(longer, std::uint64_t{1} << 30));
    memo.to_hashed();
    for (const auto& [w, wins] : told) {
      std::int64_t c[grundy::kMaxBoxArity] = {w};
      REQUIRE(memo.get(c) == std::optional<bool>(wins));
    }
    REQUIRE_FALSE(memo.get(longer).has_value());
  }
}

TEST_CASE("a state map keeps what it is told as its keys widen, and past one word", "[runtime][box]") {
  for (int arity = 1; arity <= 4; ++arity) {
    CAPTURE(arity);
    grundy::StateMap<std::uint32_t> map(arity);
    std::map<std::vector<std::int64_t>, std::uint32_t> told;
    std::uint64_t seed = 4242;
    // Widths grow in stages: small coordinates, then a first one wider than its even share of
    // 32 bits (the fields are redrawn, still 32 bits in all), then one past 32 bits (64-bit
    // keys), then a negative one (whole coordinates from then on).
    for (int stage = 0; stage < 4; ++stage) {
      for (int k = 0; k < 3000; ++k) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        std::vector<std::int64_t> c(static_cast<std::size_t>(arity));
        for (int i = 0; i < arity; ++i) {
          const auto x = static_cast<std::int64_t>(seed >> (5 * i + 3));
          const auto below = [&](int bits) { return x % (std::int64_t{1} << bits); };
          c[static_cast<std::size_t>(i)] = stage == 0   ? x % 50
                                           : stage == 1 ? below(i == 0 ? 37 - 5 * arity : 5)
                                           : stage == 2 ? below(i == 0 ? 60 - 6 * arity : 5)
                                                        : (i == 0 ? -1 - x % 7 : x);
        }
        CAPTURE(c);
        const std::uint32_t* before = map.find(c.data());
        const auto it = told.find(c);
        REQUIRE((before == nullptr) == (it == told.end()));
        if (before) REQUIRE(*before == it->second);
        const auto v = static_cast<std::uint32_t>(seed >> 40);
        if (seed % 5 == 0 && it != told.end()) {
          map.erase(c.data());
          told.erase(it);
        } else {
          map.set(c.data(), v);
          told[c] = v;
        }
      }
      for (const auto& [c, v] : told) {
        CAPTURE(stage, c);
        const std::uint32_t* got = map.find(c.data());
        REQUIRE(got != nullptr);
        REQUIRE(*got == v);
      }
    }
  }
}

TEST_CASE("a packed list shares 56 bits among its items, the width set by its length", "[runtime][box]") {
  using grundy::IntProgram;
  // n items: 56 / n bits each; the largest item that fits, and one past it.
  const std::vector<std::pair<int, int>> widths = {{0, 56}, {1, 56}, {2, 28}, {3, 18}, {4, 14}, {5, 11},
                                                   {6, 9},  {7, 8},  {8, 7},  {9, 6},
                                                   {10, 5}, {11, 5}, {12, 4}, {14, 4}, {15, 3},
                                                   {18, 3}, {19, 2}, {28, 2}, {29, 1}, {56, 1}};
  for (const auto& [n, bits] : widths) {
    CAPTURE(n);
    REQUIRE(IntProgram::list_bits(n) == bits);
    std::vector<std::int64_t> xs(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) xs[static_cast<std::size_t>(i)] = (std::int64_t{1} << bits) - 1 - (i % 2);
    std::int64_t w = 0;
    REQUIRE(IntProgram::pack_list(xs.data(), n, w));
    REQUIRE(w >= 0);
    REQUIRE(IntProgram::list_len(w) == n);
    std::vector<std::int64_t> back(IntProgram::kMaxListLength);
    REQUIRE(IntProgram::unpack_list(w, back.data()) == n);
    back.resize(static_cast<std::size_t>(n));
    REQUIRE(back == xs);
    if (n > 0) {
      xs.back() = std::int64_t{1} << bits;
      REQUIRE_FALSE(IntProgram::pack_list(xs.data(), n, w));
      xs.back() = -1;
      REQUIRE_FALSE(IntProgram::pack_list(xs.data(), n, w));
    }
  }
  std::vector<std::int64_t> ones(57, 1);
  std::int64_t w = 0;
  REQUIRE_FALSE(IntProgram::pack_list(ones.data(), 57, w));
  // Lists of different lengths never share a word.
  std::int64_t a = 0, b = 0;
  REQUIRE(IntProgram::pack_list(ones.data(), 8, a));
  REQUIRE(IntProgram::pack_list(ones.data(), 7, b));
  REQUIRE(a != b);
}
