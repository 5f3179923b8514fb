// What the rules of one game instance say in terms the runtime can use, found once when the
// language lowers the instance (lang/Lower.cpp): plain data. The evaluator chooses how to
// compute the instance's values and outcomes from it (runtime/Strategy.hpp) and never asks
// the rules how to plan.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "runtime/IntProgram.hpp"
#include "runtime/Kernels.hpp"
#include "runtime/OutcomeRule.hpp"

namespace grundy {

struct Plan {
  // The states are the nodes of an explicit graph: the memoized search, and no period.
  bool graph = false;

  // The rules are this subtraction or take-and-break code (HeapSpec), for heaps below
  // `code_below`: a native kernel computes them. Where the rules were recognised as a code
  // (not written as one), they were checked against it on their small heaps; from
  // `code_below` on they differ (`code_differs` says how), and the rules themselves take over.
  std::optional<HeapSpec> code;
  std::int64_t code_below = INT64_MAX;
  std::string code_differs;
  // The rules said a run of takes that they do not follow: the code is not used at all, and
  // this says why (for --explain).
  std::string code_rejected;

  // The rules compiled over integers, for states of one integer or a tuple of integers (and
  // sets of small integers among them, as bitmasks).
  std::shared_ptr<const IntProgram> program;
  // The coordinates of the compiled rules' states that are sets or lists (IntProgram::packing).
  IntProgram::Packing packing() const { return program ? program->packing : IntProgram::Packing{}; }

  // A loopy game's rules compiled over integers: only Smith's labelling (runtime/Loopy.hpp)
  // lists options with them, since every other path assumes that play ends.
  std::shared_ptr<const IntProgram> loopy_program;

  // Outcomes by a theorem, whatever computes the values.
  std::optional<OutcomeTheorem> theorem;
};

}  // namespace grundy
