// Misère play: whoever makes the last move loses. The outcome of a misère sum is not a
// function of its components' nim-values, so the exact answer comes from a search over the
// sum itself (SumSearch); two theorems answer common sums at once, each only where its
// conditions are checked to hold:
//  * Bouton's misère Nim: every component is a Nim heap.
//  * One position alone: the outcome recursion with terminal positions won, stopping at the
//    first lost option (Evaluator::position_wins), as cheap as normal play's.
//  * The SJ theorem (Jia Zhihao, the Anti-SG game): every follower of every component moves
//    to single positions only (no splits into two or more parts that can still move) and
//    every follower whose nim-value is 0 has no options, so "all components have value 0" is exactly "nobody
//    can move". Then the mover wins iff (nim-sum != 0 and some component's value > 1) or (nim-sum == 0 and
//    none > 1). With splits or non-terminal zeros the theorem does not apply and is not used.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <absl/container/flat_hash_set.h>

#include "runtime/Quotient.hpp"
#include "runtime/SumSpace.hpp"

namespace grundy {

class MisereSolver {
 public:
  enum class Method { Terminal, MisereNim, OnePosition, SJ, Quotient, Exact };

  MisereSolver(Evaluator& ev, GameRegistry& games, const Limits& limits)
      : ev_(ev), games_(games), limits_(limits), space_(ev) {}

  // True when the player to move wins the sum under misère play.
  bool wins(const Sum& sum, Method* how = nullptr);
  // The misère nim-value of the sum as one game, by exact search (0 iff a P-position;
  // a sum with no moves has value 1).
  std::uint32_t misere_grundy(const Sum& sum);
  // Conway's genus g^{g0 g1 ...}: g is the nim-value, gk the misère nim-value of the sum
  // plus k copies of *2, printed until the exponents alternate for ever ("0^120", "2^20").
  std::string genus(const Sum& sum);
  // For winning(misere X): whether the sum with part i moved to x is won, by X's quotient
  // (a product of three factors per option: the parts before i, x, the parts after); empty
  // when no quotient answers X (then each option is asked of wins()).
  std::function<bool(std::size_t, const Option&)> wins_after(const Sum& sum);
  // True when the SJ theorem's condition holds for every follower of p (see above).
  bool sj_applies(const Position& p);
  void clear();
  // The misère quotient of a heap game (runtime/Quotient.hpp, runtime/MisereQuotients.cpp):
  // of heaps up to hmax, or until the periodicity theorem proves it (at most
  // kQuotientHeaps). Throws Error when g is not a heap game.
  std::shared_ptr<const MisereQuotient> quotient(const GameInstance& g, std::optional<std::int64_t> hmax);

 private:
  Evaluator& ev_;
  GameRegistry& games_;
  const Limits& limits_;
  SumSpace space_;
  absl::flat_hash_map<SumKey, std::uint32_t> memo_;      // misère nim-values
  absl::flat_hash_map<SumKey, std::uint32_t> outcomes_;  // 1: the mover wins, 0: loses
  absl::flat_hash_map<Value, bool> sj_;
  // Games of one integer whose heaps 0..n-1 pass the SJ condition one by one (sj_by_heaps).
  struct SjHeaps {
    std::vector<bool> can_move;  // for the heaps 0, 1, ... that pass
  };
  std::map<const GameInstance*, SjHeaps> sj_heaps_;
  bool sj_by_heaps(const Position& root);
  static constexpr std::int64_t kSjByHeaps = 1024;  // smaller heaps: the search, at once
  absl::flat_hash_set<std::string> explained_;  // method and games --explain has named
  std::map<std::pair<const GameInstance*, std::int64_t>, std::shared_ptr<const MisereQuotient>> quotients_;
  // The quotient a misère sum of g's heaps may use, computed within a small budget; none
  // when g is no heap game or its quotient did not come in the budget.
  struct Automatic {
    std::shared_ptr<const MisereQuotient> quotient;
    std::int64_t blocked = INT64_MAX;  // no attempt reaches this heap (a heap that stops it)
  };
  std::map<const GameInstance*, Automatic> automatic_;
  // g's quotient when it covers heaps up to `largest` (runtime/MisereQuotients.cpp).
  const MisereQuotient* automatic_quotient(const GameInstance& g, std::int64_t largest);
  // The quotient of the heaps of several games together (MisereSolver's linearisation): one
  // heap game whose heaps are each game's heaps 1..upto, ordered by size, so that a heap's
  // options come before it. Small heaps only: no periodicity theorem covers the union.
  struct Union {
    std::vector<std::int64_t> upto;                // per game (in the key's order)
    std::vector<std::vector<std::int64_t>> index;  // index[i][n]: heap n of game i in the union
    std::shared_ptr<const MisereQuotient> quotient;
    std::vector<std::vector<std::int64_t>> blocked;  // heaps to which no attempt came in the budget
  };
  std::map<std::vector<const GameInstance*>, Union> unions_;
  static constexpr std::size_t kUnionGames = 4;
  const MisereQuotient* union_quotient(const std::vector<const GameInstance*>& games,
                                       const std::vector<std::int64_t>& largest, const Union*& used);
  bool build_union(const std::vector<const GameInstance*>& games, std::vector<std::int64_t> upto, Union& u);
  // The quotient that answers `live` (of one game, or the union of its games), and the
  // element of a heap of its games in it (-1 where it does not reach); no quotient when none
  // comes within the budget.
  struct QuotientUse {
    const MisereQuotient* q = nullptr;
    std::function<int(const Position&)> element;
  };
  QuotientUse quotient_for(const Sum& live);
  // A quotient answers `live` at once: it is built (or its heaps are too large for a search).
  bool quotient_ready(const Sum& live) const;
  // The exact search's answer when it comes within `sums` more sums; what it found stays.
  std::optional<bool> exact_within(const Sum& live, std::uint64_t sums);
  bool small_search_ = false;  // --explain: the exact search answers a small sum first
  bool sj_holds(const Sum& live);
  template <typename Report>
  bool sj_wins(const Sum& live, Report& report);

 public:
  // Sums the exact search may take on before a small sum's quotient is built (0: none; the
  // tests of the quotients set it so).
  std::uint64_t exact_first = 20'000;

 private:
  // Heaps up to which a sum's quotient is of its heaps alone (MisereQuotients.cpp), the
  // search may go first, and games are taken together.
  static constexpr std::int64_t kAutomaticSmallHeaps = 64;
  std::string quotient_used_;  // what --explain says of the quotient quotient_for found
  // Builds a quotient within the automatic budget; null (and `over` set) when it did not come.
  std::shared_ptr<const MisereQuotient> within_budget(const HeapOptionsFn& options, const HeapSpec* proof,
                                                      std::int64_t target, std::uint64_t work, bool& over);
  // The options of g's heaps as words, and the code whose periodicity theorem applies (or
  // null); empty with `why` set when g's state is not one heap.
  std::optional<HeapOptionsFn> heap_options(const GameInstance& g, std::optional<HeapSpec>& proof,
                                            std::string& why);  // method and games --explain has named

  // --explain: which method answers a misère sum, once per method and set of games.
  void explain(Method m, const Sum& live, const Position* not_sj);
};

const char* method_name(MisereSolver::Method m);

}  // namespace grundy
