// Subtraction and take-and-break games as a code: Conway's digits d0.d1d2..., where digit dk
// says what removing k tokens from a heap may leave (nothing, one heap, two, three; two
// unequal ones for Grundy's game), with a tail for "all but" sets and runs of takes. The
// shorthands are their code; rules the language recognises are lowered to one
// (lang/Recognize.cpp). The kernels compute its values (runtime/Kernels.hpp) and the
// periodicity theorem proves its periods (runtime/Period.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace grundy {

// The largest removal a spec spells out digit by digit (a byte each). A subtraction set
// with a larger element is left to the general evaluation: its proof would need a table of
// more than twice as many heaps anyway.
inline constexpr std::int64_t kMaxSpecDigit = std::int64_t{1} << 24;

struct HeapSpec {
  // Digit bits, as in Conway's codes, for removing k tokens from one heap:
  static constexpr std::uint8_t kNone = 1;      // leave no heap (the heap had exactly k)
  static constexpr std::uint8_t kOne = 2;       // leave one non-empty heap
  static constexpr std::uint8_t kTwo = 4;       // leave two non-empty heaps
  static constexpr std::uint8_t kThree = 8;     // leave three non-empty heaps
  static constexpr std::uint8_t kUnequal = 16;  // with kTwo: the two heaps differ in size

  std::vector<std::uint8_t> digits;  // digits[k] for k = 0 .. K-1; digits[0] has no 1 or 2
  // The digit for every k >= K up to tail_end (inclusive): bits kNone and kOne only.
  // Nim is {}, tail 3; "all but {2}" is digits 0.30 and tail 3.
  std::uint8_t tail = 0;
  std::int64_t tail_end = INT64_MAX;

  std::size_t K() const { return digits.size(); }
  bool has_splits() const;
  // Largest number of heaps a move may leave (1 for subtraction games).
  int max_heaps() const;
  // Largest number of tokens a move removes (the last non-zero digit), for finite codes.
  std::int64_t max_take() const;
  // True when the periodicity theorem applies: a finite code without kUnequal.
  bool provable() const;
  // For the subtraction game of a run {a, a + 1, ..., b} (1 <= a <= b, also b as a tail's
  // end): (a, b). Its values are (n mod (a + b)) / a, for every n.
  std::optional<std::pair<std::int64_t, std::int64_t>> subtraction_run() const;
  // Guy and Smith's bound, generalised to splits into up to h heaps: if
  // value(n + p) == value(n) for all n0 <= n < bound(n0, p), then for all n >= n0.
  std::int64_t proof_bound(std::int64_t n0, std::int64_t p) const;
  // "0.77", "4.333...", "subtraction {1, 3, 4}", "all but {2, 5}", "0.0 unequal 4" ...
  std::string describe() const;
  // The code exactly, as a word: each digit's byte in hex, then the tail ("t3" up to
  // "-tail_end"). Grundy's game is "14", Kayles "000707". For files of values (ValuesFile).
  std::string key() const;
  // Drops trailing zero digits of a finite code.
  void normalize();
  friend bool operator==(const HeapSpec&, const HeapSpec&) = default;
};

// The value of heap n in the subtraction game of the run of takes {a, ..., b}:
// (n mod (a + b)) / a. The values reach 2^63 - 1 and a + b up to 2^64 - 2: both are taken in
// 64-bit unsigned arithmetic, never in a table's 32 bits.
inline std::uint64_t run_value(std::int64_t a, std::int64_t b, std::int64_t n) {
  const std::uint64_t m = static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b);
  return static_cast<std::uint64_t>(n) % m / static_cast<std::uint64_t>(a);
}

// Calls f(k, d) for k = 0, 1, ..., n with d the digit of removing k tokens under `spec`,
// stopping past the code (a tail's end).
template <typename F>
void for_each_digit(const HeapSpec& spec, std::int64_t n, F&& f) {
  const auto K = static_cast<std::int64_t>(spec.K());
  for (std::int64_t k = 0; k <= n; ++k) {
    std::uint8_t d = 0;
    if (k < K) d = spec.digits[static_cast<std::size_t>(k)];
    else if (k <= spec.tail_end) d = spec.tail;
    else break;
    f(k, d);
  }
}

// Calls f(a, b, c) for each option of heap n under `spec`, by the definition of the code:
// the heaps the option leaves, 0 standing for none (so (0, 0, 0) leaves nothing). Unsorted,
// and an option that two digits both allow comes twice.
template <typename F>
void for_each_spec_option(const HeapSpec& spec, std::int64_t n, F&& f) {
  for_each_digit(spec, n, [&](std::int64_t k, std::uint8_t d) {
    if (!d) return;
    const std::int64_t r = n - k;
    if ((d & HeapSpec::kNone) && r == 0 && k >= 1) f(std::int64_t{0}, std::int64_t{0}, std::int64_t{0});
    if ((d & HeapSpec::kOne) && r >= 1 && k >= 1) f(r, std::int64_t{0}, std::int64_t{0});
    if (d & HeapSpec::kTwo) {
      for (std::int64_t a = 1; 2 * a <= r; ++a) {
        if ((d & HeapSpec::kUnequal) && 2 * a == r) continue;
        f(a, r - a, std::int64_t{0});
      }
    }
    if (d & HeapSpec::kThree) {
      for (std::int64_t a = 1; 3 * a <= r; ++a) {
        for (std::int64_t b = a; a + 2 * b <= r; ++b) f(a, b, r - a - b);
      }
    }
  });
}

}  // namespace grundy
