// Checked 64-bit integer arithmetic, as the language defines it: every result outside the
// 64-bit range is a fault, never a wrap-around. One definition for the interpreter
// (lang/Interpreter.cpp), which reports a fault with its operands, and for the executor of
// compiled rules (runtime/IntProgram.cpp), which hands the state back to the interpreter.
#pragma once

#include <cstdint>

namespace grundy::checked {

enum class Fault : std::uint8_t { None, Overflow, DivisionByZero, NegativeExponent };

inline Fault add(std::int64_t a, std::int64_t b, std::int64_t& r) {
  return __builtin_add_overflow(a, b, &r) ? Fault::Overflow : Fault::None;
}
inline Fault sub(std::int64_t a, std::int64_t b, std::int64_t& r) {
  return __builtin_sub_overflow(a, b, &r) ? Fault::Overflow : Fault::None;
}
inline Fault mul(std::int64_t a, std::int64_t b, std::int64_t& r) {
  return __builtin_mul_overflow(a, b, &r) ? Fault::Overflow : Fault::None;
}
// Only the quotient INT64_MIN / -1 = 2^63 overflows.
inline Fault div(std::int64_t a, std::int64_t b, std::int64_t& r) {
  if (b == 0) return Fault::DivisionByZero;
  if (b == -1 && a == INT64_MIN) return Fault::Overflow;
  r = a / b;
  return Fault::None;
}
// Every x % -1 is 0 (and C++'s INT64_MIN % -1 traps, so it is not computed).
inline Fault mod(std::int64_t a, std::int64_t b, std::int64_t& r) {
  if (b == 0) return Fault::DivisionByZero;
  r = b == -1 ? 0 : a % b;
  return Fault::None;
}
inline Fault pow(std::int64_t a, std::int64_t b, std::int64_t& r) {
  if (b < 0) return Fault::NegativeExponent;
  std::int64_t result = 1, base = a, e = b;
  while (e > 0) {
    if ((e & 1) && __builtin_mul_overflow(result, base, &result)) return Fault::Overflow;
    e >>= 1;
    if (e > 0 && __builtin_mul_overflow(base, base, &base)) return Fault::Overflow;
  }
  r = result;
  return Fault::None;
}
inline Fault neg(std::int64_t a, std::int64_t& r) {
  if (a == INT64_MIN) return Fault::Overflow;
  r = -a;
  return Fault::None;
}
inline Fault abs(std::int64_t a, std::int64_t& r) {
  if (a == INT64_MIN) return Fault::Overflow;
  r = a < 0 ? -a : a;
  return Fault::None;
}

}  // namespace grundy::checked
