// Normal-play evaluation: memoized mex over options, XOR over the parts of sums and splits.
// The search is iterative (an explicit stack of frames), so a chain of a million positions
// does not touch the C++ stack, and a position met again while in progress is a loop.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "runtime/Error.hpp"
#include "runtime/Game.hpp"
#include "runtime/Loopy.hpp"
#include "runtime/Memory.hpp"
#include "runtime/Period.hpp"
#include "runtime/Strategy.hpp"

namespace grundy {

class Progress;
class ValuesFile;
struct KernelPace;  // runtime/Tables.cpp: how far a kernel got, for the messages of limits

struct Limits {
  // Memo entries in all game instances together; past it evaluation stops with a message
  // naming --max-states instead of exhausting memory.
  std::uint64_t max_states = 20'000'000;
  // Cells of one table(...); a typo like 0..10^9 should not print for hours.
  std::uint64_t max_rows = 1'000'000;
  // Iterations of `for` clauses (in rules and comprehensions) and elements listed from
  // ranges, per top-level statement: `for k in 0..10^18` stops with a message naming
  // --max-steps instead of running for centuries.
  std::uint64_t max_steps = 100'000'000;
  // Steps taken so far by the current statement; the session resets it before each one.
  // Mutable: the evaluators hold the limits const and still count.
  mutable std::uint64_t steps = 0;
  // Counts n steps: a `for` iteration, or an option looked at by a search. Each step is
  // also where the heap is held to --max-memory.
  void charge(std::uint64_t n) const {
    steps += n;
    if (steps > max_steps) steps_exceeded();
    if (heap_over(max_memory)) memory_exceeded("this statement");
  }
  [[noreturn]] void steps_exceeded() const {
    throw Error(ErrorKind::Limit,
                "more than " + std::to_string(max_steps) +
                    " steps in one statement: too many loop iterations or options to look at",
                "raise the limit with --max-steps N");
  }
  // Bytes the heap may hold (--max-memory, in MB on the command line), measured
  // (runtime/Memory.hpp) wherever the work polls; estimates of what a step is about to
  // allocate stop it before it does.
  std::uint64_t max_memory = std::uint64_t{4096} << 20;
  // The heap holds more than max_memory: stops `what` with the limit's message.
  [[noreturn]] void memory_exceeded(const char* what) const {
    Error e(ErrorKind::Limit,
            std::string("out of memory: ") + what + " takes the process to the limit of " +
                std::to_string(max_memory >> 20) + " MB",
            "raise the limit with --max-memory MB");
    e.out_of_memory = true;
    throw e;
  }
  // Bytes that the language holds outside the games' memos and the search in progress: the
  // memoized results of functions and the arguments of the calls in progress. The language
  // keeps it up to date (and sets it afresh before each statement); every check of
  // --max-memory adds it to what it counts.
  mutable std::uint64_t held = 0;
  // Set from a signal handler; polled between positions.
  const std::atomic<bool>* interrupt = nullptr;
  // Where `--explain` says how each game is evaluated (kernel, dense table, search) and
  // which periods were proven; null: say nothing.
  std::ostream* explain = nullptr;
  // A progress bar for long computations (runtime/Progress.hpp); null: none.
  Progress* progress = nullptr;
  // Where native kernels' tables are read from and written to (--load-values, --save-values,
  // --checkpoint: runtime/ValuesFile.hpp); null: nowhere.
  ValuesFile* values = nullptr;
  // --cross-check: the fast paths' values are recomputed at sampled states by the plain
  // definition, and a difference stops the query (runtime/CrossCheck.hpp).
  bool cross_check = false;
  // Threads of the sparse-space kernel (--threads; runtime/KernelThreads.cpp): the values
  // are the same for any number. The library's default is one; the CLI's, the machine's cores.
  unsigned threads = 1;
};

// The rough costs behind --max-memory: a memoized position (or sum), and a position whose
// options are being searched (its frame and option cursor).
inline constexpr std::uint64_t kBytesPerState = 64;
inline constexpr std::uint64_t kBytesPerFrame = 512;
// An option listed whole (for options(), misere and every): the parts and a sorted key.
inline constexpr std::uint64_t kBytesPerOption = 640;

// Throws a Limit error naming --max-memory when the heap holds more than the limit, or when
// the estimate `bytes` of what is about to be held, with what the language holds
// (Limits::held), would pass it.
inline void check_memory(const Limits& limits, std::uint64_t bytes, const char* what) {
  if (heap_over(limits.max_memory)) limits.memory_exceeded(what);
  const std::uint64_t total = bytes + limits.held < bytes ? UINT64_MAX : bytes + limits.held;
  if (total <= limits.max_memory) return;
  throw Error(ErrorKind::Limit,
              std::string("out of memory: ") + what + " would need about " + std::to_string(total >> 20) +
                  " MB, more than the limit of " + std::to_string(limits.max_memory >> 20) + " MB",
              "raise the limit with --max-memory MB (the need is estimated from the entries "
              "held, see docs/errors.md)");
}

class Evaluator {
 public:
  // `limits` is read at each query, so a session may change it between queries.
  Evaluator(GameRegistry& games, const Limits& limits) : games_(games), limits_(limits) {}
  Evaluator(GameRegistry&, Limits&&) = delete;  // it keeps a reference

  // 64 bits: a Nim heap of 10^12 is worth 10^12. A game's own mex fits in 32 bits (it is
  // at most its number of options), so memos keep 32; only Nim heaps and sums go past.
  std::uint64_t grundy(const Position& p);
  // XOR of the parts' values: the Sprague-Grundy theorem.
  std::uint64_t grundy(const Sum& sum);
  // grundy(sum) != 0. For one position of a game whose moves lead to single positions, a
  // search that stops at the first losing option, as a hand-written win() does.
  bool wins(const Sum& sum);
  // The outcome of one position by a depth-first search that stops at the first losing
  // option, as a hand-written win() does, under normal or misère play (terminal: lost in
  // normal play, won in misère). An option that is a sum of two or more positions is asked
  // of `sum_wins` (normal play: the nim-sum; misère: the sum's own search).
  bool position_wins(const Position& root, bool misere, const std::function<bool(const Sum&)>& sum_wins);
  // Every option of p, in rule order, duplicates (equal as multisets) removed.
  std::vector<Option> options(const Position& p);
  // Loopy games (runtime/Loopy.hpp): Smith's values, and a sum's by his sum rule, its other
  // parts valued by the search. grundy() of a loopy position with a finite value is that value,
  // and an error for inf; wins() of a sum with a loopy part is its outcome N.
  LoopySolver& loopy() { return loopy_; }
  static bool any_loopy(const Sum& sum) {
    return std::any_of(sum.begin(), sum.end(), [](const Position& p) { return p.game->rules().loopy(); });
  }
  LoopyValue loopy_value(const Sum& sum);
  // N, P or D: of one loopy position by retrograde analysis, of a sum by its value.
  char loopy_outcome(const Sum& sum);
  // The finite value of a loopy part of an option of `from`; an error when it is infinite.
  std::uint64_t finite_loopy_part(const Position& from, const Position& part);

  const Limits& limits() const { return limits_; }
  // The --max-memory estimate of what the memos of all games hold: their entries and the
  // bodies of their states. Other estimates add what they hold to it.
  std::uint64_t held_bytes() const { return games_.states * kBytesPerState + games_.state_bytes; }

  // How the values of `g` are computed (runtime/Strategy.hpp), chosen from its plan on first
  // use: a native kernel when the rules are a subtraction or take-and-break code, compiled
  // rules over a box of states, a dense table filled bottom-up when the state is one
  // integer, else the general search.
  Strategy& strategy(const GameInstance& g);
  // The values of heaps 0..count-1 of a one-integer game, in its dense table; null when the
  // game has no dense table (ask grundy() for each state then). Uses a proven period.
  const DenseTable* dense_values(const GameInstance& g, std::uint64_t count);
  // The value of g at the state of `n` integers `c` when a table answers it (known, or
  // computed by a kernel or the compiled rules); nothing when only grundy(Position) can.
  // Lets a query with integer arguments skip building the state as a Value.
  std::optional<std::uint64_t> table_value(const GameInstance& g, const std::int64_t* c, int n);
  // wins() of g at the state of `n` integers `c` when a theorem (Strategy::outcome_rule) or
  // the search for outcomes over its compiled rules answers it; nothing when only
  // wins(Option) can.
  std::optional<bool> table_wins(const GameInstance& g, const std::int64_t* c, int n);
  // The same under misère play, by the search for outcomes over g's compiled rules (options
  // that are single states or the empty sum); nothing when the rules are not compiled.
  std::optional<bool> table_misere_wins(const GameInstance& g, const std::int64_t* c, int n);
  // The value of g at the state of `n` integers `c` when a table (a one-integer table, a
  // proven period, a box) already has it; nothing when anything is to be computed or the
  // general search has values of g.
  std::optional<std::uint64_t> known_table_value(const GameInstance& g, const std::int64_t* c, int n) const;
  // The same for the heaps from, from + 1, ... of a one-integer game, into out[0..count)
  // while they are known: returns how many were.
  std::size_t known_table_values(const GameInstance& g, std::int64_t from, std::uint64_t* out,
                                 std::size_t count) const;
  // The period of the sequence grundy(G(0)), grundy(G(1)), ... looked for among heaps
  // 0..limit (runtime/Period.hpp): proven when the game is a subtraction or take-and-break
  // code, else observed. Without a limit, up to 2^20 heaps for codes and 2^12 for other
  // games. Throws when no period shows up.
  PeriodInfo period(const GameInstance& game, std::optional<std::int64_t> limit);

 private:
  // The paths of runtime/Strategy.hpp (runtime/Tables.cpp).
  void setup(const GameInstance& g, Strategy& s);
  std::optional<std::uint64_t> fast_value(const Position& p);
  bool outcome_search(const Position& root, bool misere, const std::function<bool(const Sum&)>& sum_wins);
  // A search enters p: marks it in progress in `memo` (the grundy memo or an outcome memo),
  // counted as a state with what its state holds (a list holds its elements), once
  // --max-memory allows it with `frames` frames on the search's stack.
  template <typename Memo>
  void enter_state(const Position& p, Memo& memo, typename Memo::mapped_type mark, std::size_t frames) {
    const std::uint64_t body = games_.meter.hold(p.state);
    try {
      check_memory(limits_, held_bytes() + body + frames * kBytesPerFrame, "the search");
      if (heap_over(limits_.max_memory, next_growth_bytes(memo))) limits_.memory_exceeded("the search");
    } catch (...) {
      games_.meter.release(p.state);
      throw;
    }
    memo[p.state] = mark;
    ++games_.states;
    games_.state_bytes += body;
  }
  // Takes back a mark a stopped search left: it would look like a loop to the next query.
  template <typename Memo>
  void leave_state(const Position& p, Memo& memo) {
    memo.erase(p.state);
    --games_.states;
    games_.state_bytes -= std::min(games_.meter.release(p.state), games_.state_bytes);
  }
  std::optional<std::uint32_t> box_value(const GameInstance& g, Strategy& s, const std::int64_t* c);
  // The outcome search over compiled rules (runtime/OutcomeSearch.hpp) into `memo`, for
  // table_wins and table_misere_wins; sets `stopped` when it gives up.
  std::optional<bool> outcome_over_rules(const GameInstance& g, Strategy& s, OutcomeMemo& memo,
                                         const BoxTable& values, const IntProgram& program,
                                         const std::int64_t* c, bool misere, bool& stopped);
  std::optional<std::uint64_t> heap_value(const GameInstance& g, Strategy& s, std::int64_t n);
  std::optional<std::uint64_t> kernel_value(const GameInstance& g, Strategy& s, std::int64_t n);
  std::optional<std::uint64_t> kernel_fill(const GameInstance& g, Strategy& s, std::int64_t n, KernelPace& pace);
  void adopt_saved(const GameInstance& g, KernelPath& k);
  PeriodInfo period_of(const GameInstance& game, std::optional<std::int64_t> limit);
  std::optional<bool> table_wins_of(const GameInstance& g, const std::int64_t* c, int n);
  std::optional<bool> table_misere_wins_of(const GameInstance& g, const std::int64_t* c, int n);
  void save_table(const GameInstance& g, const KernelPath& k, bool due);
  std::optional<std::uint32_t> dense_value(const GameInstance& g, Strategy& s, std::int64_t n);
  void reserve_states(std::uint64_t more);
  // One box fill of game g, counting its states in `done`. It lives on the caller's stack
  // and each hook holds only a pointer to it, which std::function keeps without allocating
  // (a grid of queries fills one state per query).
  struct BoxCall {
    Evaluator* ev;
    const GameInstance* g;
    std::uint64_t done = 0;
    std::uint64_t total = 0;  // for the bar: the cells of the box up to the query, 0 unknown
    std::uint64_t looked = 0;  // options not charged to --max-steps yet
  };
  // Hooks of a box fill: polling, the state cap, and counting.
  BoxHooks box_hooks(BoxCall& call);
  void poll(const GameInstance& g, std::uint64_t done, std::uint64_t total);
  void explain(const GameInstance& g, const std::string& line) const;

  // One query from outside (a rule's own queries nest inside one). The dense tables it
  // fills are noted, so that when --max-states stops it they can give back what it added.
  struct QueryScope {
    explicit QueryScope(Evaluator& e) : ev(e), outermost(e.depth_++ == 0) {
      if (outermost) {
        ++ev.query_;
        ev.filled_.clear();
      }
    }
    ~QueryScope() { --ev.depth_; }
    QueryScope(const QueryScope&) = delete;
    QueryScope& operator=(const QueryScope&) = delete;
    Evaluator& ev;
    const bool outermost;
  };
  // Runs f as a query. Games that move into one another (A(n) -> B(n - 1) -> A(n - 2) ...)
  // fill each one's dense table whole, where the query needs every other state of each: when
  // --max-states stops an outermost query that filled the tables of several games, those
  // tables give back what it added and the search, which holds only the positions the query
  // reaches, answers it again. An answer does not depend on how it was computed.
  //
  // Nor does it depend on the queries before it: when --max-states or --max-memory stops an
  // outermost query while the memos and tables of earlier ones are held, they are dropped
  // (they are caches; a native kernel's table stays) and the query is answered again alone.
  template <typename F>
  auto query(F&& f) -> decltype(f()) {
    QueryScope scope(*this);
    if (!scope.outermost) return f();
    const bool held_before = games_.states > 0 || games_.state_bytes > 0;
    for (int attempt = 0;; ++attempt) {
      try {
        return f();
      } catch (const Error& e) {
        if (attempt == 0 && give_back_tables(e)) continue;
        if (attempt < 2 && held_before && (e.too_many_states || e.out_of_memory) && release_earlier()) continue;
        throw;
      }
    }
  }
  // Drops the memos and tables of earlier queries (not the native kernels' tables); false
  // when there were none to drop.
  bool release_earlier();
  // After a --max-states error: empties what the query added to the dense tables it filled
  // and leaves their games to the search from there; false (nothing done) when the error is
  // another or the query filled fewer than two.
  bool give_back_tables(const Error& e);
  std::uint64_t search(const Position& root);
  // Stops at once, naming --max-steps, a search whose compiled rules show it would take
  // more steps than the statement has left (runtime/WorkAhead.hpp).
  void check_work_ahead(const Position& root);
  const DenseTable* dense_values_of(const GameInstance& g, std::uint64_t count);

  GameRegistry& games_;
  const Limits& limits_;
  LoopySolver loopy_{limits_};

  int depth_ = 0;                                // queries in progress, nested
  std::uint64_t query_ = 0;                      // outermost queries so far
  std::uint64_t released_at_ = 0;                // the query that last dropped earlier ones' memos
  std::vector<std::pair<const GameInstance*, std::size_t>> filled_;  // and each table's size before
};

// The sums one move leads to: each component's options, the moved component replaced in
// place by the parts of its option. Deduplicated as multisets.
std::vector<Sum> sum_options(Evaluator& ev, const Sum& sum);

}  // namespace grundy
