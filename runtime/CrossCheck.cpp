#include "runtime/CrossCheck.hpp"

#include <algorithm>
#include <bit>
#include <vector>

#include <array>

#include "runtime/BoxTable.hpp"
#include "runtime/Dense.hpp"
#include "runtime/Error.hpp"
#include "runtime/Game.hpp"
#include "runtime/IntProgram.hpp"
#include "runtime/Kernels.hpp"

namespace grundy {

// ---- the rules against a code ----

namespace {

// An option as up to three heap sizes, sorted, 0 for none: comparing and sorting these is
// far cheaper than sets of vectors, and a heap with splits into three has n^2 / 12 options.
using Heaps3 = std::array<std::int64_t, 3>;

Heaps3 heaps3(std::int64_t a = 0, std::int64_t b = 0, std::int64_t c = 0) {
  Heaps3 h{a, b, c};
  std::sort(h.begin(), h.end());
  return h;
}

// Sorted, each once. Takes are listed in order, largest or smallest first: no sort then
// (600 heaps of 5000 takes sorted were most of a misère query's time).
void sort_unique(std::vector<Heaps3>& hs) {
  if (std::is_sorted(hs.rbegin(), hs.rend())) std::reverse(hs.begin(), hs.end());
  else if (!std::is_sorted(hs.begin(), hs.end())) std::sort(hs.begin(), hs.end());
  hs.erase(std::unique(hs.begin(), hs.end()), hs.end());
}

// The options of heap n under `spec`, sorted, each once.
void spec_options_into(const HeapSpec& spec, std::int64_t n, std::vector<Heaps3>& out) {
  out.clear();
  for_each_spec_option(
      spec, n, [&](std::int64_t a, std::int64_t b, std::int64_t c) { out.push_back(heaps3(a, b, c)); });
  sort_unique(out);
}

}  // namespace

std::vector<std::vector<std::int64_t>> spec_options(const HeapSpec& spec, std::int64_t n) {
  std::vector<Heaps3> options;
  spec_options_into(spec, n, options);
  std::vector<std::vector<std::int64_t>> out;
  for (const Heaps3& h : options) {
    std::vector<std::int64_t> heaps;
    for (std::int64_t x : h) {
      if (x > 0) heaps.push_back(x);
    }
    out.push_back(std::move(heaps));
  }
  return out;
}

namespace {

// The options of one heap from compiled rules, as sorted multisets of non-empty heaps; at an
// option that is not a smaller heap (or leaves more than three) it stops, and the rules as
// written list the heap and name the option.
class HeapOptions : public OptionSink {
 public:
  HeapOptions(std::int64_t n, std::vector<Heaps3>& out) : n_(n), out_(out) {}
  bool option(const std::int64_t* coords, int parts) override {
    Heaps3 h{0, 0, 0};
    std::size_t k = 0;
    for (int j = 0; j < parts; ++j) {
      const std::int64_t x = coords[j];
      if (x < 0 || x >= n_ || (x != 0 && k == 3)) return false;
      if (x != 0) h[k++] = x;
    }
    std::sort(h.begin(), h.end());
    out_.push_back(h);
    return true;
  }
  bool run(const std::int64_t* first, const std::int64_t* slope, int parts, std::int64_t count) override {
    std::int64_t c[IntProgram::kMaxParts]{};
    std::copy(first, first + parts, c);
    for (std::int64_t k = 0; k < count; ++k) {
      if (!option(c, parts)) return false;
      for (int j = 0; j < parts; ++j) c[j] += slope[j];  // the last step may leave the box: not used
    }
    return true;
  }

 private:
  std::int64_t n_;
  std::vector<Heaps3>& out_;
};

}  // namespace

std::optional<CodeDifference> compare_with_code(const HeapSpec& spec, const GameInstance& game,
                                                std::int64_t from, std::int64_t upto,
                                                const IntProgram* program) {
  std::vector<Heaps3> got, want;
  const bool compiled = program && program->arity == 1 && !program->packing.any();
  auto compare = [&](std::int64_t n) -> std::optional<CodeDifference> {
    sort_unique(got);
    spec_options_into(spec, n, want);
    if (got == want) return std::nullopt;
    return CodeDifference{n, "the options of heap " + std::to_string(n) + " differ from " + spec.describe()};
  };
  for (std::int64_t n = from; n <= upto; ++n) {
    got.clear();
    HeapOptions sink(n, got);
    if (compiled && program->options(&n, sink)) {
      if (auto d = compare(n)) return d;
      continue;
    }
    got.clear();  // the rules as written list the heap, and say what is wrong with it
    try {
      auto cursor = game.rules().options(game, Value::integer(n));
      Option o;
      while (cursor->next(o)) {
        Heaps3 h{0, 0, 0};
        std::size_t parts = 0;
        for (const Position& part : o) {
          if (part.game != &game || !part.state.is(Kind::Int) || part.state.as_int() < 0 ||
              part.state.as_int() >= n) {
            return CodeDifference{n, "an option of heap " + std::to_string(n) + " is " + to_string(part)};
          }
          if (part.state.as_int() == 0) continue;
          if (parts == 3) {
            return CodeDifference{n,
                                  "an option of heap " + std::to_string(n) + " leaves more than three heaps"};
          }
          h[parts++] = part.state.as_int();
        }
        std::sort(h.begin(), h.end());
        got.push_back(h);
      }
    } catch (const Error& e) {
      if (e.kind != ErrorKind::Runtime) throw;  // a limit or an interrupt stops the query
      return CodeDifference{n,
                            std::string("the options of heap ") + std::to_string(n) + " raise: " + e.what()};
    }
    if (auto d = compare(n)) return d;
  }
  return std::nullopt;
}

// ---- fast paths against the definition ----

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
  for_each_digit(spec, n, [&](std::int64_t k, std::uint8_t d) {
    const auto r = static_cast<std::uint64_t>(n - k);
    cost += 2;
    if (d & HeapSpec::kTwo) cost += r / 2;
    if (d & HeapSpec::kThree) cost += r * r / 12 + r;
  });
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
      if (auto d = compare_with_code(spec, game, heap, heap)) {
        disagree("the rules of " + game.display_name() + " are not the code " + spec.describe() +
                 " they were recognised as: " + d->why);
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

void cross_check_run(const GameInstance& game, std::int64_t a, std::int64_t b, std::int64_t n) {
  constexpr std::int64_t kMaxOptions = std::int64_t{1} << 20;
  if (n < a) return;
  const std::int64_t last = std::min(b, n);  // takes a..last
  if (last - a >= kMaxOptions) return;
  std::vector<bool> seen(static_cast<std::size_t>(last - a) + 2);
  for (std::int64_t k = a; k <= last; ++k) {
    const std::uint64_t x = run_value(a, b, n - k);
    if (x < seen.size()) seen[x] = true;
  }
  const std::uint64_t want = mex_of(seen);
  const std::uint64_t got = run_value(a, b, n);
  if (got != want) {
    disagree("the formula of a run of takes " + std::to_string(a) + ".." + std::to_string(b) + " gives " +
             std::to_string(got) + " at heap " + std::to_string(n) + " of " + game.display_name() +
             ", the mex of its options gives " + std::to_string(want));
  }
}

void cross_check_cell(const GameInstance& game, const BoxTable& box, const std::int64_t* c, std::uint32_t v,
                      const std::function<std::uint64_t(const Position&)>& value_of) {
  constexpr std::uint64_t kMaxOptions = std::uint64_t{1} << 16;
  const int arity = box.arity();
  const Value state = state_of(c, arity, game.plan().packing());
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
          known = box.known(p.data());
        } else if (part.game == &game && part.state.is(Kind::Tuple) &&
                   static_cast<int>(part.state.items().size()) == arity &&
                   std::all_of(part.state.items().begin(), part.state.items().end(),
                               [](const Value& e) { return e.is(Kind::Int); })) {
          for (int i = 0; i < arity; ++i)
            p[static_cast<std::size_t>(i)] = part.state.items()[static_cast<std::size_t>(i)].as_int();
          known = box.known(p.data());
        }
        x ^= known ? *known : value_of(part);
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
