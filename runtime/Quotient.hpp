// Misère quotients of heap games (Plambeck and Siegel, "Misère quotients for impartial
// games", JCTA 115, 2008): a finite commutative monoid Q with a subset P and a map phi from
// heap sizes into Q, such that a misère sum of heaps h1 + ... + hk is a P-position iff
// phi(h1) ... phi(hk) lies in P.
//
// The quotient is built heap by heap (runtime/Quotient.cpp). For heap n it first tries to
// give n an element Q already has (the quotient does not change), else it builds a larger
// candidate (Q times a count of heap n) and reduces it by indistinguishability, then refines
// it at its least failing word (in the multiset order, where a word's options come first)
// by counts of that word's heaps, until no word fails: each refinement keeps every earlier
// word right and mends the failing one, so the least failure only moves on. Nothing is kept
// unless the verification principle holds: every word of heaps 1..n is P exactly when its
// element is.
// That check covers the infinitely many words at once, through a finite abstraction of a
// word (its element, and the elements z for which one of its options times z is in P), so
// a quotient this file returns is proven for every sum of heaps up to `reached`, and for all
// heaps once `period` is set (the periodicity theorem, as for nim-sequences).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/HeapSpec.hpp"
#include "runtime/Period.hpp"

namespace grundy {

// The heaps one option of a heap leaves (empty: none). Each is smaller than the heap moved.
using HeapWord = std::vector<std::int64_t>;
// The options of heap n (n >= 1), appended to `out`.
using HeapOptionsFn = std::function<void(std::int64_t n, std::vector<HeapWord>& out)>;

// A finite commutative monoid by its Cayley table (element 0 the identity) with P marked.
struct BipartiteMonoid {
  int size = 1;
  std::vector<std::uint16_t> mul{0};
  std::vector<std::uint8_t> in_p{0};
  int times(int a, int b) const {
    return mul[static_cast<std::size_t>(a) * static_cast<std::size_t>(size) + static_cast<std::size_t>(b)];
  }
  bool p(int x) const { return in_p[static_cast<std::size_t>(x)] != 0; }
  int psize() const;
};

struct QuotientNames;

struct MisereQuotient {
  BipartiteMonoid q;
  std::vector<std::uint16_t> phi{0};  // the element of heap n, for n = 0 .. reached
  std::int64_t reached = 0;
  std::optional<PeriodInfo> period;   // proven: phi(n + p) == phi(n) for every n >= n0
  std::string stopped;                // why it stopped short of its heaps; empty otherwise
  std::vector<std::int64_t> changes;  // the heaps at which Q grew
  int candidates = 0;                 // candidates built (and verified) for those heaps

  bool covers(std::int64_t n) const { return n >= 0 && (n <= reached || period.has_value()); }
  // phi(n) for a heap the quotient covers.
  int element(std::int64_t n) const {
    if (n > reached) n = period->n0 + (n - period->n0) % period->p;
    return phi[static_cast<std::size_t>(n)];
  }
  // The quotients of misère Nim: |Q| <= 2, or |P| = 2 and |Q| - 2 a power of 2.
  bool tame() const;
  // Its elements' words and presentation, made on first use (runtime/Presentation.cpp).
  const QuotientNames& names() const;

 private:
  mutable std::shared_ptr<const QuotientNames> names_;
};

// What the construction may spend: a candidate's size, and a hook called with units of
// work (a word's abstraction looked at) that throws to stop it (steps, memory, interrupt).
struct QuotientBudget {
  int max_size = 4096;         // elements of the quotient
  int max_candidates = 1000;   // candidates tried for one heap that changes the quotient
  bool stop_at_period = true;  // false: go on to hmax once the period is proven
  std::function<void(std::uint64_t)> charge;
};

// The heaps quotient(G) goes to without a limit, when no period is proven before.
inline constexpr std::int64_t kQuotientHeaps = 4096;

// The quotient of heaps 1..hmax, or fewer when the periodicity theorem proves it first
// (`proof`: the game's code, when it has one the theorem covers) or when the budget's
// max_size stops a candidate (then `stopped` says so and `reached` is the last heap done).
MisereQuotient misere_quotient(const HeapOptionsFn& options, const HeapSpec* proof, std::int64_t hmax,
                               const QuotientBudget& budget);

// Reading a quotient in generators a, b, c, ... (runtime/Presentation.cpp): the generators
// are the elements of the heaps, in heap order, that earlier ones do not make; each element
// is named by its least word (fewest letters, then most a's, ...), as MisereSolver prints.
struct QuotientNames {
  explicit QuotientNames(const MisereQuotient& mq);
  const std::string& word(int x) const { return words_[static_cast<std::size_t>(x)]; }
  // "<a, b | a^2 = 1, b^3 = b>; P = {a, b^2}"
  std::string presentation() const;

 private:
  std::vector<std::string> words_;
  std::vector<std::string> relations_;
  std::vector<int> p_order_;
  std::size_t generators_ = 0;
};

}  // namespace grundy
