// Running programs under tight budgets: few states, rows, steps and little memory, shallow
// recursion, and a watchdog that raises the interrupt flag (as Ctrl-C does) when one input
// runs longer than 0.1 s (plenty under these limits; a second made slow inputs dominate the
// run). Whatever the program, the session must end with 0, 1, 65 or 70 and well-formed
// diagnostics; an input that ignores the interrupt flag shows up as a
// libFuzzer timeout (run with -timeout=10, see fuzz/README.md).
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include "fuzz/FuzzSupport.hpp"
#include "fuzz/Generator.hpp"
#include "lang/Session.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::atomic<bool> g_interrupt{false};
std::atomic<std::int64_t> g_started{0};  // start of the current input (ns), 0 when idle
constexpr std::int64_t kBudgetNs = 100'000'000;

void start_watchdog() {
  static std::once_flag once;
  std::call_once(once, [] {
    std::thread([] {
      for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        const std::int64_t started = g_started.load();
        const std::int64_t now = Clock::now().time_since_epoch().count();
        if (started != 0 && now - started > kBudgetNs) g_interrupt.store(true);
      }
    }).detach();
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  start_watchdog();
  // Text (the seeds, and their mutations) runs as it is; an input that starts with a byte
  // no program starts with (>= 0x80, or a control character) is a list of choices for the
  // Generator, which writes a program that parses and so reaches the evaluators.
  const bool generate =
      size > 0 &&
      (data[0] >= 0x80 || (data[0] < 0x20 && data[0] != '\n' && data[0] != '\t' && data[0] != '\r'));
  const std::string text = generate ? grundy::fuzz::Generator(data + 1, size - 1).program()
                                    : std::string(reinterpret_cast<const char*>(data), size);
  // GRUNDY_FUZZ_PRINT=1 shows the program, e.g. when replaying a crash of a generated one.
  static const bool print = std::getenv("GRUNDY_FUZZ_PRINT") != nullptr;
  if (print) std::fprintf(stderr, "--- program ---\n%s--- end ---\n", text.c_str());
  std::ostringstream out, err;
  grundy::SessionOptions options;
  options.limits.max_states = 10'000;
  options.limits.max_rows = 1'000;
  options.limits.max_steps = 200'000;
  options.limits.max_memory = std::uint64_t{64} << 20;
  options.limits.interrupt = &g_interrupt;
  options.max_depth = 200;
  g_interrupt.store(false);
  g_started.store(Clock::now().time_since_epoch().count());
  const int code = grundy::fuzz::run_on_big_stack([&] {
    grundy::Session session(out, err, options);
    return session.run_source(text, "fuzz.game");
  });
  g_started.store(0);
  grundy::fuzz::check_run(code, err.str(), false);
  return 0;
}
