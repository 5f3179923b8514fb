// The pipeline of one session (lang/Driver.cpp): each batch of text is parsed with its
// imports (Loader), declared and resolved (Resolver, duplicate names checked there), lowered
// (Shortcuts; each game instance when it is made: Lower), its games made (Games), and run
// statement by statement (Interpreter), a runtime error reported with the statement's
// location. Session is the front door over it; Workspace keeps what batches share.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "lang/Diagnostics.hpp"
#include "lang/Games.hpp"
#include "lang/Interpreter.hpp"
#include "lang/Loader.hpp"
#include "lang/SessionTypes.hpp"
#include "lang/Workspace.hpp"
#include "lang/World.hpp"
#include "runtime/Probe.hpp"

namespace grundy::lang {

class Driver {
 public:
  Driver(std::ostream& out, std::ostream& err, SessionOptions options);

  // Runs a batch of source text; `key` identifies the file run (its canonical path; empty for
  // text that is not a file), so that an import of it is seen as a cycle. Returns an ExitCode.
  int run(std::string text, const std::string& name, const std::string& dir, const std::string& key = {});
  // Evaluates one expression, the text from byte `from` on (the REPL's `play`); on an error
  // prints the diagnostic and returns nothing, with `failure` the exit code (65 or 70).
  std::optional<Value> evaluate(std::string text, const std::string& name, std::uint32_t from, int& failure);
  // Runs a query builtin on a value, as if `query(x)` had been written where play started.
  Value query(Builtin which, const Value& x);
  // A runtime error of a statement: `fallback` is where the statement (or the expression
  // play started from) begins, `expr` the expression it ran.
  void report(const Error& e, Where fallback, const Expr* expr);
  void warn_runaway(Where at, const RunawayMove& r);
  // grundy check: true when a game of `p` loops on its small states, or its value rule
  // disagrees with the mex of its options there (reported).
  bool check(const Program& p);
  // grundy check of a loopy game: how many of its small states are P, N and D (on `out`).
  void report_loopy(const GameDecl& d);

  std::ostream& out;
  std::ostream& err;
  SessionOptions options;
  World world;
  Diagnostics diags;
  Interpreter interp;
  Games games;
  Loader loader;
  Workspace workspace;
  Where query_where;  // the expression play started from: errors of its queries point there
  const Expr* query_expr = nullptr;

 private:
  int run_program(Program& p, bool main);
  void assertion_failed(const Stmt& s, Frame& frame);
  // Standard output failed (a full disk, /dev/full): what was printed is lost.
  int output_failed(int error_number);
  // The first name in `e` of a game or function defined in a file other than `file`; `what`
  // says which it is.
  const Expr* foreign_use(const Expr* e, int file, std::string& what) const;
};

}  // namespace grundy::lang
