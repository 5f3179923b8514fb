#include "lang/Resolver.hpp"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <cctype>

#include "lang/BuiltinTable.hpp"
#include "lang/Suggest.hpp"
#include "stdlib/Stdlib.hpp"

namespace grundy::lang {

namespace {

std::string plural(int n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

std::string describe_state(const GameDecl& g) {
  for (const GameItem& it : g.items) {
    if (it.kind != GameItem::Kind::State) continue;
    if (!it.tuple_pattern) return "state " + it.names[0];
    std::string s = "state (";
    for (std::size_t i = 0; i < it.names.size(); ++i) s += (i ? ", " : "") + it.names[i];
    return s + ")";
  }
  return "one value";
}

class Resolver {
 public:
  Resolver(World& world, Program& program, Diagnostics& diags) : w_(world), prog_(program), d_(diags) {}

  void run() {
    for (const Stmt& s : prog_.stmts) {
      if (s.kind != Stmt::Kind::Let) continue;
      auto it = w_.names.find(s.name);
      if (it != w_.names.end() && it->second.to == Binding::To::Global) own_lets_.push_back(it->second.index);
    }
    for (std::size_t i = 0; i < prog_.stmts.size(); ++i) {
      Stmt& s = prog_.stmts[i];
      switch (s.kind) {
        case Stmt::Kind::Game: game(*s.game); break;
        case Stmt::Kind::Def: def(*s.def); break;
        case Stmt::Kind::Let:
          s.frame_size = top_level(*s.expr);
          s.global = w_.names.at(s.name).index;
          visible_lets_.push_back(s.global);
          break;
        case Stmt::Kind::Assert:
        case Stmt::Kind::Expr: s.frame_size = top_level(*s.expr); break;
        case Stmt::Kind::Import: break;
      }
    }
    check_alias_rings();
  }

 private:
  // ---- scopes and slots ----
  void begin_frame() {
    scopes_.assign(1, {});
    next_slot_ = 0;
    max_slot_ = 0;
  }
  int declare_local(const std::string& name) {
    const int slot = next_slot_++;
    max_slot_ = std::max(max_slot_, next_slot_);
    scopes_.back().push_back({name, slot});
    return slot;
  }
  void push_scope() { scopes_.push_back({}); }
  // Slots of a closed scope are not reused: a cursor may still hold their values.
  void pop_scope() { scopes_.pop_back(); }

  int top_level(Expr& e) {
    in_top_level_ = true;
    begin_frame();
    expr(e);
    in_top_level_ = false;
    return max_slot_;
  }

  // ---- errors ----
  bool broken(const std::string& name) const {
    return std::find(prog_.broken_names.begin(), prog_.broken_names.end(), name) != prog_.broken_names.end();
  }

  // The nearest name to a misspelt one. On a tie a builtin wins over a global, a global over
  // a local, and then the first in alphabetical order: the global names are in a hash map,
  // whose order differs from run to run, and the hint must not.
  std::string suggestion(const std::string& name) const {
    std::vector<std::string_view> locals, globals, builtins;
    for (const auto& scope : scopes_) {
      for (const auto& [n, slot] : scope) locals.push_back(n);
    }
    for (const auto& [n, b] : w_.names) globals.push_back(n);
    for (const BuiltinInfo& b : kBuiltins) builtins.push_back(b.name);
    // On a tie a builtin wins over a global, a global over a local, and then the first in
    // alphabetical order: the global names are in a hash map, whose order differs from run
    // to run, and the hint must not.
    std::vector<std::string_view> candidates;
    for (auto* group : {&builtins, &globals, &locals}) {
      std::sort(group->begin(), group->end());
      candidates.insert(candidates.end(), group->begin(), group->end());
    }
    return did_you_mean(name, candidates);
  }

  // A game of the standard library used without its import.
  static std::string stdlib_hint(const std::string& name) {
    for (std::string_view module : stdlib::module_names()) {
      const std::string_view* text = stdlib::find_module(module);
      const std::string decl = "game " + name;
      for (std::size_t at = text->find(decl); at != std::string_view::npos; at = text->find(decl, at + 1)) {
        const std::size_t end = at + decl.size();
        const bool line_start = at == 0 || (*text)[at - 1] == '\n';
        const char next = end < text->size() ? (*text)[end] : ' ';
        if (line_start && !(std::isalnum(static_cast<unsigned char>(next)) || next == '_')) {
          return name + " is in the standard module " + std::string(module) + ": add `import " +
                 std::string(module) + "`";
        }
      }
    }
    return {};
  }

  // ---- names ----
  // The index of `v` among the world's constants, added when new.
  int constant(const Value& v) const {
    const auto [it, added] = w_.constant_index.try_emplace(v, static_cast<int>(w_.constants.size()));
    if (added) w_.constants.push_back(v);
    return it->second;
  }

  bool lookup(const std::string& name, Binding& out) const {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      for (auto it = s->rbegin(); it != s->rend(); ++it) {
        if (it->first == name) {
          out.to = Binding::To::Local;
          out.index = it->second;
          return true;
        }
      }
    }
    if (broken(name)) return false;
    if (auto it = w_.names.find(name); it != w_.names.end()) {
      out = it->second;
      return true;
    }
    for (int i = 0; i < static_cast<int>(Builtin::Count_); ++i) {
      if (kBuiltins[i].name == name) {
        out.to = Binding::To::Builtin;
        out.index = i;
        return true;
      }
    }
    if (name == "N" || name == "P" || name == "D") {
      out.to = Binding::To::Constant;
      out.index = constant(Value::outcome(name[0]));
      return true;
    }
    return false;
  }

  void name(Expr& e, const GameEntry* graph = nullptr, bool callee = false) {
    if (lookup(e.text, e.binding)) {
      if (in_top_level_ && e.binding.to == Binding::To::Global &&
          std::find(own_lets_.begin(), own_lets_.end(), e.binding.index) != own_lets_.end() &&
          std::find(visible_lets_.begin(), visible_lets_.end(), e.binding.index) == visible_lets_.end() &&
          !w_.globals[static_cast<std::size_t>(e.binding.index)].assigned) {
        const GlobalEntry& g = w_.globals[static_cast<std::size_t>(e.binding.index)];
        d_.error(e.where, "'" + e.text + "' is used before its let",
                 "move `let " + g.name + " = ...` above this line");
      }
      return;
    }
    if (graph) {
      const Value label = Value::string(e.text);
      if (graph->label_index.contains(label)) {
        e.binding.to = Binding::To::Label;
        e.binding.index = constant(label);
        return;
      }
    }
    if (broken(e.text)) return;
    std::string what = "name";
    if (callee) what = std::isupper(static_cast<unsigned char>(e.text[0])) ? "game" : "function";
    std::string hint = suggestion(e.text);
    if (hint.empty()) hint = stdlib_hint(e.text);
    d_.error(e.where, "unknown " + what + " '" + e.text + "'", hint);
  }

  const GameEntry* game_named(const Expr& e) {
    if (e.kind != ExprKind::Name) return nullptr;
    Binding b;
    if (!lookup(e.text, b) || b.to != Binding::To::Game) return nullptr;
    return &w_.games[static_cast<std::size_t>(b.index)];
  }

  // Names bound together (parameters, a state tuple, a for's tuple) each name one value:
  // in `def f(x, x)` the second x would hide the first. The error is at the second.
  // `what` ends the message: "'x' is already " + what.
  void check_distinct(const std::vector<std::string>& names, const std::vector<Where>& wheres,
                      const std::string& what, const std::string& hint) {
    for (std::size_t i = 1; i < names.size() && i < wheres.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (names[i] != names[j]) continue;
        d_.error(wheres[i], "'" + names[i] + "' is already " + what, hint);
        break;
      }
    }
  }

  // ---- expressions ----
  void clauses(std::vector<Clause>& cs) {
    for (Clause& c : cs) {
      expr(*c.expr);
      if (c.kind == Clause::Kind::For) {
        check_distinct(c.names, c.name_wheres, "a name of this 'for'",
                       "each part of the tuple needs its own name, e.g. for (x, y) in pairs");
        c.slots.clear();
        for (const std::string& n : c.names) c.slots.push_back(declare_local(n));
      }
    }
  }

  void check_arity(const Expr& call, const GameEntry& g) {
    const int got = static_cast<int>(call.args.size()) - 1;
    if (g.state_arity < 0 || got == g.state_arity) return;
    std::string shape =
        g.decl && g.decl->form == GameDecl::Form::Rules ? describe_state(*g.decl) : "one value";
    d_.error(call.where,
             g.name + " takes " + plural(g.state_arity, "value") + " (its " + shape + "), got " +
                 std::to_string(got),
             g.state_arity == 1
                 ? "write " + g.name + "(x)"
                 : "write " + g.name + "(" + std::string(g.state_arity == 2 ? "a, b" : "a, b, ...") + ")");
  }

  void call(Expr& e) {
    Expr& callee = *e.args[0];
    const GameEntry* game = nullptr;
    bool params_missing = false;
    if (callee.kind == ExprKind::Name) {
      name(callee, nullptr, true);
      if (callee.binding.to == Binding::To::Game) {
        game = &w_.games[static_cast<std::size_t>(callee.binding.index)];
        if (game->param_count > 0) {
          d_.error(callee.where,
                   game->name + " takes " + plural(game->param_count, "parameter") +
                       " in brackets before its state",
                   "write " + game->name + "[...](...), e.g. Bash[3](10)");
          params_missing = true;  // the count of values is then no news
        }
      } else if (callee.binding.to == Binding::To::Def) {
        const DefDecl& d = *w_.defs[static_cast<std::size_t>(callee.binding.index)].decl;
        const int got = static_cast<int>(e.args.size()) - 1;
        if (got != static_cast<int>(d.params.size()) || !e.clauses.empty()) {
          d_.error(e.where, "function " + d.name + " takes " +
                                plural(static_cast<int>(d.params.size()), "argument") + ", got " +
                                std::to_string(got));
        }
      } else if (callee.binding.to == Binding::To::Builtin) {
        const BuiltinInfo& b = kBuiltins[callee.binding.index];
        const int got = static_cast<int>(e.args.size()) - 1;  // a generator is one argument
        if (got < b.min_args || (b.max_args >= 0 && got > b.max_args)) {
          // What the count should be, said from the side it missed: period takes 1 or 2,
          // min at least 1, update 3.
          std::string takes;
          if (b.min_args == b.max_args) takes = plural(b.min_args, "argument");
          else if (b.max_args == b.min_args + 1)
            takes = std::to_string(b.min_args) + " or " + plural(b.max_args, "argument");
          else if (got < b.min_args) takes = "at least " + plural(b.min_args, "argument");
          else takes = "at most " + plural(b.max_args, "argument");
          d_.error(e.where, std::string(b.name) + " takes " + takes + ", got " + std::to_string(got),
                   "usage: " + std::string(b.signature));
        }
        const auto which = static_cast<Builtin>(callee.binding.index);
        if (which == Builtin::Table && e.clauses.empty()) {
          d_.error(e.where, "table needs a generator",
                   "write table(EXPR for x in A) or table(EXPR for a in A for b in B)");
        }
        if (which == Builtin::Plot && (e.clauses.empty() || e.args.size() != 3)) {
          d_.error(e.where, "plot needs a file and a generator",
                   "write plot(\"seq.svg\", EXPR for n in A..B) or plot(\"grid.png\", EXPR for a in A for b in B)");
        } else if (which != Builtin::Plot && !e.clauses.empty() && e.args.size() > 2) {
          d_.error(e.args[2]->where, "a generator must be the only argument of " + std::string(b.name),
                   "write " + std::string(b.name) + "(EXPR for x in A); only plot takes one after a file");
        }
      }
    } else if (callee.kind == ExprKind::Index && (game = game_named(*callee.args[0]))) {
      index(callee);
    } else {
      expr(callee);
    }
    if (game && !e.clauses.empty()) {
      d_.error(e.where, "a position takes values, not a generator");
    }
    if (game && !params_missing) check_arity(e, *game);
    // A generator binds its names for the last argument alone: plot's file is outside it.
    std::size_t first = 1;
    if (!e.clauses.empty()) {
      for (; first + 1 < e.args.size(); ++first) expr(*e.args[first]);
    }
    push_scope();
    clauses(e.clauses);
    for (std::size_t i = first; i < e.args.size(); ++i) {
      Expr& a = *e.args[i];
      if (game && !game->labels.empty() && a.kind == ExprKind::Name) {
        name(a, game);
      } else {
        expr(a);
      }
    }
    pop_scope();
  }

  void index(Expr& e) {
    if (const GameEntry* g = game_named(*e.args[0])) {
      name(*e.args[0]);
      const int got = static_cast<int>(e.args.size()) - 1;
      if (g->param_count == 0) {
        d_.error(e.where, g->name + " has no parameters", "write " + g->name + "(...) for a position");
      } else if (got != g->param_count) {
        d_.error(e.where,
                 g->name + " takes " + plural(g->param_count, "parameter") + ", got " + std::to_string(got));
      }
      for (std::size_t i = 1; i < e.args.size(); ++i) expr(*e.args[i]);
      return;
    }
    if (e.args.size() != 2 || !e.clauses.empty()) {
      d_.error(e.where, "indexing takes one index, e.g. xs[0]");
    }
    for (auto& a : e.args) expr(*a);
  }

  void expr(Expr& e) {
    switch (e.kind) {
      case ExprKind::Int:
      case ExprKind::Str:
      case ExprKind::Bool: return;
      case ExprKind::Name:
        name(e);
        if (e.binding.to == Binding::To::Game) {
          const GameEntry& g = w_.games[static_cast<std::size_t>(e.binding.index)];
          if (g.param_count > 0) {
            d_.error(e.where, g.name + " takes parameters", "write " + g.name + "[...] for an instance");
          }
        } else if (e.binding.to == Binding::To::Def || e.binding.to == Binding::To::Builtin) {
          d_.error(e.where, "'" + e.text + "' is a function: call it", "write " + e.text + "(...)");
        }
        return;
      case ExprKind::Call: call(e); return;
      case ExprKind::Index: index(e); return;
      case ExprKind::List:
      case ExprKind::Set:
      case ExprKind::Tuple:
        push_scope();
        clauses(e.clauses);
        for (auto& a : e.args) expr(*a);
        pop_scope();
        return;
      default:
        for (auto& a : e.args) expr(*a);
        return;
    }
  }

  // A move to an arithmetic value cannot fit a tuple state, and a tuple cannot fit `state n`.
  void check_shape(const Expr& e, int arity) {
    if (e.kind == ExprKind::Tuple && static_cast<int>(e.args.size()) != arity && arity != 1) {
      d_.error(e.where, "this state has " + plural(static_cast<int>(e.args.size()), "value") +
                            ", but the game's state pattern has " + std::to_string(arity));
    } else if (arity > 1 && (e.kind == ExprKind::Int || (e.kind == ExprKind::Binary && e.op != BinOp::Add))) {
      d_.error(e.where,
               "a state of this game has " + plural(arity, "value") + ": write a tuple such as (a, b)");
    }
  }

  // A move (or a split part) that is the state itself, or n - k / n + k with k starting
  // from 0, leads back to the same position: the rules loop, and this can be seen now.
  void check_loop(const GameItem& it, const GameItem& state) {
    for (const Clause& c : it.clauses) {
      if (c.kind == Clause::Kind::If) return;  // a condition may rule the binding out
    }
    auto is_state = [&](const Expr& x, std::size_t i) {
      return i < state.slots.size() && x.kind == ExprKind::Name && x.binding.to == Binding::To::Local &&
             x.binding.index == state.slots[i];
    };
    const char* what = it.kind == GameItem::Kind::Move ? "this move" : "this part of the split";
    for (const ExprPtr& part : it.exprs) {
      const Expr& e = *part;
      bool same = false;
      if (!state.tuple_pattern) {
        same = is_state(e, 0);
      } else if (e.kind == ExprKind::Tuple && e.args.size() == state.slots.size()) {
        same = true;
        for (std::size_t i = 0; i < e.args.size(); ++i) same = same && is_state(*e.args[i], i);
      }
      if (same) {
        d_.error(e.where, std::string(what) + " is the state itself: the rules loop",
                 "every move must change the state, e.g. move n - 1, or the game never ends");
        continue;
      }
      // n - k or n + k, k bound by a `for` over 0..b or a literal collection holding 0.
      if (state.tuple_pattern || e.kind != ExprKind::Binary || (e.op != BinOp::Sub && e.op != BinOp::Add) ||
          !is_state(*e.args[0], 0) || e.args[1]->kind != ExprKind::Name ||
          e.args[1]->binding.to != Binding::To::Local) {
        continue;
      }
      for (const Clause& c : it.clauses) {
        if (c.slots.size() != 1 || c.slots[0] != e.args[1]->binding.index) continue;
        const Expr* zero = nullptr;
        const Expr& coll = *c.expr;
        if (coll.kind == ExprKind::Range && coll.args[0]->kind == ExprKind::Int && coll.args[0]->ival == 0) {
          zero = coll.args[0].get();
        } else if ((coll.kind == ExprKind::Set || coll.kind == ExprKind::List) && coll.clauses.empty()) {
          for (const ExprPtr& x : coll.args) {
            if (x->kind == ExprKind::Int && x->ival == 0) zero = x.get();
          }
        }
        if (zero) {
          const std::string k = c.names[0];
          d_.error(zero->where,
                   "with " + k + " = 0, " + what + " is " + state.names[0] + " " + e.text +
                       " 0 = " + state.names[0] + ", the state itself: the rules loop",
                   coll.kind == ExprKind::Range ? "start the range at 1: for " + k + " in 1..."
                                                : "leave 0 out: every move must change the state");
        }
      }
    }
  }

  // The game an alias names: `game A = B` or `game A = B[...]`; null for anything else.
  const GameDecl* aliased(const GameDecl& g) const {
    const Expr* e = g.expr.get();
    if (e->kind == ExprKind::Index) e = e->args[0].get();
    if (e->kind != ExprKind::Name || e->binding.to != Binding::To::Game) return nullptr;
    return w_.games[static_cast<std::size_t>(e->binding.index)].decl;
  }

  // `game A = A`, or A = B and B = A, or a ring of any length: each names the next for ever.
  // Looked for once the program is resolved, each alias walked once, and reported at the
  // ring's last alias in the file, the one that closes it.
  void check_alias_rings() {
    absl::flat_hash_set<const GameDecl*> done;
    for (const Stmt& s : prog_.stmts) {
      if (s.kind != Stmt::Kind::Game || s.game->form != GameDecl::Form::Alias) continue;
      std::vector<const GameDecl*> path;
      absl::flat_hash_map<const GameDecl*, std::size_t> on_path;
      for (const GameDecl* at = s.game.get(); at && at->form == GameDecl::Form::Alias && !done.contains(at);
           at = aliased(*at)) {
        if (auto it = on_path.find(at); it != on_path.end()) {
          report_ring(std::vector<const GameDecl*>(path.begin() + static_cast<std::ptrdiff_t>(it->second),
                                                   path.end()));
          break;
        }
        on_path.emplace(at, path.size());
        path.push_back(at);
      }
      done.insert(path.begin(), path.end());
    }
  }
  void report_ring(const std::vector<const GameDecl*>& ring) {
    const GameDecl* last = ring[0];
    for (const GameDecl* d : ring) {
      const bool here = d->where.file == prog_.file, last_here = last->where.file == prog_.file;
      if ((here && !last_here) || (here == last_here && d->where.offset > last->where.offset)) last = d;
    }
    // A long ring shows its first steps and its count; every name would bury the message.
    constexpr std::size_t kShown = 6;
    std::string path = last->name;
    const GameDecl* at = last;
    for (std::size_t step = 1; step <= ring.size(); ++step) {
      at = aliased(*at);
      if (step < kShown || step == ring.size()) path += " = " + at->name;
      if (step == kShown && ring.size() > kShown) path += " = ...";
    }
    if (ring.size() > kShown) path += " (a ring of " + std::to_string(ring.size()) + " aliases)";
    d_.error(last->expr->where, "game " + last->name + " is defined by itself: " + path,
             "an alias names an instance of another game, e.g. game B3 = Bash[3]");
  }

  // ---- definitions ----
  // `game G = "0.77"`, `game G = 3`: what can never be a game is a compile error, as
  // `grundy check` should say; names, calls and conditionals are looked at when run.
  void check_alias_form(const GameDecl& g) {
    const Expr& e = *g.expr;
    const char* what = nullptr;
    switch (e.kind) {
      case ExprKind::Int: what = "an integer"; break;
      case ExprKind::Str: what = "a string"; break;
      case ExprKind::Bool: what = "a boolean"; break;
      case ExprKind::Range: what = "a range"; break;
      case ExprKind::Tuple: what = "a tuple"; break;
      case ExprKind::List: what = "a list"; break;
      case ExprKind::Set: what = "a set"; break;
      case ExprKind::Unary:
      case ExprKind::Binary: what = "the result of an operator"; break;
      default: return;
    }
    d_.error(e.where, "game " + g.name + " = ... needs a game, got " + what,
             e.kind == ExprKind::Str ? "an octal code is written game " + g.name + " = octal \"" + e.text + "\""
                                     : std::string("e.g. game B3 = Bash[3]"));
  }

  void game(GameDecl& g) {
    begin_frame();
    check_distinct(g.params, g.param_wheres, "a parameter of " + g.name,
                   "each parameter needs its own name, e.g. game G(a, b)");
    for (const std::string& p : g.params) declare_local(p);
    switch (g.form) {
      case GameDecl::Form::Rules: break;
      case GameDecl::Form::Subtraction:
      case GameDecl::Form::Alias:
        expr(*g.expr);
        g.frame_size = max_slot_;
        if (g.form == GameDecl::Form::Alias) check_alias_form(g);
        return;
      case GameDecl::Form::Octal:
      case GameDecl::Form::Graph: return;
    }
    GameItem* state = nullptr;
    for (GameItem& it : g.items) {
      if (it.kind == GameItem::Kind::State) {
        state = &it;
        break;
      }
    }
    const int arity = state && state->tuple_pattern ? static_cast<int>(state->names.size()) : 1;
    g.state_arity = arity;
    bool have_state = false;
    const GameItem* formula = nullptr;
    if (state) {
      check_distinct(state->names, state->name_wheres, "a name of this state",
                     "each value of the state needs its own name, e.g. state (a, b)");
      for (std::size_t i = 0; i < state->names.size() && i < state->name_wheres.size(); ++i) {
        if (std::find(g.params.begin(), g.params.end(), state->names[i]) != g.params.end()) {
          d_.error(state->name_wheres[i], "'" + state->names[i] + "' is already a parameter of " + g.name,
                   "the state would hide the parameter: give it another name");
        }
      }
    }
    auto declare_state = [&] {
      have_state = true;
      state->slots.clear();
      for (const std::string& n : state->names) state->slots.push_back(declare_local(n));
    };
    for (GameItem& it : g.items) {
      if (it.kind == GameItem::Kind::State) {
        if (&it != state) {
          d_.error(it.where, "game " + g.name + " declares its state twice",
                   "a game has one state pattern; for several values write state (a, b)");
        } else if (!have_state) {
          declare_state();
          clauses(it.clauses);  // the guard `state n if n >= 0` sees the state and parameters
        }
        continue;
      }
      if (!have_state && state) {
        d_.error(it.where, "the state must be declared before the rules",
                 "start the game with `state n` (or `state (a, b)`)");
        declare_state();  // the rules' names still resolve: one error, not a cascade
      }
      if (it.kind == GameItem::Kind::Let) {
        expr(*it.exprs[0]);
        it.slots = {declare_local(it.names[0])};
        continue;
      }
      if (it.kind == GameItem::Kind::Formula) {
        if (formula) {
          d_.error(it.where, "game " + g.name + " has a second value rule",
                   "a state has one nim-value: keep one `value` rule");
        }
        formula = &it;
        expr(*it.exprs[0]);
        continue;
      }
      push_scope();
      clauses(it.clauses);
      for (auto& e : it.exprs) {
        expr(*e);
        if (!it.spread) check_shape(*e, arity);
      }
      if (g.loopy && it.kind == GameItem::Kind::Split) {
        d_.error(it.where, "a loopy game may not split: " + g.name + " is loopy",
                 "the value of a split is a sum of values known only once the game is labelled; "
                 "write the parts as a move of a tuple state, or drop `loopy`");
      }
      if (state && !g.loopy) check_loop(it, *state);  // a loopy game may come back: a draw
      pop_scope();
    }
    if (!state) {
      d_.error(g.where, "game " + g.name + " has no state",
               "add `state n` (one value) or `state (a, b)` (a tuple) to its rules");
    }
    g.frame_size = max_slot_;
  }

  void def(DefDecl& d) {
    begin_frame();
    check_distinct(d.params, d.param_wheres, "a parameter of " + d.name,
                   "each parameter needs its own name, e.g. def f(a, b)");
    for (const std::string& p : d.params) declare_local(p);
    expr(*d.body);
    d.frame_size = max_slot_;
  }

  World& w_;
  Program& prog_;
  Diagnostics& d_;
  std::vector<std::vector<std::pair<std::string, int>>> scopes_;
  int next_slot_ = 0;
  int max_slot_ = 0;
  bool in_top_level_ = false;
  std::vector<int> visible_lets_;
  std::vector<int> own_lets_;  // globals this program's lets bind
};

}  // namespace

void resolve(World& w, Program& program, Diagnostics& diags) { Resolver(w, program, diags).run(); }

}  // namespace grundy::lang
