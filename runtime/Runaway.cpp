#include "runtime/Runaway.hpp"

#include <cstdint>
#include <functional>
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

// The integers of a state, in order: the state itself, or the items of its tuples, lists and
// sets, nested (a list's item climbs as a tuple's coordinate does: `update(xs, 0, xs[0] + 1)`).
void integers_of(const Value& s, std::vector<std::int64_t>& out) {
  if (s.is(Kind::Int)) {
    out.push_back(s.as_int());
  } else if (s.is(Kind::Tuple) || s.is(Kind::List) || s.is(Kind::Set)) {
    for (const Value& x : s.items()) integers_of(x, out);
  }
}

// Whether one of the integers `start` had has come down by `drift` or more in `now` and is
// not below zero yet (the places matched; `except` not counted): a game that climbs, or goes
// below zero, in one coordinate while another counts down, `(a - 1, b + 1)` from (10^6, 0),
// ends when the count does, and is no runaway.
bool counts_down(const std::vector<std::int64_t>& start, const std::vector<std::int64_t>& now, std::int64_t drift,
                 std::size_t except = SIZE_MAX) {
  if (start.size() != now.size()) return false;
  for (std::size_t j = 0; j < now.size(); ++j) {
    if (j != except && now[j] >= 0 && now[j] < start[j] &&
        static_cast<std::uint64_t>(start[j]) - static_cast<std::uint64_t>(now[j]) >= static_cast<std::uint64_t>(drift))
      return true;
  }
  return false;
}

// The integers among a state's coordinates (the state itself, or a tuple's items that are
// integers), the others as 0: the places of a state whose lists change in length.
std::vector<std::int64_t> integer_coordinates(const Value& s) {
  if (s.is(Kind::Int)) return {s.as_int()};
  std::vector<std::int64_t> out;
  if (s.is(Kind::Tuple)) {
    for (const Value& x : s.items()) out.push_back(x.is(Kind::Int) ? x.as_int() : 0);
  }
  return out;
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

// s with its i-th integer in integers_of's order set to x (`seen`: the integers passed so
// far); nullopt where that integer lies in a set, whose order the change could alter.
std::optional<Value> with_integer(const Value& s, std::size_t i, std::int64_t x, std::size_t& seen) {
  if (s.is(Kind::Int)) return seen++ == i ? Value::integer(x) : s;
  if (!s.is(Kind::Tuple) && !s.is(Kind::List) && !s.is(Kind::Set)) return s;
  const std::size_t before = seen;
  std::vector<Value> items = s.items();
  for (Value& item : items) {
    auto changed = with_integer(item, i, x, seen);
    if (!changed) return std::nullopt;
    item = std::move(*changed);
  }
  if (s.is(Kind::Set)) return before <= i && i < seen ? std::nullopt : std::optional<Value>(s);
  return s.is(Kind::Tuple) ? Value::tuple(std::move(items)) : Value::list(std::move(items));
}

// Whether integer i of top's state still moves on (by the sign of `far`) once `far` further:
// the rules at that state give an option that takes it further still. A rule with a condition
// may end a climb later than any path can show (`move n + 1 if n < 1100000`, 1.1 million deep),
// and the rules at a far state tell: where they give no such option, the climb ends before it
// (nullopt). Otherwise the far position, for the message, or "" where that state cannot be
// made or listed (taken to go on).
std::optional<std::string> goes_on(const Position& top, std::size_t i, std::int64_t now, std::int64_t far) {
  std::int64_t x = 0;
  if (__builtin_add_overflow(now, far, &x)) return "";
  std::size_t seen = 0;
  const auto state = with_integer(top.state, i, x, seen);
  if (!state) return "";
  try {
    auto cursor = top.game->rules().options(*top.game, *state);
    Option o;
    std::vector<std::int64_t> next;
    while (cursor->next(o)) {
      for (const Position& p : o) {
        if (p.game != top.game) continue;
        next.clear();
        integers_of(p.state, next);
        if (i < next.size() && (far > 0 ? next[i] > x : next[i] < x)) return to_string(Position{top.game, *state});
      }
    }
  } catch (const Error&) {
    return "";
  }
  return std::nullopt;
}

// ", and the rule's condition still gives that move at P" where a far position was looked at.
std::string still_at(const std::optional<std::string>& far) {
  return far && !far->empty() ? ", and the rule's condition still gives that move at " + *far : "";
}

}  // namespace

void check_runaway(std::size_t depth, const std::function<Position(std::size_t)>& at) {
  if (depth < kRunawayDepth) return;
  const Position top = at(depth - 1);
  std::size_t first = 0;
  while (first < depth && at(first).game != top.game) ++first;
  const Position start_position = at(first);
  const auto drift = static_cast<std::int64_t>(depth / 4);
  const std::string deep = std::to_string(depth);
  std::vector<std::int64_t> start, now, crossing;
  integers_of(start_position.state, start);
  integers_of(top.state, now);
  // Integers are matched by their places: a state whose shape changed on the way (a longer
  // list) is check_growth's to judge.
  if (start.size() != now.size()) return;
  // A rule with a condition may mean to go that far: it gets four times as deep, and past that
  // is stopped only where the rules `by` further along (eight times as far) still move on.
  const auto ends_later = [&](const OptionOrigin& o, std::size_t i, std::int64_t by, std::optional<std::string>& far) {
    if (!o.conditional) return false;
    if (depth < 4 * kRunawayDepth) return true;
    far = goes_on(top, i, now[i], by);
    return !far;
  };
  for (std::size_t i = 0; i < now.size(); ++i) {
    if (start[i] >= 0 && now[i] < 0 && now[i] <= -drift && !counts_down(start, now, drift, i)) {
      std::size_t crossed = first + 1;
      for (; crossed + 1 < depth; ++crossed) {
        const Position p = at(crossed);
        if (p.game != top.game) continue;
        crossing.clear();
        integers_of(p.state, crossing);
        if (crossing.size() == now.size() && crossing[i] < 0) break;
      }
      const Position from = at(crossed - 1), to = at(crossed);
      const OptionOrigin o = origin_of_move(from, to);
      std::optional<std::string> far;
      if (ends_later(o, i, -8 * (start[i] - now[i]), far)) return;
      std::string through;
      if (!o.rule.empty()) {
        through = " through `" + o.rule + "`" + (o.bindings.empty() ? "" : " (" + o.bindings + " at " + to_string(from) + ")");
      }
      fail(to_string(start_position) + " reaches " + to_string(to) + through +
               ", and its states go below zero without end (" + to_string(top) + " after " + deep +
               " positions" + still_at(far) + ")",
           o.fix.empty() ? "a game must end: bound the move so that no count goes below zero, e.g. `if n >= k`"
                         : "did you mean `" + o.fix + "`?");
    }
    if (now[i] > start[i] &&
        static_cast<std::uint64_t>(now[i]) - static_cast<std::uint64_t>(start[i]) >= static_cast<std::uint64_t>(drift) &&
        !counts_down(start, now, drift, i)) {
      const OptionOrigin o = origin_of_move(at(depth - 2), top);
      std::optional<std::string> far;
      if (ends_later(o, i, 8 * (now[i] - start[i]), far)) return;
      fail(to_string(start_position) + " -> " + to_string(at(first + 1)) + " -> ... -> " + to_string(top) +
               ": the states grow without end (" + deep + " positions deep" +
               (o.rule.empty() ? std::string()
                               : ", through `" + o.rule + "`" + (o.bindings.empty() ? "" : " with " + o.bindings)) +
               still_at(far) + ")",
           "a game must end: every sequence of moves has to reach a position with no options; bound the move "
           "that adds, e.g. `move n + 1 if n < 100`");
    }
  }
}

void check_runaway(const std::vector<Position>& path) {
  check_runaway(path.size(), [&path](std::size_t i) { return path[i]; });
}

void check_growth(const Position& first, const Position& next, const Position& before, const Position& top,
                  std::size_t depth) {
  for (std::size_t i = 0; i < coordinates(top.state); ++i) {
    const auto start = size_of(first.state, i), now = size_of(top.state, i);
    if (!start || !now || *now < *start || *now - *start < depth / 4) continue;
    if (counts_down(integer_coordinates(first.state), integer_coordinates(top.state),
                    static_cast<std::int64_t>(depth / 4)))
      return;
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
