// Everything a session has defined: sources, programs, games, functions and top-level lets,
// the global names that refer to them, and the game instances with their memo tables.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "lang/Ast.hpp"
#include "lang/Source.hpp"
#include "runtime/Evaluator.hpp"
#include "runtime/Game.hpp"

namespace grundy::lang {

struct GameEntry {
  std::string name;
  const GameDecl* decl = nullptr;
  std::shared_ptr<const Ruleset> rules;  // set when compiled
  const GameInstance* alias = nullptr;   // `game B3 = Bash[3]`
  const GameInstance* plain = nullptr;   // the instance without parameters, once asked for
  int param_count = 0;
  int state_arity = 1;                   // -1: known only at run time (an alias of a value)
  std::vector<Value> labels;             // graph games: node labels
  bool resolving = false;                // an alias being evaluated (a cycle of aliases)
};

struct DefEntry {
  const DefDecl* decl = nullptr;
  // Functions are pure, so results are memoized: fib(40) written naively stays cheap.
  absl::flat_hash_map<Value, Value> memo;
};

struct GlobalEntry {
  std::string name;
  Where where;
  Value value;
  bool assigned = false;
};

struct World {
  Sources sources;
  std::deque<Program> programs;
  std::deque<GameEntry> games;
  std::deque<DefEntry> defs;
  std::deque<GlobalEntry> globals;
  absl::flat_hash_map<std::string, Binding> names;
  std::vector<std::string> loaded;  // canonical paths and "stdlib:NAME" already imported
  GameRegistry registry;
  Limits limits;
  // Nesting of function calls; deeper is an error naming --max-depth.
  int max_depth = 10000;
};

}  // namespace grundy::lang
