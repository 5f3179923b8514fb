#include "runtime/Value.hpp"

#include <algorithm>
#include <functional>

#include "runtime/Error.hpp"

namespace grundy {

// The shared body of every compound value. One struct keeps Value a single pointer wide.
struct Obj {
  std::string str;                     // Str, Table
  std::vector<Value> items;            // Tuple, List, Set, Sum parts
  Value state;                         // Position
  const GameInstance* game = nullptr;  // Position, Game
  std::int64_t lo = 0, hi = -1;        // Range
  std::size_t hash = 0;
  std::uint64_t bytes = kValueBodyBytes;  // Value::bytes()
  std::uint32_t depth = 1;                // nesting of values inside this one
  Modifier mod = Modifier::Normal;        // Sum
};
// What kValueBodyBytes stands for: the body and the reference counts beside it.
static_assert(sizeof(Obj) + 16 <= kValueBodyBytes);

// Values nested deeper than this (a list in a list in a list ..., built by a recursive
// function) are an error rather than a stack overflow when printed, compared or freed.
constexpr std::uint32_t kMaxValueDepth = 10000;

std::uint32_t Value::nest(const std::vector<Value>& items) {
  std::uint32_t d = 0;
  for (const Value& v : items) {
    if (v.obj_ && v.obj_->depth > d) d = v.obj_->depth;
  }
  if (d + 1 > kMaxValueDepth) {
    throw Error(ErrorKind::Limit,
                "a value nested more than " + std::to_string(kMaxValueDepth) +
                    " deep (a list inside a list inside ...)",
                "build it flatter: a list of lists, not a list of a list of a list ...");
  }
  return d + 1;
}

namespace {
// Past this, bytes() stops counting (a list holding itself through shared parts 64 times
// over would pass 2^64): far above any memory limit, and sums of a few such do not wrap.
constexpr std::uint64_t kBytesCap = std::uint64_t{1} << 60;
std::uint64_t add_bytes(std::uint64_t a, std::uint64_t b) { return a + b >= kBytesCap ? kBytesCap : a + b; }
}  // namespace

std::uint64_t Value::weigh(const std::vector<Value>& items) {
  std::uint64_t b = add_bytes(kValueBodyBytes, items.size() * sizeof(Value));
  for (const Value& v : items) {
    if (v.obj_) b = add_bytes(b, v.obj_->bytes);
  }
  return b;
}

std::uint64_t Value::bytes() const { return obj_ ? obj_->bytes : 0; }

namespace {

// Multiply-xorshift mixing: boost's hash_combine collides heavily on small tuples like (v, i).
// h is scaled before it meets v: from h ^ v alone, mix(h, h) was h, so every list of empty
// lists ([[]], [[], [[]]], ..., a tree as nested lists) hashed as [] does.
std::size_t mix(std::size_t h, std::size_t v) {
  std::uint64_t x = (static_cast<std::uint64_t>(h) * 0xc2b2ae3d27d4eb4fULL ^ static_cast<std::uint64_t>(v)) *
                    0x9e3779b97f4a7c15ULL;
  x ^= x >> 29;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 32;
  return static_cast<std::size_t>(x + static_cast<std::uint64_t>(v));
}

std::size_t hash_items(std::size_t seed, const std::vector<Value>& items) {
  std::size_t h = seed;
  for (const Value& v : items) h = mix(h, v.hash());
  return h;
}

const std::vector<Value> kNoItems;
const std::string kNoString;
const Value kNoValue;

}  // namespace

Value Value::string(std::string s) {
  auto o = std::make_shared<Obj>();
  o->hash = std::hash<std::string>{}(s);
  o->bytes = add_bytes(kValueBodyBytes, s.size());
  o->str = std::move(s);
  return Value(Kind::Str, std::move(o));
}

Value Value::word(std::string s) {
  Value v = string(std::move(s));
  v.i_ = 1;  // printed without quotes
  return v;
}

Value Value::tuple(std::vector<Value> items) {
  auto o = std::make_shared<Obj>();
  o->hash = hash_items(0x7475706cULL, items);
  o->depth = nest(items);
  o->bytes = weigh(items);
  o->items = std::move(items);
  return Value(Kind::Tuple, std::move(o));
}

Value Value::list(std::vector<Value> items) {
  auto o = std::make_shared<Obj>();
  o->hash = hash_items(0x6c697374ULL, items);
  o->depth = nest(items);
  o->bytes = weigh(items);
  o->items = std::move(items);
  return Value(Kind::List, std::move(o));
}

Value Value::set(std::vector<Value> items) {
  std::sort(items.begin(), items.end(), less);
  items.erase(std::unique(items.begin(), items.end()), items.end());
  return sorted_set(std::move(items));
}

Value Value::sorted_set(std::vector<Value> items) {
  auto o = std::make_shared<Obj>();
  o->hash = hash_items(0x736574ULL, items);
  o->depth = nest(items);
  o->bytes = weigh(items);
  o->items = std::move(items);
  return Value(Kind::Set, std::move(o));
}

Value Value::range(std::int64_t lo, std::int64_t hi) {
  auto o = std::make_shared<Obj>();
  o->lo = lo;
  o->hi = hi;
  o->hash = mix(mix(0x72616e67ULL, static_cast<std::size_t>(lo)), static_cast<std::size_t>(hi));
  return Value(Kind::Range, std::move(o));
}

Value Value::position(const GameInstance* game, Value state) {
  auto o = std::make_shared<Obj>();
  o->hash = mix(std::hash<const void*>{}(game), state.hash());
  o->depth = state.obj_ ? state.obj_->depth + 1 : 1;  // the state was checked when built
  o->bytes = add_bytes(kValueBodyBytes, state.bytes());
  o->game = game;
  o->state = std::move(state);
  return Value(Kind::Position, std::move(o));
}

Value Value::sum(std::vector<Value> parts, Modifier mod) {
  if (parts.size() == 1 && mod == Modifier::Normal) return parts[0];
  auto o = std::make_shared<Obj>();
  o->hash = hash_items(0x73756dULL + static_cast<std::size_t>(mod), parts);
  o->depth = nest(parts);
  o->bytes = weigh(parts);
  o->items = std::move(parts);
  o->mod = mod;
  return Value(Kind::Sum, std::move(o));
}

Value Value::game(const GameInstance* game) {
  auto o = std::make_shared<Obj>();
  o->game = game;
  o->hash = mix(0x67616d65ULL, std::hash<const void*>{}(game));
  return Value(Kind::Game, std::move(o));
}

Value Value::table(std::string rendered, std::vector<Value> layout) {
  auto o = std::make_shared<Obj>();
  o->bytes = add_bytes(weigh(layout), rendered.size());
  o->depth = nest(layout);
  o->str = std::move(rendered);
  o->items = std::move(layout);
  return Value(Kind::Table, std::move(o));
}

Value Value::quotient(const GameInstance* game, std::int64_t heaps, std::string summary) {
  auto o = std::make_shared<Obj>();
  o->game = game;
  o->lo = heaps;
  o->hash = mix(mix(0x71756f74ULL, std::hash<const void*>{}(game)), static_cast<std::size_t>(heaps));
  o->bytes = add_bytes(kValueBodyBytes, summary.size());
  o->str = std::move(summary);
  return Value(Kind::Quotient, std::move(o));
}

Value Value::loopy(const std::vector<std::uint64_t>& escapes) {
  std::vector<Value> k;
  for (std::uint64_t x : escapes) k.push_back(integer(static_cast<std::int64_t>(x)));
  auto o = std::make_shared<Obj>();
  o->hash = hash_items(0x696e66ULL, k);
  o->bytes = weigh(k);
  o->items = std::move(k);
  return Value(Kind::Loopy, std::move(o));
}

std::int64_t Value::quotient_heaps() const { return obj_ ? obj_->lo : -1; }
const std::string& Value::as_str() const { return obj_ ? obj_->str : kNoString; }
const std::vector<Value>& Value::items() const { return obj_ ? obj_->items : kNoItems; }
std::int64_t Value::range_lo() const { return obj_ ? obj_->lo : 0; }
std::int64_t Value::range_hi() const { return obj_ ? obj_->hi : -1; }
const GameInstance* Value::game() const { return obj_ ? obj_->game : nullptr; }
const Value& Value::state() const { return obj_ ? obj_->state : kNoValue; }
const std::vector<Value>& Value::parts() const { return obj_ ? obj_->items : kNoItems; }
Modifier Value::modifier() const { return kind_ == Kind::Sum && obj_ ? obj_->mod : Modifier::Normal; }

std::size_t Value::hash() const {
  if (obj_) return obj_->hash;
  return mix(static_cast<std::size_t>(kind_), static_cast<std::size_t>(i_));
}

bool operator==(const Value& a, const Value& b) {
  if (a.kind_ != b.kind_) return false;
  if (!a.obj_ || !b.obj_) return a.i_ == b.i_ && a.obj_ == b.obj_;
  if (a.obj_ == b.obj_) return true;
  if (a.obj_->hash != b.obj_->hash) return false;
  return compare(a, b) == 0;
}

namespace {
int cmp_items(const std::vector<Value>& x, const std::vector<Value>& y) {
  std::size_t n = std::min(x.size(), y.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (int c = compare(x[i], y[i])) return c;
  }
  return x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
}
template <typename T>
int cmp3(const T& a, const T& b) {
  return a < b ? -1 : b < a ? 1 : 0;
}
}  // namespace

int compare(const Value& a, const Value& b) {
  if (a.kind_ != b.kind_) return cmp3(a.kind_, b.kind_);
  if (a.obj_ && a.obj_ == b.obj_) return 0;  // one shared body: a memo hit on a big list
  switch (a.kind_) {
    case Kind::Int:
    case Kind::Bool:
    case Kind::Outcome: return cmp3(a.i_, b.i_);
    case Kind::Str:
    case Kind::Table: return cmp3(a.as_str(), b.as_str());
    case Kind::Tuple:
    case Kind::List:
    case Kind::Set:
    case Kind::Loopy: return cmp_items(a.items(), b.items());
    case Kind::Range:
      if (int c = cmp3(a.range_lo(), b.range_lo())) return c;
      return cmp3(a.range_hi(), b.range_hi());
    case Kind::Position: {
      if (a.game() != b.game()) {
        if (int c = compare_instances(a.game(), b.game())) return c;
        return cmp3(static_cast<const void*>(a.game()), static_cast<const void*>(b.game()));
      }
      return compare(a.state(), b.state());
    }
    case Kind::Sum:
      if (int c = cmp3(a.modifier(), b.modifier())) return c;
      return cmp_items(a.parts(), b.parts());
    case Kind::Game:
      if (a.game() == b.game()) return 0;
      return compare_instances(a.game(), b.game());
    case Kind::Quotient:
      if (a.game() != b.game()) {
        if (int c = compare_instances(a.game(), b.game())) return c;
        return cmp3(static_cast<const void*>(a.game()), static_cast<const void*>(b.game()));
      }
      return cmp3(a.quotient_heaps(), b.quotient_heaps());
  }
  return 0;
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Int: return "int";
    case Kind::Bool: return "bool";
    case Kind::Outcome: return "outcome";
    case Kind::Str: return "string";
    case Kind::Tuple: return "tuple";
    case Kind::List: return "list";
    case Kind::Set: return "set";
    case Kind::Range: return "range";
    case Kind::Position: return "position";
    case Kind::Sum: return "sum";
    case Kind::Game: return "game";
    case Kind::Table: return "table";
    case Kind::Quotient: return "quotient";
    case Kind::Loopy: return "loopy value";
  }
  return "value";
}

namespace {
void append_items(std::string& out, const std::vector<Value>& items, const char* open, const char* close) {
  out += open;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    append_value(out, items[i]);
  }
  out += close;
}

void append_quoted(std::string& out, const std::string& s) {
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  out += '"';
}
}  // namespace

void append_value(std::string& out, const Value& v) {
  switch (v.kind()) {
    case Kind::Int: out += std::to_string(v.as_int()); break;
    case Kind::Bool: out += v.as_bool() ? "true" : "false"; break;
    case Kind::Outcome: out += v.as_outcome(); break;
    case Kind::Str:
      if (v.as_int() == 1) out += v.as_str();  // a word (Value::word)
      else append_quoted(out, v.as_str());
      break;
    case Kind::Table:
    case Kind::Quotient: out += v.as_str(); break;
    case Kind::Tuple:
      if (v.items().size() == 1) {
        out += '(';
        append_value(out, v.items()[0]);
        out += ",)";
      } else {
        append_items(out, v.items(), "(", ")");
      }
      break;
    case Kind::List: append_items(out, v.items(), "[", "]"); break;
    case Kind::Set: append_items(out, v.items(), "{", "}"); break;
    case Kind::Loopy:
      out += "inf";
      if (!v.items().empty()) append_items(out, v.items(), "{", "}");
      break;
    case Kind::Range:
      out += std::to_string(v.range_lo());
      out += "..";
      out += std::to_string(v.range_hi());
      break;
    case Kind::Position: append_position(out, v.game(), v.state()); break;
    case Kind::Game: append_instance(out, v.game()); break;
    case Kind::Sum: {
      // Parentheses around a modified sum; `every ((A + B))` is one component that is a sum.
      const bool one_sum =
          v.parts().size() == 1 && v.parts()[0].is(Kind::Sum) && v.parts()[0].parts().size() > 1;
      const bool wrap = v.modifier() != Modifier::Normal && (v.parts().size() > 1 || one_sum);
      if (v.modifier() == Modifier::Misere) out += "misere ";
      if (v.modifier() == Modifier::Every) out += "every ";
      if (wrap) out += '(';
      if (v.parts().empty()) out += '0';
      for (std::size_t i = 0; i < v.parts().size(); ++i) {
        if (i) out += " + ";
        // A component of an every sum may itself be a sum (after a split): keep it whole.
        const bool nested = v.parts()[i].is(Kind::Sum) && v.parts()[i].parts().size() > 1;
        if (nested) out += '(';
        append_value(out, v.parts()[i]);
        if (nested) out += ')';
      }
      if (wrap) out += ')';
      break;
    }
  }
}

std::string to_string(const Value& v) {
  std::string s;
  append_value(s, v);
  return s;
}

}  // namespace grundy
