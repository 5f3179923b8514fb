// How the interpreter reports what a program did wrong at run time: an error at a source
// location (the operator, the argument) with what was expected, shared by the interpreter,
// its builtins and its queries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/Error.hpp"
#include "runtime/Show.hpp"
#include "runtime/Value.hpp"

namespace grundy::lang {

[[noreturn]] inline void fail_at(Where where, std::string message, std::string hint = {}) {
  throw Error(ErrorKind::Runtime, std::move(message), std::move(hint), where);
}

// A value as a message names it: its kind and, shortened, itself.
inline std::string describe(const Value& v) { return std::string(kind_name(v.kind())) + " " + shown(v, 60); }

inline std::int64_t need_int(const Value& v, Where where, const char* what) {
  if (!v.is(Kind::Int)) fail_at(where, std::string(what) + " must be an int, got " + describe(v));
  return v.as_int();
}

// `what` is the operation written out, e.g. "2 ^ 63" or "abs(-9223372036854775808)".
[[noreturn]] inline void overflow(Where where, const std::string& what) {
  fail_at(where, "integer overflow: " + what + " is outside the 64-bit range",
          "integers are checked 64-bit values (-9223372036854775808 to 9223372036854775807)");
}

[[noreturn]] inline void overflow(Where where, const char* op, std::int64_t a, std::int64_t b) {
  overflow(where, std::to_string(a) + " " + op + " " + std::to_string(b));
}

// A position or a sum: what the queries take.
inline bool is_gamey(const Value& v) { return v.is(Kind::Position) || v.is(Kind::Sum); }

// The elements of a list, tuple or set.
inline const std::vector<Value>& elements_of(const Value& v, Where where, const char* what) {
  if (v.is(Kind::List) || v.is(Kind::Tuple) || v.is(Kind::Set)) return v.items();
  fail_at(where, std::string(what) + " needs a list, tuple or set, got " + describe(v));
}

}  // namespace grundy::lang
