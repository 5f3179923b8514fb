// Games that do not end because their integer states run away: `move n - k for k in 1..3`
// goes below zero for ever, `move n + 1` climbs for ever. The search would run until a limit
// stops it, minutes later and gigabytes on, with a message about the limit. Instead, once
// its path is kRunawayDepth positions deep and the states along it have crossed below zero
// from a start at or above it, or climbed far above the start, it stops with a message in
// the rules' own terms (the rule, its loop values, and the fix when the rule is a known slip).
// A state of a tuple of integers runs away by any one coordinate. A rule with an `if` may
// mean to go far: it is stopped only four times as deep, and there only where the rules at a
// state eight times as far along still move on (Runaway.cpp's goes_on).
#pragma once

#include <cstddef>
#include <functional>
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
// The same over a path of `depth` positions given one at a time (a search of compiled rules
// holds its path as coordinates: only the few positions looked at are made).
void check_runaway(std::size_t depth, const std::function<Position(std::size_t)>& at);

// States that hold lists, sets or strings can run away by their sizes (`move xs + [1]`): each
// position on the path holds its own, so that the path's memory grows as its depth squared
// (4 GB at 20,000 deep) and runs out long before kRunawayDepth. They are looked at from
// kGrowthDepth deep: a size that has grown by a quarter of the depth along the path stops the
// search (four times as deep for a rule with an `if`). `first`: the path's first position of
// top's game; `next` the one after it; `before` the one before top.
inline constexpr std::size_t kGrowthDepth = std::size_t{1} << 12;
void check_growth(const Position& first, const Position& next, const Position& before, const Position& top,
                  std::size_t depth);

// check_runaway over a search's stack (frames with a `pos`), looked at every 65,536 frames
// once it is kRunawayDepth deep; check_growth every 4,096 once it is kGrowthDepth deep.
template <typename Stack>
void check_runaway_of(const Stack& stack) {
  if (stack.size() < kGrowthDepth || (stack.size() & 0xFFF) != 0) return;
  const Position& top = stack.back().pos;
  std::size_t first = 0;
  while (first + 1 < stack.size() && stack[first].pos.game != top.game) ++first;
  if (first + 2 < stack.size())
    check_growth(stack[first].pos, stack[first + 1].pos, stack[stack.size() - 2].pos, top, stack.size());
  if (stack.size() < kRunawayDepth || (stack.size() & 0xFFFF) != 0) return;
  // The positions read where looked at, not copied: a path past four times kRunawayDepth
  // (a rule with an `if` that goes far) is looked at again every 65,536 frames.
  check_runaway(stack.size(), [&stack](std::size_t i) { return stack[i].pos; });
}

}  // namespace grundy
