// Independent reference values for the known-values tests: plain loops over memo arrays,
// written from the games' definitions and sharing no code with the interpreter or runtime.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace grundy::brute {

using Values = std::vector<std::int64_t>;

inline std::int64_t mex_of(const std::set<std::int64_t>& seen) {
  std::int64_t m = 0;
  while (seen.count(m)) ++m;
  return m;
}

// Octal / hexadecimal take-and-break game "d0.d1d2...": removing k tokens from a heap
// (k = 0 only for d0) may leave no heap (bit 1, k >= 1 and the heap had exactly k), one
// non-empty heap (bit 2, k >= 1), two non-empty heaps (bit 4) or three (bit 8).
// Values for heap sizes 0..max_n.
inline Values octal(const std::string& code, int max_n) {
  std::vector<int> digit;
  for (char c : code) {
    if (c == '.') continue;
    digit.push_back(c >= 'a' ? c - 'a' + 10 : c - '0');
  }
  Values g(static_cast<std::size_t>(max_n) + 1, 0);
  for (int n = 0; n <= max_n; ++n) {
    std::set<std::int64_t> seen;
    for (int k = 0; k < static_cast<int>(digit.size()) && k <= n; ++k) {
      const int d = digit[static_cast<std::size_t>(k)];
      const int r = n - k;
      if (k >= 1 && (d & 1) && r == 0) seen.insert(0);
      if (k >= 1 && (d & 2) && r >= 1) seen.insert(g[static_cast<std::size_t>(r)]);
      if (d & 4) {
        for (int a = 1; a < r; ++a) {
          seen.insert(g[static_cast<std::size_t>(a)] ^ g[static_cast<std::size_t>(r - a)]);
        }
      }
      if (d & 8) {
        for (int a = 1; a < r; ++a) {
          for (int b = 1; a + b < r; ++b) {
            seen.insert(g[static_cast<std::size_t>(a)] ^ g[static_cast<std::size_t>(b)] ^
                        g[static_cast<std::size_t>(r - a - b)]);
          }
        }
      }
    }
    g[static_cast<std::size_t>(n)] = mex_of(seen);
  }
  return g;
}

// Grundy's game: split a heap into two non-empty heaps of different sizes.
inline Values grundys_game(int max_n) {
  Values g(static_cast<std::size_t>(max_n) + 1, 0);
  for (int n = 0; n <= max_n; ++n) {
    std::set<std::int64_t> seen;
    for (int a = 1; a < n; ++a) {
      if (a != n - a) seen.insert(g[static_cast<std::size_t>(a)] ^ g[static_cast<std::size_t>(n - a)]);
    }
    g[static_cast<std::size_t>(n)] = mex_of(seen);
  }
  return g;
}

// Subtraction game: take s tokens for some s in `set`.
inline Values subtraction(const std::vector<int>& set, int max_n) {
  Values g(static_cast<std::size_t>(max_n) + 1, 0);
  for (int n = 0; n <= max_n; ++n) {
    std::set<std::int64_t> seen;
    for (int s : set) {
      if (s <= n) seen.insert(g[static_cast<std::size_t>(n - s)]);
    }
    g[static_cast<std::size_t>(n)] = mex_of(seen);
  }
  return g;
}

// Lasker's Nim: take any positive number from a heap, or split it into two non-empty heaps.
inline Values lasker(int max_n) {
  Values g(static_cast<std::size_t>(max_n) + 1, 0);
  for (int n = 0; n <= max_n; ++n) {
    std::set<std::int64_t> seen;
    for (int k = 0; k < n; ++k) seen.insert(g[static_cast<std::size_t>(k)]);
    for (int a = 1; a < n; ++a) {
      seen.insert(g[static_cast<std::size_t>(a)] ^ g[static_cast<std::size_t>(n - a)]);
    }
    g[static_cast<std::size_t>(n)] = mex_of(seen);
  }
  return g;
}

// Mock Turtles, a single head at position k (from 1): turn it to tails and turn over up to
// two coins to its left; index 0 is unused (0).
inline Values mock_turtles(int max_k) {
  Values g(static_cast<std::size_t>(max_k) + 1, 0);
  for (int k = 1; k <= max_k; ++k) {
    std::set<std::int64_t> seen{0};
    for (int a = 1; a < k; ++a) {
      seen.insert(g[static_cast<std::size_t>(a)]);
      for (int b = a + 1; b < k; ++b) {
        seen.insert(g[static_cast<std::size_t>(a)] ^ g[static_cast<std::size_t>(b)]);
      }
    }
    g[static_cast<std::size_t>(k)] = mex_of(seen);
  }
  return g;
}

// Wythoff's game: g[a][b] for 0 <= a, b <= max.
inline std::vector<Values> wythoff(int max) {
  const auto m = static_cast<std::size_t>(max) + 1;
  std::vector<Values> g(m, Values(m, 0));
  for (std::size_t a = 0; a < m; ++a) {
    for (std::size_t b = 0; b < m; ++b) {
      std::set<std::int64_t> seen;
      for (std::size_t k = 1; k <= a; ++k) seen.insert(g[a - k][b]);
      for (std::size_t k = 1; k <= b; ++k) seen.insert(g[a][b - k]);
      for (std::size_t k = 1; k <= std::min(a, b); ++k) seen.insert(g[a - k][b - k]);
      g[a][b] = mex_of(seen);
    }
  }
  return g;
}

// Fibonacci Nim: does the player to move win at (n, limit)? Take 1..min(n, limit) tokens;
// the next limit is twice what was taken (k times, for the k-multiple game).
class FibNim {
 public:
  // `multiple`: the opponent may take up to that many times the last take (2: Fibonacci nim).
  explicit FibNim(std::int64_t multiple = 2) : multiple_(multiple) {}
  bool wins(std::int64_t n, std::int64_t limit) {
    limit = std::min(limit, n);  // taking more than n is impossible anyway
    auto key = std::make_pair(n, limit);
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    bool w = false;
    for (std::int64_t k = 1; k <= limit && !w; ++k) w = !wins(n - k, multiple_ * k);
    memo_[key] = w;
    return w;
  }

 private:
  std::int64_t multiple_;
  std::map<std::pair<std::int64_t, std::int64_t>, bool> memo_;
};

// The cutting game of the design examples: cut a w x h sheet into two pieces, each at least
// 2 wide in the cut direction (a player who can only make 1-wide pieces has lost).
inline std::vector<Values> cut(int max) {
  const auto m = static_cast<std::size_t>(max) + 1;
  std::vector<Values> g(m, Values(m, 0));
  for (std::size_t w = 0; w < m; ++w) {
    for (std::size_t h = 0; h < m; ++h) {
      std::set<std::int64_t> seen;
      for (std::size_t i = 2; i + 2 <= w; ++i) seen.insert(g[i][h] ^ g[w - i][h]);
      for (std::size_t j = 2; j + 2 <= h; ++j) seen.insert(g[w][j] ^ g[w][h - j]);
      g[w][h] = mex_of(seen);
    }
  }
  return g;
}

// Play of two subtraction-game heaps with the set {1, 3, 4}-style `set`, played out
// directly rather than through any theorem.
class TwoHeaps {
 public:
  explicit TwoHeaps(std::vector<int> set) : set_(std::move(set)) {}

  std::vector<int> moves(int n) const {
    std::vector<int> out;
    for (int s : set_) {
      if (s <= n) out.push_back(n - s);
    }
    return out;
  }

  // Misère play of the sum: whoever makes the last move loses; no move means a win.
  bool misere_wins(int a, int b) {
    auto key = std::make_pair(a, b);
    if (auto it = misere_.find(key); it != misere_.end()) return it->second;
    bool any = false, w = false;
    for (int x : moves(a)) {
      any = true;
      if (!misere_wins(x, b)) w = true;
    }
    for (int y : moves(b)) {
      any = true;
      if (!misere_wins(a, y)) w = true;
    }
    if (!any) w = true;
    misere_[key] = w;
    return w;
  }

  // Every-SG: the mover moves in every heap that still has a move; no move loses.
  bool every_wins(int a, int b) {
    auto key = std::make_pair(a, b);
    if (auto it = every_.find(key); it != every_.end()) return it->second;
    const auto ma = moves(a), mb = moves(b);
    bool w = false;
    if (!ma.empty() && !mb.empty()) {
      for (int x : ma) {
        for (int y : mb) {
          if (!every_wins(x, y)) w = true;
        }
      }
    } else if (!ma.empty()) {
      for (int x : ma) {
        if (!every_wins(x, b)) w = true;
      }
    } else if (!mb.empty()) {
      for (int y : mb) {
        if (!every_wins(a, y)) w = true;
      }
    }
    every_[key] = w;
    return w;
  }

  // Remoteness for Every-SG of one heap (Smith; Jia's recursion): 0 when terminal; a
  // winner (some option with even steps) takes the slowest winning line, a loser the
  // fastest.
  std::int64_t steps(int n) {
    if (auto it = steps_.find(n); it != steps_.end()) return it->second;
    const auto ms = moves(n);
    std::int64_t best_win = -1, best_lose = -1;
    for (int x : ms) {
      const std::int64_t s = steps(x);
      if (s % 2 == 0) best_win = std::max(best_win, s + 1);
      else best_lose = best_lose < 0 ? s + 1 : std::min(best_lose, s + 1);
    }
    const std::int64_t r = ms.empty() ? 0 : (best_win >= 0 ? best_win : best_lose);
    steps_[n] = r;
    return r;
  }

 private:
  std::vector<int> set_;
  std::map<std::pair<int, int>, bool> misere_;
  std::map<std::pair<int, int>, bool> every_;
  std::map<int, std::int64_t> steps_;
};

// Fibonacci numbers 2, 3, 5, 8, ... up to max.
inline Values fibonacci_upto(std::int64_t max) {
  Values out;
  for (std::int64_t a = 1, b = 2; b <= max;) {
    out.push_back(b);
    const std::int64_t c = a + b;
    a = b;
    b = c;
  }
  return out;
}

// The smallest period p of g (checked over the computed range), and the first index n0
// from which it holds.
inline std::pair<std::int64_t, std::int64_t> period(const Values& g, std::int64_t max_p) {
  const auto n = static_cast<std::int64_t>(g.size());
  for (std::int64_t p = 1; p <= max_p; ++p) {
    std::int64_t n0 = n - p;  // walk down while g[i] == g[i + p]
    while (n0 > 0 && g[static_cast<std::size_t>(n0 - 1)] == g[static_cast<std::size_t>(n0 - 1 + p)]) --n0;
    if (n0 + 3 * p < n / 2) return {n0, p};  // seen repeating over a long stretch
  }
  return {-1, -1};
}

}  // namespace grundy::brute
