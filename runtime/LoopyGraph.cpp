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
}

void LoopyGraph::drop_dense(std::int64_t n) {
  const auto at = static_cast<std::size_t>(n);
  dense_[at] = kOpen;
  held_[at / 64] &= ~(std::uint64_t{1} << (at % 64));
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
  last_[j] = it->second;
  last_d_[j] = d;
  return it->second;
}

void LoopyGraph::end_row(std::size_t n) {
  moves_ += n;
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
  std::vector<std::int64_t>().swap(last_d_);
  std::vector<std::uint32_t>().swap(row_of_);
  std::vector<std::uint64_t>().swap(pats_);
  pat_at_.assign(1, 0);
  std::vector<std::uint32_t>().swap(pat_moves_);
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
  if (offsets_) {
    row_of_.resize(std::min<std::size_t>(from, row_of_.size()));
    drop_row();  // a row half listed when the exploration failed
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
          last_.capacity() + row_of_.capacity() + pat_moves_.capacity()) * 4 +
         (coords_.capacity() + held_.capacity() + last_d_.capacity() + row_.capacity() + pats_.capacity() + pat_at_.capacity() +
          delta_.capacity()) * 8 +
         (delta_index_.capacity() + pat_index_.capacity()) * 17 + hashed_.bytes() + values_.capacity() * sizeof(Value) +
         index_.capacity() * (sizeof(Value) + 5);
}

}  // namespace grundy
