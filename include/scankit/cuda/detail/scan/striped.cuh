// decoupled-lookback's striped register tile (smaller inputs, and the one-item path for types
// without 16-byte vectors or with misaligned pointers): load, scan the tile in registers,
// publish the aggregate, look back, finish and store.
#pragma once

#include "scankit/cuda/detail/lookback/status_tree.cuh"
#include "scankit/cuda/detail/scan/tuning.cuh"
#include "scankit/cuda/detail/block/tile_scan.cuh"

namespace scankit::cuda::detail::decoupled_lookback {

using namespace lookback;

/// The guess prefetch of the striped and blocked kernels (where the launch asks for it): thread
/// 0 asks L2 for the tile of `tile_items` items numbered blockIdx.x, the id the block is most
/// likely to get from the counter when the launch is one wave. A hint only: it reads nothing the
/// clearing writes, and L2 is where global memory is coherent, so it may run before
/// wait_for_previous_grid(). Compiled only for item sizes whose tuning turns it on.
template <class T>
__device__ __forceinline__ void prefetch_guessed_tile(bool prefetch, const T* in, std::int64_t n,
                                                      std::int64_t tile_items) {
  if constexpr (kernel_tuning<T>().prefetch_up_to_tiles > 0) {
    if (!prefetch) return;
    const std::int64_t first = blockIdx.x * tile_items;
    if (threadIdx.x == 0 && first < n)
      prefetch_l2(in + first, static_cast<std::size_t>(n - first < tile_items ? n - first : tile_items) * sizeof(T));
  } else {
    (void)prefetch, (void)in, (void)n, (void)tile_items;
  }
}

/// The striped kernel (smaller inputs, and the one-item path): R vectors (or items) per thread
/// in registers in the layout of tile_scan.cuh.
template <int R, int V, bool Vec, bool Raking, int MaxThreads, int MinBlocks, class T, class Op>
__global__ void __launch_bounds__(MaxThreads, MinBlocks)
    lookback_scan_kernel(const T* in, T* out, std::int64_t n, Op op, bool exclusive, T init,
                         T* total, const __grid_constant__ tree<T> tr,
                         unsigned long long* tile_counter, unsigned backoff, bool prefetch) {
  extern __shared__ uint4 raking_buffer[];
  __shared__ tile::scan_storage<T, Raking ? 1 : R> smem;
  __shared__ T warp_sums[Raking ? 32 : 1];
  __shared__ T level_sums[max_levels];
  __shared__ std::int64_t tile_id;
  const std::int64_t B = blockDim.x;
  const std::int64_t tile_items = R * B * V;
  prefetch_guessed_tile(prefetch, in, n, tile_items);
  wait_for_previous_grid();  // the tree's clearing (this kernel follows it as a dependent)
  if (threadIdx.x == 0) tile_id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
  __syncthreads();
  const std::int64_t t = tile_id;
  const std::int64_t begin = t * tile_items;
  const std::int64_t valid = n - begin < tile_items ? n - begin : tile_items;

  // --- Phase 1: load the tile (items past the end are the identity) ---
  T x[R][V];
  tile::load<R, V, Vec, true>(in, begin, valid, x, op.identity());

  // --- Phase 2: scan the tile, publish the aggregate ---
  // Each thread scans its vectors in place, the block scans the vector totals (tile_scan.cuh);
  // the aggregate is published at once.
  T totals[R][1], prefix[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
#pragma unroll
    for (int j = 1; j < V; ++j) x[r][j] = op(x[r][j - 1], x[r][j]);
    totals[r][0] = x[r][V - 1];
  }
  T aggregate;
  if constexpr (Raking) {
    T flat[R];
#pragma unroll
    for (int r = 0; r < R; ++r) flat[r] = totals[r][0];
    aggregate = tile::raking_scan_tile(flat, prefix, op, reinterpret_cast<T*>(raking_buffer), warp_sums);
  } else {
    aggregate = tile::scan_tile(totals, prefix, op, smem);
  }
  if (threadIdx.x == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);

  // --- Phase 3: look back for the tile's prefix ---
  look_back(tr, t, aggregate, op, backoff, level_sums);
  __syncthreads();
  const T tile_prefix = tile_prefix_of(tr, level_sums, init, op);
  if (threadIdx.x == 0 && total && begin + valid == n) *total = op(tile_prefix, aggregate);

  // --- Phase 4: finish (the vectors are already scanned in place) and store ---
  tile::finish(x, prefix, tile_prefix, exclusive, op);
  tile::store<R, V, Vec, true>(out, begin, valid, x);
}

}  // namespace scankit::cuda::detail::decoupled_lookback
