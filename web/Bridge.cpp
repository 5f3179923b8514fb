// What the playground's worker (web/src/worker.js) calls in the WebAssembly module: run a
// program in a fresh session, and play a position of that session against the computer.
// Each call takes and returns text (JSON), which crosses the boundary as a C string; the
// returned string lives until the next call.
#include <emscripten/emscripten.h>

#include <chrono>
#include <memory>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "lang/Json.hpp"
#include "lang/Opponent.hpp"
#include "lang/Session.hpp"
#include "runtime/Value.hpp"

namespace {

using grundy::Session;
using grundy::Value;
using Json = nlohmann::ordered_json;

// The session of the last run, which play reads its definitions from.
struct Last {
  std::ostringstream out, err;
  std::unique_ptr<Session> session;
  Value position;  // the position being played
  bool playing = false;
  std::unique_ptr<grundy::SessionEngine> engine;
  std::unique_ptr<grundy::Opponent> opponent;  // the REPL's computer player
};
Last& last() {
  static Last l;
  return l;
}

std::string reply;

// A browser gives a worker under 1 MB of stack for WebAssembly's own frames, which the
// interpreter's stack guard cannot see: a plain recursive function nests about 700 deep in
// Chromium's worker. The limit stops it first, with the CLI's message, rather than the
// engine's RangeError (which the worker also reports, and then starts afresh).
constexpr int kMaxDepth = 500;
// WebAssembly's memory ends at 2 GB (web/CMakeLists.txt); the limit stops work before it.
constexpr std::uint64_t kMaxMemory = std::uint64_t{1536} << 20;
// Values the page draws, at most (a program printing in a loop prints them all as text).
constexpr std::size_t kMaxValues = 1000;

grundy::SessionOptions web_options() {
  grundy::SessionOptions options;
  options.max_depth = kMaxDepth;
  options.limits.max_memory = kMaxMemory;
  return options;
}

const char* answer(const Json& j) {
  reply = j.dump();
  return reply.c_str();
}

std::string text_of(const Value& v) { return v.is(grundy::Kind::Str) ? v.as_str() : grundy::to_string(v); }

// What the page shows of a position in play: it, whether the mover wins (or draws), its
// options (components that cannot move left out, as the REPL shows them) and which of them
// win for the player who takes them.
Json describe(Session& s, grundy::Opponent& opponent, const Value& x) {
  Json j;
  j["position"] = text_of(x);
  const char outcome = s.outcome(x);
  j["outcome"] = std::string(1, outcome);
  j["note"] = s.value_note(x);
  Json options = Json::array();
  const std::vector<Value> opts = s.options(x);
  const std::vector<Value> good = s.winning(x);
  for (const Value& o : opts) {
    bool wins = false;
    for (const Value& g : good) wins = wins || g == o;
    options.push_back(Json{{"text", text_of(opponent.simplify(o))}, {"winning", wins}});
  }
  j["options"] = std::move(options);
  return j;
}

}  // namespace

extern "C" {

// Runs `source` in a fresh session (diagnostics call it `name`): {"code", "out", "err", "values": [{"line", "end",
// "value"}], "seconds"}. Values are those the statements printed, as --format json writes
// them; `end` is where the value's text ends in `out` (in bytes).
EMSCRIPTEN_KEEPALIVE const char* grundy_run(const char* source, const char* name) {
  Last& l = last();
  l.playing = false;
  l.opponent.reset();  // they hold the old session
  l.engine.reset();
  l.session.reset();
  l.out.str("");
  l.err.str("");
  Json values = Json::array();
  grundy::SessionOptions options = web_options();
  options.on_value = [&](const Value& v, std::uint32_t line) {
    // Where the value's text ends in the output, so that the page can put its table or plot
    // in the text's place.
    const auto end = static_cast<std::uint64_t>(l.out.tellp());
    if (values.size() < kMaxValues) {
      values.push_back(Json{{"line", line}, {"end", end}, {"value", grundy::lang::to_json(v)}});
    }
  };
  const auto t0 = std::chrono::steady_clock::now();
  l.session = std::make_unique<Session>(l.out, l.err, options);
  const int code = l.session->run_source(source, name);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return answer(Json{{"code", code},
                     {"out", l.out.str()},
                     {"err", l.err.str()},
                     {"values", std::move(values)},
                     {"seconds", seconds}});
}

// Play, on the session of the last run. The request: {"start": "Kayles(7)"} (an expression),
// {"move": i} (the person takes option i), {"computer": true} (the computer moves). The
// answer describes the position reached, or {"error": text} when a query failed. And
// {"limits": true}: the limits a run has, for the page to show.
EMSCRIPTEN_KEEPALIVE const char* grundy_call(const char* request) {
  Last& l = last();
  if (!l.session) {
    l.session = std::make_unique<Session>(l.out, l.err, web_options());
  }
  Session& s = *l.session;
  l.err.str("");
  try {
    const Json q = Json::parse(request);
    if (q.contains("limits")) {  // what the page shows under the output, as the CLI's --help does
      const grundy::SessionOptions o = web_options();
      return answer(Json{{"max_steps", o.limits.max_steps},
                         {"max_states", o.limits.max_states},
                         {"max_rows", o.limits.max_rows},
                         {"max_memory_mb", o.limits.max_memory >> 20},
                         {"max_depth", o.max_depth}});
    }
    if (q.contains("start")) {
      const std::string text = q["start"].get<std::string>();
      std::optional<Value> v = s.evaluate(text, "play");
      if (!v) return answer(Json{{"error", l.err.str()}});
      if (!v->is(grundy::Kind::Position) && !v->is(grundy::Kind::Sum))
        return answer(Json{{"error", "play needs a position or a sum, got " + text_of(*v)}});
      l.engine = std::make_unique<grundy::SessionEngine>(s);
      l.opponent = std::make_unique<grundy::Opponent>(*l.engine);
      l.position = l.opponent->simplify(*v);
      l.playing = true;
    } else if (!l.playing) {
      return answer(Json{{"error", "no game is being played"}});
    } else if (q.contains("move")) {
      const std::vector<Value> opts = s.options(l.position);
      const auto i = q["move"].get<std::size_t>();
      if (i >= opts.size()) return answer(Json{{"error", "no such option"}});
      l.position = l.opponent->simplify(opts[i]);
    } else if (q.contains("computer")) {
      const std::vector<Value> opts = s.options(l.position);
      if (opts.empty()) return answer(Json{{"error", "the game is over: there is no move to make"}});
      l.position = l.opponent->simplify(l.opponent->choose(l.position, opts).option);
      Json j = describe(s, *l.opponent, l.position);
      j["played"] = text_of(l.position);
      return answer(j);
    }
    return answer(describe(s, *l.opponent, l.position));
  } catch (const grundy::Error& e) {
    s.report(e);
    return answer(Json{{"error", l.err.str()}});
  } catch (const std::exception& e) {
    return answer(Json{{"error", e.what()}});
  }
}

}  // extern "C"
