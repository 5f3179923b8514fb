#include "runtime/Quotient.hpp"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/hash/hash.h>
#include <absl/types/span.h>

#include <algorithm>
#include <array>
#include <map>
#include <variant>

#include "runtime/Dense.hpp"
#include "runtime/Error.hpp"

namespace grundy {

int BipartiteMonoid::psize() const {
  return static_cast<int>(std::count(in_p.begin(), in_p.end(), std::uint8_t{1}));
}

bool MisereQuotient::tame() const {
  const int s = q.size;
  if (s <= 2) return true;
  const int r = s - 2;
  return q.psize() == 2 && (r & (r - 1)) == 0;
}

namespace {

using Elements = std::vector<std::uint16_t>;  // sorted, distinct

// Rows of `width` values side by side in one vector, hashed and compared by row number (the
// abstractions of words, and the signatures of the reduction).
template <class T>
struct RowHash {
  const std::vector<T>* rows;
  std::size_t width;
  // abseil hashes the row's bytes at once, where a multiply per value was a chain of them.
  std::size_t operator()(std::size_t r) const {
    return absl::Hash<absl::Span<const T>>{}(absl::MakeConstSpan(rows->data() + r * width, width));
  }
};
template <class T>
struct RowEq {
  const std::vector<T>* rows;
  std::size_t width;
  bool operator()(std::size_t a, std::size_t b) const {
    return std::equal(rows->begin() + static_cast<std::ptrdiff_t>(a * width),
                      rows->begin() + static_cast<std::ptrdiff_t>((a + 1) * width),
                      rows->begin() + static_cast<std::ptrdiff_t>(b * width));
  }
};

// The verification works on heaps grouped by what it sees of them: the element, and the
// elements of the options (the transition set). Heaps alike in both play alike.
struct HeapClass {
  int element;
  Elements moves;
  std::int64_t heap;  // the smallest heap of the class, for the failing word
};

// The element of a word, the product of its heaps' elements.
template <typename ElementOf>
int element_of(const BipartiteMonoid& q, const HeapWord& w, ElementOf&& elem) {
  int x = 0;
  for (std::int64_t h : w) x = q.times(x, elem(h));
  return x;
}

template <typename ElementOf>
Elements transitions(const BipartiteMonoid& q, const std::vector<HeapWord>& options, ElementOf&& elem) {
  Elements t;
  t.reserve(options.size());
  for (const HeapWord& w : options) t.push_back(static_cast<std::uint16_t>(element_of(q, w, elem)));
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  return t;
}

std::vector<HeapClass> heap_classes(const BipartiteMonoid& q, const std::vector<std::uint16_t>& phi,
                                    const std::vector<std::vector<HeapWord>>& options) {
  std::map<std::pair<int, Elements>, std::int64_t> seen;
  auto elem = [&](std::int64_t h) { return phi[static_cast<std::size_t>(h)]; };
  for (std::size_t h = 1; h < phi.size(); ++h) {
    seen.try_emplace({phi[h], transitions(q, options[h], elem)}, static_cast<std::int64_t>(h));
  }
  std::vector<HeapClass> out;
  for (auto& [key, heap] : seen) out.push_back({key.first, key.second, heap});
  std::sort(out.begin(), out.end(), [](const HeapClass& a, const HeapClass& b) { return a.heap < b.heap; });
  return out;
}

// For each element d of q, the bits of the z with d z in P, a row of `words` 64-bit words.
std::vector<std::uint64_t> rows_in_p(const BipartiteMonoid& q, std::size_t words) {
  const auto m = static_cast<std::size_t>(q.size);
  std::vector<std::uint64_t> rows(m * words, 0);
  for (std::size_t d = 0; d < m; ++d) {
    const std::uint16_t* row = &q.mul[d * m];
    for (std::size_t i = 0; i < words; ++i) {
      std::uint64_t acc = 0;  // a word at a time: a chain of stores into one word was slower
      for (std::size_t z = 64 * i; z < std::min(m, 64 * i + 64); ++z)
        acc |= static_cast<std::uint64_t>(q.in_p[row[z]]) << (z % 64);
      rows[d * words + i] = acc;
    }
  }
  return rows;
}

// The walks keep a word's S (below) as the elements d of its options, S being the union of
// their rows {z : d z in P}: for a heap of element c, {z : c z in S} is then the union of the
// rows of the c d, a few rows ORed, where going through Q's table for it was most of the time
// of the walks. acc |= the row of d, and d joins `kept` when its row adds to acc, so that the
// elements kept still make the union.
void add_row(const std::vector<std::uint64_t>& rows, std::size_t words, std::size_t d,
             std::uint64_t* __restrict acc, std::vector<std::uint16_t>& kept) {
  const std::uint64_t* __restrict r = &rows[d * words];
  std::uint64_t more = 0;
  for (std::size_t i = 0; i < words; ++i) {
    more |= r[i] & ~acc[i];
    acc[i] |= r[i];
  }
  if (more != 0) kept.push_back(static_cast<std::uint16_t>(d));
}

// {z : c z in S} for S the union of the rows of the d in [d, d_end), as the union of the
// rows of the c d, each product once (`met`, marked with a new `pass`: c takes many d to one).
void add_products(const BipartiteMonoid& q, int c, const std::uint16_t* d, const std::uint16_t* d_end,
                  const std::vector<std::uint64_t>& rows, std::size_t words, std::vector<std::uint64_t>& met,
                  std::uint64_t& pass, std::uint64_t* acc, std::vector<std::uint16_t>& kept) {
  ++pass;
  for (; d != d_end; ++d) {
    const auto cd = static_cast<std::size_t>(q.times(c, *d));
    if (met[cd] == pass) continue;
    met[cd] = pass;
    add_row(rows, words, cd, acc, kept);
  }
}

// The verification principle over every word of the heaps: a word is P iff it can move and
// none of its options is P. A word is abstracted to (x, S, can_move): x its element, and S
// the elements z for which some option of the word, times z, is in P. Adding heap g (element
// c, options T) to a word gives (x c, {z : c z in S} + {z : x t z in P for t in T}), so the
// abstractions reachable from the empty word are finitely many and a breadth-first walk over
// them meets every failure there is, the shortest first.
//
// The walk is kept: a heap class added later (a new heap that leaves Q as it is) only walks
// from the abstractions already reached, and is taken back with what it reached when it fails.
class Verifier {
 public:
  Verifier(BipartiteMonoid q, const QuotientBudget& budget)
      : q_(std::move(q)), budget_(budget), words_((static_cast<std::size_t>(q_.size) + 63) / 64) {
    const auto m = static_cast<std::size_t>(q_.size);
    in_p_after_ = rows_in_p(q_, words_);
    met_.assign(m, 0);
    if (words_ == 1) {  // a quotient of up to 64 elements: {z : c z in S} a byte of S at a time
      preimage_.assign(m * 8 * 256, 0);
      for (std::size_t c = 0; c < m; ++c) {
        std::uint64_t from[64] = {};  // from[t]: the z with c z = t
        for (std::size_t z = 0; z < m; ++z)
          from[q_.times(static_cast<int>(c), static_cast<int>(z))] |= bit(z);
        for (std::size_t j = 0; j < 8; ++j) {
          for (std::size_t v = 1; v < 256; ++v) {
            const std::size_t low = static_cast<std::size_t>(__builtin_ctzll(v));
            preimage_[(c * 8 + j) * 256 + v] =
                preimage_[(c * 8 + j) * 256 + (v & (v - 1))] | from[8 * j + low];
          }
        }
      }
    }
    std::vector<std::uint64_t> none(words_, 0);
    add(0, false, none.data(), kNone, 0);
  }

  // Adds the words with heaps of the classes hs: the shortest of them that its element gets
  // wrong, if any (and then the classes are taken back).
  std::optional<HeapWord> add_classes(std::vector<HeapClass> hs) {
    const std::size_t mark = x_.size();
    const auto first = static_cast<std::uint32_t>(heaps_.size());
    for (HeapClass& h : hs) heaps_.push_back(std::move(h));
    const auto classes = static_cast<std::uint32_t>(heaps_.size());
    if (first == 0) {  // nothing walked yet: the empty word first
      if (auto f = check(0)) return undo(mark, first, f);
    }
    for (std::uint32_t k = 0; k < mark; ++k) {
      for (std::uint32_t c = first; c < classes; ++c) step(k, c);
    }
    for (auto k = static_cast<std::uint32_t>(mark); k < x_.size(); ++k) {
      if (auto f = check(k)) return undo(mark, first, f);
      for (std::uint32_t c = 0; c < classes; ++c) step(k, c);
      pending_ += classes * words_;
      if (pending_ >= 4096 && budget_.charge) {
        budget_.charge(pending_);
        pending_ = 0;
      }
    }
    return std::nullopt;
  }

  // Whether a word walked plus one heap of class h is wrong, so that add_classes would fail:
  // most elements tried for a new heap fail so, and this finds it without walking further.
  bool fails_at_once(const HeapClass& h) const {
    const auto m = static_cast<std::size_t>(q_.size);
    std::vector<std::uint8_t> option_p(m, 0);  // for y: whether y t is P for an option t
    for (std::size_t y = 0; y < m; ++y) {
      for (std::uint16_t t : h.moves) option_p[y] |= q_.p(q_.times(static_cast<int>(y), t)) ? 1 : 0;
    }
    const auto c = static_cast<std::size_t>(h.element);
    for (std::size_t k = 0; k < x_.size(); ++k) {
      const bool can_move = can_move_[k] != 0 || !h.moves.empty();
      // The identity is in {z : c z in S} iff c is in S.
      const bool option_in_p = (bits_[k * words_ + c / 64] & bit(c)) != 0 || option_p[x_[k]] != 0;
      if (q_.p(q_.times(x_[k], h.element)) != (can_move && !option_in_p)) return true;
    }
    return false;
  }

 private:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  static std::uint64_t bit(std::size_t z) { return std::uint64_t{1} << (z % 64); }

  std::optional<HeapWord> check(std::uint32_t k) const {
    const bool can_move = can_move_[k] != 0;
    const bool option_in_p = (bits_[k * words_] & 1) != 0;  // z = 1, the identity
    if (q_.p(x_[k]) != (can_move && !option_in_p)) return word(k);
    return std::nullopt;
  }

  std::optional<HeapWord> undo(std::size_t mark, std::uint32_t classes, std::optional<HeapWord> failure) {
    for (std::size_t k = mark; k < x_.size(); ++k) seen_.erase(static_cast<std::uint32_t>(k));
    x_.resize(mark);
    can_move_.resize(mark);
    bits_.resize(mark * words_);
    hash_.resize(mark);
    parent_.resize(mark);
    via_.resize(mark);
    ds_.resize(ds_at_[mark]);
    ds_at_.resize(mark + 1);
    heaps_.resize(classes);
    return failure;
  }

  // The abstraction of word k plus a heap of class g.
  void step(std::uint32_t k, std::uint32_t g) {
    const HeapClass& h = heaps_[g];
    const int x = x_[k];
    scratch_.assign(words_, 0);
    scratch_ds_.clear();
    if (!preimage_.empty()) {
      const std::uint64_t from = bits_[k];
      const std::uint64_t* table = &preimage_[static_cast<std::size_t>(h.element) * 8 * 256];
      std::uint64_t s = 0;
      for (std::size_t j = 0; j < 8; ++j) s |= table[j * 256 + ((from >> (8 * j)) & 255)];
      for (std::uint16_t t : h.moves) s |= in_p_after_[static_cast<std::size_t>(q_.times(x, t))];
      scratch_[0] = s;
    } else {
      add_products(q_, h.element, ds_.data() + ds_at_[k], ds_.data() + ds_at_[k + 1], in_p_after_, words_, met_,
                   pass_, scratch_.data(), scratch_ds_);
      for (std::uint16_t t : h.moves)
        add_row(in_p_after_, words_, static_cast<std::size_t>(q_.times(x, t)), scratch_.data(), scratch_ds_);
    }
    add(q_.times(x, h.element), can_move_[k] != 0 || !h.moves.empty(), scratch_.data(), k, g);
  }

  std::uint64_t hash_of(int x, bool can_move, const std::uint64_t* s) const {
    return absl::HashOf(x, can_move, absl::MakeConstSpan(s, words_));
  }

  void add(int x, bool can_move, const std::uint64_t* s, std::uint32_t parent, std::uint32_t via) {
    const auto k = static_cast<std::uint32_t>(x_.size());
    x_.push_back(static_cast<std::uint16_t>(x));
    can_move_.push_back(can_move ? 1 : 0);
    bits_.insert(bits_.end(), s, s + words_);
    hash_.push_back(hash_of(x, can_move, s));
    if (!seen_.insert(k).second) {
      x_.pop_back();
      can_move_.pop_back();
      bits_.resize(bits_.size() - words_);
      hash_.pop_back();
      return;
    }
    parent_.push_back(parent);
    via_.push_back(via);
    ds_.insert(ds_.end(), scratch_ds_.begin(), scratch_ds_.end());
    ds_at_.push_back(static_cast<std::uint32_t>(ds_.size()));
  }

  HeapWord word(std::uint32_t k) const {
    HeapWord w;
    for (; parent_[k] != kNone; k = parent_[k]) w.push_back(heaps_[via_[k]].heap);
    std::sort(w.begin(), w.end());
    return w;
  }

  struct Hash {
    const Verifier* v;
    std::size_t operator()(std::uint32_t k) const { return v->hash_[k]; }
  };
  struct Eq {
    const Verifier* v;
    bool operator()(std::uint32_t a, std::uint32_t b) const {
      if (v->x_[a] != v->x_[b] || v->can_move_[a] != v->can_move_[b] || v->hash_[a] != v->hash_[b])
        return false;
      return std::equal(&v->bits_[a * v->words_], &v->bits_[a * v->words_] + v->words_,
                        &v->bits_[b * v->words_]);
    }
  };

  BipartiteMonoid q_;
  const QuotientBudget& budget_;
  std::size_t words_;
  std::vector<HeapClass> heaps_;
  std::vector<std::uint64_t> in_p_after_;  // for each d, the z with d z in P
  std::vector<std::uint64_t> preimage_;    // words_ == 1: for c, byte j of S, its value
  std::vector<std::uint16_t> x_;
  std::vector<std::uint8_t> can_move_;
  std::vector<std::uint64_t> bits_;
  std::vector<std::uint64_t> hash_;
  std::vector<std::uint32_t> parent_, via_;
  std::vector<std::uint16_t> ds_;  // words_ > 1: k's S, the rows of ds_[ds_at_[k] .. ds_at_[k + 1])
  std::vector<std::uint32_t> ds_at_{0};
  std::vector<std::uint64_t> scratch_;
  std::vector<std::uint16_t> scratch_ds_;
  std::vector<std::uint64_t> met_;  // == pass_: a product c d already ORed in this step
  std::uint64_t pass_ = 0;
  std::uint64_t pending_ = 0;
  absl::flat_hash_set<std::uint32_t, Hash, Eq> seen_{16, Hash{this}, Eq{this}};
};

// A verifier of q with the heaps of phi, or the shortest failure.
std::variant<std::unique_ptr<Verifier>, HeapWord> verify(const BipartiteMonoid& q,
                                                         const std::vector<std::uint16_t>& phi,
                                                         const std::vector<std::vector<HeapWord>>& options,
                                                         const QuotientBudget& budget) {
  auto v = std::make_unique<Verifier>(q, budget);
  if (auto f = v->add_classes(heap_classes(q, phi, options))) return std::move(*f);
  return v;
}

// Heaps that get a count of their own in a candidate, beside their element of Q: a cyclic
// monoid of index i and period p (g^(i+p) = g^i). Heap n, new to Q, gets one (kNewHeap, its
// element of Q the identity); so do the heaps of a failing word when a trial is refined.
struct Freed {
  static constexpr int kNewHeap = -1;
  int element;        // or kNewHeap
  std::int64_t heap;  // > 0: this heap alone, split from the others of its element
  int index, period;
  friend bool operator==(const Freed&, const Freed&) = default;
};

// Which count, if any, heap h (element `old` in Q, kNewHeap for heap n) goes to.
int freed_of(const std::vector<Freed>& freed, std::int64_t h, int old) {
  for (std::size_t j = 0; j < freed.size(); ++j) {
    if (freed[j].heap == h) return static_cast<int>(j);
  }
  for (std::size_t j = 0; j < freed.size(); ++j) {
    if (freed[j].heap == 0 && freed[j].element == old) return static_cast<int>(j);
  }
  return -1;
}

// Words of heaps in the multiset order (descending, compared lexicographically): replacing a
// heap by any number of smaller ones gives a smaller word, so a word's options come before it.
using SortedWord = std::vector<std::int64_t>;  // descending
void insert_heap(SortedWord& w, std::int64_t h) {
  w.insert(std::upper_bound(w.begin(), w.end(), h, std::greater<>()), h);
}

// A walk over nodes by least words (Dijkstra's, in the multiset order; a word plus a heap
// comes after the word). A node is offered the word of a node already taken plus a heap, and
// kept as that pair, so the queue holds three numbers an entry and a word is written out
// once, into one arena, when its node is taken: the walks offer millions of words of a few
// heaps each, and a vector apiece was a third of their time.
class LeastWords {
 public:
  using Heap = std::uint32_t;
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

  // Node `root` with the empty word.
  explicit LeastWords(std::uint32_t root) {
    grow(root);
    from_[root] = root;
    queue_.push_back({root, 0, root});
  }
  LeastWords(const LeastWords&) = delete;
  LeastWords& operator=(const LeastWords&) = delete;

  // Whether node j was taken.
  bool taken(std::uint32_t j) const { return j < taken_.size() && taken_[j] != 0; }

  // Offers node j (not taken) the word of taken node k plus heap h.
  void offer(std::uint32_t j, std::uint32_t k, Heap h) {
    grow(j);
    if (from_[j] != kNone && compare(k, h, from_[j], heap_[j]) >= 0) return;
    from_[j] = k;
    heap_[j] = h;
    queue_.push_back({k, h, j});
    std::push_heap(queue_.begin(), queue_.end(), later_);
  }

  // Takes the node of the least word offered (kNone when none is left).
  std::uint32_t next() {
    while (!queue_.empty()) {
      std::pop_heap(queue_.begin(), queue_.end(), later_);
      const Entry e = queue_.back();
      queue_.pop_back();
      if (taken_[e.node] || from_[e.node] != e.from || heap_[e.node] != e.heap) continue;  // bettered
      taken_[e.node] = 1;
      at_[e.node] = static_cast<std::uint32_t>(arena_.size());
      if (e.from != e.node) {  // not the root
        const std::uint32_t n = size_[e.from];
        arena_.resize(arena_.size() + n + 1);
        const Heap* w = &arena_[at_[e.from]];
        Heap* out = &arena_[at_[e.node]];
        const Heap* cut = std::upper_bound(w, w + n, e.heap, std::greater<>());
        out = std::copy(w, cut, out);
        *out++ = e.heap;
        std::copy(cut, w + n, out);
        size_[e.node] = n + 1;
      }
      return e.node;
    }
    return kNone;
  }

  // The word of a taken node, heaps descending; the node whose word it extends, and by what.
  const Heap* word(std::uint32_t j) const { return arena_.data() + at_[j]; }
  std::uint32_t size(std::uint32_t j) const { return size_[j]; }
  std::uint32_t from(std::uint32_t j) const { return from_[j]; }
  Heap heap(std::uint32_t j) const { return heap_[j]; }

 private:
  struct Entry {
    std::uint32_t from;
    Heap heap;
    std::uint32_t node;
  };

  void grow(std::uint32_t j) {
    if (j < from_.size()) return;
    const std::size_t n = std::max<std::size_t>(j + 1, 2 * from_.size());
    from_.resize(n, kNone);
    heap_.resize(n, 0);
    at_.resize(n, 0);
    size_.resize(n, 0);
    taken_.resize(n, 0);
  }

  // The word of taken node a plus heap x against that of b plus y: negative, 0 or positive.
  int compare(std::uint32_t a, Heap x, std::uint32_t b, Heap y) const {
    const Heap* u = word(a);
    const Heap* v = word(b);
    const std::uint32_t nu = size_[a], nv = size_[b];
    std::uint32_t i = 0, j = 0;
    bool x_in = false, y_in = false;
    for (;;) {
      const bool u_done = i == nu && x_in, v_done = j == nv && y_in;
      if (u_done || v_done) return u_done == v_done ? 0 : (u_done ? -1 : 1);
      Heap p, r;
      if (!x_in && (i == nu || x > u[i])) {
        p = x;
        x_in = true;
      } else {
        p = u[i++];
      }
      if (!y_in && (j == nv || y > v[j])) {
        r = y;
        y_in = true;
      } else {
        r = v[j++];
      }
      if (p != r) return p < r ? -1 : 1;
    }
  }

  struct Later {
    const LeastWords* w;
    bool operator()(const Entry& a, const Entry& b) const {
      return w->compare(a.from, a.heap, b.from, b.heap) > 0;
    }
  };

  std::vector<std::uint32_t> from_;  // the best offer so far: the taken node and the heap
  std::vector<Heap> heap_;
  std::vector<std::uint32_t> at_, size_;  // a taken node's word: arena_[at_ .. at_ + size_)
  std::vector<std::uint8_t> taken_;
  std::vector<Heap> arena_;
  std::vector<Entry> queue_;
  Later later_{this};
};

struct Candidate {
  BipartiteMonoid q;
  std::vector<std::uint16_t> phi;
  std::vector<SortedWord> least;  // each element's least word
};

// The least word of heaps 1..n in the multiset order that c gets wrong (P though it cannot
// move or has a P option, or N though it can move and has none), if any: the verifier's
// abstraction of words (element, the z with an option times z in P, can move) walked as
// Dijkstra's walk, by least words, rather than breadth first. A word's options come before
// it in that order, so a candidate right on every word before its least failure stays right
// there when refined (runtime/Quotient.hpp).
//
// The least word that is P with a P option comes straight from the least words of the
// elements (MisereSolver's P-failures), and the walk stops there; below it, a word whose S
// holds the S of an earlier word of the same element and can-move is not walked on from
// (as MisereSolver prunes by transition sets): the other failures only lose by a larger S.
std::optional<HeapWord> least_failure(const Candidate& c, const std::vector<std::vector<HeapWord>>& options,
                                      const QuotientBudget& budget) {
  const BipartiteMonoid& q = c.q;
  std::vector<HeapClass> classes = heap_classes(q, c.phi, options);
  std::stable_sort(classes.begin(), classes.end(),
                   [](const HeapClass& a, const HeapClass& b) { return a.element < b.element; });
  const auto m = static_cast<std::size_t>(q.size);
  const std::size_t words = (m + 63) / 64;
  const std::vector<std::uint64_t> in_p_after = rows_in_p(q, words);  // for each d, the z with d z in P
  // Abstractions: the element and can-move in the first word of the key, S after it.
  std::vector<std::uint64_t> keys;
  std::uint32_t abstractions = 0;
  const std::size_t width = words + 1;
  absl::flat_hash_set<std::uint32_t, RowHash<std::uint64_t>, RowEq<std::uint64_t>> seen(
      16, RowHash<std::uint64_t>{&keys, width}, RowEq<std::uint64_t>{&keys, width});
  // The abstraction in the last `width` words of keys: its number, and whether it is new.
  auto intern = [&]() {
    const auto [it, fresh] = seen.insert(abstractions);
    if (!fresh) {
      keys.resize(keys.size() - width);
      return std::pair{*it, false};
    }
    return std::pair{abstractions++, true};
  };
  // S of abstraction k: the rows of ds[ds_at[k] .. ds_at[k + 1]) (add_row).
  std::vector<std::uint16_t> ds;
  std::vector<std::uint32_t> ds_at{0, 0};
  keys.assign(width, 0);
  LeastWords walk(intern().first);
  std::vector<std::uint64_t> s(words), pull(words);
  std::vector<std::uint16_t> pulled_ds, child_ds;
  std::vector<std::uint64_t> met(m, 0);  // == pass: a product c d already in `pull`
  std::uint64_t pass = 0;
  // The least word P with a P option: some x's least word plus a heap g with x g in P and
  // x t in P for an option t of g; any such word is at least that one.
  std::optional<SortedWord> bound;
  for (std::size_t x = 0; x < m; ++x) {
    const int xi = static_cast<int>(x);
    for (const HeapClass& g : classes) {
      if (!q.p(q.times(xi, g.element)) ||
          std::none_of(g.moves.begin(), g.moves.end(), [&](std::uint16_t t) { return q.p(q.times(xi, t)); }))
        continue;
      SortedWord w = c.least[x];
      insert_heap(w, g.heap);
      if (!bound || w < *bound) bound = std::move(w);
    }
  }
  // The abstractions walked on from, by the head of their key (element and can-move), none
  // of whose S holds another's. The least failure u below the bound is N (or P that cannot
  // move): wrong with any S within its own. Were a word v on its way (u = v + r) to hold the
  // S of an earlier w of its head, w + r would be wrong too, and before u; so no such v
  // keeps the walk from u (each is the least word of its abstraction, as u is).
  std::vector<std::vector<std::uint32_t>> frontier(2 * m);
  auto within = [&](std::uint32_t a, std::uint32_t b) {  // S of a within S of b
    const std::uint64_t* sa = &keys[a * width + 1];
    const std::uint64_t* sb = &keys[b * width + 1];
    for (std::size_t i = 0; i < words; ++i) {
      if ((sa[i] & ~sb[i]) != 0) return false;
    }
    return true;
  };
  auto walk_on = [&](std::uint32_t k) {
    std::vector<std::uint32_t>& f = frontier[keys[k * width]];
    if (std::any_of(f.begin(), f.end(), [&](std::uint32_t i) { return within(i, k); })) return false;
    std::erase_if(f, [&](std::uint32_t i) { return within(k, i); });
    f.push_back(k);
    return true;
  };
  std::uint64_t pending = 0;
  for (std::uint32_t k; (k = walk.next()) != LeastWords::kNone;) {
    const LeastWords::Heap* word = walk.word(k);
    const std::uint32_t size = walk.size(k);
    if (bound && !std::lexicographical_compare(word, word + size, bound->begin(), bound->end())) break;
    const std::uint64_t head = keys[k * width];
    const auto x = static_cast<int>(head >> 1);
    const bool can_move = (head & 1) != 0;
    const bool option_in_p = (keys[k * width + 1] & 1) != 0;  // z = 1, the identity
    if (q.p(x) != (can_move && !option_in_p))
      return HeapWord(std::reverse_iterator(word + size), std::reverse_iterator(word));
    if (!walk_on(k)) continue;
    int pulled = -1;  // the element c whose {z : c z in S} is in `pull`, made by pulled_ds
    for (const HeapClass& g : classes) {
      if (g.element != pulled) {  // the classes come by element: once per element
        pulled = g.element;
        std::fill(pull.begin(), pull.end(), 0);
        pulled_ds.clear();
        add_products(q, g.element, ds.data() + ds_at[k], ds.data() + ds_at[k + 1], in_p_after, words, met, pass,
                     pull.data(), pulled_ds);
      }
      s = pull;
      child_ds = pulled_ds;
      for (std::uint16_t t : g.moves)
        add_row(in_p_after, words, static_cast<std::size_t>(q.times(x, t)), s.data(), child_ds);
      const int y = q.times(x, g.element);
      keys.push_back(static_cast<std::uint64_t>(y) * 2 + (can_move || !g.moves.empty() ? 1 : 0));
      keys.insert(keys.end(), s.begin(), s.end());
      const auto [j, fresh] = intern();
      if (fresh) {
        ds.insert(ds.end(), child_ds.begin(), child_ds.end());
        ds_at.push_back(static_cast<std::uint32_t>(ds.size()));
      }
      if (!walk.taken(j)) walk.offer(j, k, static_cast<LeastWords::Heap>(g.heap));
    }
    pending += classes.size() * words;
    if (pending >= 4096 && budget.charge) {
      budget.charge(pending);
      pending = 0;
    }
  }
  if (bound) return HeapWord(bound->rbegin(), bound->rend());
  return std::nullopt;
}

// A candidate for the quotient of heaps 1..n: the submonoid of Q x (a cyclic monoid per freed
// heap) that the heaps make, a freed heap h going to (phi(h), its own generator) and the new
// heap n, when base_phi stops short of it, to (1, its generator). It keeps everything Q knew
// and tells the freed heaps' counts apart. P is marked by the outcome of each element's least
// word, whose options' elements have smaller least words; then elements no product tells
// apart are merged (reduction by indistinguishability). Null when it would pass
// `max_elements`.
std::optional<Candidate> candidate(const BipartiteMonoid& Q, const std::vector<std::uint16_t>& base_phi,
                                   const std::vector<std::vector<HeapWord>>& options, std::int64_t n,
                                   const std::vector<Freed>& freed, std::size_t max_elements) {
  const std::size_t F = freed.size();
  std::vector<int> radix;
  std::size_t L = 1;
  for (const Freed& f : freed) {
    radix.push_back(f.index + f.period);
    L *= static_cast<std::size_t>(f.index + f.period);
    if (L * static_cast<std::size_t>(Q.size) > max_elements) return std::nullopt;
  }
  const std::size_t span = static_cast<std::size_t>(Q.size) * L;
  // An element: (its element of Q) * L + its exponents in mixed radix.
  std::vector<int> ka;
  auto exps = [&](std::size_t z, std::vector<int>& k) {
    k.resize(F);
    std::size_t c = z % L;
    for (std::size_t j = F; j-- > 0;) {
      k[j] = static_cast<int>(c % static_cast<std::size_t>(radix[j]));
      c /= static_cast<std::size_t>(radix[j]);
    }
  };
  auto encode = [&](int q, const std::vector<int>& k) {
    std::size_t c = 0;
    for (std::size_t j = 0; j < F; ++j)
      c = c * static_cast<std::size_t>(radix[j]) + static_cast<std::size_t>(k[j]);
    return static_cast<std::size_t>(q) * L + c;
  };
  // The counts' part of a product, from each code's digits (the products are most of the
  // work of building a candidate).
  std::vector<std::uint8_t> digit(L * F);
  std::vector<std::vector<std::size_t>> wrapped(F);  // count j's stride * (a + b, wrapped) for a + b
  for (std::size_t j = F, stride = 1; j-- > 0; stride *= static_cast<std::size_t>(radix[j])) {
    const int i = freed[j].index, p = freed[j].period;
    for (int c = 0; c < 2 * (i + p); ++c)
      wrapped[j].push_back(stride * static_cast<std::size_t>(c >= i + p ? i + (c - i) % p : c));
  }
  for (std::size_t c = 0; c < L; ++c) {
    exps(c, ka);
    for (std::size_t j = 0; j < F; ++j) digit[c * F + j] = static_cast<std::uint8_t>(ka[j]);
  }
  auto times = [&](std::size_t a, std::size_t b) {
    const std::size_t q =
        static_cast<std::size_t>(Q.times(static_cast<int>(a / L), static_cast<int>(b / L))) * L;
    const std::uint8_t* da = &digit[(a % L) * F];
    const std::uint8_t* db = &digit[(b % L) * F];
    std::size_t c = 0;
    for (std::size_t j = 0; j < F; ++j) c += wrapped[j][static_cast<std::size_t>(da[j] + db[j])];
    return q + c;
  };
  std::vector<std::size_t> heap_element(static_cast<std::size_t>(n) + 1, 0);
  for (std::int64_t h = 1; h <= n; ++h) {
    std::vector<int> k(F, 0);
    const bool fresh = static_cast<std::size_t>(h) >= base_phi.size();  // heap n, new to Q
    const int old = fresh ? Freed::kNewHeap : base_phi[static_cast<std::size_t>(h)];
    const int q = fresh ? 0 : old;
    if (const int j = freed_of(freed, h, old); j >= 0) k[static_cast<std::size_t>(j)] = 1;

    heap_element[static_cast<std::size_t>(h)] = encode(q, k);
  }
  // The elements the heaps make, each with its least word, in the order of those words
  // (Dijkstra's: a word plus a heap is larger than the word).
  std::vector<std::int64_t> gen_heap;  // the least heap of each element of a heap
  {
    std::vector<std::size_t> seen;
    for (std::int64_t h = 1; h <= n; ++h) {
      const std::size_t e = heap_element[static_cast<std::size_t>(h)];
      if (e != 0 && std::find(seen.begin(), seen.end(), e) == seen.end()) {
        seen.push_back(e);
        gen_heap.push_back(h);
      }
    }
  }
  const std::size_t G = gen_heap.size();
  std::vector<std::uint32_t> gen_of(static_cast<std::size_t>(n) + 1, 0);  // gen_heap[gen_of[h]] = h
  for (std::size_t g = 0; g < G; ++g)
    gen_of[static_cast<std::size_t>(gen_heap[g])] = static_cast<std::uint32_t>(g);
  LeastWords least(0);
  std::vector<std::size_t> order;   // the elements made, by least word
  std::vector<std::size_t> action;  // order[i] times the element of gen_heap[g], at i * G + g
  for (std::uint32_t x; (x = least.next()) != LeastWords::kNone;) {
    order.push_back(x);
    for (std::int64_t h : gen_heap) {
      const std::size_t z = times(x, heap_element[static_cast<std::size_t>(h)]);
      action.push_back(z);
      if (!least.taken(static_cast<std::uint32_t>(z)))
        least.offer(static_cast<std::uint32_t>(z), x, static_cast<LeastWords::Heap>(h));
    }
  }
  auto word_element = [&](const HeapWord& w) {
    std::size_t z = 0;
    for (std::int64_t h : w) z = times(z, heap_element[static_cast<std::size_t>(h)]);
    return z;
  };
  std::vector<std::vector<std::size_t>> moves(static_cast<std::size_t>(n) + 1);
  for (std::int64_t h = 1; h <= n; ++h) {
    auto& t = moves[static_cast<std::size_t>(h)];
    for (const HeapWord& w : options[static_cast<std::size_t>(h)]) t.push_back(word_element(w));
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
  }
  // P: the least word can move and no option of it is P. Its options come earlier.
  std::vector<std::uint8_t> in_p(span, 0), done(span, 0);
  for (std::size_t z : order) {
    const LeastWords::Heap* w = least.word(static_cast<std::uint32_t>(z));
    const std::uint32_t size = least.size(static_cast<std::uint32_t>(z));
    bool can_move = false, option_in_p = false;
    for (std::size_t i = 0; i < size && !option_in_p; ++i) {
      if (i > 0 && w[i] == w[i - 1]) continue;
      const auto& t = moves[static_cast<std::size_t>(w[i])];
      if (t.empty()) continue;
      can_move = true;
      std::size_t rest = 0;  // the word without one heap w[i]
      for (std::size_t j = 0; j < size; ++j) {
        if (j != i) rest = times(rest, heap_element[static_cast<std::size_t>(w[j])]);
      }
      for (std::size_t e : t) {
        const std::size_t o = times(rest, e);
        if (!done[o]) return std::nullopt;  // cannot happen: the options' words are smaller
        if (in_p[o]) {
          option_in_p = true;
          break;
        }
      }
    }
    in_p[z] = can_move && !option_in_p;
    done[z] = 1;
  }
  // Reduction: Moore's partition refinement over the action of the heaps' elements.
  const std::size_t size = order.size();
  std::vector<std::size_t> at_of(span, 0);
  for (std::size_t i = 0; i < size; ++i) at_of[order[i]] = i;
  for (std::size_t& z : action) z = at_of[z];
  std::vector<std::uint32_t> cls(size);
  for (std::size_t i = 0; i < size; ++i) cls[i] = in_p[order[i]];
  std::size_t classes = 0;
  std::vector<std::uint32_t> sig((G + 1) * size);
  for (;;) {
    for (std::size_t i = 0; i < size; ++i) {
      sig[i * (G + 1)] = cls[i];
      for (std::size_t g = 0; g < G; ++g) sig[i * (G + 1) + 1 + g] = cls[action[i * G + g]];
    }
    // Signatures by hash: a class is the set of elements with one signature.
    const std::size_t width = G + 1;
    absl::flat_hash_map<std::size_t, std::uint32_t, RowHash<std::uint32_t>, RowEq<std::uint32_t>> ids(
        size, RowHash<std::uint32_t>{&sig, width}, RowEq<std::uint32_t>{&sig, width});
    std::vector<std::uint32_t> next(size);
    for (std::size_t i = 0; i < size; ++i)
      next[i] = ids.try_emplace(i, static_cast<std::uint32_t>(ids.size())).first->second;
    cls.swap(next);
    if (ids.size() == classes) break;
    classes = ids.size();
  }
  if (classes > 0xFFFF) return std::nullopt;
  // Number the classes in the order of their least words: the identity's first.
  std::vector<int> number(classes, -1);
  std::vector<std::size_t> first;
  for (std::size_t i = 0; i < size; ++i) {
    if (number[cls[i]] < 0) {
      number[cls[i]] = static_cast<int>(first.size());
      first.push_back(order[i]);
    }
  }
  Candidate c;
  const auto m = static_cast<int>(first.size());
  c.q.size = m;
  c.q.mul.assign(static_cast<std::size_t>(m) * static_cast<std::size_t>(m), 0);
  c.q.in_p.assign(static_cast<std::size_t>(m), 0);
  c.least.resize(static_cast<std::size_t>(m));
  // The table row by row from the classes' action: b = b' g where b's least word is that of b'
  // (an earlier class) and a heap of g, so a b = (a b') g, a lookup per product, where
  // multiplying the representatives and finding their class took three scattered ones.
  const auto M = static_cast<std::size_t>(m);
  std::vector<std::uint16_t> act(M * G);  // class a times the element of gen_heap[g]
  std::vector<std::uint16_t> before(M), gen(M);
  for (std::size_t a = 0; a < M; ++a) {
    const std::size_t i = at_of[first[a]];
    for (std::size_t g = 0; g < G; ++g)
      act[a * G + g] = static_cast<std::uint16_t>(number[cls[action[i * G + g]]]);
    if (a > 0) {
      const auto f = static_cast<std::uint32_t>(first[a]);
      before[a] = static_cast<std::uint16_t>(number[cls[at_of[least.from(f)]]]);
      gen[a] = static_cast<std::uint16_t>(gen_of[least.heap(f)]);
    }
  }
  for (std::size_t a = 0; a < M; ++a) {
    const auto f = static_cast<std::uint32_t>(first[a]);
    c.least[a].assign(least.word(f), least.word(f) + least.size(f));
    c.q.in_p[a] = in_p[first[a]];
    std::uint16_t* row = &c.q.mul[a * M];
    row[0] = static_cast<std::uint16_t>(a);
    for (std::size_t b = 1; b < M; ++b) row[b] = act[static_cast<std::size_t>(row[before[b]]) * G + gen[b]];
  }
  c.phi.assign(static_cast<std::size_t>(n) + 1, 0);
  for (std::int64_t h = 1; h <= n; ++h) {
    c.phi[static_cast<std::size_t>(h)] =
        static_cast<std::uint16_t>(number[cls[at_of[heap_element[static_cast<std::size_t>(h)]]]]);
  }
  return c;
}

int element_in(const Candidate& c, const HeapWord& w) {
  int x = 0;
  for (std::int64_t h : w) x = c.q.times(x, c.phi[static_cast<std::size_t>(h)]);
  return x;
}

// Whether word a comes after word b (each sorted up) in the multiset order, where a word's
// options come before it.
bool later(const HeapWord& a, const HeapWord& b) {
  return std::lexicographical_compare(b.rbegin(), b.rend(), a.rbegin(), a.rend());
}

// Recalibration after the least failing word u of a trial: the trial refined by counts of some
// of u's heaps (the trial times a cyclic monoid per heap, g^(c+3) = g^(c+1) for c copies in u,
// each heap keeping its element), which keeps every word before u right: their least words
// come before u too. Heaps are counted one more at a time, each where u and the least word of
// its element still differ, until the least failure moves on; with all of u's heaps counted, u
// is the least word of its element, so right (its options come earlier), and it does. With
// alike_first, each heap's whole element is counted before the heap alone (also a refinement).
// A count whose candidate passes max_size elements is dropped. Each candidate goes to `take`,
// which says when it is enough (true).
template <typename Take>
void recalibrate(const Candidate& trial, const std::vector<std::vector<HeapWord>>& options, std::int64_t n,
                 const HeapWord& failure, std::size_t max_elements, int max_size, bool alike_first,
                 Take&& take) {
  std::vector<Freed> counts;  // a count of each heap of u that can move, exact to its copies in u
  for (std::size_t i = 0; i < failure.size(); ++i) {
    const std::int64_t h = failure[i];
    if (options[static_cast<std::size_t>(h)].empty() || (i > 0 && failure[i - 1] == h)) continue;
    const auto copies = static_cast<int>(std::count(failure.begin(), failure.end(), h));
    counts.push_back({trial.phi[static_cast<std::size_t>(h)], h, copies + 1, 2});
  }
  std::vector<Freed> counted;
  SortedWord least = trial.least[static_cast<std::size_t>(element_in(trial, failure))];
  for (;;) {
    // The next heap: one whose count tells u from `least`, else any not counted yet.
    auto next = counts.end();
    for (auto it = counts.begin(); it != counts.end(); ++it) {
      if (std::find(counted.begin(), counted.end(), *it) != counted.end()) continue;
      if (next == counts.end()) next = it;
      if (std::count(least.begin(), least.end(), it->heap) + 1 != it->index) {
        next = it;
        break;
      }
    }
    if (next == counts.end()) return;
    // First a count of every heap of its element together (the failures that follow are
    // often u with that pair of heaps changed for another pair of the same element), then its
    // own.
    const Freed own = *next;
    Freed alike{own.element, 0, 1, 2};
    for (std::int64_t h : failure)
      alike.index += trial.phi[static_cast<std::size_t>(h)] == own.element ? 1 : 0;

    for (const Freed& f : {alike, own}) {
      if (!alike_first && f.heap == 0) continue;
      if (std::find(counted.begin(), counted.end(), f) != counted.end()) continue;
      counted.push_back(f);
      std::optional<Candidate> c = candidate(trial.q, trial.phi, options, n, counted, max_elements);
      if (!c || c->q.size > max_size) {  // too large: without this count
        counted.pop_back();
        if (f.heap == 0) continue;
        return;
      }
      least = c->least[static_cast<std::size_t>(element_in(*c, failure))];
      if (take(std::move(c))) return;
    }
  }
}

}  // namespace

MisereQuotient misere_quotient(const HeapOptionsFn& options_of, const HeapSpec* proof, std::int64_t hmax,
                               const QuotientBudget& budget) {
  MisereQuotient mq;
  std::vector<std::vector<HeapWord>> options(1);
  const bool provable = proof != nullptr && proof->provable();
  // The element given to each transition set seen so far: a heap with the same one is
  // indistinguishable from the earlier heap (their options have the same elements).
  std::map<Elements, std::uint16_t> known;
  auto elem = [&](std::int64_t h) { return mq.phi[static_cast<std::size_t>(h)]; };
  // The walk over the words of the heaps so far, kept while Q stays.
  auto verifier = std::make_unique<Verifier>(mq.q, budget);
  auto relearn = [&] {
    known.clear();
    for (std::size_t h = 1; h < mq.phi.size(); ++h)
      known.try_emplace(transitions(mq.q, options[h], elem), mq.phi[h]);
  };
  for (std::int64_t n = 1; n <= hmax; ++n) {
    // The heaps' options are kept (Kayles' heap n has n of them: 10,000 heaps held 2.7 GB):
    // --max-memory and Ctrl-C are looked at every few heaps, not only by the verifier.
    if (n % 16 == 0 && budget.charge) budget.charge(0);
    std::vector<HeapWord> opts;
    options_of(n, opts);
    for (HeapWord& w : opts) {
      w.erase(std::remove(w.begin(), w.end(), std::int64_t{0}), w.end());
      for (std::int64_t h : w) {
        if (h < 0 || h >= n)
          throw Error(ErrorKind::Runtime, "a move from heap " + std::to_string(n) + " leaves heap " +
                                              std::to_string(h) + ", not a smaller one");
      }
    }
    options.push_back(std::move(opts));
    const Elements t = transitions(mq.q, options.back(), elem);
    if (auto it = known.find(t); it != known.end()) {
      mq.phi.push_back(it->second);
    } else {
      // Keep Q: an element with the outcome heap n has alone, that passes verification.
      const bool want_p = !t.empty() && std::none_of(t.begin(), t.end(), [&](int x) { return mq.q.p(x); });
      bool kept = false;
      for (int x = 0; x < mq.q.size && !kept; ++x) {
        if (mq.q.p(x) != want_p) continue;
        const HeapClass h{x, t, n};
        kept = !verifier->fails_at_once(h) && !verifier->add_classes({h});
        if (kept) mq.phi.push_back(static_cast<std::uint16_t>(x));
      }
      if (!kept) {
        // The trial: Q and a cyclic monoid for heap n (g^4 = g^2), then recalibrated at each
        // failing word, to a candidate whose least failure comes later, until none is left.
        const auto max_elements =
            std::max<std::size_t>(static_cast<std::size_t>(budget.max_size) * 16, std::size_t{1} << 20);
        std::optional<Candidate> found;
        std::unique_ptr<Verifier> found_verifier;
        // Counts of a heap's whole element first (fewer trials, as a rule), and where they
        // make the trials too large, counts of heaps alone.
        for (const bool alike : {true, false}) {
          std::optional<std::pair<Candidate, HeapWord>> next;
          HeapWord bar;  // the failure to beat
          int built = 0;
          // Whether c ends the search: verified (found), or the next trial.
          struct Looked {
            BipartiteMonoid q;
            std::vector<std::uint16_t> phi;
            HeapWord failure;
          };
          std::optional<Looked> last;
          auto take = [&](std::optional<Candidate> c) {
            ++built;
            ++mq.candidates;
            if (c && c->q.size <= budget.max_size) {
              // A count the reduction merges away makes the last candidate again (a quarter of
              // them with Dawson's Kayles), and the same least failure.
              const bool again =
                  last && last->q.mul == c->q.mul && last->q.in_p == c->q.in_p && last->phi == c->phi;
              std::optional<HeapWord> failure = again ? last->failure : least_failure(*c, options, budget);
              if (!failure) {
                auto checked = verify(c->q, c->phi, options, budget);
                if (auto* v = std::get_if<std::unique_ptr<Verifier>>(&checked)) {
                  found_verifier = std::move(*v);
                  found = std::move(c);
                  return true;
                }
                failure = std::get<HeapWord>(checked);  // cannot happen: the same words
              }
              if (!again) last = {c->q, c->phi, *failure};
              HeapWord& f = *failure;
              if (later(f, bar)) {
                next.emplace(std::move(*c), std::move(f));
                return true;
              }
            }
            return built >= budget.max_candidates;
          };
          take(candidate(mq.q, mq.phi, options, n, {{Freed::kNewHeap, 0, 2, 2}}, max_elements));
          while (!found && next && built < budget.max_candidates) {
            const std::pair<Candidate, HeapWord> trial = std::move(*next);
            next.reset();
            bar = trial.second;
            recalibrate(trial.first, options, n, trial.second, max_elements, budget.max_size, alike, take);
          }
          if (found) break;
        }
        if (!found_verifier) {
          options.pop_back();
          mq.stopped = "heap " + std::to_string(n) + " changes the quotient beyond " +
                       std::to_string(budget.max_size) + " elements or " +
                       std::to_string(budget.max_candidates) + " candidates";
          return mq;
        }
        mq.q = std::move(found->q);
        mq.phi = std::move(found->phi);
        verifier = std::move(found_verifier);
        mq.changes.push_back(n);
        relearn();
      }
      known.try_emplace(transitions(mq.q, options.back(), elem), mq.phi.back());
    }
    mq.reached = n;
    if (provable && ((budget.stop_at_period && n % 32 == 0) || n == hmax)) {
      DenseTable table;
      for (std::uint16_t e : mq.phi) table.push(e);
      if (auto p = proven_period(table, *proof)) {
        mq.period = p;
        return mq;
      }
    }
  }
  return mq;
}

}  // namespace grundy
