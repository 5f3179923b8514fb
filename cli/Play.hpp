// Play mode: a person plays a position against the computer. It asks the interpreter only
// what a player needs to know, through PlayEngine, so that every convention the queries
// know (normal play, misere, every) can be played without play mode knowing how.
#pragma once

#include <atomic>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/LineEditor.hpp"
#include "lang/Opponent.hpp"
#include "runtime/Error.hpp"
#include "runtime/Value.hpp"

namespace grundy::cli {

using grundy::PlayEngine;
using grundy::SessionEngine;

struct PlayStyle {
  bool color = false;
  // The flag Ctrl-C sets: cleared when Ctrl-C only cleared the line at the move prompt.
  std::atomic<bool>* interrupt = nullptr;
};

// Plays from `start` (the person moves first) until the game ends, the person leaves with
// :quit or Ctrl-D, or a query fails. An interrupted query (Ctrl-C) is rethrown. Returns
// false when a query failed (its error was reported and the game stopped).
bool play(PlayEngine& engine, LineSource& input, std::ostream& out, const Value& start, PlayStyle style = {});

}  // namespace grundy::cli
