#include "runtime/Game.hpp"

#include <algorithm>

#include "runtime/Error.hpp"

namespace grundy {

void Ruleset::append_state(std::string& out, const Value& state) const {
  if (state_arity() > 1 && state.is(Kind::Tuple)) {
    const auto& items = state.items();
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i) out += ", ";
      append_value(out, items[i]);
    }
    return;
  }
  append_value(out, state);
}

std::string Ruleset::check_state(const Value& state) const {
  const int arity = state_arity();
  if (arity == 1) return {};
  if (!state.is(Kind::Tuple) || static_cast<int>(state.items().size()) != arity) {
    return "a state of " + name() + " is a tuple of " + std::to_string(arity) + " values, not " +
           to_string(state);
  }
  return {};
}

std::uint64_t Ruleset::formula(const GameInstance& game, const Value&) const {
  throw Error(ErrorKind::Runtime, game.display_name() + " has no value rule");
}

std::string GameInstance::display_name() const {
  std::string s = rules_->name();
  if (!params_.items().empty()) {
    s += '[';
    for (std::size_t i = 0; i < params_.items().size(); ++i) {
      if (i) s += ", ";
      append_value(s, params_.items()[i]);
    }
    s += ']';
  }
  return s;
}

const GameInstance* GameRegistry::instance(const std::shared_ptr<const Ruleset>& rules, const Value& params,
                                           const Planner& plan) {
  Key key{rules.get(), params};
  auto it = instances_.find(key);
  GameInstance* p = nullptr;
  if (it != instances_.end()) {
    p = it->second.get();
    if (p->planned_ || !plan) return p;
  } else {
    // Interned first: making the plan lists options, which may name the instance itself.
    auto inst = std::make_unique<GameInstance>(rules, params);
    p = inst.get();
    instances_.emplace(std::move(key), std::move(inst));
    if (!plan) return p;
  }
  // A plan that throws (an interrupt, a limit) leaves the instance without one, to be made
  // at its next use; the search answers for it meanwhile.
  p->plan_ = plan(*p);
  p->planned_ = true;
  p->fast.reset();
  return p;
}

void GameRegistry::replan(const Ruleset* rules, const Planner& plan) {
  for (auto& [key, inst] : instances_) {
    if (key.rules != rules) continue;
    inst->planned_ = false;
    inst->plan_ = {};
    inst->fast.reset();
    try {
      inst->plan_ = plan(*inst);
      inst->planned_ = true;
    } catch (const Error& e) {
      // A limit met while planning: the plan is made again at the instance's next use.
      if (e.kind == ErrorKind::Interrupted) throw;
    }
  }
}

void GameRegistry::forget(const Ruleset* rules) {
  for (auto it = instances_.begin(); it != instances_.end();) {
    if (it->first.rules == rules) {
      states -= it->second->memo.size() + it->second->dense_states;
      for (const auto& [state, value] : it->second->memo) {
        const std::uint64_t b = meter.release(state);
        state_bytes -= std::min(b, state_bytes);
      }
      for (const auto& outcomes : it->second->outcomes) {
        states -= outcomes.size();
        for (const auto& [state, value] : outcomes) {
          const std::uint64_t b = meter.release(state);
          state_bytes -= std::min(b, state_bytes);
        }
      }
      instances_.erase(it++);
    } else {
      ++it;
    }
  }
}

void GameRegistry::clear_memos(const std::function<bool(const GameInstance&)>& keep_strategy) {
  states = 0;
  for (auto& [key, inst] : instances_) {
    inst->memo.clear();
    for (auto& outcomes : inst->outcomes) outcomes.clear();
    if (inst->fast && keep_strategy && keep_strategy(*inst)) {
      states += inst->dense_states;
      continue;
    }
    inst->fast.reset();
    inst->dense_states = 0;
  }
  state_bytes = 0;
  meter.clear();
}

std::string to_string(const Position& p) { return to_string(Value::position(p.game, p.state)); }

int compare_instances(const GameInstance* a, const GameInstance* b) {
  if (const int c = a->rules().name().compare(b->rules().name())) return c < 0 ? -1 : 1;
  return compare(a->params(), b->params());
}

void append_instance(std::string& out, const GameInstance* g) { out += g->display_name(); }

void append_position(std::string& out, const GameInstance* g, const Value& state) {
  out += g->display_name();
  out += '(';
  g->rules().append_state(out, state);
  out += ')';
}

}  // namespace grundy
