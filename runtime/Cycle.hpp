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

}  // namespace grundy
