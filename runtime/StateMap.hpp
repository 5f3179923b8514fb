// A hash map from the coordinates of a state of compiled rules to what is known of it, for
// the memos that no dense box can span (runtime/HashedValues.hpp, runtime/OutcomeMemo.hpp).
// A state's coordinates (a set's bitmask, a list's packed word, small integers) usually fit
// in one word side by side: its key is then that word, as a hand-written search keys its
// memo by the mask, not four words (40-byte slots). Keys of 32 bits while the states fit
// (8-byte slots: Can I Win's 50,000 states stay in the processor's second-level cache), then
// of 64 bits (16-byte slots). The fields start even and are redrawn from the widths met when
// a state does not fit; when no split of 64 bits holds them all (a negative coordinate, two
// full words), the map keeps whole coordinates.
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

  // Even shares of `bits` bits, or the widths `need` with the room left shared out evenly.
  static KeyFields split(int arity, const std::array<int, kMaxBoxArity>& need, int bits = 64) {
    KeyFields f;
    f.arity = arity;
    int total = 0;
    for (int i = 0; i < arity; ++i) total += need[static_cast<std::size_t>(i)];
    int at = 0;
    for (int i = 0; i < arity; ++i) {
      const int spare = (bits - total) / arity + (i < (bits - total) % arity ? 1 : 0);
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
      // A field of no bits may lie at bit 64 (a 64-bit field before it), past any shift.
      if (w == 0) {
        if (x != 0) return false;
        continue;
      }
      if (w < 64 && (x >> w) != 0) return false;
      k |= x << shift[static_cast<std::size_t>(i)];
    }
    return true;
  }
  Coords unpack(std::uint64_t k) const {
    Coords c{};
    for (int i = 0; i < arity; ++i) {
      const unsigned w = width[static_cast<std::size_t>(i)];
      if (w == 0) continue;  // 0, and its shift may be 64
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
  explicit StateMap(int arity) : arity_(arity), fields_(KeyFields::split(arity, {}, 32)) {}
  int arity() const { return arity_; }

  const V* find(const std::int64_t* c) const {
    if (keys_ == Keys::Whole) return found(whole_, coords_key(c, arity_));
    std::uint64_t k = 0;
    if (!fields_.pack(c, k)) return nullptr;  // wider than every state kept
    return keys_ == Keys::Narrow ? found(narrow_, static_cast<std::uint32_t>(k)) : found(packed_, k);
  }
  // Starts the load of c's slot, for a find soon after: a batch's options looked up one after
  // another wait for their cache misses together, not in turn.
  void prefetch(const std::int64_t* c) const {
    if (keys_ == Keys::Whole) return;
    std::uint64_t k = 0;
    if (!fields_.pack(c, k)) return;
    if (keys_ == Keys::Narrow) narrow_.prefetch(static_cast<std::uint32_t>(k));
    else packed_.prefetch(k);
  }
  void set(const std::int64_t* c, V v) {
    std::uint64_t k = 0;
    if (keys_ != Keys::Whole && !fields_.pack(c, k)) {
      redraw(c);
      fields_.pack(c, k);
    }
    switch (keys_) {
      case Keys::Narrow: narrow_[static_cast<std::uint32_t>(k)] = v; break;
      case Keys::Packed: packed_[k] = v; break;
      case Keys::Whole: whole_[coords_key(c, arity_)] = v; break;
    }
  }
  void erase(const std::int64_t* c) {
    if (keys_ == Keys::Whole) {
      whole_.erase(coords_key(c, arity_));
      return;
    }
    std::uint64_t k = 0;
    if (!fields_.pack(c, k)) return;
    if (keys_ == Keys::Narrow) narrow_.erase(static_cast<std::uint32_t>(k));
    else packed_.erase(k);
  }
  // The memory of the map's slots.
  std::uint64_t bytes() const { return slot_bytes(narrow_) + slot_bytes(packed_) + slot_bytes(whole_); }

 private:
  enum class Keys : std::uint8_t { Narrow, Packed, Whole };
  template <class Map, class K>
  static const V* found(const Map& m, const K& k) {
    const auto it = m.find(k);
    return it == m.end() ? nullptr : &it->second;
  }
  template <class Map>
  static std::uint64_t slot_bytes(const Map& m) {
    return m.capacity() * (sizeof(typename Map::value_type) + 1);
  }

  // Fields that hold every key kept and c (in 32 bits, else in 64), or whole coordinates
  // from now on.
  void redraw(const std::int64_t* c) {
    std::array<int, kMaxBoxArity> need{};
    for (int i = 0; i < arity_; ++i) need[static_cast<std::size_t>(i)] = KeyFields::width_of(c[i]);
    auto widen = [&](std::uint64_t k) {
      const Coords old = fields_.unpack(k);
      for (int i = 0; i < arity_; ++i) {
        auto& n = need[static_cast<std::size_t>(i)];
        n = std::max(n, KeyFields::width_of(old[static_cast<std::size_t>(i)]));
      }
    };
    for (const auto& [k, v] : narrow_) widen(k);
    for (const auto& [k, v] : packed_) widen(k);
    int total = 0;
    for (int i = 0; i < arity_; ++i) total += need[static_cast<std::size_t>(i)];
    const KeyFields old = fields_;
    absl::flat_hash_map<std::uint32_t, V> narrow;
    absl::flat_hash_map<std::uint64_t, V> packed;
    narrow.swap(narrow_);
    packed.swap(packed_);
    auto move_all = [&](auto put) {
      for (const auto& [k, v] : narrow) put(old.unpack(k), v);
      for (const auto& [k, v] : packed) put(old.unpack(k), v);
    };
    if (total > 64) {
      keys_ = Keys::Whole;
      move_all([&](const Coords& x, V v) { whole_[x] = v; });
      return;
    }
    keys_ = total <= 32 ? Keys::Narrow : Keys::Packed;
    fields_ = KeyFields::split(arity_, need, total <= 32 ? 32 : 64);
    move_all([&](const Coords& x, V v) {
      std::uint64_t nk = 0;
      fields_.pack(x.data(), nk);
      if (keys_ == Keys::Narrow) narrow_[static_cast<std::uint32_t>(nk)] = v;
      else packed_[nk] = v;
    });
  }

  int arity_;
  Keys keys_ = Keys::Narrow;
  KeyFields fields_;
  absl::flat_hash_map<std::uint32_t, V> narrow_;
  absl::flat_hash_map<std::uint64_t, V> packed_;
  absl::flat_hash_map<Coords, V, CoordsHash, CoordsEq> whole_;
};

}  // namespace grundy
