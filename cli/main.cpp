// The grundy command: wires the language to the terminal. Exit codes are a contract:
// 0 ok, 1 failed assert, 64 usage, 65 compile error, 70 runtime error, 74 I/O error.
#include <pthread.h>

#include <atomic>
#include <csignal>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "lang/Session.hpp"

namespace {

std::atomic<bool> g_interrupt{false};

extern "C" void on_sigint(int) {
  if (g_interrupt.exchange(true)) std::_Exit(130);  // a second Ctrl-C ends the process
}

// Deeply recursive functions and nested queries run on a thread with a large stack, so
// that --max-depth, not the operating system, decides how deep they may go.
int run_with_big_stack(const std::function<int()>& work) {
  struct Job {
    const std::function<int()>* work;
    int result = 0;
  } job{&work};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, std::size_t{1} << 30);
  pthread_t thread;
  auto entry = [](void* p) -> void* {
    auto* j = static_cast<Job*>(p);
    j->result = (*j->work)();
    return nullptr;
  };
  if (pthread_create(&thread, &attr, entry, &job) != 0) return work();
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  return job.result;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"grundy: Sprague-Grundy values, outcomes and winning moves of impartial games"};
  app.set_version_flag("--version", std::string("grundy ") + GRUNDY_VERSION);
  app.footer(R"(Examples:
  grundy run examples/kayles.game          run a file (several files run one after another)
  grundy run -                             read the program from standard input
  grundy eval 'import octal' 'grundy(Kayles(10))'
  grundy eval 'game Nim { state n  move k for k in 0..n-1 }; wins(Nim(3) + Nim(5))'
  grundy check rules.game                  parse and resolve only

Exit codes: 0 ok, 1 failed assert, 64 usage, 65 compile error, 70 runtime error, 74 I/O error.
Documentation: docs/language.md)");
  app.require_subcommand(1);

  grundy::SessionOptions options;
  std::uint64_t max_states = options.limits.max_states;
  std::uint64_t max_rows = options.limits.max_rows;
  int max_depth = options.max_depth;
  app.add_option("--max-states", max_states, "Memo entries before evaluation stops")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--max-depth", max_depth, "Nesting of function calls")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--max-rows", max_rows, "Cells of one table(...)")
      ->capture_default_str()->check(CLI::PositiveNumber);

  std::vector<std::string> run_files, check_files, eval_sources;
  CLI::App* run = app.add_subcommand("run", "Run .game files ('-' reads standard input)");
  run->add_option("files", run_files, "Files to run")->required();
  CLI::App* eval = app.add_subcommand("eval", "Run statements given on the command line");
  eval->add_option("source", eval_sources, "Statements (each argument is one line)")->required();
  CLI::App* check = app.add_subcommand("check", "Parse and resolve files without running them");
  check->add_option("files", check_files, "Files to check")->required();

  // CLI11 reads an argument written "[a, b]" as a list and splits it at its commas; a
  // program like `[n for n in 0..9]` must reach the interpreter whole, so guard brackets.
  std::vector<std::string> args;
  for (int i = argc - 1; i >= 1; --i) {
    std::string a = argv[i];
    if (!a.empty() && a.front() == '[' && a.back() == ']') a = " " + a;
    args.push_back(std::move(a));
  }
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : grundy::kExitUsage;
  }

  options.limits.max_states = max_states;
  options.limits.max_rows = max_rows;
  options.max_depth = max_depth;
  options.limits.interrupt = &g_interrupt;
  options.check_only = check->parsed();
  std::signal(SIGINT, on_sigint);

  return run_with_big_stack([&]() -> int {
    grundy::Session session(std::cout, std::cerr, options);
    if (eval->parsed()) {
      std::string source;
      for (const std::string& s : eval_sources) source += s + "\n";
      return session.run_source(source, "<eval>");
    }
    const auto& files = check->parsed() ? check_files : run_files;
    int worst = 0;
    for (const std::string& f : files) {
      grundy::Session one(std::cout, std::cerr, options);
      const int code = one.run_file(f);
      if (code != 0 && !check->parsed()) return code;
      worst = std::max(worst, code);
    }
    return worst;
  });
}
