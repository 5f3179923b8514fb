// The index of a one-integer table's values over the interval of its known cells
// (runtime/IntervalValues.hpp), against a brute force over the same cells. (The games it
// serves: tests/unit/compiled_rules_agree_test.cpp.)
#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "runtime/IntervalValues.hpp"

namespace {

using grundy::IntervalValues;

// Cells 0..size-1 filled in the given order with random values below `values`; after each
// fill, every run the index covers is checked against the cells themselves.
void check_fill(const std::vector<std::int64_t>& order, std::uint32_t values, std::mt19937& rng) {
  const auto size = static_cast<std::int64_t>(order.size());
  std::vector<std::optional<std::uint32_t>> cell(order.size());
  std::uniform_int_distribution<std::uint32_t> value(0, values - 1);
  std::optional<IntervalValues> iv;
  std::size_t checked = 0;
  for (std::int64_t i : order) {
    const std::uint32_t v = value(rng);
    cell[static_cast<std::size_t>(i)] = v;
    if (!iv) {
      iv.emplace(i, i, [&](std::int64_t j) { return *cell[static_cast<std::size_t>(j)]; });
    } else {
      iv->note(i, v, [&](std::int64_t j) -> std::optional<std::uint32_t> {
        if (j < 0 || j >= size) return std::nullopt;
        return cell[static_cast<std::size_t>(j)];
      });
    }
    // The interval is known, and holds no cell outside it that touches it.
    for (std::int64_t j = iv->lo(); j <= iv->hi(); ++j) REQUIRE(cell[static_cast<std::size_t>(j)]);
    REQUIRE((iv->lo() == 0 || !cell[static_cast<std::size_t>(iv->lo() - 1)]));
    REQUIRE((iv->hi() == size - 1 || !cell[static_cast<std::size_t>(iv->hi() + 1)]));
    // A few runs from each end.
    for (int t = 0; t < 4; ++t) {
      const std::int64_t len = std::uniform_int_distribution<std::int64_t>(1, iv->hi() - iv->lo() + 1)(rng);
      for (bool from_start : {true, false}) {
        const std::int64_t a = from_start ? iv->lo() : iv->hi() - len + 1;
        const std::int64_t b = a + len - 1;
        REQUIRE(iv->covers(a, b));
        std::vector<bool> in(values + 2, false);
        for (std::int64_t j = a; j <= b; ++j) in[*cell[static_cast<std::size_t>(j)]] = true;
        for (std::uint32_t u = 0; u < values + 2; ++u) REQUIRE(iv->has(u, a, b) == in[u]);
        for (std::uint32_t from = 0; from < values + 2; ++from) {
          std::uint32_t want = from;
          while (want < in.size() && in[want]) ++want;
          REQUIRE(iv->absent_from(from, a, b) == want);
        }
        ++checked;
      }
    }
    // A run in the middle is not the index's.
    if (iv->hi() - iv->lo() >= 2) CHECK_FALSE(iv->covers(iv->lo() + 1, iv->hi() - 1));
  }
  CHECK(checked > 0);
}

}  // namespace

TEST_CASE("the values over the interval of known cells answer for runs that start or end with it",
          "[fast][tables]") {
  std::mt19937 rng(1729);
  for (std::uint32_t values : {1u, 3u, 70u, 300u}) {
    INFO(values << " values");
    std::vector<std::int64_t> up(200), down(200);
    for (std::int64_t i = 0; i < 200; ++i) up[static_cast<std::size_t>(i)] = i;
    std::reverse_copy(up.begin(), up.end(), down.begin());
    check_fill(up, values, rng);    // a sweep upwards
    check_fill(down, values, rng);  // the search top-down from the largest state
    // From the middle out, with cells filled ahead of the interval that it takes in later.
    std::vector<std::int64_t> mixed = {100, 101, 99, 105, 104, 102, 103, 98, 90, 97, 96, 95, 94, 93, 92, 91};
    for (std::int64_t i = 106; i < 200; ++i) mixed.push_back(i);
    for (std::int64_t i = 89; i >= 0; --i) mixed.push_back(i);
    check_fill(mixed, values, rng);
  }
}
