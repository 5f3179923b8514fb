#include "runtime/Cycle.hpp"

#include <algorithm>
#include <deque>
#include <string>

#include <absl/container/flat_hash_map.h>

#include "runtime/Error.hpp"
#include "runtime/Show.hpp"

namespace grundy {

std::vector<Position> shortest_cycle(const Position& start, std::size_t budget) {
  const Value start_key = Value::position(start.game, start.state);
  absl::flat_hash_map<Value, Value> parent;  // position -> the position it was reached from
  std::deque<Position> queue{start};
  parent.emplace(start_key, Value());
  try {
    while (!queue.empty() && parent.size() <= budget) {
      const Position p = queue.front();
      queue.pop_front();
      const Value p_key = Value::position(p.game, p.state);
      auto cursor = p.game->rules().options(*p.game, p.state);
      Option o;
      while (cursor->next(o)) {
        for (const Position& q : o) {
          if (q == start) {
            std::vector<Position> cycle{start};
            for (Value at = p_key; at != start_key; at = parent.at(at)) {
              cycle.push_back(Position{at.game(), at.state()});
            }
            cycle.push_back(start);
            std::reverse(cycle.begin() + 1, cycle.end() - 1);
            return cycle;
          }
          if (q.game->rules().is_nim()) continue;  // a Nim heap only goes down
          if (parent.emplace(Value::position(q.game, q.state), p_key).second) queue.push_back(q);
        }
      }
    }
  } catch (...) {
    // The rules failed somewhere else: the caller reports the loop it found itself.
  }
  return {};
}

std::string describe_cycle(const std::vector<Position>& cycle) {
  constexpr std::size_t kShown = 12;
  std::string path;
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    if (cycle.size() > kShown + 1 && i == kShown / 2) {
      path += "... (" + std::to_string(cycle.size() - 1 - kShown) + " more) -> ";
      i = cycle.size() - 1 - kShown / 2;
    }
    path += shown(cycle[i]);
    if (i + 1 < cycle.size()) path += " -> ";
  }
  return path;
}

void fail_cycle(std::vector<Position> path, const Position& again) {
  path.push_back(again);
  std::vector<Position> shortest = shortest_cycle(again);
  if (!shortest.empty() && shortest.size() < path.size()) path = std::move(shortest);
  fail_loop("the rules loop: " + describe_cycle(path), kLoopHint);
}

}  // namespace grundy
