// grundy::embed (api/include/grundy/grundy.hpp) over a Session of the language with JSON
// output: run's values are the JSON Lines a program prints, diagnostics the JSON objects it
// writes for editors; eval's value comes straight from the interpreter.
#include <sstream>

#include <nlohmann/json.hpp>

#include "api/include/grundy/grundy.hpp"
#include "lang/Json.hpp"
#include "lang/Session.hpp"

namespace grundy::embed {

namespace {

using nlohmann::json;

Value from_json(const json& j) {
  Value v;
  v.json = j.dump();
  v.text = j.is_string() ? j.get<std::string>() : v.json;
  if (j.is_number_integer()) {
    v.kind = Value::Kind::Int;
    v.integer = j.get<std::int64_t>();
  } else if (j.is_boolean()) {
    v.kind = Value::Kind::Bool;
    v.integer = j.get<bool>() ? 1 : 0;
  } else if (j.is_string()) {
    v.kind = Value::Kind::String;  // an outcome too: JSON does not tell them apart
  } else if (j.is_array()) {
    v.kind = Value::Kind::List;  // a tuple or a set too
    for (const json& x : j) v.items.push_back(from_json(x));
  } else if (j.is_object() && j.contains("position")) {
    v.kind = Value::Kind::Position;
    v.text = j.at("position").get<std::string>();
  } else if (j.is_object() && j.contains("sum")) {
    v.kind = Value::Kind::Sum;
  }
  return v;
}

Value from_value(const grundy::Value& x) {
  Value v;
  v.text = to_string(x);
  v.json = lang::to_json(x).dump();
  switch (x.kind()) {
    case Kind::Int: v.kind = Value::Kind::Int; v.integer = x.as_int(); break;
    case Kind::Bool: v.kind = Value::Kind::Bool; v.integer = x.as_bool() ? 1 : 0; break;
    case Kind::Outcome: v.kind = Value::Kind::Outcome; break;
    case Kind::Str: v.kind = Value::Kind::String; v.text = x.as_str(); break;
    case Kind::Tuple:
    case Kind::List:
    case Kind::Set:
      v.kind = x.is(Kind::Tuple) ? Value::Kind::Tuple : x.is(Kind::List) ? Value::Kind::List : Value::Kind::Set;
      for (const grundy::Value& item : x.items()) v.items.push_back(from_value(item));
      break;
    case Kind::Position: v.kind = Value::Kind::Position; break;
    case Kind::Sum: v.kind = Value::Kind::Sum; break;
    default: break;
  }
  return v;
}

std::vector<Diagnostic> diagnostics_of(const std::string& err) {
  std::vector<Diagnostic> out;
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);) {
    const json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {  // not one of the session's: kept as a message
      if (!line.empty()) out.push_back({"error", line, {}, {}, 0, 0});
      continue;
    }
    Diagnostic d;
    d.severity = j.value("severity", "error");
    d.message = j.value("message", "");
    d.hint = j.value("hint", "");
    d.file = j.value("file", "");
    d.line = j.value("line", 0);
    d.column = j.value("column", 0);
    out.push_back(std::move(d));
  }
  return out;
}

SessionOptions session_options(const Options& o) {
  SessionOptions s;
  s.format = SessionOptions::Format::Json;
  if (o.max_states) s.limits.max_states = o.max_states;
  if (o.max_steps) s.limits.max_steps = o.max_steps;
  if (o.max_memory_mb) s.limits.max_memory = o.max_memory_mb << 20;
  if (o.threads) s.limits.threads = o.threads;
  return s;
}

}  // namespace

Failure::Failure(int exit_code, std::vector<Diagnostic> diagnostics)
    : std::runtime_error(diagnostics.empty() ? "grundy: failed" : diagnostics.front().message),
      exit_code_(exit_code),
      diagnostics_(std::move(diagnostics)) {}

struct Engine::Impl {
  explicit Impl(const Options& o) : session(out, err, session_options(o)) {}
  void clear() {
    out.str({});
    err.str({});
  }
  std::ostringstream out, err;
  Session session;
};

Engine::Engine(Options options) : impl_(std::make_unique<Impl>(options)) {}
Engine::~Engine() = default;
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

RunResult Engine::run(std::string_view program, const std::string& name) {
  impl_->clear();
  RunResult r;
  r.exit_code = impl_->session.run_source(program, name);
  std::istringstream lines(impl_->out.str());
  for (std::string line; std::getline(lines, line);) {
    const json j = json::parse(line, nullptr, false);
    if (!j.is_discarded()) r.values.push_back(from_json(j));
  }
  r.diagnostics = diagnostics_of(impl_->err.str());
  return r;
}

Value Engine::eval(std::string_view expression) {
  impl_->clear();
  int failure = 0;
  const std::optional<grundy::Value> v = impl_->session.evaluate(expression, "<eval>", 0, &failure);
  if (!v) throw Failure(failure != 0 ? failure : 70, diagnostics_of(impl_->err.str()));
  return from_value(*v);
}

}  // namespace grundy::embed
