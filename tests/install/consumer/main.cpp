// Embeds Grundy: defines a game, asks values, and meets an error; exits 0 when all is as the
// theory says (Kayles' values 0 1 2 3 1 4 3 2 1 4 2 6, Bouton's rule).
#include <grundy/grundy.hpp>

#include <cstdio>

int main() {
  int failed = 0;
  auto check = [&](bool ok, const char* what) {
    if (!ok) {
      std::fprintf(stderr, "consumer: %s\n", what);
      ++failed;
    }
  };
  grundy::embed::Engine engine;
  const grundy::embed::RunResult r = engine.run(
      "import octal\n"
      "game Nim { state n  move k for k in 0..n-1 }\n"
      "[grundy(Kayles(n)) for n in 0..11]\n"
      "wins(Nim(3) + Nim(5) + Nim(6))\n");
  check(r.exit_code == 0, "run failed");
  check(r.values.size() == 2, "run gave two values");
  if (r.values.size() == 2) {
    const int want[] = {0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6};
    check(r.values[0].items.size() == 12, "twelve values of Kayles");
    for (std::size_t i = 0; i < r.values[0].items.size() && i < 12; ++i)
      check(r.values[0].items[i].integer == want[i], "a value of Kayles");
    check(r.values[1].kind == grundy::embed::Value::Kind::Bool && r.values[1].integer == 0, "3 xor 5 xor 6 is 0");
  }
  const grundy::embed::Value v = engine.eval("grundy(Kayles(10) + Nim(4))");
  check(v.kind == grundy::embed::Value::Kind::Int && v.integer == (2 ^ 4), "Kayles(10) + Nim(4) is *6");
  check(engine.eval("outcome(Nim(0))").text == "P", "Nim(0) is P");
  try {
    engine.eval("grundy(Kayles(1) +)");
    check(false, "a syntax error throws");
  } catch (const grundy::embed::Failure& f) {
    check(f.exit_code() == 65, "a compile error is 65");
    check(!f.diagnostics().empty() && f.diagnostics().front().column == 19, "the error's column");
  }
  if (failed == 0) std::printf("consumer: ok\n");
  return failed == 0 ? 0 : 1;
}
