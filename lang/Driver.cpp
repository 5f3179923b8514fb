// The pipeline, as jlox's run(): parse -> imports -> declare (duplicate names checked there)
// -> resolve -> lower -> run, stopping after any phase that reported an error.
#include "lang/Driver.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "lang/Json.hpp"
#include "lang/Resolver.hpp"
#include "lang/Shortcuts.hpp"
#include "lang/Table.hpp"
#include "runtime/Cycle.hpp"
#include "runtime/Probe.hpp"
#include "runtime/Show.hpp"

namespace grundy::lang {

namespace fs = std::filesystem;

Driver::Driver(std::ostream& o, std::ostream& e, SessionOptions opts)
    : out(o),
      err(e),
      options(opts),
      diags(world.sources, e, opts.format == SessionOptions::Format::Json),
      interp(world),
      games(world, interp),
      loader(world, diags),
      workspace(world, interp) {
  world.limits = opts.limits;
  world.table_cells = opts.format != SessionOptions::Format::Text || opts.on_value != nullptr;
  world.max_depth = opts.max_depth;
  world.maker = &games;
}

// grundy check: a game of the file whose small states lead to a loop is reported, with
// the cycle, at its name, as the first query of it would report it; a value rule that
// disagrees with the mex of the options on a small state, at the rule. Games with
// parameters are not looked at (their instances are known only at run time). True when
// something is wrong.
bool Driver::check(const Program& p) {
  const Limits saved = world.limits;
  // A probe, not a run: a state with 10^12 options stops it, and a lower --max-steps
  // lowers it (a file of many games is checked in milliseconds each).
  world.limits.max_steps = std::min<std::uint64_t>(saved.max_steps, 2'000'000);
  world.limits.max_memory = std::min<std::uint64_t>(saved.max_memory, std::uint64_t{256} << 20);
  bool found = false;
  for (const Stmt& st : p.stmts) {
    if (st.kind == Stmt::Kind::Game && st.game->loopy) {
      report_loopy(*st.game);
      continue;
    }
    if (st.kind != Stmt::Kind::Game || st.game->form != GameDecl::Form::Rules || !st.game->params.empty())
      continue;
    const auto at = world.names.find(st.game->name);
    if (at == world.names.end() || at->second.to != Binding::To::Game) continue;
    GameEntry& entry = world.games[static_cast<std::size_t>(at->second.index)];
    std::vector<Position> cycle;
    std::string wrong_value;
    std::optional<RunawayMove> runaway;
    try {
      world.limits.steps = 0;
      const GameInstance* g = interp.instance(entry, {}, st.game->where);
      cycle = probe_loop(*g, std::max(st.game->state_arity, 1));
      if (cycle.empty() && std::max(st.game->state_arity, 1) == 1 && !g->rules().has_formula()) {
        world.limits.steps = 0;
        runaway = probe_runaway(*g);
      }
      if (cycle.empty() && g->rules().has_formula()) {
        world.limits.steps = 0;
        wrong_value = probe_formula(interp.evaluator(), *g, std::max(st.game->state_arity, 1));
      }
    } catch (const Error& e) {
      if (e.kind == ErrorKind::Interrupted) throw;
      if (e.loop) {  // a rule that asks about its own position, seen by the probe
        diags.error(e.where.known() ? e.where : st.game->where, e.what(), e.hint);
        found = true;
      }
      continue;  // else the probe met a limit of its own: nothing seen
    }
    if (runaway) warn_runaway(st.game->where, *runaway);
    if (!cycle.empty()) {
      diags.error(st.game->where, "the rules loop: " + describe_cycle(cycle),
                  "a game must end: every sequence of moves has to reach a position with no options "
                  "(grundy check tried the states from 0 up)");
      found = true;
    } else if (!wrong_value.empty()) {
      const auto formula = std::find_if(st.game->items.begin(), st.game->items.end(), [](const GameItem& it) {
        return it.kind == GameItem::Kind::Formula;
      });
      diags.error(formula->where, "the value rule is wrong at " + wrong_value,
                  "a state's nim-value is the mex of its options' values, and grundy check compares them "
                  "on the states from 0 up; if that state is not a position of the game, let its rules "
                  "give it no options");
      found = true;
    }
  }
  world.limits = saved;
  workspace.forget_memos();
  diags.flush();
  return found;
}

// A loopy game may come back to a position, and that is no mistake: `grundy check` says how
// many of its small states (0..63, or the pairs of 0..7, or a graph's nodes) are P, N and D.
void Driver::report_loopy(const GameDecl& d) {
  if (!d.params.empty() || (d.form != GameDecl::Form::Rules && d.form != GameDecl::Form::Graph)) return;
  const auto at = world.names.find(d.name);
  if (at == world.names.end() || at->second.to != Binding::To::Game) return;
  GameEntry& entry = world.games[static_cast<std::size_t>(at->second.index)];
  std::vector<Value> states;
  std::string which;
  if (d.form == GameDecl::Form::Graph) {
    states = entry.labels;
    which = "of its " + std::to_string(states.size()) + " nodes";
  } else if (d.state_arity <= 1) {
    for (std::int64_t n = 0; n < 64; ++n) states.push_back(Value::integer(n));
    which = "of the states 0..63";
  } else if (d.state_arity == 2) {
    for (std::int64_t a = 0; a < 8; ++a) {
      for (std::int64_t b = 0; b < 8; ++b)
        states.push_back(Value::tuple({Value::integer(a), Value::integer(b)}));
    }
    which = "of the states (0..7, 0..7)";
  } else {
    return;
  }
  std::uint64_t count[3] = {0, 0, 0};  // P, N, D
  try {
    world.limits.steps = 0;
    const GameInstance* g = interp.instance(entry, {}, d.where);
    for (const Value& s : states) {
      if (!g->rules().check_position(*g, s).empty()) continue;
      const char o = interp.evaluator().loopy().outcome(Position{g, s});
      ++count[o == 'P' ? 0 : o == 'N' ? 1 : 2];
    }
  } catch (const Error& e) {
    if (e.kind == ErrorKind::Interrupted) throw;
    diags.warning(d.where, "loopy game " + d.name + " could not be labelled: " + e.what(), e.hint);
    return;
  }
  out << "loopy game " << d.name << ": " << which << ", " << count[0] << " P, " << count[1] << " N, "
      << count[2] << " D\n";
}

// A game whose small states run away does not end: its queries would stop at the runaway
// check (runtime/Runaway.hpp). A warning, since only the queries that go there fail.
void Driver::warn_runaway(Where at, const RunawayMove& r) {
  std::string through;
  if (!r.origin.rule.empty()) {
    through = " through `" + r.origin.rule + "`" + (r.origin.bindings.empty() ? "" : " (" + r.origin.bindings + ")");
  }
  if (r.climbs) {
    diags.warning(at,
                  to_string(r.start) + " -> ... -> " + to_string(r.to) + through +
                      ": the states grow without end (grundy check followed the largest option from 0)",
                  "a game must end: every sequence of moves has to reach a position with no options; bound the "
                  "move that adds, e.g. `move n + 1 if n < 100`");
    return;
  }
  diags.warning(at,
                to_string(r.from) + " moves to " + to_string(r.to) + through +
                    ", and from there the states go below zero without end",
                r.origin.fix.empty() ? "bound the move so that no count goes below zero, e.g. `if n >= k`"
                                     : "did you mean `" + r.origin.fix + "`?");
}

// A runtime error of a statement: `fallback` is where the statement (or the expression
// play started from) begins, `expr` the expression it ran. An error inside the rules of a
// game or the body of a function defined in another file (the standard library, an
// import) is followed by a note at the use in the user's statement that led there.
void Driver::report(const Error& e, Where fallback, const Expr* expr) {
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
const Expr* Driver::foreign_use(const Expr* e, int file, std::string& what) const {
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
int Driver::output_failed(int error_number) {
  err << "error: cannot write the output";
  if (error_number != 0) err << ": " << std::strerror(error_number);
  err << '\n';
  err.flush();
  return kExitIo;
}

// Returns an exit code.
int Driver::run_program(Program& p, bool main) {
  for (Stmt& s : p.stmts) {
    if (!main && (s.kind == Stmt::Kind::Expr || s.kind == Stmt::Kind::Assert)) continue;
    try {
      Frame frame(static_cast<std::size_t>(s.frame_size));
      interp.begin_statement();  // --max-steps counts per statement
      switch (s.kind) {
        case Stmt::Kind::Let: {
          GlobalEntry& g = world.globals[static_cast<std::size_t>(s.global)];
          Value v = interp.eval(*s.expr, frame);
          // Rules and functions read lets when they run: binding one again to a new value
          // makes what they memoized stale.
          const bool stale = g.assigned && v != g.value && workspace.rules_use(s.global);
          g.value = std::move(v);
          g.assigned = true;
          g.where = s.where;  // :def shows the latest binding
          if (stale) workspace.forget_memos();
          break;
        }
        case Stmt::Kind::Assert:
          if (!interp.condition(*s.expr, frame, "the condition of `assert`")) {
            assertion_failed(s, frame);
            return kExitAssert;
          }
          break;
        case Stmt::Kind::Expr: {
          Value v = interp.eval(*s.expr, frame);
          if (options.format == SessionOptions::Format::Json) out << json_line(v) << '\n';
          else if (options.format == SessionOptions::Format::Csv && v.is(Kind::Table)) out << csv_table(v);
          else out << (v.is(Kind::Str) ? v.as_str() : to_string(v)) << '\n';
          if (options.on_value) options.on_value(v, world.sources.locate(s.where).line);
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

void Driver::assertion_failed(const Stmt& s, Frame& frame) {
  out.flush();
  const Expr& e = *s.expr;
  std::string detail;
  if (e.kind == ExprKind::Binary && (e.op == BinOp::Eq || e.op == BinOp::Ne || e.op == BinOp::Lt ||
                                     e.op == BinOp::Le || e.op == BinOp::Gt || e.op == BinOp::Ge)) {
    try {
      std::string left = shown(interp.eval(*e.args[0], frame));
      std::string right = shown(interp.eval(*e.args[1], frame));
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
int Driver::run(std::string text, const std::string& name, const std::string& dir, const std::string& key) {
  diags.reset();
  loader.start(key, name);
  const int file = world.sources.add(name, dir, std::move(text));
  std::vector<Program*> batch;
  Program* main = nullptr;
  Workspace::Snapshot before = workspace.snapshot();
  bool redefined = false;
  try {
    main = &loader.parse(file);
    loader.load_imports(*main, batch);
    batch.push_back(main);
    check_duplicates(batch, diags);
    for (Program* p : batch) declare(world, *p);
    redefined = workspace.take_old_places(before);
    for (Program* p : batch) resolve(world, *p, diags);
    for (Program* p : batch) lower_shortcuts(*p, world);
    games.compile(diags);
  } catch (const Error& e) {
    // A limit met while loading (the parse of a huge file): reported as a run would be.
    diags.flush();
    if (e.kind == ErrorKind::Interrupted && options.rethrow_interrupts) throw;
    report(e, e.where, nullptr);
    diags.flush();
    workspace.roll_back(before);
    return kExitRuntime;
  } catch (const std::exception& e) {
    // A safety net: the front end reports problems as diagnostics and throws nothing else.
    diags.error(Where{file, 0}, std::string("internal error: ") + e.what(),
                "this is a bug in grundy; please report it with this program");
    diags.flush();
    workspace.roll_back(before);
    return kExitCompile;
  }
  diags.flush();
  if (diags.count() > 0) {
    workspace.roll_back(before);
    return loader.read_failed() ? kExitIo : kExitCompile;
  }
  if (redefined) workspace.forget_memos();
  if (options.check_only) return check(*main) ? kExitCompile : kExitOk;
  for (Program* p : batch) {
    if (int code = run_program(*p, p == main)) return code;
  }
  return kExitOk;
}

std::optional<Value> Driver::evaluate(std::string text, const std::string& name, std::uint32_t from,
                                      int& failure) {
  diags.reset();
  const int file = world.sources.add(name, fs::current_path().string(), std::move(text));
  Program& p = loader.parse(file, from);
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
    interp.begin_statement();
    Value v = interp.eval(*s.expr, frame);
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
Value Driver::query(Builtin which, const Value& x) {
  interp.begin_statement();
  BuiltinCall c{interp, which, nullptr, nullptr, {x}, query_where, query_where};
  try {
    return kBuiltins[static_cast<int>(which)].fn(c);
  } catch (Error& e) {
    if (!e.where.known()) e.where = query_where;
    throw;
  }
}

}  // namespace grundy::lang
