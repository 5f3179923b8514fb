// What a session keeps between batches (lang/Workspace.hpp): redefinitions and their
// rollback, the memos they make stale, and the texts the REPL shows of definitions.
#include "lang/Workspace.hpp"

#include <algorithm>
#include <cctype>

#include "lang/BuiltinTable.hpp"
#include "lang/Interpreter.hpp"
#include "lang/Lower.hpp"
#include "lang/Statements.hpp"

namespace grundy::lang {

// ---- redefinition ----

Workspace::Snapshot Workspace::snapshot() const {
  return Snapshot{w_.names, w_.games.size(), w_.defs.size(), w_.globals.size(), w_.loaded, {}, {}};
}

// After declare(..., replace): moves each redefined game or function into its old slot.
// Returns true when the batch redefined anything.
bool Workspace::take_old_places(Snapshot& before) {
  bool redefined = false;
  for (auto& [name, b] : w_.names) {
    auto it = before.names.find(name);
    if (it == before.names.end()) continue;
    const Binding& old = it->second;
    if (b.to == old.to && b.index == old.index) continue;
    redefined = true;
    if (b.to != old.to) continue;  // a game that was a function: old uses keep the function
    const auto from = static_cast<std::size_t>(b.index);
    const auto to = static_cast<std::size_t>(old.index);
    if (b.to == Binding::To::Game) {
      before.old_games.emplace_back(to, std::move(w_.games[to]));
      w_.games[to] = std::move(w_.games[from]);
      w_.games[from] = GameEntry{};  // no decl: never compiled, never listed
    } else if (b.to == Binding::To::Def) {
      before.old_defs.emplace_back(to, std::move(w_.defs[to]));
      w_.defs[to] = std::move(w_.defs[from]);
      w_.defs[from] = DefEntry{};
    } else {
      continue;
    }
    b.index = old.index;
  }
  return redefined;
}

void Workspace::roll_back(Snapshot& before) {
  w_.names = std::move(before.names);
  for (auto& [slot, entry] : before.old_games) w_.games[slot] = std::move(entry);
  for (auto& [slot, entry] : before.old_defs) w_.defs[slot] = std::move(entry);
  w_.games.resize(before.games);
  w_.defs.resize(before.defs);
  w_.globals.resize(before.globals);
  w_.loaded = std::move(before.loaded);
}

// Drops every memo table; returns how many positions they held.
std::uint64_t Workspace::clear_memos() {
  const std::uint64_t held = w_.registry.states + in_.evaluator().loopy().states();
  w_.registry.clear_memos();
  for (DefEntry& d : w_.defs) {
    d.memo.clear();
    d.recursive = -1;  // a redefinition may have made a function call back into another
    // Compiled with the bodies of the functions it calls, and the values of top-level lets.
    d.compile_tried = false;
    d.compiled.reset();
  }
  in_.misere().clear();
  in_.every().clear();
  in_.evaluator().loopy().clear();  // keyed by instance: a redefined game's may reuse an address
  return held;
}

// After a redefinition: the memos, and the shorthands whose set or instance is an
// expression (evaluated again on their next use).
void Workspace::forget_memos() {
  clear_memos();
  for (GameEntry& g : w_.games) {
    if (!g.decl) continue;
    if (g.decl->form == GameDecl::Form::Subtraction || g.decl->form == GameDecl::Form::Alias) {
      g.rules.reset();
      g.alias = nullptr;
    } else if (g.shapes) {
      // What the plans read of top-level lets (a set, a bound) may have changed.
      w_.registry.replan(g.rules.get(), [&](const GameInstance& inst) { return lower(g, inst, in_); });
    }
  }
}

bool Workspace::mentions(const Expr* e, int global) {
  if (!e) return false;
  if (e->kind == ExprKind::Name && e->binding.to == Binding::To::Global && e->binding.index == global) {
    return true;
  }
  for (const ExprPtr& a : e->args) {
    if (mentions(a.get(), global)) return true;
  }
  for (const Clause& c : e->clauses) {
    if (mentions(c.expr.get(), global)) return true;
  }
  return false;
}

// True when a game's rules or a function's body reads the top-level let `global`.
bool Workspace::rules_use(int global) const {
  for (const GameEntry& g : w_.games) {
    if (!g.decl) continue;
    if (mentions(g.decl->expr.get(), global)) return true;
    for (const GameItem& it : g.decl->items) {
      for (const ExprPtr& e : it.exprs) {
        if (mentions(e.get(), global)) return true;
      }
      for (const Clause& c : it.clauses) {
        if (mentions(c.expr.get(), global)) return true;
      }
    }
  }
  for (const DefEntry& d : w_.defs) {
    if (d.decl && mentions(d.decl->body.get(), global)) return true;
  }
  return false;
}

// ---- the texts of definitions ----

// The text of the statement at `w`, with the comment lines just above it.
std::string Workspace::statement_text(Where w, bool comments) const {
  const SourceFile& f = w_.sources.file(w.file);
  const std::string& t = f.text;
  auto blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  for (const StatementSpan& sp : split_statements(t).statements) {
    if (w.offset < sp.begin || w.offset >= sp.end) continue;
    std::size_t b = sp.begin, e = sp.end;
    while (b < e && blank(t[b])) ++b;
    while (e > b && blank(t[e - 1])) --e;
    std::size_t line = b;
    while (line > 0 && t[line - 1] != '\n') --line;
    if (comments && std::all_of(t.begin() + static_cast<std::ptrdiff_t>(line),
                                t.begin() + static_cast<std::ptrdiff_t>(b), blank)) {
      b = line;
      while (b > 0) {  // comment lines right above
        std::size_t prev = b - 1;
        while (prev > 0 && t[prev - 1] != '\n') --prev;
        std::size_t first = prev;
        while (first < b - 1 && (t[first] == ' ' || t[first] == '\t')) ++first;
        if (first >= b - 1 || t[first] != '#') break;
        b = prev;
      }
    }
    return t.substr(b, e - b);
  }
  return {};
}

// What follows `=` in a shorthand, on one line: octal "0.07", subtraction {1, 3, 4}.
std::string Workspace::shorthand_text(const GameDecl& d) const {
  const std::string text = statement_text(d.where, /*comments=*/false);
  const std::size_t eq = text.find('=', text.find(d.name));
  std::string line;
  for (std::size_t i = eq == std::string::npos ? text.size() : eq + 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!line.empty() && line.back() != ' ') line += ' ';
    } else {
      line += c;
    }
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

// The names in a position of `g`: n, (a, b) -> "a, b".
std::string Workspace::state_names(const GameEntry& g, int depth) const {
  const GameDecl& d = *g.decl;
  switch (d.form) {
    case GameDecl::Form::Rules:
      for (const GameItem& it : d.items) {
        if (it.kind != GameItem::Kind::State) continue;
        std::string s;
        for (std::size_t i = 0; i < it.names.size(); ++i) s += (i ? ", " : "") + it.names[i];
        return s;
      }
      return "state";
    case GameDecl::Form::Octal:
    case GameDecl::Form::Subtraction: return "n";
    case GameDecl::Form::Graph: return "node";
    case GameDecl::Form::Alias: {
      const Expr* base = d.expr && d.expr->kind == ExprKind::Index ? d.expr->args[0].get() : d.expr.get();
      if (base && base->kind == ExprKind::Name && base->binding.to == Binding::To::Game && depth < 16) {
        const GameEntry& target = w_.games[static_cast<std::size_t>(base->binding.index)];
        if (target.decl) return state_names(target, depth + 1);
      }
      return "...";
    }
  }
  return "...";
}

GameSummary Workspace::summary(const GameEntry& g) const {
  const GameDecl& d = *g.decl;
  GameSummary s;
  s.name = g.name;
  s.signature = g.name;
  if (!d.params.empty()) {
    s.signature += '[';
    for (std::size_t i = 0; i < d.params.size(); ++i) s.signature += (i ? ", " : "") + d.params[i];
    s.signature += ']';
  }
  s.signature += "(" + state_names(g, 0) + ")";
  switch (d.form) {
    case GameDecl::Form::Rules: {
      int moves = 0, splits = 0;
      for (const GameItem& it : d.items) {
        moves += it.kind == GameItem::Kind::Move;
        splits += it.kind == GameItem::Kind::Split;
      }
      auto count = [](int n, const char* what) {
        return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
      };
      if (moves == 0 && splits == 0) s.form = "rules (no moves: every state is terminal)";
      else if (splits == 0) s.form = "rules (" + count(moves, "move") + ")";
      else if (moves == 0) s.form = "rules (" + count(splits, "split") + ")";
      else s.form = "rules (" + count(moves, "move") + ", " + count(splits, "split") + ")";
      if (std::any_of(d.items.begin(), d.items.end(),
                      [](const GameItem& it) { return it.kind == GameItem::Kind::Formula; })) {
        s.form.insert(s.form.size() - 1, ", a value rule");
      }
      break;
    }
    case GameDecl::Form::Graph:
      s.form = "graph (" + std::to_string(g.labels.size()) + (g.labels.size() == 1 ? " node)" : " nodes)");
      break;
    case GameDecl::Form::Alias: s.form = "= " + shorthand_text(d); break;
    default: s.form = shorthand_text(d); break;
  }
  const SourceFile& f = w_.sources.file(d.where.file);
  constexpr std::string_view kStdlib = "<stdlib>/";
  if (f.name.rfind(kStdlib, 0) == 0) {
    std::string module = f.name.substr(kStdlib.size());
    if (module.size() > 5 && module.ends_with(".game")) module.resize(module.size() - 5);
    s.origin = "import " + module;
  } else if (!f.name.empty() && f.name[0] != '<') {
    s.origin = f.name + ":" + std::to_string(w_.sources.locate(d.where).line);
  }
  return s;
}

bool Workspace::live(const std::string& name, Binding::To to, std::size_t index) const {
  auto it = w_.names.find(name);
  return it != w_.names.end() && it->second.to == to && static_cast<std::size_t>(it->second.index) == index;
}

// ---- listings ----

std::vector<GameSummary> Workspace::games() const {
  std::vector<GameSummary> out;
  const World& w = w_;
  for (std::size_t i = 0; i < w.games.size(); ++i) {
    const GameEntry& g = w.games[i];
    if (g.decl && live(g.name, Binding::To::Game, i)) out.push_back(summary(g));
  }
  return out;
}

std::optional<std::string> Workspace::definition(const std::string& name) const {
  const World& w = w_;
  auto it = w.names.find(name);
  if (it == w.names.end()) {
    for (const BuiltinInfo& b : kBuiltins) {
      if (b.name == name) return "builtin " + std::string(b.signature);
    }
    if (name == "N" || name == "P" || name == "D")
      return name + ": a predefined outcome (N: the player to move wins, P: loses, D: a loopy game's draw)";
    return std::nullopt;
  }
  const Binding& b = it->second;
  const auto i = static_cast<std::size_t>(b.index);
  switch (b.to) {
    case Binding::To::Game:
      if (w.games[i].decl) return statement_text(w.games[i].decl->where);
      break;
    case Binding::To::Def:
      if (w.defs[i].decl) return statement_text(w.defs[i].decl->where);
      break;
    case Binding::To::Global: return statement_text(w.globals[i].where);
    default: break;
  }
  return std::nullopt;
}

std::vector<std::string> Workspace::defined_names() const {
  std::vector<std::string> out;
  for (const auto& [name, b] : w_.names) {
    if (b.to == Binding::To::Game || b.to == Binding::To::Def || b.to == Binding::To::Global) {
      out.push_back(name);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace grundy::lang
