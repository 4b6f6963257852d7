// What the single-pass compaction's kernels share: the tile's count into the tree and the
// count before it, the staging area's size, and the coalesced write-out of staged runs.
#pragma once

#include "scankit/cuda/detail/compact/select.cuh"
#include "scankit/cuda/detail/lookback/counts_tree.cuh"
#include "scankit/cuda/detail/lookback/status_tree.cuh"

namespace scankit::cuda::detail::compact {

using lookback::count_t;
/// Sleep between polls of a predecessor's entry (counts_tree.cuh says why 32 ns).
inline constexpr unsigned lookback_backoff_ns = lookback::counts_backoff_ns;
namespace counts_tree = lookback::counts_tree;

/// Tile t's count, from one thread of the kernels that look back with the whole block
/// (single_pass_kernel, segmented_kernel): into the counts tree where the tree's levels fit it,
/// else (over 2^25 tiles) into the scan's tree.
__device__ __forceinline__ void publish_count(const lookback::tree<count_t>& tr, std::int64_t t, count_t count) {
  if (tr.levels == 0) return;
  if (tr.levels <= counts_tree::max_levels) counts_tree::publish(tr, t, count);
  else tr.level[0].publish(t, count);
}

/// The items selected before tile t, for those kernels; every thread of the block calls it (it
/// holds a __syncthreads) and gets the result. The counts tree needs one warp; the scan's tree
/// one warp per level, whose level-0 warp publishes the upper entries this tile completes.
__device__ __forceinline__ std::int64_t count_before(const lookback::tree<count_t>& tr, std::int64_t t,
                                                     count_t count, count_t* level_sums) {
  std::int64_t before = 0;
  if (tr.levels <= counts_tree::max_levels) {
    if (threadIdx.x < 32) {
      const std::int64_t found = counts_tree::look_back(tr, t);
      if (threadIdx.x == 0) level_sums[0] = static_cast<count_t>(found);
    }
    __syncthreads();
    before = static_cast<std::int64_t>(level_sums[0]);
  } else {
    lookback::look_back(tr, t, count, sum<count_t>{}, lookback_backoff_ns, level_sums);
    __syncthreads();
    for (int k = 0; k < tr.levels; ++k) before += static_cast<std::int64_t>(level_sums[k]);
  }
  return before;
}

/// Shared memory for staging: items (when written) then tile positions (when indices are).
template <class T>
constexpr std::size_t stage_bytes(std::int64_t tile_items, bool items, bool indices) {
  // Items get one spare 16-byte vector: the vectorised write-out reads whole vectors.
  return (items ? align_up(static_cast<std::size_t>(tile_items) * sizeof(T) + 16, 16) : 0) +
         (indices ? static_cast<std::size_t>(tile_items) * sizeof(unsigned) : 0);
}

/// Copies `count` staged items to out[g0 .. g0 + count) with 16-byte stores. Output item g0 + j is stage[s0 + j], or stage[s0 - j] when `reversed`. Whole
/// aligned output vectors are assembled from two aligned shared-memory vectors shifted by
/// the (block-uniform) misalignment between the two sides; the partial vectors at either end
/// are written item by item. `out` must be 16-byte aligned; stage needs one spare vector.
/// `tid` of `B` threads share the work: the whole block by default, or one warp (lane, 32).
template <int V, class T>
__device__ __forceinline__ void write_run(T* out, std::int64_t g0, int count, const T* stage, int s0, bool reversed,
                                          int tid = threadIdx.x, int B = blockDim.x) {
  if (count <= 0) return;
  const int head = static_cast<int>((V - g0 % V) % V) < count ? static_cast<int>((V - g0 % V) % V) : count;
  const int vectors = (count - head) / V;
  auto stage_of = [&](int j) { return reversed ? s0 - j : s0 + j; };
  for (int j = tid; j < head; j += B) out[g0 + j] = stage[stage_of(j)];
  // Vector m covers output items j = head + m*V + i (i < V). Their staged items are the V
  // consecutive ones starting at q (ascending; reversed runs read them backwards).
  const int q0 = reversed ? s0 - head - (V - 1) : s0 + head;
  const int shift = ((q0 % V) + V) % V;
  const uint4* sv = reinterpret_cast<const uint4*>(stage);
  for (int m = tid; m < vectors; m += B) {
    const int q = reversed ? q0 - m * V : q0 + m * V;
    const int c = (q - shift) / V;
    T w[2 * V];
    const uint4 lo = sv[c], hi = sv[c + 1];
    memcpy(&w[0], &lo, 16);
    memcpy(&w[V], &hi, 16);
    T o[V];
#pragma unroll
    for (int sft = 0; sft < V; ++sft)
      if (sft == shift) {
#pragma unroll
        for (int i = 0; i < V; ++i) o[i] = reversed ? w[sft + V - 1 - i] : w[sft + i];
      }
    uint4 v;
    memcpy(&v, o, 16);
    __stcs(reinterpret_cast<uint4*>(out + g0 + head + static_cast<std::int64_t>(m) * V), v);
  }
  for (int j = head + vectors * V + tid; j < count; j += B) out[g0 + j] = stage[stage_of(j)];
}

}  // namespace scankit::cuda::detail::compact
