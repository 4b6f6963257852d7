// The parallel compaction's staging copy with AVX-512. The parallel compaction first writes
// each chunk's flags (a loop compilers vectorise for simple predicates), then copies the
// selected items to the staging buffer; item by item, that copy limits the whole compaction.
// vpcompressd / vpcompressq packs the selected lanes of 16 (8) items in one instruction. The
// library is built for baseline x86-64, so these functions carry their own target and run
// only where the CPU has AVX-512 F, BW and VL (checked once at run time). Items are copied as
// bit patterns, so any trivially copyable 4- or 8-byte type goes through them.
#pragma once

#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define SCANKIT_CPU_COMPRESS_AVX512 1
#endif

namespace scankit::cpu::detail {

/// Whether the compress path can run on this CPU.
inline bool cpu_has_avx512_compress() {
#ifdef SCANKIT_CPU_COMPRESS_AVX512
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vl");
  return yes;
#else
  return false;
#endif
}

#ifdef SCANKIT_CPU_COMPRESS_AVX512
/// Appends src[j] for every j < m with (fl[j] != 0) == keep to dst; returns how many. Word is
/// std::uint32_t (16 items a vector) or std::uint64_t (8). Whole vectors are stored: up to a
/// vector of items past the kept ones is written, but never past dst[j + lanes) for the vector
/// read from src[j], so a buffer with room for every item of the block holds them all.
template <class Word>
__attribute__((target("avx512f,avx512bw,avx512vl"))) inline std::int64_t compress_items(
    Word* dst, const Word* src, const unsigned char* fl, std::int64_t m, bool keep) {
  static_assert(sizeof(Word) == 4 || sizeof(Word) == 8);
  constexpr int lanes = 64 / static_cast<int>(sizeof(Word));
  std::int64_t c = 0, j = 0;
  for (; j + lanes <= m; j += lanes) {
    const __m128i f = lanes == 16 ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(fl + j))
                                  : _mm_loadl_epi64(reinterpret_cast<const __m128i*>(fl + j));
    // One mask bit per flag byte; for 8 lanes only the low 8 bits hold flags.
    const unsigned k = (keep ? _mm_test_epi8_mask(f, f) : _mm_testn_epi8_mask(f, f)) & ((1u << lanes) - 1u);
    const __m512i v = _mm512_loadu_si512(src + j);
    if constexpr (lanes == 16) _mm512_storeu_si512(dst + c, _mm512_maskz_compress_epi32(static_cast<__mmask16>(k), v));
    else _mm512_storeu_si512(dst + c, _mm512_maskz_compress_epi64(static_cast<__mmask8>(k), v));
    c += __builtin_popcount(k);
  }
  for (; j < m; ++j) {
    dst[c] = src[j];
    c += (fl[j] != 0) == keep ? 1 : 0;
  }
  return c;
}
#endif

}  // namespace scankit::cpu::detail
