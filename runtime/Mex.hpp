// The mex (minimum excludant) of the values among a position's options: the smallest
// non-negative integer that is not one of them, the position's nim-value (Sprague-Grundy).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
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
// state costs no allocation and 16 bytes); values up to 2^16 in a bit vector; the rare large
// ones (XORs of big values) in a list, since the mex never exceeds the option count.
class SeenValues {
 public:
  void add(std::uint64_t v) {
    if (v < 64) {
      low_ |= std::uint64_t{1} << v;
      return;
    }
    if (v >= 0xFFFFFFFFu) return;  // past any mex (a position has fewer than 2^32 options)
    if (!rest_) rest_ = std::make_unique<Rest>();
    if (v < kDense) {
      std::vector<bool>& bits = rest_->bits;
      if (v >= bits.size()) bits.resize(std::max<std::size_t>(v + 1, bits.size() * 2));
      bits[v] = true;
    } else {
      rest_->big.push_back(static_cast<std::uint32_t>(v));
    }
  }
  std::uint32_t mex() {
    if (~low_ != 0) return static_cast<std::uint32_t>(__builtin_ctzll(~low_));
    std::uint32_t m = 64;
    if (!rest_) return m;
    const std::vector<bool>& bits = rest_->bits;
    while (m < bits.size() && bits[m]) ++m;
    std::vector<std::uint32_t>& big = rest_->big;
    if (m < kDense || big.empty()) return m;
    std::sort(big.begin(), big.end());
    for (std::uint32_t v : big) {
      if (v == m) ++m;
      else if (v > m) break;
    }
    return m;
  }
  void clear() {
    low_ = 0;
    if (rest_) {
      std::fill(rest_->bits.begin(), rest_->bits.end(), false);
      rest_->big.clear();
    }
  }

 private:
  static constexpr std::uint32_t kDense = 1u << 16;
  struct Rest {
    std::vector<bool> bits;
    std::vector<std::uint32_t> big;
  };
  std::uint64_t low_ = 0;
  std::unique_ptr<Rest> rest_;
};

}  // namespace grundy
