#include "lang/RuleGame.hpp"

namespace grundy::lang {

namespace {

class RuleCursor : public OptionCursor {
 public:
  RuleCursor(const GameDecl& decl, const GameInstance& game, const Value& state, Machine& m)
      : decl_(decl), game_(game), m_(m), frame_(static_cast<std::size_t>(decl.frame_size)) {
    const auto& params = game.params().items();
    std::copy(params.begin(), params.end(), frame_.begin());
    for (const GameItem& it : decl.items) {
      if (it.kind != GameItem::Kind::State) continue;
      if (!it.tuple_pattern) {
        frame_[static_cast<std::size_t>(it.slots[0])] = state;
      } else {
        const auto& parts = state.items();
        for (std::size_t i = 0; i < it.slots.size() && i < parts.size(); ++i) {
          frame_[static_cast<std::size_t>(it.slots[i])] = parts[i];
        }
      }
      break;
    }
  }

  bool next(Option& out) override {
    while (item_ < decl_.items.size()) {
      const GameItem& it = decl_.items[item_];
      if (it.kind == GameItem::Kind::State) {
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
        for (const auto& e : it.exprs) m_.to_parts(m_.eval(*e, frame_), game_, out, e->where);
        return true;
      }
      ++item_;
      fresh_ = true;
    }
    return false;
  }

 private:
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
        iters_[depth_].start(m_.eval(*c.expr, frame_), c.expr->where);
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
    m_.bind(c, v, frame_);
    return true;
  }

  const GameDecl& decl_;
  const GameInstance& game_;
  Machine& m_;
  Frame frame_;
  std::size_t item_ = 0;
  bool fresh_ = true;
  std::size_t depth_ = 0;
  std::vector<Iteration> iters_;
  std::uint32_t ticks_ = 0;
};

}  // namespace

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
