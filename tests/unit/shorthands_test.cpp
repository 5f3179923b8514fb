// The native rulesets behind `octal`, `subtraction` and `graph`, against brute force.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "runtime/Error.hpp"
#include "runtime/Evaluator.hpp"
#include "runtime/Shorthands.hpp"
#include "tests/unit/brute_force.hpp"

namespace {

using grundy::Evaluator;
using grundy::GameRegistry;
using grundy::Limits;
using grundy::Position;
using grundy::Value;

std::vector<std::int64_t> values(GameRegistry& games, std::shared_ptr<const grundy::Ruleset> rules,
                                 int max_n) {
  const Limits limits;  // the evaluator keeps a reference
  Evaluator ev(games, limits);
  const auto* g = games.instance(rules, Value::tuple({}));
  std::vector<std::int64_t> out;
  for (int n = 0; n <= max_n; ++n) out.push_back(ev.grundy(Position{g, Value::integer(n)}));
  return out;
}

}  // namespace

TEST_CASE("take-and-break codes match brute force", "[runtime][shorthands]") {
  const std::vector<std::string> codes = {"0.77",  "0.07", "0.137", "0.6", "0.51", "0.4", "0.33",
                                          "0.156", "4.0",  "0.8",   "0.f", "0.2c", "0.F"};
  for (const std::string& code : codes) {
    GameRegistry games;
    auto rules = std::make_shared<grundy::TakeAndBreakRuleset>("T", code);
    std::string lower = code;
    for (char& c : lower) c = static_cast<char>(c == 'F' ? 'f' : c);
    INFO("code " << code);
    CHECK(values(games, rules, 100) == grundy::brute::octal(lower, 100));
  }
}

TEST_CASE("malformed codes are errors", "[runtime][shorthands]") {
  for (const char* code : {"77", "0.7x", "1.7", "2.7", "", "0..7", "00.7"}) {
    INFO("code " << code);
    CHECK_THROWS_AS(grundy::TakeAndBreakRuleset("T", code), grundy::Error);
  }
}

TEST_CASE("subtraction sets match brute force", "[runtime][shorthands]") {
  const std::vector<std::vector<int>> sets = {{1, 2, 3}, {1, 3, 4}, {2, 5}, {3, 5, 8}, {4, 1, 3, 1}};
  for (const auto& set : sets) {
    GameRegistry games;
    std::vector<std::int64_t> s(set.begin(), set.end());
    auto rules = std::make_shared<grundy::SubtractionRuleset>("S", s);
    CHECK(values(games, rules, 200) == grundy::brute::subtraction(set, 200));
  }
}

TEST_CASE("graph rulesets evaluate and find cycles", "[runtime][shorthands]") {
  using Node = grundy::GraphRuleset::Node;
  // The design's Chess example: 0 -> 1, 2; 1 -> 3; 2 -> 3.
  std::vector<Node> nodes = {{Value::integer(0), {1, 2}},
                             {Value::integer(1), {3}},
                             {Value::integer(2), {3}},
                             {Value::integer(3), {}}};
  auto chess = std::make_shared<grundy::GraphRuleset>("Chess", nodes);
  CHECK(chess->find_cycle().empty());
  GameRegistry games;
  const Limits limits;  // the evaluator keeps a reference
  Evaluator ev(games, limits);
  const auto* g = games.instance(chess, Value::tuple({}));
  CHECK(ev.grundy(Position{g, Value::integer(0)}) == 0);
  CHECK(ev.grundy(Position{g, Value::integer(1)}) == 1);
  CHECK(ev.grundy(Position{g, Value::integer(3)}) == 0);
  CHECK_FALSE(chess->check_state(Value::integer(7)).empty());
  CHECK(chess->check_state(Value::integer(2)).empty());

  // Named nodes print bare; a cycle comes back with its first label repeated at the end.
  std::vector<Node> loop = {{Value::string("a"), {1}}, {Value::string("b"), {0}}};
  auto cyc = std::make_shared<grundy::GraphRuleset>("L", loop);
  const auto cycle = cyc->find_cycle();
  REQUIRE(cycle.size() == 3);
  CHECK(cycle.front() == cycle.back());
  const auto* l = games.instance(cyc, Value::tuple({}));
  CHECK(to_string(Position{l, Value::string("a")}) == "L(a)");
}
