#include "lang/Suggest.hpp"

#include <algorithm>

namespace grundy::lang {

std::size_t typo_distance(std::string_view a, std::string_view b) {
  // Three rows of the table: i - 2, i - 1 and i.
  std::vector<std::size_t> before(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t change = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + change});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], before[j - 2] + 1);
    }
    before.swap(prev);
    prev.swap(cur);
  }
  return prev[b.size()];
}

std::string nearest(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::size_t best_d = word.size() <= 5 ? 1 : 2;
  std::string_view best;
  bool found = false;
  for (std::string_view c : candidates) {
    if (c == word) continue;
    const std::size_t d = typo_distance(word, c);
    if (d < best_d || (d == best_d && !found)) {
      best_d = d;
      best = c;
      found = true;
    }
  }
  return found ? std::string(best) : std::string();
}

std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates) {
  const std::string n = nearest(word, candidates);
  return n.empty() ? std::string() : "did you mean '" + n + "'?";
}

}  // namespace grundy::lang
