#include "cli/Repl.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <ostream>

#include <fmt/format.h>

#include "cli/Play.hpp"
#include "lang/BuiltinTable.hpp"
#include "lang/Diagnostics.hpp"
#include "lang/Session.hpp"
#include "lang/Statements.hpp"
#include "lang/Suggest.hpp"
#include "runtime/Show.hpp"
#include "stdlib/Stdlib.hpp"

namespace grundy::cli {

namespace {

namespace fs = std::filesystem;

struct CommandInfo {
  std::string_view name;
  std::string_view args;
  std::string_view help;
};

constexpr CommandInfo kCommands[] = {
    {"help", "", "this text"},
    {"load", "FILE...", "run files in this session (their definitions replace earlier ones)"},
    {"reload", "", "run the loaded files again, after editing them"},
    {"games", "", "the games defined: how a position is written, and the rules' form"},
    {"def", "NAME", "the definition of a game, function or let"},
    {"time", "on|off", "print how long each statement took"},
    {"clear", "", "drop the memo tables (computed values)"},
    {"play", "POSITION", "play against the computer; `play POSITION` works too"},
    {"quit", "", "leave (Ctrl-D too)"},
};

constexpr std::string_view kKeywords[] = {
    "game",  "state", "let",         "move",  "split", "for",    "in",    "if",     "then",   "else",
    "def",   "and",   "or",          "not",   "xor",   "misere", "every", "assert", "import", "true",
    "false", "octal", "subtraction", "graph", "value", "N",      "P",     "play",
};

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// The candidate nearest to `word`, if it is near enough to be a typo.
std::string nearest(std::string_view word, const std::vector<std::string>& candidates) {
  return lang::nearest(word, std::vector<std::string_view>(candidates.begin(), candidates.end()));
}

// A statement as one history line: joined lines and comments become single spaces (newlines
// inside brackets are white space, so the line means the same).
std::string history_entry(const std::string& chunk) {
  const std::string text = lang::split_statements(chunk).text;
  std::string out;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) out += text[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
      continue;
    }
    if (c == '"') in_string = true;
    out += c;
  }
  return trim(out);
}

std::string duration(std::chrono::steady_clock::duration d) {
  const double s = std::chrono::duration<double>(d).count();
  if (s < 1e-3) return fmt::format("{:.0f} us", s * 1e6);
  if (s < 1) return fmt::format("{:.1f} ms", s * 1e3);
  return fmt::format("{:.2f} s", s);
}

// The command named, or the only one that starts with `name` (:q, :g); `matches` counts the
// commands that start with it.
const CommandInfo* find_command(std::string_view name, int& matches) {
  if (name == "exit") name = "quit";
  if (name == "?") name = "help";
  const CommandInfo* found = nullptr;
  matches = 0;
  for (const CommandInfo& c : kCommands) {
    if (c.name == name) {
      matches = 1;
      return &c;
    }
    if (!name.empty() && c.name.substr(0, name.size()) == name) {
      found = &c;
      ++matches;
    }
  }
  return matches == 1 ? found : nullptr;
}

std::vector<std::string> command_names() {
  std::vector<std::string> names;
  for (const CommandInfo& c : kCommands) names.emplace_back(c.name);
  return names;
}

}  // namespace

Repl::Repl(Session& session, LineSource& input, std::ostream& out, std::ostream& err, ReplOptions options)
    : session_(session), input_(input), out_(out), err_(err), options_(std::move(options)) {}

void Repl::failed(int code) {
  if (code != 0 && status_ == 0) status_ = code;
  // The output is gone (a closed pipe, a full disk), said once: nothing more can be shown.
  if (code == kExitIo && !out_) stop_ = true;
}

void Repl::error(const std::string& message, const std::string& hint) {
  out_.flush();
  // What the user typed may hold control characters: shown escaped, never sent raw.
  err_ << "error: " << lang::one_line(message) << '\n';
  if (!hint.empty()) err_ << "hint: " << lang::one_line(hint) << '\n';
  err_.flush();
}

bool Repl::defines(const std::string& name) const {
  const std::vector<std::string> names = session_.defined_names();
  return std::binary_search(names.begin(), names.end(), name);
}

template <typename F>
int Repl::guarded(F work) {
  if (options_.interrupt) options_.interrupt->store(false);
  int code = 0;
  try {
    code = work();
    // Without a terminal the session reports Ctrl-C as any error, at the statement it
    // stopped (<stdin>:3:1: error: interrupted); the rest of the input is not run.
    if (!input_.interactive() && options_.interrupt && options_.interrupt->load()) stop_ = true;
  } catch (const Error& e) {
    if (e.kind != ErrorKind::Interrupted) throw;
    out_.flush();
    if (input_.interactive()) {
      err_ << "\ninterrupted\n";
    } else {
      session_.report(e);  // in a game: at the `play` line
      stop_ = true;
    }
    err_.flush();
    code = kExitRuntime;
  }
  if (options_.interrupt) options_.interrupt->store(false);
  return code;
}

int Repl::load(const std::string& path) {
  const int code = guarded([&] { return session_.run_file(path); });
  if (code != kExitIo && std::find(loaded_.begin(), loaded_.end(), path) == loaded_.end()) {
    loaded_.push_back(path);
  }
  return code;
}

void Repl::banner() {
  if (!input_.interactive()) return;
  out_ << "Grundy " << GRUNDY_VERSION
       << ": values and winning moves of impartial games. :help lists the commands, Ctrl-D leaves.\n";
}

int Repl::run() {
  const std::string prompt = options_.color ? "\1\033[1;32m\1grundy>\1\033[0m\1 " : "grundy> ";
  const std::string more = options_.color ? "\1\033[32m\1   ...>\1\033[0m\1 " : "   ...> ";
  std::string pending;          // the lines of an unfinished statement
  lang::StatementScanner scan;  // the same lines, scanned once each
  while (!quit_ && !stop_) {
    std::string line;
    const ReadStatus st = input_.read(pending.empty() ? prompt : more, line);
    if (st == ReadStatus::Interrupted) {  // Ctrl-C at the prompt: drop the line
      if (options_.interrupt) options_.interrupt->store(false);
      pending.clear();
      scan = lang::StatementScanner();
      out_ << '\n';
      continue;
    }
    if (st == ReadStatus::Failed) {
      error("cannot read standard input: " + input_.failure(), "");
      status_ = kExitIo;
      break;
    }
    if (st == ReadStatus::Eof) {
      // Without a terminal an unfinished statement is run, to report what is missing; at
      // the prompt, Ctrl-D drops it, as Ctrl-C would.
      if (!input_.interactive() && !trim(pending).empty()) statement(pending);
      if (input_.interactive()) out_ << '\n';
      break;
    }
    if (pending.empty() && !trim(line).empty() && trim(line)[0] == ':') {
      input_.add_history(trim(line));
      command(trim(line));
      continue;
    }
    pending += line;
    pending += '\n';
    scan.feed(std::string_view(pending).substr(pending.size() - line.size() - 1));
    if (scan.unfinished()) continue;
    std::string chunk = std::move(pending);
    pending.clear();
    scan = lang::StatementScanner();
    if (trim(chunk).empty()) continue;
    input_.add_history(history_entry(chunk));
    statement(chunk);
  }
  out_.flush();
  return input_.interactive() ? 0 : status_;
}

void Repl::statement(const std::string& chunk) {
  const std::string text = trim(chunk);
  // `play X` at the start of a statement, unless the session defines a `play` of its own.
  if (text.rfind("play", 0) == 0 &&
      (text.size() == 4 || std::isspace(static_cast<unsigned char>(text[4])) || text[4] == '(') &&
      !defines("play")) {
    // The position is read after `play`; diagnostics show the line as typed.
    play(chunk, chunk.find("play") + 4);
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  const int code = guarded([&] { return session_.run_source(chunk, options_.source_name); });
  failed(code);
  if (timing_) out_ << "time: " << duration(std::chrono::steady_clock::now() - start) << '\n';
  out_.flush();
}

void Repl::play(const std::string& line, std::size_t from) {
  if (trim(std::string_view(line).substr(from)).empty()) {
    error("play needs a position", "e.g. play Nim(3) + Nim(5), or play misere Kayles(7)");
    failed(kExitUsage);
    return;
  }
  const int code = guarded([&] {
    int failure = 0;
    std::optional<Value> start = session_.evaluate(line, options_.source_name, from, &failure);
    if (!start) return failure;
    if (!start->is(Kind::Position) && !start->is(Kind::Sum)) {
      // Reported as the session reports a query's error: file, line, the caret under it.
      session_.report(Error(ErrorKind::Runtime, "play needs a position or a sum, got " + shown(*start),
                            start->is(Kind::Game) ? "give its state, e.g. " + shown(*start) + "(7)"
                                                  : "e.g. play Nim(3) + Nim(5)"));
      return static_cast<int>(kExitRuntime);
    }
    SessionEngine engine(session_);
    // A game that stopped on an error (a loop in the rules, a limit) fails like any
    // statement whose query fails: a run without a terminal then exits 70.
    const bool finished =
        cli::play(engine, input_, out_, *start, PlayStyle{options_.color, options_.interrupt});
    return finished ? 0 : static_cast<int>(kExitRuntime);
  });
  failed(code);
  out_.flush();
}

void Repl::command(const std::string& line) {
  std::size_t end = 1;
  while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end]))) ++end;
  const std::string name = line.substr(1, end - 1);
  const std::string arg = trim(std::string_view(line).substr(end));
  int prefixed = 0;
  const CommandInfo* cmd = find_command(name, prefixed);
  if (!cmd || prefixed != 1) {
    std::string hint = "type :help for the list of commands";
    if (prefixed > 1) {
      hint = "did you mean";
      for (const CommandInfo& c : kCommands) {
        if (c.name.substr(0, name.size()) == name) hint += " :" + std::string(c.name);
      }
      hint += "?";
    } else if (std::string near = nearest(name, command_names()); !near.empty()) {
      hint = "did you mean :" + near + "?";
    }
    error("unknown command ':" + name + "'", hint);
    failed(kExitUsage);
    return;
  }
  const std::string_view c = cmd->name;
  if (c == "help") {
    help();
  } else if (c == "quit") {
    quit_ = true;
  } else if (c == "load") {
    if (arg.empty()) {
      error(":load needs a file", "e.g. :load examples/kayles.game");
      failed(kExitUsage);
      return;
    }
    std::size_t i = 0;
    while (i < arg.size()) {  // several files, separated by spaces
      std::size_t j = i;
      while (j < arg.size() && !std::isspace(static_cast<unsigned char>(arg[j]))) ++j;
      const std::string file = arg.substr(i, j - i);
      const int code = load(file);
      failed(code);
      if (code == 0 && input_.interactive()) out_ << "loaded " << file << '\n';
      i = j;
      while (i < arg.size() && std::isspace(static_cast<unsigned char>(arg[i]))) ++i;
    }
  } else if (c == "reload") {
    if (loaded_.empty()) {
      error("nothing to reload", "load a file first: :load FILE");
      failed(kExitUsage);
      return;
    }
    for (const std::string& file : std::vector<std::string>(loaded_)) {
      const int code = load(file);
      failed(code);
      if (code == 0 && input_.interactive()) out_ << "reloaded " << file << '\n';
    }
  } else if (c == "games") {
    games();
  } else if (c == "def") {
    definition(arg);
  } else if (c == "time") {
    if (arg == "on" || arg == "off") {
      timing_ = arg == "on";
    } else if (!arg.empty()) {
      error(":time takes on or off", "e.g. :time on");
      failed(kExitUsage);
      return;
    }
    out_ << "timing is " << (timing_ ? "on" : "off") << '\n';
  } else if (c == "clear") {
    const std::uint64_t n = session_.clear_memos();
    out_ << "memo tables cleared (" << n << (n == 1 ? " position)" : " positions)") << '\n';
  } else if (c == "play") {
    play(line, end);
  }
  out_.flush();
}

void Repl::help() {
  out_ << "Type statements as in a .game file: an expression prints its value, a definition\n"
          "replaces an earlier one of the same name. A statement with an open bracket or a\n"
          "trailing operator goes on over the next lines.\n\n";
  for (const CommandInfo& c : kCommands) {
    std::string head = ":" + std::string(c.name);
    if (!c.args.empty()) head += " " + std::string(c.args);
    out_ << fmt::format("  {:<18}{}\n", head, c.help);
  }
  out_ << "\nCommands may be shortened (:g for :games). Tab completes names and commands.\n"
          "Ctrl-C stops a long computation, or clears the line; Ctrl-D leaves.\n"
          "In a game: an option's number or the option written out, :hint, :options, :quit.\n"
          "More in docs/repl.md and docs/language.md.\n";
}

void Repl::games() {
  const std::vector<GameSummary> list = session_.games();
  if (list.empty()) {
    out_ << "no games yet: define one (game Nim { state n  move k for k in 0..n-1 }) or import one (import "
            "octal)\n";
    return;
  }
  std::size_t w1 = 0, w2 = 0;
  for (const GameSummary& g : list) {
    w1 = std::max(w1, g.signature.size());
    w2 = std::max(w2, g.form.size());
  }
  for (const GameSummary& g : list) {
    std::string line = fmt::format("{:<{}}  {:<{}}  {}", g.signature, w1, g.form, w2, g.origin);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out_ << line << '\n';
  }
}

void Repl::definition(const std::string& name) {
  if (name.empty()) {
    error(":def needs a name", "e.g. :def Kayles");
    failed(kExitUsage);
    return;
  }
  if (std::optional<std::string> text = session_.definition(name)) {
    out_ << *text << '\n';
    return;
  }
  std::vector<std::string> names = session_.defined_names();
  for (const lang::BuiltinInfo& b : lang::kBuiltins) names.emplace_back(b.name);
  const std::string near = nearest(name, names);
  error("'" + name + "' is not defined",
        near.empty() ? ":games lists the games" : "did you mean '" + near + "'?");
  failed(kExitUsage);
}

Completions Repl::complete(std::string_view before) const {
  Completions c;
  std::size_t lead = 0;
  while (lead < before.size() && std::isspace(static_cast<unsigned char>(before[lead]))) ++lead;
  const std::string_view line = before.substr(lead);
  auto offer = [&](std::string_view word, const auto& candidates) {
    c.word_length = word.size();
    for (const auto& cand : candidates) {
      const std::string_view s(cand);
      if (s.size() >= word.size() && s.substr(0, word.size()) == word) c.words.emplace_back(s);
    }
    std::sort(c.words.begin(), c.words.end());
    c.words.erase(std::unique(c.words.begin(), c.words.end()), c.words.end());
  };

  if (!line.empty() && line[0] == ':') {
    const std::size_t space = line.find_first_of(" \t");
    if (space == std::string_view::npos) {  // the command itself
      std::vector<std::string> names;
      for (const CommandInfo& cmd : kCommands) names.push_back(":" + std::string(cmd.name));
      offer(line, names);
      c.suffix = " ";
      return c;
    }
    int matches = 0;
    const CommandInfo* found = find_command(line.substr(1, space - 1), matches);
    const std::string_view cmd = found ? found->name : std::string_view();
    std::size_t start = line.size();
    while (start > space && !std::isspace(static_cast<unsigned char>(line[start - 1]))) --start;
    const std::string_view word = line.substr(start);
    if (cmd == "load") {  // file names: folders and .game files
      const std::size_t slash = word.rfind('/');
      const std::string dir = slash == std::string_view::npos ? "" : std::string(word.substr(0, slash + 1));
      std::vector<std::string> files;
      std::error_code ec;
      for (const auto& entry : fs::directory_iterator(dir.empty() ? "." : dir, ec)) {
        const std::string fname = entry.path().filename().string();
        const bool hidden = fname[0] == '.' && word.substr(dir.size()).substr(0, 1) != ".";
        if (hidden) continue;
        if (entry.is_directory(ec)) files.push_back(dir + fname + "/");
        else if (entry.path().extension() == ".game") files.push_back(dir + fname);
      }
      offer(word, files);
      if (c.words.size() == 1 && c.words[0].back() != '/') c.suffix = " ";
      return c;
    }
    if (cmd == "time") {
      offer(word, std::vector<std::string>{"on", "off"});
      return c;
    }
    if (cmd == "def") {
      std::vector<std::string> names = session_.defined_names();
      for (const lang::BuiltinInfo& b : lang::kBuiltins) names.emplace_back(b.name);
      offer(word, names);
      return c;
    }
    if (cmd != "play") return c;
  }

  std::size_t start = before.size();
  while (start > 0 && word_char(before[start - 1])) --start;
  const std::string_view word = before.substr(start);
  // After `import ` even with nothing typed yet: the modules are few, and listing them all
  // is how a newcomer finds them.
  const std::string head = trim(before.substr(0, start));
  if (head == "import" || (head.size() > 7 && (head.ends_with(" import") || head.ends_with(";import")))) {
    std::vector<std::string> modules;
    for (std::string_view m : stdlib::module_names()) modules.emplace_back(m);
    offer(word, modules);
    return c;
  }
  if (word.empty() || std::isdigit(static_cast<unsigned char>(word[0]))) return c;
  std::vector<std::string> names = session_.defined_names();
  for (const lang::BuiltinInfo& b : lang::kBuiltins) names.emplace_back(b.name);
  for (std::string_view k : kKeywords) names.emplace_back(k);
  offer(word, names);
  return c;
}

// ---- colours for diagnostics ----

int ColoredErrors::overflow(int c) {
  if (c == traits_type::eof()) return traits_type::not_eof(c);
  if (c == '\n') {
    emit(line_);
    line_.clear();
    target_->sputc('\n');
  } else {
    line_ += static_cast<char>(c);
  }
  return c;
}

int ColoredErrors::sync() {
  if (!line_.empty()) {
    target_->sputn(line_.data(), static_cast<std::streamsize>(line_.size()));
    line_.clear();
  }
  return target_->pubsync();
}

void ColoredErrors::emit(const std::string& line) {
  std::string out;
  const std::size_t at = line.find(": error: ");
  if (line.rfind("error: ", 0) == 0) {
    out = "\033[1;31merror:\033[0m \033[1m" + line.substr(7) + "\033[0m";
  } else if (at != std::string::npos) {
    out = "\033[1m" + line.substr(0, at) + ":\033[0m \033[1;31merror:\033[0m \033[1m" + line.substr(at + 9) +
          "\033[0m";
  } else if (line.rfind("hint: ", 0) == 0) {
    out = "\033[1;36mhint:\033[0m " + line.substr(6);
  } else if (!line.empty() && line.back() == '^' && line.find_first_not_of(" \t") == line.size() - 1) {
    out = line.substr(0, line.size() - 1) + "\033[1;32m^\033[0m";
  } else {
    out = line;
  }
  target_->sputn(out.data(), static_cast<std::streamsize>(out.size()));
}

}  // namespace grundy::cli
