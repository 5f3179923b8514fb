// Misère quotients (runtime/Quotient.hpp) against an exact misère search of every sum of
// heaps up to a number of tokens, and against the quotients published by Plambeck and Siegel
// (sizes, P-portions and periods computed by MisereSolver and checked by brute force).
#include <catch2/catch.hpp>

#include <absl/container/flat_hash_map.h>
#include <algorithm>
#include <functional>

#include "runtime/Quotient.hpp"

using namespace grundy;

namespace {

HeapSpec code(const std::string& c) {
  HeapSpec s;
  for (char ch : c) {
    if (ch != '.') s.digits.push_back(static_cast<std::uint8_t>(ch <= '9' ? ch - '0' : ch - 'a' + 10));
  }
  s.normalize();
  return s;
}

HeapOptionsFn options_of(const HeapSpec& spec) {
  return [spec](std::int64_t n, std::vector<HeapWord>& out) {
    for_each_spec_option(spec, n, [&](std::int64_t a, std::int64_t b, std::int64_t c) {
      HeapWord w;
      for (std::int64_t h : {a, b, c}) {
        if (h > 0) w.push_back(h);
      }
      out.push_back(std::move(w));
    });
  };
}

MisereQuotient quotient_of(const std::string& c, std::int64_t hmax = 1000) {
  const HeapSpec spec = code(c);
  return misere_quotient(options_of(spec), &spec, hmax, QuotientBudget{});
}

// Misère P-positions by the definition, over sorted words of heaps.
struct ExactMisere {
  HeapSpec spec;
  absl::flat_hash_map<HeapWord, bool> memo;
  bool p(const HeapWord& w) {
    if (auto it = memo.find(w); it != memo.end()) return it->second;
    bool can_move = false, option_p = false;
    for (std::size_t i = 0; i < w.size() && !option_p; ++i) {
      if (i > 0 && w[i] == w[i - 1]) continue;
      for_each_spec_option(spec, w[i], [&](std::int64_t a, std::int64_t b, std::int64_t c) {
        if (option_p) return;
        can_move = true;
        HeapWord o = w;
        o.erase(o.begin() + static_cast<std::ptrdiff_t>(i));
        for (std::int64_t h : {a, b, c}) {
          if (h > 0) o.push_back(h);
        }
        std::sort(o.begin(), o.end());
        option_p = p(o);
      });
    }
    memo[w] = can_move && !option_p;
    return can_move && !option_p;
  }
};

// Every word of heaps with at most `tokens` tokens in all.
void each_word(std::int64_t tokens, std::int64_t largest, HeapWord& w,
               const std::function<void(const HeapWord&)>& f) {
  f(w);
  for (std::int64_t h = std::min(tokens, largest); h >= 1; --h) {
    w.insert(w.begin(), h);
    each_word(tokens - h, h, w, f);
    w.erase(w.begin());
  }
}

int agree_with_exact(const std::string& c, std::int64_t tokens) {
  const MisereQuotient mq = quotient_of(c, tokens);
  REQUIRE(mq.reached == tokens);
  ExactMisere exact{code(c), {}};
  int wrong = 0;
  HeapWord w;
  each_word(tokens, tokens, w, [&](const HeapWord& word) {
    int x = 0;
    for (std::int64_t h : word) x = mq.q.times(x, mq.element(h));
    if (mq.q.p(x) != exact.p(word)) ++wrong;
  });
  return wrong;
}

}  // namespace

// Seventeen codes, wild and tame, in three groups (each a test of its own, for time).
TEST_CASE("a misere quotient answers every sum of heaps as the exact search does", "[quotient]") {
  for (const char* c : {"0.75", "0.31", "0.123", "0.77", "0.15", "0.71"}) {
    INFO(c);
    CHECK(agree_with_exact(c, 16) == 0);
  }
}

TEST_CASE("partial misere quotients answer every sum of their heaps as the exact search does", "[quotient]") {
  for (const char* c : {"0.07", "0.4", "0.17", "0.137", "0.54", "0.04"}) {
    INFO(c);
    CHECK(agree_with_exact(c, 16) == 0);
  }
}

TEST_CASE("more misere quotients against the exact search", "[quotient]") {
  for (const char* c : {"0.6", "0.14", "0.53", "0.36"}) {
    INFO(c);
    CHECK(agree_with_exact(c, 16) == 0);
  }
}

TEST_CASE("misere quotients of octal games as published", "[quotient]") {
  struct Known {
    const char* code;
    int size, psize;
    std::int64_t n0, p;
  };
  for (const Known& k : {Known{"0.75", 8, 2, 8, 2}, Known{"0.31", 6, 2, 3, 2}, Known{"0.123", 20, 5, 5, 5},
                         Known{"0.71", 36, 9, 3, 6}, Known{"0.77", 40, 9, 71, 12},
                         Known{"0.15", 42, 12, 66, 10}, Known{"0.115", 42, 12, 92, 14}}) {
    INFO(k.code);
    const MisereQuotient mq = quotient_of(k.code);
    CHECK(mq.q.size == k.size);
    CHECK(mq.q.psize() == k.psize);
    REQUIRE(mq.period);
    CHECK(mq.period->n0 == k.n0);
    CHECK(mq.period->p == k.p);
  }
}

// 0.72 changes its quotient at heaps 15 and 16 in ways a first candidate misses.
TEST_CASE("the misere quotient of 0.72, as published and against the exact search", "[quotient]") {
  const MisereQuotient mq = quotient_of("0.72");
  CHECK(mq.q.size == 24);
  CHECK(mq.q.psize() == 5);
  REQUIRE(mq.period);
  CHECK(mq.period->n0 == 16);
  CHECK(mq.period->p == 4);
  CHECK(agree_with_exact("0.72", 16) == 0);
}

TEST_CASE("presentations as MisereSolver prints them", "[quotient]") {
  const MisereQuotient r8 = quotient_of("0.75");
  CHECK(QuotientNames(r8).presentation() == "<a, b, c | a^2 = 1, b^3 = b, bc = ab, c^2 = b^2>; P = {a, b^2}");
  CHECK(QuotientNames(r8).word(r8.element(9)) == "ab^2");
  CHECK_FALSE(r8.tame());
  const MisereQuotient t2 = quotient_of("0.31");
  CHECK(t2.tame());
  CHECK(QuotientNames(t2).presentation() == "<a, b | a^2 = 1, b^3 = b>; P = {a, b^2}");
  const MisereQuotient kayles = quotient_of("0.77");
  CHECK(QuotientNames(kayles).presentation() ==
        "<a, b, c, d, e, f, g | a^2 = 1, b^3 = b, bc^2 = b, c^3 = c, bd = bc, cd = b^2, d^3 = d, be = bc, "
        "ce = b^2, e^2 = de, bf = ab, cf = ab^2c, d^2f = f, f^2 = b^2, b^2g = g, c^2g = g, dg = cg, eg = cg, "
        "fg = ag, g^2 = b^2>; P = {a, b^2, ac, ac^2, d, ad^2, e, ade, adf}");
  // 0.15 and 0.115 have one quotient (Plambeck and Siegel).
  CHECK(QuotientNames(quotient_of("0.15")).presentation() ==
        QuotientNames(quotient_of("0.115")).presentation());
}

// A map from one quotient onto another that sends phi(h) to phi'(h + shift) for every heap,
// extended to products; true when it is well defined, one to one, onto and keeps P.
bool isomorphic(const MisereQuotient& a, const MisereQuotient& b, std::int64_t shift) {
  if (a.q.size != b.q.size) return false;
  std::vector<int> to(static_cast<std::size_t>(a.q.size), -1);
  to[0] = 0;
  std::vector<int> todo{0};
  while (!todo.empty()) {
    const int x = todo.back();
    todo.pop_back();
    for (std::int64_t h = 1; h <= a.reached && h + shift <= b.reached; ++h) {
      const int y = a.q.times(x, a.element(h));
      const int z = b.q.times(to[static_cast<std::size_t>(x)], b.element(h + shift));
      if (to[static_cast<std::size_t>(y)] < 0) {
        to[static_cast<std::size_t>(y)] = z;
        todo.push_back(y);
      } else if (to[static_cast<std::size_t>(y)] != z) {
        return false;
      }
    }
  }
  std::vector<int> hit(static_cast<std::size_t>(b.q.size), 0);
  for (int x = 0; x < a.q.size; ++x) {
    const int y = to[static_cast<std::size_t>(x)];
    if (y < 0 || hit[static_cast<std::size_t>(y)]++ || a.q.p(x) != b.q.p(y)) return false;
  }
  return true;
}

TEST_CASE("a heap of n + 1 in 0.4 plays as a heap of n in 0.07: their quotients are one", "[quotient]") {
  for (std::int64_t n : {10, 16, 20, 24}) {
    INFO(n);
    const MisereQuotient dawson = quotient_of("0.07", n);
    const MisereQuotient cousin = quotient_of("0.4", n + 1);
    REQUIRE(dawson.reached == n);
    REQUIRE(cousin.reached == n + 1);
    CHECK(isomorphic(dawson, cousin, 1));
    CHECK_FALSE(isomorphic(dawson, quotient_of("0.77", n + 1), 1));
  }
}

// Dawson's Kayles' quotient grows from 24 elements at heap 24 to 360 at heap 30 through
// candidates of up to ~1,400 elements (Siegel quotes 360, and a candidate of 848 on the way).
TEST_CASE("the partial misere quotient of Dawson's Kayles to heap 30, as published", "[quotient]") {
  const MisereQuotient q24 = quotient_of("0.07", 24);
  CHECK(q24.q.size == 24);
  const MisereQuotient q30 = quotient_of("0.07", 30);
  REQUIRE(q30.reached == 30);
  CHECK(q30.stopped.empty());
  CHECK(q30.q.size == 360);
  CHECK(q30.q.psize() == 65);
  CHECK(isomorphic(q30, quotient_of("0.4", 31), 1));
}

TEST_CASE("single misere Kayles rows that are P, by the quotient", "[quotient]") {
  const MisereQuotient kayles = quotient_of("0.77");
  std::vector<std::int64_t> p;
  for (std::int64_t n = 0; n <= 200; ++n) {
    if (kayles.q.p(kayles.element(n))) p.push_back(n);
  }
  CHECK(p == std::vector<std::int64_t>{1, 4, 9, 12, 20});
}
