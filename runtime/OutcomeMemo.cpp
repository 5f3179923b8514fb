#include "runtime/OutcomeMemo.hpp"

namespace grundy {

OutcomeMemo::OutcomeMemo(int arity, bool hashed) : arity_(arity), hashed_(hashed), bits_(tile_bits(arity)) {}

bool OutcomeMemo::grow(const std::int64_t* c, std::uint64_t max_directory) {
  if (hashed_) return true;
  Coords dims = dims_;
  std::uint64_t tiles = 1;
  const std::uint64_t max_tiles = std::max<std::uint64_t>(1, max_directory);
  for (int i = 0; i < arity_; ++i) {
    auto& d = dims[static_cast<std::size_t>(i)];
    if (c[i] < 0 || static_cast<std::uint64_t>(c[i] >> bits_) >= max_tiles) return false;
    const std::int64_t need = (c[i] >> bits_) + 1;
    if (need > d) d = std::max(need, 2 * d);  // d <= max_tiles: no overflow
    if (static_cast<std::uint64_t>(d) > max_tiles) return false;
    if (__builtin_mul_overflow(tiles, static_cast<std::uint64_t>(d), &tiles) || tiles > max_tiles)
      return false;
  }
  Coords strides{};
  std::int64_t s = 1;
  for (int i = arity_; i-- > 0;) {
    strides[static_cast<std::size_t>(i)] = s;
    s *= dims[static_cast<std::size_t>(i)];
  }
  std::vector<std::unique_ptr<Tile>> fresh(tiles);
  // Move every tile to its place in the larger directory.
  Coords at{};
  for (std::size_t k = 0; k < tiles_.size(); ++k) {
    std::int64_t to = 0;
    for (int i = 0; i < arity_; ++i)
      to += at[static_cast<std::size_t>(i)] * strides[static_cast<std::size_t>(i)];
    fresh[static_cast<std::size_t>(to)] = std::move(tiles_[k]);
    for (int i = arity_; i-- > 0;) {
      auto& a = at[static_cast<std::size_t>(i)];
      if (++a < dims_[static_cast<std::size_t>(i)]) break;
      a = 0;
    }
  }
  tiles_.swap(fresh);
  dims_ = dims;
  strides_ = strides;
  for (int i = 0; i < arity_; ++i) {
    span_[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(dims[static_cast<std::size_t>(i)])
                                         << bits_;
  }
  return true;
}

void OutcomeMemo::put(const std::int64_t* c, unsigned v) {
  if (hashed_) {
    if (v == 0) cells_.erase(key(c));
    else cells_[key(c)] = static_cast<std::uint8_t>(v);
    return;
  }
  const Place p = place(c);
  auto& t = tiles_[p.tile];
  if (!t) {
    t = std::make_unique<Tile>();  // zeroed: nothing known
    ++used_;
  }
  const std::size_t at = p.cell;
  const int shift = static_cast<int>(at & 3) * 2;
  auto& byte = (*t)[at >> 2];
  byte = static_cast<std::uint8_t>((byte & ~(3u << shift)) | (v << shift));
}

}  // namespace grundy
