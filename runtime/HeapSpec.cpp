#include "runtime/HeapSpec.hpp"

#include <algorithm>

namespace grundy {

bool HeapSpec::has_splits() const {
  return std::any_of(digits.begin(), digits.end(), [](std::uint8_t d) { return d & (kTwo | kThree); });
}

int HeapSpec::max_heaps() const {
  int h = 1;
  for (std::uint8_t d : digits) {
    if (d & kThree) h = 3;
    else if ((d & kTwo) && h < 2) h = 2;
  }
  return h;
}

std::int64_t HeapSpec::max_take() const {
  for (std::size_t k = digits.size(); k-- > 0;) {
    if (digits[k]) return static_cast<std::int64_t>(k);
  }
  return 0;
}

std::optional<std::pair<std::int64_t, std::int64_t>> HeapSpec::subtraction_run() const {
  constexpr std::uint8_t kTake = kNone | kOne;  // take k: leave the rest of the heap, if any
  std::int64_t a = 0, b = 0;
  for (std::size_t k = 0; k < digits.size(); ++k) {
    if (digits[k] == 0) continue;
    if (digits[k] != kTake || (a > 0 && b + 1 != static_cast<std::int64_t>(k))) return std::nullopt;
    if (a == 0) a = static_cast<std::int64_t>(k);
    b = static_cast<std::int64_t>(k);
  }
  if (tail != 0) {
    if (tail != kTake || tail_end < static_cast<std::int64_t>(digits.size()) ||
        (a > 0 && b + 1 != static_cast<std::int64_t>(digits.size()))) {
      return std::nullopt;
    }
    if (a == 0) a = static_cast<std::int64_t>(digits.size());
    b = tail_end;
  }
  // A run to b = 2^63 - 1 is Nim's "take any number" when a is 1: (n mod (a + b)) / a is
  // then n for every heap. FastPath::run_value takes a + b in 64-bit unsigned arithmetic.
  if (a == 0) return std::nullopt;
  return std::make_pair(a, b);
}

bool HeapSpec::provable() const {
  if (tail != 0) return false;
  return std::none_of(digits.begin(), digits.end(), [](std::uint8_t d) { return d & kUnequal; });
}

std::int64_t HeapSpec::proof_bound(std::int64_t n0, std::int64_t p) const {
  // Options of heap N + p that split off h heaps have a part >= (N + p - k) / h; it is at
  // least n0 + p, so it can be shortened by p, once N >= h n0 + (h - 1) p + k. Going back,
  // a part of heap N's options is >= (N - k) / h >= n0. Leaving no heap (N == k) must not
  // happen on either side: N >= k + 1.
  const std::int64_t h = max_heaps();
  const std::int64_t k = max_take();
  return std::max(h * n0 + (h - 1) * p + k, k + 1);
}

void HeapSpec::normalize() {
  if (tail != 0) return;  // the digits before the tail say where it starts
  while (!digits.empty() && digits.back() == 0) digits.pop_back();
  tail_end = INT64_MAX;
}

std::string HeapSpec::key() const {
  static const char* const hex = "0123456789abcdef";
  std::string s;
  for (std::uint8_t d : digits) {
    s += hex[d >> 4];
    s += hex[d & 15];
  }
  if (tail) {
    s += 't';
    s += hex[tail & 15];
    if (tail_end != INT64_MAX) s += "-" + std::to_string(tail_end);
  }
  return s;
}

std::string HeapSpec::describe() const {
  auto hex = [](int d) { return static_cast<char>(d < 10 ? '0' + d : 'a' + d - 10); };
  bool unequal = false;
  bool subtraction = !has_splits();
  for (std::size_t k = 1; k < digits.size(); ++k) {
    if (digits[k] != 0 && digits[k] != 3) subtraction = false;
    if (digits[k] & kUnequal) unequal = true;
  }
  if (!digits.empty() && (digits[0] & kUnequal)) unequal = true;
  if (subtraction && (tail == 0 || tail == 3)) {
    std::string s;
    if (tail == 0) {
      s = "subtraction {";
      bool first = true;
      for (std::size_t k = 1; k < digits.size(); ++k) {
        if (digits[k] != 3) continue;
        s += (first ? "" : ", ") + std::to_string(k);
        first = false;
      }
      return s + "}";
    }
    s = "subtraction, all but {";
    bool first = true;
    for (std::size_t k = 1; k < digits.size(); ++k) {
      if (digits[k] == 3) continue;
      s += (first ? "" : ", ") + std::to_string(k);
      first = false;
    }
    s += "}";
    if (tail_end != INT64_MAX) s += " up to " + std::to_string(tail_end);
    return s;
  }
  std::string s;
  s += hex(digits.empty() ? 0 : digits[0] & 15);
  s += '.';
  for (std::size_t k = 1; k < digits.size(); ++k) s += hex(digits[k] & 15);
  if (tail) {
    s += "(" + std::string(1, hex(tail)) + " from " + std::to_string(digits.size());
    if (tail_end != INT64_MAX) s += " to " + std::to_string(tail_end);
    s += ")";
  }
  if (unequal) s += " (splits into unequal heaps)";
  return s;
}

}  // namespace grundy
