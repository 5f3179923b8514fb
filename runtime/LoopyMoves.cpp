#include "runtime/LoopyMoves.hpp"

#include <algorithm>
#include <limits>

#include <absl/container/flat_hash_set.h>

#include "runtime/Moves.hpp"

namespace grundy {

std::vector<Value> list_loopy_options(Evaluator& ev, const Sum& sum, char want) {
  const Limits& limits = ev.limits();
  LoopySolver& loopy = ev.loopy();
  // Each part's value once; an option changes one part, so its value is the others' and the new one's.
  std::vector<LoopyValue> values;
  for (const Position& p : sum) values.push_back(ev.loopy_value(Sum({p})));
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
  for (std::size_t i = 0; i < sum.size(); ++i) {
    if (std::find(sum.begin(), sum.begin() + static_cast<std::ptrdiff_t>(i), sum[i]) !=
        sum.begin() + static_cast<std::ptrdiff_t>(i)) {
      continue;  // the same part again: the same options
    }
    const bool is_loopy = sum[i].game->rules().loopy();
    std::vector<Option> options;
    if (is_loopy) {
      for (const Position& q : loopy.options(sum[i])) options.push_back({q});
    } else {
      options = ev.options(sum[i]);
    }
    for (const Option& x : options) {
      if (!seen.insert(change_key(x, sum[i])).second) continue;  // equal as multisets: listed once
      if (want != 0) {
        std::vector<LoopyValue> parts;
        for (std::size_t j = 0; j < sum.size(); ++j) {
          if (j != i) parts.push_back(values[j]);
        }
        for (const Position& q : x) parts.push_back(ev.loopy_value(Sum({q})));
        if (loopy_sum(parts).outcome() != want) continue;
      }
      std::uint64_t r = 0;
      if (is_loopy && want == 'P') r = loopy.remoteness(x[0]).value_or(kDraw);
      std::vector<Value> parts(base.begin(), base.begin() + static_cast<std::ptrdiff_t>(i));
      for (const Position& q : x) parts.push_back(Value::position(q.game, q.state));
      parts.insert(parts.end(), base.begin() + static_cast<std::ptrdiff_t>(i) + 1, base.end());
      moves.push_back(Move{r, moves.size(), Value::sum(std::move(parts))});
      if (moves.size() > limits.max_rows) {
        throw Error(ErrorKind::Limit, "more than " + std::to_string(limits.max_rows) + " options",
                    "raise the limit with --max-rows N");
      }
    }
  }
  std::stable_sort(moves.begin(), moves.end(),
                   [](const Move& a, const Move& b) { return a.remoteness < b.remoteness; });
  std::vector<Value> out;
  for (Move& m : moves) out.push_back(std::move(m.sum));
  return out;
}

}  // namespace grundy
