#include "runtime/WorkAhead.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <vector>

#include <absl/container/flat_hash_set.h>

namespace grundy {

namespace {

using Cell = std::array<std::int64_t, IntProgram::kMaxArity>;

// The distinct parts of a state's options, up to `cap` of them.
class PartsSink : public OptionSink {
 public:
  PartsSink(int arity, std::size_t cap) : arity_(arity), cap_(cap) {}
  bool option(const std::int64_t* coords, int parts) override {
    for (int p = 0; p < parts; ++p) add(coords + p * arity_);
    return parts_.size() < cap_;
  }
  bool run(const std::int64_t* first, const std::int64_t* slope, int parts, std::int64_t count) override {
    Cell x{};
    for (std::int64_t k = 0; k < count && parts_.size() < cap_; ++k) {
      for (int p = 0; p < parts; ++p) {
        for (int i = 0; i < arity_; ++i) x[static_cast<std::size_t>(i)] = first[p * arity_ + i] + k * slope[p * arity_ + i];
        add(x.data());
      }
    }
    return parts_.size() < cap_;
  }
  // Sorted: the count, which may stop early, does not depend on the hash's order.
  std::vector<Cell> take() {
    std::vector<Cell> out(parts_.begin(), parts_.end());
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  void add(const std::int64_t* c) {
    Cell x{};
    for (int i = 0; i < arity_; ++i) x[static_cast<std::size_t>(i)] = c[i];
    parts_.insert(x);
  }
  int arity_;
  std::size_t cap_;
  absl::flat_hash_set<Cell> parts_;
};

// The options a state's `for` loops make, as runs: each costs the search a step.
// `calls` is the work of listing them, whatever the runs' lengths.
class StepsSink : public OptionSink {
 public:
  bool option(const std::int64_t*, int) override {
    ++calls;
    return true;
  }
  bool run(const std::int64_t*, const std::int64_t*, int, std::int64_t count) override {
    steps += static_cast<std::uint64_t>(count);
    ++calls;
    return true;
  }
  std::uint64_t steps = 0;
  std::uint64_t calls = 0;
};

}  // namespace

std::uint64_t steps_ahead(const IntProgram& rules, const std::int64_t* c, int arity,
                          const std::function<bool(const std::int64_t*)>& known, std::uint64_t enough) {
  // A state whose own options pass the limit is left to the search: its message names the
  // loop that is too long.
  StepsSink own;
  if (!rules.options(c, own) || own.steps > enough) return 0;
  PartsSink parts(arity, std::size_t{1} << 20);
  rules.options(c, parts);
  // Far past the limit is enough to say so, and a budget of listing work bounds the estimate
  // (an option's own options may be a loop of millions, not a run). The budget counts work,
  // not time, so that the same program gets the same message on a loaded machine or under a
  // sanitizer; the clock is only a backstop for loops whose iterations all fail their `if`.
  // Cut short, the count is still a lower bound.
  constexpr std::uint64_t kCallBudget = std::uint64_t{1} << 22;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  std::uint64_t total = 0, calls = 0, looked = 0;
  for (const Cell& x : parts.take()) {
    if (known(x.data())) continue;
    StepsSink steps;
    if (rules.options(x.data(), steps)) total = steps.steps > UINT64_MAX - total ? UINT64_MAX : total + steps.steps;
    calls += steps.calls + 1;
    if (total / 64 > enough || calls > kCallBudget) break;
    if ((++looked & 0x3F) == 0 && std::chrono::steady_clock::now() > deadline) break;
  }
  return total;
}

}  // namespace grundy
