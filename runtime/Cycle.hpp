// Loops in the rules. The search meets a loop as a position that is still in progress; the
// path that led there is a cycle, but not always the shortest one, and a long detour is hard
// to read. shortest_cycle looks for the shortest way back to the repeated position.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "runtime/Game.hpp"

namespace grundy {

// The shortest cycle start -> ... -> start (start at both ends), by a breadth-first search
// over options that visits at most `budget` positions; empty when none is found within the
// budget or the rules fail on the way.
std::vector<Position> shortest_cycle(const Position& start, std::size_t budget = 20000);

// "A -> B -> A", long cycles shortened in the middle.
std::string describe_cycle(const std::vector<Position>& cycle);

// The hint of every loop error.
inline constexpr const char* kLoopHint =
    "a game must end: every sequence of moves has to reach a position with no options; `loopy game` "
    "allows play that goes on for ever (a draw)";

// The loop error for a search that met `again` again: `path` is the way it took from
// `again` on; a shorter cycle through `again`, when there is one, reads better.
[[noreturn]] void fail_cycle(std::vector<Position> path, const Position& again);

// The same for a depth-first search whose stack (frames with a `pos`) holds `again`.
template <typename Stack>
[[noreturn]] void fail_stack_loop(const Stack& stack, const Position& again) {
  std::vector<Position> path;
  bool on = false;
  for (const auto& f : stack) {
    on = on || f.pos == again;
    if (on) path.push_back(f.pos);
  }
  fail_cycle(std::move(path), again);
}

}  // namespace grundy
