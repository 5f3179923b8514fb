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

// The size of coordinate i when it is a list, a set or a string.
std::optional<std::size_t> size_of(const Value& s, std::size_t i) {
  const Value* x = &s;
  if (s.is(Kind::Tuple)) {
    if (i >= s.items().size()) return std::nullopt;
    x = &s.items()[i];
  } else if (i != 0) {
    return std::nullopt;
  }
  if (x->is(Kind::List) || x->is(Kind::Set)) return x->items().size();
  if (x->is(Kind::Str)) return x->as_str().size();
  return std::nullopt;
}

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

void check_growth(const Position& first, const Position& next, const Position& before, const Position& top,
                  std::size_t depth) {
  for (std::size_t i = 0; i < coordinates(top.state); ++i) {
    const auto start = size_of(first.state, i), now = size_of(top.state, i);
    if (!start || !now || *now < *start || *now - *start < depth / 4) continue;
    const OptionOrigin o = origin_of_move(before, top);
    if (o.conditional && depth < 4 * kGrowthDepth) return;
    const Value& x = top.state.is(Kind::Tuple) ? top.state.items()[i] : top.state;
    const std::string what = x.is(Kind::Str) ? "string" : x.is(Kind::Set) ? "set" : "list";
    // Not the top position itself: thousands of items long.
    fail(to_string(first) + " -> " + to_string(next) + " -> ...: the states grow without end (" +
             std::to_string(depth) + " positions deep, the last one's " + what + " " + std::to_string(*now) +
             (x.is(Kind::Str) ? " characters" : " items") + " long" +
             (o.rule.empty() ? std::string() : ", through `" + o.rule + "`") + ")",
         "a game must end: every sequence of moves has to reach a position with no options; bound the move "
         "that adds, e.g. `move xs + [1] if len(xs) < 100`");
  }
}

}  // namespace grundy
