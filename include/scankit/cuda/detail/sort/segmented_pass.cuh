// Segmented onesweep passes (onesweep.cuh with Segmented: one launch sorts many independent
// runs by one digit, every run its own look-back chain and its own digit offsets), the parts
// their callers share: the GPU segmented sort's long segments (detail/segmented_sort/
// radix_long.cuh) and scankit::dist's bucket sort (dist/detail/nccl/bucket_sort.cuh).
//
//   with_main_tile            the pass's tile for keys U and values V on this device
//   tile_segments_kernel      which segment each tile slot of a segmented launch belongs to
//   segment_histogram_kernel  per segment, the counts of every digit of every pass (one read)
//   bucket_bases_kernel       per segment and digit, where the digit's first key goes
#pragma once

#include "scankit/cuda/detail/sort/common.cuh"
#include "scankit/cuda/detail/sort/onesweep.cuh"
#include "scankit/cuda/detail/sort/plan.cuh"

namespace scankit::cuda::detail::radix {

/// The main tile (its reduced stand-in where the device's shared memory does not hold main):
/// f(std::integral_constant<onesweep_shape, tile>{}).
template <class U, class V, class F>
decltype(auto) with_main_tile(F&& f) {
  constexpr sort_tuning t = sort_tuning_for(sizeof(U), has_values<V> ? sizeof(V) : 0, tuned_arch);
  if constexpr (t.reduced.exists()) {
    if (onesweep_smem_bytes<U, V, t.main> + static_shared_reserve > sort_device_info().smem_per_block_optin)
      return f(std::integral_constant<onesweep_shape, t.reduced>{});
  }
  return f(std::integral_constant<onesweep_shape, t.main>{});
}

/// The smallest tile with_main_tile may take (the look-back words are sized by it).
constexpr std::int64_t smallest_main_tile(std::size_t key_bytes, std::size_t value_bytes) {
  const sort_tuning t = sort_tuning_for(key_bytes, value_bytes, tuned_arch);
  return t.reduced.exists() ? std::min(t.main.tile(), t.reduced.tile()) : t.main.tile();
}

/// Writes a plan on the device (a kernel argument, so no host memory is involved).
/// (A template: defined in a header that several translation units include.)
template <int = 0>
__global__ void write_plan_kernel(plan* out, plan value) { *out = value; }

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
/// pass `pass` of the bits [begin_bit, end_bit) (hist zeroed). Each block counts a contiguous
/// range of tile slots in shared memory and adds its counters to a segment's when the range
/// moves on to the next segment. The tile slots are `tiles`, or *segs.total_tiles where the
/// table has that count on the device.
template <key_kind Kind, class U>
__global__ void __launch_bounds__(256) segment_histogram_kernel(const U* keys, segment_table segs, std::int64_t tiles,
                                                                std::int64_t tile, int passes, int begin_bit,
                                                                int end_bit, sort_options opts, unsigned* hist) {
  if (segs.total_tiles) tiles = *segs.total_tiles;
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
            atomicAdd(counters + (p * radix + static_cast<int>(make_digit<Kind, U>(opts, begin_bit, end_bit, p)(k[j]))) * copies + copy, 1u);
    }
  }
  if (current >= 0) flush(current);
}

/// One block of 256 threads per bucket (thread d: digit d; buckets from *live on return at once
/// where the count is on the device), from the pieces' counts
/// (hist[((bucket * pieces + j) * passes + pass) * radix + digit]):
///   first[(bucket * pieces + j) * radix + d]: where piece j's keys of digit d go in the first
///     pass, from the bucket's destination: the bucket's keys of smaller digits, then those of
///     digit d in pieces before j;
///   later[((pass - 1) * buckets + bucket) * radix + d]: the bucket's keys of smaller digits.
/// (A template: defined in a header that several translation units include.)
template <int = 0>
__global__ void __launch_bounds__(radix) bucket_bases_kernel(const unsigned* hist, int buckets, int pieces, int passes,
                                                             unsigned long long* first, unsigned long long* later,
                                                             const unsigned long long* live = nullptr) {
  __shared__ unsigned long long warp_total[radix / 32];
  const int b = static_cast<int>(blockIdx.x), d = static_cast<int>(threadIdx.x), lane = d & 31, w = d >> 5;
  if (live && static_cast<unsigned long long>(b) >= *live) return;  // buckets past the device's count
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
