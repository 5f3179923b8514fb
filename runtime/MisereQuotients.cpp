// The misère quotients of heap games for MisereSolver: `quotient(G)` in the language, and the
// automatic answer of misère sums whose components are heaps of one game (Misere.cpp).
#include <algorithm>

#include "runtime/Error.hpp"
#include "runtime/Evaluator.hpp"
#include "runtime/Game.hpp"
#include "runtime/Memory.hpp"
#include "runtime/Misere.hpp"
#include "runtime/Shorthands.hpp"
#include "runtime/Strategy.hpp"

namespace grundy {

namespace {

// What a sum may spend on finding its game's quotient before the exact search takes over:
// proven quotients of the solved octal games come in well under these (Kayles: 40 elements,
// 27 heaps of changes, a fraction of a second).
constexpr std::int64_t kAutomaticHeaps = 4096;
constexpr int kAutomaticSize = 1024;
constexpr int kAutomaticCandidates = 120;
constexpr std::uint64_t kAutomaticWork = 60'000'000;
// The union of several games often has no small quotient (Kayles and Dawson's Kayles to 25
// pass 4096 elements): it gives up sooner, before the exact search takes over.
constexpr std::uint64_t kAutomaticUnionWork = 10'000'000;

struct OverBudget {};

}  // namespace

std::optional<HeapOptionsFn> MisereSolver::heap_options(const GameInstance& g, std::optional<HeapSpec>& proof,
                                                        std::string& why) {
  proof.reset();
  const Ruleset& rules = g.rules();
  if (rules.state_arity() != 1 || g.plan().graph || dynamic_cast<const GraphRuleset*>(&rules) != nullptr) {
    why = "its state is not one heap size";
    return std::nullopt;
  }
  Strategy& s = ev_.strategy(g);
  if (const auto* k = s.as<KernelPath>(); k && k->below == INT64_MAX) {
    proof = k->spec;
    const HeapSpec spec = k->spec;
    return HeapOptionsFn([spec](std::int64_t n, std::vector<HeapWord>& out) {
      for_each_spec_option(spec, n, [&](std::int64_t a, std::int64_t b, std::int64_t c) {
        HeapWord w;
        for (std::int64_t h : {a, b, c}) {
          if (h > 0) w.push_back(h);
        }
        out.push_back(std::move(w));
      });
    });
  }
  if (const auto* r = s.as<RunPath>()) {
    const std::int64_t a = r->a, b = r->b;
    if (b < kMaxSpecDigit) {  // its code, for the periodicity theorem
      HeapSpec spec;
      spec.digits.assign(static_cast<std::size_t>(b) + 1, 0);
      for (std::int64_t k = a; k <= b; ++k)
        spec.digits[static_cast<std::size_t>(k)] = HeapSpec::kNone | HeapSpec::kOne;
      proof = spec;
    }
    return HeapOptionsFn([a, b](std::int64_t n, std::vector<HeapWord>& out) {
      for (std::int64_t k = a; k <= b && k <= n; ++k) out.push_back(k == n ? HeapWord{} : HeapWord{n - k});
    });
  }
  // Other rules: each option must leave heaps of the same game, each smaller than the heap.
  const GameInstance* game = &g;
  return HeapOptionsFn([game](std::int64_t n, std::vector<HeapWord>& out) {
    const Value state = Value::integer(n);
    if (std::string bad = game->rules().check_position(*game, state); !bad.empty()) {
      throw Error(ErrorKind::Runtime, "the quotient of " + game->display_name() + " needs every heap, and " +
                                          to_string(Value::position(game, state)) +
                                          " is not a position: " + bad);
    }
    auto cursor = game->rules().options(*game, state);
    Option o;
    while (cursor->next(o)) {
      HeapWord w;
      for (const Position& p : o) {
        if (p.game != game || !p.state.is(Kind::Int) || p.state.as_int() < 0 || p.state.as_int() >= n) {
          throw Error(ErrorKind::Runtime,
                      "the quotient of " + game->display_name() +
                          " needs moves that leave smaller heaps of " + game->display_name() + ", and " +
                          to_string(Value::position(game, state)) + " moves to " +
                          to_string(Value::position(p.game, p.state)),
                      "a misere quotient is defined for heap games: octal codes, subtraction games, and "
                      "`state n` rules whose moves leave smaller heaps of the same game");
        }
        if (p.state.as_int() > 0) w.push_back(p.state.as_int());
      }
      out.push_back(std::move(w));
    }
  });
}

std::shared_ptr<const MisereQuotient> MisereSolver::quotient(const GameInstance& g,
                                                             std::optional<std::int64_t> hmax) {
  const std::int64_t last = hmax.value_or(kQuotientHeaps);
  if (last < 0) fail("the last heap of a quotient must be at least 0, got " + std::to_string(last));
  auto& slot = quotients_[{&g, hmax ? last : -1}];
  if (slot) return slot;
  std::optional<HeapSpec> proof;
  std::string why;
  std::optional<HeapOptionsFn> options = heap_options(g, proof, why);
  if (!options) {
    fail("quotient needs a heap game; " + why + " in " + g.display_name(),
         "a misere quotient is defined for heap games: octal codes, subtraction games, and "
         "`state n` rules whose moves leave smaller heaps of the same game");
  }
  QuotientBudget budget;
  budget.stop_at_period = !hmax;
  // The construction is bounded by its own budget (the size of a candidate, the candidates
  // a heap may take), by --max-memory and by Ctrl-C, not by --max-steps: like a kernel's
  // table it is no runaway rule (Q_33 of Dawson's Kayles looks at some 150 million words'
  // abstractions in 3 s). The rules that list a heap's options count their own steps.
  budget.charge = [this](std::uint64_t) {
    check_interrupt(limits_.interrupt);
    if (heap_over(limits_.max_memory)) limits_.memory_exceeded("the misere quotient");
  };
  slot = std::make_shared<const MisereQuotient>(
      misere_quotient(*options, proof ? &*proof : nullptr, last, budget));
  return slot;
}

std::shared_ptr<const MisereQuotient> MisereSolver::within_budget(const HeapOptionsFn& options,
                                                                  const HeapSpec* proof, std::int64_t target,
                                                                  std::uint64_t work, bool& over) {
  QuotientBudget budget;
  budget.max_size = kAutomaticSize;
  budget.max_candidates = kAutomaticCandidates;
  std::uint64_t spent = 0;
  budget.charge = [&](std::uint64_t units) {
    check_interrupt(limits_.interrupt);
    spent += units;
    if (spent > work || heap_over(limits_.max_memory)) throw OverBudget{};
  };
  over = false;
  try {
    return std::make_shared<const MisereQuotient>(misere_quotient(options, proof, target, budget));
  } catch (const OverBudget&) {
    over = true;
    return nullptr;
  }
}

const MisereQuotient* MisereSolver::automatic_quotient(const GameInstance& g, std::int64_t largest) {
  Automatic& a = automatic_[&g];
  if (a.quotient && a.quotient->covers(largest)) return a.quotient.get();
  std::optional<HeapSpec> proof;
  std::string why;
  std::optional<HeapOptionsFn> options = heap_options(g, proof, why);
  // Small heaps: the quotient of the heaps up to the largest (cheap, and exact for the sum);
  // larger ones: as far as the periodicity theorem needs, once, when the game has a code
  // for it to prove (rules without one would compute heaps that prove nothing).
  std::int64_t target = largest;
  if (largest > kAutomaticSmallHeaps) target = proof ? kAutomaticHeaps : -1;
  if (!options || target < 0 || target >= a.blocked) return nullptr;
  if (a.quotient && a.quotient->reached >= target) return nullptr;  // as far as it goes, unproven
  try {
    bool over = false;
    auto q = within_budget(*options, proof ? &*proof : nullptr, target, kAutomaticWork, over);
    if (over) {
      a.blocked = std::min(a.blocked, target);
      return nullptr;
    }
    // A heap the construction could not get past blocks every attempt that needs it.
    if (!q->stopped.empty()) a.blocked = std::min(a.blocked, q->reached + 1);
    if (!a.quotient || q->reached > a.quotient->reached || q->period) a.quotient = std::move(q);
  } catch (const Error& e) {
    if (e.kind == ErrorKind::Interrupted) throw;
    a.blocked = 0;
    return nullptr;  // not a heap game after all: the exact search says what it finds
  }
  return a.quotient->covers(largest) ? a.quotient.get() : nullptr;
}

const MisereQuotient* MisereSolver::union_quotient(const std::vector<const GameInstance*>& games,
                                                   const std::vector<std::int64_t>& largest,
                                                   const Union*& used) {
  Union& u = unions_[games];
  used = &u;
  const auto covers = [&](const std::vector<std::int64_t>& upto) {
    for (std::size_t i = 0; i < games.size(); ++i) {
      if (largest[i] > upto[i]) return false;
    }
    return true;
  };
  if (u.quotient && covers(u.upto)) return u.quotient.get();
  // A larger union distinguishes at least as much as a smaller one: it needs no fewer elements.
  const auto blocked = [&](const std::vector<std::int64_t>& upto) {
    return std::any_of(u.blocked.begin(), u.blocked.end(), [&](const std::vector<std::int64_t>& b) {
      for (std::size_t i = 0; i < games.size(); ++i) {
        if (upto[i] < b[i]) return false;
      }
      return true;
    });
  };
  if (blocked(largest)) return nullptr;
  // What is kept grows to cover both sums, so that sums of the heaps met so far need no new
  // attempt; when that is too much, the heaps of this sum alone.
  if (u.quotient) {
    std::vector<std::int64_t> both = largest;
    for (std::size_t i = 0; i < games.size(); ++i) both[i] = std::max(both[i], u.upto[i]);
    if (!blocked(both) && build_union(games, both, u)) return u.quotient.get();
  }
  return build_union(games, largest, u) ? u.quotient.get() : nullptr;
}

bool MisereSolver::build_union(const std::vector<const GameInstance*>& games, std::vector<std::int64_t> upto,
                               Union& u) {
  std::vector<HeapOptionsFn> each;
  for (const GameInstance* g : games) {
    std::optional<HeapSpec> proof;
    std::string why;
    std::optional<HeapOptionsFn> options = heap_options(*g, proof, why);
    if (!options) {
      u.blocked.push_back(std::vector<std::int64_t>(games.size(), 0));
      return false;
    }
    each.push_back(std::move(*options));
  }
  // The union's heaps by size, then by game: every option of a heap is a smaller heap of its game.
  std::vector<std::pair<std::size_t, std::int64_t>> heaps{{0, 0}};  // (game, size); heap 0 is none
  std::vector<std::vector<std::int64_t>> index(games.size());
  const std::int64_t top = *std::max_element(upto.begin(), upto.end());
  for (std::size_t i = 0; i < games.size(); ++i) index[i].assign(static_cast<std::size_t>(upto[i]) + 1, 0);
  for (std::int64_t n = 1; n <= top; ++n) {
    for (std::size_t i = 0; i < games.size(); ++i) {
      if (n > upto[i]) continue;
      index[i][static_cast<std::size_t>(n)] = static_cast<std::int64_t>(heaps.size());
      heaps.emplace_back(i, n);
    }
  }
  HeapOptionsFn options = [&](std::int64_t h, std::vector<HeapWord>& out) {
    const auto [i, n] = heaps[static_cast<std::size_t>(h)];
    const std::size_t first = out.size();
    each[i](n, out);
    for (std::size_t k = first; k < out.size(); ++k) {
      for (std::int64_t& m : out[k]) m = index[i][static_cast<std::size_t>(m)];
    }
  };
  try {
    bool over = false;
    auto q = within_budget(options, nullptr, static_cast<std::int64_t>(heaps.size()) - 1, kAutomaticUnionWork, over);
    if (over || !q->stopped.empty()) {
      u.blocked.push_back(std::move(upto));
      return false;
    }
    u.upto = std::move(upto);
    u.index = std::move(index);
    u.quotient = std::move(q);
    return true;
  } catch (const Error& e) {
    if (e.kind == ErrorKind::Interrupted) throw;
    u.blocked.push_back(std::vector<std::int64_t>(games.size(), 0));  // not heap games after all
    return false;
  }
}

}  // namespace grundy
