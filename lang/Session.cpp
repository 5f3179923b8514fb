// The language's front door (lang/Session.hpp), over the Driver.
#include "lang/Session.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <fcntl.h>
#include <unistd.h>

#include "lang/Driver.hpp"
#include "lang/SourceText.hpp"

namespace grundy {

using namespace lang;
namespace fs = std::filesystem;

struct Session::Impl : lang::Driver {
  using Driver::Driver;
};

Session::Session(std::ostream& out, std::ostream& err, SessionOptions options)
    : impl_(std::make_unique<Impl>(out, err, options)) {}

Session::~Session() = default;

int Session::run_source(std::string_view text, const std::string& name) {
  return impl_->run(std::string(text), name, fs::current_path().string());
}

int Session::run_file(const std::string& path) {
  const Limits& limits = impl_->options.limits;
  const std::uint64_t most = max_source_bytes(limits.max_memory);
  if (path == "-") {
    SourceRead r = read_source(STDIN_FILENO, most, limits.interrupt);
    if (!r.text) {
      impl_->err << "error: cannot read standard input: " << r.why << '\n';
      return kExitIo;
    }
    return impl_->run(std::move(*r.text), "<stdin>", fs::current_path().string());
  }
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    impl_->err << "error: '" << one_line(path) << "' is a directory, not a .game file\n";
    return kExitIo;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    impl_->err << "error: cannot open '" << one_line(path) << "': " << std::strerror(errno) << '\n';
    return kExitIo;
  }
  SourceRead r = read_source(fd, most, limits.interrupt);
  ::close(fd);
  if (!r.text) {
    impl_->err << "error: cannot read '" << one_line(path) << "': " << r.why << '\n';
    return kExitIo;
  }
  fs::path p(path);
  fs::path canon = fs::weakly_canonical(p, ec);
  return impl_->run(std::move(*r.text), path, p.parent_path().string(), (ec ? p : canon).string());
}

// ---- for the REPL and play mode ----

std::vector<GameSummary> Session::games() const { return impl_->workspace.games(); }

std::optional<std::string> Session::definition(const std::string& name) const {
  return impl_->workspace.definition(name);
}

std::vector<std::string> Session::defined_names() const { return impl_->workspace.defined_names(); }

std::uint64_t Session::clear_memos() { return impl_->workspace.clear_memos(); }

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

std::vector<Value> Session::drawing(const Value& x) { return impl_->query(Builtin::Drawing, x).items(); }

char Session::outcome(const Value& x) { return impl_->query(Builtin::Outcome, x).as_outcome(); }

std::optional<std::uint64_t> Session::remoteness(const Value& x) {
  if (!x.is(Kind::Position) || !x.game()->rules().loopy()) return std::nullopt;
  const Value r = impl_->query(Builtin::Remoteness, x);
  if (!r.is(Kind::Int)) return std::nullopt;
  return static_cast<std::uint64_t>(r.as_int());
}

std::string Session::value_note(const Value& x) {
  switch (x.modifier()) {
    case Modifier::Normal: {
      const Value g = impl_->query(Builtin::Grundy, x);
      if (g.is(Kind::Loopy))
        return "value " + to_string(g) + ", outcome " + to_string(impl_->query(Builtin::Outcome, x));
      return "nim-value " + to_string(g);
    }
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
