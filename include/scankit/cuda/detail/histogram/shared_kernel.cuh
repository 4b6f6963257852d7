// The histogram kernel with shared-memory privatization: per-block 32-bit sub-histograms (rows
// or per lane) or one 16-bit histogram, merged into the global counts at the end.
#pragma once

#include "scankit/cuda/detail/histogram/input.cuh"
#include "scankit/cuda/detail/histogram/sinks.cuh"

namespace scankit::cuda::detail::hist {

/// How a block lays out its shared counters.
enum class shared_layout {
  rows,     // `copies` 32-bit sub-histograms one after another; warp w uses copy w % copies
  lanes,    // 32 interleaved 32-bit sub-histograms, one per lane (bin b of lane l at b * 32 + l)
  narrow16  // one 16-bit histogram (two counters per word), flushed at 2^15
};

/// Shared-memory privatization. The block walks tiles of blockDim * unroll vectors
/// (grid-stride over tiles, so the loop is uniform across the block), counts into its
/// shared histogram(s), then adds every non-zero shared counter to the global one.
/// narrow16 has a flush point (a barrier, runs flushed first) every `tiles_per_round` tiles.
template <class T, class C, class Bins, shared_layout Layout, agg A>
__global__ void __launch_bounds__(1024)
    shared_kernel(const T* in, std::int64_t n, Bins bins, C* counts, int num_bins, int copies,
                  int tiles_per_round) {
  constexpr bool Narrow16 = Layout == shared_layout::narrow16;
  constexpr bool Lanes = Layout == shared_layout::lanes;
  extern __shared__ unsigned smem[];
  const int slots = num_bins + 1;  // the bins and the trash slot
  const int words = Narrow16 ? (slots + 1) / 2 : slots * (Lanes ? 32 : copies);
  // --- Phase 1: zero the block's counters ---
  for (int i = threadIdx.x; i < words; i += blockDim.x) smem[i] = 0;
  __syncthreads();

  // --- Phase 2: count the block's tiles into its shared counters ---
  const layout L = split(in, n);
  count_head_and_tail(in, n, L, bins, counts);
  const uint4* v = reinterpret_cast<const uint4*>(in + L.head);
  const std::int64_t tile = static_cast<std::int64_t>(blockDim.x) * unroll;
  const std::int64_t tiles = ceil_div(L.vectors, tile);

  auto body = [&](const auto& sink) {
    run_state run;
    [[maybe_unused]] int in_round = 0;
    for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
      uint4 r[unroll];
#pragma unroll
      for (int u = 0; u < unroll; ++u) {
        const std::int64_t i = t * tile + u * blockDim.x + threadIdx.x;
        if (i < L.vectors) r[u] = __ldg(v + i);
      }
#pragma unroll
      for (int u = 0; u < unroll; ++u)
        if (t * tile + u * blockDim.x + threadIdx.x < L.vectors)
          count_vector<A, T>(r[u], bins, run, sink);
      if constexpr (Narrow16) {
        if (++in_round == tiles_per_round) {  // a flush point
          flush(run, sink);
          __syncthreads();
          in_round = 0;
        }
      }
    }
    flush(run, sink);
  };
  const auto trash = static_cast<unsigned>(num_bins);
  constexpr bool may_skip_ = scankit::may_skip<Bins>();
  if constexpr (Narrow16) body(shared16_sink<C, may_skip_>{smem, counts, trash});
  else if constexpr (Lanes) body(shared32_sink<may_skip_, 32>{smem + threadIdx.x % 32, trash});
  else body(shared32_sink<may_skip_, 1>{smem + (threadIdx.x / 32 % copies) * slots, trash});
  __syncthreads();

  // --- Phase 3: merge the block's counters into the global counts ---
  if constexpr (Lanes) {  // warp w sums bins w, w + warps, ...: lane l reads its own bank
    const int lane = threadIdx.x % 32, warps = blockDim.x / 32;
    for (int b = threadIdx.x / 32; b < num_bins; b += warps) {
      unsigned total = smem[b * 32 + lane];
#pragma unroll
      for (int d = 16; d > 0; d /= 2) total += __shfl_xor_sync(0xFFFFFFFFu, total, d);
      if (lane == 0 && total) global_add(counts + b, total);
    }
  } else {
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) {
      unsigned total = 0;
      if constexpr (Narrow16) {
        total = (smem[b >> 1] >> ((b & 1) * 16)) & 0xFFFFu;
      } else {
        for (int c = 0; c < copies; ++c) total += smem[c * slots + b];
      }
      if (total) global_add(counts + b, total);
    }
  }
}

}  // namespace scankit::cuda::detail::hist
