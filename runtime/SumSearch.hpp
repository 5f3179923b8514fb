// A memoized depth-first search over sums taken as one game, without recursion. The value
// of a sum is folded from its options' values by a Rule:
//   struct Rule {
//     struct Acc;                                      // per-sum accumulator
//     std::uint32_t terminal();                        // value of the empty sum
//     Acc start(const SumKey& sum);
//     void add(Acc&, const SumKey& option, std::uint32_t value);
//     std::uint32_t finish(Acc&);
//   };
#pragma once

#include "runtime/Error.hpp"
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
    SumKey pending;                         // the option being looked at
    bool has_pending = false;
    typename Rule::Acc acc;
  };
  std::vector<Frame> stack;
  auto enter = [&](const SumKey& k) {
    check_sum_limits(limits, memo.size(), what);
    memo[k] = kSumInProgress;
    Frame f;
    f.key = k;
    f.acc = rule.start(k);
    stack.push_back(std::move(f));
  };
  try {
    enter(root);
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (!f.has_pending) {
        if (!space.next_option(f.key, f.component, f.option, f.pending)) {
          const std::uint32_t v = rule.finish(f.acc);
          memo[f.key] = v;
          stack.pop_back();
          continue;
        }
        f.has_pending = true;
      }
      if (f.pending.empty()) {
        rule.add(f.acc, f.pending, rule.terminal());
        f.has_pending = false;
        continue;
      }
      auto it = memo.find(f.pending);
      if (it == memo.end()) {
        const SumKey next = f.pending;
        enter(next);  // invalidates f
        continue;
      }
      if (it->second == kSumInProgress) throw_sum_loop(space, f.pending);
      rule.add(f.acc, f.pending, it->second);
      f.has_pending = false;
    }
  } catch (...) {
    for (const Frame& f : stack) memo.erase(f.key);
    throw;
  }
  return memo.at(root);
}

}  // namespace grundy
