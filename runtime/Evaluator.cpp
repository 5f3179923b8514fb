#include "runtime/Evaluator.hpp"

#include <algorithm>
#include <deque>
#include <ostream>

#include <absl/container/flat_hash_set.h>

#include "runtime/Cycle.hpp"
#include "runtime/Error.hpp"
#include "runtime/IntProgram.hpp"
#include "runtime/Kernels.hpp"
#include "runtime/OutcomeMemo.hpp"
#include "runtime/OutcomeRule.hpp"
#include "runtime/Period.hpp"
#include "runtime/Progress.hpp"
#include "runtime/Shorthands.hpp"
#include "runtime/StackGuard.hpp"
#include "runtime/Tuples.hpp"

namespace grundy {

std::uint32_t mex(const std::vector<bool>& seen) {
  std::uint32_t m = 0;
  while (m < seen.size() && seen[m]) ++m;
  return m;
}

namespace {

// The values seen among a position's options. Small values sit in a bit vector; the rare
// large ones (XORs of big values) in a list, since the mex never exceeds the option count.
class SeenValues {
 public:
  void add(std::uint64_t v) {
    if (v < kDense) {
      if (v >= bits_.size()) bits_.resize(std::max<std::size_t>(v + 1, bits_.size() * 2));
      bits_[v] = true;
    } else if (v < kInProgress) {
      big_.push_back(static_cast<std::uint32_t>(v));
    }  // else: past any mex (a position has fewer than 2^32 options)
  }
  std::uint32_t mex() {
    std::uint32_t m = grundy::mex(bits_);
    if (m < kDense || big_.empty()) return m;
    std::sort(big_.begin(), big_.end());
    for (std::uint32_t v : big_) {
      if (v == m) ++m;
      else if (v > m) break;
    }
    return m;
  }
  void clear() {
    std::fill(bits_.begin(), bits_.end(), false);
    big_.clear();
  }

 private:
  static constexpr std::uint32_t kDense = 1u << 16;
  std::vector<bool> bits_;
  std::vector<std::uint32_t> big_;
};

struct Frame {
  Position pos;
  std::unique_ptr<OptionCursor> cursor;
  Option pending;
  bool has_pending = false;
  SeenValues seen;
};

// A Nim heap's value is its size; no memo, no search.
std::uint64_t nim_value(const Position& p) {
  const std::int64_t n = p.state.as_int();
  if (n < 0) throw Error(ErrorKind::Runtime, "heap sizes are >= 0, got " + to_string(p));
  return static_cast<std::uint64_t>(n);
}

// A deque: a search a few million positions deep does not copy its frames as it grows, nor
// hold the old and the new array at once.
using SearchStack = std::deque<Frame>;

[[noreturn]] void throw_loop(const SearchStack& stack, const Position& again) {
  std::size_t from = 0;
  for (std::size_t i = stack.size(); i-- > 0;) {
    if (stack[i].pos == again) {
      from = i;
      break;
    }
  }
  // The path the search took is a cycle; a shorter one through the same position reads better.
  std::vector<Position> cycle;
  for (std::size_t i = from; i < stack.size(); ++i) cycle.push_back(stack[i].pos);
  cycle.push_back(again);
  std::vector<Position> shortest = shortest_cycle(again);
  if (!shortest.empty() && shortest.size() < cycle.size()) cycle = std::move(shortest);
  throw Error(ErrorKind::Runtime, "the rules loop: " + describe_cycle(cycle),
              "a game must end: every sequence of moves has to reach a position with no options");
}

[[noreturn]] void throw_too_many(std::uint64_t states) {
  throw Error(ErrorKind::Limit,
              "too many states: the memo holds " + std::to_string(states) + " positions (the limit)",
              "raise the limit with --max-states N");
}

// A table that would have to grow past the cap at once: say how far it was asked to go.
[[noreturn]] void throw_too_many(std::uint64_t states, std::uint64_t more, std::uint64_t max) {
  throw Error(ErrorKind::Limit,
              "too many states: this needs " + std::to_string(more) +
                  " more positions, and the memo, which holds " + std::to_string(states) + ", may hold " +
                  std::to_string(max),
              "raise the limit with --max-states N; a heap this far is answered at once only through a "
              "proven period (period(G) tells whether one is known)");
}

// Marks a game's fast path as in use while it fills its table, so that a query reached from
// inside the fill (another game's option) goes to the search instead of re-entering.
struct BusyScope {
  FastPath& f;
  explicit BusyScope(FastPath& fp) : f(fp) { f.busy = true; }
  ~BusyScope() { f.busy = false; }
  BusyScope(const BusyScope&) = delete;
  BusyScope& operator=(const BusyScope&) = delete;
};

// Options a native kernel looks at per step charged to --max-steps.
constexpr std::uint64_t kKernelOptionsPerStep = 64;

// Bottom-up tables count as states; a request this far past the table is left to the search
// unless the rules really look at nearby states.
constexpr std::int64_t kFarAhead = 1 << 16;

// The smallest table for which proven periods are looked for, and the first step of growth
// towards a far heap.
constexpr std::size_t kFirstCheck = 256;

// A state of `arity` integers as coordinates.
bool coords_of(const Value& state, int arity, Coords& c) {
  if (arity == 1) {
    if (!state.is(Kind::Int)) return false;
    c[0] = state.as_int();
    return true;
  }
  if (!state.is(Kind::Tuple) || static_cast<int>(state.items().size()) != arity) return false;
  for (int i = 0; i < arity; ++i) {
    const Value& v = state.items()[static_cast<std::size_t>(i)];
    if (!v.is(Kind::Int)) return false;
    c[static_cast<std::size_t>(i)] = v.as_int();
  }
  return true;
}

// The value of a state when a fast path already has it.
std::optional<std::uint64_t> known_value(const FastPath& f, const Value& state) {
  if (f.kind == FastPath::Kind::Box) {
    Coords c{};
    if (!coords_of(state, f.box->arity(), c)) return std::nullopt;
    return f.box->known(c.data());
  }
  if (state.is(Kind::Int)) return f.known(state.as_int());
  return std::nullopt;
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

// ---- fast paths ----

void Evaluator::explain(const GameInstance& g, const std::string& line) const {
  if (limits_.explain) *limits_.explain << "explain: " << g.display_name() << ": " << line << '\n';
}

BoxHooks Evaluator::box_hooks(BoxCall& call) {
  BoxHooks hooks;
  BoxCall* c = &call;
  hooks.poll = [c] { c->ev->poll(*c->g, c->done, 0); };
  hooks.reserve = [c](std::uint64_t n) { c->ev->reserve_states(n); };
  hooks.room = limits_.max_states > games_.states ? limits_.max_states - games_.states : 0;
  // A box holds up to 4 bytes a cell and is copied when it grows: keep it within --max-memory.
  hooks.max_cells =
      std::min<std::uint64_t>(hooks.max_cells, std::max<std::uint64_t>(limits_.max_memory / 8, 1024));
  hooks.max_stack_bytes = limits_.max_memory / 4;
  hooks.max_outcome_bytes = limits_.max_memory / 2;
  hooks.computed = [c](std::uint64_t n) {
    c->done += n;
    c->ev->games_.states += n;
    c->g->dense_states += n;
  };
  return hooks;
}

void Evaluator::reserve_states(std::uint64_t more) {
  if (more > limits_.max_states || games_.states > limits_.max_states - more) {
    if (more == 1) throw_too_many(games_.states);
    throw_too_many(games_.states, more, limits_.max_states);
  }
}

void Evaluator::poll(const GameInstance& g, std::uint64_t done, std::uint64_t total) {
  if (limits_.interrupt && limits_.interrupt->load(std::memory_order_relaxed)) {
    throw Error(ErrorKind::Interrupted, "interrupted");
  }
  (void)g;
  if (limits_.progress) limits_.progress->update(done, total);
}

FastPath& Evaluator::fast_path(const GameInstance& g) {
  if (!g.fast) {
    g.fast = std::make_shared<FastPath>();
    try {
      setup(g, *g.fast);
    } catch (...) {
      g.fast.reset();  // a limit or an interrupt: set up again at the next query
      throw;
    }
  }
  return *g.fast;
}

void Evaluator::setup_outcome_rule(const GameInstance& g, FastPath& f) {
  const auto* source = dynamic_cast<const OutcomeRuleSource*>(&g.rules());
  if (!source) return;
  try {
    f.outcome_rule = source->outcome_rule(g);
  } catch (const Error& e) {
    if (e.kind == ErrorKind::Interrupted) throw;
    f.outcome_rule.reset();
  }
  if (f.outcome_rule) explain(g, "outcomes (wins, outcome) by a theorem: " + f.outcome_rule->describe());
}

void Evaluator::setup(const GameInstance& g, FastPath& f) {
  const Ruleset& rules = g.rules();
  if (rules.has_formula()) {
    f.kind = FastPath::Kind::General;
    f.how = "the value rule: each state's nim-value by its formula, no search";
    explain(g, f.how);
    return;
  }
  if (rules.is_nim()) {
    f.kind = FastPath::Kind::General;
    f.how = "a Nim heap: the value is the heap size";
    explain(g, f.how);
    return;
  }
  if (dynamic_cast<const GraphRuleset*>(&rules)) {
    f.kind = FastPath::Kind::General;
    f.how = "memoized search over a hash map";
    explain(g, f.how);
    return;
  }
  setup_outcome_rule(g, f);
  const auto* source = rules.state_arity() == 1 ? dynamic_cast<const HeapSpecSource*>(&rules) : nullptr;
  if (source) {
    std::optional<HeapSpec> spec;
    try {
      spec = source->heap_spec(g);
    } catch (const Error& e) {
      if (e.kind == ErrorKind::Interrupted) throw;
      spec.reset();
    }
    if (spec) {
      spec->normalize();
      // Rules recognised as a code are checked against it on their small heaps: a run of
      // takes at once (its values come from a formula, not from the kernel), others as the
      // kernel reaches each heap, so that a query of heap 0 costs no more than heap 0.
      // `octal` and `subtraction` are their code: nothing to check.
      const bool exact = source->spec_is_the_rules();
      const auto bound = static_cast<std::int64_t>(std::min<std::size_t>(spec->K() + 40, 600));
      const std::string why =
          exact || !spec->subtraction_run() ? std::string() : verify_spec(*spec, g, 0, bound);
      if (why.empty()) {
        if (!exact && !spec->subtraction_run()) f.verify_to = bound + 1;
        f.kind = FastPath::Kind::Kernel;
        f.kernel = std::make_unique<HeapKernel>(*spec);
        f.spec = std::make_unique<HeapSpec>(*spec);
        f.how = "native kernel for " + spec->describe();
        if (auto run = spec->subtraction_run()) {
          f.run_a = run->first;
          f.run_b = run->second;
          f.how += "; a run of takes: (n mod " +
                   std::to_string(static_cast<std::uint64_t>(run->first) +
                                  static_cast<std::uint64_t>(run->second)) +
                   ") / " + std::to_string(run->first);
        }
        explain(g, f.how + (spec->provable() ? "; its period is proven when it shows up" : ""));
        return;
      }
      explain(g, "not used as " + spec->describe() + ": " + why);
    }
  }
  if (const auto* compiler = dynamic_cast<const IntRulesSource*>(&rules)) {
    try {
      f.compiled = compiler->int_rules(g);
    } catch (const Error& e) {
      if (e.kind == ErrorKind::Interrupted) throw;
      f.compiled.reset();
    }
    if (f.compiled && f.compiled->arity == rules.state_arity() && f.compiled->arity <= kMaxBoxArity) {
      f.kind = FastPath::Kind::Box;
      f.box = std::make_unique<TupleMemo>(f.compiled->arity);
      f.how = "compiled rules, values in a dense table over a box of states, filled top-down or swept";
      explain(g, f.how);
      return;
    }
    f.compiled.reset();
  }
  if (rules.state_arity() != 1) {
    f.kind = FastPath::Kind::General;
    f.how = "memoized search over a hash map";
    explain(g, f.how);
    return;
  }
  f.kind = FastPath::Kind::Dense;
  f.how = "dense table, the rules evaluated bottom-up for n = 0, 1, 2, ...";
  explain(g, f.how);
}

std::optional<std::uint32_t> Evaluator::box_value(const GameInstance& g, FastPath& f, const std::int64_t* c) {
  if (auto v = f.box->known(c)) return v;
  if (f.broken || f.busy) return std::nullopt;
  std::optional<std::uint32_t> v;
  {
    BoxCall call{this, &g};
    const BoxHooks hooks = box_hooks(call);
    BusyScope busy(f);
    ProgressScope bar(limits_.progress, [&g] { return g.display_name(); });
    std::string why;
    v = grundy::box_value(*f.box, *f.compiled, c, hooks, why);
    if (!v) {
      f.broken = true;
      explain(g, "the compiled rules stop: " + why + "; memoized search from there");
    }
  }
  if (v && limits_.cross_check) cross_check_cell(*this, g, f, c, *v);
  return v;
}

std::optional<std::uint64_t> Evaluator::fast_value(const Position& p) {
  const GameInstance& g = *p.game;
  FastPath& f = fast_path(g);
  if (f.kind == FastPath::Kind::Box) {
    Coords c{};
    if (!coords_of(p.state, f.box->arity(), c)) return std::nullopt;
    return box_value(g, f, c.data());
  }
  if (!p.state.is(Kind::Int)) return std::nullopt;
  return heap_value(g, f, p.state.as_int());
}

std::optional<std::uint64_t> Evaluator::heap_value(const GameInstance& g, FastPath& f, std::int64_t n) {
  if (f.kind == FastPath::Kind::General) return std::nullopt;
  if (limits_.cross_check && f.run_a > 0) cross_check_run(g, f, n);
  if (auto v = f.known(n)) return v;
  if (n < 0 || f.busy) return std::nullopt;
  if (f.kind == FastPath::Kind::Kernel) return kernel_value(g, f, n);
  if (f.broken) return std::nullopt;
  return dense_value(g, f, n);
}

std::size_t Evaluator::known_table_values(const GameInstance& g, std::int64_t from, std::uint64_t* out,
                                          std::size_t count) const {
  if (!g.fast || !g.memo.empty()) return 0;
  const FastPath& f = *g.fast;
  if (f.kind != FastPath::Kind::Box) return f.known_run(from, out, count);
  if (f.box->arity() != 1) return 0;
  std::size_t i = 0;
  for (std::int64_t n = from; i < count; ++i, ++n) {
    const auto v = f.box->known(&n);
    if (!v) break;
    out[i] = *v;
    if (n == INT64_MAX) return i + 1;
  }
  return i;
}

std::optional<std::uint64_t> Evaluator::known_table_value(const GameInstance& g, const std::int64_t* c,
                                                          int n) const {
  if (!g.fast || !g.memo.empty()) return std::nullopt;
  const FastPath& f = *g.fast;
  if (f.kind == FastPath::Kind::Box) return n == f.box->arity() ? f.box->known(c) : std::nullopt;
  return n == 1 ? f.known(c[0]) : std::nullopt;
}

std::optional<std::uint64_t> Evaluator::table_value(const GameInstance& g, const std::int64_t* c, int n) {
  // What grundy(Position) looks at first: the general search's values and states in progress.
  if (g.rules().is_nim() || !g.memo.empty()) return std::nullopt;
  FastPath& f = fast_path(g);
  if (f.kind == FastPath::Kind::Box) {
    if (n != f.box->arity()) return std::nullopt;
    return box_value(g, f, c);
  }
  if (n != 1) return std::nullopt;
  return heap_value(g, f, c[0]);
}

std::optional<std::uint64_t> Evaluator::kernel_value(const GameInstance& g, FastPath& f, std::int64_t n) {
  const bool provable = f.spec->provable();
  const auto target = static_cast<std::uint64_t>(n) + 1;
  BusyScope busy(f);
  ProgressScope bar(limits_.progress, [&g] { return g.display_name(); });
  while (f.table.size() < target) {
    const std::size_t size = f.table.size();
    std::uint64_t step = target;
    // On the way to a far heap, grow geometrically and look for a proven period.
    if (provable) step = std::min<std::uint64_t>(target, std::max<std::uint64_t>(2 * size, kFirstCheck));
    if (f.verified < f.verify_to && f.verified < static_cast<std::int64_t>(step)) {
      const std::int64_t to = std::min<std::int64_t>(f.verify_to, static_cast<std::int64_t>(step));
      const std::string why = verify_spec(*f.spec, g, f.verified, to - 1);
      if (!why.empty()) {
        // The rules are not the code from some heap on: the table, checked below it, stays,
        // and the rules are evaluated from there.
        explain(g, "not used as " + f.spec->describe() + " from heap " + std::to_string(f.table.size()) +
                       ": " + why + "; the rules are evaluated bottom-up from there");
        f.kind = FastPath::Kind::Dense;
        f.kernel.reset();
        f.spec.reset();
        f.busy = false;
        return dense_value(g, f, n);
      }
      f.verified = to;
    }
    reserve_states(step - size);
    // The kernel's work is charged to --max-steps as it goes (a heap with splits into three
    // has n^2 / 12 options), and the heaps it adds count as states even when it stops. Its
    // loops look at an option in about a nanosecond, some 64 times faster than the
    // interpreter takes a step: 64 options are one step, so that the limit stops the same
    // time of work (Grundy's game to 10^6 looks at 3 * 10^9 options in 3 s).
    bool whole = false;
    std::uint64_t carry = 0, work_done = 0;
    try {
      whole = f.kernel->extend(f.table, static_cast<std::size_t>(step),
                               [&](std::size_t done, std::size_t total, std::uint64_t work) {
                                 work_done += work;
                                 carry += work;
                                 limits_.charge(carry / kKernelOptionsPerStep);
                                 carry %= kKernelOptionsPerStep;
                                 poll(g, done, total);
                               });
    } catch (...) {
      games_.states += f.table.size() - size;
      g.dense_states += f.table.size() - size;
      throw;
    }
    const std::size_t added = f.table.size() - size;
    games_.states += added;
    g.dense_states += added;
    if (limits_.cross_check)
      cross_check_kernel(g, *f.spec, f.table, size, f.table.size(), work_done, f.audit);
    if (!whole) {
      // The code's tail ends before this heap: the rules take over from here.
      f.kind = FastPath::Kind::Dense;
      explain(g, "the kernel stops at heap " + std::to_string(f.table.size()) +
                     "; the rules are evaluated bottom-up from there");
      f.busy = false;
      return dense_value(g, f, n);
    }
    if (provable && f.table.size() >= f.next_check) {
      f.next_check = 2 * f.table.size();
      if (auto per = proven_period(f.table, *f.spec)) {
        f.n0 = per->n0;
        f.p = per->p;
        explain(g, "period " + std::to_string(per->p) + " from heap " + std::to_string(per->n0) +
                       ", proven by the periodicity theorem from " + std::to_string(f.table.size()) +
                       " values (bound " + std::to_string(f.spec->proof_bound(per->n0, per->p)) + ")");
        return f.known(n);
      }
    }
  }
  return f.table.get(static_cast<std::size_t>(n));
}

std::optional<std::uint32_t> Evaluator::dense_value(const GameInstance& g, FastPath& f, std::int64_t n) {
  const auto size = static_cast<std::int64_t>(f.table.size());
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
  auto value_of = [&](std::int64_t m, bool probe) -> std::optional<std::uint32_t> {
    auto cursor = rules.options(g, Value::integer(m));
    Option o;
    seen.clear();
    highest = -1;
    while (cursor->next(o)) {
      std::uint64_t x = 0;
      for (const Position& part : o) {
        if (part.game == &g) {
          if (!part.state.is(Kind::Int) || part.state.as_int() < 0 || part.state.as_int() >= m) {
            why = "its option " + to_string(part) + " is not a smaller state";
            return std::nullopt;
          }
          const std::int64_t s = part.state.as_int();
          highest = std::max(highest, s);
          if (!probe) x ^= f.table.get(static_cast<std::size_t>(s));
        } else if (part.game->rules().is_nim()) {
          x ^= nim_value(part);
        } else if (!probe) {
          x ^= grundy(part);
        }
      }
      seen.add(x);
    }
    if (probe) return 0;
    return seen.mex();
  };
  BusyScope busy(f);
  ProgressScope bar(limits_.progress, [&g] { return g.display_name(); });
  std::int64_t m = size;
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
    f.table.reserve(static_cast<std::size_t>(n + 1));
    for (; m <= n; ++m) {
      if ((m & 0xFF) == 0) poll(g, static_cast<std::uint64_t>(m - size), static_cast<std::uint64_t>(count));
      auto v = value_of(m, false);
      if (!v) break;
      f.table.push(*v);
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
    f.broken = true;
    explain(g, "the dense table stops at state " + std::to_string(m) + ": " + why +
                   "; memoized search from there");
    return std::nullopt;
  }
  return f.table.get(static_cast<std::size_t>(n));
}

const DenseTable* Evaluator::dense_values(const GameInstance& g, std::uint64_t count) {
  FastPath& f = fast_path(g);
  if (f.kind == FastPath::Kind::General || f.kind == FastPath::Kind::Box) return nullptr;
  if (count == 0 || f.table.size() >= count) return &f.table;
  if (f.run_a > 0) {  // no kernel run: the formula
    reserve_states(count - f.table.size());
    const std::size_t before = f.table.size();
    // A table's values fit 32 bits: a run's value is at most its heap, below --max-states.
    while (f.table.size() < count)
      f.table.push(static_cast<std::uint32_t>(f.run_value(static_cast<std::int64_t>(f.table.size()))));
    games_.states += f.table.size() - before;
    g.dense_states += f.table.size() - before;
    return &f.table;
  }
  if (f.p == 0) {
    if (f.busy) return nullptr;
    const auto last = static_cast<std::int64_t>(count - 1);
    const bool filled = f.kind == FastPath::Kind::Kernel ? kernel_value(g, f, last).has_value()
                                                         : dense_value(g, f, last).has_value();
    if (!filled) return nullptr;
  }
  if (f.table.size() < count && f.p > 0) {
    reserve_states(count - f.table.size());
    const std::size_t before = f.table.size();
    extend_by_period(f.table, f.p, static_cast<std::size_t>(count));
    games_.states += f.table.size() - before;
    g.dense_states += f.table.size() - before;
  }
  return f.table.size() >= count ? &f.table : nullptr;
}

// ---- the general search ----

std::uint64_t Evaluator::grundy(const Position& root) {
  if (root.game->rules().is_nim()) return nim_value(root);
  if (root.game->rules().has_formula()) return root.game->rules().formula(*root.game, root.state);
  check_stack();  // a query inside a rule re-enters here
  {
    auto it = root.game->memo.find(root.state);
    if (it != root.game->memo.end() && it->second != kInProgress) return it->second;
    if (it != root.game->memo.end()) {
      // A query inside the rules asks for a value still being computed further out.
      throw Error(ErrorKind::Runtime,
                  "the rules loop: computing " + to_string(root) + " needs the value of " + to_string(root) +
                      " itself",
                  "a rule may ask about other positions, not about the position it moves from "
                  "or one that leads back to it");
    }
  }
  if (auto v = fast_value(root)) return *v;
  SearchStack stack;
  std::uint64_t ticks = 0;
  auto enter = [&](const Position& p) {
    if (games_.states >= limits_.max_states) throw_too_many(games_.states);
    auto cursor = p.game->rules().options(*p.game, p.state);
    // A state that is a list or tuple holds its elements, in the memo as long as it lasts.
    const std::uint64_t body = games_.meter.hold(p.state);
    try {
      check_memory(limits_, held_bytes() + body + (stack.size() + 1) * kBytesPerFrame, "the search");
    } catch (...) {
      games_.meter.release(p.state);
      throw;
    }
    p.game->memo[p.state] = kInProgress;
    ++games_.states;
    games_.state_bytes += body;
    stack.push_back(Frame{p, std::move(cursor), {}, false, {}});
  };
  try {
    enter(root);
    while (!stack.empty()) {
      if ((++ticks & 0xFFF) == 0 && limits_.interrupt && limits_.interrupt->load(std::memory_order_relaxed)) {
        throw Error(ErrorKind::Interrupted, "interrupted");
      }
      Frame& f = stack.back();
      if (!f.has_pending) {
        if (!f.cursor->next(f.pending)) {
          f.pos.game->memo[f.pos.state] = f.seen.mex();
          stack.pop_back();
          continue;
        }
        f.has_pending = true;
      }
      std::uint64_t x = 0;
      bool ready = true;
      for (const Position& part : f.pending) {
        if (part.game->rules().is_nim()) {
          x ^= nim_value(part);
          continue;
        }
        if (part.game->rules().has_formula()) {
          x ^= part.game->rules().formula(*part.game, part.state);
          continue;
        }
        if (part.game->fast) {
          if (auto v = known_value(*part.game->fast, part.state)) {
            x ^= *v;
            continue;
          }
        }
        auto it = part.game->memo.find(part.state);
        if (it == part.game->memo.end()) {
          // A kernel or a dense table may have it without a search.
          if (auto v = fast_value(part)) {
            x ^= *v;
            continue;
          }
          ready = false;
          enter(part);  // invalidates f
          break;
        }
        if (it->second == kInProgress) throw_loop(stack, part);
        x ^= it->second;
      }
      if (!ready) continue;
      f.seen.add(x);
      f.has_pending = false;
    }
  } catch (...) {
    // Positions left in progress would look like loops to the next query.
    for (const Frame& f : stack) {
      f.pos.game->memo.erase(f.pos.state);
      --games_.states;
      games_.state_bytes -= std::min(games_.meter.release(f.pos.state), games_.state_bytes);
    }
    throw;
  }
  return root.game->memo.at(root.state);
}

std::uint64_t Evaluator::grundy(const Option& parts) {
  std::uint64_t x = 0;
  for (const Position& p : parts) x ^= grundy(p);
  return x;
}

bool Evaluator::wins(const Option& parts) {
  if (parts.size() != 1 || parts[0].game->rules().is_nim()) return grundy(parts) != 0;
  const Position& p = parts[0];
  Coords c{};
  const int arity = p.game->rules().state_arity();
  if (arity <= kMaxBoxArity && coords_of(p.state, arity, c)) {
    if (auto w = table_wins(*p.game, c.data(), arity)) return *w;
  }
  return grundy(parts) != 0;
}

std::optional<bool> Evaluator::table_wins(const GameInstance& g, const std::int64_t* c, int n) {
  if (g.rules().is_nim()) return std::nullopt;
  FastPath& f = fast_path(g);
  if (f.outcome_rule) {
    if (auto w = f.outcome_rule->wins(c, n)) return w;
  }
  if (f.kind != FastPath::Kind::Box || f.broken || f.outcomes_broken || f.busy ||
      f.compiled->max_parts() > 1 || n != f.box->arity()) {
    return std::nullopt;
  }
  if (auto v = f.box->known(c)) return *v != 0;
  if (!f.outcomes) f.outcomes = std::make_unique<OutcomeMemo>(f.box->arity());
  if (auto w = f.outcomes->get(c)) return w;
  BoxCall call{this, &g};
  const BoxHooks hooks = box_hooks(call);
  std::string why;
  std::optional<bool> w;
  {
    BusyScope busy(f);
    ProgressScope bar(limits_.progress, [&g] { return g.display_name(); });
    w = box_outcome(*f.outcomes, *f.box, *f.compiled, c, hooks, why);
  }
  if (w) return w;
  f.outcomes_broken = true;
  explain(g, "the outcome search stops: " + why + "; nim-values from there");
  return std::nullopt;
}

namespace {
// Options equal as multisets are one option.
class MultisetFilter {
 public:
  bool first_time(const Option& o) {
    Option key = o;  // the states are shared, not copied
    std::sort(key.begin(), key.end());
    return seen_.insert(std::move(key)).second;
  }

 private:
  absl::flat_hash_set<Option> seen_;
};
}  // namespace

std::vector<Option> Evaluator::options(const Position& p) {
  std::vector<Option> out;
  MultisetFilter filter;
  auto cursor = p.game->rules().options(*p.game, p.state);
  Option o;
  std::uint64_t bytes = 0;
  while (cursor->next(o)) {
    limits_.charge(1);  // --max-steps: the searches of misere and every list options
    if (!filter.first_time(o)) continue;
    // An option and its key in the filter take a few hundred bytes, and its states what
    // they hold (a move that rewrites a list of n cells makes n of them): a heap with 10^8
    // options, or 10^4 options of 10^4 cells, must stop at --max-memory, not at the
    // operating system's OOM killer.
    std::uint64_t b = kBytesPerOption;
    for (const Position& part : o) b += part.state.bytes();
    bytes += b;
    out.push_back(o);
    if ((out.size() & 0xFFF) == 0 || b > kBytesPerOption + 4096) {
      check_memory(limits_, held_bytes() + bytes, "the list of options");
    }
  }
  return out;
}

std::vector<Option> sum_options(Evaluator& ev, const Option& sum) {
  std::vector<Option> out;
  MultisetFilter filter;
  std::uint64_t bytes = 0;  // each option of n parts, and its key in the filter: 2n positions
  for (std::size_t i = 0; i < sum.size(); ++i) {
    for (Option& o : ev.options(sum[i])) {
      Option next(sum.begin(), sum.begin() + static_cast<std::ptrdiff_t>(i));
      next.insert(next.end(), o.begin(), o.end());
      next.insert(next.end(), sum.begin() + static_cast<std::ptrdiff_t>(i) + 1, sum.end());
      if (!filter.first_time(next)) continue;
      bytes += 2 * (sizeof(Option) + next.size() * sizeof(Position)) + 32;
      for (const Position& part : o) bytes += part.state.bytes();  // the moved part's new states
      check_memory(ev.limits(), ev.held_bytes() + bytes, "the list of options");
      out.push_back(std::move(next));
    }
  }
  return out;
}

}  // namespace grundy
