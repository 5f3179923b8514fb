// The search for outcomes over a box of states that stops at the first losing option
// (runtime/OutcomeSearch.hpp).
#include "runtime/OutcomeSearch.hpp"

#include <algorithm>

#include "runtime/ChunkedStack.hpp"
#include "runtime/Runaway.hpp"

namespace grundy {

// ---- outcomes, with the first losing option cutting the search short ----

namespace {

class OutcomeSink : public OptionSink {
 public:
  enum class Found : std::uint8_t { Nothing, Losing, Unknown };

  OutcomeSink(OutcomeMemo& outcomes, const BoxTable& values, const BoxHooks& hooks, bool misere)
      : o_(outcomes),
        v_(values),
        any_values_(!misere && values.cells() > 0),
        misere_(misere),
        hooks_(hooks) {}

  void pulse() override {
    charge();
    if (hooks_.poll) hooks_.poll();
  }
  // The options looked at since the last charge, to --max-steps, in eighths of a step: a
  // probe of the tiles takes a few nanoseconds, an eighth of the interpreter's step; one of
  // a large hash map a cache miss, a step; known won options read a word at a time, a
  // thirty-second of an eighth.
  void charge() {
    if (hooks_.looked && looked_ > 0) hooks_.looked(looked_);
    looked_ = 0;
  }
  void skipped(std::int64_t won) { looked_ += static_cast<std::uint64_t>(won) / 32; }

  void start() {
    seen_ = 0;
    found_ = Found::Nothing;
    grow_ = false;
    searching_ = false;
    in_run_ = false;
    rest_.clear();
  }

  bool option(const std::int64_t* coords, int parts) override {
    ++seen_;
    // split []: the empty sum, where the opponent cannot move: lost for them, or won in misère
    if (parts == 0) return misere_ ? true : stop(Found::Losing, coords);
    return look(coords);
  }

  bool run(const std::int64_t* first, const std::int64_t* slope, int parts, std::int64_t count) override {
    if (count <= 0) return true;
    const int ar = o_.arity();
    const std::int64_t start = seen_;
    std::int64_t k = 0;
    if (parts == 0) {  // split []: the empty sum, a P-position (won by the opponent in misère)
      if (misere_) {
        seen_ = start + count;
        return true;
      }
      seen_ += 1;
      return stop(Found::Losing, first);
    }
    // Stepped rather than multiplied, in unsigned arithmetic: the step after the last
    // option may leave the 64-bit range (and is not used).
    std::int64_t c[kMaxBoxArity];
    for (int i = 0; i < ar; ++i) c[i] = first[i] + k * slope[i];
    const bool readable = o_.readable(slope);
    for (; k < count; ++k) {
      if (!readable) {
      } else if (const std::int64_t won = o_.won_run(c, slope, count - k); won > 0) {
        skipped(won);
        k += won;  // the options known to be won, read straight from the tiles
        if (k == count) break;
        for (int i = 0; i < ar; ++i) c[i] = first[i] + k * slope[i];
      }
      if (!look(c)) {
        seen_ = start + k + 1;
        if (found_ == Found::Unknown) {
          run_ = Run{{}, {}, k, count};
          std::copy(first, first + ar, run_.first.begin());
          std::copy(slope, slope + ar, run_.slope.begin());
          in_run_ = true;
        }
        return false;
      }
      for (int i = 0; i < ar; ++i) {
        c[i] = static_cast<std::int64_t>(static_cast<std::uint64_t>(c[i]) +
                                         static_cast<std::uint64_t>(slope[i]));
      }
    }
    seen_ = start + count;
    return true;
  }

  std::int64_t batch(const std::int64_t* coords, int parts, int width, std::int64_t count) override {
    if (o_.hashed() && parts == 1) {
      for (std::int64_t j = 0; j < count; ++j) o_.prefetch(coords + j * width);
    }
    return OptionSink::batch(coords, parts, width, count);
  }

  // A batch of options (parts 1): stopped at one not known yet, it and the few after it are
  // kept (rest()) for the search to look at in turn, so that the listing goes on after the
  // batch rather than listing those options again after each one is decided.
  static constexpr std::int64_t kMaxKept = 16;
  std::int64_t batch_or_keep(const std::int64_t* coords, int parts, int width, std::int64_t count,
                             bool& kept) override {
    kept = false;
    const std::int64_t took = batch(coords, parts, width, count);
    if (took == count || found_ != Found::Unknown || searching_ || parts != 1 || count - took > kMaxKept)
      return took;
    rest_.assign(coords + took * width, coords + count * width);
    kept = true;
    return count;
  }
  // The options kept, `arity` integers each, the first the unknown one found.
  const std::vector<std::int64_t>& rest() const { return rest_; }

  // Where in a run of options the unknown option found lies, so that the search can go on
  // through the run from there without listing the state's options again (which costs
  // more than looking at a few options: Fibonacci nim's states have a losing option
  // among their first five).
  struct Run {
    Coords first, slope;
    std::int64_t k = 0, count = 0;
  };
  bool in_run() const { return in_run_; }
  const Run& run_found() const { return run_; }

  // For the search's resumption of a run: the option p's outcome when known.
  Found judge(const std::int64_t* p) {
    found_ = Found::Nothing;
    in_run_ = false;
    grow_ = false;
    searching_ = false;
    if (look(p)) return Found::Nothing;
    return found_;
  }

  Found found() const { return found_; }
  std::int64_t seen() const { return seen_; }  // options listed
  const Coords& child() const { return child_; }
  bool child_searching() const { return searching_; }  // the unknown child is an ancestor
  bool grow_wanted() const { return grow_; }

 private:
  bool look(const std::int64_t* p) {
    looked_ += o_.hashed() ? 8 : 1;
    switch (o_.probe(p)) {
      case OutcomeMemo::kWins: return true;
      case OutcomeMemo::kLoses: return stop(Found::Losing, p);
      case OutcomeMemo::kOutside:
        grow_ = true;
        std::copy(p, p + o_.arity(), child_.begin());
        return false;
      case OutcomeMemo::kSearching:  // an ancestor: the search sees the loop
        searching_ = true;
        return stop(Found::Unknown, p);
      default: break;
    }
    if (any_values_) {
      if (auto g = v_.known(p)) {
        if (*g == 0) return stop(Found::Losing, p);
        return true;
      }
    }
    return stop(Found::Unknown, p);
  }
  // child_'s coordinates past the arity stay 0.
  bool stop(Found f, const std::int64_t* p) {
    found_ = f;
    for (int i = 0; i < o_.arity(); ++i) child_[static_cast<std::size_t>(i)] = p[i];
    return false;
  }

  OutcomeMemo& o_;
  const BoxTable& v_;
  const bool any_values_;
  const bool misere_;
  const BoxHooks& hooks_;
  std::int64_t seen_ = 0;
  std::uint64_t looked_ = 0;
  Found found_ = Found::Nothing;
  bool grow_ = false;
  bool searching_ = false;
  Coords child_{};
  bool in_run_ = false;
  Run run_;
  std::vector<std::int64_t> rest_;
};

}  // namespace

// The most states a misere outcome sweep looks at, and the most options: past them the search
// alone goes on (it may need few of the states a sweep fills).
constexpr std::uint64_t kMaxSweep = std::uint64_t{1} << 22;
constexpr std::int64_t kMaxSweepOptions = std::int64_t{1} << 24;

std::optional<bool> box_outcome(OutcomeMemo& outcomes, const BoxTable& values, const IntProgram& rules,
                                const std::int64_t* c, const BoxHooks& hooks, std::string& why, bool misere) {
  const int ar = outcomes.arity();
  Coords root{};
  std::copy(c, c + ar, root.begin());
  if (!misere) {
    if (auto g = values.known(c)) return *g != 0;
  }
  // The table's memory is its tiles written, and a directory of a pointer per tile the box
  // spans, kept to an eighth of it.
  const std::uint64_t max_tiles = hooks.max_outcome_bytes / OutcomeMemo::tile_bytes();
  const std::uint64_t max_directory = hooks.max_outcome_bytes / 64;
  // A state past what the tiles' directory may span (Euclid's game at (10^6, 999999) spans
  // 2.4 * 10^8 tiles and touches a few million states): the states go into a hash map,
  // those known so far and the marks of the search's path with them.
  auto grow = [&](const std::int64_t* p) {
    if (outcomes.too_sparse_for(p) || !outcomes.grow(p, max_directory)) outcomes.to_hashed();
  };
  if (!outcomes.inside(c)) grow(c);
  auto known = [&](const std::int64_t* p) -> std::optional<bool> {
    if (auto w = outcomes.get(p)) return w;
    if (misere) return std::nullopt;
    if (auto g = values.known(p)) return *g != 0;
    return std::nullopt;
  };
  Tally tally(hooks);
  auto record = [&](const Coords& at, bool wins) {
    // `room` is what --max-states leaves: past it, the limit's own error.
    if (tally.done() >= hooks.room && hooks.reserve) {
      tally.flush();
      hooks.reserve(1);
    }
    outcomes.set(at.data(), wins);
    tally.add();
  };
  struct Entry {
    // Not value-initialized: `from` and `run` (hundreds of bytes) are written when the entry
    // stops at an option, and read only after that.
    explicit Entry(const Coords& at) : c(at) {}
    Coords c;
    bool expanded = false;
    bool in_run = false;  // the option being decided lies in `run`: go on from there
    // The options before `from` are known to be N: a listing goes on from there.
    bool resumed = false;
    IntProgram::Resume from;
    OutcomeSink::Run run;
    // Options listed and not looked at yet (OutcomeSink::rest), in `kept` from `next` to
    // `end`, the one being decided first; the entry's share of `kept` starts at `base`.
    std::size_t base = 0, next = 0, end = 0;
  };
  std::vector<std::int64_t> kept;
  // In chunks: a chain of millions of states is written once, never copied as it grows.
  ChunkedStack<Entry> stack;
  stack.emplace_back(root);
  // The expanded states on the stack (the ancestors of the top) carry a mark in the memo
  // itself, where a loop meets them again; however the search ends (an answer, giving up,
  // an exception from a hook), no mark stays behind.
  std::uint64_t grey = 0;
  struct Unmark {
    OutcomeMemo& memo;
    ChunkedStack<Entry>& stack;
    ~Unmark() {
      for (std::size_t i = 0; i < stack.size(); ++i) {
        if (stack[i].expanded) memo.unmark_searching(stack[i].c.data());
      }
    }
  } unmark{outcomes, stack};
  OutcomeSink sink(outcomes, values, hooks, misere);
  std::uint64_t ticks = 0;
  auto poll = [&] {
    tally.flush();
    sink.charge();
    if (hooks.poll) hooks.poll();
  };
  // The top entry is decided (wins: the player to move there wins): it is recorded and
  // popped, and its parent, whose pending option it was, goes on after it, or wins too when
  // it loses, and so on up, as the returns of a recursive win() would.
  auto settle = [&](bool wins) {
    for (;;) {
      Entry& e = stack.back();
      record(e.c, wins);  // replaces the mark
      if (e.expanded) --grey;
      kept.resize(e.base);
      stack.pop_back();
      if (stack.empty()) return;
      Entry& parent = stack.back();
      if (!wins) {
        wins = true;
        continue;
      }
      // The parent's listing goes on from this option, now known to be N.
      if (parent.in_run) ++parent.run.k;
      else if (parent.next < parent.end) parent.next += static_cast<std::size_t>(ar);
      return;
    }
  };
  // The option sink.child() of the top entry is not known yet: decide it first (true), or
  // give up (false).
  std::uint64_t entered = 0;
  auto descend = [&] {
    Entry& e = stack.back();
    if (!e.expanded) {
      e.expanded = true;
      outcomes.mark_searching(e.c.data());
      ++grey;
    }
    const Coords& child = sink.child();
    if (sink.child_searching()) {
      why = "a loop through " + coords_text(child, ar, rules.packing);
      return false;
    }
    // Past the limits the search of nim-values, which would take over, meets them too, later
    // (it looks at every option): the limit's error now.
    if (grey + tally.done() >= hooks.room) {
      tally.flush();
      if (hooks.exhausted) hooks.exhausted(stack.front().c, stack.size(), BoxHooks::Limit::States);
      why = "more states than --max-states allows";
      return false;
    }
    // A game that goes on without end (its states grow) meets this first.
    const std::uint64_t path_bytes =
        (stack.size() + ChunkedStack<Entry>::kChunk) * sizeof(Entry) + kept.size() * sizeof(std::int64_t);
    if (path_bytes > hooks.max_stack_bytes &&
        (!hooks.exhausted || path_bytes + outcomes.tiles_used() * OutcomeMemo::tile_bytes() > hooks.max_search_bytes)) {
      tally.flush();
      if (hooks.exhausted) hooks.exhausted(stack.front().c, stack.size(), BoxHooks::Limit::Memory);
      why = "the search stack holds " + std::to_string(stack.size()) + " states";
      return false;
    }
    stack.emplace_back(child).base = kept.size();
    stack.back().next = stack.back().end = kept.size();
    // The stack is the path (each entry the pending option of the one below): a game whose
    // states run away is stopped by its rule, not by a limit.
    if (hooks.deep && (++entered & 0xFFFF) == 0 && stack.size() >= kRunawayDepth) {
      hooks.deep(stack.size(), [&stack](std::size_t i) { return stack[i].c; });
    }
    return true;
  };
  // What the option judged last (kept from a batch, or in a run) says for the top entry: the
  // box grows to hold it, the entry is won, the option is decided first, or nothing (it is N).
  enum class Step { None, Done, GiveUp };
  auto act = [&](OutcomeSink::Found f) {
    if (sink.grow_wanted()) {
      grow(sink.child().data());
      return Step::Done;
    }
    if (f == OutcomeSink::Found::Losing) {
      settle(true);
      return Step::Done;
    }
    if (f == OutcomeSink::Found::Unknown) return descend() ? Step::Done : Step::GiveUp;
    return Step::None;
  };
  if (auto w = known(c)) return *w;
  // Misere outcomes of the box from the origin to c (kMaxSweep states, kMaxSweepOptions options at most),
  // and the outcomes of a game of one integer under either play, swept in lexicographic order: where
  // every move takes away (misere Wythoff, a subtraction game), each state's options come before it, so
  // it is listed once with all of them known, without the search's stack and marks, as a hand-written
  // table is filled. An option not known yet ends the sweep; the search then goes on from what it found.
  if ((misere || ar == 1) && !outcomes.hashed() && !rules.packing.any()) {
    std::uint64_t volume = 1;
    for (int i = 0; i < ar && volume <= kMaxSweep; ++i) {
      volume = c[i] < 0 ? kMaxSweep + 1 : volume * (static_cast<std::uint64_t>(c[i]) + 1);
    }
    Coords at{};
    // One integer: the search from n would pass through most states below it anyway, holding
    // each state of its path on its stack (Squares at 10^6: 430 MB); the sweep may look at
    // more options before it gives up.
    std::int64_t budget = ar == 1 ? std::max<std::int64_t>(kMaxSweepOptions, 256 * static_cast<std::int64_t>(volume))
                                  : kMaxSweepOptions;
    const Coords& swept = outcomes.swept();
    // In the box swept before: every coordinate but the last within it, and the last too.
    auto in_swept = [&] {
      if (!outcomes.has_swept()) return false;
      for (int i = 0; i < ar; ++i) {
        if (at[static_cast<std::size_t>(i)] > swept[static_cast<std::size_t>(i)]) return false;
      }
      return true;
    };
    bool complete = false;
    for (bool more = volume <= kMaxSweep; more && budget > 0;) {
      if ((++ticks & 0xFFF) == 0) poll();
      if (in_swept()) {
        // The rest of this line of the box swept before is known: on past it.
        at[static_cast<std::size_t>(ar - 1)] = std::min(swept[static_cast<std::size_t>(ar - 1)], c[ar - 1]);
      } else if (!outcomes.get(at.data())) {
        sink.start();
        const bool all = rules.options(at.data(), sink);
        const bool lost_option = sink.found() == OutcomeSink::Found::Losing;
        if (!all && !lost_option) break;  // an option not known yet, or past the box
        record(at, lost_option || (misere && sink.seen() == 0));  // no moves: won only in misere play
        budget -= sink.seen() + 1;
        if (outcomes.tiles_used() > max_tiles) break;
      }
      int i = ar - 1;  // the next state: the last coordinate first
      while (i >= 0 && at[static_cast<std::size_t>(i)] == c[i]) at[static_cast<std::size_t>(i--)] = 0;
      if (i < 0) {
        more = false;
        complete = true;
      } else {
        ++at[static_cast<std::size_t>(i)];
      }
    }
    if (complete) outcomes.note_swept(c);
    if (auto w = known(c)) return *w;
  }
  // Where a listing stopped: one for the whole search, not cleared per listing (it writes
  // only what its path through the clauses needs, and the copy into the entry reads only that).
  IntProgram::Resume stopped{};
  while (!stack.empty()) {
    if ((++ticks & 0xFFF) == 0) poll();
    if (outcomes.tiles_used() > max_tiles) {  // each step writes at most one cell
      why = "the outcome table passes its share of --max-memory (" + std::to_string(outcomes.tiles_used()) +
            " tiles)";
      return std::nullopt;
    }
    Entry& e = stack.back();
    if (e.next < e.end) {  // the options kept from a batch, in turn
      OutcomeSink::Found f = OutcomeSink::Found::Nothing;
      for (; e.next < e.end; e.next += static_cast<std::size_t>(ar)) {
        f = sink.judge(kept.data() + e.next);
        if (f != OutcomeSink::Found::Nothing || sink.grow_wanted()) break;
      }
      if (const Step s = act(f); s != Step::None) {
        if (s == Step::GiveUp) return std::nullopt;
        continue;
      }
      // Every option kept is N: the listing goes on after them (e.from).
    }
    if (e.in_run) {
      OutcomeSink::Run& r = e.run;
      OutcomeSink::Found f = OutcomeSink::Found::Nothing;
      std::int64_t p[kMaxBoxArity];
      const bool readable = outcomes.readable(r.slope.data());
      for (; r.k < r.count; ++r.k) {
        if ((++ticks & 0xFFF) == 0) poll();
        for (int i = 0; i < ar; ++i)
          p[i] = r.first[static_cast<std::size_t>(i)] + r.k * r.slope[static_cast<std::size_t>(i)];
        if (!readable) {
        } else if (const std::int64_t won = outcomes.won_run(p, r.slope.data(), r.count - r.k); won > 0) {
          sink.skipped(won);
          r.k += won;  // the options known to be won, read straight from the tiles
          if (r.k == r.count) break;
          for (int i = 0; i < ar; ++i)
            p[i] = r.first[static_cast<std::size_t>(i)] + r.k * r.slope[static_cast<std::size_t>(i)];
        }
        f = sink.judge(p);
        if (f != OutcomeSink::Found::Nothing || sink.grow_wanted()) break;
      }
      if (const Step s = act(f); s != Step::None) {
        if (s == Step::GiveUp) return std::nullopt;
        continue;
      }
      // Every option of the run is N: the options after it are listed from there
      // (e.from.in_run).
      e.in_run = false;
    }
    sink.start();
    const bool all = rules.options(e.c.data(), sink, e.resumed ? &e.from : nullptr, &stopped);
    if (!all && sink.found() == OutcomeSink::Found::Nothing) {
      if (sink.grow_wanted()) {
        grow(sink.child().data());
        continue;
      }
      why = "the compiled rules stop at " + coords_text(e.c, ar, rules.packing);
      return std::nullopt;
    }
    if (sink.found() != OutcomeSink::Found::Unknown) {
      // No lost option: lost, unless there was no option at all under misère.
      settle(sink.found() == OutcomeSink::Found::Losing || (misere && sink.seen() == 0 && !e.resumed));
      continue;
    }
    // The first option not known yet: decide it, then come back to the options from it on.
    e.from = stopped;
    e.from.in_run = e.in_run = sink.in_run();
    e.resumed = true;
    if (e.in_run) e.run = sink.run_found();
    if (!sink.rest().empty()) {
      e.next = kept.size();
      kept.insert(kept.end(), sink.rest().begin(), sink.rest().end());
      e.end = kept.size();
    }
    if (!descend()) return std::nullopt;
  }
  if (auto w = known(c)) return *w;
  return std::nullopt;
}

}  // namespace grundy
