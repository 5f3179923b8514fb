// The one exception type that crosses layers. The runtime raises errors with no source
// location; the language layer fills `where` in on the way out (the query, or the operator
// that overflowed), so every error reaches the user with a caret.
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace grundy {

// An offset into a loaded source, as the language layer numbers them; opaque here.
struct Where {
  std::int32_t file = -1;
  std::uint32_t offset = 0;
  bool known() const { return file >= 0; }
};

enum class ErrorKind {
  Runtime,      // exit 70: overflow, a loop in the rules, a cap, a bad value
  Limit,        // exit 70: a resource limit; the message names the flag that raises it
  Interrupted,  // exit 70: the user pressed Ctrl-C
  Internal,     // exit 70: a fast path disagrees with the rules (--cross-check): a fault in Grundy
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind k, std::string message, std::string h = {}, Where w = {})
      : std::runtime_error(std::move(message)), kind(k), hint(std::move(h)), where(w) {}
  ErrorKind kind;
  std::string hint;  // what would fix it, printed after the caret
  Where where;
  bool context = false;  // the message already names the position whose rules failed
  bool loop = false;     // the rules loop (a cycle of positions, a rule asking about its own)
  bool too_many_states = false;  // --max-states: the memo and tables hold the limit
  bool out_of_memory = false;    // --max-memory
};

// The rules loop: an error whose message names the cycle.
[[noreturn]] inline void fail_loop(std::string message, std::string hint) {
  Error e(ErrorKind::Runtime, std::move(message), std::move(hint));
  e.loop = true;
  throw e;
}

// Ctrl-C was pressed (the flag the command line's SIGINT handler sets): stop where we are.
inline void check_interrupt(const std::atomic<bool>* interrupt) {
  if (interrupt && interrupt->load(std::memory_order_relaxed)) throw Error(ErrorKind::Interrupted, "interrupted");
}

[[noreturn]] inline void fail(std::string message, std::string hint = {}) {
  throw Error(ErrorKind::Runtime, std::move(message), std::move(hint));
}

}  // namespace grundy
