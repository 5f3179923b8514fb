// misère and every: every shortcut against the exact search, and the exact search against
// brute forces written here from the rules alone.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <random>

#include "runtime/Every.hpp"
#include "runtime/Misere.hpp"
#include "runtime/Nim.hpp"
#include "runtime/Shorthands.hpp"

using namespace grundy;

namespace {

struct Fixture {
  GameRegistry games;
  Limits limits;
  Evaluator ev{games, limits};
  MisereSolver misere{ev, games, limits};
  EverySolver every{ev, limits};
  const GameInstance* inst(std::shared_ptr<const Ruleset> r) { return games.instance(r, Value::tuple({})); }
};

Sum heaps(const GameInstance* g, const std::vector<int>& ns) {
  Sum o;
  for (int n : ns) o.parts.push_back(Position{g, Value::integer(n)});
  return o;
}

// All multisets of `count` values from 0..max (non-decreasing vectors).
void multisets(int count, int max, const std::function<void(const std::vector<int>&)>& f) {
  std::vector<int> v(static_cast<std::size_t>(count), 0);
  std::function<void(std::size_t, int)> rec = [&](std::size_t i, int lo) {
    if (i == v.size()) {
      f(v);
      return;
    }
    for (int x = lo; x <= max; ++x) {
      v[i] = x;
      rec(i + 1, x);
    }
  };
  rec(0, 0);
}

// Misère play of a sum of heaps by brute force, for a heap game given by its move function
// (each move of heap n: the heaps it leaves).
struct MisereBrute {
  std::function<std::vector<std::vector<int>>(int)> moves;
  std::map<std::vector<int>, bool> memo;
  bool wins(std::vector<int> s) {
    s.erase(std::remove(s.begin(), s.end(), 0), s.end());
    std::sort(s.begin(), s.end());
    if (auto it = memo.find(s); it != memo.end()) return it->second;
    bool any_move = false, win = false;
    for (std::size_t i = 0; i < s.size() && !win; ++i) {
      for (const auto& leave : moves(s[i])) {
        any_move = true;
        std::vector<int> t = s;
        t.erase(t.begin() + static_cast<std::ptrdiff_t>(i));
        t.insert(t.end(), leave.begin(), leave.end());
        if (!wins(t)) {
          win = true;
          break;
        }
      }
    }
    if (!any_move) win = true;  // the opponent moved last
    return memo[s] = win;
  }
};

// Kayles: knock down one pin or two adjacent pins of a row of n.
std::vector<std::vector<int>> kayles_moves(int n) {
  std::vector<std::vector<int>> out;
  for (int t = 1; t <= 2; ++t) {
    for (int a = 0; a + t <= n; ++a) out.push_back({a, n - t - a});
  }
  return out;
}

// Dawson's Kayles (0.07): remove two adjacent pins.
std::vector<std::vector<int>> dawson_moves(int n) {
  std::vector<std::vector<int>> out;
  for (int a = 0; a + 2 <= n; ++a) out.push_back({a, n - 2 - a});
  return out;
}

}  // namespace

TEST_CASE("misere Nim: Bouton's rule against the exact search, up to 4 heaps of size 6", "[misere]") {
  Fixture f;
  const GameInstance* nim = f.inst(std::make_shared<NimRuleset>("Nim"));
  MisereBrute brute{[](int n) {
                      std::vector<std::vector<int>> out;
                      for (int k = 0; k < n; ++k) out.push_back({k});
                      return out;
                    },
                    {}};
  int checked = 0;
  for (int count = 1; count <= 4; ++count) {
    multisets(count, 6, [&](const std::vector<int>& v) {
      MisereSolver::Method how{};
      const bool shortcut = f.misere.wins(heaps(nim, v), &how);
      const bool exact = f.misere.misere_grundy(heaps(nim, v)) != 0;
      INFO("heaps " << Catch::Detail::stringify(v));
      CHECK(shortcut == exact);
      CHECK(exact == brute.wins(v));
      if (std::any_of(v.begin(), v.end(), [](int n) { return n > 0; })) {
        CHECK(how == MisereSolver::Method::MisereNim);
      }
      ++checked;
    });
  }
  CHECK(checked == 7 + 28 + 84 + 210);
}

TEST_CASE("misere Kayles and Dawson's Kayles sums against a brute force (total size <= 14)", "[misere]") {
  Fixture f;
  const GameInstance* kayles = f.inst(std::make_shared<TakeAndBreakRuleset>("Kayles", "0.77"));
  const GameInstance* dawson = f.inst(std::make_shared<TakeAndBreakRuleset>("Dawson", "0.07"));
  MisereBrute kb{kayles_moves, {}};
  MisereBrute db{dawson_moves, {}};
  for (int count = 1; count <= 3; ++count) {
    multisets(count, 14, [&](const std::vector<int>& v) {
      int total = 0;
      for (int n : v) total += n;
      if (total > 14) return;
      INFO("heaps " << Catch::Detail::stringify(v));
      MisereSolver::Method how{};
      CHECK(f.misere.wins(heaps(kayles, v), &how) == kb.wins(v));
      // A Kayles heap of 3 or more can split into two rows: no theorem may be used then,
      // only a search (of the sum, or of the one heap's outcome) or Kayles' misere quotient.
      if (std::any_of(v.begin(), v.end(), [](int n) { return n >= 3; })) {
        const auto live = std::count_if(v.begin(), v.end(), [](int n) { return n > 0; });
        if (live == 1) CHECK(how == MisereSolver::Method::OnePosition);
        else CHECK((how == MisereSolver::Method::Exact || how == MisereSolver::Method::Quotient));
      }
      CHECK(f.misere.wins(heaps(dawson, v)) == db.wins(v));
      // The outcome search stops at a sum's first losing option; the misère nim-value
      // searches them all. Both must agree with the brute force.
      CHECK((f.misere.misere_grundy(heaps(dawson, v)) != 0) == db.wins(v));
    });
  }
  // Single misère Kayles rows against the brute force further out; the first P-positions are
  // 1, 4, 9, 12 (Winning Ways, the genera 1^031 1^031 4^046 4^046).
  std::vector<int> p_positions;
  for (int n = 0; n <= 24; ++n) {
    const bool w = f.misere.wins(heaps(kayles, {n}));
    CHECK(w == kb.wins({n}));
    if (!w) p_positions.push_back(n);
  }
  CHECK(std::vector<int>(p_positions.begin(), p_positions.begin() + 4) == std::vector<int>{1, 4, 9, 12});
}

TEST_CASE("misere: non-tame positions where the nim-value rules would be wrong", "[misere]") {
  // Kayles(8) has nim-value 1, so Bouton's rule on nim-values (and the SJ rule) would call it
  // a loss for the mover; its genus is 1^13 and the mover wins.
  Fixture f;
  const GameInstance* kayles = f.inst(std::make_shared<TakeAndBreakRuleset>("Kayles", "0.77"));
  CHECK(f.ev.grundy(heaps(kayles, {8})) == 1);
  CHECK(f.misere.wins(heaps(kayles, {8})));
  CHECK_FALSE(f.misere.sj_applies(Position{kayles, Value::integer(8)}));
  // Bash[2]: heap 3 has value 0 but can still move, so SJ's condition fails; the exact search
  // must agree with the brute force on every small sum.
  auto bash = std::make_shared<SubtractionRuleset>("Bash", std::vector<std::int64_t>{1, 2});
  const GameInstance* b = f.inst(bash);
  MisereBrute brute{[](int n) {
                      std::vector<std::vector<int>> out;
                      for (int k = 1; k <= 2 && k <= n; ++k) out.push_back({n - k});
                      return out;
                    },
                    {}};
  CHECK_FALSE(f.misere.sj_applies(Position{b, Value::integer(3)}));
  for (int count = 1; count <= 3; ++count) {
    multisets(count, 8, [&](const std::vector<int>& v) {
      INFO("heaps " << Catch::Detail::stringify(v));
      CHECK(f.misere.wins(heaps(b, v)) == brute.wins(v));
    });
  }
}

TEST_CASE("misere: the SJ theorem agrees with the exact search wherever it is used", "[misere]") {
  // Random DAGs; tokens on them as sums. Where sj_applies holds, wins() takes the SJ path.
  std::mt19937 rng(12345);
  int sj_used = 0;
  for (int trial = 0; trial < 60; ++trial) {
    Fixture f;
    const int n = 7;
    std::vector<GraphRuleset::Node> nodes;
    for (int i = 0; i < n; ++i) nodes.push_back({Value::integer(i), {}});
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < i; ++j) {
        if (rng() % 3 == 0)
          nodes[static_cast<std::size_t>(i)].successors.push_back(static_cast<std::size_t>(j));
      }
    }
    const GameInstance* g = f.inst(std::make_shared<GraphRuleset>("G", std::move(nodes)));
    for (int count = 1; count <= 3; ++count) {
      multisets(count, n - 1, [&](const std::vector<int>& v) {
        MisereSolver::Method how{};
        const bool fast = f.misere.wins(heaps(g, v), &how);
        const bool exact = f.misere.misere_grundy(heaps(g, v)) != 0;
        INFO("trial " << trial << " tokens " << Catch::Detail::stringify(v));
        CHECK(fast == exact);
        if (how == MisereSolver::Method::SJ) ++sj_used;
      });
    }
  }
  CHECK(sj_used > 100);  // the comparison above really exercised the theorem
}

TEST_CASE("genus of Nim heaps and Kayles (Conway, Winning Ways)", "[misere]") {
  Fixture f;
  const GameInstance* nim = f.inst(std::make_shared<NimRuleset>("Nim"));
  CHECK(f.misere.genus(heaps(nim, {0})) == "0^120");
  CHECK(f.misere.genus(heaps(nim, {1})) == "1^031");
  CHECK(f.misere.genus(heaps(nim, {2})) == "2^20");
  CHECK(f.misere.genus(heaps(nim, {3})) == "3^31");
  CHECK(f.misere.genus(heaps(nim, {1, 1})) == "0^120");
  const GameInstance* kayles = f.inst(std::make_shared<TakeAndBreakRuleset>("Kayles", "0.77"));
  std::vector<std::string> got;
  for (int n = 1; n <= 12; ++n) got.push_back(f.misere.genus(heaps(kayles, {n})));
  CHECK(got == std::vector<std::string>{"1^031", "2^20", "3^31", "1^031", "4^146", "3^31", "2^20", "1^13",
                                        "4^046", "2^20", "6^46", "4^046"});
}

namespace {
// Every-SG by brute force: the mover must move in every component that can move.
struct EveryBrute {
  std::function<std::vector<int>(int, int)> moves;  // (component kind, heap) -> heaps
  std::map<std::vector<std::pair<int, int>>, bool> memo;
  bool wins(const std::vector<std::pair<int, int>>& s) {
    if (auto it = memo.find(s); it != memo.end()) return it->second;
    std::vector<std::vector<int>> choices;
    bool any = false;
    for (const auto& [kind, n] : s) {
      auto m = moves(kind, n);
      if (m.empty()) m.push_back(n);  // a component without moves stays
      else any = true;
      choices.push_back(m);
    }
    bool win = false;
    if (any) {
      std::vector<std::size_t> pick(s.size(), 0);
      while (!win) {
        std::vector<std::pair<int, int>> t = s;
        for (std::size_t i = 0; i < s.size(); ++i) t[i].second = choices[i][pick[i]];
        if (!wins(t)) win = true;
        std::size_t i = 0;
        for (; i < s.size(); ++i) {
          if (++pick[i] < choices[i].size()) break;
          pick[i] = 0;
        }
        if (i == s.size()) break;
      }
    }
    return memo[s] = win;
  }
};
}  // namespace

TEST_CASE("every: Jia's steps rule against a brute force of every-play", "[every]") {
  Fixture f;
  const std::vector<std::vector<std::int64_t>> sets{{1, 2}, {1, 2, 3}, {1, 3, 4}, {2, 5}};
  std::vector<const GameInstance*> games;
  for (std::size_t i = 0; i < sets.size(); ++i) {
    games.push_back(f.inst(std::make_shared<SubtractionRuleset>("S" + std::to_string(i), sets[i])));
  }
  EveryBrute brute{[&](int kind, int n) {
                     std::vector<int> out;
                     for (std::int64_t s : sets[static_cast<std::size_t>(kind)]) {
                       if (s <= n) out.push_back(n - static_cast<int>(s));
                     }
                     return out;
                   },
                   {}};
  int checked = 0;
  for (int a = 0; a < 4; ++a) {
    for (int b = a; b < 4; ++b) {
      for (int x = 0; x <= 9; ++x) {
        for (int y = 0; y <= 9; ++y) {
          for (int z = 0; z <= 6; z += 3) {
            std::vector<std::pair<int, int>> s{{a, x}, {b, y}, {0, z}};
            std::vector<Sum> comps{heaps(games[static_cast<std::size_t>(a)], {x}),
                                   heaps(games[static_cast<std::size_t>(b)], {y}), heaps(games[0], {z})};
            INFO("components " << a << ":" << x << " " << b << ":" << y << " 0:" << z);
            CHECK(f.every.wins(comps) == brute.wins(s));
            ++checked;
          }
        }
      }
    }
  }
  CHECK(checked == 10 * 100 * 3);
  // One component: every play is ordinary play, so steps is odd exactly at N-positions.
  for (int n = 0; n <= 30; ++n) {
    const Sum one = heaps(games[2], {n});
    CHECK((f.every.steps(one) % 2 == 1) == (f.ev.grundy(one) != 0));
  }
}

namespace {
// Rules no code describes: halve the heap (rounding down) or take one token.
class HalveOrTake : public Ruleset {
 public:
  const std::string& name() const override { return name_; }
  std::unique_ptr<OptionCursor> options(const GameInstance& g, const Value& state) const override {
    std::vector<Option> out;
    const std::int64_t n = state.as_int();
    if (n > 0) {
      out.push_back({Position{&g, Value::integer(n / 2)}});
      out.push_back({Position{&g, Value::integer(n - 1)}});
    }
    return std::make_unique<ListCursor>(std::move(out));
  }

 private:
  std::string name_ = "H";
};
}  // namespace

TEST_CASE("misere sums of heaps of rules no code describes, by their quotient and by the search",
          "[misere][quotient]") {
  Fixture f;
  f.misere.exact_first = 0;  // small sums would go to the search first
  const GameInstance* h = f.inst(std::make_shared<HalveOrTake>());
  int by_quotient = 0;
  for (int count = 2; count <= 4; ++count) {
    multisets(count, 12, [&](const std::vector<int>& v) {
      INFO("heaps " << Catch::Detail::stringify(v));
      MisereSolver::Method how{};
      const bool fast = f.misere.wins(heaps(h, v), &how);
      CHECK(fast == (f.misere.misere_grundy(heaps(h, v)) != 0));
      if (how == MisereSolver::Method::Quotient) ++by_quotient;
    });
  }
  CHECK(by_quotient > 100);  // the comparison really went through the quotient
  // quotient(H, 8) has no code to prove a period with: a partial quotient of heaps to 8.
  const auto q = f.misere.quotient(*h, 8);
  CHECK_FALSE(q->period);
  CHECK(q->reached == 8);
  CHECK(q->stopped.empty());
}

TEST_CASE("misere sums mixing heaps of several games, by the quotient of their union and by a brute force",
          "[misere][quotient]") {
  Fixture f;
  f.misere.exact_first = 0;  // small sums would go to the search first
  // Kayles, 0.75 and halving or taking one.
  const std::vector<const GameInstance*> games = {
      f.inst(std::make_shared<TakeAndBreakRuleset>("Kayles", "0.77")),
      f.inst(std::make_shared<TakeAndBreakRuleset>("G075", "0.75")), f.inst(std::make_shared<HalveOrTake>())};
  // A heap of game g of size n is the number 16 g + n (n < 16) for the brute force.
  MisereBrute brute{[](int code) {
                      const int g = code / 16, n = code % 16;
                      std::vector<std::vector<int>> out;
                      const auto heap = [g](int m) { return m == 0 ? 0 : 16 * g + m; };
                      if (g == 0) {
                        for (const auto& leave : kayles_moves(n)) out.push_back({heap(leave[0]), heap(leave[1])});
                      } else if (g == 1) {  // 7: take one, leaving 0, 1 or 2 heaps; 5: take two, 0 or 2
                        if (n >= 1) out.push_back({heap(n - 1)});
                        for (int a = 1; a <= n - 2; ++a) out.push_back({heap(a), heap(n - 1 - a)});
                        if (n == 2) out.push_back({});
                        for (int a = 1; a <= n - 3; ++a) out.push_back({heap(a), heap(n - 2 - a)});
                      } else if (n > 0) {
                        out.push_back({heap(n / 2)});
                        out.push_back({heap(n - 1)});
                      }
                      return out;
                    },
                    {}};
  std::mt19937 rng(7);
  int by_quotient = 0, won = 0;
  for (int trial = 0; trial < 600; ++trial) {
    Sum s;
    std::vector<int> codes;
    const int count = 2 + static_cast<int>(rng() % 3);
    for (int i = 0; i < count; ++i) {
      const int g = static_cast<int>(rng() % 3), n = 1 + static_cast<int>(rng() % 9);
      s.parts.push_back(Position{games[static_cast<std::size_t>(g)], Value::integer(n)});
      codes.push_back(16 * g + n);
    }
    INFO("heaps (16 game + size) " << Catch::Detail::stringify(codes));
    MisereSolver::Method how{};
    const bool fast = f.misere.wins(s, &how);
    CHECK(fast == brute.wins(codes));
    if (how == MisereSolver::Method::Quotient) ++by_quotient;
    won += fast ? 1 : 0;
  }
  CHECK(by_quotient > 400);  // the mixed sums went through the union's quotient
  CHECK(won > 100);          // and both outcomes were met
  CHECK(won < 500);
}

TEST_CASE("a small misere sum is searched before its quotient is built, a large one goes to the quotient",
          "[misere][quotient]") {
  Fixture f;
  const GameInstance* dawson = f.inst(std::make_shared<TakeAndBreakRuleset>("Dawson", "0.07"));
  // Kayles with its code, as the language plans it: a kernel, whose code proves the quotient.
  const auto kayles_rules = std::make_shared<TakeAndBreakRuleset>("Kayles", "0.77");
  const GameInstance* kayles =
      f.games.instance(kayles_rules, Value::tuple({}), [&](const GameInstance&) { return kayles_rules->plan(); });
  MisereBrute db{dawson_moves, {}};
  // Dawson's Kayles to heap 31 has a quotient of 520 elements (seconds to build); the sum's
  // own search takes a few thousand sums.
  MisereSolver::Method how{};
  CHECK(f.misere.wins(heaps(dawson, {31, 5}), &how) == db.wins({31, 5}));
  CHECK(how == MisereSolver::Method::Exact);
  // Heaps past what any search could take on: the quotient (Kayles' is proven periodic).
  Sum far;
  for (int i = 0; i < 50; ++i) far.parts.push_back(Position{kayles, Value::integer(1000000000000LL + i)});
  f.misere.wins(far, &how);
  CHECK(how == MisereSolver::Method::Quotient);
  // Once built, the quotient answers small sums too.
  f.misere.wins(heaps(kayles, {30, 25, 20}), &how);
  CHECK(how == MisereSolver::Method::Quotient);
}
