#include "cli/LineEditor.hpp"

#if GRUNDY_HAVE_LIBEDIT
#include <histedit.h>
#endif
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <cwchar>
#include <iostream>

namespace grundy::cli {

namespace {

void strip_newline(std::string& line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
}

#if GRUNDY_HAVE_LIBEDIT
std::size_t terminal_width(FILE* out) {
  winsize ws{};
  if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}
#endif

}  // namespace

ReadStatus StreamLines::read(const std::string&, std::string& line) {
  errno = 0;
  if (!std::getline(in_, line)) {
    if (!in_.bad() && !(file_ && std::ferror(file_))) return ReadStatus::Eof;
    const int error_number = errno;
    struct stat st {};
    if (file_ && fstat(fileno(file_), &st) == 0 && S_ISDIR(st.st_mode)) {
      failure_ = "it is a directory";
    } else {
      failure_ = error_number != 0 ? std::strerror(error_number) : "a read error";
    }
    return ReadStatus::Failed;
  }
  strip_newline(line);
  return ReadStatus::Line;
}

#if GRUNDY_HAVE_LIBEDIT

struct LineEditor::Impl {
  EditLine* el = nullptr;
  History* hist = nullptr;
  FILE* out = stdout;
  std::string prompt;
  std::string history_file;
  Completer completer;
  std::atomic<bool>* interrupt = nullptr;

  static Impl* self(EditLine* el) {
    void* data = nullptr;
    el_get(el, EL_CLIENTDATA, &data);
    return static_cast<Impl*>(data);
  }

  static char* prompt_of(EditLine* el) { return self(el)->prompt.data(); }

  // libedit's own reader only notices Ctrl-C when the signal interrupts its read(); one
  // that lands while it draws an echoed key is lost and the next read blocks. Here SIGINT
  // is blocked except inside ppoll, so a signal from any moment is seen before waiting;
  // the read after ppoll does not wait (see below), so none is spent outside ppoll.
  static int read_char(EditLine* el, wchar_t* out) {
    Impl* d = self(el);
    sigset_t sigint, before;
    sigemptyset(&sigint);
    sigaddset(&sigint, SIGINT);
    pthread_sigmask(SIG_BLOCK, &sigint, &before);
    sigset_t waiting = before;
    sigdelset(&waiting, SIGINT);
    char bytes[MB_LEN_MAX];
    std::size_t have = 0;
    std::mbstate_t state{};
    int result = -1;
    const int fd = fileno(stdin);
    while (true) {
      if (d->interrupt && d->interrupt->load()) {
        errno = EINTR;
        break;
      }
      pollfd p{fd, POLLIN, 0};
      if (ppoll(&p, 1, nullptr, &waiting) < 0) {
        if (errno == EINTR) continue;
        break;
      }
      // Without waiting: a Ctrl-C typed after ppoll saw a key flushes the terminal's input,
      // and a blocking read would then wait, with SIGINT blocked, for the next key.
      const int flags = fcntl(fd, F_GETFL);
      const bool toggle = flags >= 0 && !(flags & O_NONBLOCK);
      if (toggle) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
      const ssize_t n = ::read(fd, bytes + have, 1);
      const int read_errno = errno;
      if (toggle) fcntl(fd, F_SETFL, flags);
      errno = read_errno;
      if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
      if (n <= 0) {
        result = static_cast<int>(n);
        break;
      }
      ++have;
      const std::size_t k = std::mbrtowc(out, bytes, have, &state);
      if (k == static_cast<std::size_t>(-2) && have < sizeof bytes) continue;  // more bytes to come
      if (k == static_cast<std::size_t>(-1) || k == static_cast<std::size_t>(-2)) {
        *out = static_cast<unsigned char>(bytes[0]);  // not valid here: the byte as it is
      }
      result = 1;
      break;
    }
    const int saved = errno;
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    errno = saved;
    return result;
  }

  // Bound to Tab: inserts what all candidates share, else lists them under the line.
  static unsigned char complete(EditLine* el, int) {
    Impl* d = self(el);
    if (!d->completer) return CC_ERROR;
    const LineInfo* li = el_line(el);
    const std::string_view before(li->buffer, static_cast<std::size_t>(li->cursor - li->buffer));
    const Completions c = d->completer(before);
    if (c.words.empty()) return CC_REFRESH_BEEP;
    const std::size_t typed = std::min(c.word_length, before.size());
    std::string common = c.words[0];
    for (const std::string& w : c.words) {
      std::size_t k = 0;
      while (k < common.size() && k < w.size() && common[k] == w[k]) ++k;
      common.resize(k);
    }
    std::string insert = common.size() > typed ? common.substr(typed) : std::string();
    if (c.words.size() == 1) insert += c.suffix;
    if (!insert.empty()) {
      if (el_insertstr(el, insert.c_str()) == -1) return CC_ERROR;
      return CC_REFRESH;
    }
    if (c.words.size() == 1) return CC_REFRESH;
    // Several candidates and nothing more in common: show them in columns.
    std::size_t width = 0;
    for (const std::string& w : c.words) width = std::max(width, w.size());
    width += 2;
    const std::size_t cols = std::max<std::size_t>(1, terminal_width(d->out) / width);
    std::fputc('\n', d->out);
    for (std::size_t i = 0; i < c.words.size(); ++i) {
      if ((i + 1) % cols == 0 || i + 1 == c.words.size()) {
        std::fprintf(d->out, "%s\n", c.words[i].c_str());
      } else {
        std::fprintf(d->out, "%-*s", static_cast<int>(width), c.words[i].c_str());
      }
    }
    std::fflush(d->out);
    return CC_REDISPLAY;
  }
};

LineEditor::LineEditor(const char* program, std::string history_file, std::atomic<bool>* interrupt)
    : impl_(std::make_unique<Impl>()) {
  Impl& d = *impl_;
  d.history_file = std::move(history_file);
  d.interrupt = interrupt;
  d.el = el_init(program, stdin, stdout, stderr);
  el_set(d.el, EL_CLIENTDATA, &d);
  el_set(d.el, EL_EDITOR, "emacs");
  el_set(d.el, EL_SIGNAL, 1);  // restore the terminal when a signal arrives mid-line
  el_set(d.el, EL_PROMPT_ESC, &Impl::prompt_of, '\1');
  el_set(d.el, EL_GETCFN, &Impl::read_char);

  HistEvent ev;
  d.hist = history_init();
  history(d.hist, &ev, H_SETSIZE, 1000);
  history(d.hist, &ev, H_SETUNIQUE, 1);
  el_set(d.el, EL_HIST, history, d.hist);
  if (!d.history_file.empty()) history(d.hist, &ev, H_LOAD, d.history_file.c_str());

  el_source(d.el, nullptr);  // the user's ~/.editrc
  el_set(d.el, EL_ADDFN, "grundy-complete", "Complete a name or a command", &Impl::complete);
  el_set(d.el, EL_BIND, "^I", "grundy-complete", nullptr);
}

LineEditor::~LineEditor() {
  if (impl_->hist) history_end(impl_->hist);
  if (impl_->el) el_end(impl_->el);
}

ReadStatus LineEditor::read(const std::string& prompt, std::string& line) {
  impl_->prompt = prompt;
  int count = 0;
  errno = 0;
  const char* s = el_gets(impl_->el, &count);
  if (!s) {
    // libedit tells Ctrl-C (the read was interrupted) from the end of input by errno.
    if (count == -1 && errno == EINTR) return ReadStatus::Interrupted;
    return ReadStatus::Eof;
  }
  line.assign(s, static_cast<std::size_t>(std::max(count, 0)));
  strip_newline(line);
  return ReadStatus::Line;
}

void LineEditor::add_history(const std::string& entry) {
  if (entry.empty()) return;
  HistEvent ev;
  history(impl_->hist, &ev, H_ENTER, entry.c_str());
  if (!impl_->history_file.empty()) history(impl_->hist, &ev, H_SAVE, impl_->history_file.c_str());
}

void LineEditor::set_completer(Completer completer) { impl_->completer = std::move(completer); }

#else  // no libedit: plain lines after a prompt, no history file, no completion

struct LineEditor::Impl {};

LineEditor::LineEditor(const char*, std::string, std::atomic<bool>*) : impl_(std::make_unique<Impl>()) {}
LineEditor::~LineEditor() = default;

ReadStatus LineEditor::read(const std::string& prompt, std::string& line) {
  for (char c : prompt) {
    if (c != '\1') std::cout << c;
  }
  std::cout.flush();
  if (!std::getline(std::cin, line)) {
    if (errno == EINTR) {
      std::cin.clear();
      return ReadStatus::Interrupted;
    }
    return ReadStatus::Eof;
  }
  strip_newline(line);
  return ReadStatus::Line;
}

void LineEditor::add_history(const std::string&) {}
void LineEditor::set_completer(Completer) {}

#endif

}  // namespace grundy::cli
