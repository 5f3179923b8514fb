// A memoized depth-first search over sums taken as one game, without recursion. The value
// of a sum is folded from its options' values by a Rule:
//   struct Rule {
//     struct Acc;                                      // per-sum accumulator
//     std::uint32_t terminal();                        // value of the empty sum
//     Acc start(const SumKey& sum);
//     void add(Acc&, const SumKey& option, std::uint32_t value);
//     std::uint32_t finish(Acc&);
//     bool settled(const Acc&);                         // optional: the rest cannot matter
//   };
// A Rule with `settled` (an outcome search: one losing option makes a win) stops looking at
// a sum's options as soon as it says so.
#pragma once

#include <string>

#include "runtime/Error.hpp"
#include "runtime/Evaluator.hpp"
#include "runtime/Memory.hpp"
#include "runtime/Progress.hpp"
#include "runtime/SumSpace.hpp"

namespace grundy {

inline constexpr std::uint32_t kSumInProgress = 0xFFFFFFFFu;

template <typename Rule>
std::uint32_t search_sum(const SumKey& root, absl::flat_hash_map<SumKey, std::uint32_t>& memo,
                         SumSpace& space, const Limits& limits, const char* what, Rule& rule) {
  if (root.empty()) return rule.terminal();
  if (auto it = memo.find(root); it != memo.end() && it->second != kSumInProgress) return it->second;
  struct Frame {
    SumKey key;
    std::size_t component = 0, option = 0;  // the cursor over the options
    typename Rule::Acc acc;
  };
  std::vector<Frame> stack;
  ProgressScope bar(limits.progress, [what] { return std::string(what) + " search"; });
  // Each sum is hashed once on the way in (marked in progress) and once on the way out; a
  // finished sum hands its value straight to the frame below, which asked for it.
  auto enter = [&](SumKey&& k) {
    check_sum_limits(limits, memo.size(), what);
    Frame f;
    f.key = std::move(k);
    f.acc = rule.start(f.key);
    stack.push_back(std::move(f));
  };
  auto settled = [&](const Frame& f) {
    if constexpr (requires { rule.settled(f.acc); }) {
      return rule.settled(f.acc);
    } else {
      (void)f;
      return false;
    }
  };
  SumKey option;
  try {
    memo[root] = kSumInProgress;
    enter(SumKey(root));
    while (!stack.empty()) {
      Frame& f = stack.back();
      bool done = settled(f);
      while (!done) {
        if (!space.next_option(f.key, f.component, f.option, option)) {
          done = true;
          break;
        }
        if (option.empty()) {
          rule.add(f.acc, option, rule.terminal());
          done = settled(f);
          continue;
        }
        if (heap_over(limits.max_memory, next_growth_bytes(memo))) {
          limits.memory_exceeded((std::string("the ") + what + " search").c_str());
        }
        auto [it, added] = memo.try_emplace(option, kSumInProgress);
        if (added) break;  // search the option first
        if (it->second == kSumInProgress) throw_sum_loop(space, option);
        rule.add(f.acc, option, it->second);
        done = settled(f);
      }
      if (!done) {
        enter(std::move(option));  // invalidates f
        option.clear();
        continue;
      }
      const std::uint32_t v = rule.finish(f.acc);
      memo[f.key] = v;
      if (stack.size() >= 2) {
        Frame& below = stack[stack.size() - 2];
        rule.add(below.acc, f.key, v);
      }
      stack.pop_back();
    }
  } catch (...) {
    for (const Frame& f : stack) memo.erase(f.key);
    memo.erase(option);
    throw;
  }
  return memo.at(root);
}

}  // namespace grundy
