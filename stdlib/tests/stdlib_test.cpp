// The embedded standard modules match stdlib/*.game byte for byte, and LANGUAGE.md §7's
// fixed names are all there.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "stdlib/Stdlib.hpp"

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("every stdlib/*.game file is embedded verbatim") {
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(GRUNDY_STDLIB_DIR)) {
    if (entry.path().extension() != ".game") continue;
    ++files;
    const std::string name = entry.path().stem().string();
    INFO("module " << name);
    const std::string_view* source = grundy::stdlib::find_module(name);
    REQUIRE(source != nullptr);
    CHECK(*source == read_file(entry.path()));
  }
  CHECK(grundy::stdlib::module_names().size() == files);
}

TEST_CASE("the names fixed by the language are there") {
  const auto names = grundy::stdlib::module_names();
  CHECK(std::is_sorted(names.begin(), names.end()));
  for (const char* name : {"nim", "octal", "wythoff", "fibonacci", "coins"}) {
    INFO("module " << name);
    CHECK(std::find(names.begin(), names.end(), name) != names.end());
  }
  struct Game {
    const char* module;
    const char* definition;
  };
  for (const Game& g :
       {Game{"nim", "game Nim "}, Game{"nim", "game Bash(m) "}, Game{"nim", "game SNim(S) "},
        Game{"octal", "game Kayles = octal \"0.77\""}, Game{"octal", "game Dawson = octal \"0.07\""},
        Game{"octal", "game DawsonsChess = octal \"0.137\""}, Game{"octal", "game Officers = octal \"0.6\""},
        Game{"octal", "game GrundysGame "}, Game{"wythoff", "game Wythoff "},
        Game{"fibonacci", "game FibNim "}, Game{"coins", "game MockTurtles "}}) {
    INFO(g.module << ": " << g.definition);
    const std::string_view* source = grundy::stdlib::find_module(g.module);
    REQUIRE(source != nullptr);
    CHECK(source->find(g.definition) != std::string_view::npos);
  }
}

TEST_CASE("unknown modules are not found") {
  CHECK(grundy::stdlib::find_module("") == nullptr);
  CHECK(grundy::stdlib::find_module("Nim") == nullptr);
  CHECK(grundy::stdlib::find_module("nim.game") == nullptr);
  CHECK(grundy::stdlib::find_module("tests") == nullptr);
}
