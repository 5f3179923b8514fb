// The games a program declares, made into rulesets and instances: rules (lang/RuleGame),
// octal codes and graphs when the program is loaded; subtraction sets and aliases, whose
// expressions may name lets, on first use. Each new instance is lowered into its plan
// (lang/Lower.hpp) as the registry makes it.
#pragma once

#include <memory>
#include <vector>

#include "lang/Diagnostics.hpp"
#include "lang/World.hpp"

namespace grundy::lang {

class Interpreter;

class Games : public GameMaker {
 public:
  Games(World& world, Interpreter& in) : w_(world), in_(in) {}
  // The rulesets of the games declared and not made yet; errors (a bad octal code, a cycle
  // in a graph) go to `diags`.
  void compile(Diagnostics& diags);
  const GameInstance* instance(GameEntry& g, std::vector<Value> params, Where where) override;

 private:
  void compile_graph(GameEntry& g, Diagnostics& diags);
  // The rules of a game, made on first use (shorthands whose set or instance is an
  // expression are evaluated then).
  const std::shared_ptr<const Ruleset>& rules_of(GameEntry& g, Where where);

  World& w_;
  Interpreter& in_;
};

}  // namespace grundy::lang
