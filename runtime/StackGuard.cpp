#include "runtime/StackGuard.hpp"

#include <pthread.h>
#include <signal.h>

#ifdef __EMSCRIPTEN__
#include <emscripten/stack.h>
#endif

#include <cstddef>
#include <cstdint>

#include "runtime/Error.hpp"

namespace grundy {

namespace {
// Sanitizer builds use several times more stack per frame; keep a wide margin.
constexpr std::size_t kMargin = std::size_t{1} << 20;

std::uintptr_t stack_low_end() {
#ifdef __EMSCRIPTEN__
  // WebAssembly's stack in linear memory (its own frames are elsewhere, out of sight).
  return emscripten_stack_get_end() + kMargin;
#else
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
#endif
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

int run_on_stack(std::size_t bytes, const std::function<int()>& work, bool sigint_to_worker) {
  struct Job {
    const std::function<int()>* work;
    bool sigint;
    int result = 0;
  } job{&work, sigint_to_worker};
  auto entry = [](void* p) -> void* {
    auto* j = static_cast<Job*>(p);
    if (j->sigint) {
      sigset_t sigint;
      sigemptyset(&sigint);
      sigaddset(&sigint, SIGINT);
      pthread_sigmask(SIG_UNBLOCK, &sigint, nullptr);
    }
    j->result = (*j->work)();
    return nullptr;
  };
  sigset_t before;
  if (sigint_to_worker) {
    sigset_t sigint;
    sigemptyset(&sigint);
    sigaddset(&sigint, SIGINT);
    pthread_sigmask(SIG_BLOCK, &sigint, &before);
  }
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, bytes);
  pthread_t thread;
  const bool made = pthread_create(&thread, &attr, entry, &job) == 0;
  if (made) pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  if (sigint_to_worker) pthread_sigmask(SIG_SETMASK, &before, nullptr);
  return made ? job.result : work();
}

}  // namespace grundy
