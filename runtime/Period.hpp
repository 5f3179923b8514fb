// Periods of the nim-sequence value(0), value(1), ... of a one-heap game.
//
// proven_period applies the periodicity theorem of Guy and Smith (Winning Ways ch. 4; for
// splits into up to h heaps the same argument gives the bound HeapSpec::proof_bound): when
// value(n + p) == value(n) for every n0 <= n < bound(n0, p), it holds for every n >= n0. For
// a subtraction game (h = 1) that is the classical criterion: a window as long as the
// largest subtraction repeats. The smallest p for which the proof holds inside the table is
// the smallest period of the whole sequence: a smaller true period q would repeat from the
// same n0 and have a smaller bound, so it would have been found first.
//
// observed_period makes no claim beyond the table: it reports the smallest p that repeats
// from n0 on with n0 + 3p below half of the table.
#pragma once

#include <cstdint>
#include <optional>

#include "runtime/Dense.hpp"
#include "runtime/Kernels.hpp"

namespace grundy {

struct PeriodInfo {
  std::int64_t n0 = 0;  // the first heap of the periodic part
  std::int64_t p = 0;   // the period
  bool proven = false;
};

std::optional<PeriodInfo> proven_period(const DenseTable& values, const HeapSpec& spec);
std::optional<PeriodInfo> observed_period(const DenseTable& values);

// The heaps period(G) looks at without a limit (Evaluator::period).
constexpr std::int64_t kPeriodLimitCodes = std::int64_t{1} << 20;
constexpr std::int64_t kPeriodLimitRules = std::int64_t{1} << 12;

}  // namespace grundy
