#include "runtime/SumSpace.hpp"

#include <algorithm>

#include <absl/container/flat_hash_set.h>

#include "runtime/Error.hpp"

namespace grundy {

bool SumSpace::terminal(const Position& p) {
  if (p.game->rules().is_nim()) return p.state.as_int() == 0;
  Value key = Value::position(p.game, p.state);
  auto it = terminal_.find(key);
  if (it != terminal_.end()) return it->second;
  Option first;
  const bool none = !p.game->rules().options(*p.game, p.state)->next(first);
  terminal_.emplace(std::move(key), none);
  return none;
}

SumKey SumSpace::key(const Option& sum) {
  SumKey k;
  k.reserve(sum.size());
  for (const Position& p : sum) {
    if (!terminal(p)) k.push_back(Value::position(p.game, p.state));
  }
  std::sort(k.begin(), k.end());
  return k;
}

Option SumSpace::parts(const SumKey& key) {
  Option o;
  o.reserve(key.size());
  for (const Value& v : key) o.push_back(Position{v.game(), v.state()});
  return o;
}

std::vector<SumKey> SumSpace::options(const SumKey& sum) {
  std::vector<SumKey> out;
  absl::flat_hash_set<SumKey> seen;
  for (std::size_t i = 0; i < sum.size(); ++i) {
    if (i > 0 && sum[i] == sum[i - 1]) continue;  // moving in either copy is the same move
    const Position p{sum[i].game(), sum[i].state()};
    for (const Option& o : ev_.options(p)) {
      SumKey next;
      next.reserve(sum.size() + o.size());
      for (std::size_t j = 0; j < sum.size(); ++j) {
        if (j != i) next.push_back(sum[j]);
      }
      for (const Position& part : o) {
        if (!terminal(part)) next.push_back(Value::position(part.game, part.state));
      }
      std::sort(next.begin(), next.end());
      if (seen.insert(next).second) out.push_back(std::move(next));
    }
  }
  return out;
}

void throw_sum_loop(const SumKey& again) {
  std::string s;
  for (std::size_t i = 0; i < again.size(); ++i) s += (i ? " + " : "") + to_string(again[i]);
  throw Error(ErrorKind::Runtime, "the rules loop: the sum " + s + " can be reached from itself",
              "a game must end: every sequence of moves has to reach a position with no options");
}

void check_sum_limits(const Limits& limits, std::uint64_t states, const char* what) {
  if (states >= limits.max_states) {
    throw Error(ErrorKind::Limit,
                std::string("too many states: the ") + what + " search holds " +
                    std::to_string(states) + " sums and positions (the limit)",
                "raise the limit with --max-states N");
  }
  if (limits.interrupt && limits.interrupt->load(std::memory_order_relaxed)) {
    throw Error(ErrorKind::Interrupted, "interrupted");
  }
}

}  // namespace grundy
