// Declaring what a batch defines (lang/Resolver.hpp): its games, functions and top-level lets
// under their names, each once in the batch.
#include <algorithm>

#include <absl/container/flat_hash_map.h>

#include "lang/Resolver.hpp"

namespace grundy::lang {

namespace {

int state_arity_of(const GameDecl& g) {
  if (g.form != GameDecl::Form::Rules) return g.form == GameDecl::Form::Alias ? -1 : 1;
  for (const GameItem& it : g.items) {
    if (it.kind == GameItem::Kind::State) return it.tuple_pattern ? static_cast<int>(it.names.size()) : 1;
  }
  return 1;
}

}  // namespace

void declare(World& w, Program& program) {
  for (Stmt& s : program.stmts) {
    if (s.defined_twice) continue;
    if (s.kind == Stmt::Kind::Game) {
      GameDecl& g = *s.game;
      GameEntry e;
      e.name = g.name;
      e.decl = &g;
      e.param_count = static_cast<int>(g.params.size());
      e.state_arity = state_arity_of(g);
      for (const GraphEdge& edge : g.edges) {
        auto add = [&](const Value& l) {
          if (e.label_index.try_emplace(l, e.labels.size()).second) e.labels.push_back(l);
        };
        add(label_value(edge.from));
        for (const Label& t : edge.to) add(label_value(t));
      }
      w.games.push_back(std::move(e));
      w.names[g.name] = Binding{Binding::To::Game, static_cast<int>(w.games.size() - 1)};
    } else if (s.kind == Stmt::Kind::Def) {
      DefEntry entry;
      entry.decl = s.def.get();
      w.defs.push_back(std::move(entry));
      w.names[s.def->name] = Binding{Binding::To::Def, static_cast<int>(w.defs.size() - 1)};
    } else if (s.kind == Stmt::Kind::Let) {
      auto it = w.names.find(s.name);
      if (it != w.names.end() && it->second.to == Binding::To::Global) continue;
      w.globals.push_back(GlobalEntry{s.name, s.where, {}, false});
      w.names[s.name] = Binding{Binding::To::Global, static_cast<int>(w.globals.size() - 1)};
    }
  }
  // Aliases take the shape of the game they name: game B3 = Bash[3].
  for (Stmt& s : program.stmts) {
    if (s.kind != Stmt::Kind::Game || s.game->form != GameDecl::Form::Alias) continue;
    const Expr& e = *s.game->expr;
    const Expr* base = e.kind == ExprKind::Index ? e.args[0].get() : &e;
    if (base->kind != ExprKind::Name) continue;
    auto it = w.names.find(base->text);
    auto self = w.names.find(s.game->name);
    if (it == w.names.end() || it->second.to != Binding::To::Game || self == w.names.end()) continue;
    w.games[static_cast<std::size_t>(self->second.index)].state_arity =
        w.games[static_cast<std::size_t>(it->second.index)].state_arity;
  }
}

// One batch may not define a name twice, as one file may not; a later batch may.
void check_duplicates(const std::vector<Program*>& batch, Diagnostics& diags) {
  struct First {
    Stmt::Kind kind;
    Where where;
  };
  absl::flat_hash_map<std::string, First> seen;
  for (Program* p : batch) {
    for (Stmt& s : p->stmts) {
      const std::string* name = nullptr;
      Where where = s.where;
      if (s.kind == Stmt::Kind::Game) {
        name = &s.game->name;
        where = s.game->where;
      } else if (s.kind == Stmt::Kind::Def) {
        name = &s.def->name;
        where = s.def->where;
      } else if (s.kind == Stmt::Kind::Let) {
        name = &s.name;
      } else {
        continue;
      }
      auto [it, fresh] = seen.emplace(*name, First{s.kind, where});
      if (fresh) continue;
      const std::string already =
          "'" + *name + "' is defined twice: here and " + diags.place(it->second.where);
      if (s.kind == Stmt::Kind::Let) {
        if (it->second.kind == Stmt::Kind::Let) continue;  // a let may be bound again
        diags.error(where, already, "pick another name for the let");
      } else if (it->second.kind == Stmt::Kind::Let) {
        it->second = First{s.kind, where};  // a game or function may take a let's name
        continue;
      } else {
        diags.error(where, already, "every game and function needs its own name: rename this one");
      }
      // The first definition keeps the name, so that the file that made it (often a
      // module) still resolves as written; the second is checked but not declared.
      s.defined_twice = true;
      p->broken_names.push_back(*name);
    }
  }
}

}  // namespace grundy::lang
