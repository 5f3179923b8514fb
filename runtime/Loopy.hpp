// Loopy games: play that may go on for ever, a draw. Values are Smith's generalized
// Sprague-Grundy function (C. A. B. Smith, "Graphs and composite games", JCT 1 (1966)):
// a finite nim-value, or inf with K, the finite values among the options. Outcomes, sums
// and remoteness follow from it (docs/loopy.md, ../shared/design/THEORY-NOTES.md part A).
//
// The positions reachable from a query are enumerated (under --max-states), then labelled in
// stages, one value per stage, with counters kept across the stages (Fraenkel's algorithm): a
// stage costs the positions it touches, not O(V + E).
// What one query labels stays: the positions it reached are closed under options, so a later
// query labels only the positions new to it, the old ones fixed.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "runtime/Game.hpp"
#include "runtime/LoopyGraph.hpp"

namespace grundy {

struct Limits;
class Evaluator;

// A value of Smith's function: `finite` with `value`, or inf with `escapes` (K, increasing).
struct LoopyValue {
  bool finite = true;
  std::uint64_t value = 0;
  std::vector<std::uint64_t> escapes;
  // P iff 0; N iff finite and not 0, or inf with 0 in K; D otherwise.
  char outcome() const;
  friend bool operator==(const LoopyValue& a, const LoopyValue& b) {
    return a.finite == b.finite && (a.finite ? a.value == b.value : a.escapes == b.escapes);
  }
};

// The value of a sum from its parts' (Smith's sum rule): finite values add by xor, inf{K}
// plus a finite x is inf{K xor x}, two infinite parts make inf.
LoopyValue loopy_sum(const std::vector<LoopyValue>& parts);

class LoopySolver {
 public:
  explicit LoopySolver(const Limits& limits) : limits_(limits) {}
  LoopyValue value(const Position& p);
  // N, P or D. By retrograde analysis alone where this query explores the game's whole graph
  // or the pass is current, which needs no values (Smith's labelling is left for a query that
  // needs them): a position is P at even remoteness, N at odd, D without. Else by its value.
  char outcome(const Position& p);
  // Moves to the end under best play (0 at a terminal; the winner hurries, the loser delays);
  // nothing for a draw.
  std::optional<std::uint64_t> remoteness(const Position& p);
  // The distinct options of p, in the order the rules give them.
  std::vector<Position> options(const Position& p);
  // Explored positions, all games together.
  std::uint64_t states() const { return states_; }
  void clear() {
    graphs_.clear();
    states_ = 0;
  }

 private:
  using Graph = LoopyGraph;
  static constexpr std::uint32_t kOpen = LoopyGraph::kOpen;
  static constexpr std::uint32_t kInf = LoopyGraph::kInf;
  // p's id in its game's graph, explored (reach) and labelled (solve) as far as p's positions.
  std::uint32_t reach(const Position& p, Graph*& g);
  std::uint32_t solve(const Position& p, Graph*& g);
  std::uint32_t explore(const Position& root, Graph& g);
  // Returns the number of stages.
  std::uint32_t label(Graph& g, std::uint32_t from);
  // Returns whether it went by descent (by_descent).
  bool find_remoteness(Graph& g);
  // `remoteness`: the positions' remoteness too (else their values alone, g.remote left empty).
  bool by_descent(Graph& g, bool remoteness);
  template <class V>
  void descend_values(Graph& g, const std::vector<std::uint32_t>& id, std::uint32_t degree);
  bool descend_new(Graph& g, bool remoteness);
  void explain_descent(const Position& p, const Graph& g, std::uint32_t from) const;
  LoopyValue value_of(const Graph& g, std::uint32_t u) const;

  const Limits& limits_;
  absl::flat_hash_map<const GameInstance*, Graph> graphs_;
  std::uint64_t states_ = 0;
  bool compiled_ = false;  // the last exploration listed options with the compiled rules
};

}  // namespace grundy
