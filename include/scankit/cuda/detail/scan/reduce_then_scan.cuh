// reduce-then-scan: the tiled three-phase scan.
//   1. reduce: each block reduces one tile to its aggregate (tile sums go to the workspace);
//   2. scan the tile sums exclusively, with the carry-in (recursively, by this same algorithm,
//      down to one block);
//   3. rescan: each block scans its tile again, starting from its tile's prefix.
// The input is read twice and the output written once (12 bytes per 4-byte item instead of
// the single-pass scan's 8), in exchange for needing no communication between blocks.
// Loads and stores are 16-byte vectors (see tile_scan.cuh).
#pragma once

#include "scankit/cuda/detail/block/tile_scan.cuh"
#include "scankit/cuda/detail/launch_checks.hpp"

namespace scankit::cuda::detail::reduce_then_scan {

inline constexpr int default_block_size = 256;
inline constexpr int vectors_per_thread = 4;

/// The items of this block's tile: R * blockDim.x * V from `begin`, `valid` of them inside n.
struct block_tile {
  std::int64_t begin, valid;
  template <int R, int V>
  __device__ static block_tile of(std::int64_t n) {
    const std::int64_t items = static_cast<std::int64_t>(R) * blockDim.x * V;
    const std::int64_t begin = blockIdx.x * items;
    return {begin, n - begin < items ? n - begin : items};
  }
};

template <int R, int V, bool Vec, class T, class Op>
__global__ void __launch_bounds__(1024)
    reduce_tiles_kernel(const T* in, std::int64_t n, Op op, T* tile_sums) {
  __shared__ tile::scan_storage<T, R> smem;
  const block_tile t = block_tile::of<R, V>(n);
  T x[R][V], prefix[R];
  tile::load<R, V, Vec>(in, t.begin, t.valid, x, op.identity());
  const T aggregate = tile::scan_tile(x, prefix, op, smem);
  if (threadIdx.x == 0) tile_sums[blockIdx.x] = aggregate;
}

template <int R, int V, bool Vec, class T, class Op>
__global__ void __launch_bounds__(1024)
    rescan_tiles_kernel(const T* in, T* out, std::int64_t n, Op op, bool exclusive,
                        const T* tile_prefix) {
  __shared__ tile::scan_storage<T, R> smem;
  const block_tile t = block_tile::of<R, V>(n);
  T x[R][V], prefix[R];
  tile::load<R, V, Vec>(in, t.begin, t.valid, x, op.identity());
  tile::scan_tile(x, prefix, op, smem);
  tile::finish(x, prefix, tile_prefix[blockIdx.x], exclusive, op);
  tile::store<R, V, Vec>(out, t.begin, t.valid, x);
}

/// Items per tile: the smallest over vector widths (4 per thread), which bounds the tile count.
inline std::int64_t min_tile_items(int block) { return static_cast<std::int64_t>(block) * vectors_per_thread; }

inline std::size_t workspace_bytes(std::int64_t n, std::size_t item_bytes, int block) {
  std::size_t bytes = 0;
  const std::int64_t tile = min_tile_items(block);
  // Each level's tile sums; the top level fits one tile and needs none.
  while (n > tile) {
    n = ceil_div(n, tile);
    bytes += align_up(static_cast<std::size_t>(n) * item_bytes);
  }
  return bytes;
}

template <int V, bool Vec, class T, class Op>
void run_level(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total,
               arena& ws, int block, cudaStream_t s) {
  constexpr int R = vectors_per_thread;
  const bool exclusive = kind == scan_kind::exclusive;
  const std::int64_t tile_items = static_cast<std::int64_t>(R) * block * V;
  const std::int64_t tiles = ceil_div(n, tile_items);
  if (tiles <= 1) {
    tile::single_block_scan_kernel<R, V, Vec><<<1, block, 0, s>>>(in, out, n, op, exclusive, init, d_total);
    SCANKIT_LAUNCH_CHECK("single_block_scan_kernel");
    return;
  }
  check_launch_tiles(tiles, "reduce-then-scan");
  T* sums = ws.take<T>(tiles);
  reduce_tiles_kernel<R, V, Vec><<<static_cast<unsigned>(tiles), block, 0, s>>>(in, n, op, sums);
  SCANKIT_LAUNCH_CHECK("reduce_tiles_kernel");
  // The tile sums live in the workspace: their scan uses vectors where it is 16-byte aligned
  // (cudaMalloc's is; a caller's offset pointer need not be).
  tile::dispatch_vector_path<T>(sums, sums, [&]<int VS, bool VecS>() {
    run_level<VS, VecS>(sums, sums, tiles, op, scan_kind::exclusive, init, d_total, ws, block, s);
  });
  rescan_tiles_kernel<R, V, Vec><<<static_cast<unsigned>(tiles), block, 0, s>>>(in, out, n, op, exclusive, sums);
  SCANKIT_LAUNCH_CHECK("rescan_tiles_kernel");
}

template <class T, class Op>
void run(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total,
         arena& ws, int block, cudaStream_t s) {
  if (n == 0) {
    if (d_total) store_value(d_total, init, s);
    return;
  }
  tile::dispatch_vector_path<T>(in, out, [&]<int V, bool Vec>() {
    run_level<V, Vec>(in, out, n, op, kind, init, d_total, ws, block, s);
  });
}

}  // namespace scankit::cuda::detail::reduce_then_scan
