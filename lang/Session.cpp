// The pipeline, as jlox's run(): parse -> (imports) -> declare -> resolve -> compile -> run,
// stopping after any phase that reported an error.
#include "lang/Session.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "lang/Diagnostics.hpp"
#include "lang/KnownGames.hpp"
#include "lang/Machine.hpp"
#include "lang/Parser.hpp"
#include "lang/Resolver.hpp"
#include "lang/RuleGame.hpp"
#include "runtime/Shorthands.hpp"
#include "stdlib/Stdlib.hpp"

namespace grundy {

using namespace lang;
namespace fs = std::filesystem;

struct Session::Impl {
  Impl(std::ostream& o, std::ostream& e, SessionOptions opts)
      : out(o), err(e), options(opts), diags(world.sources, e), machine(world) {
    world.limits = opts.limits;
    world.max_depth = opts.max_depth;
  }

  std::ostream& out;
  std::ostream& err;
  SessionOptions options;
  World world;
  Diagnostics diags;
  Machine machine;

  // ---- loading ----

  Program& parse(int file) {
    world.programs.push_back(parse_program(world.sources, file, diags));
    return world.programs.back();
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
        if (already_loaded(key)) continue;
        std::ifstream in(path, std::ios::binary);
        if (!in || fs::is_directory(path, ec)) {
          diags.error(s.where, "cannot open '" + s.name + "'",
                      "imports are relative to the importing file: looked for " + path.string());
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
          for (std::string_view m : stdlib::module_names()) names += (names.empty() ? "" : ", ") + std::string(m);
          diags.error(s.where, "unknown module '" + s.name + "'",
                      "the standard modules are " + names + "; for a file write import \"" +
                          s.name + ".game\"");
          continue;
        }
        key = "stdlib:" + s.name;
        if (already_loaded(key)) continue;
        text = std::string(*module);
        name = "<stdlib>/" + s.name + ".game";
      }
      world.loaded.push_back(key);
      Program& imported = parse(world.sources.add(name, dir, std::move(text)));
      load_imports(imported, batch);
      batch.push_back(&imported);
    }
  }

  bool already_loaded(const std::string& key) const {
    return std::find(world.loaded.begin(), world.loaded.end(), key) != world.loaded.end();
  }

  // ---- compiling ----

  void compile_games() {
    for (GameEntry& g : world.games) {
      if (g.rules || !g.decl) continue;
      const GameDecl& d = *g.decl;
      switch (d.form) {
        case GameDecl::Form::Rules:
          g.rules = recognize_nim(d);
          if (!g.rules) g.rules = std::make_shared<RuleGame>(d, machine);
          break;
        case GameDecl::Form::Octal:
          try {
            g.rules = std::make_shared<TakeAndBreakRuleset>(g.name, d.code);
          } catch (const Error& e) {
            diags.error(d.code_where, e.what(), e.hint);
          }
          break;
        case GameDecl::Form::Graph: compile_graph(g); break;
        case GameDecl::Form::Subtraction:
        case GameDecl::Form::Alias:
          break;  // evaluated on first use: their expressions may name lets
      }
    }
  }

  void compile_graph(GameEntry& g) {
    const GameDecl& d = *g.decl;
    std::vector<GraphRuleset::Node> nodes;
    for (const Value& l : g.labels) nodes.push_back({l, {}});
    auto index = [&](const Value& l) {
      return static_cast<std::size_t>(std::find(g.labels.begin(), g.labels.end(), l) - g.labels.begin());
    };
    for (const GraphEdge& e : d.edges) {
      auto& succ = nodes[index(e.from)].successors;
      for (const Value& t : e.to) {
        if (std::find(succ.begin(), succ.end(), index(t)) == succ.end()) succ.push_back(index(t));
      }
    }
    auto rules = std::make_shared<GraphRuleset>(g.name, std::move(nodes));
    std::vector<Value> cycle = rules->find_cycle();
    if (!cycle.empty()) {
      std::string path;
      for (std::size_t i = 0; i < cycle.size(); ++i) {
        if (i) path += " -> ";
        rules->append_state(path, cycle[i]);
      }
      diags.error(d.where, "the graph of " + g.name + " has a cycle: " + path,
                  "a game must end, so its graph must be acyclic");
      return;
    }
    g.rules = std::move(rules);
  }

  // ---- running ----

  void report(const Error& e, Where fallback) {
    diags.error(e.where.known() ? e.where : fallback, e.what(), e.hint);
  }

  // Returns an exit code.
  int run_program(Program& p, bool main) {
    for (Stmt& s : p.stmts) {
      if (!main && (s.kind == Stmt::Kind::Expr || s.kind == Stmt::Kind::Assert)) continue;
      try {
        Frame frame(static_cast<std::size_t>(s.frame_size));
        switch (s.kind) {
          case Stmt::Kind::Let: {
            GlobalEntry& g = world.globals[static_cast<std::size_t>(s.global)];
            g.value = machine.eval(*s.expr, frame);
            g.assigned = true;
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
            break;
          }
          default: break;
        }
      } catch (const Error& e) {
        out.flush();
        report(e, s.where);
        diags.flush();
        return kExitRuntime;
      }
    }
    out.flush();
    return kExitOk;
  }

  void assertion_failed(const Stmt& s, Frame& frame) {
    out.flush();
    const Expr& e = *s.expr;
    std::string detail;
    if (e.kind == ExprKind::Binary &&
        (e.text == "==" || e.text == "!=" || e.text == "<" || e.text == "<=" || e.text == ">" ||
         e.text == ">=")) {
      std::string left = to_string(machine.eval(*e.args[0], frame));
      std::string right = to_string(machine.eval(*e.args[1], frame));
      if (left.size() + right.size() < 400) detail = ": " + left + " " + e.text + " " + right + " is false";
    }
    diags.error(s.expr->where, "assertion failed" + detail);
    diags.flush();
  }

  int run(std::string text, const std::string& name, const std::string& dir) {
    diags.reset();
    const int file = world.sources.add(name, dir, std::move(text));
    std::vector<Program*> batch;
    Program& main = parse(file);
    load_imports(main, batch);
    batch.push_back(&main);
    for (Program* p : batch) declare(world, *p, diags);
    for (Program* p : batch) resolve(world, *p, diags);
    compile_games();
    diags.flush();
    if (diags.count() > 0) return kExitCompile;
    if (options.check_only) return kExitOk;
    for (Program* p : batch) {
      if (int code = run_program(*p, p == &main)) return code;
    }
    return kExitOk;
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
  return impl_->run(buf.str(), path, p.parent_path().string());
}

}  // namespace grundy
