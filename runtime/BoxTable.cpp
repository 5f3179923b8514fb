#include "runtime/BoxTable.hpp"

#include <algorithm>

namespace grundy {

// ---- the table ----

std::string BoxTable::describe() const {
  std::string s;
  for (int i = 0; i < arity_; ++i) {
    if (i) s += " x ";
    s += std::to_string(dims_[static_cast<std::size_t>(i)]);
  }
  return s + " cells of " + std::to_string(width_) + " byte" + (width_ > 1 ? "s" : "");
}

namespace {
template <typename To, typename From>
std::vector<To> widen_copy(std::vector<From>& from, To unknown) {
  const From old = static_cast<From>(~From{0});
  std::vector<To> to(from.size());
  for (std::size_t i = 0; i < from.size(); ++i) to[i] = from[i] == old ? unknown : from[i];
  std::vector<From>().swap(from);
  return to;
}
}  // namespace

void BoxTable::widen(std::uint32_t v) {
  if (width_ == 1) {
    if (v < 0xFFFFu) {
      b2_ = widen_copy<std::uint16_t>(b1_, 0xFFFF);
      width_ = 2;
      return;
    }
    b4_ = widen_copy<std::uint32_t>(b1_, 0xFFFFFFFFu);
    width_ = 4;
    return;
  }
  b4_ = widen_copy<std::uint32_t>(b2_, 0xFFFFFFFFu);
  width_ = 4;
}

std::uint64_t BoxTable::dims_to_hold(const std::int64_t* c, std::uint64_t max_cells,
                                     std::array<std::int64_t, kMaxBoxArity>& dims) const {
  std::uint64_t cells = 1;
  for (int i = 0; i < arity_; ++i) {
    auto& d = dims[static_cast<std::size_t>(i)];
    if (c[i] < 0) return 0;
    if (static_cast<std::uint64_t>(c[i]) >= max_cells) return 0;  // and c[i] + 1 cannot overflow
    if (c[i] >= d) {
      const std::int64_t twice = d > (INT64_MAX / 2) ? INT64_MAX : 2 * d;
      d = std::max({c[i] + 1, twice, std::int64_t{arity_ == 1 ? 64 : 8}});
    }
    if (static_cast<std::uint64_t>(d) > max_cells) return 0;
    cells *= static_cast<std::uint64_t>(d);
    if (cells > max_cells) return 0;
  }
  return cells;
}

bool BoxTable::grow(const std::int64_t* c, std::uint64_t max_cells) {
  std::array<std::int64_t, kMaxBoxArity> dims = dims_;
  const std::uint64_t cells = dims_to_hold(c, max_cells, dims);
  if (cells == 0) return false;
  // Rows of the last coordinate lie `pitch` cells apart. The box grows by doubling, so a
  // row of dims cells is most often a power of two long, and a run down a column (Wythoff's
  // `move (a - k, b)`) then meets the same few sets of the L1 cache at every step: it took
  // twice as long as in a box of 301 x 301. A pitch that is an odd multiple of 16 cells
  // spreads the column over the cache.
  const std::int64_t row = dims[static_cast<std::size_t>(arity_ - 1)];
  std::int64_t pitch = row;
  if (arity_ > 1 && row >= 64) {
    pitch = (row + 15) / 16 * 16;
    if (pitch % 32 == 0) pitch += 16;
  }
  std::array<std::int64_t, kMaxBoxArity> strides{};
  std::int64_t s = 1;
  for (int i = arity_; i-- > 0;) {
    strides[static_cast<std::size_t>(i)] = s;
    s *= i + 1 == arity_ ? pitch : dims[static_cast<std::size_t>(i)];
  }
  const auto storage = static_cast<std::uint64_t>(s);
  auto move_to = [&](auto& old) {
    using T = typename std::decay_t<decltype(old)>::value_type;
    std::vector<T> fresh(storage, static_cast<T>(~T{0}));
    if (cells_ > 0) {
      // Copy the old box row by row (the last coordinate is contiguous in both).
      const auto old_row = dims_[static_cast<std::size_t>(arity_ - 1)];
      Coords at{};
      for (std::uint64_t k = 0; k < cells_; k += static_cast<std::uint64_t>(old_row)) {
        std::int64_t from = 0, to = 0;
        for (int i = 0; i + 1 < arity_; ++i) {
          from += at[static_cast<std::size_t>(i)] * strides_[static_cast<std::size_t>(i)];
          to += at[static_cast<std::size_t>(i)] * strides[static_cast<std::size_t>(i)];
        }
        std::copy(old.begin() + from, old.begin() + from + old_row, fresh.begin() + to);
        for (int i = arity_ - 1; i-- > 0;) {
          auto& a = at[static_cast<std::size_t>(i)];
          if (++a < dims_[static_cast<std::size_t>(i)]) break;
          a = 0;
        }
      }
    }
    old.swap(fresh);
  };
  if (width_ == 1) move_to(b1_);
  else if (width_ == 2) move_to(b2_);
  else move_to(b4_);
  dims_ = dims;
  strides_ = strides;
  cells_ = cells;
  return true;
}

std::string coords_text(const Coords& c, int arity, IntProgram::Packing packing) {
  std::string s = "(";
  for (int i = 0; i < arity; ++i) {
    if (i) s += ", ";
    s += to_string(coord_value(c[static_cast<std::size_t>(i)], i, packing));
  }
  return s + ")";
}

void BoxTable::note_interval(std::int64_t i, std::uint32_t v) {
  intervals_->note(i, v, [this](std::int64_t j) { return known_at(j); });
}

const IntervalValues* BoxTable::intervals_for(std::int64_t a, std::int64_t b) {
  if (arity_ != 1 || intervals_off_ || a < 0 || b >= dims_[0]) return nullptr;
  if (intervals_) {
    if (intervals_->covers(a, b)) {
      ++interval_hits_;
      return intervals_.get();
    }
    // Inside it but in its middle (`n - k for k in 3..n / 2`, the cells just below n left
    // out): the index does not serve this game.
    if (intervals_->lo() <= a && b <= intervals_->hi() && ++interval_misses_ > 64 + 4 * interval_hits_) {
      intervals_.reset();
      intervals_off_ = true;
    }
    return nullptr;
  }
  for (std::int64_t j = a; j <= b; ++j) {
    if (!known_at(j)) return nullptr;
  }
  // Places are kept in 32 bits.
  if (dims_[0] > std::int64_t{1} << 31) {
    intervals_off_ = true;
    return nullptr;
  }
  std::int64_t lo = a, hi = b;
  while (known_at(lo - 1)) --lo;
  while (known_at(hi + 1)) ++hi;
  intervals_ = std::make_unique<IntervalValues>(lo, hi, [this](std::int64_t j) { return get(j); });
  return intervals_for(a, b);
}

}  // namespace grundy
