// The outcome search of compiled rules stops listing a state's options at the first one known
// to lose (OutcomeSearch.cpp: batches, kept options, resumed runs and listings). A stop or a
// resumption in the wrong place changes answers only on some states, so the search is checked
// against a hand-written solver on random instances of Can I Win (LeetCode 464), from the start
// and from random states in the middle of a game.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/unit/support.hpp"

namespace {

// Can I Win as a contest solution writes it: the numbers used as a bitmask (bit k: k used),
// the total implied by it, a memo per mask.
struct CanIWin {
  int m, t;
  std::vector<std::int8_t> memo;
  CanIWin(int m_, int t_) : m(m_), t(t_), memo(std::size_t{1} << (m_ + 1), -1) {}
  bool wins(std::uint32_t used, int total) {
    if (total >= t) return false;  // the game is over: no move
    std::int8_t& r = memo[used];
    if (r >= 0) return r != 0;
    bool w = false;
    for (int k = 1; k <= m && !w; ++k) {
      if (used >> k & 1u) continue;
      w = total + k >= t || !wins(used | (1u << k), total + k);
    }
    r = w ? 1 : 0;
    return w;
  }
};

// The two clauses in either order: the terminal moves listed first or last.
std::string rules(bool terminal_first) {
  const std::string end = "  move ({0}, T) for k in 1..M if not (k in used) and total + k >= T and total < T\n";
  const std::string on = "  move (used + {k}, total + k) for k in 1..M if not (k in used) and total + k < T\n";
  return "game C(M, T) { state (used, total)\n" + (terminal_first ? end + on : on + end) + "}\n";
}

std::string set_text(std::uint32_t used) {
  std::string s = "{";
  for (int k = 1; k < 32; ++k) {
    if (used >> k & 1u) s += (s.size() > 1 ? ", " : "") + std::to_string(k);
  }
  return s + "}";
}

}  // namespace

TEST_CASE("the early-stopping outcome search agrees with a bitmask solver on Can I Win", "[fast][search]") {
  std::mt19937 rng(464);
  for (int round = 0; round < 24; ++round) {
    const int m = 3 + static_cast<int>(rng() % 10);  // 3..12
    const int most = m * (m + 1) / 2;
    const int t = 1 + static_cast<int>(rng() % static_cast<unsigned>(most + 2));
    const bool terminal_first = round % 2 == 0;
    CanIWin hand(m, t);
    std::string program = rules(terminal_first);
    std::string want;
    // The start, then states in the middle of a game: random sets, their totals below T.
    std::vector<std::uint32_t> starts{0};
    for (int i = 0; i < 12; ++i) {
      std::uint32_t used = 0;
      int total = 0;
      for (int k = 1; k <= m; ++k) {
        if (rng() % 3 == 0 && total + k < t) {
          used |= 1u << k;
          total += k;
        }
      }
      starts.push_back(used);
    }
    for (const std::uint32_t used : starts) {
      int total = 0;
      for (int k = 1; k <= m; ++k) total += (used >> k & 1u) ? k : 0;
      program += "wins(C[" + std::to_string(m) + ", " + std::to_string(t) + "](" + set_text(used) + ", " +
                 std::to_string(total) + "))\n";
      want += hand.wins(used, total) ? "true\n" : "false\n";
    }
    const auto got = grundy::test::run_explained(program);
    INFO("M = " << m << ", T = " << t << "\n" << program);
    // The compiled rules' search, not the rules as written, is what is checked.
    CHECK(got.explain.find("compiled rules") != std::string::npos);
    CHECK(got.out == want);
  }
}
