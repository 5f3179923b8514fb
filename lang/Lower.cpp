#include "lang/Lower.hpp"

#include <algorithm>

#include "lang/Compile.hpp"
#include "lang/Interpreter.hpp"
#include "runtime/CrossCheck.hpp"
#include "runtime/Shorthands.hpp"

namespace grundy::lang {

namespace {

// A frame holding a game instance's parameters.
Frame params_frame(const GameDecl& decl, const GameInstance& game) {
  Frame frame(static_cast<std::size_t>(std::max(decl.frame_size, 1)));
  const auto& params = game.params().items();
  std::copy(params.begin(), params.end(), frame.begin());
  return frame;
}

// Runs one part of making a plan: an error of the rules leaves that part out (the search
// meets the error where a query needs it); an interrupt stops the plan.
template <typename F>
auto or_nothing(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    if (e.kind == ErrorKind::Interrupted) throw;
    return {};
  }
}

// The code the rules say, checked against the rules on the heaps below the code's length
// plus 40 (at most 600): a run of takes is used only if it holds on all of them (its values
// come from a formula, for every heap at once); another code is used below the first heap
// where the rules differ.
void lower_code(const RuleShapes& shapes, const GameInstance& game, Interpreter& m, Plan& plan) {
  if (!shapes.heap) return;
  std::optional<HeapSpec> spec = or_nothing([&] { return shapes.heap->spec(game, m); });
  if (!spec) return;
  spec->normalize();
  const auto bound = static_cast<std::int64_t>(std::min<std::size_t>(spec->K() + 40, 600));
  const std::optional<CodeDifference> diff = compare_with_code(*spec, game, 0, bound, plan.program.get());
  if (diff && spec->subtraction_run()) {
    plan.code_rejected = "not used as " + spec->describe() + ": " + diff->why;
    return;
  }
  if (diff) {
    plan.code_below = diff->heap;
    plan.code_differs = diff->why;
  }
  plan.code = std::move(spec);
}

// The theorem of the K-multiple dynamic subtraction game, K evaluated with the instance's
// parameters (an integer >= 1), or Wythoff's.
std::optional<OutcomeTheorem> lower_theorem(const RuleShapes& shapes, const GameDecl& decl,
                                            const GameInstance& game, Interpreter& m) {
  if (shapes.wythoff) return OutcomeTheorem{OutcomeTheorem::Kind::Wythoff, 1, 0};
  if (!shapes.dynamic) return std::nullopt;
  std::int64_t k = 1;
  if (shapes.dynamic->k) {
    Frame frame = params_frame(decl, game);
    const std::optional<Value> v =
        or_nothing([&]() -> std::optional<Value> { return m.eval(*shapes.dynamic->k, frame); });
    if (!v || !v->is(Kind::Int) || v->as_int() < 1) return std::nullopt;
    k = v->as_int();
  }
  if (__builtin_mul_overflow(k, shapes.dynamic->times, &k)) return std::nullopt;
  return OutcomeTheorem{OutcomeTheorem::Kind::MultipleSubtraction, k, shapes.dynamic->heap};
}

}  // namespace

std::shared_ptr<const RuleShapes> read_shapes(const GameDecl& decl) {
  auto shapes = std::make_shared<RuleShapes>();
  shapes->heap = recognize_heap(decl);
  shapes->dynamic = recognize_dynamic_subtraction(decl);
  shapes->wythoff = recognize_wythoff(decl);
  return shapes;
}

Plan lower(const GameEntry& entry, const GameInstance& game, Interpreter& m) {
  if (!entry.decl) return {};
  const GameDecl& decl = *entry.decl;
  const Ruleset& rules = game.rules();
  if (decl.loopy) {  // Smith's labelling, over the compiled rules where they compile (runtime/Loopy.hpp)
    Plan plan;
    if (decl.form == GameDecl::Form::Rules)
      plan.loopy_program = or_nothing([&] { return compile_rules(decl, game, m); });
    return plan;
  }
  switch (decl.form) {
    case GameDecl::Form::Octal: return static_cast<const TakeAndBreakRuleset&>(rules).plan();
    case GameDecl::Form::Subtraction: return static_cast<const SubtractionRuleset&>(rules).plan();
    case GameDecl::Form::Graph: return GraphRuleset::plan();
    case GameDecl::Form::Alias: return {};  // an alias names an instance of another game
    case GameDecl::Form::Rules: break;
  }
  // Nim's rules and a value rule give the values at once: nothing more to plan.
  if (!entry.shapes || rules.is_nim() || rules.has_formula()) return {};
  Plan plan;
  plan.theorem = lower_theorem(*entry.shapes, decl, game, m);
  // Compiled even when a code computes the values: misère outcomes search over the program
  // (Evaluator::table_misere_wins), the work-ahead estimate reads it, and the code is checked
  // with it (600 heaps of up to 5000 options each, listed by the rules as written, took longer
  // than the misère search they were for).
  plan.program = or_nothing([&] { return compile_rules(decl, game, m); });
  lower_code(*entry.shapes, game, m, plan);
  return plan;
}

}  // namespace grundy::lang
