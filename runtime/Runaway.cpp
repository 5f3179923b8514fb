#include "runtime/Runaway.hpp"

#include <optional>
#include <string>

#include "runtime/Error.hpp"
#include "runtime/Show.hpp"

namespace grundy {

namespace {

// How `to` was reached from `from`: the rule that made the option, as its cursor tells.
OptionOrigin origin_of_move(const Position& from, const Position& to) {
  auto cursor = from.game->rules().options(*from.game, from.state);
  Option o;
  while (cursor->next(o)) {
    for (const Position& p : o) {
      if (p == to) return cursor->origin();
    }
  }
  return {};
}

// Coordinate i of a state of integers (one integer, or a tuple of them).
std::optional<std::int64_t> coordinate(const Value& s, std::size_t i) {
  if (s.is(Kind::Int)) return i == 0 ? std::optional<std::int64_t>(s.as_int()) : std::nullopt;
  if (!s.is(Kind::Tuple) || i >= s.items().size() || !s.items()[i].is(Kind::Int)) return std::nullopt;
  return s.items()[i].as_int();
}

std::size_t coordinates(const Value& s) { return s.is(Kind::Tuple) ? s.items().size() : 1; }

}  // namespace

void check_runaway(const std::vector<Position>& path) {
  if (path.size() < kRunawayDepth) return;
  const Position& top = path.back();
  std::size_t first = 0;
  while (first < path.size() && path[first].game != top.game) ++first;
  const auto drift = static_cast<std::int64_t>(path.size() / 4);
  const std::string depth = std::to_string(path.size());
  for (std::size_t i = 0; i < coordinates(top.state); ++i) {
    const auto start = coordinate(path[first].state, i), now = coordinate(top.state, i);
    if (!start || !now) continue;
    if (*start >= 0 && *now < 0 && *now <= -drift) {
      std::size_t crossed = first + 1;
      while (crossed + 1 < path.size() &&
             !(path[crossed].game == top.game && coordinate(path[crossed].state, i).value_or(0) < 0)) {
        ++crossed;
      }
      const Position& from = path[crossed - 1];
      const OptionOrigin o = origin_of_move(from, path[crossed]);
      // A rule with a condition may mean to go that far; it gets four times as deep.
      if (o.conditional && path.size() < 4 * kRunawayDepth) return;
      std::string through;
      if (!o.rule.empty()) {
        through = " through `" + o.rule + "`" + (o.bindings.empty() ? "" : " (" + o.bindings + " at " + to_string(from) + ")");
      }
      fail(to_string(path[first]) + " reaches " + to_string(path[crossed]) + through +
               ", and its states go below zero without end (" + to_string(top) + " after " + depth +
               " positions)",
           o.fix.empty() ? "a game must end: bound the move so that no count goes below zero, e.g. `if n >= k`"
                         : "did you mean `" + o.fix + "`?");
    }
    if (*now > *start && *now - *start >= drift) {
      const OptionOrigin o = origin_of_move(path[path.size() - 2], top);
      if (o.conditional && path.size() < 4 * kRunawayDepth) return;
      fail(to_string(path[first]) + " -> " + to_string(path[first + 1]) + " -> ... -> " + to_string(top) +
               ": the states grow without end (" + depth + " positions deep" +
               (o.rule.empty() ? std::string()
                               : ", through `" + o.rule + "`" + (o.bindings.empty() ? "" : " with " + o.bindings)) +
               ")",
           "a game must end: every sequence of moves has to reach a position with no options; bound the move "
           "that adds, e.g. `move n + 1 if n < 100`");
    }
  }
}

}  // namespace grundy
