#include "runtime/CrossCheck.hpp"

#include <algorithm>
#include <bit>
#include <vector>

#include "runtime/Dense.hpp"
#include "runtime/Error.hpp"
#include "runtime/Evaluator.hpp"
#include "runtime/Kernels.hpp"
#include "runtime/Tuples.hpp"

namespace grundy {

namespace {

constexpr const char* kReport = "a fault in Grundy, not in the rules: please report it with this program";

[[noreturn]] void disagree(std::string message) {
  throw Error(ErrorKind::Internal, "--cross-check: " + std::move(message), kReport);
}

// The next of a xorshift sequence: samples that differ from fill to fill, the same each run.
std::uint64_t next_random(std::uint64_t& x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

// The mex of the values marked in `seen` (seen[v] for v below its size).
std::uint32_t mex_of(const std::vector<bool>& seen) {
  return static_cast<std::uint32_t>(std::find(seen.begin(), seen.end(), false) - seen.begin());
}

}  // namespace

std::uint64_t plain_heap_cost(const HeapSpec& spec, std::int64_t n) {
  std::uint64_t cost = 1;
  const auto K = static_cast<std::int64_t>(spec.K());
  for (std::int64_t k = 0; k <= n; ++k) {
    std::uint8_t d = 0;
    if (k < K) d = spec.digits[static_cast<std::size_t>(k)];
    else if (k <= spec.tail_end) d = spec.tail;
    else break;
    const auto r = static_cast<std::uint64_t>(n - k);
    cost += 2;
    if (d & HeapSpec::kTwo) cost += r / 2;
    if (d & HeapSpec::kThree) cost += r * r / 12 + r;
  }
  return cost;
}

std::uint32_t plain_heap_value(const HeapSpec& spec, const DenseTable& values, std::int64_t n) {
  // The mex is at most the number of options.
  std::vector<bool> seen(
      static_cast<std::size_t>(std::min<std::uint64_t>(plain_heap_cost(spec, n), 1u << 30)) + 1);
  auto value = [&](std::int64_t h) -> std::uint64_t {
    return h == 0 ? 0 : values.get(static_cast<std::size_t>(h));
  };
  for_each_spec_option(spec, n, [&](std::int64_t a, std::int64_t b, std::int64_t c) {
    const std::uint64_t x = value(a) ^ value(b) ^ value(c);
    if (x < seen.size()) seen[x] = true;
  });
  return mex_of(seen);
}

void cross_check_kernel(const GameInstance& game, const HeapSpec& spec, const DenseTable& values,
                        std::size_t from, std::size_t to, std::uint64_t work, KernelAudit& audit) {
  if (from >= to) return;
  // Options with the rules as written cost about a hundred times the code's: only where few.
  constexpr std::uint64_t kRulesCheckOptions = 4096;
  auto check = [&](std::size_t n) {
    const auto heap = static_cast<std::int64_t>(n);
    const std::uint32_t want = plain_heap_value(spec, values, heap);
    const std::uint32_t got = values.get(n);
    ++audit.heaps;
    if (got != want) {
      disagree("the native kernel for " + spec.describe() + " gives " + std::to_string(got) + " at heap " +
               std::to_string(n) + " of " + game.display_name() + ", the mex of its options gives " +
               std::to_string(want));
    }
    if (plain_heap_cost(spec, heap) <= kRulesCheckOptions) {
      const std::string why = verify_spec(spec, game, heap, heap);
      if (!why.empty()) {
        disagree("the rules of " + game.display_name() + " are not the code " + spec.describe() +
                 " they were recognised as: " + why);
      }
    }
  };
  std::vector<std::size_t> heaps;
  // Every heap whose value is the first to need one more bit.
  for (std::size_t n = from; n < to; ++n) {
    const int width = std::bit_width(values.get(n));
    if (width > audit.width) {
      heaps.push_back(n);
      audit.width = width;
    }
  }
  heaps.push_back(to - 1);
  for (std::size_t n : heaps) check(n);
  // Heaps at random, within an eighth of the kernel's work (and 2^22 options for short fills).
  std::uint64_t budget = work / 8 + (std::uint64_t{1} << 22);
  const std::size_t samples = std::min<std::size_t>(64, to - from);
  for (std::size_t i = 0; i < samples; ++i) {
    const std::size_t n = from + static_cast<std::size_t>(next_random(audit.random) % (to - from));
    const std::uint64_t cost = plain_heap_cost(spec, static_cast<std::int64_t>(n));
    if (cost > budget) break;
    budget -= cost;
    check(n);
  }
}

void cross_check_run(const GameInstance& game, const FastPath& f, std::int64_t n) {
  constexpr std::int64_t kMaxOptions = std::int64_t{1} << 20;
  if (f.run_a <= 0 || n < f.run_a) return;
  const std::int64_t last = std::min(f.run_b, n);  // takes run_a..last
  if (last - f.run_a >= kMaxOptions) return;
  std::vector<bool> seen(static_cast<std::size_t>(last - f.run_a) + 2);
  for (std::int64_t k = f.run_a; k <= last; ++k) {
    const std::uint64_t x = f.run_value(n - k);
    if (x < seen.size()) seen[x] = true;
  }
  const std::uint64_t want = mex_of(seen);
  const std::uint64_t got = f.run_value(n);
  if (got != want) {
    disagree("the formula of a run of takes " + std::to_string(f.run_a) + ".." + std::to_string(f.run_b) +
             " gives " + std::to_string(got) + " at heap " + std::to_string(n) + " of " +
             game.display_name() + ", the mex of its options gives " + std::to_string(want));
  }
}

void cross_check_cell(Evaluator& ev, const GameInstance& game, const FastPath& f, const std::int64_t* c,
                      std::uint32_t v) {
  constexpr std::uint64_t kMaxOptions = std::uint64_t{1} << 16;
  const int arity = f.box->arity();
  Value state;
  if (arity == 1) {
    state = Value::integer(c[0]);
  } else {
    std::vector<Value> items;
    for (int i = 0; i < arity; ++i) items.push_back(Value::integer(c[i]));
    state = Value::tuple(std::move(items));
  }
  const std::string where = to_string(Position{&game, state});
  std::vector<bool> seen;
  try {
    auto cursor = game.rules().options(game, state);
    Option o;
    std::uint64_t count = 0;
    while (cursor->next(o)) {
      if (++count > kMaxOptions) return;  // too many to list one by one: no verdict
      std::uint64_t x = 0;
      for (const Position& part : o) {
        std::optional<std::uint64_t> known;
        Coords p{};
        if (part.game == &game && part.state.is(Kind::Int) && arity == 1) {
          p[0] = part.state.as_int();
          known = f.box->known(p.data());
        } else if (part.game == &game && part.state.is(Kind::Tuple) &&
                   static_cast<int>(part.state.items().size()) == arity &&
                   std::all_of(part.state.items().begin(), part.state.items().end(),
                               [](const Value& e) { return e.is(Kind::Int); })) {
          for (int i = 0; i < arity; ++i)
            p[static_cast<std::size_t>(i)] = part.state.items()[static_cast<std::size_t>(i)].as_int();
          known = f.box->known(p.data());
        }
        x ^= known ? *known : ev.grundy(part);
      }
      if (x >= seen.size() && x <= kMaxOptions) seen.resize(static_cast<std::size_t>(x) + 1);
      if (x < seen.size()) seen[x] = true;
    }
  } catch (const Error& e) {
    if (e.kind != ErrorKind::Runtime) throw;
    disagree("the compiled rules give " + std::to_string(v) + " at " + where +
             ", where the rules as written raise an error: " + e.what());
  }
  const std::uint32_t want = mex_of(seen);
  if (want != v) {
    disagree("the compiled rules give " + std::to_string(v) + " at " + where +
             ", the mex of its options gives " + std::to_string(want));
  }
}

}  // namespace grundy
