// wins() of one position by a depth-first search for its outcome (runtime/Evaluator.hpp,
// position_wins). A position is won when one of its options is lost, so the search looks at
// options in rule order and stops at the first lost one, as a contest programmer's win()
// does: Euclid's game from (10^6, 999999) meets a lost position a few moves down and never
// looks at the rest. The nim-values a full search would compute are not needed. Misère play
// of one game is the same recursion with terminal positions won.
#include <deque>
#include <optional>

#include "runtime/Cycle.hpp"
#include "runtime/Evaluator.hpp"
#include "runtime/Nim.hpp"
#include "runtime/Progress.hpp"
#include "runtime/Runaway.hpp"
#include "runtime/StackGuard.hpp"

namespace grundy {

namespace {

struct OutcomeFrame {
  Position pos;
  std::unique_ptr<OptionCursor> cursor;
  bool any_option = false;
  // An option of a loopy game with an infinite value: no help to a winning move, and, when
  // there is none, the difference between lost and drawn (which only a loopy game's
  // labelling tells).
  std::optional<Position> infinite;
};

}  // namespace

bool Evaluator::position_wins(const Position& root, bool misere, const std::function<bool(const Sum&)>& sum_wins) {
  return query([&] { return outcome_search(root, misere, sum_wins); });
}

bool Evaluator::outcome_search(const Position& root, bool misere, const std::function<bool(const Sum&)>& sum_wins) {
  const int mode = misere ? 1 : 0;
  check_stack();  // a query inside a rule re-enters here
  std::deque<OutcomeFrame> stack;
  std::uint64_t ticks = 0, entered = 0;
  ProgressScope bar(limits_.progress, [&root] { return root.game->display_name(); });

  auto enter = [&](const Position& p) {
    reserve_states(1);
    auto cursor = p.game->rules().options(*p.game, p.state);
    enter_state(p, p.game->outcomes[mode], kOutcomeInProgress, stack.size() + 1);
    ++entered;
    stack.push_back(OutcomeFrame{p, std::move(cursor), false, {}});
    check_runaway_of(stack);
  };
  // The outcome of one option (or of the root) when it is known without a search of its own.
  auto known = [&](const Option& o) -> std::optional<bool> {
    if (o.empty()) return misere;  // the opponent cannot move: lost, or won under misère
    if (o.size() > 1) {
      Sum sum;
      sum.parts = o;
      return sum_wins(sum);
    }
    const Position& p = o[0];
    // A Nim heap: won unless empty; under misère, unless a single token (Bouton).
    if (p.game->rules().is_nim()) return misere ? nim_value(p) != 1 : nim_value(p) != 0;
    if (p.game->rules().loopy()) {  // reached from an ordinary game: its own labelling says
      const Position& from = stack.empty() ? root : stack.back().pos;
      if (misere) {
        throw Error(ErrorKind::Runtime,
                    "misere play of a loopy game has no theory (play that may go on for ever, under misere "
                    "rules): " + to_string(from) + " moves to " + to_string(p) + ", a position of the loopy game " +
                        p.game->display_name(),
                    "ask outcome(X) of normal play, where a draw is D");
      }
      const LoopyValue v = loopy_.value(p);
      if (v.finite) return v.value != 0;
      if (!stack.empty() && !stack.back().infinite) stack.back().infinite = p;
      return true;  // not a move that wins; whether the position is drawn is asked at its end
    }
    if (auto it = p.game->outcomes[mode].find(p.state); it != p.game->outcomes[mode].end()) {
      if (it->second == kOutcomeInProgress) fail_stack_loop(stack, p);
      return it->second == kOutcomeWin;
    }
    if (misere) return std::nullopt;
    if (p.game->rules().has_formula()) return p.game->rules().formula(*p.game, p.state) != 0;
    if (auto it = p.game->memo.find(p.state); it != p.game->memo.end() && it->second != kInProgress) {
      return it->second != 0;
    }
    // A kernel, a dense table or a box answers it without the search.
    if (auto v = fast_value(p)) return *v != 0;
    return std::nullopt;
  };
  // Pops the top frame with its outcome; returns it for the frame below.
  auto finish = [&](bool wins) {
    OutcomeFrame& f = stack.back();
    f.pos.game->outcomes[mode][f.pos.state] = wins ? kOutcomeWin : kOutcomeLoss;
    stack.pop_back();
    return wins;
  };
  if (auto w = known(Option{root})) return *w;
  try {
    enter(root);
    std::optional<bool> child;  // the outcome of the option the top frame just searched
    while (!stack.empty()) {
      if ((++ticks & 0xFFF) == 0) poll(*root.game, entered, 0);
      OutcomeFrame& f = stack.back();
      if (child) {
        const bool option_wins = *child;
        child.reset();
        if (!option_wins) {
          child = finish(true);
          continue;
        }
      }
      Option o;
      if (!f.cursor->next(o)) {
        // An infinite option and no lost one: lost or drawn, as the loopy game says.
        if (f.infinite) finite_loopy_part(f.pos, *f.infinite);
        // No lost option: lost, unless there was no option at all under misère.
        child = finish(misere && !f.any_option);
        continue;
      }
      f.any_option = true;
      if (std::optional<bool> w = known(o)) {
        if (!*w) child = finish(true);
        continue;
      }
      enter(o[0]);  // invalidates f
    }
    return child.value_or(false);  // the root's outcome: the last frame popped
  } catch (...) {
    for (const OutcomeFrame& f : stack) leave_state(f.pos, f.pos.game->outcomes[mode]);
    throw;
  }
}

}  // namespace grundy
