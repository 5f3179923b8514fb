// The k-multiple dynamic subtraction game (k倍动态减法; Fibonacci nim for k = 2): a heap of
// n tokens of which at most `limit` may be taken now; taking t leaves n - t tokens and a
// limit of k * t. Its outcomes follow from a theorem, with no search:
//
//   a(0) = 1, a(i + 1) = b(i) + 1, where b(i) is the largest heap written as a sum of
//   terms of a(0..i) in which each term is more than k times the next smaller one:
//   b(0) = 1, b(i) = b(j) + a(i) for the largest j with k * a(j) < a(i), else a(i).
//   Taking the largest term that fits, again and again, writes every n >= 1 so; the
//   player to move at (n, limit) wins exactly when the smallest term is at most limit.
//
// For k = 2 the terms are the Fibonacci numbers and the sum is Zeckendorf's (Whinihan,
// "Fibonacci Nim", Fibonacci Quarterly 1963); for k = 1 they are the powers of 2. Any k:
// 曹钦翔, "从k倍动态减法游戏出发探究一类组合游戏问题", China national team paper, 2007.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/OutcomeRule.hpp"

namespace grundy {

class DynamicSubtraction : public OutcomeRule {
 public:
  // `heap`: the coordinate of the state that is n, 0 for (n, limit) and 1 for (limit, n).
  explicit DynamicSubtraction(std::int64_t k, int heap = 0);
  // True when the player to move at (n, limit) wins. Nothing when the rules could overflow
  // somewhere below it (k times a take past 64 bits), or when n needs more than kMaxTerms
  // terms of a (k of some thousands and a huge n): the search decides those.
  std::optional<bool> wins_at(std::int64_t n, std::int64_t limit);
  std::optional<bool> wins(const std::int64_t* c, int n) override {
    return n == 2 ? wins_at(c[heap_], c[1 - heap_]) : std::nullopt;
  }
  // "2-multiple dynamic subtraction (Fibonacci nim): ..." for --explain.
  std::string describe() const override;

  static constexpr std::size_t kMaxTerms = std::size_t{1} << 18;

 private:
  // Extends a past n; false when that takes more than kMaxTerms terms.
  bool reach(std::int64_t n);

  std::int64_t k_;
  int heap_;
  std::vector<std::int64_t> a_{1};
  std::vector<std::int64_t> b_{1};
  // How many terms j, from the first, have k * a(j) < a(last): the j that b(last) builds
  // on is the last of them. They only grow in number as the terms grow.
  std::size_t below_ = 0;
};

}  // namespace grundy
