#include "runtime/LoopyGraph.hpp"

#include <algorithm>

namespace grundy {

LoopyGraph::LoopyGraph(int arity, IntProgram::Packing packing)
    : arity_(arity), packing_(packing), dense_ok_(arity == 1 && !packing.any()), hashed_(std::max(arity, 1)) {}

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

void LoopyGraph::to_values() {
  if (!by_coords()) return;
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
      if (in_dense(c)) dense_[static_cast<std::size_t>(c[0])] = kOpen;
      else hashed_.erase(c);
    } else if (is_dense(values_[u])) {
      dense_[static_cast<std::size_t>(values_[u].as_int())] = kOpen;
    } else {
      index_.erase(values_[u]);
    }
  }
  if (by_coords()) coords_.resize(static_cast<std::size_t>(from) * static_cast<std::size_t>(arity_));
  else values_.resize(from);
  label.resize(from);
  first.resize(from + 1);
  succ.resize(first.back());
  remote.clear();
}

std::uint64_t LoopyGraph::bytes() const {
  return (first.capacity() + succ.capacity() + label.capacity() + remote.capacity() + dense_.capacity()) * 4 +
         coords_.capacity() * 8 + hashed_.bytes() + values_.capacity() * sizeof(Value) +
         index_.capacity() * (sizeof(Value) + 5);
}

}  // namespace grundy
