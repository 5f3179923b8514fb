#include "runtime/Wythoff.hpp"

#include <algorithm>

namespace grundy {

bool wythoff_loses(std::int64_t a, std::int64_t b) {
  __extension__ using U = unsigned __int128;  // GCC and Clang; -Wpedantic wants it marked
  const auto m = static_cast<std::uint64_t>(std::min(a, b));
  const auto d = static_cast<std::uint64_t>(std::max(a, b)) - m;
  if (d == 0) return m == 0;
  // A losing pair has m + d = floor(d * phi) + d = floor(d * phi^2) < 2^63, so d < 2^62.
  if (d >= std::uint64_t{1} << 62) return false;
  // m == floor(d * phi) <=> 2m - d < d * sqrt 5 < 2m + 2 - d (d * phi is irrational). Each
  // square fits 128 bits: 5d^2 < 2^127, 2m < 2^64.
  const U five_dd = U{5} * d * d;
  const U lo = U{2} * m;  // 2m - d < d sqrt 5  <=>  2m < d or (2m - d)^2 < 5d^2
  if (lo >= d && (lo - d) * (lo - d) >= five_dd) return false;
  const U hi = U{2} * m + 2;  // d sqrt 5 < 2m + 2 - d  <=>  2m + 2 > d and 5d^2 < (2m + 2 - d)^2
  return hi > d && five_dd < (hi - d) * (hi - d);
}

std::optional<bool> WythoffRule::wins(const std::int64_t* c, int n) {
  if (n != 2 || c[0] < 0 || c[1] < 0) return std::nullopt;
  return !wythoff_loses(c[0], c[1]);
}

std::string WythoffRule::describe() const {
  return "Wythoff's game: (a, b) is lost when the smaller heap is floor(k * phi) for k the "
         "difference of the heaps";
}

}  // namespace grundy
