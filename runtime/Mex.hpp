// The mex (minimum excludant) of the values among a position's options: the smallest
// non-negative integer that is not one of them, the position's nim-value (Sprague-Grundy).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace grundy {

// The smallest non-negative integer not in `seen` (seen[v] set for each value present).
inline std::uint32_t mex(const std::vector<bool>& seen) {
  std::uint32_t m = 0;
  while (m < seen.size() && seen[m]) ++m;
  return m;
}

// The values seen among a position's options. Values below 64 sit in one word (most
// positions have no others, and a search keeps one of these per state on its path, so a
// state costs no allocation); values up to 2^16 in a bit vector; the rare large ones (XORs of
// big values) in a list, since the mex never exceeds the option count.
class SeenValues {
 public:
  void add(std::uint64_t v) {
    if (v < 64) {
      low_ |= std::uint64_t{1} << v;
    } else if (v < kDense) {
      if (v >= bits_.size()) bits_.resize(std::max<std::size_t>(v + 1, bits_.size() * 2));
      bits_[v] = true;
    } else if (v < 0xFFFFFFFFu) {
      big_.push_back(static_cast<std::uint32_t>(v));
    }  // else: past any mex (a position has fewer than 2^32 options)
  }
  std::uint32_t mex() {
    if (~low_ != 0) return static_cast<std::uint32_t>(__builtin_ctzll(~low_));
    std::uint32_t m = 64;
    while (m < bits_.size() && bits_[m]) ++m;
    if (m < kDense || big_.empty()) return m;
    std::sort(big_.begin(), big_.end());
    for (std::uint32_t v : big_) {
      if (v == m) ++m;
      else if (v > m) break;
    }
    return m;
  }
  void clear() {
    low_ = 0;
    std::fill(bits_.begin(), bits_.end(), false);
    big_.clear();
  }

 private:
  static constexpr std::uint32_t kDense = 1u << 16;
  std::uint64_t low_ = 0;
  std::vector<bool> bits_;
  std::vector<std::uint32_t> big_;
};

}  // namespace grundy
