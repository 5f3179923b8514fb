// --format json (lang/Json.hpp): every kind of value as a line that a JSON parser reads back
// in the shapes of LANGUAGE.md section 12, and diagnostics as JSON objects.
#include <nlohmann/json.hpp>

#include "lang/Json.hpp"
#include "tests/unit/support.hpp"

using namespace grundy;
using nlohmann::json;

namespace {

// Each line a program prints, parsed as JSON.
std::vector<json> json_lines(std::string_view source) {
  SessionOptions options;
  options.format = SessionOptions::Format::Json;
  const test::RunResult r = test::run_source(source, options);
  INFO(source << "\n" << r);
  REQUIRE(r.code == 0);
  std::vector<json> out;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) out.push_back(json::parse(line));
  return out;
}

}  // namespace

TEST_CASE("every kind of value round-trips through a JSON parser", "[json]") {
  const auto v = json_lines(
      "import octal\nimport nim\n"
      "42\n-9223372036854775807 - 1\ntrue\nN\n\"say \\\"hi\\\"\"\n(1, 2)\n(1,)\n[3, 1]\n{3, 1}\n2..5\n"
      "Kayles(10)\nBash[3](7)\nBash[3]\nKayles(3) + Kayles(4)\nmisere (Kayles(1) + Kayles(2))\n"
      "period(Kayles)\n[(1, [2, {3}]), Kayles(2)]\n");
  REQUIRE(v.size() == 17);
  CHECK(v[0] == 42);
  CHECK(v[1] == std::numeric_limits<std::int64_t>::min());
  CHECK(v[2] == true);
  CHECK(v[3] == "N");
  CHECK(v[4] == "say \"hi\"");
  CHECK(v[5] == json::array({1, 2}));
  CHECK(v[6] == json::array({1}));
  CHECK(v[7] == json::array({3, 1}));
  CHECK(v[8] == json::array({1, 3}));
  CHECK(v[9] == json{{"range", {2, 5}}});
  CHECK(v[10] == json{{"position", "Kayles(10)"}, {"game", "Kayles"}, {"params", json::array()}, {"state", 10}});
  CHECK(v[11] == json{{"position", "Bash[3](7)"}, {"game", "Bash"}, {"params", {3}}, {"state", 7}});
  CHECK(v[12] == json{{"game", "Bash"}, {"params", {3}}});
  REQUIRE(v[13]["sum"].size() == 2);
  CHECK(v[13]["sum"][1]["state"] == 4);
  CHECK_FALSE(v[13].contains("play"));
  CHECK(v[14]["play"] == "misere");
  CHECK(v[15] == json{{"start", 71}, {"period", 12}, {"proven", true}});
  CHECK(v[16][0] == json::array({1, json::array({2, json::array({3})})}));
  CHECK(v[16][1]["position"] == "Kayles(2)");
}

TEST_CASE("loopy values and quotients as JSON", "[json]") {
  const auto v = json_lines(
      "import octal\n"
      "loopy game L { state n  move n + 1 if n < 3  move 0 if n == 3 }\n"
      "grundy(L(0))\nquotient(Kayles)\n");
  REQUIRE(v.size() == 2);
  CHECK(v[0] == json{{"inf", json::array()}});
  CHECK(v[1]["game"] == "Kayles");
  CHECK(v[1]["quotient"].get<std::string>().find("|Q| = 40") != std::string::npos);
}

TEST_CASE("diagnostics under --format json are JSON objects on stderr", "[json]") {
  SessionOptions options;
  options.format = SessionOptions::Format::Json;
  const test::RunResult r = test::run_source("1\nfoo(2)\n", options);
  CHECK(r.code == 65);
  CHECK(r.out.empty());
  const json d = json::parse(r.err.substr(0, r.err.find('\n')));
  CHECK(d["file"] == "test.game");
  CHECK(d["line"] == 2);
  CHECK(d["column"] == 1);
  CHECK(d["severity"] == "error");
  CHECK(d["message"] == "unknown function 'foo'");
  const test::RunResult runtime = test::run_source("1 / 0\n", options);
  CHECK(runtime.code == 70);
  CHECK(json::parse(runtime.err.substr(0, runtime.err.find('\n')))["line"] == 1);
}

TEST_CASE("tables as JSON: rows, columns and cells, null where a grid has none", "[json]") {
  const auto v = json_lines(
      "table(n * n for n in 0..3)\n"
      "table(a * b for a in 1..2 for b in 1..a)\n");
  REQUIRE(v.size() == 2);
  CHECK(v[0] == json{{"row", "n"}, {"rows", {0, 1, 2, 3}}, {"columns", {"value"}}, {"cells", {{0}, {1}, {4}, {9}}}});
  CHECK(v[1]["column"] == "b");
  CHECK(v[1]["rows"] == json::array({1, 2}));
  CHECK(v[1]["columns"] == json::array({1, 2}));
  CHECK(v[1]["cells"] == json::array({json::array({1, nullptr}), json::array({2, 4})}));
}

TEST_CASE("format csv prints tables as CSV and other values as text", "[json]") {
  SessionOptions options;
  options.format = SessionOptions::Format::Csv;
  const test::RunResult r = test::run_source(
      "table(a xor b for a in 0..1 for b in 0..2)\n(1, 2)\ntable(\"x, \\\"y\\\"\" for k in 1..1)\n", options);
  INFO(r);
  REQUIRE(r.code == 0);
  CHECK(r.out == "a\\b,0,1,2\n0,0,1,2\n1,1,0,3\n(1, 2)\nk,value\n1,\"x, \"\"y\"\"\"\n");
}

TEST_CASE("on_value hands each printed value and its line to the embedder", "[json]") {
  SessionOptions options;
  std::vector<std::pair<json, std::uint32_t>> seen;
  options.on_value = [&](const Value& v, std::uint32_t line) { seen.emplace_back(lang::to_json(v), line); };
  const test::RunResult r = test::run_source(
      "import octal\nlet t = table(grundy(Kayles(n)) for n in 0..3)\nt\n\n[grundy(Kayles(n)) for n in 8..11]\n"
      "table(a + b for a in 0..1 for b in 0..1)\n",
      options);
  INFO(r);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("n 0 1 2 3") != std::string::npos);  // the text is printed as without the hook
  REQUIRE(seen.size() == 3);
  CHECK(seen[0].second == 3);
  CHECK(seen[0].first["rows"] == json::array({0, 1, 2, 3}));
  CHECK(seen[0].first["cells"] == json::parse("[[0], [1], [2], [3]]"));
  CHECK(seen[1].second == 5);
  CHECK(seen[1].first == json::array({1, 4, 2, 6}));  // Kayles 8..11
  CHECK(seen[2].second == 6);
  CHECK(seen[2].first["cells"] == json::parse("[[0, 1], [1, 2]]"));
}
