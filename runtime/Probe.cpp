#include "runtime/Probe.hpp"

#include <algorithm>

#include <absl/container/flat_hash_map.h>

#include "runtime/Cycle.hpp"
#include "runtime/Error.hpp"

namespace grundy {

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
      // A limit (steps, depth, memory) ends the probe: the next states would meet it too,
      // each after as much work.
      if (e.kind != ErrorKind::Runtime) throw;
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

std::string probe_formula(Evaluator& ev, const GameInstance& g, int arity, std::size_t max_options) {
  std::size_t options_seen = 0;
  for (const Value& s : probe_starts(arity)) {
    std::vector<std::uint64_t> values;
    std::uint64_t claimed = 0;
    std::string fails;  // the formula's error at s, if any
    try {
      claimed = g.rules().formula(g, s);
    } catch (const Error& e) {
      if (e.kind != ErrorKind::Runtime || e.loop) throw;  // a loop is wrong on any state
      fails = e.what();
    }
    try {
      auto cursor = g.rules().options(g, s);
      Option o;
      while (cursor->next(o)) {
        if (++options_seen > max_options) return {};
        values.push_back(ev.grundy(Sum(o)));
      }
    } catch (const Error& e) {
      if (e.kind != ErrorKind::Runtime) throw;  // a limit ends the probe, as in probe_loop
      continue;  // the rules (or an option's value) fail at s too: not a position to judge by
    }
    if (!fails.empty()) {
      return to_string(Position{&g, s}) + ": its rules give it options, but the value rule fails there (" +
             fails + ")";
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::uint64_t mex = 0;
    while (mex < values.size() && values[mex] == mex) ++mex;
    if (mex == claimed) continue;
    std::string seen;
    for (std::size_t i = 0; i < values.size() && i < 12; ++i)
      seen += (i ? ", " : "") + std::to_string(values[i]);
    if (values.size() > 12) seen += ", ...";
    return to_string(Position{&g, s}) + ": it gives " + std::to_string(claimed) + ", but " +
           (values.empty() ? std::string("the position has no options, so its value is 0")
                           : "the mex of its options' values (" + seen + ") is " + std::to_string(mex));
  }
  return {};
}

std::optional<RunawayMove> probe_runaway(const GameInstance& g, std::size_t max_options) {
  std::size_t options_seen = 0;
  // The states of g among the options of n, the last option's origin, and the one chosen
  // by `better`; nothing when the rules fail at n or the budget is spent.
  struct Step {
    std::int64_t to;
    OptionOrigin origin;
  };
  auto step = [&](std::int64_t n, auto better) -> std::optional<Step> {
    try {
      auto cursor = g.rules().options(g, Value::integer(n));
      Option o;
      std::optional<Step> best;
      while (cursor->next(o)) {
        if (++options_seen > max_options) return std::nullopt;
        for (const Position& q : o) {
          if (q.game != &g || !q.state.is(Kind::Int)) continue;
          if (!best || better(q.state.as_int(), best->to)) best = Step{q.state.as_int(), cursor->origin()};
        }
      }
      return best;
    } catch (const Error& e) {
      if (e.kind != ErrorKind::Runtime) throw;  // a limit ends the probe, as in probe_loop
      return std::nullopt;
    }
  };
  const auto lower = [](std::int64_t a, std::int64_t b) { return a < b; };
  const auto higher = [](std::int64_t a, std::int64_t b) { return a > b; };
  auto at = [&](std::int64_t n) { return Position{&g, Value::integer(n)}; };
  constexpr int kSteps = 1 << 16;
  // Below zero: the first small state with an option under 0, followed down.
  for (std::int64_t n = 0; n < 256; ++n) {
    const auto first = step(n, lower);
    if (!first || first->to >= 0) continue;
    std::int64_t x = first->to;
    int steps = 0;
    for (; steps < 1024; ++steps) {
      const auto next = step(x, lower);
      if (!next || next->to >= x) break;
      x = next->to;
    }
    if (steps == 1024) return RunawayMove{at(n), at(n), at(first->to), first->origin, false};
    break;
  }
  // Up: from 0, always to the largest option.
  std::int64_t x = 0;
  OptionOrigin last;
  for (int steps = 0; steps < kSteps; ++steps) {
    const auto next = step(x, higher);
    if (!next || next->to <= x) return std::nullopt;
    last = next->origin;
    x = next->to;
  }
  return RunawayMove{at(0), at(x - 1), at(x), last, true};
}

}  // namespace grundy
