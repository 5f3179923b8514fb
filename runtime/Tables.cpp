// The evaluator's fast paths (runtime/Strategy.hpp): choosing one from an instance's plan, and
// filling and reading its tables. The memoized search, which every path hands over to, is in
// runtime/Evaluator.cpp.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "runtime/BoxMoves.hpp"
#include "runtime/CrossCheck.hpp"
#include "runtime/DynamicSubtraction.hpp"
#include "runtime/Evaluator.hpp"
#include "runtime/Mex.hpp"
#include "runtime/Show.hpp"
#include "runtime/Nim.hpp"
#include "runtime/OutcomeSearch.hpp"
#include "runtime/Progress.hpp"
#include "runtime/ValuesFile.hpp"
#include "runtime/Wythoff.hpp"

namespace grundy {

namespace {

// Marks a game's strategy as in use while it fills its table, so that a query reached from
// inside the fill (another game's option) goes to the search instead of re-entering.
struct BusyScope {
  Strategy& s;
  explicit BusyScope(Strategy& st) : s(st) { s.busy = true; }
  ~BusyScope() { s.busy = false; }
  BusyScope(const BusyScope&) = delete;
  BusyScope& operator=(const BusyScope&) = delete;
};

// Bottom-up tables count as states; a request this far past the table is left to the search
// unless the rules really look at nearby states.
constexpr std::int64_t kFarAhead = 1 << 16;

// The smallest table for which proven periods are looked for, and the first step of growth
// towards a far heap.
constexpr std::size_t kFirstCheck = 256;

// The rule that decides states by a theorem the plan names.
std::unique_ptr<OutcomeRule> outcome_rule(const OutcomeTheorem& theorem) {
  if (theorem.kind == OutcomeTheorem::Kind::Wythoff) return std::make_unique<WythoffRule>();
  return std::make_unique<DynamicSubtraction>(theorem.k, theorem.heap);
}

// Extends a table whose proven period is (n0, p) to `count` values.
void extend_by_period(DenseTable& t, std::int64_t p, std::size_t count) {
  t.visit([&](auto& v) {
    v.reserve(count);
    const auto step = static_cast<std::size_t>(p);
    while (v.size() < count) v.push_back(v[v.size() - step]);
  });
}

}  // namespace

// How far a kernel's table got when a limit stopped it, and about how long the rest would
// take: the time per heap grows with the heap as n^p (p = 0 for subtraction games, about 1
// for splits into two, 2 into three), p read off the time the second half of the heaps took
// against the first. "heap 200000 of the 1000000 asked for, after 3.1 s; the rest would
// take about 1.3 minutes at this pace".
struct KernelPace {
  std::size_t from = 0;     // the table's size when the query started it
  std::size_t reached = 0;  // its size now
  bool filling = false;     // the kernel is at work (a limit met now is its own)
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::vector<std::pair<std::size_t, double>> seen;  // (heap, seconds) at each poll

  void at(std::size_t heap) {
    // A heap with many options polls many times: its first poll is kept, so that the record
    // grows with the heaps (one per poll interval), not with the options.
    if (!seen.empty() && seen.back().first >= heap) return;
    reached = std::max(reached, heap);
    seen.emplace_back(heap, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::string say(std::uint64_t target) const {
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string out = "; the table reached heap " + std::to_string(reached) + " of the " + std::to_string(target) +
                      " asked for, after " + seconds_text(t);
    if (reached <= from || seen.size() < 4 || t < 0.01) return out;
    const std::size_t mid = from + (reached - from) / 2;
    double t_mid = 0;
    for (const auto& [heap, sec] : seen) {
      if (heap <= mid) t_mid = sec;
    }
    // Time up to n grows as n^(p+1) from `from`; r = (t - t_mid) / t_mid = 2^(p+1) - 1 for from 0.
    const double r = t_mid > 0 ? (t - t_mid) / t_mid : 1;
    const double q = std::clamp(std::log2(r + 1), 1.0, 4.0);  // p + 1
    const auto grow = [q](double x) { return std::pow(x, q); };
    const double done = grow(static_cast<double>(reached)) - grow(static_cast<double>(from));
    const double rest = t * (grow(static_cast<double>(target)) - grow(static_cast<double>(reached))) / done;
    return out + "; the rest would take about " + seconds_text(rest) + " at this pace";
  }
  static std::string seconds_text(double s) {
    char buf[64];
    if (s < 60) std::snprintf(buf, sizeof buf, "%.1f s", s);
    else if (s < 3600) std::snprintf(buf, sizeof buf, "%.1f minutes", s / 60);
    else if (s < 48 * 3600) std::snprintf(buf, sizeof buf, "%.1f hours", s / 3600);
    else std::snprintf(buf, sizeof buf, "%.0f days", s / 86400);
    return buf;
  }
};

// ---- choosing a path ----

Strategy& Evaluator::strategy(const GameInstance& g) {
  if (!g.fast) {
    g.fast = std::make_shared<Strategy>();
    try {
      setup(g, *g.fast);
    } catch (...) {
      g.fast.reset();  // a limit or an interrupt: set up again at the next query
      throw;
    }
  }
  return *g.fast;
}

void Evaluator::setup(const GameInstance& g, Strategy& s) {
  const Ruleset& rules = g.rules();
  const Plan& plan = g.plan();
  auto search = [&](const std::string& how) {
    s.how = how;
    explain(g, s.how);
  };
  if (rules.has_formula()) return search("the value rule: each state's nim-value by its formula, no search");
  if (rules.is_nim()) return search("a Nim heap: the value is the heap size");
  if (plan.graph) return search("memoized search over a hash map");
  if (plan.theorem) {
    s.outcome_rule = outcome_rule(*plan.theorem);
    explain(g, "outcomes (wins, outcome) by a theorem: " + s.outcome_rule->describe());
  }
  if (!plan.code_rejected.empty()) explain(g, plan.code_rejected);
  if (plan.code && rules.state_arity() == 1) {
    const HeapSpec& spec = *plan.code;
    s.how = "native kernel for " + spec.describe();
    if (auto run = spec.subtraction_run()) {
      s.path = RunPath{run->first, run->second, {}};
      s.how +=
          "; a run of takes: (n mod " +
          std::to_string(static_cast<std::uint64_t>(run->first) + static_cast<std::uint64_t>(run->second)) +
          ") / " + std::to_string(run->first);
    } else {
      KernelPath k;
      k.kernel = std::make_unique<HeapKernel>(spec);
      k.spec = spec;
      k.provable = spec.provable();
      k.below = plan.code_below;
      k.differs = plan.code_differs;
      if (limits_.values) adopt_saved(g, k);
      s.path = std::move(k);
    }
    explain(g, s.how + (spec.provable() ? "; its period is proven when it shows up" : ""));
    return;
  }
  const int arity = rules.state_arity();
  if (plan.program && plan.program->arity == arity && arity <= kMaxBoxArity) {
    BoxPath b;
    b.program = plan.program;
    b.box = std::make_unique<BoxTable>(arity);
    s.path = std::move(b);
    if (plan.program->packing.any()) {
      return search(
          "compiled rules (its sets and lists of small integers packed into words), values and outcomes in "
          "hash "
          "maps, searched depth first");
    }
    return search(std::string("compiled rules, values in a dense table over a box of states, filled top-down or swept") +
                  (BoxMoves::applies(*plan.program) ? " (its moves, of a fixed shape, read from tables over the box)" : ""));
  }
  if (arity != 1) return search("memoized search over a hash map");
  s.path = DensePath{};
  search("integer states in a dense table, the rules evaluated bottom-up for n = 0, 1, 2, ...");
}

// ---- reading the tables ----

std::optional<std::uint64_t> Evaluator::fast_value(const Position& p) {
  const GameInstance& g = *p.game;
  Strategy& s = strategy(g);
  if (auto* b = s.as<BoxPath>()) {
    Coords c{};
    if (!coords_of(p.state, b->box->arity(), c, b->program->packing)) {
      if (limits_.explain && b->program->packing.any() && !s.explained_other_states) {
        s.explained_other_states = true;
        explain(g, "the state " + elide(to_string(p), kShownValue) +
                       " does not fit the compiled rules' words (a set holds elements 0.." +
                       std::to_string(IntProgram::kMaxElement) + "; a list of n items up to " +
                       std::to_string(IntProgram::kMaxListLength) + " shares 56 bits among them, 0.." +
                       std::to_string(IntProgram::max_item(8)) + " each for 8): memoized search of the rules " +
                       "as written for such states");
      }
      return std::nullopt;
    }
    return box_value(g, s, c.data());
  }
  if (!p.state.is(Kind::Int)) {
    if (limits_.explain && !s.explained_other_states) {
      s.explained_other_states = true;
      explain(g, std::string("its states here are of kind ") + kind_name(p.state.kind()) +
                     ", not integers: memoized search over a hash map");
    }
    return std::nullopt;
  }
  return heap_value(g, s, p.state.as_int());
}

std::optional<std::uint64_t> Evaluator::heap_value(const GameInstance& g, Strategy& s, std::int64_t n) {
  if (const auto* r = s.as<RunPath>(); r && limits_.cross_check) cross_check_run(g, r->a, r->b, n);
  if (auto v = s.known(n)) return v;
  if (n < 0 || s.busy) return std::nullopt;
  if (s.as<KernelPath>()) return kernel_value(g, s, n);
  if (const auto* d = s.as<DensePath>(); d && !d->stopped) return dense_value(g, s, n);
  return std::nullopt;
}

std::size_t Evaluator::known_table_values(const GameInstance& g, std::int64_t from, std::uint64_t* out,
                                          std::size_t count) const {
  if (!g.fast || !g.memo.empty()) return 0;
  const Strategy& s = *g.fast;
  const auto* b = s.as<BoxPath>();
  if (!b) return s.known_run(from, out, count);
  if (b->box->arity() != 1) return 0;
  std::size_t i = 0;
  for (std::int64_t n = from; i < count; ++i, ++n) {
    const auto v = b->box->known(&n);
    if (!v) break;
    out[i] = *v;
    if (n == INT64_MAX) return i + 1;
  }
  return i;
}

std::optional<std::uint64_t> Evaluator::known_table_value(const GameInstance& g, const std::int64_t* c,
                                                          int n) const {
  if (!g.fast || !g.memo.empty()) return std::nullopt;
  const Strategy& s = *g.fast;
  if (const auto* b = s.as<BoxPath>()) return n == b->box->arity() ? b->box->known(c) : std::nullopt;
  return n == 1 ? s.known(c[0]) : std::nullopt;
}

std::optional<std::uint64_t> Evaluator::table_value(const GameInstance& g, const std::int64_t* c, int n) {
  return query([&]() -> std::optional<std::uint64_t> {
    // What grundy(Position) looks at first: the general search's values and states in progress.
    if (g.rules().is_nim() || !g.memo.empty()) return std::nullopt;
    Strategy& s = strategy(g);
    if (const auto* b = s.as<BoxPath>()) {
      if (n != b->box->arity()) return std::nullopt;
      return box_value(g, s, c);
    }
    if (n != 1) return std::nullopt;
    return heap_value(g, s, c[0]);
  });
}

// ---- filling them ----

std::optional<std::uint32_t> Evaluator::box_value(const GameInstance& g, Strategy& s, const std::int64_t* c) {
  BoxPath& b = *s.as<BoxPath>();
  // Packed states (sets, lists), and states too far apart for a box (b.hashed made below):
  // the same top-down search over a hash map.
  const bool hashed = b.program->packing.any() || b.hashed;
  if (hashed && !b.hashed) b.hashed = std::make_unique<HashedValues>(b.box->arity());
  if (auto v = hashed ? b.hashed->known(c) : b.box->known(c)) return v;
  if (b.stopped || s.busy) return std::nullopt;
  std::optional<std::uint32_t> v;
  {
    BoxCall call{this, &g};
    // A fill computes at most the cells from the origin up to the query, fewer when some
    // are known or the rules skip some: enough for a bar with a total and an estimate (not
    // for packed words, whose values say nothing of how many states lie below).
    call.total = hashed ? 0 : 1;
    for (int i = 0; i < b.box->arity() && call.total; ++i) {
      const auto side = c[i] < 0 ? 1 : static_cast<std::uint64_t>(c[i]) + 1;
      call.total = side > std::numeric_limits<std::uint64_t>::max() / call.total ? 0 : call.total * side;
    }
    const BoxHooks hooks = box_hooks(call);
    BusyScope busy(s);
    ProgressScope bar(limits_.progress, [&g] { return g.display_name(); });
    std::string why;
    bool sparse = false;
    v = hashed ? hashed_value(*b.hashed, *b.program, c, hooks, why)
               : grundy::box_value(*b.box, *b.program, c, hooks, why, &sparse);
    if (!v && sparse) {
      explain(g, "the compiled rules go on over a hash map: " + why);
      b.hashed = std::make_unique<HashedValues>(b.box->arity());
      b.box = std::make_unique<BoxTable>(b.box->arity());  // its pages back: nothing reads them now
      why.clear();
      v = hashed_value(*b.hashed, *b.program, c, hooks, why);
    }
    if (!v) {
      b.stopped = true;
      explain(g, "the compiled rules stop: " + why + "; memoized search from there");
    }
  }
  if (v && !hashed && limits_.cross_check) {
    cross_check_cell(g, *b.box, c, *v, [this](const Position& p) { return grundy(p); });
  }
  return v;
}

void Evaluator::save_table(const GameInstance& g, const KernelPath& k, bool due) {
  if (!limits_.values) return;
  const std::uint32_t mask = k.kernel->mode() == HeapKernel::Mode::Sparse ? k.kernel->mask() : 0;
  limits_.values->offer(k.spec.key(), g.display_name(), k.spec.describe(), k.table, mask, due);
}

// A table of the code's values from a file (--load-values, --checkpoint): its first heaps
// are computed again and must agree (a file of another game's values, or a damaged one, is an
// error rather than wrong values); the kernel goes on from its end.
void Evaluator::adopt_saved(const GameInstance& g, KernelPath& k) {
  std::optional<DenseTable> saved = limits_.values->take(k.spec.key());
  if (!saved) return;
  if (k.below != INT64_MAX && saved->size() > static_cast<std::size_t>(k.below)) {
    saved->truncate(static_cast<std::size_t>(k.below));
  }
  constexpr std::size_t kChecked = 4096;
  DenseTable fresh;
  HeapKernel(k.spec).extend(fresh, std::min(saved->size(), kChecked), [](std::size_t, std::size_t, std::uint64_t) {});
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    if (fresh.get(i) != saved->get(i)) {
      throw Error(ErrorKind::Runtime,
                  "the saved values of " + g.display_name() + " are not its values: heap " + std::to_string(i) +
                      " is " + std::to_string(saved->get(i)) + " in the file and " + std::to_string(fresh.get(i)) +
                      " by the rules",
                  "the file holds another game's values, or is damaged: remove it to start again");
    }
  }
  k.table = std::move(*saved);
  k.kernel->resume(k.table);
  explain(g, "its table goes on from heap " + std::to_string(k.table.size()) + ", saved by an earlier run (" +
                 limits_.values->last() + ")");
}

std::optional<std::uint64_t> Evaluator::kernel_value(const GameInstance& g, Strategy& s, std::int64_t n) {
  BusyScope busy(s);
  ProgressScope bar(limits_.progress, [&g] { return g.display_name(); });
  KernelPace pace;
  pace.from = pace.reached = s.as<KernelPath>()->table.size();
  try {
    return kernel_fill(g, s, n, pace);
  } catch (Error& e) {
    const bool stops = e.kind == ErrorKind::Limit || e.kind == ErrorKind::Interrupted;
    // Not the kernel's own work, or a table refused before it began: nothing to say of its pace.
    if (!stops || !pace.filling || pace.reached <= pace.from) throw;
    Error more(e.kind, e.what() + pace.say(static_cast<std::uint64_t>(n) + 1), e.hint, e.where);
    more.too_many_states = e.too_many_states;
    throw more;
  }
}

std::optional<std::uint64_t> Evaluator::kernel_fill(const GameInstance& g, Strategy& s, std::int64_t n,
                                                    KernelPace& pace) {
  KernelPath& k = *s.as<KernelPath>();
  const bool provable = k.provable;
  const auto target = static_cast<std::uint64_t>(n) + 1;
  // The heaps where the rules leave the code, and those past the code's tail, are the
  // rules' own: the table, right below them, stays, and the rules are evaluated from there.
  auto hand_over = [&](const std::string& line) -> std::optional<std::uint64_t> {
    explain(g, line + "; the rules are evaluated bottom-up from there");
    s.path = DensePath{std::move(k.table), false};  // k is gone from here on
    s.busy = false;
    return dense_value(g, s, n);
  };
  while (k.table.size() < target) {
    const std::size_t size = k.table.size();
    if (static_cast<std::int64_t>(size) >= k.below) {
      return hand_over("not used as " + k.spec.describe() + " from heap " + std::to_string(size) + ": " +
                       k.differs);
    }
    std::uint64_t step = target;
    // On the way to a far heap, grow geometrically and look for a proven period.
    if (provable) step = std::min<std::uint64_t>(target, std::max<std::uint64_t>(2 * size, kFirstCheck));
    step = std::min(step, static_cast<std::uint64_t>(k.below));
    pace.filling = true;
    // A native kernel is no runaway rule: it fills its table at a known pace that the
    // progress bar shows, and Ctrl-C stops it. So its table is bounded by --max-memory alone,
    // by its bytes (a heap's value is a byte, as a rule), not by --max-steps or --max-states,
    // which bound what rules and searches do (Grundy's game to 2^28 is 512 MB of table and
    // some 3 * 10^11 options looked at). The table may be copied as it grows: count both.
    const std::uint64_t bytes = step * static_cast<std::uint64_t>(k.table.width());
    if (heap_over(limits_.max_memory, k.table.bytes() + bytes)) {
      limits_.memory_exceeded(("the table of " + g.display_name() + " to heap " + std::to_string(step - 1) +
                               " (" + std::to_string((bytes + (1 << 20) - 1) >> 20) + " MB)")
                                  .c_str());
    }
    bool whole = false;
    std::uint64_t work_done = 0;
    k.kernel->set_threads(limits_.threads);
    try {
      whole = k.kernel->extend(k.table, static_cast<std::size_t>(step),
                               [&](std::size_t done, std::size_t total, std::uint64_t work) {
                                 work_done += work;
                                 pace.at(done);
                                 if (heap_over(limits_.max_memory)) limits_.memory_exceeded("this statement");
                                 poll(g, done, total);
                                 save_table(g, k, false);
                               });
      pace.reached = k.table.size();
    } catch (...) {
      pace.reached = k.table.size();
      try {
        save_table(g, k, true);  // what a stopped run computed is kept for the next
      } catch (const Error&) {
      }
      throw;
    }
    pace.filling = false;
    save_table(g, k, true);
    if (limits_.cross_check) cross_check_kernel(g, k.spec, k.table, size, k.table.size(), work_done, k.audit);
    // The code's tail ends before this heap.
    if (!whole) return hand_over("the kernel stops at heap " + std::to_string(k.table.size()));
    if (provable && k.table.size() >= k.next_check) {
      k.next_check = 2 * k.table.size();
      if (auto per = proven_period(k.table, k.spec)) {
        k.n0 = per->n0;
        k.p = per->p;
        explain(g, "period " + std::to_string(per->p) + " from heap " + std::to_string(per->n0) +
                       ", proven by the periodicity theorem from " + std::to_string(k.table.size()) +
                       " values (bound " + std::to_string(k.spec.proof_bound(per->n0, per->p)) + ")");
        return s.known(n);
      }
    }
  }
  return k.table.get(static_cast<std::size_t>(n));
}

std::optional<std::uint32_t> Evaluator::dense_value(const GameInstance& g, Strategy& s, std::int64_t n) {
  DensePath& d = *s.as<DensePath>();
  const auto size = static_cast<std::int64_t>(d.table.size());
  // In uint64: n may be INT64_MAX. Past the state cap the search takes over.
  const std::uint64_t wanted = static_cast<std::uint64_t>(n) + 1 - static_cast<std::uint64_t>(size);
  if (games_.states > limits_.max_states || wanted > limits_.max_states - games_.states) return std::nullopt;
  const auto count = static_cast<std::int64_t>(wanted);
  const Ruleset& rules = g.rules();
  SeenValues seen;
  // Options of heap m as values, or nothing when one of them is not made of smaller heaps
  // of this game (or of other games, whose values come from the evaluator).
  std::string why;
  std::int64_t highest = -1;  // with `probe`: the largest heap of this game among the options
  bool elsewhere = false;     // with `probe`: an option has a part of another game with rules
  auto value_of = [&](std::int64_t m, bool probe) -> std::optional<std::uint32_t> {
    auto cursor = rules.options(g, Value::integer(m));
    Option o;
    seen.clear();
    highest = -1;
    elsewhere = false;
    while (cursor->next(o)) {
      std::uint64_t x = 0;
      for (const Position& part : o) {
        if (part.game == &g) {
          if (!part.state.is(Kind::Int) || part.state.as_int() < 0 || part.state.as_int() >= m) {
            why = "its option " + to_string(part) + " is not a smaller state";
            return std::nullopt;
          }
          const std::int64_t h = part.state.as_int();
          highest = std::max(highest, h);
          if (!probe) x ^= d.table.get(static_cast<std::size_t>(h));
        } else if (part.game->rules().is_nim()) {
          x ^= nim_value(part);
        } else if (!probe) {
          x ^= grundy(part);
        } else {
          elsewhere = elsewhere || !part.game->rules().has_formula();
        }
      }
      seen.add(x);
    }
    if (probe) return 0;
    return seen.mex();
  };
  if (d.query != query_) {
    d.query = query_;
    filled_.emplace_back(&g, d.table.size());
  }
  BusyScope busy(s);
  ProgressScope bar(limits_.progress, [&g] { return g.display_name(); });
  std::int64_t m = size;
  if (count > 1 || size == 0) {
    // Moves only into other games (A(n) -> B(n - 1) -> A(n - 2) ...): the query needs one
    // state in a few of each game, and a table of every state would hold them all. (Where
    // the options of n cannot be listed, the fill finds out on its way.)
    bool into_others = false;
    try {
      into_others = value_of(n, true) && elsewhere && highest < 0;
    } catch (const Error& e) {
      if (e.kind != ErrorKind::Runtime) throw;
    }
    if (into_others) {
      d.stopped = true;
      explain(g, "the moves of state " + std::to_string(n) +
                     " lead only into other games, and a table would hold states the query does not "
                     "reach: memoized search");
      return std::nullopt;
    }
  }
  try {
    if (count > kFarAhead) {
      // Far ahead: fill only when the options of n and its neighbours all reach close to
      // them (as in a subtraction game); `move n / 2` is better served by the search, which
      // visits log n states, even when odd heaps also have `move n - 3`.
      for (std::int64_t probe = n; probe > n - 4 && probe >= size; --probe) {
        if (!value_of(probe, true)) return std::nullopt;
        if (highest < probe - std::max<std::int64_t>(64, count / 64)) return std::nullopt;
      }
    }
    d.table.reserve(static_cast<std::size_t>(n + 1));
    for (; m <= n; ++m) {
      if ((m & 0xFF) == 0) poll(g, static_cast<std::uint64_t>(m - size), static_cast<std::uint64_t>(count));
      auto v = value_of(m, false);
      if (!v) break;
      d.table.push(*v);
      ++games_.states;
      ++g.dense_states;
    }
  } catch (const Error& e) {
    // Limits and interrupts stop the query, as they would stop the search.
    if (e.kind != ErrorKind::Runtime) throw;
    why = std::string("its options raise an error (") + e.what() + ")";
  }
  if (m <= n) {
    // The table stays valid below m; from m on the general search takes over, and meets
    // the same option (or error) only if the query needs it.
    d.stopped = true;
    explain(g, "the dense table stops at state " + std::to_string(m) + ": " + why +
                   "; memoized search from there");
    return std::nullopt;
  }
  return d.table.get(static_cast<std::size_t>(n));
}

const DenseTable* Evaluator::dense_values(const GameInstance& g, std::uint64_t count) {
  return query([&] { return dense_values_of(g, count); });
}

const DenseTable* Evaluator::dense_values_of(const GameInstance& g, std::uint64_t count) {
  Strategy& s = strategy(g);
  // A table written out by a formula or a proven period is bounded by its bytes, as a
  // kernel's table is (kernel_fill).
  auto room = [&](const DenseTable& t) {
    const std::uint64_t bytes = count * static_cast<std::uint64_t>(std::max(t.width(), 4));
    if (heap_over(limits_.max_memory, t.bytes() + bytes)) {
      limits_.memory_exceeded(("the table of " + g.display_name() + " to heap " + std::to_string(count - 1)).c_str());
    }
  };
  if (auto* r = s.as<RunPath>()) {  // no kernel run: the formula
    if (r->table.size() >= count) return &r->table;
    room(r->table);
    // A table's values fit 32 bits: a run's value is at most its heap, below --max-memory.
    while (r->table.size() < count) {
      r->table.push(static_cast<std::uint32_t>(r->value(static_cast<std::int64_t>(r->table.size()))));
    }
    return &r->table;
  }
  const DenseTable* t = s.table();
  if (!t) return nullptr;
  if (count == 0 || t->size() >= count) return t;
  const KernelPath* k = s.as<KernelPath>();
  if (!k || k->p == 0) {
    if (s.busy || (!k && s.as<DensePath>()->stopped)) return nullptr;
    const auto last = static_cast<std::int64_t>(count - 1);
    const bool filled = k ? kernel_value(g, s, last).has_value() : dense_value(g, s, last).has_value();
    if (!filled) return nullptr;
    t = s.table();  // the kernel may have handed over to the dense table
  }
  if (auto* kp = s.as<KernelPath>(); kp && kp->table.size() < count && kp->p > 0) {
    room(kp->table);
    extend_by_period(kp->table, kp->p, static_cast<std::size_t>(count));
  }
  return t->size() >= count ? t : nullptr;
}

std::optional<bool> Evaluator::table_wins(const GameInstance& g, const std::int64_t* c, int n) {
  return query([&] { return table_wins_of(g, c, n); });
}

std::optional<bool> Evaluator::table_wins_of(const GameInstance& g, const std::int64_t* c, int n) {
  if (g.rules().is_nim()) return std::nullopt;
  Strategy& s = strategy(g);
  if (s.outcome_rule) {
    if (auto w = s.outcome_rule->wins(c, n)) return w;
  }
  BoxPath* b = s.as<BoxPath>();
  // Not b->stopped: the table of values may stop where outcomes go on (a state past what a
  // dense box holds: the outcome search then hashes its states).
  if (!b || b->outcomes_stopped || s.busy || b->program->max_parts() > 1 || n != b->box->arity()) {
    return std::nullopt;
  }
  if (auto v = b->hashed ? b->hashed->known(c) : b->box->known(c)) return *v != 0;
  if (!b->outcomes) {
    // A state that is one list (Chomp by its columns) is boxed by its items; other sets and
    // lists lie too far apart in their words for tiles.
    const IntProgram::Packing& k = b->program->packing;
    const bool one_list = b->box->arity() == 1 && k.lists == 1 && k.sets == 0;
    b->outcomes = std::make_unique<OutcomeMemo>(b->box->arity(), k.any() && !one_list, one_list);
  }
  return outcome_over_rules(g, s, *b->outcomes, *b->box, *b->program, c, false, b->outcomes_stopped);
}

std::optional<bool> Evaluator::outcome_over_rules(const GameInstance& g, Strategy& s, OutcomeMemo& memo,
                                                  const BoxTable& values, const IntProgram& program,
                                                  const std::int64_t* c, bool misere, bool& stopped) {
  if (auto w = memo.get(c)) return w;
  BoxCall call{this, &g};
  const BoxHooks hooks = box_hooks(call);
  std::string why;
  std::optional<bool> w;
  {
    BusyScope busy(s);
    ProgressScope bar(limits_.progress, [&g, misere] { return (misere ? "misere " : "") + g.display_name(); });
    w = box_outcome(memo, values, program, c, hooks, why, misere);
  }
  if (w) return w;
  stopped = true;
  explain(g, std::string(misere ? "the misere outcome search over the compiled rules stops: "
                                : "the outcome search stops: ") +
                 why + (misere ? "; searched from there" : "; nim-values from there"));
  return std::nullopt;
}

std::optional<bool> Evaluator::table_misere_wins(const GameInstance& g, const std::int64_t* c, int n) {
  return query([&] { return table_misere_wins_of(g, c, n); });
}

std::optional<bool> Evaluator::table_misere_wins_of(const GameInstance& g, const std::int64_t* c, int n) {
  const std::shared_ptr<const IntProgram>& program = g.plan().program;
  if (g.rules().is_nim() || !program || program->arity != n || program->max_parts() > 1) return std::nullopt;
  Strategy& s = strategy(g);
  if (s.misere_stopped || s.busy) return std::nullopt;
  if (!s.misere_outcomes) s.misere_outcomes = std::make_unique<OutcomeMemo>(n, program->packing.any());
  const BoxTable no_values(n);  // normal play's values say nothing of misère outcomes
  return outcome_over_rules(g, s, *s.misere_outcomes, no_values, *program, c, true, s.misere_stopped);
}

// ---- the period of a one-integer game ----

// One query: the strategy it holds stays while the values it asks for are computed.
PeriodInfo Evaluator::period(const GameInstance& game, std::optional<std::int64_t> limit) {
  return query([&] { return period_of(game, limit); });
}

PeriodInfo Evaluator::period_of(const GameInstance& game, std::optional<std::int64_t> limit) {
  const Ruleset& rules = game.rules();
  if (rules.state_arity() != 1) {
    fail("period needs a game whose state is one integer; " + game.display_name() + " takes " +
             std::to_string(rules.state_arity()) + " values",
         "period looks at the sequence grundy(G(0)), grundy(G(1)), ...");
  }
  if (game.plan().graph) {
    fail("period needs a game whose state is a heap size; the states of " + game.display_name() +
             " are the nodes of its graph",
         "period looks at the sequence grundy(G(0)), grundy(G(1)), ...; ask grundy of each node instead");
  }
  Strategy& s = strategy(game);
  const bool code = s.as<KernelPath>() || s.as<RunPath>();
  // The heaps 0..last, last + 1 of them: a limit of 2^63 - 1 is one heap less, as far past
  // any table (its count overflowed, and the doubling below never reached it).
  const std::int64_t last =
      std::min<std::int64_t>(limit ? *limit : code ? kPeriodLimitCodes : kPeriodLimitRules, INT64_MAX - 1);
  if (last < 1) fail("the limit of period must be at least 1, got " + std::to_string(last));
  if (const auto* k = s.as<KernelPath>(); k && k->p > 0) return PeriodInfo{k->n0, k->p, true};
  if (const auto* r = s.as<RunPath>()) {  // subtraction of a run: period a + b, from heap 0
    std::int64_t p = 0;
    if (__builtin_add_overflow(r->a, r->b, &p)) {
      fail("the values of " + game.display_name() + " repeat only after a + b = " +
               std::to_string(static_cast<std::uint64_t>(r->a) + static_cast<std::uint64_t>(r->b)) +
               " heaps, past the largest 64-bit heap",
           "its values are (n mod (a + b)) / a, here with a = " + std::to_string(r->a) +
               " and b = " + std::to_string(r->b));
    }
    return PeriodInfo{0, p, true};
  }
  DenseTable own;  // for games without a dense table: values one by one
  const DenseTable* table = nullptr;
  // A proof may show up in a prefix of the values (it holds for ever); an observed period
  // must hold on all of them, up to the limit and beyond when more are known.
  for (std::int64_t count = std::min<std::int64_t>(last + 1, 256);; count = std::min(2 * count, last + 1)) {
    table = dense_values(game, static_cast<std::uint64_t>(count));
    if (!table) {
      while (static_cast<std::int64_t>(own.size()) < count) {
        const Position p{&game, Value::integer(static_cast<std::int64_t>(own.size()))};
        const std::uint64_t v = grundy(p);
        // Only Nim-like values grow this far; they have no period to find.
        if (v >= kInProgress)
          fail("the nim-value of " + to_string(p) + " is too large for a table of values");
        own.push(static_cast<std::uint32_t>(v));
      }
      table = &own;
    }
    // The kernel may have given way to the rules on the way (a recognised code that the
    // rules leave at some heap): only a kernel's table is proven.
    if (auto* k = s.as<KernelPath>()) {
      if (k->p > 0) return PeriodInfo{k->n0, k->p, true};
      if (k->provable) {
        if (auto r = proven_period(*table, k->spec)) {
          k->n0 = r->n0;
          k->p = r->p;
          return *r;
        }
      }
    }
    if (count > last) break;
  }
  if (auto seen = observed_period(*table)) return *seen;
  fail("no period shows up among the heaps 0.." + std::to_string(last) + " of " + game.display_name() +
           " (the limit)",
       "search further with period(" + game.display_name() +
           ", N), e.g. N = " + std::to_string(last < (INT64_MAX / 4) ? last * 4 : last));
}

}  // namespace grundy
