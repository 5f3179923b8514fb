#include "runtime/LoopyGraph.hpp"

#include <algorithm>
#include <bit>
#include <string_view>

#include <absl/hash/hash.h>

namespace grundy {

LoopyGraph::LoopyGraph(int arity, IntProgram::Packing packing)
    : arity_(arity),
      packing_(packing),
      dense_ok_(arity == 1 && !packing.any()),
      hashed_(std::max(arity, 1)),
      offsets_(arity == 1 && !packing.any()) {}

Value LoopyGraph::state(std::uint32_t u) const {
  if (by_coords()) return state_of(coords(u), arity_, packing_);
  return values_[u];
}

std::optional<std::uint32_t> LoopyGraph::find(const Value& s) const {
  if (by_coords()) {
    Coords c{};
    if (!coords_of(s, arity_, c, packing_)) return std::nullopt;  // not a state the graph can hold
    return find(c.data());
  }
  if (is_dense(s)) {
    const auto n = static_cast<std::size_t>(s.as_int());
    if (n < dense_.size() && dense_[n] != kOpen) return dense_[n];
    return std::nullopt;
  }
  const auto it = index_.find(s);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

void LoopyGraph::put_dense(std::int64_t n, std::uint32_t id) {
  const auto at = static_cast<std::size_t>(n);
  if (at >= dense_.size()) dense_.resize(std::max(at + 1, 2 * dense_.size()), kOpen);
  dense_[at] = id;
  if (at / 64 >= held_.size()) held_.resize(std::max(at / 64 + 1, 2 * held_.size()), 0);
  held_[at / 64] |= std::uint64_t{1} << (at % 64);
  std::size_t w = at / 64;
  // (A 64-bit word: in a 32-bit build a size_t one never compared full, and all_held never held.)
  std::uint64_t word = held_[w];
  for (std::size_t l = 0; l < kFullLevels && word == ~std::uint64_t{0}; ++l, w /= 64) {
    std::vector<std::uint64_t>& f = full_[l];
    if (w / 64 >= f.size()) f.resize(std::max(w / 64 + 1, 2 * f.size()), 0);
    f[w / 64] |= std::uint64_t{1} << (w % 64);
    word = f[w / 64];
  }
}

bool LoopyGraph::all_held(std::size_t level, std::uint64_t lo, std::uint64_t hi) const {
  const std::vector<std::uint64_t>& b = level == 0 ? held_ : full_[level - 1];
  const std::uint64_t wl = lo / 64, wh = hi / 64;
  if (wh >= b.size()) return false;
  const auto from = [](std::uint64_t i) { return ~std::uint64_t{0} << (i % 64); };       // bits i .. 63
  const auto upto = [](std::uint64_t i) { return ~std::uint64_t{0} >> (63 - i % 64); };  // bits 0 .. i
  if (wl == wh) return (~b[wl] & from(lo) & upto(hi)) == 0;
  if ((~b[wl] & from(lo)) != 0 || (~b[wh] & upto(hi)) != 0) return false;
  if (wl + 1 == wh) return true;
  if (level < kFullLevels) return all_held(level + 1, wl + 1, wh - 1);
  for (std::uint64_t w = wl + 1; w < wh; ++w) {
    if (b[w] != ~std::uint64_t{0}) return false;
  }
  return true;
}

void LoopyGraph::drop_dense(std::int64_t n) {
  const auto at = static_cast<std::size_t>(n);
  dense_[at] = kOpen;
  std::size_t w = at / 64;
  bool full = held_[w] == ~std::uint64_t{0};
  held_[w] &= ~(std::uint64_t{1} << (at % 64));
  for (std::size_t l = 0; l < kFullLevels && full; ++l, w /= 64) {
    std::uint64_t& f = full_[l][w / 64];
    full = f == ~std::uint64_t{0};
    f &= ~(std::uint64_t{1} << (w % 64));
  }
}

std::uint32_t LoopyGraph::add(const std::int64_t* c) {
  const std::uint32_t id = size();
  for (int i = 0; i < arity_; ++i) coords_.push_back(c[i]);
  if (in_dense(c)) put_dense(c[0], id);
  else hashed_.set(c, id);
  label.push_back(kOpen);
  return id;
}

std::uint32_t LoopyGraph::add(const Value& s) {
  if (by_coords()) {
    Coords c{};
    if (coords_of(s, arity_, c, packing_)) return add(c.data());
    to_values();
  }
  const std::uint32_t id = size();
  if (is_dense(s)) put_dense(s.as_int(), id);
  else index_.emplace(s, id);
  values_.push_back(s);
  label.push_back(kOpen);
  return id;
}

std::uint32_t LoopyGraph::offset_index(std::size_t j, std::int64_t d) {
  const auto [it, added] = delta_index_.try_emplace(d, static_cast<std::uint32_t>(delta_.size()));
  if (added) delta_.push_back(d);
  if (j >= last_.size()) {
    last_.resize(j + 1);
    last_d_.resize(j + 1);
  }
  for (Before& b : before_) {
    if (b.len > j) b.len = 0;
  }
  last_[j] = it->second;
  last_d_[j] = d;
  if (j / 64 >= written_at_.size()) written_at_.resize(j / 64 + 1, 0);
  written_at_[j / 64] = ++last_d_writes_;
  if (j < ident_ && it->second != j) ident_ = j;
  while (ident_ < last_.size() && last_[ident_] == ident_) ++ident_;
  return it->second;
}

void LoopyGraph::end_row(std::size_t n) {
  moves_ += n;
  if (!diverged_ && n > 0 && same_ == n) {  // a row before's, option by option, if as long
    for (const Before& b : before_) {
      if (b.len != n) continue;
      row_of_.push_back(b.pat);
      same_ = 0;
      return;
    }
  }
  if (!diverged_) set_same_bits();
  same_ = 0;
  diverged_ = false;
  std::size_t words = row_.size();
  while (words > 0 && row_[words - 1] == 0) --words;
  const auto same = [&](std::uint32_t p) {
    return std::equal(row_.begin(), row_.begin() + static_cast<std::ptrdiff_t>(words),
                      pats_.begin() + static_cast<std::ptrdiff_t>(pat_at_[p]),
                      pats_.begin() + static_cast<std::ptrdiff_t>(pat_at_[p + 1]));
  };
  // Mostly the row of the position before (WindUp's rows are one pattern but near 0): no hash.
  if (!row_of_.empty() && same(row_of_.back())) {
    row_of_.push_back(row_of_.back());
    std::fill(row_.begin(), row_.begin() + static_cast<std::ptrdiff_t>(words), 0);
    remember_row(n);
    return;
  }
  const std::string_view bytes(reinterpret_cast<const char*>(row_.data()), words * sizeof(std::uint64_t));
  const auto np = static_cast<std::uint32_t>(pat_moves_.size());
  const auto [it, added] = pat_index_.try_emplace(absl::Hash<std::string_view>{}(bytes), np);
  std::uint32_t p = it->second;
  if (!added && !same(p)) p = np;
  if (p == np) {
    std::uint32_t moves = 0;
    for (std::size_t w = 0; w < words; ++w) moves += static_cast<std::uint32_t>(std::popcount(row_[w]));
    pats_.insert(pats_.end(), row_.begin(), row_.begin() + static_cast<std::ptrdiff_t>(words));
    pat_at_.push_back(pats_.size());
    pat_moves_.push_back(moves);
  }
  row_of_.push_back(p);
  std::fill(row_.begin(), row_.begin() + static_cast<std::ptrdiff_t>(words), 0);
  remember_row(n);
}

void LoopyGraph::remember_row(std::size_t n) {
  // last_d_[0 .. n) are this row's differences now (each option wrote or matched its own): it
  // takes the place of a row as long, else of the shortest.
  if (n == 0) return;
  Before* at = &before_[0];
  for (Before& b : before_) {
    if (b.len == n) {
      at = &b;
      break;
    }
    if (b.len < at->len) at = &b;
  }
  *at = Before{n, row_of_.back()};
}

void LoopyGraph::put_options(std::uint32_t u, const std::uint32_t* ids, std::size_t n) {
  if (offsets_) {
    bool fits = true;
    for (std::size_t j = 0; j < n && fits; ++j) fits = row_option(j, coords(u)[0], coords(ids[j])[0]);
    if (fits) {
      end_row(n);
      return;
    }
    drop_row();
    to_ids();
  }
  moves_ += n;
  succ.insert(succ.end(), ids, ids + n);
  first.push_back(static_cast<std::uint32_t>(succ.size()));
}

void LoopyGraph::to_ids() {
  if (!offsets_) return;
  first.assign(1, 0);
  succ.clear();
  succ.reserve(moves_);
  for (std::uint32_t u = 0; u < listed(); ++u) {
    for_each_option(u, [&](std::uint32_t v) { succ.push_back(v); });
    first.push_back(static_cast<std::uint32_t>(succ.size()));
  }
  offsets_ = false;
  reordered_ = listed() > 0;
  std::vector<std::int64_t>().swap(delta_);
  delta_index_ = {};
  std::vector<std::uint32_t>().swap(last_);
  ident_ = 0;
  std::vector<std::int64_t>().swap(last_d_);
  std::vector<std::uint64_t>().swap(written_at_);
  spans_ = {};
  std::vector<std::uint32_t>().swap(row_of_);
  std::vector<std::uint64_t>().swap(pats_);
  pat_at_.assign(1, 0);
  std::vector<std::uint32_t>().swap(pat_moves_);
  before_ = {};
  pat_index_ = {};
}

void LoopyGraph::to_values() {
  if (!by_coords()) return;
  to_ids();  // the differences need integer states
  values_.reserve(size());
  for (std::uint32_t u = 0; u < size(); ++u) {
    values_.push_back(state(u));
    // dense_'s states are integers 0 <= n < kDense as Values too: they stay where they are.
    if (!(dense_ok_ && is_dense(values_.back()))) index_.emplace(values_.back(), u);
  }
  std::vector<std::int64_t>().swap(coords_);
  hashed_ = StateMap<std::uint32_t>(1);
  arity_ = 0;
}

void LoopyGraph::truncate(std::uint32_t from) {
  for (std::uint32_t u = from; u < size(); ++u) {
    if (by_coords()) {
      const std::int64_t* c = coords(u);
      if (in_dense(c)) drop_dense(c[0]);
      else hashed_.erase(c);
    } else if (is_dense(values_[u])) {
      drop_dense(values_[u].as_int());
    } else {
      index_.erase(values_[u]);
    }
  }
  if (by_coords()) coords_.resize(static_cast<std::size_t>(from) * static_cast<std::size_t>(arity_));
  else values_.resize(from);
  label.resize(from);
  labelled = std::min(labelled, from);
  if (offsets_) {
    row_of_.resize(std::min<std::size_t>(from, row_of_.size()));
    drop_row();  // a row half listed when the exploration failed
    before_ = {};
    moves_ = 0;
    for (std::uint32_t p : row_of_) moves_ += pat_moves_[p];
  } else {
    first.resize(std::min<std::size_t>(from + 1, first.size()));
    succ.resize(first.back());
    moves_ = succ.size();
  }
  remote.clear();
}

std::uint64_t LoopyGraph::bytes() const {
  return (first.capacity() + succ.capacity() + label.capacity() + remote.capacity() + dense_.capacity() +
          last_.capacity() + row_of_.capacity() + pat_moves_.capacity()) *
             4 +
         (coords_.capacity() + held_.capacity() + last_d_.capacity() + row_.capacity() + pats_.capacity() +
          pat_at_.capacity() + delta_.capacity()) *
             8 +
         (delta_index_.capacity() + pat_index_.capacity()) * 17 + hashed_.bytes() +
         values_.capacity() * sizeof(Value) + index_.capacity() * (sizeof(Value) + 5);
}

}  // namespace grundy
