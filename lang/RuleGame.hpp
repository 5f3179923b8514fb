// A game written with rules (state / let / move / split) as a runtime Ruleset. Its cursor
// walks the body in order and the clauses of each rule like an odometer, so options are
// produced one at a time and evaluation can pause between them.
#pragma once

#include "lang/KnownGames.hpp"
#include "lang/Machine.hpp"
#include "lang/Recognize.hpp"
#include "runtime/IntProgram.hpp"
#include "runtime/Kernels.hpp"
#include "runtime/OutcomeRule.hpp"

namespace grundy::lang {

class RuleGame : public Ruleset, public HeapSpecSource, public IntRulesSource, public OutcomeRuleSource {
 public:
  RuleGame(const GameDecl& decl, Machine& machine);
  ~RuleGame() override;
  const std::string& name() const override { return decl_.name; }
  int state_arity() const override;
  int param_count() const override { return static_cast<int>(decl_.params.size()); }
  std::unique_ptr<OptionCursor> options(const GameInstance& game, const Value& state) const override;
  // When the rules say exactly a subtraction or take-and-break game (lang/Recognize.hpp).
  std::optional<HeapSpec> heap_spec(const GameInstance& game) const override;
  // The rules compiled over unboxed integers (lang/Compile.hpp), or null.
  std::shared_ptr<const IntProgram> int_rules(const GameInstance& game) const override;
  // When the rules say a game whose outcomes a theorem gives (lang/KnownGames.hpp): the
  // K-multiple dynamic subtraction game with K an integer >= 1 here, or Wythoff's game.
  std::unique_ptr<OutcomeRule> outcome_rule(const GameInstance& game) const override;
  bool has_formula() const override { return formula_ != nullptr; }
  std::uint64_t formula(const GameInstance& game, const Value& state) const override;

 private:
  const GameDecl& decl_;
  Machine& machine_;
  std::unique_ptr<HeapShape> shape_;
  std::optional<DynamicShape> dynamic_;
  bool wythoff_ = false;
  const GameItem* formula_ = nullptr;  // `value EXPR`
};

}  // namespace grundy::lang
