#include "runtime/OutcomeRule.hpp"

#include "runtime/DynamicSubtraction.hpp"
#include "runtime/Wythoff.hpp"

namespace grundy {

std::unique_ptr<OutcomeRule> outcome_rule(const OutcomeTheorem& theorem) {
  switch (theorem.kind) {
    case OutcomeTheorem::Kind::Wythoff: return std::make_unique<WythoffRule>();
    case OutcomeTheorem::Kind::MultipleSubtraction:
      return std::make_unique<DynamicSubtraction>(theorem.k, theorem.heap);
  }
  return nullptr;
}

}  // namespace grundy
