#include "lang/Json.hpp"

#include <charconv>

#include "lang/Table.hpp"
#include "runtime/Game.hpp"

namespace grundy::lang {

namespace {

using json = nlohmann::ordered_json;

json items(const std::vector<Value>& xs) {
  json a = json::array();
  auto& array = a.get_ref<json::array_t&>();
  array.reserve(xs.size());
  for (const Value& x : xs) array.push_back(to_json(x));
  return a;
}

// period(...) answers (n0, p, proven) or (n0, p, observed), the last a word.
bool is_period(const Value& v) {
  if (!v.is(Kind::Tuple) || v.items().size() != 3) return false;
  const Value& w = v.items()[2];
  return v.items()[0].is(Kind::Int) && v.items()[1].is(Kind::Int) && w.is(Kind::Str) && w.as_int() == 1 &&
         (w.as_str() == "proven" || w.as_str() == "observed");
}

json instance(const GameInstance* g) {
  return json{{"game", g->rules().name()}, {"params", items(g->params().items())}};
}

}  // namespace

nlohmann::ordered_json to_json(const Value& v) {
  switch (v.kind()) {
    case Kind::Int: return v.as_int();
    case Kind::Bool: return v.as_bool();
    case Kind::Outcome: return std::string(1, v.as_outcome());
    case Kind::Str: return v.as_str();
    case Kind::Tuple:
      if (is_period(v)) {
        return json{{"start", v.items()[0].as_int()},
                    {"period", v.items()[1].as_int()},
                    {"proven", v.items()[2].as_str() == "proven"}};
      }
      return items(v.items());
    case Kind::List:
    case Kind::Set: return items(v.items());
    case Kind::Range: return json{{"range", {v.range_lo(), v.range_hi()}}};
    case Kind::Position: {
      json p{{"position", to_string(v)}};
      p.update(instance(v.game()));
      p["state"] = to_json(v.state());
      return p;
    }
    case Kind::Game: return instance(v.game());
    case Kind::Sum: {
      json s{{"sum", items(v.parts())}};
      if (v.modifier() == Modifier::Misere) s["play"] = "misere";
      if (v.modifier() == Modifier::Every) s["play"] = "every";
      return s;
    }
    case Kind::Table: {
      const TableGrid g = table_grid(v);
      json t{{"row", g.row_label}};
      if (!g.col_label.empty()) t["column"] = g.col_label;
      t["rows"] = items(g.rows);
      t["columns"] = items(g.cols);
      json cells = json::array();
      for (const auto& row : g.cells) {
        json r = json::array();
        for (const Value* cell : row) r.push_back(cell ? to_json(*cell) : json(nullptr));
        cells.push_back(std::move(r));
      }
      t["cells"] = std::move(cells);
      return t;
    }
    case Kind::Quotient: {
      json q{{"quotient", v.as_str()}};
      q.update(instance(v.game()));
      return q;
    }
    case Kind::Loopy: return json{{"inf", items(v.items())}};
  }
  return nullptr;
}

namespace {

// Lists, sets, tuples and integers written out as they are met, the rest through the
// library's tree: a list of a million values is not first built as a million nodes of a tree
// (that took longer than printing it as text).
void append_json(std::string& out, const Value& v) {
  if (v.is(Kind::List) || v.is(Kind::Set) || (v.is(Kind::Tuple) && !is_period(v))) {
    out += '[';
    for (std::size_t i = 0; i < v.items().size(); ++i) {
      if (i > 0) out += ',';
      append_json(out, v.items()[i]);
    }
    out += ']';
  } else if (v.is(Kind::Int)) {
    char digits[24];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, v.as_int()).ptr);
  } else {
    // Bytes that are not UTF-8 (a string built from a file's bytes) are replaced, not an error.
    out += to_json(v).dump(-1, ' ', false, json::error_handler_t::replace);
  }
}

}  // namespace

std::string json_line(const Value& v) {
  std::string out;
  append_json(out, v);
  return out;
}

}  // namespace grundy::lang
