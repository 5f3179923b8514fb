#include "runtime/Every.hpp"

#include <algorithm>
#include <limits>

#include "runtime/SumSearch.hpp"

namespace grundy {

namespace {

struct Remoteness {
  SumSpace& space;
  struct Acc {
    bool next_wins = false;
    std::uint32_t best = 0;
  };
  std::uint32_t terminal() { return 0; }
  Acc start(const SumKey& key) {
    Acc a;
    a.next_wins = space.grundy(key) != 0;
    a.best = a.next_wins ? 0 : std::numeric_limits<std::uint32_t>::max();
    return a;
  }
  void add(Acc& a, const SumKey& option, std::uint32_t v) {
    if (a.next_wins) {
      if (space.grundy(option) == 0) a.best = std::max(a.best, v);
    } else {
      a.best = std::min(a.best, v);
    }
  }
  std::uint32_t finish(Acc& a) { return a.best + 1; }
};

}  // namespace

void EverySolver::clear() {
  memo_.clear();
  space_.clear();
}

std::uint32_t EverySolver::steps(const Option& component) {
  // A Nim heap moves to 0 (a P-position with no moves) or is 0: no search through its n options.
  if (component.size() == 1 && component[0].game->rules().is_nim())
    return component[0].state.as_int() > 0 ? 1 : 0;
  Remoteness rule{space_};
  return search_sum(space_.key(component), memo_, space_, limits_, "every", rule);
}

bool EverySolver::wins(const std::vector<Option>& components) {
  std::uint32_t longest = 0;
  for (const Option& c : components) longest = std::max(longest, steps(c));
  return longest % 2 == 1;
}

Option EverySolver::strategy_move(const Option& component) {
  const bool next_wins = ev_.grundy(component) != 0;
  Option best;
  bool have = false;
  std::uint32_t best_steps = 0;
  for (Option& o : sum_options(ev_, component)) {
    if (next_wins && ev_.grundy(o) != 0) continue;
    const std::uint32_t s = steps(o);
    if (!have || (next_wins ? s > best_steps : s < best_steps)) {
      best = std::move(o);
      best_steps = s;
      have = true;
    }
  }
  return best;
}

}  // namespace grundy
