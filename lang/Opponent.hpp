// The computer's side of play, shared by the REPL's play mode (cli/Play.cpp) and the
// playground (web/Bridge.cpp): what it asks of the interpreter (PlayEngine), and how it
// chooses a move: a winning option when it has one, else one that keeps a draw, else the one
// that makes the person's win take longest.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/Error.hpp"
#include "runtime/Value.hpp"

namespace grundy {

class Session;

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

// The components of a sum (a position alone is its own; 0, the empty sum, has none).
std::vector<Value> parts_of(const Value& x);

enum class Stance : std::uint8_t { Winning, Drawing, Lost };
struct ComputerMove {
  Value option;
  Stance stance = Stance::Winning;
};

class Opponent {
 public:
  explicit Opponent(PlayEngine& engine);
  ~Opponent();
  Opponent(const Opponent&) = delete;
  Opponent& operator=(const Opponent&) = delete;
  // The computer's move from `pos`, whose options are `opts` (not empty).
  ComputerMove choose(const Value& pos, const std::vector<Value>& opts);

  // A component that cannot move plays no part in any of the three conventions, so the
  // positions shown leave such components out: Kayles(2), not Kayles(0) + Kayles(2).
  std::vector<Value> live_parts(const Value& x);
  // x without its components that cannot move (one is kept when none can move).
  Value simplify(const Value& x);

 private:
  class Lookahead;
  Value longest(const std::vector<Value>& opts);
  bool terminal(const Value& part);
  PlayEngine& engine_;
  std::unordered_map<Value, bool, ValueHash> terminal_;
  std::unique_ptr<Lookahead> lookahead_;
};

}  // namespace grundy
