#include "runtime/Witness.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define GRUNDY_WITNESS_AVX2 1
#endif

namespace grundy {

namespace {

// One split at a time: what the kernel did before, and what is left after the wide scan.
std::int64_t scan_scalar(const std::uint8_t* g, std::int64_t r, std::int64_t lo, std::int64_t hi,
                         ByteSet& waiting) {
  std::int64_t looked = 0;
  for (std::int64_t a = lo; a <= hi; ++a) {
    ++looked;
    const auto v = static_cast<std::uint8_t>(g[a] ^ g[r - a]);
    if (waiting.contains(v)) {
      waiting.remove(v);
      if (waiting.empty()) break;
    }
  }
  return looked;
}

#if GRUNDY_WITNESS_AVX2
__attribute__((target("avx2"))) std::int64_t scan_avx2(const std::uint8_t* g, std::int64_t r, std::int64_t lo,
                                                       std::int64_t hi, ByteSet& waiting) {
  // The tables in both 128-bit lanes, where vpshufb looks up.
#define GRUNDY_BOTH_LANES(t) _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(t)))
  __m256i low = GRUNDY_BOTH_LANES(waiting.low());
  __m256i high = GRUNDY_BOTH_LANES(waiting.high());
  const __m256i bit_of = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128,  //
                                          1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
  const __m256i reverse = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,  //
                                           15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i seven = _mm256_set1_epi8(7);
  const __m256i zero = _mm256_setzero_si256();
  std::int64_t looked = 0;
  std::int64_t a = lo;
  // 32 splits (a + i, r - a - i): g[a .. a + 31] against g[r - a - 31 .. r - a] reversed.
  for (; a + 31 <= hi && r - a - 31 >= 0; a += 32) {
    looked += 32;
    __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g + (r - a - 31)));
    y = _mm256_shuffle_epi8(y, reverse);
    y = _mm256_permute2x128_si256(y, y, 1);
    const __m256i x = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(g + a)), y);
    const __m256i l = _mm256_and_si256(x, nibble);
    const __m256i h = _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
    const __m256i row = _mm256_blendv_epi8(_mm256_shuffle_epi8(low, l), _mm256_shuffle_epi8(high, l),
                                           _mm256_cmpgt_epi8(h, seven));
    const __m256i hit = _mm256_and_si256(row, _mm256_shuffle_epi8(bit_of, h));
    auto hits = ~static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hit, zero)));
    if (hits == 0) continue;
    alignas(32) std::uint8_t xs[32];
    _mm256_store_si256(reinterpret_cast<__m256i*>(xs), x);
    for (; hits; hits &= hits - 1) waiting.remove(xs[__builtin_ctz(hits)]);
    if (waiting.empty()) return looked;
    low = GRUNDY_BOTH_LANES(waiting.low());
    high = GRUNDY_BOTH_LANES(waiting.high());
  }
#undef GRUNDY_BOTH_LANES
  return looked + (a <= hi ? scan_scalar(g, r, a, hi, waiting) : 0);
}
#endif

}  // namespace

bool witness_scan_available() {
#if GRUNDY_WITNESS_AVX2
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
#else
  return false;
#endif
}

std::int64_t witness_scan(const std::uint8_t* g, std::int64_t r, std::int64_t lo, std::int64_t hi,
                          ByteSet& waiting) {
  if (waiting.empty() || lo > hi) return 0;
#if GRUNDY_WITNESS_AVX2
  if (witness_scan_available()) return scan_avx2(g, r, lo, hi, waiting);
#endif
  return scan_scalar(g, r, lo, hi, waiting);
}

}  // namespace grundy
