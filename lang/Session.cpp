// The pipeline, as jlox's run(): parse -> (imports) -> declare -> resolve -> compile -> run,
// stopping after any phase that reported an error.
#include "lang/Session.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "lang/BuiltinTable.hpp"
#include "lang/Diagnostics.hpp"
#include "lang/Games.hpp"
#include "lang/Interpreter.hpp"
#include "lang/KnownGames.hpp"
#include "lang/Lower.hpp"
#include "lang/Parser.hpp"
#include "lang/Resolver.hpp"
#include "lang/RuleGame.hpp"
#include "lang/Shortcuts.hpp"
#include "lang/Statements.hpp"
#include "lang/Suggest.hpp"
#include "runtime/Cycle.hpp"
#include "runtime/Probe.hpp"
#include "runtime/Shorthands.hpp"
#include "runtime/Show.hpp"
#include "stdlib/Stdlib.hpp"

namespace grundy {

using namespace lang;
namespace fs = std::filesystem;

struct Session::Impl {
  Impl(std::ostream& o, std::ostream& e, SessionOptions opts)
      : out(o), err(e), options(opts), diags(world.sources, e), machine(world), games(world, machine) {
    world.limits = opts.limits;
    world.max_depth = opts.max_depth;
    world.maker = &games;
  }

  std::ostream& out;
  std::ostream& err;
  SessionOptions options;
  World world;
  Diagnostics diags;
  Interpreter machine;
  Games games;

  // ---- loading ----

  Program& parse(int file, std::uint32_t from = 0) {
    world.programs.push_back(parse_program(world.sources, file, diags, from));
    return world.programs.back();
  }

  // The files being loaded, the file run first, then each import inside the one before:
  // an import of one of them is a cycle.
  struct Loading {
    std::string key;   // as world.loaded keeps it; empty for text that is not a file
    std::string name;  // as diagnostics name the file
  };
  std::vector<Loading> importing;

  // An import of a file that is being loaded: a.game -> b.game -> a.game.
  bool import_cycle(const Stmt& s, const std::string& key) {
    const auto first =
        std::find_if(importing.begin(), importing.end(), [&](const Loading& l) { return l.key == key; });
    if (first == importing.end()) return false;
    std::string chain;
    for (auto it = first; it != importing.end(); ++it) chain += it->name + " -> ";
    chain += first->name;
    diags.error(s.where, "import cycle: " + chain,
                "files may not import each other in a circle: move what they share into a file "
                "that each of them imports");
    return true;
  }

  // Imports of `p`, depth first, so that a module comes before the files that use it.
  void load_imports(Program& p, std::vector<Program*>& batch) {
    const SourceFile& from = world.sources.file(p.file);
    for (const Stmt& s : p.stmts) {
      if (s.kind != Stmt::Kind::Import) continue;
      std::string key, name, dir, text;
      if (s.import_path) {
        fs::path path = fs::path(s.name).is_absolute() ? fs::path(s.name) : fs::path(from.dir) / s.name;
        std::error_code ec;
        fs::path canon = fs::weakly_canonical(path, ec);
        key = (ec ? path : canon).string();
        if (import_cycle(s, key) || already_loaded(key)) continue;
        // Only regular files: a FIFO or a device (/dev/zero, /dev/stdin) would block or never
        // end. Why a file cannot be read is said as `grundy run` says it.
        std::string why, hint;
        std::ifstream in;
        if (fs::is_directory(path, ec)) {
          why = "it is a directory, not a .game file";
        } else if (!fs::exists(path, ec)) {
          why = std::strerror(ENOENT);
          hint = "imports are relative to the importing file: looked for " + path.string();
        } else if (!fs::is_regular_file(path, ec)) {
          why = "not a regular file (a FIFO or a device is not read)";
        } else {
          in.open(path, std::ios::binary);
          if (!in) why = std::strerror(errno);
        }
        if (!why.empty()) {
          diags.error(s.where, "cannot open '" + s.name + "': " + why, hint);
          continue;
        }
        std::ostringstream buf;
        buf << in.rdbuf();
        text = buf.str();
        name = path.lexically_normal().string();
        dir = path.parent_path().string();
      } else {
        const std::string_view* module = stdlib::find_module(s.name);
        if (!module) {
          std::string names;
          std::vector<std::string_view> modules;
          for (std::string_view m : stdlib::module_names()) {
            names += (names.empty() ? "" : ", ") + std::string(m);
            modules.push_back(m);
          }
          const std::string close = did_you_mean(s.name, modules);
          diags.error(s.where, "unknown module '" + s.name + "'",
                      !close.empty() ? close
                                     : "the standard modules are " + names + "; for a file write import \"" +
                                           s.name + ".game\"");
          continue;
        }
        key = "stdlib:" + s.name;
        if (import_cycle(s, key) || already_loaded(key)) continue;
        text = std::string(*module);
        name = "<stdlib>/" + s.name + ".game";
      }
      world.loaded.push_back(key);
      Program& imported = parse(world.sources.add(name, dir, std::move(text)));
      importing.push_back({key, name});
      load_imports(imported, batch);
      importing.pop_back();
      batch.push_back(&imported);
    }
  }

  bool already_loaded(const std::string& key) const {
    return std::find(world.loaded.begin(), world.loaded.end(), key) != world.loaded.end();
  }

  // ---- compiling ----

  // grundy check: a game of the file whose small states lead to a loop is reported, with
  // the cycle, at its name, as the first query of it would report it; a value rule that
  // disagrees with the mex of the options on a small state, at the rule. Games with
  // parameters are not looked at (their instances are known only at run time). True when
  // something is wrong.
  bool probe_loops(const Program& p) {
    const Limits saved = world.limits;
    world.limits.max_steps = 2'000'000;  // a probe, not a run: a state with 10^12 options stops it
    world.limits.max_memory = std::min<std::uint64_t>(saved.max_memory, std::uint64_t{256} << 20);
    bool found = false;
    for (const Stmt& st : p.stmts) {
      if (st.kind != Stmt::Kind::Game || st.game->form != GameDecl::Form::Rules || !st.game->params.empty())
        continue;
      const auto at = world.names.find(st.game->name);
      if (at == world.names.end() || at->second.to != Binding::To::Game) continue;
      GameEntry& entry = world.games[static_cast<std::size_t>(at->second.index)];
      std::vector<Position> cycle;
      std::string wrong_value;
      try {
        world.limits.steps = 0;
        const GameInstance* g = machine.instance(entry, {}, st.game->where);
        cycle = probe_loop(*g, std::max(st.game->state_arity, 1));
        if (cycle.empty() && g->rules().has_formula()) {
          world.limits.steps = 0;
          wrong_value = probe_formula(machine.evaluator(), *g, std::max(st.game->state_arity, 1));
        }
      } catch (const Error& e) {
        if (e.kind == ErrorKind::Interrupted) throw;
        continue;  // the probe met a limit of its own: nothing seen
      }
      if (!cycle.empty()) {
        diags.error(st.game->where, "the rules loop: " + describe_cycle(cycle),
                    "a game must end: every sequence of moves has to reach a position with no options "
                    "(grundy check tried the states from 0 up)");
        found = true;
      } else if (!wrong_value.empty()) {
        const auto formula =
            std::find_if(st.game->items.begin(), st.game->items.end(),
                         [](const GameItem& it) { return it.kind == GameItem::Kind::Formula; });
        diags.error(formula->where, "the value rule is wrong at " + wrong_value,
                    "a state's nim-value is the mex of its options' values, and grundy check compares them "
                    "on the states from 0 up; if that state is not a position of the game, let its rules "
                    "give it no options");
        found = true;
      }
    }
    world.limits = saved;
    forget_memos();
    diags.flush();
    return found;
  }

  // ---- running ----

  // A runtime error of a statement: `fallback` is where the statement (or the expression
  // play started from) begins, `expr` the expression it ran. An error inside the rules of a
  // game or the body of a function defined in another file (the standard library, an
  // import) is followed by a note at the use in the user's statement that led there.
  void report(const Error& e, Where fallback, const Expr* expr) {
    const Where where = e.where.known() ? e.where : fallback;
    const bool elsewhere = where.known() && fallback.known() && where.file != fallback.file;
    std::string hint = e.hint;
    const std::string& file = where.known() ? world.sources.file(where.file).name : std::string();
    constexpr std::string_view kStdlib = "<stdlib>/";
    if (elsewhere && file.rfind(kStdlib, 0) == 0) {
      // Advice on how to write the rules shown would be advice to edit the standard library.
      hint = "this is inside the standard library: look at the values given to it (the note below)";
    }
    diags.error(where, e.what(), hint);
    if (!elsewhere) return;
    std::string what;
    const Expr* use = foreign_use(expr, fallback.file, what);
    diags.note(use ? use->where : fallback, use ? what : "while running this statement");
  }

  // The first name in `e` of a game or function defined in a file other than `file`; `what`
  // says which it is.
  const Expr* foreign_use(const Expr* e, int file, std::string& what) const {
    if (!e) return nullptr;
    if (e->kind == ExprKind::Name) {
      const auto i = static_cast<std::size_t>(e->binding.index);
      if (e->binding.to == Binding::To::Game && i < world.games.size()) {
        const GameDecl* d = world.games[i].decl;
        if (d && d->where.file != file) {
          what = "in the rules of " + d->name + ", used here";
          return e;
        }
      } else if (e->binding.to == Binding::To::Def && i < world.defs.size()) {
        const DefDecl* d = world.defs[i].decl;
        if (d && d->where.file != file) {
          what = "in the function " + d->name + ", called here";
          return e;
        }
      }
    }
    for (const ExprPtr& a : e->args) {
      if (const Expr* u = foreign_use(a.get(), file, what)) return u;
    }
    for (const Clause& c : e->clauses) {
      if (const Expr* u = foreign_use(c.expr.get(), file, what)) return u;
    }
    return nullptr;
  }

  // Standard output failed (a full disk, /dev/full): what was printed is lost, so the run
  // stops with an I/O error rather than exit 0.
  int output_failed(int error_number) {
    err << "error: cannot write the output";
    if (error_number != 0) err << ": " << std::strerror(error_number);
    err << '\n';
    err.flush();
    return kExitIo;
  }

  // Returns an exit code.
  int run_program(Program& p, bool main) {
    for (Stmt& s : p.stmts) {
      if (!main && (s.kind == Stmt::Kind::Expr || s.kind == Stmt::Kind::Assert)) continue;
      try {
        Frame frame(static_cast<std::size_t>(s.frame_size));
        machine.begin_statement();  // --max-steps counts per statement
        switch (s.kind) {
          case Stmt::Kind::Let: {
            GlobalEntry& g = world.globals[static_cast<std::size_t>(s.global)];
            Value v = machine.eval(*s.expr, frame);
            // Rules and functions read lets when they run: binding one again to a new value
            // makes what they memoized stale.
            const bool stale = g.assigned && v != g.value && rules_use(s.global);
            g.value = std::move(v);
            g.assigned = true;
            g.where = s.where;  // :def shows the latest binding
            if (stale) forget_memos();
            break;
          }
          case Stmt::Kind::Assert:
            if (!machine.condition(*s.expr, frame, "the condition of `assert`")) {
              assertion_failed(s, frame);
              return kExitAssert;
            }
            break;
          case Stmt::Kind::Expr: {
            Value v = machine.eval(*s.expr, frame);
            out << (v.is(Kind::Str) ? v.as_str() : to_string(v)) << '\n';
            // Each statement's output goes out when it is complete, also into a pipe or a
            // file (where output is buffered): a later statement that runs long, or is
            // killed, does not take it down with it. One flush per statement, not per line.
            errno = 0;
            if (!out.flush()) return output_failed(errno);
            break;
          }
          default: break;
        }
      } catch (const Error& e) {
        out.flush();
        if (e.kind == ErrorKind::Interrupted && options.rethrow_interrupts) throw;
        report(e, s.where, s.expr.get());
        diags.flush();
        return kExitRuntime;
      } catch (const std::bad_alloc&) {
        out.flush();
        diags.error(s.where, "out of memory",
                    "the computation needs more memory than there is; lower the limits, e.g. "
                    "--max-memory MB or --max-states N, to stop earlier with a message");
        diags.flush();
        return kExitRuntime;
      } catch (const std::exception& e) {
        out.flush();
        diags.error(s.where, std::string("internal error: ") + e.what(),
                    "this is a bug in grundy; please report it with this program");
        diags.flush();
        return kExitRuntime;
      }
    }
    errno = 0;
    if (!out.flush()) return output_failed(errno);
    return kExitOk;
  }

  void assertion_failed(const Stmt& s, Frame& frame) {
    out.flush();
    const Expr& e = *s.expr;
    std::string detail;
    if (e.kind == ExprKind::Binary && (e.op == BinOp::Eq || e.op == BinOp::Ne || e.op == BinOp::Lt ||
                                       e.op == BinOp::Le || e.op == BinOp::Gt || e.op == BinOp::Ge)) {
      try {
        std::string left = shown(machine.eval(*e.args[0], frame));
        std::string right = shown(machine.eval(*e.args[1], frame));
        detail = ": " + left + " " + e.text + " " + right + " is false";
      } catch (const Error&) {
        // Evaluating the sides again met a limit: report the failure without them.
      }
    }
    diags.error(s.expr->where, "assertion failed" + detail);
    diags.flush();
  }

  // `key` identifies the file run (its canonical path; empty for text that is not a file),
  // so that an import of it is seen as a cycle.
  int run(std::string text, const std::string& name, const std::string& dir, const std::string& key = {}) {
    diags.reset();
    importing.assign(1, Loading{key, name});
    const int file = world.sources.add(name, dir, std::move(text));
    std::vector<Program*> batch;
    Program* main = nullptr;
    Snapshot before = snapshot();
    bool redefined = false;
    try {
      main = &parse(file);
      load_imports(*main, batch);
      batch.push_back(main);
      check_duplicates(batch);
      for (Program* p : batch) declare(world, *p);
      redefined = take_old_places(before);
      for (Program* p : batch) resolve(world, *p, diags);
      for (Program* p : batch) lower_shortcuts(*p, world);
      games.compile(diags);
    } catch (const std::exception& e) {
      // A safety net: the front end reports problems as diagnostics and throws nothing else.
      diags.error(Where{file, 0}, std::string("internal error: ") + e.what(),
                  "this is a bug in grundy; please report it with this program");
      diags.flush();
      roll_back(before);
      return kExitCompile;
    }
    diags.flush();
    if (diags.count() > 0) {
      roll_back(before);
      return kExitCompile;
    }
    if (redefined) forget_memos();
    if (options.check_only) return probe_loops(*main) ? kExitCompile : kExitOk;
    for (Program* p : batch) {
      if (int code = run_program(*p, p == main)) return code;
    }
    return kExitOk;
  }

  // ---- redefinition (the REPL) ----
  // A batch may define again a name that an earlier batch defined. The new definition moves
  // into the slot of the one it replaces, so the rules and functions already resolved to
  // that slot use it (late binding, as at a Python prompt), and the memo tables are dropped.
  // A batch with a compile error is rolled back and changes nothing.

  struct Snapshot {
    absl::flat_hash_map<std::string, Binding> names;
    std::size_t games = 0, defs = 0, globals = 0;
    std::vector<std::string> loaded;
    std::vector<std::pair<std::size_t, GameEntry>> old_games;  // slots a redefinition took
    std::vector<std::pair<std::size_t, DefEntry>> old_defs;
  };

  Snapshot snapshot() const {
    return Snapshot{
        world.names, world.games.size(), world.defs.size(), world.globals.size(), world.loaded, {}, {}};
  }

  // One batch may not define a name twice, as one file may not; a later batch may.
  void check_duplicates(const std::vector<Program*>& batch) {
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

  // After declare(..., replace): moves each redefined game or function into its old slot.
  // Returns true when the batch redefined anything.
  bool take_old_places(Snapshot& before) {
    bool redefined = false;
    for (auto& [name, b] : world.names) {
      auto it = before.names.find(name);
      if (it == before.names.end()) continue;
      const Binding& old = it->second;
      if (b.to == old.to && b.index == old.index) continue;
      redefined = true;
      if (b.to != old.to) continue;  // a game that was a function: old uses keep the function
      const auto from = static_cast<std::size_t>(b.index);
      const auto to = static_cast<std::size_t>(old.index);
      if (b.to == Binding::To::Game) {
        before.old_games.emplace_back(to, std::move(world.games[to]));
        world.games[to] = std::move(world.games[from]);
        world.games[from] = GameEntry{};  // no decl: never compiled, never listed
      } else if (b.to == Binding::To::Def) {
        before.old_defs.emplace_back(to, std::move(world.defs[to]));
        world.defs[to] = std::move(world.defs[from]);
        world.defs[from] = DefEntry{};
      } else {
        continue;
      }
      b.index = old.index;
    }
    return redefined;
  }

  void roll_back(Snapshot& before) {
    world.names = std::move(before.names);
    for (auto& [slot, entry] : before.old_games) world.games[slot] = std::move(entry);
    for (auto& [slot, entry] : before.old_defs) world.defs[slot] = std::move(entry);
    world.games.resize(before.games);
    world.defs.resize(before.defs);
    world.globals.resize(before.globals);
    world.loaded = std::move(before.loaded);
  }

  // Drops every memo table; returns how many positions they held.
  std::uint64_t clear_memos() {
    const std::uint64_t held = world.registry.states;
    world.registry.clear_memos();
    for (DefEntry& d : world.defs) d.memo.clear();
    machine.misere().clear();
    machine.every().clear();
    return held;
  }

  // After a redefinition: the memos, and the shorthands whose set or instance is an
  // expression (evaluated again on their next use).
  void forget_memos() {
    clear_memos();
    for (GameEntry& g : world.games) {
      if (!g.decl) continue;
      if (g.decl->form == GameDecl::Form::Subtraction || g.decl->form == GameDecl::Form::Alias) {
        g.rules.reset();
        g.alias = nullptr;
      } else if (g.shapes) {
        // What the plans read of top-level lets (a set, a bound) may have changed.
        world.registry.replan(g.rules.get(),
                              [&](const GameInstance& inst) { return lower(g, inst, machine); });
      }
    }
  }

  static bool mentions(const Expr* e, int global) {
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
  bool rules_use(int global) const {
    for (const GameEntry& g : world.games) {
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
    for (const DefEntry& d : world.defs) {
      if (d.decl && mentions(d.decl->body.get(), global)) return true;
    }
    return false;
  }

  // ---- the REPL's commands and play mode ----

  Where query_where;  // the expression play started from: errors of its queries point there
  const Expr* query_expr = nullptr;

  std::optional<Value> evaluate(std::string text, const std::string& name, std::uint32_t from, int& failure) {
    diags.reset();
    const int file = world.sources.add(name, fs::current_path().string(), std::move(text));
    Program& p = parse(file, from);
    if (diags.count() == 0 && (p.stmts.size() != 1 || p.stmts[0].kind != Stmt::Kind::Expr)) {
      diags.error(p.stmts.size() > 1 ? p.stmts[1].where
                  : p.stmts.empty()  ? Where{file, from}
                                     : p.stmts[0].where,
                  "expected one expression here", "e.g. Nim(3) + Nim(5)");
    }
    if (diags.count() == 0) resolve(world, p, diags);
    if (diags.count() == 0) lower_shortcuts(p, world);
    diags.flush();
    failure = kExitCompile;
    if (diags.count() > 0) return std::nullopt;
    failure = kExitRuntime;
    const Stmt& s = p.stmts[0];
    Frame frame(static_cast<std::size_t>(s.frame_size));
    try {
      machine.begin_statement();
      Value v = machine.eval(*s.expr, frame);
      query_where = s.expr->where;
      query_expr = s.expr.get();
      failure = 0;
      return v;
    } catch (const Error& e) {
      if (e.kind == ErrorKind::Interrupted && options.rethrow_interrupts) throw;
      report(e, s.where, s.expr.get());
      diags.flush();
      return std::nullopt;
    }
  }

  // Runs a query builtin on a value, as if `query(x)` had been written where play started.
  Value query(Builtin which, const Value& x) {
    machine.begin_statement();
    BuiltinCall c{machine, which, nullptr, nullptr, {x}, query_where, query_where};
    try {
      return kBuiltins[static_cast<int>(which)].fn(c);
    } catch (Error& err) {
      if (!err.where.known()) err.where = query_where;
      throw;
    }
  }

  // The text of the statement at `w`, with the comment lines just above it.
  std::string statement_text(Where w, bool comments = true) const {
    const SourceFile& f = world.sources.file(w.file);
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
  std::string shorthand_text(const GameDecl& d) const {
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
  std::string state_names(const GameEntry& g, int depth) const {
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
          const GameEntry& target = world.games[static_cast<std::size_t>(base->binding.index)];
          if (target.decl) return state_names(target, depth + 1);
        }
        return "...";
      }
    }
    return "...";
  }

  GameSummary summary(const GameEntry& g) const {
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
    const SourceFile& f = world.sources.file(d.where.file);
    constexpr std::string_view kStdlib = "<stdlib>/";
    if (f.name.rfind(kStdlib, 0) == 0) {
      std::string module = f.name.substr(kStdlib.size());
      if (module.size() > 5 && module.ends_with(".game")) module.resize(module.size() - 5);
      s.origin = "import " + module;
    } else if (!f.name.empty() && f.name[0] != '<') {
      s.origin = f.name + ":" + std::to_string(world.sources.locate(d.where).line);
    }
    return s;
  }

  bool live(const std::string& name, Binding::To to, std::size_t index) const {
    auto it = world.names.find(name);
    return it != world.names.end() && it->second.to == to &&
           static_cast<std::size_t>(it->second.index) == index;
  }
};

Session::Session(std::ostream& out, std::ostream& err, SessionOptions options)
    : impl_(std::make_unique<Impl>(out, err, options)) {}

Session::~Session() = default;

int Session::run_source(std::string_view text, const std::string& name) {
  return impl_->run(std::string(text), name, fs::current_path().string());
}

int Session::run_file(const std::string& path) {
  if (path == "-") {
    std::ostringstream buf;
    buf << std::cin.rdbuf();
    return impl_->run(buf.str(), "<stdin>", fs::current_path().string());
  }
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    impl_->err << "error: '" << path << "' is a directory, not a .game file\n";
    return kExitIo;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    impl_->err << "error: cannot open '" << path << "': " << std::strerror(errno) << '\n';
    return kExitIo;
  }
  std::ostringstream buf;
  buf << in.rdbuf();
  fs::path p(path);
  fs::path canon = fs::weakly_canonical(p, ec);
  return impl_->run(buf.str(), path, p.parent_path().string(), (ec ? p : canon).string());
}

// ---- for the REPL and play mode ----

std::vector<GameSummary> Session::games() const {
  std::vector<GameSummary> out;
  const World& w = impl_->world;
  for (std::size_t i = 0; i < w.games.size(); ++i) {
    const GameEntry& g = w.games[i];
    if (g.decl && impl_->live(g.name, Binding::To::Game, i)) out.push_back(impl_->summary(g));
  }
  return out;
}

std::optional<std::string> Session::definition(const std::string& name) const {
  const World& w = impl_->world;
  auto it = w.names.find(name);
  if (it == w.names.end()) {
    for (const BuiltinInfo& b : kBuiltins) {
      if (b.name == name) return "builtin " + std::string(b.signature);
    }
    if (name == "N" || name == "P")
      return name + ": a predefined outcome (N: the player to move wins, P: loses)";
    return std::nullopt;
  }
  const Binding& b = it->second;
  const auto i = static_cast<std::size_t>(b.index);
  switch (b.to) {
    case Binding::To::Game:
      if (w.games[i].decl) return impl_->statement_text(w.games[i].decl->where);
      break;
    case Binding::To::Def:
      if (w.defs[i].decl) return impl_->statement_text(w.defs[i].decl->where);
      break;
    case Binding::To::Global: return impl_->statement_text(w.globals[i].where);
    default: break;
  }
  return std::nullopt;
}

std::vector<std::string> Session::defined_names() const {
  std::vector<std::string> out;
  for (const auto& [name, b] : impl_->world.names) {
    if (b.to == Binding::To::Game || b.to == Binding::To::Def || b.to == Binding::To::Global) {
      out.push_back(name);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::uint64_t Session::clear_memos() { return impl_->clear_memos(); }

std::optional<Value> Session::evaluate(std::string_view text, const std::string& name, std::size_t from,
                                       int* failure) {
  int code = 0;
  std::optional<Value> v =
      impl_->evaluate(std::string(text), name, static_cast<std::uint32_t>(std::min(from, text.size())), code);
  if (failure) *failure = code;
  return v;
}

std::vector<Value> Session::options(const Value& x) { return impl_->query(Builtin::Options, x).items(); }

std::vector<Value> Session::winning(const Value& x) { return impl_->query(Builtin::Winning, x).items(); }

bool Session::wins(const Value& x) { return impl_->query(Builtin::Wins, x).as_bool(); }

std::string Session::value_note(const Value& x) {
  switch (x.modifier()) {
    case Modifier::Normal: return "nim-value " + to_string(impl_->query(Builtin::Grundy, x));
    case Modifier::Misere: return "outcome " + to_string(impl_->query(Builtin::Outcome, x));
    case Modifier::Every:
      return "steps " + to_string(impl_->query(Builtin::Steps, x)) + ", outcome " +
             to_string(impl_->query(Builtin::Outcome, x));
  }
  return {};
}

void Session::report(const Error& e) {
  impl_->out.flush();
  impl_->report(e, impl_->query_where, impl_->query_expr);
  impl_->diags.flush();
}

}  // namespace grundy
