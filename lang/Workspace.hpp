// What a session keeps between batches, for the REPL: a batch may define again a name that an
// earlier batch defined. The new definition moves into the slot of the one it replaces, so
// the rules and functions already resolved to that slot use it (late binding, as at a Python
// prompt), and the memo tables are dropped. A batch with a compile error is rolled back and
// changes nothing. Also the texts the REPL shows of definitions (:def, :games).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "lang/SessionTypes.hpp"
#include "lang/World.hpp"

namespace grundy::lang {

class Interpreter;

class Workspace {
 public:
  Workspace(World& world, Interpreter& in) : w_(world), in_(in) {}

  // What a batch may change, taken before it is declared.
  struct Snapshot {
    absl::flat_hash_map<std::string, Binding> names;
    std::size_t games = 0, defs = 0, globals = 0;
    absl::flat_hash_set<std::string> loaded;
    std::vector<std::pair<std::size_t, GameEntry>> old_games;  // slots a redefinition took
    std::vector<std::pair<std::size_t, DefEntry>> old_defs;
  };
  Snapshot snapshot() const;
  // After declare: moves each redefined game or function into its old slot. True when the
  // batch redefined anything.
  bool take_old_places(Snapshot& before);
  // A batch with a compile error: back to the snapshot.
  void roll_back(Snapshot& before);
  // Empties every memo table; returns how many positions they held.
  std::uint64_t clear_memos();
  // After a redefinition or a let bound anew: the memos, the shorthands whose set or instance
  // is an expression (evaluated again on their next use), and the plans made from lets.
  void forget_memos();
  // True when a game's rules or a function's body reads the top-level let `global`.
  bool rules_use(int global) const;

  // The games defined so far, in the order they were first defined.
  std::vector<GameSummary> games() const;
  // The source text of a game, function or let (with the comment lines just above it), or a
  // builtin's signature; nothing for a name that is not defined.
  std::optional<std::string> definition(const std::string& name) const;
  // The names of the games, functions and lets defined so far, sorted.
  std::vector<std::string> defined_names() const;

 private:
  static bool mentions(const Expr* e, int global);
  // The text of the statement at `w`, with the comment lines just above it.
  std::string statement_text(Where w, bool comments = true) const;
  // What follows `=` in a shorthand, on one line: octal "0.07", subtraction {1, 3, 4}.
  std::string shorthand_text(const GameDecl& d) const;
  // The names in a position of `g`: n, (a, b) -> "a, b".
  std::string state_names(const GameEntry& g, int depth) const;
  GameSummary summary(const GameEntry& g) const;
  bool live(const std::string& name, Binding::To to, std::size_t index) const;

  World& w_;
  Interpreter& in_;
};

}  // namespace grundy::lang
