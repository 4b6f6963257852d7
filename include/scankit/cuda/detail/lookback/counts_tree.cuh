// The counts tree, the compaction's look-back (detail/compact): the levels of the scan's
// radix-32 tree (status_tree.cuh), with every tile adding its count to its entry at each level
// with an atomic add, so an upper entry is complete as soon as its last tile's count lands,
// without waiting for any tile's look-back to publish it. A tile's prefix is, for each level, the
// sum of the entries before it in its own aligned run of 32: it waits only for recent counts,
// never for a chain of prefixes. (In the classic scheme, one status word per tile summed back to
// the nearest inclusive prefix, with hundreds of tiles resident the nearest prefix is usually
// hundreds of tiles back.) Counts are integers, so the result is exact and deterministic.
#pragma once

#include "scankit/cuda/detail/lookback/status_tree.cuh"
#include "scankit/ops.hpp"

namespace scankit::cuda::detail::lookback {

using count_t = unsigned long long;
/// Sleep between polls of a predecessor's entry (no sleep before the first poll).
inline constexpr unsigned counts_backoff_ns = 32;

/// The tree of counts: one 64-bit word per entry, the count in the low `value_bits` bits and,
/// above them, how many tiles have added to it. A tile stores its own level-0 entry and adds
/// itself to its entry at every level above with a fire-and-forget atomic (red.add), so an
/// upper entry is complete the moment its last tile's count lands: nobody has to look back
/// first and publish it. (The scan's scheme, where the last tile of a run publishes the run's
/// sum one level up after seeing the run complete, costs each look-back more polling round
/// trips per level.) Counts are integers, so adding them in any order is exact.
namespace counts_tree {
inline constexpr int value_bits = 40;  // counts of up to 2^40 items per entry
inline constexpr int max_levels = 5;   // level k needs 5k + 1 bits of arrivals; 24 are left
inline constexpr unsigned long long value_mask = (1ull << value_bits) - 1;

__device__ __forceinline__ void add_relaxed(unsigned long long* p, unsigned long long v) {
  asm volatile("red.relaxed.gpu.global.add.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/// Tile t's count, at every level (one thread).
__device__ __forceinline__ void publish(const lookback::tree<count_t>& tr, std::int64_t t, count_t count) {
  const unsigned long long word = (1ull << value_bits) | count;
  lookback::store_relaxed(tr.level[0].words + t, word);
#pragma unroll
  for (int k = 1; k < max_levels; ++k)
    if (k < tr.levels) add_relaxed(tr.level[k].words + (t >> (5 * k)), word);
}

/// The number of items selected before tile t (one warp; every lane gets it): at each level,
/// lane i waits for entry i of the aligned run of 32 before the tile's index there to be
/// complete (all 32^level tiles added), all levels' loads in flight together.
__device__ __forceinline__ std::int64_t look_back(const lookback::tree<count_t>& tr, std::int64_t t) {
  const int lane = threadIdx.x & 31;
  unsigned pending = 0;  // bit k: this lane still waits for its entry of level k
  count_t found = 0;
#pragma unroll
  for (int k = 0; k < max_levels; ++k) {
    const std::int64_t idx = t >> (5 * k);
    if (k < tr.levels && (idx & ~std::int64_t{31}) + lane < idx) pending |= 1u << k;
  }
  while (__any_sync(0xffffffffu, pending != 0)) {
    unsigned long long w[max_levels];
#pragma unroll
    for (int k = 0; k < max_levels; ++k)
      if ((pending >> k) & 1u) w[k] = lookback::load_relaxed(tr.level[k].words + ((t >> (5 * k)) & ~std::int64_t{31}) + lane);
#pragma unroll
    for (int k = 0; k < max_levels; ++k)
      if (((pending >> k) & 1u) && (w[k] >> value_bits) == (1ull << (5 * k))) found += w[k] & value_mask, pending &= ~(1u << k);
    if (__any_sync(0xffffffffu, pending != 0)) __nanosleep(counts_backoff_ns);
  }
  return static_cast<std::int64_t>(warp_reduce(found, sum<count_t>{}));
}
}  // namespace counts_tree

}  // namespace scankit::cuda::detail::lookback
