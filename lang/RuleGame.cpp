#include "lang/RuleGame.hpp"

#include "lang/MoveOrigin.hpp"
#include "runtime/Show.hpp"

namespace grundy::lang {

namespace {

// A frame holding a game instance's parameters.
Frame params_frame(const GameDecl& decl, const GameInstance& game) {
  Frame frame(static_cast<std::size_t>(decl.frame_size));
  const auto& params = game.params().items();
  std::copy(params.begin(), params.end(), frame.begin());
  return frame;
}

// The same with a state bound to the state's names.
Frame frame_for(const GameDecl& decl, const GameInstance& game, const Value& state) {
  Frame frame = params_frame(decl, game);
  for (const GameItem& it : decl.items) {
    if (it.kind != GameItem::Kind::State) continue;
    if (!it.tuple_pattern) {
      frame[static_cast<std::size_t>(it.slots[0])] = state;
    } else {
      const auto& parts = state.items();
      for (std::size_t i = 0; i < it.slots.size() && i < parts.size(); ++i) {
        frame[static_cast<std::size_t>(it.slots[i])] = parts[i];
      }
    }
    break;
  }
  return frame;
}

// Runs f; a runtime error from the rules says which position's rules failed: the caret
// points into the rules, which every position shares. Only the innermost position adds it.
template <typename F>
auto in_position(const GameInstance& game, const Value& state, F&& f) {
  try {
    return f();
  } catch (const Error& e) {
    if (e.kind != ErrorKind::Runtime || e.context || e.loop) throw;  // a loop names its positions
    Error with(e.kind, "in " + shown(Position{&game, state}) + ": " + e.what(), e.hint, e.where);
    with.context = true;
    throw with;
  }
}

class RuleCursor : public OptionCursor {
 public:
  RuleCursor(const GameDecl& decl, const GameInstance& game, const Value& state, Interpreter& m)
      : decl_(decl), game_(game), m_(m), state_(state), frame_(frame_for(decl, game, state)) {}

  bool next(Option& out) override {
    return in_position(game_, state_, [&] {
      const Interpreter::Expanding expanding(m_, game_, state_);
      return next_option(out);
    });
  }

  OptionOrigin origin() const override { return origin_of(m_.world().sources, decl_, item_, frame_); }

 private:
  bool next_option(Option& out) {
    while (item_ < decl_.items.size()) {
      const GameItem& it = decl_.items[item_];
      if (it.kind == GameItem::Kind::State || it.kind == GameItem::Kind::Formula) {
        ++item_;
        continue;
      }
      if (it.kind == GameItem::Kind::Let) {
        frame_[static_cast<std::size_t>(it.slots[0])] = m_.eval(*it.exprs[0], frame_);
        ++item_;
        continue;
      }
      if (advance(it)) {
        out.clear();
        if (it.spread) {
          const Value parts = m_.eval(*it.exprs[0], frame_);
          for (const Value& p : parts.items()) m_.to_parts(p, game_, out, it.exprs[0]->where);
        } else {
          for (const auto& e : it.exprs) m_.to_parts(m_.eval(*e, frame_), game_, out, e->where);
        }
        return true;
      }
      ++item_;
      fresh_ = true;
    }
    return false;
  }

  // Moves the clauses of `it` to their next binding; false when they are exhausted.
  bool advance(const GameItem& it) {
    const std::size_t n = it.clauses.size();
    if (fresh_) {
      fresh_ = false;
      iters_.resize(n);
      depth_ = 0;
      if (descend(it)) return true;
    }
    while (depth_ > 0) {
      --depth_;
      const Clause& c = it.clauses[depth_];
      if (c.kind != Clause::Kind::For) continue;
      if (step(c, depth_)) {
        ++depth_;
        if (descend(it)) return true;
      }
    }
    fresh_ = true;
    return false;
  }

  // Enters clauses from depth_ on; true when all are entered (a binding is complete).
  bool descend(const GameItem& it) {
    while (depth_ < it.clauses.size()) {
      const Clause& c = it.clauses[depth_];
      if (c.kind == Clause::Kind::If) {
        if (!m_.condition(*c.expr, frame_, "the condition of `if`")) return false;
      } else {
        const Value collection = m_.eval(*c.expr, frame_);
        m_.check_loop(collection, c.expr->where);
        iters_[depth_].start(collection, c.expr->where);
        if (!step(c, depth_)) return false;
      }
      ++depth_;
    }
    return true;
  }

  bool step(const Clause& c, std::size_t d) {
    Value v;
    if (!iters_[d].next(v)) return false;
    if ((++ticks_ & 0x3FF) == 0) m_.check_interrupt();
    m_.count_steps(1, c.expr->where);
    m_.bind(c, v, frame_);
    return true;
  }

  const GameDecl& decl_;
  const GameInstance& game_;
  Interpreter& m_;
  Value state_;
  Frame frame_;
  std::size_t item_ = 0;
  bool fresh_ = true;
  std::size_t depth_ = 0;
  std::vector<Iteration> iters_;
  std::uint32_t ticks_ = 0;
};

}  // namespace

RuleGame::RuleGame(const GameDecl& decl, Interpreter& machine) : decl_(decl), machine_(machine) {
  for (const GameItem& it : decl.items) {
    if (it.kind == GameItem::Kind::Formula && !formula_) formula_ = &it;
    if (it.kind == GameItem::Kind::State && !guard_ && !it.clauses.empty()) {
      guard_item_ = &it;
      guard_ = &it.clauses[0];
    }
  }
}

std::string RuleGame::check_position(const GameInstance& game, const Value& state) const {
  std::string why = check_state(state);
  if (!why.empty() || !guard_) return why;
  Frame frame = frame_for(decl_, game, state);
  const Value ok = machine_.eval(*guard_->expr, frame);
  if (!ok.is(Kind::Bool)) {
    throw Error(ErrorKind::Runtime, "the condition of a state must be true or false, got " + shown(ok),
                "write a comparison, e.g. state n if n >= 0", guard_->expr->where);
  }
  if (ok.as_bool()) return {};
  return shown(Position{&game, state}) + " is not a position of " + game.display_name() + ": its state must satisfy " +
         guard_text(machine_.world().sources, decl_, *guard_item_);
}

std::uint64_t RuleGame::formula(const GameInstance& game, const Value& state) const {
  return in_position(game, state, [&]() -> std::uint64_t {
    const Interpreter::Expanding valuing(machine_, game, state, Interpreter::Expanding::What::Value);
    Frame frame = frame_for(decl_, game, state);
    // The lets written before the value rule, which it may use.
    for (const GameItem& it : decl_.items) {
      if (&it == formula_) break;
      if (it.kind == GameItem::Kind::Let)
        frame[static_cast<std::size_t>(it.slots[0])] = machine_.eval(*it.exprs[0], frame);
    }
    const Expr& e = *formula_->exprs[0];
    const Value v = machine_.eval(e, frame);
    if (!v.is(Kind::Int) || v.as_int() < 0) {
      throw Error(ErrorKind::Runtime, "a nim-value is an integer >= 0; the value rule gives " + shown(v),
                  "`value` gives the state's nim-value, e.g. value n % 3", e.where);
    }
    return static_cast<std::uint64_t>(v.as_int());
  });
}

RuleGame::~RuleGame() = default;

int RuleGame::state_arity() const {
  for (const GameItem& it : decl_.items) {
    if (it.kind == GameItem::Kind::State) return it.tuple_pattern ? static_cast<int>(it.names.size()) : 1;
  }
  return 1;
}

std::unique_ptr<OptionCursor> RuleGame::options(const GameInstance& game, const Value& state) const {
  return std::make_unique<RuleCursor>(decl_, game, state, machine_);
}

}  // namespace grundy::lang
