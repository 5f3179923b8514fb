#include "cli/Play.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <ostream>
#include <unordered_map>

#include "lang/Diagnostics.hpp"
#include "runtime/Game.hpp"

namespace grundy::cli {

namespace {

// ---- positions as the person sees and writes them ----

// The convention is said once, when the game starts, so options print without it.
std::string show(const Value& x) {
  if (x.is(Kind::Sum) && x.parts().empty()) return "0 (nothing left)";
  if (x.is(Kind::Sum) && x.modifier() != Modifier::Normal) {
    return to_string(Value::sum(x.parts(), Modifier::Normal));
  }
  return to_string(x);
}

// A move written out, as text: its parts (split at '+' outside brackets) without blanks,
// sorted, with a leading `misere` or `every` and enclosing parentheses dropped. The text is
// never evaluated: an expression typed at the move prompt could run for hours.
std::string without_blanks(std::string_view text) {
  std::string s;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) s += c;
  }
  return s;
}

std::vector<std::string> written_parts(std::string_view text) {
  std::string s = without_blanks(text);
  for (std::string_view mod : {"misere", "every"}) {
    if (s.rfind(mod, 0) == 0 && s.size() > mod.size() && s[mod.size()] == '(') s.erase(0, mod.size());
  }
  // "(A + B)" as a whole, not "(A) + (B)".
  auto enclosed = [](const std::string& t) {
    if (t.size() < 2 || t.front() != '(' || t.back() != ')') return false;
    int depth = 0;
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
      depth += t[i] == '(' ? 1 : t[i] == ')' ? -1 : 0;
      if (depth == 0) return false;
    }
    return true;
  };
  while (enclosed(s)) s = s.substr(1, s.size() - 2);
  std::vector<std::string> parts;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == '+' && depth == 0) {
      parts.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(std::move(cur));
  std::sort(parts.begin(), parts.end());
  return parts;
}

std::vector<std::string> printed_parts(const std::vector<Value>& parts) {
  std::vector<std::string> out;
  for (const Value& p : parts) out.push_back(without_blanks(to_string(p)));
  std::sort(out.begin(), out.end());
  return out;
}

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() < 10 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

// ---- the game ----

class Game {
 public:
  Game(PlayEngine& engine, LineSource& input, std::ostream& out, PlayStyle style)
      : engine_(engine), input_(input), out_(out), style_(style), opponent_(engine) {}

  void run(const Value& start) {
    mod_ = start.is(Kind::Sum) ? start.modifier() : Modifier::Normal;
    const std::vector<Value> parts = parts_of(start);
    can_loop_ = std::any_of(parts.begin(), parts.end(), [](const Value& p) {
      return p.is(Kind::Position) && p.game()->rules().loopy();
    });
    out_ << "Playing " << show(start) << ", " << rule() << ".\n"
         << "You move first. Pick an option by its number or write it out; "
         << ":hint shows values and winning moves, :quit leaves.\n";
    Value pos = simplify(start);
    bool person = true;  // whose turn
    while (true) {
      std::vector<Value> opts = options(pos);
      if (opts.empty()) {
        finish(pos, person);
        return;
      }
      if (repeated(pos, person)) return;
      std::optional<Value> next = person ? person_moves(pos, opts) : computer_moves(pos, opts);
      if (!next) return;  // the person left
      pos = *next;
      person = !person;
    }
  }

 private:
  std::vector<Value> live_parts(const Value& x) { return opponent_.live_parts(x); }
  Value simplify(const Value& x) { return opponent_.simplify(x); }
  // The options of pos, simplified; options that become the same are listed once.
  std::vector<Value> options(const Value& pos) {
    std::vector<Value> out;
    std::vector<std::vector<Value>> seen;
    for (const Value& o : engine_.options(pos)) {
      std::vector<Value> key = live_parts(o);
      std::sort(key.begin(), key.end());
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
      seen.push_back(std::move(key));
      out.push_back(simplify(o));
    }
    return out;
  }

  std::string paint(const char* code, const std::string& text) const {
    return style_.color ? "\033[" + std::string(code) + "m" + text + "\033[0m" : text;
  }

  std::string rule() const {
    switch (mod_) {
      case Modifier::Misere: return "misere play: whoever makes the last move loses";
      case Modifier::Every:
        return "every play: each turn moves in every component that can move, and whoever cannot move loses";
      case Modifier::Normal: break;
    }
    return "normal play: whoever cannot move loses";
  }

  void list(const Value& pos, const std::vector<Value>& opts, const std::vector<std::string>& notes = {},
            const std::vector<bool>& winning = {}) {
    out_ << paint("1", "Position: " + show(pos)) << '\n';
    const int digits = static_cast<int>(std::to_string(opts.size()).size());
    std::size_t width = 0;
    if (!notes.empty()) {
      for (const Value& o : opts) width = std::max(width, show(o).size());
    }
    for (std::size_t i = 0; i < opts.size(); ++i) {
      std::string num = std::to_string(i + 1);
      std::string line = "  " + std::string(static_cast<std::size_t>(digits) - num.size(), ' ') + num + "  ";
      std::string text = show(opts[i]);
      if (notes.empty()) {
        out_ << line << text << '\n';
        continue;
      }
      text.resize(std::max(width, text.size()), ' ');
      line += text + "  " + notes[i];
      if (winning[i]) line += "  " + paint("32;1", "<- wins");
      out_ << line << '\n';
    }
  }

  void hint(const Value& pos, const std::vector<Value>& opts) {
    std::vector<std::string> notes;
    std::vector<bool> winning;
    std::size_t wins = 0, first = 0;
    for (std::size_t i = 0; i < opts.size(); ++i) {
      notes.push_back(note(opts[i]));
      winning.push_back(engine_.outcome(opts[i]) == 'P');
      if (winning.back() && wins++ == 0) first = i + 1;
    }
    list(pos, opts, notes, winning);
    out_ << show(pos) << " has " << note(pos) << ": ";
    if (wins == 0 && engine_.outcome(pos) == 'D') {
      out_ << "neither can win: keep the game going with an option that leaves a draw.\n";
    } else if (wins == 0) {
      out_ << "you are losing, every option leaves the computer a win.\n";
    } else {
      out_ << "you can win, e.g. with " << first << ".\n";
    }
  }

  std::string note(const Value& x) {
    try {
      return engine_.note(x);
    } catch (const Error& e) {
      if (e.kind == ErrorKind::Interrupted) throw;
      return "?";
    }
  }

  void clear_interrupt() const {
    if (style_.interrupt) style_.interrupt->store(false);
  }

  std::optional<Value> person_moves(const Value& pos, const std::vector<Value>& opts) {
    out_ << '\n';
    list(pos, opts);
    while (true) {
      std::string line;
      out_.flush();
      const ReadStatus st =
          input_.read(style_.color ? "\1\033[1;36m\1your move>\1\033[0m\1 " : "your move> ", line);
      if (st == ReadStatus::Interrupted) {
        clear_interrupt();
        out_ << '\n';
        continue;
      }
      if (st == ReadStatus::Eof) {
        if (input_.interactive()) out_ << '\n';
        out_ << "You left the game.\n";
        return std::nullopt;
      }
      const std::string text = trim(line);
      if (text.empty() || text[0] == '#') continue;  // a comment in a transcript or script
      if (!input_.interactive()) out_ << "your move> " << text << '\n';  // a transcript
      if (text == ":hint" || text == ":h") {
        hint(pos, opts);
        continue;
      }
      if (text == ":quit" || text == ":q") {
        out_ << "You left the game.\n";
        return std::nullopt;
      }
      if (text == ":options" || text == ":o") {
        list(pos, opts);
        continue;
      }
      if (text[0] == ':') {
        out_ << "In a game: a number from 1 to " << opts.size()
             << ", an option written out, :hint, :options or :quit.\n";
        continue;
      }
      std::optional<std::size_t> pick;
      if (all_digits(text)) {
        const unsigned long n = std::stoul(text);
        if (n >= 1 && n <= opts.size()) pick = n - 1;
        else out_ << "Pick a number from 1 to " << opts.size() << ".\n";
      } else {
        // As listed: in any order, with or without the modifier and the parts that cannot move.
        const std::vector<std::string> want = written_parts(text);
        for (std::size_t i = 0; i < opts.size() && !pick; ++i) {
          const std::vector<Value> live = live_parts(opts[i]);
          if (want == printed_parts(parts_of(opts[i])) || want == printed_parts(live) ||
              (live.empty() && want == std::vector<std::string>{"0"})) {
            pick = i;
          }
        }
        // Written with the parts that cannot move, as the rules give the option.
        for (const Value& raw : want.size() > 1 && !pick ? engine_.options(pos) : std::vector<Value>{}) {
          if (pick || want != printed_parts(parts_of(raw))) continue;
          std::vector<Value> key = live_parts(raw);
          std::sort(key.begin(), key.end());
          for (std::size_t i = 0; i < opts.size() && !pick; ++i) {
            std::vector<Value> have = live_parts(opts[i]);
            std::sort(have.begin(), have.end());
            if (have == key) pick = i;
          }
        }
        if (!pick) {
          out_ << "'" << lang::one_line(text, 200) << "' is not an option of " << show(pos) << ": pick a number from 1 to "
               << opts.size() << ", or write an option as listed.\n";
        }
      }
      if (!pick) continue;
      out_ << "You: " << show(opts[*pick]) << '\n';
      return opts[*pick];
    }
  }

  // A loopy game's play may go on for ever: when a drawn position comes back with the same
  // player to move, the person may call it a draw; past kMaxMoves it is one.
  static constexpr int kMaxMoves = 1000;
  static constexpr int kQuietMoves = 20;
  bool repeated(const Value& pos, bool person) {
    if (!can_loop_) return false;  // a game that must end ends
    if (++moves_ > kMaxMoves) {
      out_ << '\n'
           << paint("33;1", "A draw:") << " " << kMaxMoves
           << " moves were played, and play can go on for ever.\n";
      return true;
    }
    if (met_[person ? 1 : 0][pos]++ == 0 || moves_ < quiet_until_ || engine_.outcome(pos) != 'D')
      return false;
    out_ << '\n'
         << show(pos) << " has come back with " << (person ? "you" : "the computer")
         << " to move: with best play the game goes on for ever. Call it a draw? (y/n)\n";
    std::string line;
    out_.flush();
    if (input_.read("draw? ", line) != ReadStatus::Line) return false;
    const std::string text = trim(line);
    if (!input_.interactive()) out_ << "draw? " << text << '\n';
    if (text.empty() || (text[0] != 'y' && text[0] != 'Y')) {
      quiet_until_ = moves_ + kQuietMoves;  // not asked again at every move
      return false;
    }
    out_ << paint("33;1", "A draw.") << " (play that goes on for ever is a draw)\n";
    return true;
  }

  std::optional<Value> computer_moves(const Value& pos, const std::vector<Value>& opts) {
    const ComputerMove m = opponent_.choose(pos, opts);
    if (m.stance == Stance::Winning) {
      lost_ = false;
    } else if (m.stance == Stance::Drawing) {
      if (!drawn_) {
        out_ << "The computer cannot win from here, and neither can you: it keeps the game going "
                "(a draw).\n";
      }
      drawn_ = true;
    } else {
      if (!lost_) {
        out_ << "The computer is lost: whatever it plays, you can win. "
                "It plays the move that lasts longest.\n";
      }
      lost_ = true;
    }
    const Value chosen = simplify(m.option);
    out_ << paint("1", "Computer: " + show(chosen)) << '\n';
    return chosen;
  }

  void finish(const Value& pos, bool person_to_move) {
    const bool mover_wins = engine_.wins(pos);
    const bool person_wins = mover_wins == person_to_move;
    out_ << '\n'
         << (person_to_move ? "You cannot" : "The computer cannot") << " move from " << show(pos) << ". "
         << (person_wins ? paint("32;1", "You win!") : paint("31;1", "The computer wins.")) << " (" << rule()
         << ")\n";
  }

  PlayEngine& engine_;
  LineSource& input_;
  std::ostream& out_;
  PlayStyle style_;
  Opponent opponent_;
  Modifier mod_ = Modifier::Normal;
  bool lost_ = false;
  bool drawn_ = false;
  bool can_loop_ = false;  // a part of the game played is loopy
  // Loopy games: the positions met, with whose turn it was, to see a repetition; and the moves.
  std::unordered_map<Value, int, ValueHash> met_[2];
  int moves_ = 0;
  int quiet_until_ = 0;
};

}  // namespace

bool play(PlayEngine& engine, LineSource& input, std::ostream& out, const Value& start, PlayStyle style) {
  Game game(engine, input, out, style);
  try {
    game.run(start);
  } catch (const Error& e) {
    if (e.kind == ErrorKind::Interrupted) throw;
    out.flush();
    engine.report(e);
    out << "The game stopped.\n";
    return false;
  }
  return true;
}

}  // namespace grundy::cli
