// Naming a misère quotient's elements by words in its generators, and its presentation.
//
// Words are exponent vectors, ordered as MisereSolver orders them: the one with fewer of the
// last generator is smaller, then fewer of the one before, and so on (so b^3 = b, bc^2 = b,
// cf = ab^2c). The order is preserved by multiplication, so the words that are not the least
// of their element form an ideal, and the least words of that ideal are exactly the relations
// needed: each is "word = the least word of its element".
#include <algorithm>
#include <queue>
#include <set>

#include "runtime/Quotient.hpp"

namespace grundy {

namespace {

std::string letter(std::size_t i) {
  if (i < 26) return std::string(1, static_cast<char>('a' + i));
  return "g" + std::to_string(i + 1);
}

}  // namespace

QuotientNames::QuotientNames(const MisereQuotient& mq) {
  const BipartiteMonoid& q = mq.q;
  const auto m = static_cast<std::size_t>(q.size);
  // Generators: heap elements, in heap order, that the earlier generators do not make.
  std::vector<int> gens;
  std::vector<std::uint8_t> made(m, 0);
  made[0] = 1;
  for (std::size_t h = 1; h < mq.phi.size(); ++h) {
    const int e = mq.phi[h];
    if (made[static_cast<std::size_t>(e)]) continue;
    gens.push_back(e);
    std::vector<int> todo;
    for (std::size_t x = 0; x < m; ++x) {
      if (made[x]) todo.push_back(static_cast<int>(x));
    }
    while (!todo.empty()) {
      const int x = todo.back();
      todo.pop_back();
      for (int g : gens) {
        const int z = q.times(x, g);
        if (!made[static_cast<std::size_t>(z)]) {
          made[static_cast<std::size_t>(z)] = 1;
          todo.push_back(z);
        }
      }
    }
  }
  words_.assign(m, "?");
  const std::size_t G = gens.size();
  using Word = std::vector<int>;  // exponents, a first
  auto smaller = [](const Word& x, const Word& y) {
    for (std::size_t i = x.size(); i-- > 0;) {
      if (x[i] != y[i]) return x[i] < y[i];
    }
    return false;
  };
  auto spell = [&](const Word& w) {
    std::string out;
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (w[i] == 0) continue;
      out += letter(i);
      if (w[i] > 1) out += "^" + std::to_string(w[i]);
    }
    return out.empty() ? std::string("1") : out;
  };
  // Dijkstra's order over words: only least words are multiplied further, so at most
  // |Q| (G + 1) words are looked at.
  auto later = [&](const std::pair<Word, int>& x, const std::pair<Word, int>& y) {
    return smaller(y.first, x.first);
  };
  std::priority_queue<std::pair<Word, int>, std::vector<std::pair<Word, int>>, decltype(later)> queue(later);
  std::set<Word> normal, seen;
  std::vector<Word> least(m);
  std::vector<std::uint8_t> named(m, 0);
  std::vector<std::pair<Word, int>> relations;
  std::vector<int> order;
  queue.push({Word(G, 0), 0});
  while (!queue.empty()) {
    auto [w, x] = queue.top();
    queue.pop();
    if (!seen.insert(w).second) continue;
    if (!named[static_cast<std::size_t>(x)]) {
      named[static_cast<std::size_t>(x)] = 1;
      least[static_cast<std::size_t>(x)] = w;
      order.push_back(x);
      normal.insert(w);
      for (std::size_t g = 0; g < G; ++g) {
        Word v = w;
        ++v[g];
        queue.push({std::move(v), q.times(x, gens[g])});
      }
      continue;
    }
    bool minimal = true;  // every word one letter shorter is a least word
    for (std::size_t i = 0; i < G && minimal; ++i) {
      if (w[i] == 0) continue;
      Word d = w;
      --d[i];
      minimal = normal.count(d) > 0;
    }
    if (minimal) relations.push_back({w, x});
  }
  std::sort(relations.begin(), relations.end(),
            [&](const std::pair<Word, int>& x, const std::pair<Word, int>& y) {
              return smaller(x.first, y.first);
            });
  for (const auto& [w, x] : relations)
    relations_.push_back(spell(w) + " = " + spell(least[static_cast<std::size_t>(x)]));
  for (std::size_t x = 0; x < m; ++x) {
    if (named[x]) words_[x] = spell(least[x]);
  }
  std::sort(order.begin(), order.end(), [&](int x, int y) {
    return smaller(least[static_cast<std::size_t>(x)], least[static_cast<std::size_t>(y)]);
  });
  for (int x : order) {
    if (q.p(x)) p_order_.push_back(x);
  }
  generators_ = gens.size();
}

const QuotientNames& MisereQuotient::names() const {
  if (!names_) names_ = std::make_shared<const QuotientNames>(*this);
  return *names_;
}

std::string QuotientNames::presentation() const {
  std::string s = "<";
  for (std::size_t i = 0; i < generators_; ++i) s += (i ? ", " : "") + letter(i);
  if (!relations_.empty()) {
    s += " | ";
    for (std::size_t i = 0; i < relations_.size(); ++i) s += (i ? ", " : "") + relations_[i];
  }
  s += ">; P = {";
  for (std::size_t i = 0; i < p_order_.size(); ++i) s += (i ? ", " : "") + word(p_order_[i]);
  return s + "}";
}

}  // namespace grundy
