#include "lang/Opponent.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "lang/Session.hpp"

namespace grundy {

// ---- the engine of a Session ----

std::vector<Value> SessionEngine::options(const Value& x) { return session_.options(x); }

bool SessionEngine::wins(const Value& x) { return session_.wins(x); }

std::optional<Value> SessionEngine::winning_option(const Value& x) {
  std::vector<Value> w = session_.winning(x);
  if (w.empty()) return std::nullopt;
  return w.front();
}

char SessionEngine::outcome(const Value& x) { return session_.outcome(x); }

std::optional<Value> SessionEngine::drawing_option(const Value& x) {
  std::vector<Value> d = session_.drawing(x);
  if (d.empty()) return std::nullopt;
  return d.front();
}

std::optional<std::uint64_t> SessionEngine::remoteness(const Value& x) { return session_.remoteness(x); }

std::string SessionEngine::note(const Value& x) { return session_.value_note(x); }

void SessionEngine::report(const Error& e) { session_.report(e); }

// ---- how long a game lasts ----

// Remoteness (Steinhaus): the number of moves left when the winner hurries and the loser
// stalls. 0 with no options; from a winning position 1 + the least remoteness of a losing
// option; from a losing one 1 + the largest remoteness of any option. A losing computer
// plays the option of largest remoteness. The search is bounded: past kBudget positions it
// gives up and the computer falls back on the option that leaves the most options.
class Opponent::Lookahead {
 public:
  explicit Lookahead(PlayEngine& engine) : engine_(engine) {}

  std::optional<std::uint32_t> remoteness(const Value& x) {
    budget_ = kBudget;
    try {
      return search(x);
    } catch (const OutOfBudget&) {
      return std::nullopt;
    }
  }

 private:
  struct OutOfBudget {};
  static constexpr int kBudget = 20000;

  std::uint32_t search(const Value& x) {
    if (auto it = memo_.find(x); it != memo_.end()) return it->second;
    if (budget_-- <= 0) throw OutOfBudget{};
    const std::vector<Value> opts = engine_.options(x);
    std::uint32_t r = 0;
    if (!opts.empty()) {
      std::uint32_t fastest = std::numeric_limits<std::uint32_t>::max();
      if (engine_.wins(x)) {
        for (const Value& o : opts) {
          if (!engine_.wins(o)) fastest = std::min(fastest, search(o));
        }
      }
      if (fastest != std::numeric_limits<std::uint32_t>::max()) {
        r = 1 + fastest;
      } else {
        std::uint32_t longest = 0;
        for (const Value& o : opts) longest = std::max(longest, search(o));
        r = 1 + longest;
      }
    }
    memo_.emplace(x, r);
    return r;
  }

  PlayEngine& engine_;
  int budget_ = 0;
  std::unordered_map<Value, std::uint32_t, ValueHash> memo_;
};

// ---- positions as shown ----

std::vector<Value> parts_of(const Value& x) {
  if (x.is(Kind::Sum)) return x.parts();
  if (x.is(Kind::Int) && x.as_int() == 0) return {};
  return {x};
}

bool Opponent::terminal(const Value& part) {
  auto it = terminal_.find(part);
  if (it != terminal_.end()) return it->second;
  const bool t = engine_.options(part).empty();
  terminal_.emplace(part, t);
  return t;
}

std::vector<Value> Opponent::live_parts(const Value& x) {
  std::vector<Value> live;
  for (const Value& p : parts_of(x)) {
    if (!terminal(p)) live.push_back(p);
  }
  return live;
}

Value Opponent::simplify(const Value& x) {
  if (!x.is(Kind::Sum)) return x;
  std::vector<Value> live = live_parts(x);
  if (live.size() == x.parts().size()) return x;
  if (live.empty() && !x.parts().empty()) live.push_back(x.parts().front());
  return Value::sum(std::move(live), x.modifier());
}

// ---- the choice ----

Opponent::Opponent(PlayEngine& engine) : engine_(engine), lookahead_(std::make_unique<Lookahead>(engine)) {}
Opponent::~Opponent() = default;

ComputerMove Opponent::choose(const Value& pos, const std::vector<Value>& opts) {
  if (std::optional<Value> w = engine_.winning_option(pos)) return {*w, Stance::Winning};
  if (std::optional<Value> d = engine_.drawing_option(pos)) return {*d, Stance::Drawing};
  return {longest(opts), Stance::Lost};
}

Value Opponent::longest(const std::vector<Value>& opts) {
  std::size_t best = 0;
  std::uint32_t best_r = 0;
  // A loopy game's remoteness comes with its values (a search ahead would go round).
  bool loopy = true;
  for (std::size_t i = 0; i < opts.size() && loopy; ++i) {
    const std::optional<std::uint64_t> r = engine_.remoteness(opts[i]);
    loopy = r.has_value();
    if (r && (i == 0 || *r > best_r)) best = i, best_r = static_cast<std::uint32_t>(*r);
  }
  if (loopy) return opts[best];
  best = 0;
  best_r = 0;
  bool known = true;
  for (std::size_t i = 0; i < opts.size() && known; ++i) {
    std::optional<std::uint32_t> r = lookahead_->remoteness(opts[i]);
    if (!r) known = false;
    else if (i == 0 || *r > best_r) best = i, best_r = *r;
  }
  if (known) return opts[best];
  // Too big to look ahead: leave the person as many options as possible.
  std::size_t most = 0;
  best = 0;
  for (std::size_t i = 0; i < opts.size(); ++i) {
    const std::size_t n = engine_.options(opts[i]).size();
    if (i == 0 || n > most) best = i, most = n;
  }
  return opts[best];
}

}  // namespace grundy
