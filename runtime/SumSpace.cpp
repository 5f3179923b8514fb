#include "runtime/SumSpace.hpp"

#include "runtime/Nim.hpp"

#include <algorithm>

#include "runtime/Cycle.hpp"
#include "runtime/Error.hpp"
#include "runtime/Progress.hpp"

namespace grundy {

void SumSpace::clear() {
  ids_.clear();
  components_.clear();
  terminal_.clear();
}

bool SumSpace::terminal(const Position& p) {
  if (p.game->rules().is_nim()) return nim_heap(p) == 0;
  auto it = terminal_.find(p);
  if (it != terminal_.end()) return it->second;
  Option first;
  const bool none = !p.game->rules().options(*p.game, p.state)->next(first);
  terminal_.emplace(p, none);
  return none;
}

std::uint32_t SumSpace::intern(const Position& p) {
  auto [it, added] = ids_.try_emplace(p, static_cast<std::uint32_t>(components_.size()));
  if (added) components_.push_back(Component{p, false, {}, -1});
  return it->second;
}

SumSpace::Component& SumSpace::expand(std::uint32_t id) {
  if (!components_[id].expanded) {
    const Position p = components_[id].position;
    std::vector<SumKey> options;
    for (const Option& o : ev_.options(p)) {
      SumKey live;
      for (const Position& part : o) {
        if (!terminal(part)) live.push_back(intern(part));  // may grow components_
      }
      options.push_back(std::move(live));
    }
    components_[id].options = std::move(options);
    components_[id].expanded = true;
  }
  return components_[id];
}

SumKey SumSpace::key(const Sum& sum) {
  SumKey k;
  k.reserve(sum.size());
  for (const Position& p : sum) {
    if (!terminal(p)) k.push_back(intern(p));
  }
  std::sort(k.begin(), k.end());
  return k;
}

Sum SumSpace::parts(const SumKey& key) const {
  Sum o;
  o.parts.reserve(key.size());
  for (std::uint32_t id : key) o.parts.push_back(components_[id].position);
  return o;
}

std::uint64_t SumSpace::grundy(const SumKey& key) {
  std::uint64_t x = 0;
  for (std::uint32_t id : key) {
    if (components_[id].grundy < 0) {
      components_[id].grundy = static_cast<std::int64_t>(ev_.grundy(components_[id].position));
    }
    x ^= static_cast<std::uint64_t>(components_[id].grundy);
  }
  return x;
}

std::string SumSpace::describe(const SumKey& key) const {
  std::string s;
  for (std::size_t i = 0; i < key.size(); ++i) {
    s += (i ? " + " : "") + to_string(components_[key[i]].position);
  }
  return s.empty() ? "0" : s;
}

bool SumSpace::next_option(const SumKey& sum, std::size_t& component, std::size_t& option, SumKey& out) {
  while (component < sum.size()) {
    const std::size_t i = component;
    if (i > 0 && sum[i] == sum[i - 1]) {  // moving in either copy is the same move
      ++component;
      continue;
    }
    const std::vector<SumKey>& opts = expand(sum[i]).options;
    if (option >= opts.size()) {
      ++component;
      option = 0;
      continue;
    }
    const SumKey& parts = opts[option++];
    ev_.limits().charge(1);  // --max-steps: each option of a sum looked at
    out.clear();
    for (std::size_t j = 0; j < sum.size(); ++j) {
      if (j != i) out.push_back(sum[j]);
    }
    out.insert(out.end(), parts.begin(), parts.end());
    std::sort(out.begin(), out.end());
    return true;
  }
  return false;
}

void throw_sum_loop(const SumSpace& space, const SumKey& sum) {
  // A cycle of sums moves some component round a cycle of its own game: name that one.
  for (const Position& p : space.parts(sum)) {
    std::vector<Position> cycle = shortest_cycle(p);
    if (!cycle.empty()) {
      fail_loop("the rules loop: " + describe_cycle(cycle), kLoopHint);
    }
  }
  fail_loop("the rules loop: the sum " + space.describe(sum) + " can be reached from itself", kLoopHint);
}

void check_sum_limits(const Limits& limits, std::uint64_t states, const char* what) {
  if (states >= limits.max_states) {
    Error e(ErrorKind::Limit,
            std::string("too many states: the ") + what + " search holds " + std::to_string(states) +
                " sums (the limit)",
            "raise the limit with --max-states N");
    e.too_many_states = true;
    throw e;
  }
  // A sum is a sorted list of positions: a few times the cost of one memoized position.
  check_memory(limits, states * 4 * kBytesPerState, (std::string("the ") + what + " search").c_str());
  if (limits.interrupt && limits.interrupt->load(std::memory_order_relaxed)) {
    throw Error(ErrorKind::Interrupted, "interrupted");
  }
  if (limits.progress && (states & 0x3FF) == 0) limits.progress->update(states, 0);
}

}  // namespace grundy
