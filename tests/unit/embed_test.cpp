// grundy::embed (api/include/grundy/grundy.hpp): values as C++ data with the theory's values,
// definitions kept between calls, errors as Failure with their places.
#include <grundy/grundy.hpp>

#include <catch2/catch.hpp>

using grundy::embed::Engine;
using grundy::embed::Failure;
using Kind = grundy::embed::Value::Kind;

TEST_CASE("an embedded engine gives values as data, with the exact kinds from eval", "[fast][embed]") {
  Engine engine;
  const auto r = engine.run("import octal\n[grundy(Kayles(n)) for n in 0..11]\nwins(Kayles(3) + Kayles(4) + Kayles(7))\n");
  REQUIRE(r.exit_code == 0);
  REQUIRE(r.values.size() == 2);
  std::vector<std::int64_t> got;
  for (const auto& v : r.values[0].items) got.push_back(v.integer);
  CHECK(got == std::vector<std::int64_t>{0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6});
  CHECK(r.values[1].kind == Kind::Bool);
  CHECK(r.values[1].integer == 0);  // 3 xor 1 xor 2
  // What the run defined stays.
  const auto v = engine.eval("grundy(Kayles(10))");
  CHECK(v.kind == Kind::Int);
  CHECK(v.integer == 2);
  CHECK(v.text == "2");
  const auto o = engine.eval("outcome(Kayles(0))");
  CHECK(o.kind == Kind::Outcome);
  CHECK(o.text == "P");
  const auto t = engine.eval("(1, {3, 2}, [Kayles(4)])");
  CHECK(t.kind == Kind::Tuple);
  REQUIRE(t.items.size() == 3);
  CHECK(t.items[1].kind == Kind::Set);
  CHECK(t.items[1].text == "{2, 3}");
  CHECK(t.items[2].items.at(0).kind == Kind::Position);
  CHECK(t.items[2].items.at(0).text == "Kayles(4)");
  CHECK(t.json == R"j([1,[2,3],[{"position":"Kayles(4)","game":"Kayles","params":[],"state":4}]])j");
}

TEST_CASE("an embedded engine reports errors as Failure, with their places", "[fast][embed][errors]") {
  Engine engine;
  try {
    engine.eval("1 +");
    FAIL("a syntax error throws");
  } catch (const Failure& f) {
    CHECK(f.exit_code() == 65);
    REQUIRE(!f.diagnostics().empty());
    CHECK(f.diagnostics().front().line == 1);
    CHECK(f.diagnostics().front().column == 4);
  }
  try {
    engine.eval("2^63");
    FAIL("an overflow throws");
  } catch (const Failure& f) {
    CHECK(f.exit_code() == 70);
    CHECK(std::string(f.what()).find("overflow") != std::string::npos);
  }
  // A run with a compile error reports it and defines nothing.
  const auto bad = engine.run("game G { state n  move n - 1 if n > 0 }\nlet x = y\n", "bad.game");
  CHECK(bad.exit_code == 65);
  REQUIRE(!bad.diagnostics.empty());
  CHECK(bad.diagnostics.front().file == "bad.game");
  CHECK(bad.diagnostics.front().line == 2);
  CHECK_THROWS_AS(engine.eval("grundy(G(3))"), Failure);
  // Limits hold.
  grundy::embed::Options small;
  small.max_states = 100;
  Engine limited(small);
  const auto big = limited.run("game Nim { state n  move k for k in 0..n-1 if k % 3 != 1 }\ngrundy(Nim(100000))\n");
  CHECK(big.exit_code == 70);
}
