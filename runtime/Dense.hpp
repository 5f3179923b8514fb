// Dense tables of nim-values for games whose state is one integer n >= 0: value[n] for
// n = 0, 1, ..., size - 1, stored in the narrowest unsigned type that holds every value so
// far (1 byte, widened to 2 and then 4 bytes the first time a value does not fit). Native
// kernels (runtime/Kernels.hpp) and the rules evaluated bottom-up fill them
// (runtime/Strategy.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace grundy {

class DenseTable {
 public:
  std::size_t size() const { return width_ == 1 ? b1_.size() : width_ == 2 ? b2_.size() : b4_.size(); }
  bool empty() const { return size() == 0; }
  int width() const { return width_; }  // bytes per value: 1, 2 or 4
  std::size_t bytes() const { return size() * static_cast<std::size_t>(width_); }

  std::uint32_t get(std::size_t i) const { return width_ == 1 ? b1_[i] : width_ == 2 ? b2_[i] : b4_[i]; }
  void push(std::uint32_t v) {
    if (v > max_value()) widen_for(v);
    if (width_ == 1) b1_.push_back(static_cast<std::uint8_t>(v));
    else if (width_ == 2) b2_.push_back(static_cast<std::uint16_t>(v));
    else b4_.push_back(v);
  }
  std::uint32_t max_value() const { return width_ == 1 ? 0xFFu : width_ == 2 ? 0xFFFFu : 0xFFFFFFFFu; }
  // Makes room for values up to v.
  void widen_for(std::uint32_t v);
  void reserve(std::size_t n);
  void truncate(std::size_t n);
  void clear();

  // Calls f(std::vector<T>&) with the storage of the current width.
  template <typename F>
  decltype(auto) visit(F&& f) {
    if (width_ == 1) return f(b1_);
    if (width_ == 2) return f(b2_);
    return f(b4_);
  }
  template <typename F>
  decltype(auto) visit(F&& f) const {
    if (width_ == 1) return f(b1_);
    if (width_ == 2) return f(b2_);
    return f(b4_);
  }

 private:
  int width_ = 1;
  std::vector<std::uint8_t> b1_;
  std::vector<std::uint16_t> b2_;
  std::vector<std::uint32_t> b4_;
};

}  // namespace grundy
