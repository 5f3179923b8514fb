#include "runtime/Cycle.hpp"

#include "runtime/Error.hpp"

#include <algorithm>
#include <deque>
#include <string>

#include <absl/container/flat_hash_map.h>

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

namespace {

// The start states of a probe: every coordinate from 0 to below `side`, side^arity <= 256.
std::vector<Value> probe_starts(int arity) {
  int side = 1;
  while (true) {
    std::uint64_t cells = 1;
    for (int i = 0; i < arity; ++i) cells *= static_cast<std::uint64_t>(side + 1);
    if (cells > 256) break;
    ++side;
  }
  std::vector<Value> starts;
  std::vector<std::int64_t> c(static_cast<std::size_t>(arity), 0);
  while (true) {
    if (arity == 1) {
      starts.push_back(Value::integer(c[0]));
    } else {
      std::vector<Value> items;
      for (std::int64_t x : c) items.push_back(Value::integer(x));
      starts.push_back(Value::tuple(std::move(items)));
    }
    int i = arity - 1;
    while (i >= 0 && ++c[static_cast<std::size_t>(i)] == side) c[static_cast<std::size_t>(i--)] = 0;
    if (i < 0) break;
  }
  return starts;
}

}  // namespace

std::vector<Position> probe_loop(const GameInstance& g, int arity, std::size_t max_positions,
                                 std::size_t max_options) {
  enum : std::uint8_t { kGrey = 1, kBlack = 2 };
  absl::flat_hash_map<Value, std::uint8_t> color;
  std::size_t options_seen = 0;
  // The states of g among the options of `state`; false when the rules fail there.
  auto children = [&](const Value& state, std::vector<Value>& out) {
    try {
      auto cursor = g.rules().options(g, state);
      Option o;
      while (cursor->next(o)) {
        if (++options_seen > max_options) return false;
        for (const Position& q : o) {
          if (q.game == &g) out.push_back(q.state);
        }
      }
      return true;
    } catch (const Error& e) {
      if (e.kind == ErrorKind::Interrupted) throw;
      return false;
    }
  };
  struct Frame {
    Value state;
    std::vector<Value> next;
    std::size_t i = 0;
  };
  for (const Value& start : probe_starts(arity)) {
    if (color.contains(start)) continue;
    std::vector<Frame> stack;
    auto enter = [&](const Value& s) {
      color[s] = kGrey;
      stack.push_back({s, {}, 0});
      if (!children(s, stack.back().next)) stack.back().next.clear();
    };
    enter(start);
    while (!stack.empty()) {
      if (color.size() > max_positions || options_seen > max_options) return {};
      Frame& f = stack.back();
      if (f.i == f.next.size()) {
        color[f.state] = kBlack;
        stack.pop_back();
        continue;
      }
      const Value s = f.next[f.i++];
      const auto it = color.find(s);
      if (it == color.end()) {
        enter(s);
        continue;
      }
      if (it->second != kGrey) continue;
      // Back on the path: a loop through s. The shortest one through it, or the path's.
      std::vector<Position> cycle = shortest_cycle(Position{&g, s});
      if (!cycle.empty()) return cycle;
      std::size_t from = 0;
      while (stack[from].state != s) ++from;
      for (std::size_t k = from; k < stack.size(); ++k) cycle.push_back(Position{&g, stack[k].state});
      cycle.push_back(Position{&g, s});
      return cycle;
    }
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
    path += to_string(cycle[i]);
    if (i + 1 < cycle.size()) path += " -> ";
  }
  return path;
}

}  // namespace grundy
