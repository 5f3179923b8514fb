// The read-eval-print loop: statements and :commands typed at a terminal (or piped in),
// run one after another in one Session, which keeps every definition between them.
#pragma once

#include <atomic>
#include <iosfwd>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "cli/LineEditor.hpp"

namespace grundy {
class Session;
}

namespace grundy::cli {

struct ReplOptions {
  bool color = false;                      // colour the prompt and play mode
  std::string source_name = "<repl>";      // what diagnostics call typed input
  std::atomic<bool>* interrupt = nullptr;  // set by the SIGINT handler; Limits::interrupt
};

class Repl {
 public:
  // At a terminal the session must have been made with SessionOptions::rethrow_interrupts
  // (Ctrl-C is then a line of its own, not an error).
  Repl(Session& session, LineSource& input, std::ostream& out, std::ostream& err, ReplOptions options);

  // At a terminal: the version and where to find help.
  void banner();
  // Runs a file in the session, as :load does (and :reload will again). Returns an exit code.
  int load(const std::string& path);
  // Reads and runs statements and commands until :quit or the end of the input. Returns 0
  // at a terminal; otherwise the exit code of the first statement or command that failed.
  int run();
  // What Tab offers: commands, keywords, builtins, defined names, modules, files.
  Completions complete(std::string_view before_cursor) const;

 private:
  void statement(const std::string& chunk);
  void command(const std::string& line);
  // play POSITION or :play POSITION: the position is line[from...].
  void play(const std::string& line, std::size_t from);
  void help();
  void games();
  void definition(const std::string& name);
  // Runs `work` with Ctrl-C armed; an interrupted statement is reported, not fatal.
  template <typename F>
  int guarded(F work);
  void failed(int code);
  void error(const std::string& message, const std::string& hint = {});
  bool defines(const std::string& name) const;

  Session& session_;
  LineSource& input_;
  std::ostream& out_;
  std::ostream& err_;
  ReplOptions options_;
  std::vector<std::string> loaded_;  // files for :reload, in the order they were loaded
  bool timing_ = false;
  bool quit_ = false;
  bool stop_ = false;  // without a terminal, Ctrl-C ends the run
  int status_ = 0;
};

// Colours diagnostics on their way to a terminal: "error:" red, the caret green, "hint:"
// cyan. Works line by line on what Session prints.
class ColoredErrors : public std::streambuf {
 public:
  explicit ColoredErrors(std::streambuf* target) : target_(target) {}

 protected:
  int overflow(int c) override;
  int sync() override;

 private:
  void emit(const std::string& line);
  std::streambuf* target_;
  std::string line_;
};

}  // namespace grundy::cli
