// The positions of one loopy game explored so far (runtime/Loopy.hpp): each one's id, its
// options and its label.
//
// Positions are held as the compiled rules' coordinates while the rules list every option:
// a word or a few per position, found by an array (one-integer states 0 <= n < kDense, as a
// hand-written labelling indexes its arrays) or a hash map of packed coordinates, with no
// boxed Value made per position. The first position the compiled rules cannot list turns the
// graph into Values for good (`to_values`), ids kept.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "runtime/BoxTable.hpp"
#include "runtime/StateMap.hpp"
#include "runtime/Value.hpp"

namespace grundy {

class LoopyGraph {
 public:
  static constexpr std::uint32_t kOpen = 0xFFFFFFFFu;  // not labelled yet (and not held, in dense_)
  static constexpr std::uint32_t kInf = 0xFFFFFFFEu;

  // A graph of coordinates (arity > 0: the compiled rules' state shape), or of Values.
  explicit LoopyGraph(int arity = 0, IntProgram::Packing packing = {});

  std::uint32_t size() const { return static_cast<std::uint32_t>(label.size()); }
  bool by_coords() const { return arity_ > 0; }
  int arity() const { return arity_; }
  // Position u's state as the language sees it.
  Value state(std::uint32_t u) const;
  // Position u's coordinates (by_coords() only): `arity()` of them.
  const std::int64_t* coords(std::uint32_t u) const {
    return coords_.data() + static_cast<std::size_t>(u) * static_cast<std::size_t>(arity_);
  }

  std::optional<std::uint32_t> find(const Value& s) const;
  std::optional<std::uint32_t> find(const std::int64_t* c) const {
    if (in_dense(c)) {
      const auto n = static_cast<std::size_t>(c[0]);
      if (n < dense_.size() && dense_[n] != kOpen) return dense_[n];
      return std::nullopt;
    }
    if (const std::uint32_t* at = hashed_.find(c)) return *at;
    return std::nullopt;
  }
  // Adds a position not held yet, unlabelled; returns its id.
  std::uint32_t add(const Value& s);
  std::uint32_t add(const std::int64_t* c);
  // From coordinates to Values, for good (the ids stay).
  void to_values();
  // Drops the positions from `from` on (an exploration that failed), and their options.
  void truncate(std::uint32_t from);
  // The memory the graph holds, for --max-memory.
  std::uint64_t bytes() const;

  std::vector<std::uint32_t> first{0};  // u's options are succ[first[u] .. first[u + 1])
  std::vector<std::uint32_t> succ;
  std::vector<std::uint32_t> label;
  std::vector<std::uint32_t> remote;  // kOpen: a draw; empty: not computed

 private:
  // States n of 0 <= n < kDense are found by n: a heap game's, read as a hand-written
  // labelling reads its arrays.
  static constexpr std::int64_t kDense = std::int64_t{1} << 23;
  static bool is_dense(const Value& s) { return s.is(Kind::Int) && s.as_int() >= 0 && s.as_int() < kDense; }
  bool in_dense(const std::int64_t* c) const { return dense_ok_ && c[0] >= 0 && c[0] < kDense; }
  void put_dense(std::int64_t n, std::uint32_t id);

  int arity_;  // 0: Values
  IntProgram::Packing packing_;
  bool dense_ok_;                        // by_coords(): a state is one plain integer
  std::vector<std::uint32_t> dense_;     // kOpen: not held
  std::vector<std::int64_t> coords_;     // by_coords(): arity_ per position
  StateMap<std::uint32_t> hashed_;       // by_coords(): the positions not in dense_
  std::vector<Value> values_;            // otherwise
  absl::flat_hash_map<Value, std::uint32_t> index_;
};

}  // namespace grundy
