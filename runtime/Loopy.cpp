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
      for (int i = 0; i < arity_; ++i) coords.push_back(first[i] + k * slope[i]);  // the program checked the ends
    }
    return true;
  }
  bool takes_all() const override { return true; }

 private:
  int arity_;
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
  for (std::uint32_t e = g.first[u]; e < g.first[u + 1]; ++e) {
    if (g.label[g.succ[e]] != kInf) v.escapes.push_back(g.label[g.succ[e]]);
  }
  std::sort(v.escapes.begin(), v.escapes.end());
  v.escapes.erase(std::unique(v.escapes.begin(), v.escapes.end()), v.escapes.end());
  return v;
}

std::optional<std::uint64_t> LoopySolver::remoteness(const Position& p) {
  Graph* g = nullptr;
  const std::uint32_t u = solve(p, g);
  if (g->remote.size() != g->size()) find_remoteness(*g);
  if (g->remote[u] == kOpen) return std::nullopt;
  return g->remote[u];
}

std::vector<Position> LoopySolver::options(const Position& p) {
  Graph* g = nullptr;
  const std::uint32_t u = solve(p, g);
  std::vector<Position> out;
  absl::flat_hash_set<std::uint32_t> seen;
  for (std::uint32_t e = g->first[u]; e < g->first[u + 1]; ++e) {
    const std::uint32_t v = g->succ[e];
    if (seen.insert(v).second) out.push_back(Position{p.game, g->state(v)});
  }
  return out;
}

std::uint32_t LoopySolver::solve(const Position& p, Graph*& g) {
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
    const std::uint32_t stages = label(*g, from);
    if (limits_.explain) {
      *limits_.explain << "explain: " << p.game->display_name() << ": loopy, Smith's labelling of "
                       << g->size() - from << " new positions (" << g->size() << " in all) in "
                       << stages << " stages, options from "
                       << (compiled_ ? "the compiled rules" : "the rules as written") << '\n';
    }
  } catch (...) {
    // Positions half explored or not labelled are dropped: the graph stays closed and labelled.
    states_ -= g->size() - from;
    g->truncate(from);
    throw;
  }
  g->remote.clear();
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
                std::to_string(limits_.max_states) + " (a loopy game is explored whole before it is labelled)",
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
  Option o;
  // The compiled rules where they take the state (the rules as written where they stop).
  const IntProgram* program = game->plan().loopy_program.get();
  const int arity = game->rules().state_arity();
  CoordsSink sink(arity);
  Coords c{};
  compiled_ = false;
  for (auto u = static_cast<std::uint32_t>(g.first.size() - 1); u < g.size(); ++u) {
    if ((u & 1023) == 0) {
      check_interrupt(limits_.interrupt);
      check_memory(limits_, g.bytes() + (g.by_coords() ? 0 : std::uint64_t{g.size()} * kBytesPerState),
                   "the loopy game's positions");
    }
    if (program) {
      // A copy: the graph grows below.
      const bool listed = g.by_coords()
                              ? (std::copy(g.coords(u), g.coords(u) + arity, c.begin()), true)
                              : arity <= kMaxBoxArity && coords_of(g.state(u), arity, c, program->packing);
      sink.coords.clear();
      if (listed && program->options(c.data(), sink)) {
        const auto n = static_cast<std::int64_t>(sink.coords.size() / static_cast<std::size_t>(arity));
        limits_.charge(static_cast<std::uint64_t>(n));
        for (std::int64_t j = 0; j < n; ++j) {
          const std::int64_t* x = sink.coords.data() + j * arity;
          g.succ.push_back(g.by_coords() ? id_of(x) : id_of(state_of(x, arity, program->packing)));
        }
        g.first.push_back(static_cast<std::uint32_t>(g.succ.size()));
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
      g.succ.push_back(id_of(o[0].state));
    }
    g.first.push_back(static_cast<std::uint32_t>(g.succ.size()));
  }
  return r;
}

// Labels the positions from `from` on (the new ones; the others are labelled and their
// options are among them), in stages m = 0, 1, ...: a position gets m when no option has m and
// every option that is unlabelled or inf has an option labelled m; the stage's unlabelled
// positions with no option labelled m get inf, for good. Counters keep a stage O(V + E):
// has[u] counts u's options labelled m, bad[u] its options unlabelled or inf that have none.
std::uint32_t LoopySolver::label(Graph& g, std::uint32_t from) {
  const std::uint32_t end = g.size();
  const std::uint32_t n = end - from;
  if (n == 0) return 0;
  // Options within the new positions, reversed (the old positions have no option among them).
  std::vector<std::uint32_t> pfirst(n + 1, 0), pred;
  for (std::uint32_t u = from; u < end; ++u) {
    for (std::uint32_t e = g.first[u]; e < g.first[u + 1]; ++e) {
      if (g.succ[e] >= from) ++pfirst[g.succ[e] - from + 1];
    }
  }
  for (std::uint32_t i = 0; i < n; ++i) pfirst[i + 1] += pfirst[i];
  pred.resize(pfirst[n]);
  {
    std::vector<std::uint32_t> at(pfirst.begin(), pfirst.end() - 1);
    for (std::uint32_t u = from; u < end; ++u) {
      for (std::uint32_t e = g.first[u]; e < g.first[u + 1]; ++e) {
        if (g.succ[e] >= from) pred[at[g.succ[e] - from]++] = u - from;
      }
    }
  }
  const auto open_or_inf = [&](std::uint32_t l) { return l == kOpen || l == kInf; };
  std::vector<std::uint32_t> has(n), bad(n), queue;
  std::uint32_t open = n, m = 0;
  for (; open > 0; ++m) {
    check_interrupt(limits_.interrupt);
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!open_or_inf(g.label[from + i])) continue;
      std::uint32_t c = 0;
      for (std::uint32_t e = g.first[from + i]; e < g.first[from + i + 1]; ++e) c += g.label[g.succ[e]] == m;
      has[i] = c;
    }
    queue.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
      if (g.label[from + i] != kOpen) continue;
      std::uint32_t b = 0;
      for (std::uint32_t e = g.first[from + i]; e < g.first[from + i + 1]; ++e) {
        const std::uint32_t v = g.succ[e];
        if (v >= from) {
          b += open_or_inf(g.label[v]) && has[v - from] == 0;
        } else if (g.label[v] == kInf) {  // an old inf position: its options are labelled for good
          bool with_m = false;
          for (std::uint32_t f = g.first[v]; f < g.first[v + 1] && !with_m; ++f)
            with_m = g.label[g.succ[f]] == m;
          b += !with_m;
        }
      }
      bad[i] = b;
      if (b == 0 && has[i] == 0) queue.push_back(i);
    }
    while (!queue.empty()) {
      const std::uint32_t i = queue.back();
      queue.pop_back();
      if (g.label[from + i] != kOpen || has[i] != 0) continue;
      g.label[from + i] = m;
      --open;
      for (std::uint32_t a = pfirst[i]; a < pfirst[i + 1]; ++a) {
        const std::uint32_t p = pred[a];
        if (++has[p] != 1 || !open_or_inf(g.label[from + p])) continue;
        // p has an option labelled m now: it is no longer bad for the positions that move to it.
        for (std::uint32_t b = pfirst[p]; b < pfirst[p + 1]; ++b) {
          const std::uint32_t q = pred[b];
          if (g.label[from + q] == kOpen && --bad[q] == 0 && has[q] == 0) queue.push_back(q);
        }
      }
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      if (g.label[from + i] == kOpen && has[i] == 0) {
        g.label[from + i] = kInf;
        --open;
      }
    }
  }
  return m;
}

// Remoteness by retrograde analysis over the whole graph, breadth first from the terminal
// positions: a position is N (1 + the least remoteness of its P options) when its first P
// option is reached, P (1 + the largest remoteness of its options) when its last N option is;
// what is never reached is a draw.
void LoopySolver::find_remoteness(Graph& g) {
  const std::uint32_t n = g.size();
  std::vector<std::uint32_t> pfirst(n + 1, 0), pred(g.succ.size()), left(n);
  for (std::uint32_t v : g.succ) ++pfirst[v + 1];
  for (std::uint32_t i = 0; i < n; ++i) pfirst[i + 1] += pfirst[i];
  {
    std::vector<std::uint32_t> at(pfirst.begin(), pfirst.end() - 1);
    for (std::uint32_t u = 0; u < n; ++u) {
      for (std::uint32_t e = g.first[u]; e < g.first[u + 1]; ++e) pred[at[g.succ[e]]++] = u;
    }
  }
  g.remote.assign(n, kOpen);
  std::vector<bool> lost(n, false);  // P
  std::deque<std::uint32_t> queue;
  for (std::uint32_t u = 0; u < n; ++u) {
    left[u] = g.first[u + 1] - g.first[u];
    if (left[u] == 0) {
      g.remote[u] = 0;
      lost[u] = true;
      queue.push_back(u);
    }
  }
  while (!queue.empty()) {
    const std::uint32_t v = queue.front();
    queue.pop_front();
    for (std::uint32_t a = pfirst[v]; a < pfirst[v + 1]; ++a) {
      const std::uint32_t p = pred[a];
      if (g.remote[p] != kOpen) continue;
      if (lost[v] || --left[p] == 0) {
        g.remote[p] = g.remote[v] + 1;
        lost[p] = !lost[v];
        queue.push_back(p);
      }
    }
  }
}

}  // namespace grundy
