#include "runtime/Misere.hpp"
#include "runtime/Mex.hpp"

#include <algorithm>

#include "runtime/BoxTable.hpp"
#include "runtime/Nim.hpp"
#include "runtime/Show.hpp"
#include "runtime/SumSearch.hpp"

namespace grundy {

namespace {

// Misère nim-values: mex of the options' values; a sum with no moves is worth 1 (the player
// to move has already won: the opponent moved last).
struct MisereMex {
  using Acc = std::vector<bool>;
  std::uint32_t terminal() { return 1; }
  Acc start(const SumKey&) { return {}; }
  void add(Acc& seen, const SumKey&, std::uint32_t v) {
    if (v >= seen.size()) seen.resize(v + 1);
    seen[v] = true;
  }
  std::uint32_t finish(Acc& seen) { return mex(seen); }
};

// The outcome alone (1: the mover wins, 0: loses): a sum is won as soon as one option is
// lost, so most options of a won sum are never searched.
struct MisereOutcome {
  using Acc = bool;  // an option lost for the opponent was found
  std::uint32_t terminal() { return 1; }
  Acc start(const SumKey&) { return false; }
  void add(Acc& found, const SumKey&, std::uint32_t v) { found = found || v == 0; }
  bool settled(const Acc& found) { return found; }
  std::uint32_t finish(Acc& found) { return found ? 1 : 0; }
};

}  // namespace

const char* method_name(MisereSolver::Method m) {
  switch (m) {
    case MisereSolver::Method::Terminal: return "no moves";
    case MisereSolver::Method::MisereNim: return "misere Nim (Bouton)";
    case MisereSolver::Method::OnePosition: return "outcome search of one position";
    case MisereSolver::Method::SJ: return "SJ theorem";
    case MisereSolver::Method::Quotient: return "misere quotient";
    case MisereSolver::Method::Exact: return "exact search";
  }
  return "";
}

// The quotient that answers a misère sum of heaps, of one game or of several together, if
// it covers every heap, and the element of a heap of those games (-1 past its heaps).
MisereSolver::QuotientUse MisereSolver::quotient_for(const Sum& live) {
  std::vector<const GameInstance*> games;
  for (const Position& p : live) {
    if (!p.state.is(Kind::Int) || p.state.as_int() < 0) return {};
    if (std::find(games.begin(), games.end(), p.game) == games.end()) games.push_back(p.game);
  }
  std::sort(games.begin(), games.end());
  std::vector<std::int64_t> largest(games.size(), 0);
  const auto game_index = [games](const GameInstance* g) {
    const auto at = std::lower_bound(games.begin(), games.end(), g);
    return at == games.end() || *at != g ? games.size() : static_cast<std::size_t>(at - games.begin());
  };
  for (const Position& p : live) {
    std::int64_t& l = largest[game_index(p.game)];
    l = std::max(l, p.state.as_int());
  }
  if (games.size() == 1) {
    const MisereQuotient* q = automatic_quotient(*games[0], largest[0]);
    if (!q) return {};
    quotient_used_ = "the misere quotient of " + games[0]->display_name() + " (|Q| = " +
                     std::to_string(q->q.size) + ", |P| = " + std::to_string(q->q.psize()) +
                     (q->period ? ", proven" : ", heaps to " + std::to_string(q->reached)) + ")";
    const GameInstance* g = games[0];
    return {q, [q, g](const Position& p) {
              if (p.game != g || !p.state.is(Kind::Int) || !q->covers(p.state.as_int())) return -1;
              return q->element(p.state.as_int());
            }};
  }
  if (games.size() > kUnionGames ||
      *std::max_element(largest.begin(), largest.end()) > kAutomaticSmallHeaps) {
    return {};
  }
  const Union* u = nullptr;
  const MisereQuotient* q = union_quotient(games, largest, u);
  if (!q) return {};
  std::vector<std::string> names;
  for (std::size_t i = 0; i < games.size(); ++i) {
    names.push_back(games[i]->display_name() + " to " + std::to_string(u->upto[i]));
  }
  std::sort(names.begin(), names.end());
  std::string joined;
  for (const std::string& n : names) joined += (joined.empty() ? "" : ", ") + n;
  quotient_used_ = "the misere quotient of the heaps of " + joined + " together (|Q| = " +
                   std::to_string(q->q.size) + ", |P| = " + std::to_string(q->q.psize()) + ")";
  return {q, [q, u, game_index](const Position& p) {
            const std::size_t i = game_index(p.game);
            if (i == u->index.size() || !p.state.is(Kind::Int) || p.state.as_int() < 0 ||
                p.state.as_int() > u->upto[i]) {
              return -1;
            }
            return q->element(u->index[i][static_cast<std::size_t>(p.state.as_int())]);
          }};
}

std::function<bool(std::size_t, const Option&)> MisereSolver::wins_after(const Sum& sum) {
  Sum live;
  for (const Position& p : sum) {
    if (!space_.terminal(p)) live.parts.push_back(p);
  }
  if (live.size() < 2 || std::all_of(live.begin(), live.end(), [](const Position& p) {
        return p.game->rules().is_nim();
      })) {
    return {};  // one position: its own search; Nim heaps: Bouton's rule
  }
  // As wins() would: a small sum by its search, a large one (or a game whose quotient is
  // built) by the quotient.
  wins(sum);
  if (!quotient_ready(live)) return {};
  QuotientUse use = quotient_for(live);
  if (!use.q) return {};
  // The element of each part (a heap that cannot move is the identity), and the products
  // of the parts before and after each: an option's sum is then three factors.
  const BipartiteMonoid& m = use.q->q;
  std::vector<int> before(sum.size() + 1, 0), after(sum.size() + 1, 0);
  for (std::size_t i = 0; i < sum.size(); ++i) {
    const int e = space_.terminal(sum[i]) ? 0 : use.element(sum[i]);
    if (e < 0) return {};
    before[i + 1] = m.times(before[i], e);
  }
  for (std::size_t i = sum.size(); i-- > 0;) {
    const int e = space_.terminal(sum[i]) ? 0 : use.element(sum[i]);
    after[i] = m.times(after[i + 1], e);
  }
  return [this, use = std::move(use), before = std::move(before), after = std::move(after), sum](
             std::size_t i, const Option& x) {
    const BipartiteMonoid& q = use.q->q;
    int e = before[i];
    for (const Position& p : x) {
      if (space_.terminal(p)) continue;
      const int f = use.element(p);
      if (f < 0) {  // a part the quotient does not cover: the search
        Sum next(std::vector<Position>(sum.begin(), sum.begin() + static_cast<std::ptrdiff_t>(i)));
        next.parts.insert(next.parts.end(), x.begin(), x.end());
        next.parts.insert(next.parts.end(), sum.begin() + static_cast<std::ptrdiff_t>(i) + 1, sum.end());
        return wins(next);
      }
      e = q.times(e, f);
    }
    e = q.times(e, after[i + 1]);
    return !q.p(e);
  };
}

bool MisereSolver::sj_holds(const Sum& live) {
  return std::all_of(live.begin(), live.end(), [&](const Position& p) { return sj_applies(p); });
}

template <typename Report>
bool MisereSolver::sj_wins(const Sum& live, Report& report) {
  report(Method::SJ);
  std::uint64_t x = 0;
  bool big = false;
  for (const Position& p : live) {
    const std::uint64_t g = ev_.grundy(p);
    big = big || g > 1;
    x ^= g;
  }
  return (x != 0 && big) || (x == 0 && !big);
}

bool MisereSolver::quotient_ready(const Sum& live) const {
  const GameInstance* g = live[0].game;
  std::int64_t largest = 0;
  for (const Position& p : live) {
    if (p.game != g || !p.state.is(Kind::Int)) return false;
    largest = std::max(largest, p.state.as_int());
  }
  // Heaps past those a search could take on: the quotient, however long it takes.
  if (largest > kAutomaticSmallHeaps) return true;
  const auto a = automatic_.find(g);
  return a != automatic_.end() && a->second.quotient && a->second.quotient->covers(largest);
}

std::optional<bool> MisereSolver::exact_within(const Sum& live, std::uint64_t sums) {
  Limits trial = limits_;
  trial.max_states = std::min<std::uint64_t>(limits_.max_states, outcomes_.size() + sums);
  MisereOutcome rule;
  try {
    const bool w = search_sum(space_.key(live), outcomes_, space_, trial, "misere", rule) != 0;
    limits_.steps = trial.steps;
    return w;
  } catch (const Error& e) {
    limits_.steps = trial.steps;
    if (e.too_many_states && trial.max_states < limits_.max_states) return std::nullopt;  // the trial's own
    throw;
  }
}

void MisereSolver::clear() {
  quotients_.clear();
  automatic_.clear();
  unions_.clear();
  explained_.clear();
  memo_.clear();
  outcomes_.clear();
  sj_.clear();
  sj_heaps_.clear();
  space_.clear();
}

std::uint32_t MisereSolver::misere_grundy(const Sum& sum) {
  MisereMex rule;
  return search_sum(space_.key(sum), memo_, space_, limits_, "misere", rule);
}

// The SJ condition on every heap 0..n of a game of one integer whose options are single
// smaller heaps of it, heap by heap, holding nothing: when each heap passes, so does every
// follower of n (they are among them). False when one does not, or the options are of
// another kind: that proves nothing (the heap may not be a follower), and the search below
// decides. A heap of 10^6 took 750 MB of search frames, 10^7 more than 4 GB.
bool MisereSolver::sj_by_heaps(const Position& root) {
  const std::int64_t n = root.state.as_int();
  SjHeaps& h = sj_heaps_[root.game];  // heaps 0..checked-1 pass, and which of them can move
  ev_.grundy(root);  // the heaps' values, in the game's table where it has one, before they are asked one by one
  for (std::int64_t m = static_cast<std::int64_t>(h.can_move.size()); m <= n; ++m) {
    if ((m & 0xFFF) == 0) check_interrupt(limits_.interrupt);
    const Position p{root.game, Value::integer(m)};
    const std::vector<Option> options = ev_.options(p);
    for (const Option& o : options) {
      int live = 0;
      for (const Position& q : o) {
        if (q.game != root.game || !q.state.is(Kind::Int) || q.state.as_int() < 0 || q.state.as_int() >= m)
          return false;
        live += h.can_move[static_cast<std::size_t>(q.state.as_int())] ? 1 : 0;
      }
      if (live > 1) return false;
    }
    if (!options.empty() && ev_.grundy(p) == 0) return false;
    h.can_move.push_back(!options.empty());
  }
  return true;
}

bool MisereSolver::sj_applies(const Position& root) {
  if (root.game->rules().is_nim()) return true;
  Value root_key = Value::position(root.game, root.state);
  if (auto it = sj_.find(root_key); it != sj_.end()) return it->second;
  if (root.state.is(Kind::Int) && root.state.as_int() >= kSjByHeaps && sj_by_heaps(root)) {
    sj_[root_key] = true;
    return true;
  }
  struct Frame {
    Value key;
    std::vector<Option> options;
    std::size_t next = 0;
    bool ok = true;
  };
  std::vector<Frame> stack;
  std::uint64_t held = 0;  // options held by the frames on the stack
  auto enter = [&](const Position& p, Value key) {
    check_sum_limits(limits_, sj_.size() + games_.states, "SJ-condition");
    Frame f{std::move(key), ev_.options(p), 0, true};
    // A follower with value 0 that can still move breaks "all values 0 = nobody can move".
    if (!f.options.empty() && ev_.grundy(p) == 0) f.ok = false;
    // So does a real split (two parts that can move): look for one before descending, so
    // that a game with splits is settled at its root, not after a chain of n frames each
    // holding its O(n) options.
    for (const Option& o : f.options) {
      if (!f.ok) break;
      int live = 0;
      for (const Position& q : o) live += space_.terminal(q) ? 0 : 1;
      if (live > 1) f.ok = false;
    }
    held += f.options.size();
    check_memory(limits_, held * kBytesPerFrame / 4, "the SJ-condition search");
    stack.push_back(std::move(f));
  };
  enter(root, root_key);
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (!f.ok || f.next == f.options.size()) {
      const bool ok = f.ok;
      sj_[f.key] = ok;
      held -= f.options.size();
      stack.pop_back();
      if (!stack.empty()) stack.back().ok = stack.back().ok && ok;
      continue;
    }
    const Option& o = f.options[f.next++];
    // Parts that cannot move do not count: only a real split breaks the theorem, whose proof
    // moves in one component at a time.
    const Position* part = nullptr;
    int live = 0;
    for (const Position& q : o) {
      if (!space_.terminal(q)) {
        part = &q;
        ++live;
      }
    }
    if (live > 1) {
      f.ok = false;
      continue;
    }
    if (!part || part->game->rules().is_nim()) continue;
    Value k = Value::position(part->game, part->state);
    if (auto it = sj_.find(k); it != sj_.end()) {
      f.ok = f.ok && it->second;
      continue;
    }
    const Position next = *part;
    enter(next, std::move(k));  // invalidates f
  }
  return sj_.at(root_key);
}

bool MisereSolver::wins(const Sum& sum, Method* how) {
  Sum live;
  for (const Position& p : sum) {
    if (!space_.terminal(p)) live.parts.push_back(p);
  }
  const Position* not_sj = nullptr;
  auto report = [&](Method m) {
    if (how) *how = m;
    if (limits_.explain) explain(m, live, not_sj);
  };
  if (live.empty()) {
    report(Method::Terminal);
    return true;  // the opponent moved last
  }
  if (std::all_of(live.begin(), live.end(), [](const Position& p) { return p.game->rules().is_nim(); })) {
    report(Method::MisereNim);
    bool big = false;
    std::uint64_t x = 0;
    for (const Position& p : live) {
      const std::uint64_t n = nim_value(p);
      big = big || n > 1;
      x ^= n;
    }
    // All heaps 1: the mover wins iff their number is even. Otherwise as in normal Nim.
    return big ? x != 0 : live.size() % 2 == 0;
  }
  if (live.size() == 1) {
    report(Method::OnePosition);
    const Position& p = live[0];
    const int arity = p.game->rules().state_arity();
    Coords c{};
    if (arity <= kMaxBoxArity && coords_of(p.state, arity, c, p.game->plan().packing())) {
      if (auto w = ev_.table_misere_wins(*p.game, c.data(), arity)) return *w;
    }
    return ev_.position_wins(live[0], /*misere=*/true, [this](const Sum& s) { return wins(s); });
  }
  // A sum of a few small heaps is often answered by the exact search in less time than its
  // quotient takes to build (a game whose quotient is large or never closes: Dawson's Kayles
  // 31 + 5, seconds for the quotient, milliseconds for the search). So unless a quotient is
  // at hand, the search goes first, within a small budget, and what it found stays.
  // (The SJ theorem, where it holds, answers at once: it goes first of all.)
  const bool ready = quotient_ready(live);
  if (!ready && sj_holds(live)) return sj_wins(live, report);
  if (!ready && exact_first > 0) {
    if (auto w = exact_within(live, exact_first)) {
      small_search_ = true;
      report(Method::Exact);
      small_search_ = false;
      return *w;
    }
  }
  if (QuotientUse use = quotient_for(live); use.q) {
    report(Method::Quotient);
    int x = 0;
    for (const Position& p : live) x = use.q->q.times(x, use.element(p));
    return !use.q->q.p(x);
  }
  const auto fails =
      std::find_if(live.begin(), live.end(), [&](const Position& p) { return !sj_applies(p); });
  if (fails == live.end()) return sj_wins(live, report);
  not_sj = &*fails;
  report(Method::Exact);
  // A sum whose misère nim-value is already known (genus) needs no second search.
  const SumKey key = space_.key(live);
  if (auto it = memo_.find(key); it != memo_.end() && it->second != kSumInProgress) return it->second != 0;
  MisereOutcome rule;
  return search_sum(key, outcomes_, space_, limits_, "misere", rule) != 0;
}

void MisereSolver::explain(Method m, const Sum& live, const Position* not_sj) {
  if (m == Method::Terminal) return;
  std::vector<std::string> games;
  for (const Position& p : live) games.push_back(p.game->display_name());
  std::sort(games.begin(), games.end());
  games.erase(std::unique(games.begin(), games.end()), games.end());
  std::string key(1, static_cast<char>('0' + static_cast<int>(m) + (small_search_ ? 10 : 0)));
  for (const std::string& g : games) key += "|" + g;
  if (!explained_.insert(key).second) return;
  std::string shown;
  for (const Position& p : live) shown += (shown.empty() ? "" : " + ") + grundy::shown(p);
  shown = elide(std::move(shown), kShownValue);
  std::string line = "explain: misere " + (live.parts.size() == 1 ? shown : "(" + shown + ")") + ": ";
  switch (m) {
    case Method::MisereNim:
      line +=
          "Bouton's misere Nim (every component a Nim heap): the mover wins iff the xor is not 0, "
          "or, with no heap above 1, iff the number of heaps is even";
      break;
    case Method::OnePosition:
      line +=
          "one position: a depth-first search for its outcome (over compiled rules, the box below it "
          "filled first where its options come before it), terminal positions won, "
          "stopping at the first lost option";
      break;
    case Method::SJ:
      line +=
          "the SJ theorem (its condition checked on every follower: no splits, value 0 only where no "
          "moves): the mover wins iff (nim-sum != 0 and some value > 1) or (nim-sum == 0 and none > 1)";
      break;
    case Method::Quotient:
      line += quotient_used_ + ": the mover loses iff the product of the heaps' elements is in P";
      break;
    default:
      if (small_search_) {
        line += "exact search over the sums of positions reached (a small sum: searched first, within " +
                std::to_string(exact_first) + " sums, before any theorem or quotient)";
        break;
      }
      line += "exact search over the sums of positions reached (the SJ theorem does not apply: " +
              (not_sj ? to_string(*not_sj) : std::string("a component")) +
              " has a follower that splits, or one of value 0 that can move)";
      break;
  }
  *limits_.explain << line << '\n';
}

std::string MisereSolver::genus(const Sum& sum) {
  static const std::shared_ptr<const Ruleset> kStar = std::make_shared<NimRuleset>("Nim");
  const GameInstance* star = games_.instance(kStar, Value::tuple({}));
  const std::uint64_t g0 = ev_.grundy(sum);
  // g[0] is the nim-value; g[k] for k >= 1 the misère nim-value of sum + (k - 1) copies of *2.
  std::vector<std::uint64_t> g{g0};
  if (std::all_of(sum.begin(), sum.end(), [](const Position& p) { return p.game->rules().is_nim(); })) {
    // Nim heaps are tame (Winning Ways, ch. 13): with a heap of 2 or more the genus is
    // g^(g, g xor 2); with heaps of 0 and 1 only it is 0^120 or 1^031. No search: a heap
    // of 10^12 has 10^12 options.
    const bool big =
        std::any_of(sum.begin(), sum.end(), [](const Position& p) { return p.state.as_int() >= 2; });
    const std::vector<std::uint64_t> tail = big       ? std::vector<std::uint64_t>{g0, g0 ^ 2, g0, g0 ^ 2, g0}
                                            : g0 == 0 ? std::vector<std::uint64_t>{1, 2, 0, 2, 0}
                                                      : std::vector<std::uint64_t>{0, 3, 1, 3, 1};
    g.insert(g.end(), tail.begin(), tail.end());
  } else {
    g.push_back(misere_grundy(sum));
    Sum with = sum;
    constexpr std::size_t kMax = 24;
    for (std::size_t k = 2; k <= kMax; ++k) {
      with.parts.push_back(Position{star, Value::integer(2)});
      g.push_back(misere_grundy(with));
      if (k >= 5 && g[k] == g[k - 2] && g[k - 1] == g[k - 3] && g[k - 2] == g[k - 4]) break;
    }
  }
  // The exponents alternate from index m on; print g1 .. g(m+1).
  std::size_t m = 1;
  while (m + 2 < g.size()) {
    bool alternates = true;
    for (std::size_t n = m; n + 2 < g.size(); ++n) alternates = alternates && g[n] == g[n + 2];
    if (alternates) break;
    ++m;
  }
  const std::size_t last = std::min(m + 1, g.size() - 1);
  const bool wide = std::any_of(g.begin(), g.end(), [](std::uint64_t v) { return v > 9; });
  std::string s = std::to_string(g0) + "^" + (wide ? "{" : "");
  for (std::size_t n = 1; n <= last; ++n) {
    if (wide && n > 1) s += ',';
    s += std::to_string(g[n]);
  }
  if (wide) s += '}';
  return s;
}

}  // namespace grundy
