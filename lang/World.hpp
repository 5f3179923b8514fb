// Everything a session has defined: sources, programs, games, functions and top-level lets,
// the global names that refer to them, and the game instances with their memo tables.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include "lang/Ast.hpp"
#include "lang/Compile.hpp"
#include "lang/Source.hpp"
#include "runtime/Evaluator.hpp"
#include "runtime/Game.hpp"
#include "runtime/Meter.hpp"

namespace grundy::lang {

struct RuleShapes;  // lang/Lower.hpp

// A graph node as a value: an int or a string.
inline Value label_value(const Label& l) { return l.number ? Value::integer(l.ival) : Value::string(l.name); }

struct GameEntry {
  std::string name;
  const GameDecl* decl = nullptr;
  std::shared_ptr<const Ruleset> rules;      // set when compiled
  std::shared_ptr<const RuleShapes> shapes;  // rules: what the recognisers read in them
  const GameInstance* alias = nullptr;       // `game B3 = Bash[3]`
  const GameInstance* plain = nullptr;       // the instance without parameters, once asked for
  int param_count = 0;
  int state_arity = 1;        // -1: known only at run time (an alias of a value)
  std::vector<Value> labels;  // graph games: node labels, as values, in first-written order
  absl::flat_hash_map<Value, std::size_t> label_index;  // each label's place in `labels`
  bool resolving = false;     // an alias being evaluated (a cycle of aliases)
};

// The memoized results of one function, with what they hold for --max-memory: a map entry
// each, and the arguments and results (a large body shared by several entries once).
class DefMemo {
 public:
  using Map = absl::flat_hash_map<Value, Value>;
  // A map slot (two Values and a control byte) at the usual load.
  static constexpr std::uint64_t kBytesPerEntry = 96;

  Map::const_iterator find(const Value& args) const { return map_.find(args); }
  Map::const_iterator end() const { return map_.end(); }
  std::size_t size() const { return map_.size(); }
  // Returns the bytes the entry adds.
  std::uint64_t emplace(Value args, Value result) {
    const auto [it, fresh] = map_.try_emplace(std::move(args), std::move(result));
    if (!fresh) return 0;
    const std::uint64_t added = kBytesPerEntry + meter_.hold(it->first) + meter_.hold(it->second);
    bytes_ += added;
    return added;
  }
  std::uint64_t bytes() const { return bytes_; }
  void clear() {
    map_.clear();
    meter_.clear();
    bytes_ = 0;
  }

 private:
  Map map_;
  ValueMeter meter_;
  std::uint64_t bytes_ = 0;
};

struct DefEntry {
  const DefDecl* decl = nullptr;
  // Functions are pure, so results are memoized: fib(40) written naively stays cheap.
  DefMemo memo;
  // Whether the body may call the function again, directly or through other functions
  // (-1: not looked at yet). A function that does not is memoized only for calls on plain
  // values: a helper that rewrites a rule's list state is called once per state, each time
  // with a new list, and keeping its results cost memory and time for nothing.
  // 2: it calls itself at one place only, not in a loop, and through no other function
  // (a chain of calls: only its first is memoized).
  std::int8_t recursive = -1;
  int active = 0;  // calls of it in progress
  // Its body over integers (lang/Compile.cpp), for calls whose arguments are all integers,
  // tried at the first: none_divides(k, d) to 10^5 costs what the loop written in C++ costs.
  // Nothing where the body uses what the compiler does not handle.
  bool compile_tried = false;
  std::optional<CompiledFunction> compiled;
};

struct GlobalEntry {
  std::string name;
  Where where;
  Value value;
  bool assigned = false;
};

// Makes the instances of the games a program declares (lang/Games.cpp): their rulesets on
// first use, and each instance's plan.
class GameMaker {
 public:
  virtual ~GameMaker() = default;
  virtual const GameInstance* instance(GameEntry& g, std::vector<Value> params, Where where) = 0;
};

struct World {
  Sources sources;
  std::deque<Program> programs;
  std::deque<GameEntry> games;
  std::deque<DefEntry> defs;
  std::deque<GlobalEntry> globals;
  absl::flat_hash_map<std::string, Binding> names;
  std::vector<Value> constants;     // the values of Label and Constant bindings: N, P, graph nodes
  absl::flat_hash_map<Value, int> constant_index;  // each constant's place in `constants`
  absl::flat_hash_set<std::string> loaded;  // canonical paths and "stdlib:NAME" already imported
  GameRegistry registry;
  GameMaker* maker = nullptr;  // set by the driver
  Limits limits;
  // Nesting of function calls; deeper is an error naming --max-depth.
  int max_depth = 10000;
  // table(...) keeps its cells beside its text (for --format json or csv): a table of a
  // million cells printed as text should not hold them twice.
  bool table_cells = false;
};

}  // namespace grundy::lang
