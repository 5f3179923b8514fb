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
constexpr std::int64_t kAutomaticSmallHeaps = 64;
constexpr int kAutomaticSize = 1024;
constexpr int kAutomaticCandidates = 120;
constexpr std::uint64_t kAutomaticWork = 60'000'000;

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
  budget.charge = [this](std::uint64_t units) {
    check_interrupt(limits_.interrupt);
    limits_.charge(units);
  };
  slot = std::make_shared<const MisereQuotient>(
      misere_quotient(*options, proof ? &*proof : nullptr, last, budget));
  return slot;
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
  QuotientBudget budget;
  budget.max_size = kAutomaticSize;
  budget.max_candidates = kAutomaticCandidates;
  std::uint64_t spent = 0;
  budget.charge = [&](std::uint64_t units) {
    check_interrupt(limits_.interrupt);
    spent += units;
    if (spent > kAutomaticWork || heap_over(limits_.max_memory)) throw OverBudget{};
  };
  try {
    auto q = std::make_shared<const MisereQuotient>(
        misere_quotient(*options, proof ? &*proof : nullptr, target, budget));
    // A heap the construction could not get past blocks every attempt that needs it.
    if (!q->stopped.empty()) a.blocked = std::min(a.blocked, q->reached + 1);
    if (!a.quotient || q->reached > a.quotient->reached || q->period) a.quotient = std::move(q);
  } catch (const OverBudget&) {
    a.blocked = std::min(a.blocked, target);
    return nullptr;
  } catch (const Error& e) {
    if (e.kind == ErrorKind::Interrupted) throw;
    a.blocked = 0;
    return nullptr;  // not a heap game after all: the exact search says what it finds
  }
  return a.quotient->covers(largest) ? a.quotient.get() : nullptr;
}

}  // namespace grundy
