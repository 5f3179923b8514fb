// Files of values (runtime/ValuesFile.hpp): tables written and read back as they were, a
// kernel resumed from a table going on to the same values as a run from heap 0, and a file
// that holds other values refused.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "runtime/Kernels.hpp"
#include "runtime/Shorthands.hpp"
#include "runtime/ValuesFile.hpp"
#include "tests/unit/support.hpp"

using namespace grundy;

namespace {

HeapSpec grundys_game() {
  HeapSpec gg;
  gg.digits = {HeapSpec::kTwo | HeapSpec::kUnequal};
  return gg;
}

DenseTable values_of(const HeapSpec& spec, std::size_t count) {
  DenseTable t;
  HeapKernel(spec).extend(t, count, nullptr);
  return t;
}

bool same(const DenseTable& a, const DenseTable& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a.get(i) != b.get(i)) return false;
  }
  return true;
}

std::string temp_path(const char* name) { return std::string("/tmp/grundy_values_test_") + name; }

}  // namespace

TEST_CASE("a file of values holds each game's table as it was written, at every width", "[values]") {
  const std::string path = temp_path("widths");
  std::remove(path.c_str());
  DenseTable narrow = values_of(grundys_game(), 5000);  // values below 256: a byte each
  DenseTable wide;
  for (std::uint32_t i = 0; i < 3000; ++i) wide.push(i * 2654435761u % 70000);  // four bytes
  DenseTable mid;
  for (std::uint32_t i = 0; i < 100; ++i) mid.push(i * 997 % 60000);  // two bytes
  REQUIRE(narrow.width() == 1);
  REQUIRE(wide.width() == 4);
  REQUIRE(mid.width() == 2);
  {
    ValuesFile out("", path, 0);
    out.offer("14", "GrundysGame", "4. (splits into unequal heaps)", narrow, 0xfe, true);
    out.offer("w", "Wide", "w", wide, 0, true);
    out.offer("m", "Mid", "m", mid, 0, true);
    // A table written again replaces its section; the others are copied over.
    DenseTable longer = values_of(grundys_game(), 6000);
    out.offer("14", "GrundysGame", "4. (splits into unequal heaps)", longer, 0xfe, true);
    narrow = std::move(longer);
  }
  ValuesFile in(path, "", 0);
  std::string error;
  REQUIRE(in.read(false, error));
  auto n = in.take("14");
  auto w = in.take("w");
  auto m = in.take("m");
  REQUIRE(n);
  REQUIRE(w);
  REQUIRE(m);
  CHECK(same(*n, narrow));
  CHECK(same(*w, wide));
  CHECK(same(*m, mid));
  CHECK_FALSE(in.take("14"));  // handed over once
  std::remove(path.c_str());
}

TEST_CASE("a kernel resumed from a saved table goes on to the values of a run from heap 0", "[values]") {
  // Codes with splits into two (0.6 and 0.137 turn sparse), a digit 4 before the point, and
  // splits into three (0.3f: n^2 / 12 options a heap, so fewer heaps).
  struct Case {
    const char* code;
    std::size_t saved, upto;
  };
  for (const Case& c : {Case{"0.77", 12345, 30000}, Case{"0.6", 12345, 30000}, Case{"0.137", 12345, 30000},
                        Case{"4.337", 5000, 12000}, Case{"0.3f", 250, 600}}) {
    INFO(c.code);
    const HeapSpec spec = *TakeAndBreakRuleset("G", c.code).plan().code;
    const DenseTable whole = values_of(spec, c.upto);
    DenseTable part = values_of(spec, c.saved);
    HeapKernel resumed(spec);
    resumed.resume(part);
    resumed.extend(part, c.upto, nullptr);
    CHECK(same(part, whole));
  }
  // Grundy's game, in the sparse space by the time it is saved.
  const DenseTable whole = values_of(grundys_game(), 60000);
  DenseTable part = values_of(grundys_game(), 40000);
  HeapKernel resumed(grundys_game());
  resumed.resume(part);
  resumed.extend(part, 60000, nullptr);
  CHECK(resumed.mode() == HeapKernel::Mode::Sparse);
  CHECK(same(part, whole));
}

TEST_CASE("loaded values: a run resumed from a file answers as a run from heap 0, and a file of other "
          "values is refused",
          "[values]") {
  const std::string path = temp_path("session");
  std::remove(path.c_str());
  const char* program =
      "game GG { state n  split [a, n - a] for a in 1..n if 2 * a < n }\n"
      "[grundy(GG(n)) for n in 20000..20010]\nsum(grundy(GG(n)) for n in 0..30000)\n";
  const std::string fresh = test::run_ok(program);
  {
    ValuesFile file("", path, 0);
    SessionOptions o;
    o.limits.values = &file;
    test::run_ok("game GG { state n  split [a, n - a] for a in 1..n if 2 * a < n }\ngrundy(GG(15000))\n", o);
  }
  {
    ValuesFile file(path, "", 0);
    std::string error;
    REQUIRE(file.read(false, error));
    SessionOptions o;
    o.limits.values = &file;
    std::ostringstream why;
    o.limits.explain = &why;
    CHECK(test::run_source(program, o).out == fresh);
    CHECK(why.str().find("goes on from heap 15001") != std::string::npos);
  }
  // The same key with values that are not the game's.
  {
    ValuesFile file("", path, 0);
    DenseTable wrong = values_of(grundys_game(), 3000);
    DenseTable t;
    for (std::size_t i = 0; i < wrong.size(); ++i) t.push(i == 2000 ? wrong.get(i) ^ 1 : wrong.get(i));
    file.offer("14", "GG", "4.", t, 0, true);
  }
  {
    ValuesFile file(path, "", 0);
    std::string error;
    REQUIRE(file.read(false, error));
    SessionOptions o;
    o.limits.values = &file;
    const auto r = test::run_source(program, o);
    CHECK(r.code == kExitRuntime);
    CHECK(r.err.find("heap 2000 is") != std::string::npos);
  }
  // Not a file of values at all.
  {
    std::ofstream(path) << "hello\n";
    ValuesFile file(path, "", 0);
    std::string error;
    CHECK_FALSE(file.read(false, error));
    CHECK(error.find("is not a file of values") != std::string::npos);
  }
  std::remove(path.c_str());
}
