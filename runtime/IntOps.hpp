// What one flat instruction of a compiled rule (runtime/IntProgram.hpp) computes, on unboxed
// integers: one definition for the executor that runs a program once per option
// (IntProgram::exec) and for the one that runs it over a batch of the innermost range's
// values, an instruction at a time (runtime/IntLanes.cpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>

#include "runtime/Checked.hpp"
#include "runtime/IntProgram.hpp"

namespace grundy::int_ops {

// {k} as a bitmask; an overflow when k cannot be an element of one (the rules then take over).
inline checked::Fault bit(std::int64_t k, std::int64_t& z) {
  if (k < 0 || k > IntProgram::kMaxElement) return checked::Fault::Overflow;
  z = std::int64_t{1} << k;
  return checked::Fault::None;
}
using P = IntProgram;
constexpr std::int64_t list_len(std::int64_t w) { return P::list_len(w); }
constexpr int list_bits(std::int64_t n) { return P::list_bits(n); }
using Items = std::array<std::int64_t, P::kMaxListLength>;
inline checked::Fault packed(const Items& xs, std::int64_t n, std::int64_t& z) {
  return P::pack_list(xs.data(), n, z) ? checked::Fault::None : checked::Fault::Overflow;
}
// w[i]; an overflow (a bail) when i is out of range.
inline checked::Fault list_at(std::int64_t w, std::int64_t i, std::int64_t& z) {
  const std::int64_t n = list_len(w);
  if (i < 0 || i >= n) return checked::Fault::Overflow;
  z = (w >> (P::list_bits(n) * i)) & P::max_item(n);
  return checked::Fault::None;
}
// w with item i set to x (i == len: appended, and the items may narrow).
inline checked::Fault list_put(std::int64_t w, std::int64_t i, std::int64_t x, std::int64_t& z) {
  const std::int64_t n = list_len(w);
  if (i < 0 || i > n) return checked::Fault::Overflow;
  if (i == n && list_bits(n + 1) == list_bits(n)) {  // the same width: one more field
    if (x < 0 || x > P::max_item(n + 1)) return checked::Fault::Overflow;
    z = (w | (x << (P::list_bits(n) * static_cast<int>(n)))) + (std::int64_t{1} << P::kLengthShift);
    return checked::Fault::None;
  }
  if (i == n) {  // narrower items: repacked
    Items xs;
    P::unpack_list(w, xs.data());
    if (n == P::kMaxListLength) return checked::Fault::Overflow;
    xs[static_cast<std::size_t>(n)] = x;
    return packed(xs, n + 1, z);
  }
  if (x < 0 || x > P::max_item(n)) return checked::Fault::Overflow;
  const int shift = P::list_bits(n) * static_cast<int>(i);
  z = (w & ~(P::max_item(n) << shift)) | (x << shift);
  return checked::Fault::None;
}
// [x] + w's items, in a list of w's length (the last field of w is dropped, a zero while the
// list is being built: IntProgram::Op::Cons).
inline checked::Fault list_cons(std::int64_t w, std::int64_t x, std::int64_t& z) {
  const std::int64_t n = list_len(w);
  if (n == 0 || x < 0 || x > P::max_item(n)) return checked::Fault::Overflow;
  const int b = P::list_bits(n);
  const std::int64_t items = w & ((std::int64_t{1} << P::kLengthShift) - 1);
  if ((items >> (b * (n - 1))) != 0) return checked::Fault::Overflow;  // no field left for x
  z = (n << P::kLengthShift) | (items << b) | x;
  return checked::Fault::None;
}
inline std::int64_t list_has(std::int64_t x, std::int64_t w) {
  const std::int64_t n = list_len(w);
  for (std::int64_t i = 0; i < n; ++i) {
    if (((w >> (P::list_bits(n) * i)) & P::max_item(n)) == x) return 1;
  }
  return 0;
}
inline std::int64_t list_sorted(std::int64_t w) {
  Items xs;
  const std::int64_t n = P::unpack_list(w, xs.data());
  std::sort(xs.data(), xs.data() + n);
  std::int64_t z = 0;
  P::pack_list(xs.data(), n, z);  // the same items: they fit
  return z;
}
// w without item i.
inline checked::Fault list_remove(std::int64_t w, std::int64_t i, std::int64_t& z) {
  Items xs;
  const std::int64_t n = P::unpack_list(w, xs.data());
  if (i < 0 || i >= n) return checked::Fault::Overflow;
  std::copy(xs.data() + i + 1, xs.data() + n, xs.data() + i);
  return packed(xs, n - 1, z);
}
inline checked::Fault list_concat(std::int64_t a, std::int64_t b, std::int64_t& z) {
  Items xs;
  const std::int64_t na = P::unpack_list(a, xs.data());
  if (na + list_len(b) > P::kMaxListLength) return checked::Fault::Overflow;
  const std::int64_t nb = P::unpack_list(b, xs.data() + na);
  return packed(xs, na + nb, z);
}

// set(xs) of a packed list: the mask of its items (an overflow where one is past kMaxElement).
inline checked::Fault list_set(std::int64_t w, std::int64_t& z) {
  const std::int64_t n = list_len(w);
  const int b = list_bits(n);
  std::int64_t m = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t x = (w >> (b * i)) & P::max_item(n);
    if (x > P::kMaxElement) return checked::Fault::Overflow;
    m |= std::int64_t{1} << x;
  }
  z = m;
  return checked::Fault::None;
}
// sum, min and max of a packed list's items (min and max: an overflow, the rules' error, when
// it is empty).
template <int kind>  // 0 sum, 1 min, 2 max
inline checked::Fault list_fold(std::int64_t w, std::int64_t& z) {
  const std::int64_t n = list_len(w);
  if (kind != 0 && n == 0) return checked::Fault::Overflow;
  const int b = list_bits(n);
  std::int64_t acc = kind == 1 ? INT64_MAX : kind == 2 ? -1 : 0;
  for (std::int64_t i = 0; i < n; ++i) {  // at most 56 items of at most 255: no overflow
    const std::int64_t x = (w >> (b * i)) & P::max_item(n);
    acc = kind == 0 ? acc + x : kind == 1 ? std::min(acc, x) : std::max(acc, x);
  }
  z = acc;
  return checked::Fault::None;
}
inline std::int64_t set_sum(std::int64_t mask) {
  std::int64_t total = 0;
  for (auto m = static_cast<std::uint64_t>(mask); m != 0; m &= m - 1) total += __builtin_ctzll(m);
  return total;
}
// min or max of a set's elements; an overflow (the rules' error) when it is empty.
template <bool least>
inline checked::Fault set_extreme(std::int64_t mask, std::int64_t& z) {
  if (mask == 0) return checked::Fault::Overflow;
  const auto m = static_cast<std::uint64_t>(mask);
  z = least ? __builtin_ctzll(m) : 63 - __builtin_clzll(m);
  return checked::Fault::None;
}
// set(lo..hi) as a mask: empty when hi < lo, an overflow when an element is outside 0..kMaxElement.
inline checked::Fault range_set(std::int64_t lo, std::int64_t hi, std::int64_t& z) {
  if (hi < lo) {
    z = 0;
    return checked::Fault::None;
  }
  if (lo < 0 || hi > P::kMaxElement) return checked::Fault::Overflow;
  z = static_cast<std::int64_t>((std::uint64_t{2} << hi) - (std::uint64_t{1} << lo));
  return checked::Fault::None;
}

// k in the set `mask`: an integer outside 0..kMaxElement is in none.
inline std::int64_t member(std::int64_t k, std::int64_t mask) {
  return k >= 0 && k <= IntProgram::kMaxElement ? (mask >> k) & 1 : 0;
}

using Op = IntProgram::Op;
inline bool ok(checked::Fault f) { return f == checked::Fault::None; }

// z = o(x, y) (y unused by the unary ones); false where the rules as written raise or the
// value leaves what the program can hold (the rules as written then take over).
template <Op o>
[[gnu::always_inline]] inline bool apply(std::int64_t x, std::int64_t y, std::int64_t& z) {
  if constexpr (o == Op::Add) return ok(checked::add(x, y, z));
  else if constexpr (o == Op::Sub) return ok(checked::sub(x, y, z));
  else if constexpr (o == Op::Mul) return ok(checked::mul(x, y, z));
  else if constexpr (o == Op::Div) return ok(checked::div(x, y, z));
  else if constexpr (o == Op::Mod) return ok(checked::mod(x, y, z));
  else if constexpr (o == Op::Pow) return ok(checked::pow(x, y, z));
  else if constexpr (o == Op::Neg) return ok(checked::neg(x, z));
  else if constexpr (o == Op::Abs) return ok(checked::abs(x, z));
  else if constexpr (o == Op::Bit) return ok(bit(x, z));
  else if constexpr (o == Op::ListAt) return ok(list_at(x, y, z));
  else if constexpr (o == Op::Append) return ok(list_put(x, list_len(x), y, z));
  else if constexpr (o == Op::Cons) return ok(list_cons(x, y, z));
  else if constexpr (o == Op::ListRemove) return ok(list_remove(x, y, z));
  else if constexpr (o == Op::Concat) return ok(list_concat(x, y, z));
  else if constexpr (o == Op::ListSet) return ok(list_set(x, z));
  else if constexpr (o == Op::ListSum) return ok(list_fold<0>(x, z));
  else if constexpr (o == Op::ListMin) return ok(list_fold<1>(x, z));
  else if constexpr (o == Op::ListMax) return ok(list_fold<2>(x, z));
  else if constexpr (o == Op::RangeSet) return ok(range_set(x, y, z));
  else if constexpr (o == Op::SetMin) return ok(set_extreme<true>(x, z));
  else if constexpr (o == Op::SetMax) return ok(set_extreme<false>(x, z));
  else {
    if constexpr (o == Op::Xor) z = x ^ y;
    else if constexpr (o == Op::Min) z = std::min(x, y);
    else if constexpr (o == Op::Max) z = std::max(x, y);
    else if constexpr (o == Op::Lt) z = x < y;
    else if constexpr (o == Op::Le) z = x <= y;
    else if constexpr (o == Op::Gt) z = x > y;
    else if constexpr (o == Op::Ge) z = x >= y;
    else if constexpr (o == Op::Eq) z = x == y;
    else if constexpr (o == Op::Ne) z = x != y;
    else if constexpr (o == Op::Not) z = x ? 0 : 1;
    else if constexpr (o == Op::Popcount) z = __builtin_popcountll(static_cast<std::uint64_t>(x));
    else if constexpr (o == Op::SetSum) z = set_sum(x);
    else if constexpr (o == Op::Test) z = member(x, y);
    else if constexpr (o == Op::Union) z = x | y;
    else if constexpr (o == Op::Minus) z = x & ~y;
    else if constexpr (o == Op::ListLen) z = list_len(x);
    else if constexpr (o == Op::ListHas) z = list_has(x, y);
    else if constexpr (o == Op::ListSort) z = list_sorted(x);
    else if constexpr (o == Op::Move) z = x;
    else static_assert(o == Op::Move, "not an operation on values");
    return true;
  }
}

// Whether o reads its second operand.
constexpr bool reads_b(Op o) {
  switch (o) {
    case Op::Neg:
    case Op::Abs:
    case Op::Not:
    case Op::Bit:
    case Op::Popcount:
    case Op::SetSum:
    case Op::SetMin:
    case Op::SetMax:
    case Op::ListSet:
    case Op::ListSum:
    case Op::ListMin:
    case Op::ListMax:
    case Op::ListLen:
    case Op::ListSort:
    case Op::Move: return false;
    default: return true;
  }
}

// f(std::integral_constant<Op, o>{}) for an operation on values o that a flat instruction
// holds (apply<o>), as one switch; false for any other.
template <class F>
[[gnu::always_inline]] inline bool dispatch(Op o, F&& f) {
  switch (o) {
    case Op::Add: return f(std::integral_constant<Op, Op::Add>{});
    case Op::Sub: return f(std::integral_constant<Op, Op::Sub>{});
    case Op::Mul: return f(std::integral_constant<Op, Op::Mul>{});
    case Op::Div: return f(std::integral_constant<Op, Op::Div>{});
    case Op::Mod: return f(std::integral_constant<Op, Op::Mod>{});
    case Op::Xor: return f(std::integral_constant<Op, Op::Xor>{});
    case Op::Min: return f(std::integral_constant<Op, Op::Min>{});
    case Op::Max: return f(std::integral_constant<Op, Op::Max>{});
    case Op::Lt: return f(std::integral_constant<Op, Op::Lt>{});
    case Op::Le: return f(std::integral_constant<Op, Op::Le>{});
    case Op::Gt: return f(std::integral_constant<Op, Op::Gt>{});
    case Op::Ge: return f(std::integral_constant<Op, Op::Ge>{});
    case Op::Eq: return f(std::integral_constant<Op, Op::Eq>{});
    case Op::Ne: return f(std::integral_constant<Op, Op::Ne>{});
    case Op::Neg: return f(std::integral_constant<Op, Op::Neg>{});
    case Op::Abs: return f(std::integral_constant<Op, Op::Abs>{});
    case Op::Not: return f(std::integral_constant<Op, Op::Not>{});
    case Op::Bit: return f(std::integral_constant<Op, Op::Bit>{});
    case Op::Popcount: return f(std::integral_constant<Op, Op::Popcount>{});
    case Op::Test: return f(std::integral_constant<Op, Op::Test>{});
    case Op::Union: return f(std::integral_constant<Op, Op::Union>{});
    case Op::Minus: return f(std::integral_constant<Op, Op::Minus>{});
    case Op::ListLen: return f(std::integral_constant<Op, Op::ListLen>{});
    case Op::ListAt: return f(std::integral_constant<Op, Op::ListAt>{});
    case Op::Append: return f(std::integral_constant<Op, Op::Append>{});
    case Op::Cons: return f(std::integral_constant<Op, Op::Cons>{});
    case Op::ListHas: return f(std::integral_constant<Op, Op::ListHas>{});
    case Op::ListSort: return f(std::integral_constant<Op, Op::ListSort>{});
    case Op::ListRemove: return f(std::integral_constant<Op, Op::ListRemove>{});
    case Op::Concat: return f(std::integral_constant<Op, Op::Concat>{});
    case Op::SetSum: return f(std::integral_constant<Op, Op::SetSum>{});
    case Op::SetMin: return f(std::integral_constant<Op, Op::SetMin>{});
    case Op::SetMax: return f(std::integral_constant<Op, Op::SetMax>{});
    case Op::RangeSet: return f(std::integral_constant<Op, Op::RangeSet>{});
    case Op::ListSet: return f(std::integral_constant<Op, Op::ListSet>{});
    case Op::ListSum: return f(std::integral_constant<Op, Op::ListSum>{});
    case Op::ListMin: return f(std::integral_constant<Op, Op::ListMin>{});
    case Op::ListMax: return f(std::integral_constant<Op, Op::ListMax>{});
    case Op::Move: return f(std::integral_constant<Op, Op::Move>{});
    default: return false;
  }
}

}  // namespace grundy::int_ops
