// The witness scan of the sparse-space kernel (runtime/Kernels.cpp) for tables of bytes:
// among the splits (a, r - a) of a heap, a = lo .. hi, find the XORs g[a] ^ g[r - a] that
// lie in a set of values still waiting for a witness. Most heaps have about thirty such
// values and confirm them after a few hundred splits; with AVX2, 32 splits are XORed and
// tested against the set at once (a table lookup by the low half of each byte, a bit by the
// high half), instead of marking one value per split.
#pragma once

#include <cstdint>
#include <cstring>

namespace grundy {

// A set of byte values, the values still waiting for a witness, kept as the scan reads it:
// two 16-entry tables indexed by a byte's low half, where bit h of low[l] says that
// (h << 4) | l is in the set for h < 8, and bit h - 8 of high[l] for h >= 8.
class ByteSet {
 public:
  void add(std::uint8_t v) { slot(v) = static_cast<std::uint8_t>(slot(v) | bit(v)); }
  void remove(std::uint8_t v) { slot(v) = static_cast<std::uint8_t>(slot(v) & ~bit(v)); }
  bool contains(std::uint8_t v) const { return (tables_[index(v)] & bit(v)) != 0; }
  bool empty() const {
    std::uint64_t any = 0;
    for (int i = 0; i < 32; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, tables_ + i, 8);
      any |= w;
    }
    return any == 0;
  }
  const std::uint8_t* low() const { return tables_; }
  const std::uint8_t* high() const { return tables_ + 16; }

 private:
  static int index(std::uint8_t v) { return (v & 15) + (v >= 128 ? 16 : 0); }
  static std::uint8_t bit(std::uint8_t v) { return static_cast<std::uint8_t>(1u << ((v >> 4) & 7)); }
  std::uint8_t& slot(std::uint8_t v) { return tables_[index(v)]; }
  alignas(32) std::uint8_t tables_[32] = {};
};

// True when the CPU runs the AVX2 scan; else the kernel scans one split at a time.
bool witness_scan_available();

// Removes from `waiting` every value g[a] ^ g[r - a] for a = lo .. hi (1 <= lo, hi <= r - 1),
// stopping early once `waiting` is empty. Returns the number of splits looked at.
std::int64_t witness_scan(const std::uint8_t* g, std::int64_t r, std::int64_t lo, std::int64_t hi,
                          ByteSet& waiting);

}  // namespace grundy
