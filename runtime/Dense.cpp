#include "runtime/Dense.hpp"

#include "runtime/IntProgram.hpp"
#include "runtime/Kernels.hpp"
#include "runtime/OutcomeMemo.hpp"
#include "runtime/OutcomeRule.hpp"
#include "runtime/Tuples.hpp"

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

FastPath::FastPath() = default;
FastPath::~FastPath() = default;

std::size_t FastPath::known_run(std::int64_t from, std::uint64_t* out, std::size_t count) const {
  if (from < 0 || count == 0) return 0;
  if (static_cast<std::uint64_t>(INT64_MAX - from) < count - 1)
    count = static_cast<std::size_t>(INT64_MAX - from) + 1;
  if (run_a > 0) {
    const std::uint64_t m = static_cast<std::uint64_t>(run_a) + static_cast<std::uint64_t>(run_b);
    const auto a = static_cast<std::uint64_t>(run_a);
    std::uint64_t r = static_cast<std::uint64_t>(from) % m;
    for (std::size_t i = 0; i < count; ++i) {
      out[i] = r / a;
      if (++r == m) r = 0;
    }
    return count;
  }
  std::size_t i = 0;
  const auto size = static_cast<std::int64_t>(table.size());
  table.visit([&](const auto& v) {
    for (; i < count && from + static_cast<std::int64_t>(i) < size; ++i) {
      out[i] = v[static_cast<std::size_t>(from) + i];
    }
  });
  if (i == count || p <= 0) return i;
  // The rest by the period: n0 <= the index < n0 + p, which wraps around.
  std::int64_t at = n0 + (from + static_cast<std::int64_t>(i) - n0) % p;
  for (; i < count; ++i) {
    out[i] = table.get(static_cast<std::size_t>(at));
    if (++at == n0 + p) at = n0;
  }
  return count;
}

}  // namespace grundy
