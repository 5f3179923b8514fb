// Games that do not end because their integer states run away: `move n - k for k in 1..3`
// goes below zero for ever, `move n + 1` climbs for ever. The search would run until a limit
// stops it, minutes later and gigabytes on, with a message about the limit. Instead, once
// its path is kRunawayDepth positions deep and the states along it have crossed below zero
// from a start at or above it, or climbed far above the start, it stops with a message in
// the rules' own terms (the rule, its loop values, and the fix when the rule is a known slip).
// A state of a tuple of integers runs away by any one coordinate. A rule with an `if` may
// mean to go far: it is stopped only four times as deep.
#pragma once

#include <cstddef>
#include <vector>

#include "runtime/Game.hpp"

namespace grundy {

// Deep enough that a game written to end rarely goes this far (and a quarter of it below zero,
// or above its start) on one path; shallow enough that the search gets there in a fraction
// of a second and a few hundred MB.
inline constexpr std::size_t kRunawayDepth = std::size_t{1} << 18;

// `path`: the positions on the search's stack, from the root. Throws an Error (kind
// Runtime) when they run away as above; returns otherwise.
void check_runaway(const std::vector<Position>& path);

// check_runaway over a search's stack (frames with a `pos`), looked at every 65,536 frames
// once it is kRunawayDepth deep.
template <typename Stack>
void check_runaway_of(const Stack& stack) {
  if (stack.size() < kRunawayDepth || (stack.size() & 0xFFFF) != 0) return;
  std::vector<Position> path;
  path.reserve(stack.size());
  for (const auto& f : stack) path.push_back(f.pos);
  check_runaway(path);
}

}  // namespace grundy
