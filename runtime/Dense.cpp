#include "runtime/Dense.hpp"

namespace grundy {

namespace {
template <typename To, typename From>
std::vector<To> copy_as(std::vector<From>& from) {
  std::vector<To> to(from.begin(), from.end());
  std::vector<From>().swap(from);
  return to;
}
}  // namespace

void DenseTable::widen_for(std::uint32_t v) {
  if (v <= max_value()) return;
  if (width_ == 1) {
    if (v <= 0xFFFFu) {
      b2_ = copy_as<std::uint16_t>(b1_);
      width_ = 2;
      return;
    }
    b4_ = copy_as<std::uint32_t>(b1_);
    width_ = 4;
    return;
  }
  b4_ = copy_as<std::uint32_t>(b2_);
  width_ = 4;
}

void DenseTable::reserve(std::size_t n) {
  visit([n](auto& v) { v.reserve(n); });
}

void DenseTable::truncate(std::size_t n) {
  visit([n](auto& v) {
    if (v.size() > n) v.resize(n);
  });
}

void DenseTable::clear() {
  std::vector<std::uint8_t>().swap(b1_);
  std::vector<std::uint16_t>().swap(b2_);
  std::vector<std::uint32_t>().swap(b4_);
  width_ = 1;
}

}  // namespace grundy
