// The kernels of the bucket sort that follows a split by the top digit (scankit::dist's radix
// sort): the keys of each top-digit bucket arrive as pieces (one per source rank), and the
// remaining digits are sorted per bucket by segmented onesweep passes (onesweep.cuh with
// Segmented: every bucket its own look-back chain and its own digit offsets).
//
//   tile_segments_kernel      which segment each tile slot of a segmented launch belongs to
//   segment_histogram_kernel  per piece, the counts of every remaining digit (one read)
//   bucket_bases_kernel       per bucket and digit, the offsets: the first pass reads the
//                             pieces (piece j's keys of a digit after those of pieces < j, so
//                             the sort is stable in piece order); later passes read buckets
//
// Host driver: run_bucket_sort in bucket_sort.cuh.
#pragma once

#include "scankit/cuda/detail/sort/common.cuh"
#include "scankit/cuda/detail/sort/onesweep.cuh"

namespace scankit::cuda::detail::radix {

/// tile_segment[t] = s for the tile slots [first_tile[s], first_tile[s + 1]) of segment s.
/// (A template: defined in a header that several translation units include.)
template <int = 0>
__global__ void tile_segments_kernel(const std::int64_t* first_tile, int segments, int* tile_segment) {
  for (int s = static_cast<int>(blockIdx.x); s < segments; s += static_cast<int>(gridDim.x))
    for (std::int64_t t = first_tile[s] + threadIdx.x; t < first_tile[s + 1]; t += blockDim.x) tile_segment[t] = s;
}

/// Copies of each shared counter of segment_histogram_kernel (lane l counts into copy l %
/// copies, so that lanes adding to one digit seldom meet in one bank): 8 for up to 3 passes,
/// 4 for 8-byte keys' 7 (28 KiB).
constexpr int segment_histogram_copies(int passes) { return passes <= 3 ? 8 : 4; }

/// hist[(segment * passes + pass) * radix + digit] += the segment's keys with that digit in
/// pass `pass` (hist zeroed). Each block counts a contiguous range of tile slots in shared
/// memory and adds its counters to a segment's when the range moves on to the next segment.
template <key_kind Kind, class U>
__global__ void __launch_bounds__(256) segment_histogram_kernel(const U* keys, segment_table segs, std::int64_t tiles,
                                                                std::int64_t tile, int passes, sort_options opts,
                                                                unsigned* hist) {
  extern __shared__ unsigned counters[];  // [pass][digit][copy]
  const int copies = segment_histogram_copies(passes), words = passes * radix * copies;
  const int copy = static_cast<int>(threadIdx.x & 31) % copies;
  for (int i = threadIdx.x; i < words; i += blockDim.x) counters[i] = 0;
  __syncthreads();
  const auto flush = [&](int segment) {
    __syncthreads();
    for (int i = threadIdx.x; i < passes * radix; i += blockDim.x) {
      unsigned c = 0;
      for (int k = 0; k < copies; ++k) {
        c += counters[i * copies + k];
        counters[i * copies + k] = 0;
      }
      if (c) atomicAdd(hist + static_cast<std::int64_t>(segment) * passes * radix + i, c);
    }
    __syncthreads();
  };
  constexpr int bits = static_cast<int>(sizeof(U)) * 8;
  const std::int64_t per_block = ceil_div(tiles, static_cast<std::int64_t>(gridDim.x));
  const std::int64_t t0 = blockIdx.x * per_block, t1 = t0 + per_block < tiles ? t0 + per_block : tiles;
  int current = -1;
  for (std::int64_t t = t0; t < t1; ++t) {
    const int segment = segs.tile_segment[t];
    if (segment != current) {
      if (current >= 0) flush(current);
      current = segment;
    }
    const std::int64_t b = segs.begin[segment] + (t - segs.first_tile[segment]) * tile;
    const std::int64_t e = b + tile < segs.end[segment] ? b + tile : segs.end[segment];
    // `unroll` loads in flight per thread (one at a time leaves the read at a fifth of the
    // bandwidth).
    constexpr int unroll = 8;
    for (std::int64_t i = b + threadIdx.x; i < e; i += unroll * blockDim.x) {
      U k[unroll];
#pragma unroll
      for (int j = 0; j < unroll; ++j) k[j] = i + j * blockDim.x < e ? keys[i + j * blockDim.x] : U{};
#pragma unroll
      for (int j = 0; j < unroll; ++j)
        if (i + j * blockDim.x < e)
          for (int p = 0; p < passes; ++p)
            atomicAdd(counters + (p * radix + static_cast<int>(make_digit<Kind, U>(opts, 0, bits, p)(k[j]))) * copies + copy, 1u);
    }
  }
  if (current >= 0) flush(current);
}

/// One block of 256 threads per bucket (thread d: digit d), from the pieces' counts
/// (hist[((bucket * pieces + j) * passes + pass) * radix + digit]):
///   first[(bucket * pieces + j) * radix + d]: where piece j's keys of digit d go in the first
///     pass, from the bucket's destination: the bucket's keys of smaller digits, then those of
///     digit d in pieces before j;
///   later[((pass - 1) * buckets + bucket) * radix + d]: the bucket's keys of smaller digits.
/// (A template: defined in a header that several translation units include.)
template <int = 0>
__global__ void __launch_bounds__(radix) bucket_bases_kernel(const unsigned* hist, int buckets, int pieces, int passes,
                                                             unsigned long long* first, unsigned long long* later) {
  __shared__ unsigned long long warp_total[radix / 32];
  const int b = static_cast<int>(blockIdx.x), d = static_cast<int>(threadIdx.x), lane = d & 31, w = d >> 5;
  const auto count = [&](int j, int p) {
    return static_cast<unsigned long long>(hist[((static_cast<std::int64_t>(b) * pieces + j) * passes + p) * radix + d]);
  };
  for (int p = 0; p < passes; ++p) {
    unsigned long long total = 0;
    for (int j = 0; j < pieces; ++j) total += count(j, p);
    const unsigned long long incl = warp_inclusive_scan(total, [](auto x, auto y) { return x + y; });
    if (lane == 31) warp_total[w] = incl;
    __syncthreads();
    unsigned long long run = incl - total;
    for (int v = 0; v < w; ++v) run += warp_total[v];
    __syncthreads();
    if (p == 0) {
      for (int j = 0; j < pieces; ++j) {
        first[(static_cast<std::int64_t>(b) * pieces + j) * radix + d] = run;
        run += count(j, 0);
      }
    } else {
      later[(static_cast<std::int64_t>(p - 1) * buckets + b) * radix + d] = run;
    }
  }
}

}  // namespace scankit::cuda::detail::radix
