// The merge path of the GPU segmented sort, step 1: every piece sorted in shared memory.
//
// A piece is a segment of at most `piece` keys, or one `piece`-key slice of a longer segment
// (cut from the segment's begin; step 2, merge_rounds.cuh, merges the slices). Block b takes
// the bin [cut(b * piece), cut((b + 1) * piece)), where cut(x) moves x forward to the end of
// the piece that x is inside of: a bin holds whole pieces, keys between segments (each its own
// piece of one), and fewer than 2 * piece keys. One launch covers every length distribution:
// a bin of 1-key segments and a bin that is one slice of a giant segment cost the same.
//
//   phase 0  (bin_bounds, a kernel of its own: one thread per bin edge, so that the searches'
//            latencies overlap across the grid) every bin's bounds and first segment
//   phase 1  the bin's bounds, read (a bin inside a segment that sorts by radix passes,
//            radix_long.cuh, returns)
//   phase 2  stage its keys in shared memory
//   phase 3  tag each position with its piece's start: marks at piece starts and segment ends,
//            then a block max-scan (a position's piece never changes: pieces sort in place)
//   phase 4  each thread sorts its `bin_items` positions by odd-even transposition, swapping
//            neighbours of one piece only
//   phase 5  merge rounds of width w = bin_items, 2 * bin_items, ...: where a piece spans the
//            middle of a pair of runs, the two sorted parts of that piece merge (merge path);
//            positions in no such piece stay
//   phase 6  store the keys, gather the values
//
// Stable: the transposition swaps only strictly ordered neighbours and the merges take the
// earlier run's key on ties.
#pragma once

#include <cstdint>

#include "scankit/cuda/detail/launch.cuh"            // wait_for_previous_grid
#include "scankit/cuda/detail/merge/merge_path.cuh"  // merge_path_split
#include "scankit/cuda/detail/segmented_sort/kernels.cuh"
#include "scankit/cuda/detail/segmented_sort/plan.hpp"  // radix_rule
#include "scankit/cuda/detail/segmented_sort/tuning.hpp"
#include "scankit/cuda/detail/warp/scan.cuh"
#include "scankit/sort_traits.hpp"

namespace scankit::cuda::detail::segmented_sort {

/// The sorts' order on keys of type K (bit range, direction).
template <class K>
using rank_less = scankit::detail::sort_key_less<K>;

/// The first segment whose end is past x (ends never decrease), or `count`.
__device__ __forceinline__ std::int64_t first_ending_after(const segments_of& seg, std::int64_t count,
                                                           std::int64_t x) {
  if (!seg.begin) {
    const std::int64_t s = x / seg.cols;  // the row that holds x (cols > 0 where there are keys)
    return s < count ? s : count;
  }
  std::int64_t lo = 0, hi = count;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (seg.end[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/// x, or the end of the piece that x is strictly inside of.
__device__ __forceinline__ std::int64_t cut(const segments_of& seg, std::int64_t count, std::int64_t n,
                                            std::int64_t x) {
  if (x >= n) return n;
  const std::int64_t s = first_ending_after(seg, count, x);
  if (s == count) return x;
  const std::int64_t b = seg.first(s), e = seg.last(s);
  if (b >= x) return x;
  const std::int64_t piece_start = b + (x - b) / piece * piece;
  if (piece_start == x) return x;
  return piece_start + piece < e ? piece_start + piece : e;
}

/// Phase 0: for every bin edge b in [0, bins], cut(b * piece) and the first segment ending
/// after it (binary searches over the segment ends, dependent loads each: a grid of them keeps
/// many in flight where one block per bin would wait for its own).
template <int = 0>
__global__ void bin_bounds(segments_of seg, std::int64_t count, std::int64_t n, std::int64_t bins,
                           std::int64_t* bin_lo, std::int64_t* bin_segment) {
  const std::int64_t step = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t b = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; b <= bins; b += step) {
    const std::int64_t lo = cut(seg, count, n, b * piece);
    bin_lo[b] = lo;
    bin_segment[b] = first_ending_after(seg, count, lo);
  }
}

/// Dynamic shared memory of sort_pieces for keys of K: the keys, their bin positions and tags.
template <class K>
constexpr std::size_t pieces_shared_bytes() {
  return static_cast<std::size_t>(bin_capacity) * (sizeof(K) + 2 * sizeof(std::uint16_t));
}

template <class K, class V>
__global__ void __launch_bounds__(bin_threads)
    sort_pieces(const K* keys_in, K* keys_out, const V* values_in, V* values_out, segments_of seg,
                std::int64_t count, const std::int64_t* bin_lo, const std::int64_t* bin_segment,
                rank_less<K> less, radix_rule radix) {
  constexpr int T = bin_threads, I = bin_items;
  static_assert(T * I == bin_capacity && bin_capacity == 2 * piece && bin_capacity <= 1 << 15);
  extern __shared__ __align__(16) unsigned char smem[];
  K* keys = reinterpret_cast<K*>(smem);
  auto* from = reinterpret_cast<std::uint16_t*>(keys + bin_capacity);  // each key's place in the bin
  std::uint16_t* tag = from + bin_capacity;                              // its piece's first place
  __shared__ unsigned warp_max[T / 32];
  const int t = static_cast<int>(threadIdx.x);
  wait_for_previous_grid();  // bin_bounds

  // ---- phase 1: the bin's bounds ----
  const std::int64_t lo = bin_lo[blockIdx.x], hi = bin_lo[blockIdx.x + 1], s0 = bin_segment[blockIdx.x];
  const int size = static_cast<int>(hi - lo);
  // A bin inside a segment that sorts by radix passes (radix_long.cuh) is left to them. (A bin
  // that holds only part of one is sorted here too: pieces sort stably within the segment, so
  // the passes, which write every key of it, sort the same sequence of equal keys.)
  if (s0 < count && seg.first(s0) <= lo && hi <= seg.last(s0) && radix(seg.last(s0) - seg.first(s0))) return;

  // ---- phase 2: stage the keys; every position starts unmarked, the first one as a gap ----
  for (int i = t; i < size; i += T) {
    keys[i] = keys_in[lo + i];
    from[i] = static_cast<std::uint16_t>(i);
    tag[i] = 0;
  }
  __syncthreads();

  // ---- phase 3: tags. mark = ((place + 1) << 1) | gap, so that a max-scan finds each position's
  // latest mark. A gap mark (a segment's end) makes each following key its own piece until the
  // next piece starts; piece starts are written after the gap marks and win where both fall.
  const auto gap_mark = [](int i) { return static_cast<std::uint16_t>(((i + 1) << 1) | 1); };
  const auto piece_mark = [](int i) { return static_cast<std::uint16_t>((i + 1) << 1); };
  if (t == 0 && size > 0) tag[0] = gap_mark(0);
  for (std::int64_t s = s0 + t; s < count && seg.first(s) < hi; s += T) {
    // Only non-empty segments mark their ends: an empty one lies in a gap already marked (or at
    // a piece's start), and one writer per position keeps the marks free of shared-memory races.
    const std::int64_t e = seg.last(s);
    if (e > lo && e < hi && seg.first(s) < e) tag[e - lo] = gap_mark(static_cast<int>(e - lo));
  }
  __syncthreads();
  for (std::int64_t s = s0 + t; s < count && seg.first(s) < hi; s += T) {
    const std::int64_t b = seg.first(s), e = seg.last(s);
    const std::int64_t stop = e < hi ? e : hi;
    std::int64_t p = b >= lo ? b : b + (lo - b + piece - 1) / piece * piece;
    for (; p < stop; p += piece) tag[p - lo] = piece_mark(static_cast<int>(p - lo));
  }
  __syncthreads();
  {
    unsigned run = 0, mark[I];
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const int i = t * I + j;
      run = i < size && tag[i] > run ? tag[i] : run;
      mark[j] = run;
    }
    const unsigned inclusive = warp_inclusive_scan(run, [](unsigned a, unsigned b) { return a > b ? a : b; });
    if ((t & 31) == 31) warp_max[t / 32] = inclusive;
    unsigned before = shfl_up(inclusive, 1u);
    if ((t & 31) == 0) before = 0;
    __syncthreads();
    for (int w = 0; w < t / 32; ++w) before = warp_max[w] > before ? warp_max[w] : before;
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const int i = t * I + j;
      const unsigned m = mark[j] > before ? mark[j] : before;
      if (i < size) tag[i] = static_cast<std::uint16_t>((m & 1u) ? i : (m >> 1) - 1);
    }
  }
  __syncthreads();

  // ---- phase 4: each thread's positions, sorted within their pieces ----
  {
    K k[I];
    std::uint16_t f[I], g[I];
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const int i = t * I + j;
      k[j] = i < size ? keys[i] : K{};
      f[j] = i < size ? from[i] : std::uint16_t{0};
      // past the end: each its own piece
      g[j] = i < size ? tag[i] : static_cast<std::uint16_t>(0xffff - j);
    }
#pragma unroll
    for (int r = 0; r < I; ++r) {
#pragma unroll
      for (int j = r & 1; j + 1 < I; j += 2) {
        if (g[j] == g[j + 1] && less(k[j + 1], k[j])) {
          const K tk = k[j];
          k[j] = k[j + 1], k[j + 1] = tk;
          const std::uint16_t tf = f[j];
          f[j] = f[j + 1], f[j + 1] = tf;
        }
      }
    }
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const int i = t * I + j;
      if (i < size) keys[i] = k[j], from[i] = f[j];
    }
  }
  __syncthreads();

  // ---- phase 5: merge rounds ----
  for (int w = I; w < size; w *= 2) {
    const int mine = t * I;
    const int pair = mine / (2 * w) * (2 * w), mid = pair + w;
    const int pair_end = pair + 2 * w < size ? pair + 2 * w : size;
    int out0 = 0, out1 = 0, a0 = 0, b1 = 0;
    K k[I];
    std::uint16_t f[I];
    if (mid < pair_end && tag[mid - 1] == tag[mid]) {
      // The piece that spans the middle: its part in run A is [a0, mid), in run B [mid, b1).
      const int piece_start = tag[mid];
      a0 = piece_start > pair ? piece_start : pair;
      int l = mid, h = pair_end;  // the first place in B of a later piece (tags never decrease)
      while (l < h) {
        const int m = (l + h) / 2;
        if (tag[m] == piece_start) l = m + 1;
        else h = m;
      }
      b1 = l;
      out0 = mine > a0 ? mine : a0;
      out1 = mine + I < b1 ? mine + I : b1;
      if (out0 < out1) {
        const int na = mid - a0, nb = b1 - mid;
        int ai = merge::merge_path_split(keys + a0, na, keys + mid, nb, out0 - a0, less);
        int bi = out0 - a0 - ai;
#pragma unroll
        for (int j = 0; j < I; ++j) {
          if (out0 + j < out1) {
            const bool take_a = ai < na && (bi >= nb || !less(keys[mid + bi], keys[a0 + ai]));
            const int src = take_a ? a0 + ai++ : mid + bi++;
            k[j] = keys[src], f[j] = from[src];
          }
        }
      }
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < I; ++j)
      if (out0 + j < out1) keys[out0 + j] = k[j], from[out0 + j] = f[j];
    __syncthreads();
  }

  // ---- phase 6: store; the values are read (all of them) before any is written, for in place ----
  for (int i = t; i < size; i += T) keys_out[lo + i] = keys[i];
  if constexpr (!std::is_void_v<V>) {
    V v[I];
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const int i = t + j * T;
      if (i < size) v[j] = values_in[lo + from[i]];
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const int i = t + j * T;
      if (i < size) values_out[lo + i] = v[j];
    }
  }
}

}  // namespace scankit::cuda::detail::segmented_sort
