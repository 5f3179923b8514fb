// The grundy command: wires the language to the terminal. Exit codes are a contract:
// 0 ok, 1 failed assert, 64 usage, 65 compile error, 70 runtime error, 74 I/O error.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <set>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/LineEditor.hpp"
#include "cli/Repl.hpp"
#include "lang/Diagnostics.hpp"
#include "lang/Session.hpp"
#include "runtime/Progress.hpp"
#include "runtime/StackGuard.hpp"
#include "runtime/ValuesFile.hpp"

namespace {

std::atomic<bool> g_interrupt{false};

extern "C" void on_sigint(int) {
  if (g_interrupt.exchange(true)) std::_Exit(130);  // a second Ctrl-C ends the process
}

// Without SA_RESTART, so that Ctrl-C at the REPL's prompt makes the pending read return.
void install_sigint() {
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, nullptr);
}

// The REPL: files first, then -c text, standard input, or the terminal.
int run_repl(grundy::Session& session, const std::vector<std::string>& files,
             const std::vector<std::string>& commands, bool color, std::ostream& err) {
  const bool terminal = commands.empty() && isatty(STDIN_FILENO);
  std::istringstream command_text;
  std::string text;
  for (const std::string& c : commands) text += c + "\n";
  command_text.str(text);
  grundy::cli::StreamLines lines(commands.empty() ? std::cin : command_text,
                                 commands.empty() ? stdin : nullptr);
  std::unique_ptr<grundy::cli::LineEditor> editor;
  if (terminal) {
    const char* home = std::getenv("HOME");
    editor = std::make_unique<grundy::cli::LineEditor>(
        "grundy", home && *home ? std::string(home) + "/.grundy_history" : std::string(), &g_interrupt);
  }
  grundy::cli::LineSource& input = editor ? static_cast<grundy::cli::LineSource&>(*editor) : lines;
  grundy::cli::ReplOptions ro;
  ro.color = terminal && color;
  ro.source_name = terminal || !commands.empty() ? "<repl>" : "<stdin>";
  ro.interrupt = &g_interrupt;
  grundy::cli::Repl repl(session, input, std::cout, err, ro);
  if (editor) editor->set_completer([&repl](std::string_view before) { return repl.complete(before); });
  repl.banner();
  int status = 0;
  for (const std::string& f : files) {
    const int code = repl.load(f);
    if (code != 0 && status == 0) status = code;
  }
  const int code = repl.run();
  return terminal ? 0 : (status != 0 ? status : code);
}

// A limit's value: a whole number from lo to hi, or a usage error that names the range
// (CLI11's own checks said "not in range 0.000000 to 1797...(309 digits)", and let a value
// past the type's range through).
CLI::Validator whole_number(std::uint64_t lo, std::uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        std::uint64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec == std::errc() && end == text.data() + text.size() && v >= lo && v <= hi) return {};
        return "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
               ", got '" + text + "'";
      },
      "INT in " + std::to_string(lo) + ".." + std::to_string(hi));
}

// How a bad command line is reported: `error: ...`, and what would help.
// CLI11's wording of a missing value ("--max-states: 1 required UINT:INT in 1..18446744073709551615
// missing", "files is required") in the words of the help text.
std::string missing_value(const std::string& what, const std::string& command) {
  static const std::regex option(R"(^(--[A-Za-z-]+): \d+ required (\S+?)(?: in (-?\d+)\.\.(\d+))? missing$)");
  std::smatch m;
  if (std::regex_match(what, m, option)) {
    const std::string type = m[2];
    std::string expected = "a value";
    if (m[3].matched) expected = "a whole number from " + m[3].str() + " to " + m[4].str();
    else if (type.find('{') != std::string::npos) {
      std::string choices = type.substr(type.find('{') + 1);
      if (!choices.empty() && choices.back() == '}') choices.pop_back();
      std::string listed;
      for (char ch : choices) listed += ch == ',' ? std::string(", ") : std::string(1, ch);
      expected = "one of " + listed;
    } else if (type.rfind("TEXT", 0) == 0) expected = "a file name";
    return m[1].str() + " needs a value: " + expected;
  }
  if (what == "files is required")
    return (command.empty() ? std::string("the command") : command) +
           " needs a file (or - to read the program from standard input)";
  if (what == "source is required") return "eval needs a program, e.g. grundy eval '1 + 1'";
  return what;
}

std::string usage_failure(const CLI::App* app, const CLI::Error& e) {
  // An argument may hold control characters (an escape sequence): shown escaped.
  std::string command;  // the subcommand given, if any
  if (app) {
    for (const CLI::App* sub : app->get_subcommands()) command = sub->get_name();
  }
  std::string text = "error: " + grundy::lang::one_line(missing_value(e.what(), command)) + "\n";
  // An argument that starts with one '-' is read as an option, even a program like -x.
  const std::string what = e.what();
  const std::size_t colon = what.find("not expected: ");
  std::istringstream unexpected(colon == std::string::npos ? std::string() : what.substr(colon + 14));
  bool dash = false;
  for (std::string a; unexpected >> a;) dash = dash || (a.size() > 1 && a[0] == '-' && a[1] != '-');
  if (dash) {
    return text +
           "hint: an argument that starts with '-' is read as an option: put -- before the "
           "arguments, e.g. grundy eval -- 'let x = 1' '-x'\n";
  }
  return text + "hint: grundy --help lists the commands and options\n";
}

// Sessions run on a thread with a 1 GB stack, and Ctrl-C goes to it (runtime/StackGuard.hpp).
int run_with_big_stack(const std::function<int()>& work) {
  return grundy::run_on_stack(std::size_t{1} << 30, work, /*sigint_to_worker=*/true);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"grundy: Sprague-Grundy values, outcomes and winning moves of impartial games"};
  app.name("grundy");  // parse(args) takes no argv[0]: without it, --help says "Usage: [OPTIONS]"
  app.set_version_flag("--version", std::string("grundy ") + GRUNDY_VERSION);
  app.footer(R"(Examples:
  grundy run examples/kayles.game          run a file (several files run one after another)
  grundy run -                             read the program from standard input
  grundy eval 'import octal' 'grundy(Kayles(10))'
  grundy eval 'game Nim { state n  move k for k in 0..n-1 }; wins(Nim(3) + Nim(5))'
  grundy check rules.game                  parse and resolve only
  grundy                                   the REPL (same as grundy repl)
  grundy repl examples/kayles.game         load a file, then the REPL
  grundy repl -c 'import octal' -c ':games'           run statements and exit

Exit codes: 0 ok, 1 failed assert, 64 usage, 65 compile error, 70 runtime error, 74 I/O error.
Documentation: docs/language.md, docs/repl.md)");
  app.require_subcommand(0, 1);  // none: the REPL

  grundy::SessionOptions options;
  std::uint64_t max_states = options.limits.max_states;
  std::uint64_t max_rows = options.limits.max_rows;
  std::uint64_t max_steps = options.limits.max_steps;
  std::uint64_t max_memory_mb = options.limits.max_memory >> 20;
  int max_depth = options.max_depth;
  constexpr std::uint64_t kMax64 = std::numeric_limits<std::uint64_t>::max();
  app.add_option("--max-states", max_states,
                 "Memo entries before evaluation stops (a native kernel's table counts by its bytes "
                 "against --max-memory instead)")
      ->capture_default_str()
      ->check(whole_number(1, kMax64));
  app.add_option("--max-depth", max_depth, "Nesting of function calls")
      ->capture_default_str()
      ->check(whole_number(1, std::numeric_limits<int>::max()));
  app.add_option("--max-rows", max_rows, "Cells of one table(...)")
      ->capture_default_str()
      ->check(whole_number(1, kMax64));
  app.add_option("--max-steps", max_steps,
                 "Steps per statement: iterations of 'for' clauses, options looked at by rules and "
                 "searches (not by native kernels, which --max-memory and Ctrl-C bound)")
      ->capture_default_str()
      ->check(whole_number(1, kMax64));
  app.add_option("--max-memory", max_memory_mb,
                 "Peak memory of the process (MB), heap measured; stops with a message at it")
      ->capture_default_str()
      ->check(whole_number(1, std::uint64_t{1} << 40));
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  app.add_option("--threads", threads,
                 "Threads of the take-and-break kernel: the sparse space (Grundy's game and the octal codes it "
                 "serves) and the plain loop (values that are not sparse: Lasker's Nim); the values are the "
                 "same for any number (default: the machine's cores)")
      ->capture_default_str()
      ->check(whole_number(1, 1024));
  app.failure_message(usage_failure);
  bool explain = false;
  app.add_flag("--explain", explain,
               "Say on stderr how each game is evaluated (native kernel, dense table or search) "
               "and which periods are proven");
  bool cross_check = false;
  app.add_flag("--cross-check", cross_check,
               "Recompute sampled values of the native kernels and compiled rules by the plain "
               "definition (the mex of the options), and stop if they differ; costs about an "
               "eighth more");
  int progress = -1;  // -1: when stderr is a terminal
  // Two flags, not CLI11's "--progress{1},--no-progress{0}" on one int: that form set the
  // int to 0 when neither was given, so the bar never showed by default.
  app.add_flag_callback("--progress", [&progress] { progress = 1; },
                        "Show a progress bar on stderr for computations that take over a second "
                        "(the default when stderr is a terminal)");
  app.add_flag_callback("--no-progress", [&progress] { progress = 0; }, "Never show the progress bar");
  std::string save_values, load_values, checkpoint;
  double checkpoint_every = 300;
  CLI::Option* save_opt = app.add_option("--save-values", save_values,
                                         "Write the native kernels' tables of values to FILE when they are "
                                         "filled (format: docs/values-file.md)");
  CLI::Option* load_opt = app.add_option(
      "--load-values", load_values, "Start the native kernels' tables from FILE, written by --save-values");
  app.add_option("--checkpoint", checkpoint,
                 "Resume the native kernels' tables from FILE if it exists, and write them there every "
                 "--checkpoint-every seconds and when the run ends or is stopped")
      ->excludes(save_opt)
      ->excludes(load_opt);
  app.add_option("--checkpoint-every", checkpoint_every, "Seconds between writes of --checkpoint")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e9));
  std::string format = "text";
  app.add_option("--format", format,
                 "How values and diagnostics are printed: text; json (a line of JSON per value on "
                 "stdout, per diagnostic on stderr); csv (tables as CSV, other values as text)")
      ->check(CLI::IsMember({"text", "json", "csv"}));

  std::vector<std::string> run_files, check_files, eval_sources;
  CLI::App* run = app.add_subcommand("run", "Run .game files ('-' reads standard input)");
  run->add_option("files", run_files, "Files to run")->required();
  CLI::App* eval = app.add_subcommand("eval", "Run statements given on the command line");
  eval->add_option("source", eval_sources, "Statements (each argument is one line)")->required();
  CLI::App* check = app.add_subcommand("check", "Parse and resolve files without running them");
  check->add_option("files", check_files, "Files to check")->required();
  std::vector<std::string> repl_files, repl_commands;
  CLI::App* repl = app.add_subcommand(
      "repl", "Interactive session (the default); without a terminal, reads statements from stdin");
  repl->add_option("files", repl_files, "Files to load first");
  repl->add_option("-c,--command", repl_commands, "Run these statements and exit (may repeat)")
      ->allow_extra_args(false);
  bool no_color = false;
  repl->add_flag("--no-color", no_color, "No colours at the terminal (also: NO_COLOR set)");
  // The limits and --explain may come before or after the subcommand:
  // `grundy --explain run f.game` and `grundy run --explain f.game` are the same.
  for (CLI::App* sub : {run, eval, check, repl}) sub->fallthrough();

  // CLI11 reads an argument written "[a, b]" as a list and splits it at its commas; a
  // program like `[n for n in 0..9]` must reach the interpreter whole, so brackets are
  // guarded by a space while CLI11 reads them, and the space is taken off again after.
  std::vector<std::string> args;
  std::set<std::string> bracketed;
  for (int i = argc - 1; i >= 1; --i) {
    std::string a = argv[i];
    if (!a.empty() && a.front() == '[' && a.back() == ']') {
      bracketed.insert(a);
      a = " " + a;
    }
    args.push_back(std::move(a));
  }
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : grundy::kExitUsage;
  }
  for (auto* list : {&run_files, &check_files, &eval_sources, &repl_files, &repl_commands}) {
    for (std::string& a : *list) {
      if (a.size() > 1 && a[0] == ' ' && bracketed.count(a.substr(1))) a.erase(0, 1);
    }
  }

  options.limits.max_states = max_states;
  options.limits.max_rows = max_rows;
  options.limits.max_steps = max_steps;
  options.limits.max_memory = max_memory_mb << 20;
  options.limits.threads = threads;
  options.max_depth = max_depth;
  options.limits.interrupt = &g_interrupt;
  if (explain) options.limits.explain = &std::cerr;
  options.limits.cross_check = cross_check;
  grundy::TerminalProgress bar(stderr);
  if (progress == 1 || (progress == -1 && isatty(STDERR_FILENO))) options.limits.progress = &bar;
  options.check_only = check->parsed();
  options.format = format == "json"  ? grundy::SessionOptions::Format::Json
                   : format == "csv" ? grundy::SessionOptions::Format::Csv
                                     : grundy::SessionOptions::Format::Text;
  std::optional<grundy::ValuesFile> values;
  if (!checkpoint.empty() || !save_values.empty() || !load_values.empty()) {
    const bool resume = !checkpoint.empty();
    // --save-values writes when a table is filled, not on the way.
    values.emplace(resume ? checkpoint : load_values, resume ? checkpoint : save_values,
                   resume ? checkpoint_every : std::numeric_limits<double>::infinity());
    std::string error;
    if (!values->read(/*missing_ok=*/resume, error)) {
      std::cerr << "error: " << error << '\n';
      return grundy::kExitIo;
    }
    if (explain && !values->last().empty()) std::cerr << "explain: " << values->last() << '\n';
    options.limits.values = &*values;
  }
  install_sigint();
  // A reader that goes away (`grundy ... | head -c1`) makes the next write fail with EPIPE,
  // reported as an I/O error (exit 74), instead of killing the process with no word.
  std::signal(SIGPIPE, SIG_IGN);

  // What was printed must have reached standard output (not a full disk, /dev/full): else
  // an I/O error. A Session reports its own failed writes; this catches the rest.
  const auto output_checked = [](int code) {
    errno = 0;
    if (std::cout.flush() || code == grundy::kExitIo) return code;
    std::cerr << "error: cannot write the output";
    if (errno != 0) std::cerr << ": " << std::strerror(errno);
    std::cerr << '\n';
    return static_cast<int>(grundy::kExitIo);
  };

  if (!run->parsed() && !eval->parsed() && !check->parsed()) {
    // At a terminal Ctrl-C returns to the prompt; piped, it is an error at the statement.
    options.rethrow_interrupts = repl_commands.empty() && isatty(STDIN_FILENO);
    const char* term = std::getenv("TERM");
    const bool color = !no_color && !std::getenv("NO_COLOR") && isatty(STDOUT_FILENO) &&
                       !(term && std::string(term) == "dumb");
    return output_checked(run_with_big_stack([&]() -> int {
      grundy::cli::ColoredErrors colored(std::cerr.rdbuf());
      std::ostream colored_err(&colored);
      const bool paint = color && isatty(STDERR_FILENO) && isatty(STDIN_FILENO) && repl_commands.empty();
      grundy::Session session(std::cout, paint ? colored_err : std::cerr, options);
      const int code = run_repl(session, repl_files, repl_commands, color, paint ? colored_err : std::cerr);
      colored_err.flush();
      return code;
    }));
  }

  return output_checked(run_with_big_stack([&]() -> int {
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
  }));
}
