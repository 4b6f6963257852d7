// The multi-level driver of the tile-by-tile scans (Hillis-Steele shared, Blelloch): it turns
// a "scan each tile" kernel into a scan of any length.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "scankit/cuda/detail/arena.hpp"
#include "scankit/cuda/detail/error.cuh"
#include "scankit/cuda/detail/fill.cuh"
#include "scankit/cuda/detail/launch.cuh"
#include "scankit/cuda/detail/math.hpp"
#include "scankit/ops.hpp"

namespace scankit::cuda::detail {

/// Bytes the multi-level driver needs for the tile sums of every level, for tiles of `tile`.
inline std::size_t tile_sums_bytes(std::int64_t n, std::int64_t tile, std::size_t item_bytes) {
  std::size_t total = 0;
  while (n > 0) {  // n == 1 still takes one tile sum
    std::int64_t tiles = ceil_div(n, tile);
    total += align_up(static_cast<std::size_t>(tiles) * item_bytes);
    if (tiles == 1) break;
    n = tiles;
  }
  return total;
}

/// out[i] = op(prefix[t], out[i]) for every item of tile t >= 1 (tile 0 already holds its
/// final values). One block per tile-range; grid-strided over tiles so any count works.
template <class T, class Op>
__global__ void add_tile_prefix_kernel(T* out, std::int64_t n, std::int64_t tile,
                                       const T* prefix, Op op) {
  const std::int64_t tiles = ceil_div(n, tile);
  for (std::int64_t t = 1 + blockIdx.x; t < tiles; t += gridDim.x) {
    const T p = prefix[t];
    const std::int64_t begin = t * tile;
    const std::int64_t end = begin + tile < n ? begin + tile : n;
    for (std::int64_t i = begin + threadIdx.x; i < end; i += blockDim.x) out[i] = op(p, out[i]);
  }
}

/// The multi-level driver. `scan_tiles(in, out, n, init, sums)` must launch a kernel that, for
/// each tile t of `tile` items, writes the tile's local scan (of `kind`) to out and the tile's
/// aggregate to sums[t], with init folded into tile 0 only (its items and its aggregate).
/// The driver then scans the tile sums exclusively (recursively, with the same tile kernel)
/// and adds each tile's prefix back. In place (in == out) is fine if scan_tiles reads a tile
/// completely before writing it.
template <class T, class Op, class ScanTiles>
void scan_multilevel(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init,
                     T* d_total, arena& ws, std::int64_t tile, int add_block, cudaStream_t s,
                     const ScanTiles& scan_tiles) {
  if (n == 0) {
    if (d_total) store_value(d_total, init, s);
    return;
  }
  const std::int64_t tiles = ceil_div(n, tile);
  T* sums = ws.take<T>(tiles);
  scan_tiles(in, out, n, kind, init, sums);
  if (tiles == 1) {
    if (d_total)
      SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d_total, sums, sizeof(T), cudaMemcpyDeviceToDevice, s));
    return;
  }
  // sums[t] := op(init, a0, ..., a(t-1)) for t >= 1; the carry-out goes to d_total.
  scan_multilevel<T>(sums, sums, tiles, op, scan_kind::exclusive, op.identity(), d_total, ws,
                     tile, add_block, s, scan_tiles);
  add_tile_prefix_kernel<<<grid_for(tiles - 1), add_block, 0, s>>>(out, n, tile, sums, op);
  SCANKIT_LAUNCH_CHECK("add_tile_prefix_kernel");
}

}  // namespace scankit::cuda::detail
