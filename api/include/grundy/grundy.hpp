// Grundy as a library: run programs of the rule language and evaluate expressions from C++,
// values coming back as plain data and errors as a structured type (docs/embedding.md).
//
//   grundy::embed::Engine engine;
//   engine.run("import octal");
//   grundy::embed::Value v = engine.eval("grundy(Kayles(10))");   // v.integer == 2
//
// This header needs only the standard library. find_package(grundy) and link grundy::grundy.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace grundy::embed {

// A value of the language as C++ data.
struct Value {
  enum class Kind { Int, Bool, Outcome, String, Tuple, List, Set, Position, Sum, Other };
  Kind kind = Kind::Other;
  std::int64_t integer = 0;  // Int; Bool as 0 or 1
  std::string text;          // as the language prints it: 2, true, P, "s", [1, 2], Kayles(10)
  std::string json;          // its JSON shape (docs/language.md, section 13)
  std::vector<Value> items;  // Tuple, List, Set: the elements
};

// A diagnostic, as the command line prints it: where, what, and a hint.
struct Diagnostic {
  std::string severity;  // "error" or "note"
  std::string message, hint, file;
  int line = 0, column = 0;  // 0 when it has no place
};

// What eval throws: the exit code the command line would give (65 a compile error, 70 a
// runtime error, 1 a failed assert) and the diagnostics.
class Failure : public std::runtime_error {
 public:
  Failure(int exit_code, std::vector<Diagnostic> diagnostics);
  int exit_code() const { return exit_code_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  int exit_code_;
  std::vector<Diagnostic> diagnostics_;
};

// Limits, as the command line's flags; 0 keeps the default.
struct Options {
  std::uint64_t max_states = 0;     // --max-states
  std::uint64_t max_steps = 0;      // --max-steps
  std::uint64_t max_memory_mb = 0;  // --max-memory
  unsigned threads = 0;             // --threads; 0: one thread (the command line's default is the cores)
};

// What run gives back: the exit code, the value of each expression statement in order (a
// table or a quotient as its text), and the diagnostics.
struct RunResult {
  int exit_code = 0;
  std::vector<Value> values;
  std::vector<Diagnostic> diagnostics;
};

// A session of the language: what one run defines (games, functions, lets, imports) stays
// for the later runs and evals, as in the REPL. Not for use from two threads at once.
class Engine {
 public:
  explicit Engine(Options options = {});
  ~Engine();
  Engine(Engine&&) noexcept;
  Engine& operator=(Engine&&) noexcept;

  // Runs a program; `name` is what its diagnostics call it.
  RunResult run(std::string_view program, const std::string& name = "<embedded>");
  // Evaluates one expression; throws Failure when it does not compile or fails.
  Value eval(std::string_view expression);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace grundy::embed
