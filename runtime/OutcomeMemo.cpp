#include "runtime/OutcomeMemo.hpp"

#include <cstring>

namespace grundy {

OutcomeMemo::OutcomeMemo(int arity, bool hashed, bool one_list)
    : arity_(arity),
      hashed_(hashed),
      one_list_(one_list && arity == 1),
      ar_(one_list_ ? 0 : arity),
      cells_(arity),
      bits_(tile_bits(arity)) {}

bool OutcomeMemo::grow(const std::int64_t* state, std::uint64_t max_directory) {
  if (hashed_) return true;
  Coords x{};
  const std::int64_t* c = state;
  if (one_list_) {
    if (ar_ == 0) {  // the first list gives the box its arity
      const std::int64_t n = IntProgram::list_len(state[0]);
      if (n < 1 || n > kMaxBoxArity) return false;
      ar_ = static_cast<int>(n);
      bits_ = tile_bits(ar_);
    }
    if (!items_of(state, x)) return false;
    c = x.data();
  }
  Coords dims = dims_;
  std::uint64_t tiles = 1;
  const std::uint64_t max_tiles = std::max<std::uint64_t>(1, max_directory);
  for (int i = 0; i < ar_; ++i) {
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
  for (int i = ar_; i-- > 0;) {
    strides[static_cast<std::size_t>(i)] = s;
    s *= dims[static_cast<std::size_t>(i)];
  }
  std::vector<std::unique_ptr<Tile>> fresh(tiles);
  // Move every tile to its place in the larger directory.
  Coords at{};
  for (std::size_t k = 0; k < tiles_.size(); ++k) {
    std::int64_t to = 0;
    for (int i = 0; i < ar_; ++i)
      to += at[static_cast<std::size_t>(i)] * strides[static_cast<std::size_t>(i)];
    fresh[static_cast<std::size_t>(to)] = std::move(tiles_[k]);
    for (int i = ar_; i-- > 0;) {
      auto& a = at[static_cast<std::size_t>(i)];
      if (++a < dims_[static_cast<std::size_t>(i)]) break;
      a = 0;
    }
  }
  tiles_.swap(fresh);
  dims_ = dims;
  strides_ = strides;
  for (int i = 0; i < ar_; ++i) {
    span_[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(dims[static_cast<std::size_t>(i)])
                                         << bits_;
  }
  return true;
}

void OutcomeMemo::to_hashed() {
  if (hashed_) return;
  hashed_ = true;
  const std::int64_t side = std::int64_t{1} << bits_;
  for (std::size_t k = 0; k < tiles_.size(); ++k) {
    const Tile* t = tiles_[k].get();
    if (t == nullptr) continue;
    Coords corner{};  // the tile's first cell
    auto rest = static_cast<std::int64_t>(k);
    for (int i = 0; i < ar_; ++i) {
      corner[static_cast<std::size_t>(i)] = rest / strides_[static_cast<std::size_t>(i)] * side;
      rest %= strides_[static_cast<std::size_t>(i)];
    }
    for (std::size_t at = 0; at < std::size_t{4096}; ++at) {
      const unsigned v = cell(*t, at);
      if (v == 0) continue;
      Coords c = corner;
      for (int i = ar_, a = static_cast<int>(at); i-- > 0; a >>= bits_)
        c[static_cast<std::size_t>(i)] += a & (side - 1);
      if (one_list_) {  // the map holds states: the items packed into their word again
        std::int64_t w = 0;
        if (!IntProgram::pack_list(c.data(), ar_, w)) continue;  // cannot be: the box held a list
        c[0] = w;
      }
      cells_.set(c.data(), static_cast<std::uint8_t>(v));
    }
  }
  std::vector<std::unique_ptr<Tile>>().swap(tiles_);
  used_ = 0;
}

OutcomeMemo::Probe OutcomeMemo::probe_hashed(const std::int64_t* c) const {
  const std::uint8_t* v = cells_.find(c);
  return v == nullptr ? kUnknown : static_cast<Probe>(*v);
}

std::int64_t OutcomeMemo::won_run(const std::int64_t* c, const std::int64_t* slope,
                                  std::int64_t count) const {
  if (!readable(slope)) return 0;
  if (arity_ == 1) return won_line(c[0], slope[0], count);
  // Cell by cell within a tile, the cell's place moving by a fixed step.
  const std::int64_t side = std::int64_t{1} << bits_;
  std::int64_t delta = 0;
  for (int i = 0; i < arity_; ++i) delta += slope[i] << (bits_ * (arity_ - 1 - i));
  if (delta == 0) return 0;
  Coords x{};
  std::copy(c, c + arity_, x.begin());
  std::int64_t done = 0;
  while (done < count && inside(x.data())) {
    const Place at = place(x.data());
    const Tile* t = tiles_[at.tile].get();
    if (t == nullptr) return done;
    std::int64_t steps = count - done;  // within this tile
    for (int i = 0; i < arity_; ++i) {
      const std::int64_t in = x[static_cast<std::size_t>(i)] & (side - 1);
      if (slope[i] > 0) steps = std::min(steps, side - in);
      if (slope[i] < 0) steps = std::min(steps, in + 1);
    }
    auto cell_at = static_cast<std::int64_t>(at.cell);
    if (delta == 1 || delta == -1) {  // along the last coordinate: consecutive cells, by words
      const int n =
          won_cells(*t, static_cast<int>(cell_at), static_cast<int>(delta), static_cast<int>(steps));
      if (n < steps) return done + n;
    } else if (delta % 4 == 0) {  // along another coordinate: the same place in bytes delta / 4 apart
      const std::uint8_t* b = t->data() + (cell_at >> 2);
      const int shift = static_cast<int>(cell_at & 3) * 2;
      const std::int64_t stride = delta / 4;
      for (std::int64_t j = 0; j < steps; ++j, b += stride) {
        if (((*b >> shift) & 3u) != kWins) return done + j;
      }
    } else {
      for (std::int64_t j = 0; j < steps; ++j, cell_at += delta) {
        if (cell(*t, static_cast<std::size_t>(cell_at)) != kWins) return done + j;
      }
    }
    done += steps;
    for (int i = 0; i < arity_; ++i) x[static_cast<std::size_t>(i)] += steps * slope[i];
  }
  return done;
}

// How many cells from `cell` on (step 1) or down (step -1), at most `limit` and within the
// tile, are kWins: a word of 32 cells at a time, a pair of bits that differs from 10 being a
// cell not won.
int OutcomeMemo::won_cells(const Tile& t, int cell, int step, int limit) {
  constexpr std::uint64_t kAllWon = 0xAAAAAAAAAAAAAAAAULL;  // 32 cells of kWins (binary 10)
  int done = 0;
  while (done < limit) {
    std::uint64_t w = 0;
    std::memcpy(&w, t.data() + (cell >> 5) * 8, 8);
    const int bit = (cell & 31) * 2;
    std::uint64_t differ = w ^ kAllWon;
    int n = 0;  // cells won from `cell` on, in this word
    int room = 0;
    if (step == 1) {
      differ >>= bit;
      room = 32 - (cell & 31);
      n = differ == 0 ? room : std::min(room, __builtin_ctzll(differ) / 2);
    } else {
      if (bit < 62) differ &= (std::uint64_t{1} << (bit + 2)) - 1;
      room = (cell & 31) + 1;
      n = differ == 0 ? room : (cell & 31) - (63 - __builtin_clzll(differ)) / 2;
    }
    if (n >= limit - done) return limit;
    done += n;
    if (n < room) return done;  // a cell not won
    cell += n * step;
  }
  return done;
}

std::int64_t OutcomeMemo::won_line(std::int64_t x, std::int64_t step, std::int64_t count) const {
  constexpr int kCellsPerTile = 1 << 12;
  std::int64_t done = 0;
  while (done < count && x >= 0 && static_cast<std::uint64_t>(x) < span_[0]) {
    const Tile* t = tiles_[static_cast<std::size_t>(x >> 12)].get();
    if (t == nullptr) return done;
    const auto cell = static_cast<int>(x & (kCellsPerTile - 1));
    const int room = step == 1 ? kCellsPerTile - cell : cell + 1;  // cells left in this tile
    const int limit = static_cast<int>(std::min<std::int64_t>(room, count - done));
    const int n = won_cells(*t, cell, static_cast<int>(step), limit);
    done += n;
    x += n * step;
    if (n < limit || done == count) return done;
  }
  return done;
}

void OutcomeMemo::put(const std::int64_t* c, unsigned v) {
  if (hashed_) {
    if (v == 0) cells_.erase(c);
    else cells_.set(c, static_cast<std::uint8_t>(v));
    return;
  }
  Coords x{};
  if (one_list_) {
    if (!items_of(c, x)) return;  // cannot be: the state is inside
    c = x.data();
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
