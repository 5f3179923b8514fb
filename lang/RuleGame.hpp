// A game written with rules (state / let / move / split) as a runtime Ruleset. Its cursor
// walks the body in order and the clauses of each rule like an odometer, so options are
// produced one at a time and evaluation can pause between them.
#pragma once

#include "lang/Interpreter.hpp"

namespace grundy::lang {

class RuleGame : public Ruleset {
 public:
  RuleGame(const GameDecl& decl, Interpreter& machine);
  ~RuleGame() override;
  const std::string& name() const override { return decl_.name; }
  int state_arity() const override;
  int param_count() const override { return static_cast<int>(decl_.params.size()); }
  std::unique_ptr<OptionCursor> options(const GameInstance& game, const Value& state) const override;
  bool has_formula() const override { return formula_ != nullptr; }
  std::string check_position(const GameInstance& game, const Value& state) const override;
  bool has_guard() const override { return guard_ != nullptr; }
  bool loopy() const override { return decl_.loopy; }
  std::uint64_t formula(const GameInstance& game, const Value& state) const override;

 private:
  const GameDecl& decl_;
  Interpreter& machine_;
  const GameItem* formula_ = nullptr;  // `value EXPR`
  const GameItem* guard_item_ = nullptr;  // `state n if COND`
  const Clause* guard_ = nullptr;         // its condition
};

}  // namespace grundy::lang
