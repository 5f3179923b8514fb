#include "runtime/LoopyMoves.hpp"

#include <algorithm>
#include <limits>

#include <absl/container/flat_hash_set.h>

#include "runtime/Nim.hpp"

#include "runtime/Moves.hpp"

namespace grundy {

namespace {
// The parts of a sum other than one, as Smith's rule sees them: the xor of their finite
// values and their infinite ones (how many, and the one when there is one). Made from the
// whole sum's totals in O(1) for each part, so that the options of a sum of n parts cost
// O(options), not O(n * options).
struct Rest {
  std::uint64_t x = 0;
  int infinite = 0;
  const LoopyValue* inf = nullptr;  // when infinite == 1
};

// The outcome of the rest plus a part of value w (Smith's rule, loopy_sum without the lists).
char outcome_with(const Rest& rest, const LoopyValue& w) {
  const int infinite = rest.infinite + (w.finite ? 0 : 1);
  if (infinite >= 2) return 'D';
  if (infinite == 0) return (rest.x ^ w.value) == 0 ? 'P' : 'N';
  // inf{K} plus a finite y is inf{K xor y}: N iff y is in K.
  const LoopyValue& k = w.finite ? *rest.inf : w;
  const std::uint64_t y = w.finite ? rest.x ^ w.value : rest.x;
  return std::binary_search(k.escapes.begin(), k.escapes.end(), y) ? 'N' : 'D';
}
}  // namespace

std::vector<Value> list_loopy_options(Evaluator& ev, const Sum& sum, char want) {
  const Limits& limits = ev.limits();
  LoopySolver& loopy = ev.loopy();
  // Each part's value once; an option changes one part, so its value is the others' and the new one's.
  std::vector<LoopyValue> values;
  std::uint64_t all_x = 0;
  std::vector<std::size_t> infinite;  // the first two infinite parts: all that Smith's rule tells apart
  for (const Position& p : sum) {
    values.push_back(ev.loopy_value(Sum({p})));
    if (values.back().finite) all_x ^= values.back().value;
    else if (infinite.size() < 2) infinite.push_back(values.size() - 1);
    else infinite.push_back(infinite.back());  // counted, not looked at
  }
  const auto rest_of = [&](std::size_t i) {
    Rest r;
    r.x = all_x ^ (values[i].finite ? values[i].value : 0);
    r.infinite = static_cast<int>(infinite.size()) - (values[i].finite ? 0 : 1);
    if (r.infinite == 1) r.inf = &values[infinite[0] == i ? infinite[1] : infinite[0]];
    return r;
  };
  struct Move {
    std::uint64_t remoteness;
    std::size_t order;
    Value sum;
  };
  std::vector<Move> moves;
  std::vector<Value> base;
  for (const Position& p : sum) base.push_back(Value::position(p.game, p.state));
  constexpr std::uint64_t kDraw = std::numeric_limits<std::uint64_t>::max();
  absl::flat_hash_set<std::vector<Position>> seen;
  std::vector<Value> parts;
  std::uint64_t bytes = 0;  // --max-memory, counted as list_options (runtime/Moves.cpp) counts it
  const auto add = [&](std::size_t i, const Option& x, std::uint64_t r) {
    std::vector<Position> key = change_key(x, sum[i]);
    if (seen.contains(key)) return;  // equal as multisets: listed once
    parts.assign(base.begin(), base.begin() + static_cast<std::ptrdiff_t>(i));
    for (const Position& q : x) parts.push_back(Value::position(q.game, q.state));
    parts.insert(parts.end(), base.begin() + static_cast<std::ptrdiff_t>(i) + 1, base.end());
    bytes += 2 * kValueBodyBytes + (parts.size() + 1) * sizeof(Value) + x.size() * kValueBodyBytes +
             key.size() * sizeof(Position) + sizeof(Move);
    for (const Position& q : x) bytes += q.state.bytes();
    check_memory(limits, ev.held_bytes() + bytes, "the list of options");
    seen.insert(std::move(key));
    moves.push_back(Move{r, moves.size(), Value::sum(parts)});
    if (moves.size() > limits.max_rows) {
      throw Error(ErrorKind::Limit, "more than " + std::to_string(limits.max_rows) + " options",
                  "raise the limit with --max-rows N");
    }
  };
  for (std::size_t i = 0; i < sum.size(); ++i) {
    if (std::find(sum.begin(), sum.begin() + static_cast<std::ptrdiff_t>(i), sum[i]) !=
        sum.begin() + static_cast<std::ptrdiff_t>(i)) {
      continue;  // the same part again: the same options
    }
    const Rest rest = rest_of(i);
    // A P-position needs every part finite: with an infinite part among the others no move
    // here wins, and the winning moves here leave exactly the value rest.x (as in normal play).
    if (want == 'P' && rest.infinite > 0) continue;
    // Beside two infinite parts every option is a draw, whatever it leaves.
    const bool all_draw = want == 'D' && rest.infinite >= 2;
    const bool is_loopy = sum[i].game->rules().loopy();
    if (is_loopy) {
      for (const Position& q : loopy.options(sum[i])) {
        if (want != 0 && !all_draw && outcome_with(rest, loopy.value(q)) != want) continue;
        const std::uint64_t r = want == 'P' ? loopy.remoteness(q).value_or(kDraw) : 0;
        add(i, Option{q}, r);
      }
      continue;
    }
    if (want == 'P' && sum[i].game->rules().is_nim()) {
      // A heap's one move to the value wanted, without listing the heap's options.
      if (rest.x < nim_value(sum[i])) {
        add(i, Option{Position{sum[i].game, Value::integer(static_cast<std::int64_t>(rest.x))}}, 0);
      }
      continue;
    }
    for (const Option& x : ev.options(sum[i])) {
      if (want != 0 && !all_draw && outcome_with(rest, ev.loopy_value(Sum(x))) != want) continue;
      add(i, x, 0);
    }
  }
  std::stable_sort(moves.begin(), moves.end(),
                   [](const Move& a, const Move& b) { return a.remoteness < b.remoteness; });
  std::vector<Value> out;
  for (Move& m : moves) out.push_back(std::move(m.sum));
  return out;
}

}  // namespace grundy
