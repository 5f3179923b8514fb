#include "runtime/Strategy.hpp"

namespace grundy {

const DenseTable* Strategy::table() const {
  if (const auto* k = as<KernelPath>()) return &k->table;
  if (const auto* d = as<DensePath>()) return &d->table;
  return nullptr;
}

std::optional<std::uint64_t> Strategy::known(std::int64_t n) const {
  if (n < 0) return std::nullopt;
  if (const auto* r = as<RunPath>()) return r->value(n);
  const DenseTable* t = table();
  if (!t) return std::nullopt;
  if (static_cast<std::uint64_t>(n) < t->size()) return t->get(static_cast<std::size_t>(n));
  if (const auto* k = as<KernelPath>(); k && k->p > 0)
    return t->get(static_cast<std::size_t>(k->n0 + (n - k->n0) % k->p));
  return std::nullopt;
}

std::size_t Strategy::known_run(std::int64_t from, std::uint64_t* out, std::size_t count) const {
  if (from < 0 || count == 0) return 0;
  if (static_cast<std::uint64_t>(INT64_MAX - from) < count - 1)
    count = static_cast<std::size_t>(INT64_MAX - from) + 1;
  if (const auto* r = as<RunPath>()) {
    const std::uint64_t m = static_cast<std::uint64_t>(r->a) + static_cast<std::uint64_t>(r->b);
    const auto a = static_cast<std::uint64_t>(r->a);
    std::uint64_t x = static_cast<std::uint64_t>(from) % m;
    for (std::size_t i = 0; i < count; ++i) {
      out[i] = x / a;
      if (++x == m) x = 0;
    }
    return count;
  }
  const DenseTable* t = table();
  if (!t) return 0;
  std::size_t i = 0;
  const auto size = static_cast<std::int64_t>(t->size());
  t->visit([&](const auto& v) {
    for (; i < count && from + static_cast<std::int64_t>(i) < size; ++i)
      out[i] = v[static_cast<std::size_t>(from) + i];
  });
  const auto* k = as<KernelPath>();
  if (i == count || !k || k->p <= 0) return i;
  // The rest by the period: n0 <= the index < n0 + p, which wraps around.
  std::int64_t at = k->n0 + (from + static_cast<std::int64_t>(i) - k->n0) % k->p;
  for (; i < count; ++i) {
    out[i] = t->get(static_cast<std::size_t>(at));
    if (++at == k->n0 + k->p) at = k->n0;
  }
  return count;
}

}  // namespace grundy
