// dot(X): the graph of the positions reachable from X, for Graphviz (LANGUAGE.md section 12).
// A node is a position or a sum of positions (a split leaves a sum; its node shows the
// components), labelled with its nim-value; P-positions (value 0) are drawn with a double
// border. Past --max-rows nodes, an error naming the limit.
#include <absl/container/flat_hash_map.h>

#include <deque>

#include "lang/Faults.hpp"
#include "lang/Interpreter.hpp"
#include "lang/Queries.hpp"
#include "runtime/Error.hpp"
#include "runtime/Memory.hpp"
#include "runtime/Moves.hpp"
#include "runtime/Show.hpp"

namespace grundy::lang {

namespace {

// A DOT string of lines: quotes and backslashes escaped, the lines joined by DOT's \n.
std::string quoted(const std::vector<std::string>& lines) {
  std::string out = "\"";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += "\\n";
    for (char ch : lines[i]) {
      if (ch == '"' || ch == '\\') out += '\\';
      out += ch == '\n' ? ' ' : ch;
    }
  }
  return out + '"';
}

}  // namespace

Value query_dot(BuiltinCall& c) {
  const Value& x = c.args[0];
  if (x.modifier() != Modifier::Normal) {
    fail_at(c.arg0, "dot draws normal play, with nim-values; not a misere or every sum",
            "ask dot(X) of the sum without its modifier");
  }
  Interpreter& in = c.in;
  const Sum start = in.sum_of(x, c.arg0, Builtin::Dot);
  if (Evaluator::any_loopy(start)) {
    fail_at(c.arg0, "dot does not draw a loopy game yet: its graph has cycles and draws",
            "ask outcome(X), drawing(X) or remoteness(X)");
  }
  const Limits& limits = in.world().limits;
  absl::flat_hash_map<Value, std::size_t> id;
  std::deque<Value> todo;
  std::string nodes, edges;
  auto node = [&](const Value& v) {
    const auto [it, fresh] = id.try_emplace(v, id.size());
    if (fresh) {
      if (id.size() > limits.max_rows) {
        throw Error(ErrorKind::Limit,
                    "the graph of " + shown(x) + " has more than " + std::to_string(limits.max_rows) +
                        " positions",
                    "raise the limit with --max-rows N, or draw a smaller position", c.arg0);
      }
      todo.push_back(v);
    }
    return it->second;
  };
  node(x.is(Kind::Int) ? Value::sum({}) : x);
  while (!todo.empty()) {
    const Value v = std::move(todo.front());
    todo.pop_front();
    const std::size_t from = id.at(v);
    const Sum s = in.sum_of(v, c.arg0, Builtin::Dot);
    const std::uint64_t g = in.evaluator().grundy(s);
    nodes += "  n" + std::to_string(from) + " [label=" + quoted({to_string(v), "*" + std::to_string(g)}) +
             (g == 0 ? ", peripheries=2" : "") + "];\n";
    for (const Value& o : list_options(in.evaluator(), in.misere(), s, Modifier::Normal, false)) {
      edges += "  n" + std::to_string(from) + " -> n" + std::to_string(node(o)) + ";\n";
    }
    if (heap_over(limits.max_memory)) limits.memory_exceeded("the graph");
  }
  return Value::string("digraph " + quoted({to_string(x)}) + " {\n  node [shape=box];\n" + nodes + edges + "}");
}

}  // namespace grundy::lang
