#include "runtime/Moves.hpp"

#include <algorithm>

#include <absl/container/flat_hash_set.h>

#include "runtime/Nim.hpp"

namespace grundy {

std::vector<Position> change_key(const Option& x, const Position& moved) {
  std::vector<Position> key;
  bool cancelled = false;
  for (const Position& p : x) {
    if (!cancelled && p == moved) {
      cancelled = true;
      continue;
    }
    key.push_back(p);
  }
  std::sort(key.begin(), key.end());
  if (!cancelled) {
    key.push_back(Position{nullptr, Value()});  // taken away
    key.push_back(moved);
  }
  return key;
}

std::vector<Value> list_options(Evaluator& ev, MisereSolver& misere, const Sum& o, Modifier mod,
                                bool winning_only) {
  const Limits& limits = ev.limits();
  std::vector<Value> out;
  // Options equal as multisets are listed once (change_key).
  absl::flat_hash_set<std::vector<Position>> seen;
  const bool normal = mod == Modifier::Normal;
  // One position (not a Nim heap): a move wins when it leaves a lost position, asked of the
  // outcome search (or of a theorem: Wythoff's game, Fibonacci nim), which stops at a lost
  // option, rather than of the nim-values, which need every option of every option
  // (winning(W(2000, 3300)) took 29 s to fill them; 3-row Chomp 1 s against 0.2 s).
  const bool by_outcomes = normal && winning_only && o.size() == 1 && !o[0].game->rules().is_nim();
  if (by_outcomes && !ev.wins(o)) return out;
  const std::uint64_t total = normal && winning_only && !by_outcomes ? ev.grundy(o) : 0;
  // A misère sum of heaps with a quotient: each option's outcome is a product of three
  // elements, not a product over the whole sum again (1,000 Kayles heaps took 11 s).
  const auto by_quotient = !normal && winning_only ? misere.wins_after(o) : nullptr;
  // The components as values, made once: every option of a sum of n parts shares the n - 1
  // it does not change, and holds only their slots.
  std::vector<Value> base;
  base.reserve(o.size());
  for (const Position& p : o) base.push_back(Value::position(p.game, p.state));
  // --max-memory: each option listed is a sum of about n parts (its body and n slots, the
  // moved part's new bodies), its key in `seen` and its slot in `out`.
  std::uint64_t bytes = 0;
  Sum next;
  std::vector<Value> parts;
  for (std::size_t i = 0; i < o.size(); ++i) {
    // A component equal to an earlier one has the same options, and they give the same sums.
    if (std::find(o.begin(), o.begin() + static_cast<std::ptrdiff_t>(i), o[i]) !=
        o.begin() + static_cast<std::ptrdiff_t>(i)) {
      continue;
    }
    // `known_winning`: the move leaves a sum of value 0 (normal play), no need to ask.
    auto with = [&](const Option& x, bool known_winning) {
      std::vector<Position> key = change_key(x, o[i]);
      if (seen.contains(key)) return;
      if (winning_only && !known_winning) {
        next.parts.assign(o.begin(), o.begin() + static_cast<std::ptrdiff_t>(i));
        next.parts.insert(next.parts.end(), x.begin(), x.end());
        next.parts.insert(next.parts.end(), o.begin() + static_cast<std::ptrdiff_t>(i) + 1, o.end());
        if (normal ? ev.grundy(next) != 0 : by_quotient ? by_quotient(i, x) : misere.wins(next)) return;
      }
      parts.assign(base.begin(), base.begin() + static_cast<std::ptrdiff_t>(i));
      for (const Position& p : x) parts.push_back(Value::position(p.game, p.state));
      parts.insert(parts.end(), base.begin() + static_cast<std::ptrdiff_t>(i) + 1, base.end());
      bytes += 2 * kValueBodyBytes + (parts.size() + 1) * sizeof(Value) + x.size() * kValueBodyBytes +
               key.size() * sizeof(Position);
      for (const Position& p : x) bytes += p.state.bytes();  // states the move made
      check_memory(limits, ev.held_bytes() + bytes, "the list of options");
      seen.insert(std::move(key));
      out.push_back(Value::sum(parts, mod));
      if (out.size() > limits.max_rows) {
        throw Error(ErrorKind::Limit, "more than " + std::to_string(limits.max_rows) + " options",
                    "raise the limit with --max-rows N");
      }
    };
    if (by_outcomes) {
      for (const Option& x : ev.options(o[i])) {
        if (!ev.wins(Sum(x))) with(x, true);
      }
      continue;
    }
    if (normal && winning_only) {
      // Under normal play a move in component i wins only if it leaves value total ^ g_i.
      const std::uint64_t target = total ^ ev.grundy(o[i]);
      if (o[i].game->rules().is_nim()) {
        if (target < nim_value(o[i])) {
          with(Option{Position{o[i].game, Value::integer(static_cast<std::int64_t>(target))}}, true);
        }
        continue;
      }
      for (const Option& x : ev.options(o[i])) {
        if (ev.grundy(Sum(x)) == target) with(x, true);
      }
      continue;
    }
    for (const Option& x : ev.options(o[i])) with(x, false);
  }
  return out;
}

}  // namespace grundy
