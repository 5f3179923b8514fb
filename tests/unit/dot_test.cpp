// dot(X) (lang/Dot.cpp): the graph of the positions reachable from X, rendered by Graphviz's
// own `dot` (Debian's graphviz, installed by scripts/setup.sh), its nodes and edges counted
// against what the game's theory says they are.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/unit/support.hpp"

using namespace grundy;

namespace {

struct Drawn {
  int nodes = 0, edges = 0, doubled = 0;  // doubled: P-positions' double borders
};

// The DOT text a program prints, rendered with `dot -Tplain`.
Drawn render(std::string_view source) {
  const test::RunResult r = test::run_source(source);
  INFO(r);
  REQUIRE(r.code == 0);
  Drawn d;
  for (std::size_t at = 0; (at = r.out.find("peripheries=2", at)) != std::string::npos; ++at) ++d.doubled;
  // A file of this process's own: the test cases run as parallel processes.
  const std::string path =
      (std::filesystem::temp_directory_path() / ("grundy_dot_test_" + std::to_string(getpid()) + ".dot")).string();
  std::ofstream(path) << r.out;
  FILE* pipe = popen(("dot -Tplain " + path + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string plain;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) plain.append(buf, n);
  REQUIRE(pclose(pipe) == 0);
  std::istringstream lines(plain);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("node ", 0) == 0) ++d.nodes;
    if (line.rfind("edge ", 0) == 0) ++d.edges;
  }
  std::remove(path.c_str());
  return d;
}

}  // namespace

TEST_CASE("dot draws a Nim heap of n as n + 1 positions and n(n + 1)/2 moves, Graphviz reading it", "[dot]") {
  const Drawn d = render("game Nim { state n  move k for k in 0..n-1 }\ndot(Nim(9))\n");
  CHECK(d.nodes == 10);
  CHECK(d.edges == 45);
  CHECK(d.doubled == 1);  // Nim(0) alone is P
}

TEST_CASE("dot draws the sums a split leaves as nodes of their own", "[dot]") {
  // Kayles(3) moves to Kayles(2), Kayles(1) + Kayles(1) and Kayles(1); those to Kayles(1)
  // and 0: five positions, seven moves, two of them P (the pair and 0).
  const Drawn d = render("import octal\ndot(Kayles(3))\n");
  CHECK(d.nodes == 5);
  CHECK(d.edges == 7);
  CHECK(d.doubled == 2);
}

TEST_CASE("dot stops at --max-rows positions, naming the limit", "[dot]") {
  SessionOptions options;
  options.limits.max_rows = 5;
  const test::RunResult r = test::run_source("game Nim { state n  move k for k in 0..n-1 }\ndot(Nim(5))\n", options);
  CHECK(r.code == 70);
  CHECK(r.err.find("the graph of Nim(5) has more than 5 positions") != std::string::npos);
  CHECK(r.err.find("--max-rows") != std::string::npos);
  const test::RunResult fits = test::run_source("game Nim { state n  move k for k in 0..n-1 }\ndot(Nim(4))\n", options);
  CHECK(fits.code == 0);
}

TEST_CASE("dot of a misere sum or a loopy game says why not", "[dot]") {
  const test::RunResult m = test::run_source("import octal\ndot(misere (Kayles(1) + Kayles(2)))\n");
  CHECK(m.code == 70);
  CHECK(m.err.find("dot draws normal play") != std::string::npos);
  const test::RunResult l = test::run_source("loopy game L { state n  move 1 - n }\ndot(L(0))\n");
  CHECK(l.code == 70);
  CHECK(l.err.find("loopy") != std::string::npos);
}
