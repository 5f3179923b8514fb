// The language's front door: load and run programs, keep definitions between runs (the
// REPL runs one statement batch after another in one Session).
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>

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
};

class Session {
 public:
  Session(std::ostream& out, std::ostream& err, SessionOptions options = {});
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Runs a file ("-" reads standard input). Returns an ExitCode.
  int run_file(const std::string& path);
  // Runs source text; `name` is what diagnostics call it.
  int run_source(std::string_view text, const std::string& name);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace grundy
