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
#include "runtime/Error.hpp"
#include "runtime/Value.hpp"

namespace grundy {
class Session;
}

namespace grundy::cli {

// Positions are Values: a position or a sum, perhaps under misere or every. The queries
// throw grundy::Error (an interrupted one has kind Interrupted).
class PlayEngine {
 public:
  virtual ~PlayEngine() = default;
  // The options of x, in the order options(x) lists them.
  virtual std::vector<Value> options(const Value& x) = 0;
  // True when the player to move wins x.
  virtual bool wins(const Value& x) = 0;
  // An option that wins for the player who takes it, when x has one.
  virtual std::optional<Value> winning_option(const Value& x) = 0;
  // Loopy games: N, P or D; an option that keeps a draw; the remoteness of a position.
  virtual char outcome(const Value& x) { return wins(x) ? 'N' : 'P'; }
  virtual std::optional<Value> drawing_option(const Value& x) {
    (void)x;
    return std::nullopt;
  }
  virtual std::optional<std::uint64_t> remoteness(const Value& x) {
    (void)x;
    return std::nullopt;
  }
  // For :hint: what decides x, e.g. "nim-value 3".
  virtual std::string note(const Value& x) = 0;
  // Prints an error of a query.
  virtual void report(const Error& e) = 0;
};

// The engine of a Session: the builtins options, wins, winning, grundy/outcome/steps.
class SessionEngine : public PlayEngine {
 public:
  explicit SessionEngine(Session& session) : session_(session) {}
  std::vector<Value> options(const Value& x) override;
  bool wins(const Value& x) override;
  std::optional<Value> winning_option(const Value& x) override;
  char outcome(const Value& x) override;
  std::optional<Value> drawing_option(const Value& x) override;
  std::optional<std::uint64_t> remoteness(const Value& x) override;
  std::string note(const Value& x) override;
  void report(const Error& e) override;

 private:
  Session& session_;
};

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
