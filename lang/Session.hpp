// The language's front door: load and run programs, keep definitions between runs (the
// REPL runs one statement batch after another in one Session).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/SessionTypes.hpp"
#include "runtime/Error.hpp"
#include "runtime/Value.hpp"

namespace grundy {

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

  // ---- for the REPL and play mode (cli/Repl.cpp, cli/Play.cpp) ----
  // Each run_source/run_file is one batch. A batch may define again a name that an earlier
  // batch defined: the new definition takes the old one's place, so the rules and functions
  // that named it use the new one, and the memo tables are dropped (what they hold may
  // depend on the old one). A batch with a compile error changes nothing.

  // The games defined so far, in the order they were first defined.
  std::vector<GameSummary> games() const;
  // The source text of a game, function or let (with the comment lines just above it), or
  // a builtin's signature; nothing for a name that is not defined.
  std::optional<std::string> definition(const std::string& name) const;
  // The names of the games, functions and lets defined so far, sorted.
  std::vector<std::string> defined_names() const;
  // Empties every memo table; returns how many positions they held.
  std::uint64_t clear_memos();

  // Evaluates one expression, the text from byte `from` on (what comes before it, such as
  // the REPL's `play`, is shown in diagnostics but not read); on an error prints the
  // diagnostic and returns nothing.
  // `failure`, when given, is set to the exit code of the error (65 or 70).
  std::optional<Value> evaluate(std::string_view text, const std::string& name, std::size_t from = 0,
                                int* failure = nullptr);
  // The queries of the same names, on a position or sum (normal, misere or every). They
  // throw Error; report() prints one with a caret under the expression last evaluated.
  std::vector<Value> options(const Value& x);
  std::vector<Value> winning(const Value& x);
  std::vector<Value> drawing(const Value& x);
  bool wins(const Value& x);
  char outcome(const Value& x);  // N, P, or D (a loopy game's draw)
  // Moves to the end under best play, for one position of a loopy game; nothing otherwise
  // (or for a draw).
  std::optional<std::uint64_t> remoteness(const Value& x);
  // What decides x: "nim-value 3" (normal play), "outcome P" (misere), "steps 4" (every).
  std::string value_note(const Value& x);
  void report(const Error& e);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace grundy
