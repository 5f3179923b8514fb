// Values of the rule language: what states, parameters and query results are made of.
// Small values (int, bool, outcome) live inline; compound ones share an immutable body,
// so copying a state into a memo key or an option costs a reference count, not a deep copy.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace grundy {

class GameInstance;
class Value;

enum class Kind : std::uint8_t {
  Int,
  Bool,
  Outcome,  // N or P; stored as 'N' / 'P' in the integer slot
  Str,
  Tuple,
  List,
  Set,       // sorted, no duplicates
  Range,     // inclusive a..b; empty when b < a
  Position,  // a game instance and a state
  Sum,       // a disjunctive sum of positions, possibly under a modifier
  Game,      // a game instance itself, e.g. Bash[3]
  Table,     // a rendered table, printed as several lines
  Quotient,  // a misère quotient of a game (runtime/Quotient.hpp), printed as its summary
  Loopy,     // Smith's infinite value of a loopy position: inf, or inf{K} (runtime/Loopy.hpp)
};

enum class Modifier : std::uint8_t { Normal, Misere, Every };

struct Obj;

class Value {
 public:
  Value() = default;
  static Value integer(std::int64_t v) { return Value(Kind::Int, v); }
  static Value boolean(bool b) { return Value(Kind::Bool, b ? 1 : 0); }
  static Value outcome(char c) { return Value(Kind::Outcome, c); }
  static Value string(std::string s);
  // A string that prints bare, even inside a collection: `proven` in (71, 12, proven).
  // It equals the string of the same text.
  static Value word(std::string s);
  static Value tuple(std::vector<Value> items);
  static Value list(std::vector<Value> items);
  static Value set(std::vector<Value> items);  // sorts and removes duplicates
  // The same for items already in order and without duplicates (a merge of two sets).
  static Value sorted_set(std::vector<Value> items);
  static Value range(std::int64_t lo, std::int64_t hi);
  static Value position(const GameInstance* game, Value state);
  // A sum of positions. One normal-play part collapses to that position.
  static Value sum(std::vector<Value> parts, Modifier mod = Modifier::Normal);
  static Value game(const GameInstance* game);
  // A table as it prints, and its cells for other programs (--format json or csv): layout
  // is (the rows' label, the columns' label or "", a list of (row, column, value) tuples;
  // the column () for a sequence).
  static Value table(std::string rendered, std::vector<Value> layout = {});
  // The misère quotient of `game` up to heap `heaps` (-1: until proven), which the solver
  // keeps; `summary` is how it prints.
  static Value quotient(const GameInstance* game, std::int64_t heaps, std::string summary);
  // inf{K}, K the finite values among a loopy position's options (increasing; empty: inf).
  static Value loopy(const std::vector<std::uint64_t>& escapes);

  Kind kind() const { return kind_; }
  bool is(Kind k) const { return kind_ == k; }
  std::int64_t as_int() const { return i_; }
  bool as_bool() const { return i_ != 0; }
  char as_outcome() const { return static_cast<char>(i_); }
  const std::string& as_str() const;
  // Elements of a Tuple, List or Set.
  const std::vector<Value>& items() const;  // Tuple, List, Set; Loopy: K; Table: its layout
  std::int64_t range_lo() const;
  std::int64_t range_hi() const;
  const GameInstance* game() const;         // Position, Game or Quotient
  std::int64_t quotient_heaps() const;      // Quotient
  const Value& state() const;               // Position
  const std::vector<Value>& parts() const;  // Sum: positions
  Modifier modifier() const;                // Sum (Normal for anything else)

  // An estimate of the memory this value holds beyond its own slot: kValueBodyBytes per
  // compound body (a string, collection, position or sum), sizeof(Value) per element and 1
  // per character, through every level. Kept in the body, so O(1); a body shared by several
  // elements is counted each time (an overestimate only for values built from shared parts).
  // Saturates rather than wraps.
  std::uint64_t bytes() const;
  // The shared body's identity (null for int, bool and outcome): equal for copies of one value.
  const void* body() const { return obj_.get(); }
  // True when another Value shares this one's body: it is held elsewhere as well.
  bool shared() const { return obj_ && obj_.use_count() > 1; }

  std::size_t hash() const;
  friend bool operator==(const Value& a, const Value& b);
  friend bool operator!=(const Value& a, const Value& b) { return !(a == b); }
  // A total order, used for sets and canonical multisets of positions.
  friend int compare(const Value& a, const Value& b);
  friend bool operator<(const Value& a, const Value& b) { return compare(a, b) < 0; }
  // operator< with integers compared inline: sets of small integers are the common case
  // (the numbers used so far, in a rule's `k in used` and `used + {k}`).
  static bool less(const Value& a, const Value& b) {
    if (a.kind_ == Kind::Int && b.kind_ == Kind::Int) return a.i_ < b.i_;
    return compare(a, b) < 0;
  }

  template <typename H>
  friend H AbslHashValue(H h, const Value& v) {
    return H::combine(std::move(h), v.hash());
  }

 private:
  // 1 + the deepest of `items`; past kMaxValueDepth an Error (printing, comparing and freeing
  // a value recurse through it, and must not exhaust the stack).
  static std::uint32_t nest(const std::vector<Value>& items);
  // kValueBodyBytes plus the slots and bytes() of `items`.
  static std::uint64_t weigh(const std::vector<Value>& items);
  Value(Kind k, std::int64_t i) : kind_(k), i_(i) {}
  Value(Kind k, std::shared_ptr<const Obj> o) : kind_(k), obj_(std::move(o)) {}
  Kind kind_ = Kind::Int;
  std::int64_t i_ = 0;
  std::shared_ptr<const Obj> obj_;
};

// The cost of one compound value's shared body (with its reference count) in
// Value::bytes(): what a body takes on the heap, rounded up.
inline constexpr std::uint64_t kValueBodyBytes = 160;

struct ValueHash {
  std::size_t operator()(const Value& v) const { return v.hash(); }
};

const char* kind_name(Kind k);
// The language's own syntax: 3, true, (2, 5), [0, 1], {1, 3}, Kayles(10), A + B, N.
std::string to_string(const Value& v);
void append_value(std::string& out, const Value& v);

// What values of positions and games need of a game instance, defined with the games
// (runtime/Game.cpp): the order of two instances (by name, then parameters, so that
// canonical multisets print predictably; 0 for two instances equal in both), and how an
// instance and a position print: Bash[3], Bash[3](10).
int compare_instances(const GameInstance* a, const GameInstance* b);
void append_instance(std::string& out, const GameInstance* g);
void append_position(std::string& out, const GameInstance* g, const Value& state);

}  // namespace grundy
