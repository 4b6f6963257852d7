// The sorts' first kernel: every digit histogram of every key in one read, and the plan of
// the passes, made by the last block to finish.
#pragma once

#include "scankit/cuda/detail/sort/common.cuh"

namespace scankit::cuda::detail::radix {

/// One block of at least 256 threads (thread d < 256 for digit d; the others only take part
/// in the barriers): turns the histograms into each digit's start (exclusive scan, in place)
/// for every pass, and the plan (a pass is skipped when one digit holds all n keys). The
/// histograms were added up by other blocks' atomics: read from L2 (__ldcg).
__device__ __forceinline__ void plan_block(unsigned long long* hist, std::int64_t n, int passes, bool in_place,
                                           plan* out) {
  __shared__ bool active[max_passes];
  __shared__ unsigned long long warp_tot[radix / 32];
  const int d = threadIdx.x, lane = d & 31, w = d >> 5;
  const bool digit_thread = d < radix;  // warp-uniform
  for (int p = 0; p < passes; ++p) {
    const unsigned long long c = digit_thread ? __ldcg(hist + p * radix + d) : 0;
    if (d == 0) active[p] = true;
    __syncthreads();
    unsigned long long incl = 0;
    if (digit_thread) {
      if (c == static_cast<unsigned long long>(n)) active[p] = false;
      incl = warp_inclusive_scan(c, [](auto a, auto b) { return a + b; });
      if (lane == 31) warp_tot[w] = incl;
    }
    __syncthreads();
    if (digit_thread) {
      unsigned long long off = 0;
      for (int v = 0; v < w; ++v) off += warp_tot[v];
      hist[p * radix + d] = off + incl - c;
    }
    __syncthreads();
  }
  if (d == 0) make_plan(*out, active, passes, in_place);
}

/// The all-digits histogram's block and its shared counters: `Parts` copies of every digit's
/// counter, interleaved (digit d, copy c at word d * parts + c), lane l counting into copy
/// l % parts. With one copy, the 32 lanes of a warp adding to random digits meet in the same
/// shared-memory bank several times per atomic, and each meeting replays it; the copies keep
/// them apart. 64 KiB of counters, 512 threads, 3 blocks per SM.
template <int Parts>
struct histogram_shape {
  static constexpr int block = 512;
  static constexpr int parts = Parts;
  static std::size_t smem(int passes_used) { return sizeof(unsigned) * passes_used * radix * parts; }
};
/// 64 KiB of counters for every key width.
template <class U>
inline constexpr int histogram_parts_default = sizeof(U) <= 2 ? 32 : 16384 / static_cast<int>(sizeof(U) * radix);

/// The copies for a histogram followed by a kernel that takes `per_sm` bytes of shared memory
/// per SM: halved (down to 4) while its 3 blocks per SM take more than that + 32 KiB. The
/// first pass is a programmatic dependent of the histogram and starts on SMs set up for the
/// histogram's shared memory, leaving it less L1 than it would get alone; 32 KiB of slack
/// keeps that loss away from the passes.
template <class U>
constexpr int histogram_parts_within(std::size_t per_sm) {
  int parts = histogram_parts_default<U>;
  while (parts > 4 && 3 * sizeof(unsigned) * sizeof(U) * radix * static_cast<std::size_t>(parts) > per_sm + (32u << 10))
    parts /= 2;
  return parts;
}

/// All digit histograms of every key in one read: hist[pass][digit] (64-bit counts). Each
/// block counts a contiguous slice in shared memory first (32-bit; slices stay below 2^31;
/// replicated counters: histogram_shape) and adds it to hist; the last block to finish
/// (blocks_done, zeroed, counts them) then makes the plan, which saves the launch of a kernel
/// of its own.
template <key_kind Kind, class U, int Parts>
__global__ void __launch_bounds__(histogram_shape<Parts>::block) histogram_kernel(
    const U* keys, std::int64_t n, int passes, sort_options opts, int begin, int end, unsigned long long* hist,
    unsigned* blocks_done, bool in_place, plan* out) {
  using shape = histogram_shape<Parts>;
  constexpr int parts = shape::parts, block = shape::block;
  extern __shared__ unsigned counts[];  // [pass][digit][part]
  __shared__ bool last_block;
  wait_for_previous_grid();
  allow_next_grid();
  // --- Phase 1: zero the block's counters ---
  for (int i = threadIdx.x; i < passes * radix * parts; i += block) counts[i] = 0;
  __syncthreads();
  digit_of<Kind, U> dig[max_passes];
#pragma unroll
  for (int p = 0; p < max_passes; ++p)
    if (p < passes) dig[p] = make_digit<Kind, U>(opts, begin, end, p);
  const int part = threadIdx.x % parts;
  auto count = [&](U k) {
    const U o = dig[0].sortable(k);  // once per key: the flip is every pass's
#pragma unroll
    for (int p = 0; p < max_passes; ++p)
      if (p < passes) atomicAdd(&counts[(p * radix + dig[p].of_sortable(o)) * parts + part], 1u);
  };
  // --- Phase 2: count the block's slice, every digit of every key ---
  // Each block counts one contiguous slice, a multiple of a 16-byte vector long, read two
  // vectors per thread and step (enough loads in flight to keep DRAM busy).
  constexpr int per_vec = 16 / sizeof(U);
  const std::int64_t per_block = ceil_div(ceil_div(n, gridDim.x), 2 * per_vec) * 2 * per_vec;
  const std::int64_t b = per_block * blockIdx.x;
  const std::int64_t e = b + per_block < n ? b + per_block : n;
  std::int64_t tail = b;
  if (reinterpret_cast<std::uintptr_t>(keys) % 16 == 0 && e > b) {
    const std::int64_t vec_end = b + (e - b) / (2 * per_vec) * (2 * per_vec);
    for (std::int64_t v = b + threadIdx.x * 2 * per_vec; v < vec_end; v += std::int64_t{block} * 2 * per_vec) {
      // Streaming loads (evict first): the keys are not read again soon, and with 192 KiB of
      // counters per SM little is left for L1.
      const uint4 q0 = __ldcs(reinterpret_cast<const uint4*>(keys + v));
      const uint4 q1 = __ldcs(reinterpret_cast<const uint4*>(keys + v + per_vec));
      U k[2 * per_vec];
      memcpy(k, &q0, 16);
      memcpy(k + per_vec, &q1, 16);
#pragma unroll
      for (int x = 0; x < 2 * per_vec; ++x) count(k[x]);
    }
    tail = vec_end;
  }
  for (std::int64_t i = tail + threadIdx.x; i < e; i += block) count(keys[i]);
  __syncthreads();
  // --- Phase 3: add the block's counts to the global histograms ---
  for (int i = threadIdx.x; i < passes * radix; i += block) {
    unsigned c = 0;
#pragma unroll
    for (int q = 0; q < parts; ++q) c += counts[i * parts + (q + i) % parts];  // rotated: no bank conflicts
    if (c) atomicAdd(hist + i, static_cast<unsigned long long>(c));
  }
  // --- Phase 4: the last block out makes the plan ---
  // Last block out makes the plan: every block's additions are visible to it (each block
  // fences them before it counts itself done, and the last one fences again before reading).
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last_block = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  plan_block(hist, n, passes, in_place, out);
}

}  // namespace scankit::cuda::detail::radix
