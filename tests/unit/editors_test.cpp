// The TextMate grammar of editors/ (grundy.tmLanguage.json): valid JSON, naming every builtin
// of the language, and tokenising every .game file of the repository with no `invalid` scope.
// Its patterns keep to what Oniguruma (the editors' engine) and ECMAScript (std::regex, here)
// read alike, so that this tokeniser sees what an editor sees.
#include <filesystem>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "lang/BuiltinTable.hpp"
#include "tests/unit/support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kRoot = GRUNDY_SOURCE_DIR;

// A rule of the grammar: a `match`, or a `begin` ... `end` region with rules inside.
struct Rule {
  std::string name;
  std::regex match, begin, end;
  bool region = false;
  std::vector<std::string> capture_names;  // by group number
  std::vector<Rule> inside;
};

class Grammar {
 public:
  explicit Grammar(const json& g) : repo_(g.at("repository")) { rules_ = compile(g.at("patterns")); }

  // The scopes a line's tokens get, in order (the plain text between tokens has none).
  std::vector<std::string> scopes(const std::string& line) const {
    std::vector<std::string> out;
    std::size_t at = 0;
    const Rule* region = nullptr;
    while (at < line.size()) {
      const std::vector<Rule>& rules = region ? region->inside : rules_;
      std::smatch best;
      const Rule* best_rule = nullptr;
      bool best_is_end = false;
      auto flags = at > 0 ? std::regex_constants::match_prev_avail : std::regex_constants::match_default;
      const auto from = line.begin() + static_cast<std::ptrdiff_t>(at);
      if (region) {  // the region's end first: it wins a tie
        std::smatch m;
        if (std::regex_search(from, line.end(), m, region->end, flags)) {
          best = m;
          best_is_end = true;
        }
      }
      for (const Rule& r : rules) {
        std::smatch m;
        if (!std::regex_search(from, line.end(), m, r.region ? r.begin : r.match, flags)) continue;
        if (best_rule == nullptr && !best_is_end ? true : m.position(0) < best.position(0)) {
          best = m;
          best_rule = &r;
          best_is_end = false;
        }
      }
      if (!best_is_end && best_rule == nullptr) break;
      const std::size_t start = at + static_cast<std::size_t>(best.position(0));
      const std::size_t length = static_cast<std::size_t>(best.length(0));
      if (best_is_end) {
        out.push_back(region->name);
        region = nullptr;
      } else {
        out.push_back(best_rule->name);
        for (std::size_t g = 1; g < best.size() && g < best_rule->capture_names.size(); ++g) {
          if (best[static_cast<int>(g)].matched && !best_rule->capture_names[g].empty())
            out.push_back(best_rule->capture_names[g]);
        }
        if (best_rule->region) region = best_rule;
      }
      at = start + std::max<std::size_t>(length, 1);
      if (length == 0 && region == nullptr && !best_is_end) break;  // a rule that matches nothing
    }
    return out;
  }

 private:
  std::vector<Rule> compile(const json& patterns) const {
    std::vector<Rule> out;
    for (const json& p : patterns) {
      if (p.contains("include")) {
        const std::string key = p.at("include").get<std::string>().substr(1);  // "#name"
        const json& target = repo_.at(key);
        for (Rule& r : compile(target.contains("patterns") && !target.contains("begin") ? target.at("patterns")
                                                                                        : json::array({target})))
          out.push_back(std::move(r));
        continue;
      }
      if (p.contains("patterns") && !p.contains("begin")) {
        for (Rule& r : compile(p.at("patterns"))) out.push_back(std::move(r));
        continue;
      }
      Rule r;
      r.name = p.value("name", "");
      if (p.contains("begin")) {
        r.region = true;
        r.begin = std::regex(p.at("begin").get<std::string>());
        r.end = std::regex(p.at("end").get<std::string>());
        if (p.contains("patterns")) r.inside = compile(p.at("patterns"));
      } else {
        r.match = std::regex(p.at("match").get<std::string>());
      }
      if (p.contains("captures")) {
        for (const auto& [k, v] : p.at("captures").items()) {
          const auto g = static_cast<std::size_t>(std::stoul(k));
          if (r.capture_names.size() <= g) r.capture_names.resize(g + 1);
          r.capture_names[g] = v.value("name", "");
        }
      }
      out.push_back(std::move(r));
    }
    return out;
  }

  const json& repo_;
  std::vector<Rule> rules_;
};

json load_grammar() {
  const std::string text = grundy::test::read_file((kRoot / "editors" / "grundy.tmLanguage.json").string());
  REQUIRE(!text.empty());
  return json::parse(text);  // throws, and fails the test, on invalid JSON
}

bool any_invalid(const std::vector<std::string>& scopes) {
  return std::any_of(scopes.begin(), scopes.end(),
                     [](const std::string& s) { return s.find("invalid") != std::string::npos; });
}

}  // namespace

TEST_CASE("the TextMate grammar tokenises every .game file with no invalid scope", "[fast][editors]") {
  const json g = load_grammar();
  CHECK(g.at("scopeName") == "source.grundy");
  const Grammar grammar(g);
  int files = 0;
  for (const char* dir : {"examples", "stdlib", "tests", "docs"}) {
    for (const auto& entry : fs::recursive_directory_iterator(kRoot / dir)) {
      if (entry.path().extension() != ".game") continue;
      // The diagnostics cases are wrong on purpose, some in their characters.
      if (entry.path().parent_path().filename() == "diagnostics") continue;
      ++files;
      std::istringstream lines(grundy::test::read_file(entry.path().string()));
      int number = 0;
      for (std::string line; std::getline(lines, line);) {
        ++number;
        INFO(entry.path().string() << ":" << number << ": " << line);
        CHECK_FALSE(any_invalid(grammar.scopes(line)));
      }
    }
  }
  CHECK(files > 100);
}

TEST_CASE("the TextMate grammar knows the language: builtins, keywords, declarations", "[fast][editors]") {
  const json g = load_grammar();
  const Grammar grammar(g);
  auto has = [&](const std::string& line, const std::string& scope) {
    const auto s = grammar.scopes(line);
    return std::find(s.begin(), s.end(), scope) != s.end();
  };
  // Every builtin, so that one added to the language without the grammar fails here.
  for (const grundy::lang::BuiltinInfo& b : grundy::lang::kBuiltins) {
    INFO(b.name);
    CHECK(has(std::string(b.name) + "(x)", "support.function.builtin.grundy"));
  }
  CHECK(has("loopy game WindUp(n, S) { state i }", "entity.name.type.game.grundy"));
  CHECK(has("game Kayles = octal \"0.77\"", "string.quoted.double.grundy"));
  CHECK(has("def f(k) = k % 3", "entity.name.function.grundy"));
  CHECK(has("x # a comment", "comment.line.number-sign.grundy"));
  CHECK(has("misere (A + B)", "keyword.operator.word.grundy"));
  CHECK(has("outcome(X) == P", "constant.language.outcome.grundy"));
  // A name that is a builtin's but not called stays a name; characters the language lacks are invalid.
  CHECK_FALSE(has("let sum = 3", "support.function.builtin.grundy"));
  CHECK(any_invalid(grammar.scopes("let x = 3 @ 4")));
  CHECK(any_invalid(grammar.scopes("\"bad \\q escape\"")));
}
