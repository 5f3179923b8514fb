// --max-memory is an estimate, and it must be an honest one: a program that needs more than
// the limit stops with the message that names the flag while the process is still near the
// limit, rather than being killed by the operating system (or failing to allocate).
//
// Each case runs in a child process whose address space is capped a little above the
// limit (RLIMIT_AS): an estimate that leaves out what the program really holds (the
// elements of list states in the memo, the arguments of a recursion, the parts of the
// options of a large sum) lets the child run into the cap first, where allocation fails.
// Memory, not time, is measured, and only as a cap.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "runtime/StackGuard.hpp"
#include "tests/unit/support.hpp"

namespace {

using grundy::test::contains;
using grundy::test::run_source;
using grundy::test::RunResult;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// The address space this process maps now, in bytes.
std::uint64_t mapped_now() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0;
  statm >> pages;
  return pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

// Runs `source` with --max-memory `mb` in a child whose address space may grow by only
// `slack` times that; returns the child's exit code and standard error.
RunResult run_capped(const std::string& source, std::uint64_t mb, double slack,
                     grundy::SessionOptions options = {}) {
  options.limits.max_memory = mb << 20;
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(pipe_fds[0]);
    const auto cap =
        static_cast<rlim_t>(mapped_now() + static_cast<std::uint64_t>(slack * static_cast<double>(mb << 20)));
    const rlimit limit{cap, cap};
    setrlimit(RLIMIT_AS, &limit);
    const RunResult r = run_source(source, options);
    const std::string report = std::to_string(r.code) + "\n" + r.err;
    std::size_t done = 0;
    while (done < report.size()) {
      const ssize_t n = write(pipe_fds[1], report.data() + done, report.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(pipe_fds[1]);
  std::string report;
  char buf[4096];
  ssize_t n = 0;
  while ((n = read(pipe_fds[0], buf, sizeof buf)) > 0) report.append(buf, static_cast<std::size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  RunResult r;
  const std::size_t nl = report.find('\n');
  if (nl != std::string::npos) {
    r.code = std::stoi(report.substr(0, nl));
    r.err = report.substr(nl + 1);
  }
  return r;
}

// The program stops at the --max-memory limit, with its message, inside the cap.
void expect_memory_limit(const std::string& source, std::uint64_t mb = 200,
                         grundy::SessionOptions options = {}) {
  if (kSanitized) {
    WARN("skipped under AddressSanitizer: its shadow memory and quarantine are not the program's");
    return;
  }
  const RunResult r = run_capped(source, mb, 2.0, options);
  INFO("program:\n" << source << "\n" << r);
  CHECK(r.code == grundy::kExitRuntime);
  CHECK(contains(r.err, "error: out of memory: "));
  CHECK(contains(r.err, "raise the limit with --max-memory MB"));
  CHECK(!contains(r.err, "more memory than there is"));
}

TEST_CASE("the memory limit counts the elements of list states in the memo", "[limits][memory]") {
  // Up([]) -> Up([1]) -> Up([1, 1]) -> ...: the memo holds n^2 / 2 elements after n states.
  grundy::SessionOptions options;
  options.limits.max_states = 100000;
  expect_memory_limit("game Up { state c  move c + [1] }\ngrundy(Up([]))\n", 200, options);
  // Tuples of a constant list and a counter share the list: one copy is counted, so a long
  // chain of them fits (50,000 states, one list of 10,000 elements: 16 GB if each state
  // counted the list).
  const std::string shared =
      "let xs = [k for k in 1..10000]\n"
      "game Walk { state (l, i)  move (l, i + 1) if i < 50000 }\n"
      "grundy(Walk(xs, 0))\n";
  options.limits.max_memory = std::uint64_t{200} << 20;
  CHECK(grundy::test::run_ok(shared, options) == "0\n");
}

TEST_CASE("the memory limit counts the arguments of calls in progress", "[limits][memory]") {
  // Every s of the recursion is alive until the innermost call returns.
  expect_memory_limit("def d(s, k) = if k == 0 then s else d(s + s, k - 1) + []\nlen(d([1], 40))\n");
  expect_memory_limit("def d(s, k) = if k == 0 then s else d(s + s, k - 1) + \"\"\nlen(d(\"x\", 40))\n");
  // In tail position a call lets go of its caller's s; the value built still passes the limit.
  expect_memory_limit("def d(s, k) = if k == 0 then s else d(s + s, k - 1)\nlen(d([1], 40))\n");
  expect_memory_limit("def d(s, k) = if k == 0 then s else d(s + s, k - 1)\nlen(d(\"x\", 40))\n");
  // A recursion over one list passes the same list down: counted once, it fits (32 MB if
  // each call counted it). On a stack of its own, as the command line runs programs: a
  // thousand nested calls need more than 8 MB under the sanitizers.
  grundy::SessionOptions options;
  options.limits.max_memory = std::uint64_t{8} << 20;
  const std::string walk =
      "def total(xs, i) = if i == len(xs) then 0 else xs[i] + total(xs, i + 1)\n"
      "total([k for k in 1..1000], 0)\n";
  RunResult r;
  grundy::run_on_stack(std::size_t{256} << 20, [&] {
    r = run_source(walk, options);
    return 0;
  });
  INFO(r);
  CHECK(r.code == 0);
  CHECK(r.out == "500500\n");
}

TEST_CASE("the memory limit counts the parts of the options of a large sum", "[limits][memory]") {
  // 125,250 options, each a sum of 501 parts.
  expect_memory_limit("import nim\nlen(options(sum([Nim(k) for k in 0..500])))\n");
}

TEST_CASE("the memory limit counts the states that the options of a position make", "[limits][memory]") {
  // 20,000 options, each a new list of 20,000 cells (3 GB).
  const std::string board = "game B { state c  move update(c, i, 0) for i in 0..len(c)-1 if c[i] == 1 }\n";
  expect_memory_limit(board + "len(options(B([1 for k in 1..20000])))\n");
  expect_memory_limit(board + "len(options(B([1 for k in 1..20000]) + B([1])))\n");
  expect_memory_limit(board + "len(options(every (B([1 for k in 1..20000]) + B([1, 1]))))\n");
}

TEST_CASE("the memory limit counts lists of lists as they are built", "[limits][memory]") {
  expect_memory_limit("let a = [[x, x + 1] for x in 0..30000000]\nlen(a)\n");
}

}  // namespace

TEST_CASE("the memos of functions are bounded: a chain keeps its first call, a helper its recent calls",
          "[limits][memory]") {
  grundy::SessionOptions options;
  options.limits.max_memory = std::uint64_t{100} << 20;
  // Trial division to 10^5 tried some 2.5 million (k, d): kept, they passed 900 MB.
  const std::string primes =
      "def none_divides(k, d) = if d * d > k then true else if k % d == 0 then false else none_divides(k, d + 1)\n"
      "def is_prime(k) = k >= 2 and none_divides(k, 2)\n"
      "len([p for p in 2..100000 if is_prime(p)])\n";
  CHECK(grundy::test::run_ok(primes, options) == "9592\n");
  // A helper on plain values called two million times with new arguments: its memo starts
  // again empty past its share, rather than filling the limit.
  CHECK(grundy::test::run_ok("def h(n) = 2 * n + 1\nsum([h(n) for n in 0..2000000])\n", options) ==
        "4000004000001\n");
  // The inner calls of a chain still find what earlier calls kept: s(n) asked in increasing
  // order needs one level of calls each, not n (past --max-depth's 10,000).
  CHECK(grundy::test::run_ok("def s(n) = if n == 0 then 0 else s(n - 1) + n\nsum([s(n) for n in 0..50000])\n",
                             options) == "20834583350000\n");
  // A function that calls itself twice keeps everything it needs: fib(90) at once.
  CHECK(grundy::test::run_ok("def fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2)\nfib(90)\n", options) ==
        "2880067194370816120\n");
}
