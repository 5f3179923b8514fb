// Wythoff's game (威佐夫博弈) on heaps (a, b): take any number from one heap, or the same
// number from both. The player to move loses exactly at (a, b) or (b, a) with
// a = floor(k * phi), b = a + k, k = 0, 1, 2, ... (phi = (1 + sqrt 5) / 2): Wythoff, "A
// modification of the game of nim", Nieuw Archief voor Wiskunde 7 (1907).
#pragma once

#include "runtime/OutcomeRule.hpp"

namespace grundy {

// True when min(a, b) == floor(|a - b| * phi), in exact integer arithmetic, for any
// a, b >= 0 up to the 64-bit limit.
bool wythoff_loses(std::int64_t a, std::int64_t b);

class WythoffRule : public OutcomeRule {
 public:
  // Heaps below 0 leave the search to the rules.
  std::optional<bool> wins(const std::int64_t* c, int n) override;
  std::string describe() const override;
};

}  // namespace grundy
