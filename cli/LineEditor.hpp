// Where the REPL's lines come from. At a terminal, LineEditor: libedit's line editing, a
// history kept in a file and tab completion, behind a small interface (after LLVM's
// LineEditor). Otherwise StreamLines: plain lines from standard input or from `-c` text,
// with no prompt, so that a session can be piped in and golden-tested.
#pragma once

#include <atomic>
#include <cstdio>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace grundy::cli {

enum class ReadStatus {
  Line,         // a line was read (without its newline)
  Interrupted,  // Ctrl-C at the prompt: the line typed so far is dropped
  Eof,          // Ctrl-D on an empty line, or the end of the input
  Failed,       // the input cannot be read (closed, a directory, EIO): LineSource::failure()
};

class LineSource {
 public:
  virtual ~LineSource() = default;
  // Reads one line; `prompt` is shown only at a terminal.
  virtual ReadStatus read(const std::string& prompt, std::string& line) = 0;
  // True for a terminal: prompts, line editing, history.
  virtual bool interactive() const = 0;
  // Remembers an entry (a whole statement, or a command) in the history.
  virtual void add_history(const std::string& entry) { (void)entry; }
  // Why the last read returned Failed.
  virtual std::string failure() const { return {}; }
};

// Lines from a stream.
class StreamLines : public LineSource {
 public:
  // `file`: the C stream under `in` (stdin under std::cin), whose error flag tells a read
  // error from the end of the input; iostreams report both as the end.
  explicit StreamLines(std::istream& in, std::FILE* file = nullptr) : in_(in), file_(file) {}
  ReadStatus read(const std::string& prompt, std::string& line) override;
  bool interactive() const override { return false; }
  std::string failure() const override { return failure_; }

 private:
  std::istream& in_;
  std::FILE* file_;
  std::string failure_;
};

// What Tab offers: `words` would replace the last `word_length` characters before the
// cursor. When there is exactly one word, `suffix` follows it (a space after a command).
struct Completions {
  std::size_t word_length = 0;
  std::vector<std::string> words;
  std::string suffix;
};
using Completer = std::function<Completions(std::string_view before_cursor)>;

class LineEditor : public LineSource {
 public:
  // `history_file` empty: history for this session only. `interrupt` is the flag the
  // SIGINT handler sets: a read at the prompt returns Interrupted once it is set, even when
  // the signal came while the editor was drawing rather than waiting for a key.
  LineEditor(const char* program, std::string history_file, std::atomic<bool>* interrupt);
  ~LineEditor() override;
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  // The prompt may hold colour escapes, each wrapped in '\1' ... '\1' so that libedit
  // does not count them as columns.
  ReadStatus read(const std::string& prompt, std::string& line) override;
  bool interactive() const override { return true; }
  // Adds to the history and saves the history file at once (a second Ctrl-C ends the
  // process without running destructors).
  void add_history(const std::string& entry) override;
  void set_completer(Completer completer);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace grundy::cli
