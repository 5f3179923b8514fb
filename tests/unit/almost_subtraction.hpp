// Rules that say they are the subtraction game {1, 3} except at one heap, which has one more
// move, to heap 0: a code that the rules leave there. The plan of a lowering that checked
// the small heaps names where (or, for a heap past them, as a recogniser's fault would, does
// not see it).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/CrossCheck.hpp"
#include "runtime/Game.hpp"
#include "runtime/Plan.hpp"

namespace grundy::test {

class AlmostSubtraction : public Ruleset {
 public:
  explicit AlmostSubtraction(std::int64_t odd_heap) : odd_(odd_heap) {}
  const std::string& name() const override { return name_; }
  std::unique_ptr<OptionCursor> options(const GameInstance& g, const Value& state) const override {
    std::vector<Option> out;
    const std::int64_t n = state.as_int();
    for (std::int64_t s : {1, 3}) {
      if (s <= n) out.push_back({Position{&g, Value::integer(n - s)}});
    }
    if (n == odd_) out.push_back({Position{&g, Value::integer(0)}});
    return std::make_unique<ListCursor>(std::move(out));
  }
  // The code {1, 3} (not a run of takes, whose formula is checked at once), checked against
  // the rules on heaps 0..checked_to as lang/Lower.cpp does (the code's length + 40).
  Plan plan(const GameInstance& g, std::int64_t checked_to = 44) const {
    HeapSpec spec;
    spec.digits = {0, HeapSpec::kNone | HeapSpec::kOne, 0, HeapSpec::kNone | HeapSpec::kOne};
    Plan p;
    if (auto d = compare_with_code(spec, g, 0, checked_to)) {
      p.code_below = d->heap;
      p.code_differs = d->why;
    }
    p.code = spec;
    return p;
  }

 private:
  std::int64_t odd_;
  std::string name_ = "Almost";
};

}  // namespace grundy::test
