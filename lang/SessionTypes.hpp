// What the users of a Session (lang/Session.hpp) see of it: how it runs (limits, modes),
// the exit codes it returns, and how it lists a game.
#pragma once

#include <functional>
#include <string>

#include "runtime/Evaluator.hpp"

namespace grundy {

// Exit codes are a contract (sysexits, as clox's main.c does).
enum ExitCode : int {
  kExitOk = 0,
  kExitAssert = 1,
  kExitUsage = 64,
  kExitCompile = 65,
  kExitRuntime = 70,
  kExitIo = 74,
};

struct SessionOptions {
  Limits limits;
  bool check_only = false;  // parse and resolve, run nothing (grundy check)
  int max_depth = 10000;    // nesting of function calls (--max-depth)
  // The REPL stops a statement at Ctrl-C and carries on: an interrupted statement throws
  // its Error (kind Interrupted) out of run_source/run_file instead of reporting it.
  bool rethrow_interrupts = false;
  // --format json: each value printed as a line of JSON (lang/Json.hpp), each diagnostic as
  // a JSON object on a line of its own. csv: tables as CSV, other values as text.
  enum class Format : std::uint8_t { Text, Json, Csv };
  Format format = Format::Text;
  // Called with each value a statement prints, after it is printed, and the statement's line
  // (from 1): the playground (web/) draws tables and sequences beside the text.
  std::function<void(const Value&, std::uint32_t line)> on_value;
};

// A game as the REPL's :games lists it.
struct GameSummary {
  std::string name;
  std::string signature;  // how a position is written: Bash[m](n), Wythoff(a, b)
  std::string form;       // rules (1 move, 1 split), octal "0.07", = Bash[3], graph (4 nodes)
  std::string origin;     // import octal, file.game:3, or empty when typed at the prompt
};

}  // namespace grundy
