#include "runtime/Every.hpp"

#include <algorithm>
#include <limits>

#include <absl/container/flat_hash_set.h>

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

std::uint32_t EverySolver::steps(const Sum& component) {
  // A Nim heap moves to 0 (a P-position with no moves) or is 0: no search through its n options.
  if (component.size() == 1 && component[0].game->rules().is_nim())
    return component[0].state.as_int() > 0 ? 1 : 0;
  Remoteness rule{space_};
  return search_sum(space_.key(component), memo_, space_, limits_, "every", rule);
}

bool EverySolver::wins(const std::vector<Sum>& components) {
  std::uint32_t longest = 0;
  for (const Sum& c : components) longest = std::max(longest, steps(c));
  return longest % 2 == 1;
}

Sum EverySolver::strategy_move(const Sum& component) {
  const bool next_wins = ev_.grundy(component) != 0;
  Sum best;
  bool have = false;
  std::uint32_t best_steps = 0;
  for (Sum& o : sum_options(ev_, component)) {
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

std::vector<Value> EverySolver::options(const std::vector<Sum>& comps, bool winning_only) {
  // Each component with a move must move: the options are one choice per such component.
  std::vector<std::vector<Sum>> choices;
  for (const Sum& c : comps) {
    if (winning_only) {
      std::vector<Sum> one;
      if (!sum_options(ev_, c).empty()) one.push_back(strategy_move(c));
      choices.push_back(std::move(one));
    } else {
      choices.push_back(sum_options(ev_, c));
    }
  }
  std::vector<Value> out;
  if (std::all_of(choices.begin(), choices.end(), [](const auto& c) { return c.empty(); })) return out;
  const std::size_t k = comps.size();
  // Each choice as a component value, and sorted as a key, made once: a combination only
  // gathers k of them.
  std::vector<std::vector<Value>> made(k), keys(k);
  // --max-memory: the choices made into values, and their keys, which share the states
  // (what a move made, a list state, is counted once); then the options and their keys.
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const std::vector<Sum> own{comps[i]};
    for (const Sum& chosen : choices[i].empty() ? own : choices[i]) {
      std::vector<Value> ps;
      for (const Position& p : chosen) {
        ps.push_back(Value::position(p.game, p.state));
        bytes += p.state.bytes();
      }
      made[i].push_back(Value::sum(ps));
      std::sort(ps.begin(), ps.end());
      keys[i].push_back(Value::sum(std::move(ps)));
      bytes += 2 * (kValueBodyBytes + chosen.size() * (sizeof(Value) + kValueBodyBytes));
    }
  }
  // Equal components have the same choices, and swapping their picks gives the same option
  // as a multiset: of those, only picks that do not decrease along a run of equal components
  // are made (the first of each such option in the order below is one of them). Eight
  // copies of Nim(20) combine in C(27, 8) ways, not 20^8.
  std::vector<std::size_t> same(k, k);  // the previous component equal to this one
  std::uint64_t combinations = 1;
  for (std::size_t i = 0; i < k; ++i) {
    if (choices[i].empty()) continue;
    std::uint64_t run = 1;  // components equal to i up to it: C(c + run - 1, run) ways
    for (std::size_t j = i; j-- > 0;) {
      if (!choices[j].empty() && comps[j] == comps[i]) {
        if (same[i] == k) same[i] = j;
        ++run;
      }
    }
    // The factor this component adds: C(c + run - 1, run) / C(c + run - 2, run - 1) =
    // (c + run - 1) / run, exact when taken in this order (past 2^64: 2^64).
    std::uint64_t next = 0;
    if (__builtin_mul_overflow(combinations, choices[i].size() + run - 1, &next)) combinations = UINT64_MAX;
    else combinations = next / run;
  }
  // Each combination is a step (--max-steps); more than the steps left is an error at once.
  const std::uint64_t left = limits_.max_steps > limits_.steps ? limits_.max_steps - limits_.steps : 0;
  if (combinations > left) {
    throw Error(
        ErrorKind::Limit,
        "the options of this every sum combine " +
            (combinations == UINT64_MAX ? std::string("more than 2^64") : std::to_string(combinations)) +
            " choices of moves, more than the " + std::to_string(limits_.max_steps) +
            " steps a statement may take",
        "raise the limit with --max-steps N, or ask outcome/winning instead");
  }
  absl::flat_hash_set<std::vector<Value>> seen;  // options equal as multisets are listed once
  std::vector<std::size_t> pick(k, 0);
  auto lowest = [&](std::size_t i) { return same[i] == k ? std::size_t{0} : pick[same[i]]; };
  for (std::size_t i = 0; i < k; ++i) pick[i] = lowest(i);

  while (true) {
    limits_.charge(1);
    std::vector<Value> parts, key;
    parts.reserve(k);
    key.reserve(k);
    for (std::size_t i = 0; i < k; ++i) {
      parts.push_back(made[i][pick[i]]);
      key.push_back(keys[i][pick[i]]);
    }
    std::sort(key.begin(), key.end());
    if (seen.insert(std::move(key)).second) {
      out.push_back(Value::sum(std::move(parts), Modifier::Every));
      bytes += kValueBodyBytes + 2 * k * sizeof(Value) + 3 * sizeof(Value);
      check_memory(limits_, ev_.held_bytes() + bytes, "the list of options");
    }
    if (out.size() > limits_.max_rows) {
      throw Error(ErrorKind::Limit,
                  "more than " + std::to_string(limits_.max_rows) + " options of an every sum",
                  "raise the limit with --max-rows N, or ask outcome/winning instead");
    }
    // The last component's choice varies fastest, as nested `for` clauses do.
    std::size_t i = k;
    while (i-- > 0) {
      if (!choices[i].empty() && pick[i] + 1 < choices[i].size()) break;
    }
    if (i == static_cast<std::size_t>(-1)) break;
    ++pick[i];
    for (std::size_t j = i + 1; j < k; ++j) pick[j] = lowest(j);
  }
  return out;
}

}  // namespace grundy
