#include "runtime/StackGuard.hpp"

#include <pthread.h>

#include <cstddef>
#include <cstdint>

#include "runtime/Error.hpp"

namespace grundy {

namespace {
// Sanitizer builds use several times more stack per frame; keep a wide margin.
constexpr std::size_t kMargin = std::size_t{1} << 20;

std::uintptr_t stack_low_end() {
  thread_local std::uintptr_t low = [] {
    pthread_attr_t attr;
    void* addr = nullptr;
    std::size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return std::uintptr_t{0};
    pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
    return reinterpret_cast<std::uintptr_t>(addr) + kMargin;
  }();
  return low;
}
}  // namespace

void check_stack() {
  char here = 0;
  const auto sp = reinterpret_cast<std::uintptr_t>(&here);
  const std::uintptr_t low = stack_low_end();
  if (low != 0 && sp < low) {
    throw Error(ErrorKind::Limit, "recursion too deep: the stack is nearly exhausted",
                "functions or queries nest too deeply; lower the nesting, or lower --max-depth "
                "to stop earlier with this message");
  }
}

}  // namespace grundy
