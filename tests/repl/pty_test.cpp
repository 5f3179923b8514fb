// The REPL as a person meets it: `grundy` runs in a real pseudo-terminal (forkpty), with
// libedit, the prompt, Tab, Ctrl-C and Ctrl-D. Each test types what a person would type
// and waits for what they would see, with a timeout, never a fixed long sleep.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Generous for a loaded CI machine with two cores; a passing test never waits this long.
constexpr double kTimeout = 20.0;

const char kKayles[] = "game Kayles { state n  split [a, n - t - a] for t in 1..2 for a in 0..n-t }\r";

// A fresh HOME, so that the history file is the test's own.
class TempHome {
 public:
  TempHome() {
    std::string pattern = (fs::temp_directory_path() / "grundy-repl-XXXXXX").string();
    if (!mkdtemp(pattern.data())) FAIL("mkdtemp: " << std::strerror(errno));
    path_ = pattern;
  }
  ~TempHome() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// `grundy` on the slave side of a pseudo-terminal; the test is the person at the keyboard.
class Terminal {
 public:
  Terminal(const std::string& home, std::vector<std::string> args = {}) {
    winsize ws{};
    ws.ws_row = 40;
    ws.ws_col = 120;
    pid_ = forkpty(&fd_, nullptr, nullptr, &ws);
    if (pid_ < 0) FAIL("forkpty: " << std::strerror(errno));
    if (pid_ == 0) {
      setenv("HOME", home.c_str(), 1);
      setenv("TERM", "xterm", 1);
      setenv("NO_COLOR", "1", 1);  // the prompt and errors as plain text
      unsetenv("EDITRC");
      std::vector<char*> argv;
      std::string exe = GRUNDY_EXE;
      argv.push_back(exe.data());
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(exe.c_str(), argv.data());
      _exit(127);
    }
  }

  ~Terminal() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }

  void type(std::string_view keys) {
    while (!keys.empty()) {
      const ssize_t n = write(fd_, keys.data(), keys.size());
      if (n < 0 && errno == EINTR) continue;
      REQUIRE(n > 0);
      keys.remove_prefix(static_cast<std::size_t>(n));
    }
  }

  // Waits until `text` shows up after what earlier calls consumed, and consumes it.
  bool expect(std::string_view text, double seconds = kTimeout) {
    const Clock::time_point deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    while (true) {
      const std::size_t at = screen_.find(text, mark_);
      if (at != std::string::npos) {
        mark_ = at + text.size();
        // A prompt is drawn just before the line editor switches the terminal to raw mode;
        // keys typed in between would be read in cooked mode (no Tab completion) on a
        // loaded machine. Give the editor a moment.
        if (text.size() >= 2 && text.substr(text.size() - 2) == "> ") {
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return true;
      }
      if (Clock::now() >= deadline || !pump(deadline)) {
        UNSCOPED_INFO("waited for: " << printable(text) << "\nafter: " << printable(screen_.substr(mark_)));
        return false;
      }
    }
  }

  // The prompt after the output of a statement.
  bool prompt() { return expect("grundy> "); }

  // Waits for the process to end; returns its exit status (-1: it did not end in time).
  int wait_exit(double seconds = kTimeout) {
    const Clock::time_point deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    while (Clock::now() < deadline) {
      int status = 0;
      const pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      pump(std::min(deadline, Clock::now() + std::chrono::milliseconds(50)));
    }
    return -1;
  }

  std::string transcript() const { return printable(screen_); }

 private:
  // Reads what the terminal shows until the deadline or some output; false at the end.
  bool pump(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd p{fd_, POLLIN, 0};
    const int r =
        poll(&p, 1, static_cast<int>(std::max<long long>(0, std::min<long long>(left.count(), 100))));
    if (r < 0) return errno == EINTR;
    if (r == 0) return true;
    char buf[4096];
    const ssize_t n = read(fd_, buf, sizeof buf);
    if (n <= 0) return n < 0 && errno == EINTR;  // EIO: the process ended
    screen_.append(buf, static_cast<std::size_t>(n));
    return true;
  }

  static std::string printable(std::string_view s) {
    std::string out;
    for (char c : s) {
      if (c == '\r') continue;
      if (c == '\n' || c == '\t' || static_cast<unsigned char>(c) >= 0x20) out += c;
      else out += "^" + std::string(1, static_cast<char>(c + 64));
    }
    return out;
  }

  int fd_ = -1;
  pid_t pid_ = -1;
  bool exited_ = false;
  std::string screen_;
  std::size_t mark_ = 0;
};

// A container without /dev/pts cannot run these tests; they say so instead of failing.
bool have_ptys() {
  const int fd = posix_openpt(O_RDWR | O_NOCTTY);
  if (fd < 0) {
    WARN("no pseudo-terminals here (" << std::strerror(errno) << "): test skipped");
    return false;
  }
  close(fd);
  return true;
}

#define TYPE_AND_SEE(term, keys, text) \
  do {                                 \
    (term).type(keys);                 \
    INFO((term).transcript());         \
    REQUIRE((term).expect(text));      \
  } while (0)

}  // namespace

TEST_CASE("a definition over two lines, a query, an error and on", "[repl][pty]") {
  if (!have_ptys()) return;
  TempHome home;
  Terminal t(home.path());
  REQUIRE(t.prompt());
  TYPE_AND_SEE(t, "game Kayles {\r", "   ...> ");  // an open brace: the statement goes on
  TYPE_AND_SEE(t, "  state n  split [a, n - t - a] for t in 1..2 for a in 0..n-t\r", "   ...> ");
  TYPE_AND_SEE(t, "}\r", "grundy> ");
  TYPE_AND_SEE(t, "grundy(Kayles(10))\r", "\n2\r\n");
  REQUIRE(t.prompt());
  TYPE_AND_SEE(t, "grundy(Kayle(3))\r", "error: unknown game 'Kayle'");
  TYPE_AND_SEE(t, "", "^");
  TYPE_AND_SEE(t, "", "did you mean 'Kayles'?");
  REQUIRE(t.prompt());
  // The session kept its definitions.
  TYPE_AND_SEE(t, "[grundy(Kayles(n)) for n in 0..11]\r", "[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]");
  REQUIRE(t.prompt());
  TYPE_AND_SEE(t, "wins(Kayles(3) +\r", "   ...> ");  // a trailing operator
  TYPE_AND_SEE(t, "  Kayles(4) + Kayles(7))\r", "false");
  TYPE_AND_SEE(t, ":gmes\r", "did you mean :games?");
  TYPE_AND_SEE(t, ":games\r", "Kayles(n)");
  TYPE_AND_SEE(t, ":quit\r", "");
  REQUIRE(t.wait_exit() == 0);
}

TEST_CASE("Ctrl-C stops a long computation and the session goes on", "[repl][pty]") {
  if (!have_ptys()) return;
  TempHome home;
  Terminal t(home.path());
  REQUIRE(t.prompt());
  TYPE_AND_SEE(t, kKayles, "grundy> ");
  TYPE_AND_SEE(t, "grundy(Kayles(5))\r", "\n4\r\n");
  REQUIRE(t.prompt());
  // Two integers of state, so no one-heap fast path applies: about 10^7 positions with
  // thousands of options each, far longer than this test. (A one-heap table such as
  // table(grundy(Kayles(n)) for n in 0..10^6) may be computed by a native kernel in a
  // second or two, which would make the test depend on the machine's speed.)
  TYPE_AND_SEE(t,
               "game Wythoff { state (a, b)  move (a - k, b) for k in 1..a  "
               "move (a, b - k) for k in 1..b  move (a - k, b - k) for k in 1..min(a, b) }\r",
               "grundy> ");
  TYPE_AND_SEE(t, "grundy(Wythoff(3000, 3000))\r", "3000))\r\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // let it get going
  const auto pressed = Clock::now();
  TYPE_AND_SEE(t, "\x03", "interrupted");
  const double took = std::chrono::duration<double>(Clock::now() - pressed).count();
  // "Within a fraction of a second" when idle; CI runs tests two at a time on two cores, so
  // allow for load. Without the interrupt this computation would run for many minutes.
  CHECK(took < 5.0);
  REQUIRE(t.prompt());
  // The definitions are intact, and so is what was computed before Ctrl-C.
  TYPE_AND_SEE(t, "grundy(Wythoff(3, 5))\r", "\n0\r\n");
  REQUIRE(t.prompt());
  TYPE_AND_SEE(t, "grundy(Kayles(10))\r", "\n2\r\n");
  REQUIRE(t.prompt());
  // Ctrl-C at the prompt drops the line typed so far.
  t.type("grundy(Kay");
  TYPE_AND_SEE(t, "\x03", "grundy> ");
  TYPE_AND_SEE(t, "grundy(Kayles(3))\r", "\n3\r\n");
  REQUIRE(t.prompt());
  t.type("\x04");
  REQUIRE(t.wait_exit() == 0);
}

TEST_CASE("Ctrl-C right after typing always clears the line", "[repl][pty]") {
  if (!have_ptys()) return;
  // Ctrl-C flushes the terminal's input: when it came between the editor's poll seeing a
  // key and its read of it, the read waited for the next key and the prompt did not come
  // back (one time in about thirty). Ctrl-C at gaps of 0 to 1.2 ms after the keys.
  TempHome home;
  Terminal t(home.path());
  REQUIRE(t.prompt());
  for (int i = 0; i < 60; ++i) {
    INFO("round " << i);
    t.type("grundy(Kay");
    std::this_thread::sleep_for(std::chrono::microseconds(20 * i));
    t.type("\x03");
    REQUIRE(t.prompt());
  }
  TYPE_AND_SEE(t, "1 + 1\r", "\n2\r\n");
  REQUIRE(t.prompt());
  t.type("\x04");
  REQUIRE(t.wait_exit() == 0);
}

TEST_CASE("Tab completes a game name and a command", "[repl][pty]") {
  if (!have_ptys()) return;
  TempHome home;
  Terminal t(home.path());
  REQUIRE(t.prompt());
  TYPE_AND_SEE(t, "game FibonacciNim { state (n, limit)  move (n - k, 2 * k) for k in 1..min(n, limit) }\r",
               "grundy> ");
  // Without the completion this would be an unknown game.
  t.type("wins(Fibo\t");
  TYPE_AND_SEE(t, "(8, 7))\r", "\nfalse\r\n");
  REQUIRE(t.prompt());
  t.type(":gam\t");
  TYPE_AND_SEE(t, "\r", "FibonacciNim(n, limit)");
  REQUIRE(t.prompt());
  // Tab right after `import ` lists the standard modules; then one letter is enough.
  TYPE_AND_SEE(t, "import \t", "hackenbush");
  TYPE_AND_SEE(t, "wy\t\r", "grundy> ");
  TYPE_AND_SEE(t, "wythoff_loses(3, 5)\r", "\ntrue\r\n");
  REQUIRE(t.prompt());
  t.type("\x04");
  REQUIRE(t.wait_exit() == 0);
}

TEST_CASE("Ctrl-D leaves and the history file is written", "[repl][pty]") {
  if (!have_ptys()) return;
  TempHome home;
  {
    Terminal t(home.path());
    REQUIRE(t.prompt());
    TYPE_AND_SEE(t, "game Nim { state n  move k for k in 0..n-1 }\r", "grundy> ");
    TYPE_AND_SEE(t, "grundy(Nim(3) + Nim(5))\r", "\n6\r\n");
    REQUIRE(t.prompt());
    t.type("\x04");
    REQUIRE(t.wait_exit() == 0);
  }
  const fs::path history = fs::path(home.path()) / ".grundy_history";
  REQUIRE(fs::exists(history));
  std::ifstream in(history);
  std::stringstream text;
  text << in.rdbuf();
  INFO(text.str());
  CHECK(text.str().find("grundy(Nim(3)") != std::string::npos);
  // The next session reads it back: Up recalls the last statement.
  Terminal again(home.path());
  REQUIRE(again.prompt());
  again.type("\x1b[A");  // Up recalls the last statement; Nim went with the old session
  TYPE_AND_SEE(again, "\r", "unknown game 'Nim'");
  REQUIRE(again.prompt());
  again.type("\x04");
  REQUIRE(again.wait_exit() == 0);
}

TEST_CASE("playing a small game to its end", "[repl][pty]") {
  if (!have_ptys()) return;
  TempHome home;
  Terminal t(home.path());
  REQUIRE(t.prompt());
  TYPE_AND_SEE(t, "game Nim { state n  move k for k in 0..n-1 }\r", "grundy> ");
  TYPE_AND_SEE(t, "play Nim(3) + Nim(1)\r", "Position: Nim(3) + Nim(1)");
  TYPE_AND_SEE(t, "", "your move> ");
  TYPE_AND_SEE(t, ":hint\r", "<- wins");
  TYPE_AND_SEE(t, "", "you can win");
  TYPE_AND_SEE(t, "Nim(1) + Nim(1)\r", "You: Nim(1) + Nim(1)");  // an option written out
  TYPE_AND_SEE(t, "", "The computer is lost");
  TYPE_AND_SEE(t, "", "Computer: Nim(1)");
  TYPE_AND_SEE(t, "", "your move> ");
  TYPE_AND_SEE(t, "1\r", "You: Nim(0)");  // an option by its number
  TYPE_AND_SEE(t, "", "You win!");
  REQUIRE(t.prompt());  // back at the REPL
  TYPE_AND_SEE(t, "grundy(Nim(7))\r", "\n7\r\n");
  REQUIRE(t.prompt());
  t.type("\x04");
  REQUIRE(t.wait_exit() == 0);
}

TEST_CASE("a long computation on a terminal shows a progress bar by default, with its total",
          "[repl][pty]") {
  if (!have_ptys()) return;
  TempHome home;
  // Wythoff's nim-values fill a box of 2001 x 2001 states: a few seconds, and the bar comes
  // after one. No --progress flag: on a terminal it is the default.
  Terminal t(home.path(), {"eval",
                           "game W { state (a, b)  move (a - k, b) for k in 1..a  move (a, b - k) "
                           "for k in 1..b  move (a - k, b - k) for k in 1..min(a, b) }",
                           "grundy(W(2000, 2000))"});
  INFO(t.transcript());
  CHECK(t.expect("W [", 60));
  CHECK(t.expect("/4004001", 60));
  CHECK(t.expect("/s, about", 60));  // the rate (states a second), then the time left
  CHECK(t.expect("left", 60));
  CHECK(t.wait_exit(120) == 0);
}
