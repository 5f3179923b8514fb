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

// The values seen among a position's options. Small values sit in a bit vector; the rare
// large ones (XORs of big values) in a list, since the mex never exceeds the option count.
class SeenValues {
 public:
  void add(std::uint64_t v) {
    if (v < kDense) {
      if (v >= bits_.size()) bits_.resize(std::max<std::size_t>(v + 1, bits_.size() * 2));
      bits_[v] = true;
    } else if (v < 0xFFFFFFFFu) {
      big_.push_back(static_cast<std::uint32_t>(v));
    }  // else: past any mex (a position has fewer than 2^32 options)
  }
  std::uint32_t mex() {
    std::uint32_t m = grundy::mex(bits_);
    if (m < kDense || big_.empty()) return m;
    std::sort(big_.begin(), big_.end());
    for (std::uint32_t v : big_) {
      if (v == m) ++m;
      else if (v > m) break;
    }
    return m;
  }
  void clear() {
    std::fill(bits_.begin(), bits_.end(), false);
    big_.clear();
  }

 private:
  static constexpr std::uint32_t kDense = 1u << 16;
  std::vector<bool> bits_;
  std::vector<std::uint32_t> big_;
};

}  // namespace grundy
