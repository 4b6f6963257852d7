// The merge path of the GPU segmented sort, step 2: the sorted slices of every segment longer
// than a piece merge, round by round, until each such segment is one sorted run.
//
// Round r merges, within each segment longer than w = piece << r, the runs [2jw, 2jw + w) and
// [2jw + w, 2jw + 2w) counted from the segment's begin (merge path: Odeh et al., as in
// detail/merge/merge_path.cuh, whose split search this reuses). Segments not longer than w are
// done and are not touched, so a round costs the bytes of the segments it merges, and rounds
// past the longest segment return at once.
//
//   setup      per segment its merge tiles (`piece` outputs each; none for a short segment,
//              nor for one that sorts by radix passes, radix_long.cuh) and the longest length;
//              an exclusive scan of the tile counts (scankit's own)
//   partition  per tile, where its first output's diagonal crosses the two runs
//   merge      per tile: stage the two slices, merge `round_items` outputs per thread, store
//              the keys, gather the values; a tile whose pair has no second run is copied
//   finish     a segment merged an odd number of times sits in the alternate buffer: copied back
//
// The host knows neither which segments are long nor how many tiles they make: every kernel
// reads those counts from device memory (grids cover the most there can be), so no copy to the
// host is needed and the call can be captured in a CUDA graph.
#pragma once

#include <cstdint>
#include <type_traits>

#include "scankit/cuda/detail/merge/merge_path.cuh"  // merge_path_split
#include "scankit/cuda/detail/segmented_sort/pieces.cuh"
#include "scankit/cuda/detail/segmented_sort/radix_long.cuh"  // radix_list
#include "scankit/cuda/detail/segmented_sort/tuning.hpp"

namespace scankit::cuda::detail::segmented_sort {

/// The long segments' merge tiles, in device memory.
struct long_tiles {
  const std::int64_t* first;    // per segment: its first tile (exclusive scan of the counts)
  const std::int64_t* total;    // the number of tiles
  const std::int64_t* longest;  // the longest segment's length (0 when none is longer than a piece)
};

__device__ __forceinline__ std::int64_t tiles_of(std::int64_t len) {
  return len > piece ? (len + piece - 1) / piece : 0;
}

/// Per segment its merge tiles, and the longest length among them; segments the radix rule
/// takes are listed for radix_long.cuh instead and get no tiles.
template <class = void>
__global__ void count_long_tiles(segments_of seg, std::int64_t count, std::int64_t* tiles,
                                 unsigned long long* longest, radix_list radix) {
  for (std::int64_t s = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; s < count;
       s += std::int64_t{gridDim.x} * blockDim.x) {
    const std::int64_t b = seg.first(s), e = seg.last(s), len = e - b;
    if (radix.note(b, e)) {
      tiles[s] = 0;
      continue;
    }
    tiles[s] = tiles_of(len);
    if (len > piece) atomicMax(longest, static_cast<unsigned long long>(len));
  }
}

/// A merge tile of round width w: its segment's begin and length, its outputs [o0, o1) counted
/// from the begin, and its pair of runs A = [ps, m), B = [m, pe).
struct merge_tile {
  std::int64_t begin, len, o0, o1, ps, m, pe;
};

__device__ __forceinline__ merge_tile tile_at(const segments_of& seg, std::int64_t count, const long_tiles& lt,
                                              std::int64_t t, std::int64_t w) {
  std::int64_t lo = 0, hi = count;  // the last segment whose first tile is at or before t
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (lt.first[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  const std::int64_t s = lo - 1;
  merge_tile m;
  m.begin = seg.first(s), m.len = seg.last(s) - m.begin;
  m.o0 = (t - lt.first[s]) * piece;
  m.o1 = m.o0 + piece < m.len ? m.o0 + piece : m.len;
  m.ps = m.o0 / (2 * w) * (2 * w);
  m.m = m.ps + w < m.len ? m.ps + w : m.len;
  m.pe = m.ps + 2 * w < m.len ? m.ps + 2 * w : m.len;
  return m;
}

template <class K>
__global__ void partition_round(const K* src, segments_of seg, std::int64_t count, long_tiles lt, std::int64_t w,
                                rank_less<K> less, std::int64_t* splits) {
  if (w >= *lt.longest) return;
  const std::int64_t total = *lt.total;
  for (std::int64_t t = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; t < total;
       t += std::int64_t{gridDim.x} * blockDim.x) {
    const merge_tile m = tile_at(seg, count, lt, t, w);
    if (m.len <= w || m.m == m.pe) continue;
    const K* a = src + m.begin + m.ps;
    splits[t] = merge::merge_path_split(a, m.m - m.ps, src + m.begin + m.m, m.pe - m.m, m.o0 - m.ps, less);
  }
}

template <class K, class V>
__global__ void __launch_bounds__(round_threads)
    merge_round(const K* src, const V* src_values, K* dst, V* dst_values, segments_of seg, std::int64_t count,
                long_tiles lt, std::int64_t w, rank_less<K> less, const std::int64_t* splits) {
  constexpr int T = round_threads, I = round_items;
  static_assert(T * I == piece);
  __shared__ K staged[piece];
  __shared__ std::uint16_t source[piece];
  if (w >= *lt.longest) return;
  const std::int64_t total = *lt.total;
  const int t = static_cast<int>(threadIdx.x);
  for (std::int64_t tile = blockIdx.x; tile < total; tile += gridDim.x) {
    const merge_tile m = tile_at(seg, count, lt, tile, w);
    if (m.len <= w) continue;  // done in an earlier round: it stays where it is
    const int size = static_cast<int>(m.o1 - m.o0);
    if (m.m == m.pe) {  // no second run: the slice moves as it is
      for (int i = t; i < size; i += T) {
        dst[m.begin + m.o0 + i] = src[m.begin + m.o0 + i];
        if constexpr (!std::is_void_v<V>) dst_values[m.begin + m.o0 + i] = src_values[m.begin + m.o0 + i];
      }
      continue;
    }
    // ---- stage: A's slice, then B's ----
    const std::int64_t d0 = m.o0 - m.ps, a0 = splits[tile];
    const std::int64_t a1 = m.o1 == m.pe ? m.m - m.ps : splits[tile + 1];
    const std::int64_t b0 = d0 - a0;
    const int na = static_cast<int>(a1 - a0);
    const K* a = src + m.begin + m.ps + a0;
    const K* b = src + m.begin + m.m + b0;
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const int i = t + j * T;
      if (i < size) staged[i] = i < na ? a[i] : b[i - na];
    }
    __syncthreads();
    // ---- merge: `I` outputs per thread from its own diagonal ----
    const int d = t * I < size ? t * I : size;
    int ai = merge::merge_path_split(staged, na, staged + na, size - na, d, less);
    int bi = na + d - ai;
    for (int j = 0; j < I && d + j < size; ++j) {
      const bool take_a = ai < na && (bi >= size || !less(staged[bi], staged[ai]));
      source[d + j] = static_cast<std::uint16_t>(take_a ? ai++ : bi++);
    }
    __syncthreads();
    // ---- store the keys, gather the values ----
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const int i = t + j * T;
      if (i < size) {
        dst[m.begin + m.o0 + i] = staged[source[i]];
        if constexpr (!std::is_void_v<V>) {
          const int f = source[i];
          dst_values[m.begin + m.o0 + i] =
              src_values[f < na ? m.begin + m.ps + a0 + f : m.begin + m.m + b0 + (f - na)];
        }
      }
    }
    __syncthreads();  // the next tile reuses the shared arrays
  }
}

/// Copies back, from the alternate buffer, the segments that were merged an odd number of times.
template <class K, class V>
__global__ void finish_rounds(const K* alt, const V* alt_values, K* out, V* out_values, segments_of seg,
                              std::int64_t count, long_tiles lt) {
  const std::int64_t total = *lt.total;
  for (std::int64_t tile = blockIdx.x; tile < total; tile += gridDim.x) {
    const merge_tile m = tile_at(seg, count, lt, tile, piece);
    int rounds = 0;
    for (std::int64_t w = piece; w < m.len; w *= 2) ++rounds;
    if (rounds % 2 == 0) continue;
    for (std::int64_t i = m.o0 + threadIdx.x; i < m.o1; i += blockDim.x) {
      out[m.begin + i] = alt[m.begin + i];
      if constexpr (!std::is_void_v<V>) out_values[m.begin + i] = alt_values[m.begin + i];
    }
  }
}

}  // namespace scankit::cuda::detail::segmented_sort
