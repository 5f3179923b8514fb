// A hash map from the coordinates of a state of compiled rules to what is known of it, for
// the memos that no dense box can span (runtime/HashedValues.hpp, runtime/OutcomeMemo.hpp).
// A state's coordinates (a set's bitmask, a list's packed word, small integers) usually fit
// in one 64-bit word side by side: its key is then that word (16-byte slots, hashed in one
// multiply), not four words (40-byte slots), as a hand-written search keys its
// std::unordered_map by the mask. The fields start even (32 bits each for two coordinates)
// and are redrawn from the widths met when a state does not fit; when no split of 64 bits
// holds them all (a negative coordinate, two full words), the map keeps whole coordinates.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <utility>

#include <absl/container/flat_hash_map.h>

#include "runtime/BoxTable.hpp"

namespace grundy {

// Where each coordinate lies in the key: `width` bits from bit `shift`.
struct KeyFields {
  int arity = 0;
  std::array<std::uint8_t, kMaxBoxArity> width{}, shift{};

  // Even shares of 64 bits, or the widths `need` with the room left shared out evenly.
  static KeyFields split(int arity, const std::array<int, kMaxBoxArity>& need) {
    KeyFields f;
    f.arity = arity;
    int total = 0;
    for (int i = 0; i < arity; ++i) total += need[static_cast<std::size_t>(i)];
    int at = 0;
    for (int i = 0; i < arity; ++i) {
      const int spare = (64 - total) / arity + (i < (64 - total) % arity ? 1 : 0);
      f.width[static_cast<std::size_t>(i)] =
          static_cast<std::uint8_t>(need[static_cast<std::size_t>(i)] + spare);
      f.shift[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(at);
      at += f.width[static_cast<std::size_t>(i)];
    }
    return f;
  }
  static int width_of(std::int64_t x) { return std::bit_width(static_cast<std::uint64_t>(x)); }
  bool pack(const std::int64_t* c, std::uint64_t& k) const {
    k = 0;
    for (int i = 0; i < arity; ++i) {
      const auto x = static_cast<std::uint64_t>(c[i]);
      const unsigned w = width[static_cast<std::size_t>(i)];
      if (w < 64 && (x >> w) != 0) return false;
      k |= x << shift[static_cast<std::size_t>(i)];
    }
    return true;
  }
  Coords unpack(std::uint64_t k) const {
    Coords c{};
    for (int i = 0; i < arity; ++i) {
      const unsigned w = width[static_cast<std::size_t>(i)];
      const std::uint64_t m = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
      c[static_cast<std::size_t>(i)] =
          static_cast<std::int64_t>((k >> shift[static_cast<std::size_t>(i)]) & m);
    }
    return c;
  }
};

template <class V>
class StateMap {
 public:
  explicit StateMap(int arity) : arity_(arity), fields_(KeyFields::split(arity, {})) {}
  int arity() const { return arity_; }

  const V* find(const std::int64_t* c) const {
    if (wide_) {
      const auto it = whole_.find(coords_key(c, arity_));
      return it == whole_.end() ? nullptr : &it->second;
    }
    std::uint64_t k = 0;
    if (!fields_.pack(c, k)) return nullptr;  // wider than every state kept
    const auto it = packed_.find(k);
    return it == packed_.end() ? nullptr : &it->second;
  }
  void set(const std::int64_t* c, V v) {
    std::uint64_t k = 0;
    if (!wide_ && !fields_.pack(c, k)) {
      redraw(c);
      fields_.pack(c, k);
    }
    if (wide_) whole_[coords_key(c, arity_)] = v;
    else packed_[k] = v;
  }
  void erase(const std::int64_t* c) {
    if (wide_) {
      whole_.erase(coords_key(c, arity_));
      return;
    }
    std::uint64_t k = 0;
    if (fields_.pack(c, k)) packed_.erase(k);
  }
  // The memory of the map's slots.
  std::uint64_t bytes() const {
    return wide_ ? whole_.capacity() * (sizeof(std::pair<Coords, V>) + 1)
                 : packed_.capacity() * (sizeof(std::pair<std::uint64_t, V>) + 1);
  }

 private:
  // Fields that hold every key kept and c, or whole coordinates from now on.
  void redraw(const std::int64_t* c) {
    std::array<int, kMaxBoxArity> need{};
    for (int i = 0; i < arity_; ++i) need[static_cast<std::size_t>(i)] = KeyFields::width_of(c[i]);
    for (const auto& [k, v] : packed_) {
      const Coords old = fields_.unpack(k);
      for (int i = 0; i < arity_; ++i) {
        auto& n = need[static_cast<std::size_t>(i)];
        n = std::max(n, KeyFields::width_of(old[static_cast<std::size_t>(i)]));
      }
    }
    int total = 0;
    for (int i = 0; i < arity_; ++i) total += need[static_cast<std::size_t>(i)];
    absl::flat_hash_map<std::uint64_t, V> kept;
    kept.swap(packed_);
    if (total > 64) {
      wide_ = true;
      for (const auto& [k, v] : kept) whole_[fields_.unpack(k)] = v;
      return;
    }
    const KeyFields old = fields_;
    fields_ = KeyFields::split(arity_, need);
    packed_.reserve(kept.size());
    for (const auto& [k, v] : kept) {
      std::uint64_t nk = 0;
      fields_.pack(old.unpack(k).data(), nk);
      packed_[nk] = v;
    }
  }

  int arity_;
  bool wide_ = false;
  KeyFields fields_;
  absl::flat_hash_map<std::uint64_t, V> packed_;
  absl::flat_hash_map<Coords, V, CoordsHash, CoordsEq> whole_;
};

}  // namespace grundy
