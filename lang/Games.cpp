#include "lang/Games.hpp"

#include <algorithm>

#include <absl/container/flat_hash_set.h>

#include "lang/Faults.hpp"
#include "lang/Interpreter.hpp"
#include "lang/KnownGames.hpp"
#include "lang/Lower.hpp"
#include "lang/RuleGame.hpp"
#include "runtime/Shorthands.hpp"

namespace grundy::lang {

void Games::compile(Diagnostics& diags) {
  for (GameEntry& g : w_.games) {
    if (g.rules || !g.decl) continue;
    check_interrupt(w_.limits.interrupt);
    const GameDecl& d = *g.decl;
    switch (d.form) {
      case GameDecl::Form::Rules:
        if (!d.loopy) g.rules = recognize_nim(d);
        if (!g.rules) {
          g.rules = std::make_shared<RuleGame>(d, in_);
          g.shapes = read_shapes(d);
        }
        break;
      case GameDecl::Form::Octal: try { g.rules = std::make_shared<TakeAndBreakRuleset>(g.name, d.code);
        } catch (const Error& e) {
          diags.error(d.code_where, e.what(), e.hint);
        }
        break;
      case GameDecl::Form::Graph: compile_graph(g, diags); break;
      case GameDecl::Form::Subtraction:
      case GameDecl::Form::Alias: break;  // evaluated on first use: their expressions may name lets
    }
  }
}

void Games::compile_graph(GameEntry& g, Diagnostics& diags) {
  const GameDecl& d = *g.decl;
  std::vector<GraphRuleset::Node> nodes;
  for (const Value& l : g.labels) nodes.push_back({l, {}});
  auto index = [&](const Value& l) { return g.label_index.at(l); };
  absl::flat_hash_set<std::pair<std::size_t, std::size_t>> edges;  // each edge once
  for (const GraphEdge& e : d.edges) {
    const std::size_t from = index(label_value(e.from));
    for (const Label& t : e.to) {
      const std::size_t to = index(label_value(t));
      if (edges.insert({from, to}).second) nodes[from].successors.push_back(to);
    }
  }
  auto rules = std::make_shared<GraphRuleset>(g.name, std::move(nodes), d.loopy);
  std::vector<Value> cycle = d.loopy ? std::vector<Value>{} : rules->find_cycle();
  if (!cycle.empty()) {
    std::string path;
    for (std::size_t i = 0; i < cycle.size(); ++i) {
      if (i) path += " -> ";
      rules->append_state(path, cycle[i]);
    }
    diags.error(d.where, "the graph of " + g.name + " has a cycle: " + path,
                "a game must end, so its graph must be acyclic; `loopy game " + g.name +
                    " = graph {...}` allows cycles (play that never ends is a draw)");
    return;
  }
  g.rules = std::move(rules);
}

const std::shared_ptr<const Ruleset>& Games::rules_of(GameEntry& g, Where where) {
  if (g.rules) return g.rules;
  const GameDecl& d = *g.decl;
  Frame frame(static_cast<std::size_t>(d.frame_size));
  if (d.form == GameDecl::Form::Subtraction) {
    Value set = in_.eval(*d.expr, frame);
    std::vector<std::int64_t> moves;
    for (const Value& v : in_.items_of(set, d.expr->where, "subtraction")) {
      const std::int64_t s = need_int(v, d.expr->where, "a subtraction amount");
      if (s <= 0) {
        fail_at(d.expr->where, "subtraction amounts must be positive, got " + std::to_string(s),
                "a move must take at least one token, or the game would never end");
      }
      moves.push_back(s);
    }
    g.rules = std::make_shared<SubtractionRuleset>(g.name, std::move(moves));
  } else if (d.form == GameDecl::Form::Alias) {
    // `game A = A`, or A = B with B = A: the instance would be looked up for ever.
    if (g.resolving) {
      fail_at(d.expr->where, "game " + g.name + " is defined in terms of itself",
              "an alias names an instance of another game, e.g. game B3 = Bash[3]");
    }
    struct Resolving {
      GameEntry& g;
      explicit Resolving(GameEntry& e) : g(e) { g.resolving = true; }
      ~Resolving() { g.resolving = false; }
    } resolving(g);
    Value inst = in_.eval(*d.expr, frame);
    if (!inst.is(Kind::Game)) {
      fail_at(d.expr->where, "game " + g.name + " = ... needs a game, got " + describe(inst),
              "e.g. game B3 = Bash[3]");
    }
    g.alias = inst.game();
    g.state_arity = inst.game()->rules().state_arity();
    // The alias shares the instance, and so its memo.
    static thread_local std::shared_ptr<const Ruleset> none;
    return none;
  } else {
    fail_at(where, "game " + g.name + " was not compiled");
  }
  return g.rules;
}

const GameInstance* Games::instance(GameEntry& g, std::vector<Value> params, Where where) {
  if (g.decl && g.decl->form == GameDecl::Form::Alias) {
    if (!g.alias) rules_of(g, where);
    if (!params.empty()) fail_at(where, g.name + " has no parameters");
    return g.alias;
  }
  if (params.empty() && g.plain && g.plain->planned()) return g.plain;
  const auto& rules = rules_of(g, where);
  if (static_cast<int>(params.size()) != g.param_count) {
    fail_at(where, g.name + " takes " + std::to_string(g.param_count) +
                       (g.param_count == 1 ? " parameter, got " : " parameters, got ") +
                       std::to_string(params.size()));
  }
  const GameRegistry::Planner plan = [this, &g](const GameInstance& inst) { return lower(g, inst, in_); };
  if (params.empty()) return g.plain = w_.registry.instance(rules, Value::tuple({}), plan);
  return w_.registry.instance(rules, Value::tuple(std::move(params)), plan);
}

}  // namespace grundy::lang
