// --cross-check (runtime/CrossCheck.hpp): the plain definition agrees with the kernels where
// they are right, and a wrong value at the places where faults of width live (the first
// value that needs one more bit), or in the rules behind a recognised code, stops the query.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "runtime/CrossCheck.hpp"
#include "runtime/Dense.hpp"
#include "runtime/Evaluator.hpp"
#include "runtime/Kernels.hpp"
#include "runtime/Shorthands.hpp"
#include "tests/unit/almost_subtraction.hpp"
#include "tests/unit/brute_force.hpp"
#include "tests/unit/support.hpp"

namespace {

using grundy::DenseTable;
using grundy::Error;
using grundy::ErrorKind;
using grundy::GameInstance;
using grundy::GameRegistry;
using grundy::HeapKernel;
using grundy::HeapSpec;
using grundy::KernelAudit;
using grundy::Value;

DenseTable kernel_table(const HeapSpec& spec, std::size_t count) {
  HeapKernel k(spec);
  DenseTable t;
  k.extend(t, count, nullptr);
  return t;
}

DenseTable copy_with(const DenseTable& t, std::size_t at, std::uint32_t v) {
  DenseTable out;
  for (std::size_t i = 0; i < t.size(); ++i) out.push(i == at ? v : t.get(i));
  return out;
}

// The Internal error's message, or "" when the check passes.
std::string check(const GameInstance& g, const HeapSpec& spec, const DenseTable& t, std::size_t from) {
  KernelAudit audit;
  try {
    grundy::cross_check_kernel(g, spec, t, from, t.size(), 0, audit);
  } catch (const Error& e) {
    CHECK(e.kind == ErrorKind::Internal);
    return e.what();
  }
  return {};
}

}  // namespace

TEST_CASE("the plain definition of a code gives the brute force's values", "[cross-check]") {
  for (const std::string code : {"0.77", "0.07", "0.6", "4.7", "0.137", "0.ff", "8.0", "0.51", "0.f"}) {
    INFO("code " << code);
    auto rules = std::make_shared<grundy::TakeAndBreakRuleset>("G", code);
    GameRegistry games;
    const HeapSpec spec = *rules->plan().code;
    const int max = 120;
    const grundy::brute::Values want = grundy::brute::octal(code, max);
    DenseTable t;
    for (int n = 0; n <= max; ++n) {
      t.push(grundy::plain_heap_value(spec, t, n));
      REQUIRE(static_cast<std::int64_t>(t.get(static_cast<std::size_t>(n))) ==
              want[static_cast<std::size_t>(n)]);
    }
  }
}

TEST_CASE(
    "a kernel's table passes the cross-check, and a value changed where a width is first reached fails it",
    "[cross-check]") {
  // 0.6, a game of the sparse space (mask 0x1ee), where the rules are the code.
  auto rules = std::make_shared<grundy::TakeAndBreakRuleset>("G", "0.6");
  GameRegistry games;
  const GameInstance& g = *games.instance(rules, Value::tuple({}));
  const HeapSpec gg = *rules->plan().code;
  const DenseTable t = kernel_table(gg, 40000);
  CHECK(check(g, gg, t, 0).empty());
  CHECK(check(g, gg, t, 20000).empty());
  // The first heap whose value needs 4 bits (8 or more), and the last heap: always checked.
  std::size_t first8 = 0;
  while (t.get(first8) < 8) ++first8;
  const std::string bad = check(g, gg, copy_with(t, first8, t.get(first8) ^ 2), 0);
  CHECK(bad.find("at heap " + std::to_string(first8)) != std::string::npos);
  CHECK(bad.find("the mex of its options gives " + std::to_string(t.get(first8))) != std::string::npos);
  CHECK_FALSE(check(g, gg, copy_with(t, t.size() - 1, t.get(t.size() - 1) + 1), 30000).empty());
}

TEST_CASE("under --cross-check, rules that leave their recognised code stop the query", "[cross-check]") {
  // Heap 100 has one more move: past the heaps the lowering checks, as a recogniser's fault.
  auto rules = std::make_shared<grundy::test::AlmostSubtraction>(100);
  for (bool cross : {false, true}) {
    GameRegistry games;
    grundy::Limits limits;
    limits.cross_check = cross;
    grundy::Evaluator ev(games, limits);
    const GameInstance* g =
        games.instance(rules, Value::tuple({}), [&](const GameInstance& inst) { return rules->plan(inst); });
    const grundy::Position p{g, Value::integer(100)};
    if (!cross) {
      CHECK(ev.grundy(p) == 0);  // 100 mod 2, the code's value: the fault the guard is for
      continue;
    }
    try {
      ev.grundy(p);
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.kind == ErrorKind::Internal);
      CHECK(std::string(e.what()).find("not the code subtraction {1, 3}") != std::string::npos);
    }
  }
}

TEST_CASE("the cross-check agrees with the fast paths on right values", "[cross-check]") {
  grundy::SessionOptions options;
  options.limits.cross_check = true;
  const std::string out = grundy::test::run_ok(R"(import nim
import octal
sum(grundy(GrundysGame(n)) for n in 0..6000)
[grundy(Kayles(n)) for n in 0..11]
grundy(Bash[2^32](2^32))
game W { state (a, b)
  move (a - k, b) for k in 1..a
  move (a, b - k) for k in 1..b
  move (a - k, b - k) for k in 1..min(a, b) }
[grundy(W(a, 5)) for a in 0..8]
)",
                                               options);
  // Grundy's game to 6000 (sparse from 4096) by brute force; Kayles (OEIS A002186); Bash: n mod (m + 1);
  // Wythoff's row 5 (OEIS A004481's table).
  std::int64_t gg = 0;
  for (auto v : grundy::brute::grundys_game(6000)) gg += v;
  const auto w = grundy::brute::wythoff(8);
  std::string row;
  for (int a = 0; a <= 8; ++a) row += (a ? ", " : "") + std::to_string(w[static_cast<std::size_t>(a)][5]);
  CHECK(out == std::to_string(gg) + "\n[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]\n4294967296\n[" + row + "]\n");
}
