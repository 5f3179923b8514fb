// Smith's values of loopy games by staged labelling (runtime/Loopy.hpp).
#include "runtime/Loopy.hpp"

#include <algorithm>
#include <deque>

#include <absl/container/flat_hash_set.h>

#include "runtime/BoxTable.hpp"
#include "runtime/Error.hpp"
#include "runtime/Evaluator.hpp"

namespace grundy {

namespace {
// The options of one state from the compiled rules, as coordinates (moves only: a loopy game
// does not split).
class CoordsSink : public OptionSink {
 public:
  explicit CoordsSink(int arity) : arity_(arity) {}
  std::vector<std::int64_t> coords;
  bool option(const std::int64_t* c, int parts) override {
    if (parts != 1) return false;
    for (int i = 0; i < arity_; ++i) coords.push_back(c[i]);
    return true;
  }
  bool run(const std::int64_t* first, const std::int64_t* slope, int parts, std::int64_t count) override {
    if (parts != 1) return false;
    for (std::int64_t k = 0; k < count; ++k) {
      for (int i = 0; i < arity_; ++i)
        coords.push_back(first[i] + k * slope[i]);  // the program checked the ends
    }
    return true;
  }
  bool takes_all() const override { return true; }

 private:
  int arity_;
};

// The options of one state of a game of one integer, from the compiled rules straight into the
// graph's row of differences (LoopyGraph::by_offsets): a new state is added, a held one not
// looked up. add(m) adds state m.
template <class Add>
class OffsetsSink : public OptionSink {
 public:
  OffsetsSink(LoopyGraph& g, std::int64_t n, Add& add) : g_(g), n_(n), add_(add) {}
  std::size_t moves = 0;  // listed so far
  bool wide = false;      // a difference past 64 bits
  bool option(const std::int64_t* c, int parts) override {
    return parts == 1 && take([c](std::int64_t) { return c[0]; }, 1) == 1;
  }
  bool run(const std::int64_t* first, const std::int64_t* slope, int parts, std::int64_t count) override {
    // (The program checked the ends.)
    return parts == 1 &&
           take([a = first[0], b = slope[0]](std::int64_t k) { return a + k * b; }, count) == count;
  }
  std::int64_t batch(const std::int64_t* coords, int parts, int width, std::int64_t count) override {
    if (parts != 1) return 0;
    return take([coords, width](std::int64_t j) { return coords[j * width]; }, count);
  }
  std::int64_t batch_minus(std::int64_t c, const std::int64_t* x, std::int64_t count) override {
    // n - k * k: the differences are x itself.
    return take([c, x](std::int64_t j) { return c - x[j]; }, count, c == n_ ? x : nullptr);
  }
  bool takes_all() const override { return true; }

 private:
  template <class M>
  std::int64_t take(M&& m_of, std::int64_t n, const std::int64_t* diffs = nullptr) {
    const std::int64_t took = g_.row_options(moves, n_, m_of, n, add_, diffs);
    moves += static_cast<std::size_t>(took);
    wide = wide || took < n;
    return took;
  }
  LoopyGraph& g_;
  std::int64_t n_;
  Add& add_;
};
}  // namespace

char LoopyValue::outcome() const {
  if (finite) return value == 0 ? 'P' : 'N';
  return !escapes.empty() && escapes.front() == 0 ? 'N' : 'D';
}

LoopyValue loopy_sum(const std::vector<LoopyValue>& parts) {
  std::uint64_t x = 0;
  const LoopyValue* inf = nullptr;
  for (const LoopyValue& v : parts) {
    if (v.finite) {
      x ^= v.value;
    } else if (inf) {
      return LoopyValue{false, 0, {}};  // two infinite parts: inf, a draw
    } else {
      inf = &v;
    }
  }
  if (!inf) return LoopyValue{true, x, {}};
  LoopyValue out{false, 0, {}};
  for (std::uint64_t k : inf->escapes) out.escapes.push_back(k ^ x);
  std::sort(out.escapes.begin(), out.escapes.end());
  return out;
}

LoopyValue LoopySolver::value(const Position& p) {
  Graph* g = nullptr;
  const std::uint32_t u = solve(p, g);
  return value_of(*g, u);
}

LoopyValue LoopySolver::value_of(const Graph& g, std::uint32_t u) const {
  const std::uint32_t l = g.label[u];
  if (l != kInf) return LoopyValue{true, l, {}};
  LoopyValue v{false, 0, {}};
  // K: the finite labels among the options, read from them (they are labelled for good).
  g.for_each_option(u, [&](std::uint32_t w) {
    if (g.label[w] != kInf) v.escapes.push_back(g.label[w]);
  });
  std::sort(v.escapes.begin(), v.escapes.end());
  v.escapes.erase(std::unique(v.escapes.begin(), v.escapes.end()), v.escapes.end());
  return v;
}

std::optional<std::uint64_t> LoopySolver::remoteness(const Position& p) {
  Graph* g = nullptr;
  const std::uint32_t u = reach(p, g);
  if (g->remote.size() != g->size()) find_remoteness(*g);
  if (g->remote[u] == kOpen) return std::nullopt;
  return g->remote[u];
}

char LoopySolver::outcome(const Position& p) {
  // The retrograde pass goes over the whole graph: it is taken where it is current, or where this
  // query explores the whole graph; else the labelling, which labels only the positions new to it
  // (outcomes asked one after another over a growing graph would redo the pass each time).
  const auto known = graphs_.find(p.game);
  const bool whole = known == graphs_.end() || known->second.size() == 0;
  Graph* g = nullptr;
  const std::uint32_t u = reach(p, g);
  if (u < g->labelled || (!whole && g->remote.size() != g->size())) {
    solve(p, g);
    return value_of(*g, u).outcome();
  }
  if (g->remote.size() != g->size()) {
    const std::uint32_t before = g->labelled;
    const bool descent = find_remoteness(*g);
    if (descent) {
      explain_descent(p, *g, before);
    } else if (limits_.explain) {
      *limits_.explain << "explain: " << p.game->display_name()
                       << ": loopy, outcomes by retrograde analysis of " << g->size()
                       << " positions (no values: Smith's labelling waits for a query that needs "
                       << "them), options from "
                       << (g->compiled ? "the compiled rules" : "the rules as written")
                       << (g->by_offsets() ? ", kept by their differences" : "") << '\n';
    }
  }
  if (g->remote[u] == kOpen) return 'D';
  return g->remote[u] % 2 == 0 ? 'P' : 'N';
}

std::vector<Position> LoopySolver::options(const Position& p) {
  Graph* g = nullptr;
  const std::uint32_t u = solve(p, g);
  std::vector<std::uint32_t> ids;
  const IntProgram* program = p.game->plan().loopy_program.get();
  const int arity = p.game->rules().state_arity();
  CoordsSink sink(arity);
  Coords c{};
  // Rows kept by their differences give their options in the order the differences were
  // first seen, and keep it when they turn to ids: the rules' order is the compiled rules' to
  // give again (they listed every such row).
  const bool listed =
      program && g->reordered() &&
      (g->by_coords() ? (std::copy(g->coords(u), g->coords(u) + arity, c.begin()), true)
                      : arity <= kMaxBoxArity && coords_of(g->state(u), arity, c, program->packing)) &&
      program->options(c.data(), sink);
  if (listed) {
    for (std::size_t j = 0; j < sink.coords.size(); j += static_cast<std::size_t>(arity)) {
      const std::int64_t* x = sink.coords.data() + j;
      ids.push_back(*(g->by_coords() ? g->find(x) : g->find(state_of(x, arity, program->packing))));
    }
  } else {
    g->for_each_option(u, [&](std::uint32_t v) { ids.push_back(v); });
  }
  std::vector<Position> out;
  absl::flat_hash_set<std::uint32_t> seen;
  for (std::uint32_t v : ids) {
    if (seen.insert(v).second) out.push_back(Position{p.game, g->state(v)});
  }
  return out;
}

std::uint32_t LoopySolver::reach(const Position& p, Graph*& g) {
  // Positions as the compiled rules' coordinates where there are compiled rules.
  const IntProgram* program = p.game->plan().loopy_program.get();
  const int arity = p.game->rules().state_arity();
  const bool coords = program && arity > 0 && arity <= kMaxBoxArity;
  g = &graphs_.try_emplace(p.game, coords ? arity : 0, coords ? program->packing : IntProgram::Packing{})
           .first->second;
  if (const auto at = g->find(p.state)) return *at;
  const std::uint32_t from = g->size();
  std::uint32_t u = 0;
  try {
    u = explore(p, *g);
    g->compiled = compiled_;
  } catch (...) {
    // Positions half explored are dropped: the graph stays closed under moves.
    states_ -= g->size() - from;
    g->truncate(from);
    throw;
  }
  g->remote.clear();
  return u;
}

std::uint32_t LoopySolver::solve(const Position& p, Graph*& g) {
  const std::uint32_t u = reach(p, g);
  const std::uint32_t from = g->labelled;
  if (from == g->size()) return u;
  if (by_descent(*g, false)) {
    explain_descent(p, *g, from);
    return u;
  }
  std::uint32_t stages = 0;
  try {
    stages = label(*g, from);
  } catch (...) {
    // Positions not labelled stay open, for the next query to label.
    std::fill(g->label.begin() + from, g->label.end(), kOpen);
    throw;
  }
  g->labelled = g->size();
  if (limits_.explain) {
    *limits_.explain << "explain: " << p.game->display_name() << ": loopy, Smith's labelling of "
                     << g->size() - from << " new positions (" << g->size() << " in all) in " << stages
                     << " stages, options from "
                     << (g->compiled ? "the compiled rules" : "the rules as written")
                     << (g->by_offsets() ? ", kept by their differences" : "") << '\n';
  }
  return u;
}

// Every position reachable from root that the graph does not hold yet, breadth first, with
// its options.
std::uint32_t LoopySolver::explore(const Position& root, Graph& g) {
  const GameInstance* game = root.game;
  const auto room = [&] {
    if (states_ < limits_.max_states && g.size() < kInf - 1) return;
    Error e(ErrorKind::Limit,
            "too many states: the positions reachable from " + to_string(root) + " pass " +
                std::to_string(limits_.max_states) +
                " (a loopy game is explored whole before it is labelled)",
            "raise the limit with --max-states N; a loopy game whose positions never end (a heap that "
            "may always grow) cannot be labelled");
    e.too_many_states = true;
    throw e;
  };
  const auto id_of = [&](const auto& s) {
    if (const auto at = g.find(s)) return *at;
    room();
    ++states_;
    return g.add(s);
  };
  const std::uint32_t r = id_of(root.state);
  auto add_int = [&](std::int64_t m) {
    room();
    ++states_;
    g.add(&m);
  };
  Option o;
  // The compiled rules where they take the state (the rules as written where they stop).
  const IntProgram* program = game->plan().loopy_program.get();
  const int arity = game->rules().state_arity();
  CoordsSink sink(arity);
  Coords c{};
  compiled_ = false;
  std::vector<std::uint32_t> ids;
  std::uint64_t eighths = 0;  // options listed by the compiled rules, not charged yet
  // Where the rules take batches (IntProgram::cell_options: WindUp's three moves), the options
  // of the next 64 positions found are computed at once, each expression over the batch, and
  // each position's sent in turn: the same options in the same order as options() gives.
  IntProgram::Cells batch;
  std::uint32_t batch_from = 0;
  std::vector<std::int64_t> batch_coords;
  const auto list = [&](std::uint32_t u, const std::int64_t* coords, OptionSink& to) {
    if (!program->by_cells() || !g.by_coords()) return program->options(coords, to);
    if (u < batch_from || u >= batch_from + static_cast<std::uint32_t>(batch.count)) {
      const std::uint32_t n = std::min<std::uint32_t>(g.size() - u, IntProgram::kCellLanes);
      batch_coords.clear();
      for (std::uint32_t v = u; v < u + n; ++v) batch_coords.insert(batch_coords.end(), g.coords(v), g.coords(v) + arity);
      program->cell_options(batch_coords.data(), static_cast<int>(n), batch);
      batch_from = u;
    }
    const auto l = static_cast<int>(u - batch_from);
    return l < batch.done ? program->send(batch, l, to) : program->options(coords, to);
  };
  for (std::uint32_t u = g.listed(); u < g.size(); ++u) {
    if ((u & 1023) == 0) {
      check_interrupt(limits_.interrupt);
      check_memory(limits_, g.bytes() + (g.by_coords() ? 0 : std::uint64_t{g.size()} * kBytesPerState),
                   "the loopy game's positions");
      if (g.by_offsets() && !g.offsets_pay()) g.to_ids();
    }
    ids.clear();
    if (program && g.by_offsets()) {
      OffsetsSink offsets(g, g.coords(u)[0], add_int);
      const bool listed = list(u, g.coords(u), offsets);
      eighths += offsets.moves;
      limits_.charge(eighths / 8);
      eighths %= 8;
      if (listed) {
        g.end_row(offsets.moves);
        compiled_ = true;
        continue;
      }
      g.drop_row();
      if (offsets.wide) g.to_ids();  // and list it again below
    }
    if (program) {
      // A copy: the graph grows below.
      const bool listed = g.by_coords()
                              ? (std::copy(g.coords(u), g.coords(u) + arity, c.begin()), true)
                              : arity <= kMaxBoxArity && coords_of(g.state(u), arity, c, program->packing);
      sink.coords.clear();
      if (listed && list(u, c.data(), sink)) {
        const auto n = static_cast<std::int64_t>(sink.coords.size() / static_cast<std::size_t>(arity));
        // --max-steps: 8 options of the compiled rules to a step, as the outcome search counts
        // them (a few nanoseconds each, an eighth of the interpreter's step); --max-states and
        // --max-memory bound the exploration as a whole.
        eighths += static_cast<std::uint64_t>(n);
        limits_.charge(eighths / 8);
        eighths %= 8;
        for (std::int64_t j = 0; j < n; ++j) {
          const std::int64_t* x = sink.coords.data() + j * arity;
          ids.push_back(g.by_coords() ? id_of(x) : id_of(state_of(x, arity, program->packing)));
        }
        g.put_options(u, ids.data(), ids.size());
        compiled_ = true;
        continue;
      }
    }
    g.to_values();  // the rules as written: their options may be any Value
    const Value state = g.state(u);
    auto cursor = game->rules().options(*game, state);
    while (cursor->next(o)) {
      limits_.charge(1);
      if (o.size() != 1 || o[0].game != game) {
        throw Error(ErrorKind::Runtime,
                    "an option of " + to_string(Position{game, state}) + " is not one position of " +
                        game->display_name(),
                    "a loopy game moves to positions of its own game (no split)");
      }
      ids.push_back(id_of(o[0].state));
    }
    g.put_options(u, ids.data(), ids.size());
  }
  return r;
}

namespace {
// Smith's labelling of the positions from `from` on (the new ones: the others are labelled
// and none of their options is new), in stages m = 0, 1, ...: a position gets m when no option
// has m and every option that is unlabelled or inf has an option labelled m; the stage's
// unlabelled positions with no option labelled m get inf, for good (Fraenkel's algorithm).
//
// Counters, kept across the stages, make each stage's work that of the positions labelled m
// and of those that gain an option labelled m, with their predecessors, rather than a pass
// over every move: bad[i] counts i's options unlabelled or inf (for good: a finite label takes
// one off), tmp[i] those of them that have an option labelled m (this stage only), has[i] i's
// options labelled m (this stage only); i gets m when bad == tmp and has == 0. After stage 0
// only the positions with an option labelled 0 are open, so Square-But-One's 10^6 positions,
// all but 2,000 of them inf at once, cost stages of a few thousand.
//
// preds(i, f) calls f(j) for each new position j with a move to new position i, once per move
// held (as the graph's for_each_option gives them).
template <class Preds>
std::uint32_t label_stages(LoopyGraph& g, std::uint32_t from, const Limits& limits, Preds&& preds) {
  constexpr std::uint32_t kOpen = LoopyGraph::kOpen, kInf = LoopyGraph::kInf;
  const std::uint32_t n = g.size() - from;
  std::vector<std::uint32_t> bad(n, 0), has(n, 0), tmp(n, 0);
  // The moves to old positions act at the stage of the label they bring: an option labelled m
  // is one labelled m at stage m; an inf one, whose options are labelled for good, has an
  // option labelled m at each stage m of its K.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> old;                     // (old option, new position)
  for (std::uint32_t i = 0; i < n && from == 0; ++i) bad[i] = g.out_degree(i);  // no old positions
  for (std::uint32_t i = 0; i < n && from > 0; ++i) {
    g.for_each_option(from + i, [&](std::uint32_t v) {
      if (v >= from) {
        ++bad[i];
      } else {
        bad[i] += g.label[v] == kInf;
        old.emplace_back(v, i);
      }
    });
  }
  struct Event {
    std::uint32_t stage, i;
    bool labelled;  // an option labelled `stage`; else an inf option with an option labelled it
  };
  std::vector<Event> events;
  std::sort(old.begin(), old.end());
  std::vector<std::uint32_t> k;
  for (std::size_t a = 0; a < old.size();) {
    std::size_t b = a;
    while (b < old.size() && old[b].first == old[a].first) ++b;
    const std::uint32_t v = old[a].first;
    if (g.label[v] != kInf) {
      for (std::size_t e = a; e < b; ++e) events.push_back({g.label[v], old[e].second, true});
    } else {
      k.clear();
      g.for_each_option(v, [&](std::uint32_t w) {
        if (g.label[w] != kInf) k.push_back(g.label[w]);
      });
      std::sort(k.begin(), k.end());
      k.erase(std::unique(k.begin(), k.end()), k.end());
      for (std::uint32_t m : k) {
        for (std::size_t e = a; e < b; ++e) events.push_back({m, old[e].second, false});
      }
    }
    a = b;
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const Event& x, const Event& y) { return x.stage < y.stage; });

  std::vector<std::uint32_t> open(n), touched_has, touched_tmp, queue;
  for (std::uint32_t i = 0; i < n; ++i) open[i] = i;
  const auto relieve = [&](std::uint32_t q) {  // an option of q has an option labelled m
    if (g.label[from + q] != kOpen) return;
    if (tmp[q]++ == 0) touched_tmp.push_back(q);
    if (tmp[q] == bad[q] && has[q] == 0) queue.push_back(q);
  };
  const auto gain = [&](std::uint32_t p) {  // an option of p is labelled m
    if (has[p]++ != 0) return;
    touched_has.push_back(p);
    const std::uint32_t l = g.label[from + p];
    if (l == kOpen || l == kInf) preds(p, relieve);
  };
  std::size_t next = 0;
  std::uint32_t m = 0;
  for (; !open.empty(); ++m) {
    check_interrupt(limits.interrupt);
    for (; next < events.size() && events[next].stage == m; ++next) {
      if (events[next].labelled) gain(events[next].i);
      else relieve(events[next].i);
    }
    for (std::uint32_t i : open) {
      if (g.label[from + i] == kOpen && bad[i] == tmp[i] && has[i] == 0) queue.push_back(i);
    }
    while (!queue.empty()) {
      const std::uint32_t i = queue.back();
      queue.pop_back();
      if (g.label[from + i] != kOpen || has[i] != 0) continue;
      g.label[from + i] = m;
      preds(i, [&](std::uint32_t p) {
        --bad[p];
        gain(p);
      });
    }
    std::size_t kept = 0;
    for (std::uint32_t i : open) {
      std::uint32_t& l = g.label[from + i];
      if (l != kOpen) continue;
      if (has[i] == 0) l = kInf;
      else open[kept++] = i;
    }
    open.resize(kept);
    for (std::uint32_t p : touched_has) has[p] = 0;
    for (std::uint32_t q : touched_tmp) tmp[q] = 0;
    touched_has.clear();
    touched_tmp.clear();
  }
  return m;
}

// The moves into positions from..end, reversed: u's predecessors among those positions are
// pred[first[u - from] .. first[u - from + 1]) (graphs that keep their options as ids).
struct Reversed {
  std::vector<std::uint32_t> first, pred;
  Reversed(const LoopyGraph& g, std::uint32_t from) : first(g.size() - from + 1, 0) {
    const std::uint32_t n = g.size() - from;
    for (std::uint32_t u = from; u < g.size(); ++u) {
      g.for_each_option(u, [&](std::uint32_t v) {
        if (v >= from) ++first[v - from + 1];
      });
    }
    for (std::uint32_t i = 0; i < n; ++i) first[i + 1] += first[i];
    pred.resize(first[n]);
    std::vector<std::uint32_t> at(first.begin(), first.end() - 1);
    for (std::uint32_t u = from; u < g.size(); ++u) {
      g.for_each_option(u, [&](std::uint32_t v) {
        if (v >= from) pred[at[v - from]++] = u - from;
      });
    }
  }
  template <class F>
  void operator()(std::uint32_t i, F&& f) const {
    for (std::uint32_t a = first[i]; a < first[i + 1]; ++a) f(pred[a]);
  }
};

// Remoteness by retrograde analysis over the whole graph, breadth first from the terminal
// positions: a position is N (1 + the least remoteness of its P options) when its first P
// option is reached, P (1 + the largest remoteness of its options) when its last N option is;
// what is never reached is a draw. Only the predecessors of positions reached are asked for.
template <class Preds>
void retrograde(LoopyGraph& g, Preds&& preds) {
  constexpr std::uint32_t kOpen = LoopyGraph::kOpen;
  const std::uint32_t n = g.size();
  std::vector<std::uint32_t> left(n);
  g.remote.assign(n, kOpen);
  std::vector<bool> lost(n, false);  // P
  std::deque<std::uint32_t> queue;
  for (std::uint32_t u = 0; u < n; ++u) {
    left[u] = g.out_degree(u);
    if (left[u] == 0) {
      g.remote[u] = 0;
      lost[u] = true;
      queue.push_back(u);
    }
  }
  while (!queue.empty()) {
    const std::uint32_t v = queue.front();
    queue.pop_front();
    preds(v, [&](std::uint32_t p) {
      if (g.remote[p] != kOpen) return;
      if (lost[v] || --left[p] == 0) {
        g.remote[p] = g.remote[v] + 1;
        lost[p] = !lost[v];
        queue.push_back(p);
      }
    });
  }
}
}  // namespace

std::uint32_t LoopySolver::label(Graph& g, std::uint32_t from) {
  if (g.size() == from) return 0;
  if (g.by_offsets()) {
    return label_stages(g, from, limits_, [&](std::uint32_t i, auto&& f) {
      g.for_each_pred(from + i, [&](std::uint32_t u) {
        if (u >= from) f(u - from);
      });
    });
  }
  return label_stages(g, from, limits_, Reversed(g, from));
}

namespace {
// A position's value by the mex of its options' values, and its remoteness by the rule of its
// outcome (N: one more than its least P option's; P: one more than its largest option's; 0
// with no option), from its options' (value, remoteness), given by `options(f)` as f(v, r).
class Descent {
 public:
  explicit Descent(std::size_t most_value = 0) : stamp_(most_value + 2, 0) {}
  struct Known {
    std::uint32_t value = 0, remote = 0;
  };
  template <class Options>
  Known of(Options&& options) {
    ++gen_;
    std::uint32_t least_p = LoopyGraph::kOpen, most_any = 0;
    bool any = false;
    options([&](std::uint32_t v, std::uint32_t r) {
      if (static_cast<std::size_t>(v) + 1 >= stamp_.size()) [[unlikely]]
        stamp_.resize(static_cast<std::size_t>(v) + 2, 0);
      stamp_[v] = gen_;
      if (v == 0) least_p = std::min(least_p, r);
      most_any = std::max(most_any, r);
      any = true;
    });
    std::uint32_t mex = 0;
    while (stamp_[mex] == gen_) ++mex;
    return Known{mex, least_p != LoopyGraph::kOpen ? least_p + 1 : any ? most_any + 1 : 0};
  }

 private:
  std::vector<std::uint32_t> stamp_;
  std::uint32_t gen_ = 0;
};
}  // namespace

// A graph whose every move lowers its one integer (a loopy game with no cycle after all, a
// subtraction of squares): each position's value by the mex of its options' and its remoteness
// by the rule of its outcome, in increasing order of the integer, as the ordinary evaluator
// goes: one pass over the moves, reading arrays by the integer, with no stages and no
// predecessors (each found by a look-up per difference: 10^9 of them for the squares to 10^6).
// Smith's labelling gives the same values, finite all, where there is no cycle. False where
// the graph is not of that kind.
void LoopySolver::explain_descent(const Position& p, const Graph& g, std::uint32_t from) const {
  if (!limits_.explain) return;
  *limits_.explain << "explain: " << p.game->display_name() << ": loopy, but every move lowers the state: "
                   << g.size() - from << " new positions (" << g.size()
                   << " in all) valued by mex in increasing order (no cycle, no stages), options from "
                   << (g.compiled ? "the compiled rules" : "the rules as written") << ", kept by their differences\n";
}

bool LoopySolver::by_descent(Graph& g, bool remoteness) {
  if (!g.by_offsets() || g.listed() != g.size() || g.size() == 0 || !g.lowers_only()) return false;
  // A later query values only the positions new to it, as the labelling does (a loop of queries
  // over a growing graph is not a pass over the whole graph each); their remoteness too where
  // the old positions have theirs.
  const bool remote_known = g.remote.size() == g.labelled;
  if (g.labelled > 0 && (remote_known || !remoteness)) return descend_new(g, remote_known);
  std::int64_t most = -1;
  for (std::uint32_t u = 0; u < g.size(); ++u) {
    const std::int64_t n = g.coords(u)[0];
    if (n < 0 || n >= LoopyGraph::kDenseStates) return false;
    most = std::max(most, n);
  }
  const auto size = static_cast<std::size_t>(most) + 1;
  std::vector<std::uint32_t> id(size, kOpen);
  std::uint32_t degree = 0;
  for (std::uint32_t u = 0; u < g.size(); ++u) {
    id[static_cast<std::size_t>(g.coords(u)[0])] = u;
    degree = std::max(degree, g.out_degree(u));
  }
  if (!remoteness) {
    // Values alone (grundy, a table), by the integer in the narrowest array that holds them (a
    // value is at most its position's degree): the squares' options reach a million states
    // back, and 2 bytes a state stay in the cache where 8 (value and remoteness) did not.
    if (degree < 0xFF) descend_values<std::uint8_t>(g, id, degree);
    else if (degree < 0xFFFF) descend_values<std::uint16_t>(g, id, degree);
    else descend_values<std::uint32_t>(g, id, degree);
    g.remote.clear();
    g.labelled = g.size();
    return true;
  }
  // Value and remoteness side by side, by the integer: each option is one read of a line.
  using Known = Descent::Known;
  check_memory(limits_, g.bytes() + size * (sizeof(Known) + sizeof(std::uint32_t)), "the loopy game's positions");
  std::vector<Known> known(size);
  Descent descent(degree);  // a value is at most its position's degree
  for (std::size_t n = 0; n < size; ++n) {
    const std::uint32_t u = id[n];
    if (u == kOpen) continue;
    if ((n & 0xFFFF) == 0) check_interrupt(limits_.interrupt);
    const Known* below = known.data() + n;  // every difference is positive: n - d lies below n
    known[n] = descent.of([&](auto&& f) {
      g.for_each_difference(u, [&](std::int64_t d) { f(below[-d].value, below[-d].remote); });
    });
  }
  g.remote.assign(g.size(), 0);
  for (std::uint32_t u = 0; u < g.size(); ++u) {
    const auto n = static_cast<std::size_t>(g.coords(u)[0]);
    g.label[u] = known[n].value;
    g.remote[u] = known[n].remote;
  }
  g.labelled = g.size();
  return true;
}

template <class V>
void LoopySolver::descend_values(Graph& g, const std::vector<std::uint32_t>& id, std::uint32_t degree) {
  const std::size_t size = id.size();
  check_memory(limits_, g.bytes() + size * (sizeof(V) + sizeof(std::uint32_t)), "the loopy game's positions");
  std::vector<V> value(size, 0);
  std::vector<std::uint32_t> stamp(static_cast<std::size_t>(degree) + 2, kOpen);
  for (std::size_t n = 0; n < size; ++n) {
    const std::uint32_t u = id[n];
    if (u == kOpen) continue;
    if ((n & 0xFFFF) == 0) check_interrupt(limits_.interrupt);
    const V* below = value.data() + n;
    const auto mark = static_cast<std::uint32_t>(n);
    g.for_each_difference(u, [&](std::int64_t d) { stamp[below[-d]] = mark; });
    V mex = 0;
    while (stamp[mex] == mark) ++mex;
    value[n] = mex;
    g.label[u] = mex;
  }
}

// by_descent for the positions from g.labelled on, in increasing order of the integer: each
// one's options lie below it, valued before it (old positions, or new ones earlier in the order).
bool LoopySolver::descend_new(Graph& g, bool remoteness) {
  const std::uint32_t from = g.labelled;
  std::vector<std::pair<std::int64_t, std::uint32_t>> order;
  order.reserve(g.size() - from);
  for (std::uint32_t u = from; u < g.size(); ++u) order.emplace_back(g.coords(u)[0], u);
  std::sort(order.begin(), order.end());
  if (remoteness) g.remote.resize(g.size(), 0);
  else g.remote.clear();
  Descent descent;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if ((i & 0xFFFF) == 0) check_interrupt(limits_.interrupt);
    const std::uint32_t u = order[i].second;
    const Descent::Known k = descent.of([&](auto&& f) {
      g.for_each_option(u, [&](std::uint32_t w) { f(g.label[w], remoteness ? g.remote[w] : 0); });
    });
    g.label[u] = k.value;
    if (remoteness) g.remote[u] = k.remote;
  }
  g.labelled = g.size();
  return true;
}

bool LoopySolver::find_remoteness(Graph& g) {
  if (by_descent(g, true)) return true;
  if (g.by_offsets()) {
    retrograde(g, [&](std::uint32_t v, auto&& f) { g.for_each_pred(v, f); });
  } else {
    retrograde(g, Reversed(g, 0));
  }
  return false;
}

}  // namespace grundy
