// hillis-steele-shared: Hillis-Steele per block in shared memory, one item per thread.
//
// Each block scans a tile of blockDim.x items: thread t loads item t of the tile (padding past
// n with op.identity()), then log2(blockDim.x) steps run over two shared-memory buffers:
//     dst[t] = t >= 2^d ? op(src[t - 2^d], src[t]) : src[t];  __syncthreads();  swap
// Double buffering means one barrier per step suffices (a step never writes what it reads).
// Each thread keeps its own running value in a register, so a step costs one shared load and
// one shared store per thread.
//
// The tile's inclusive scan is then written out (exclusive: shifted by one, the tile's first
// item gets init for tile 0 and identity for the others) and its aggregate goes to sums[tile].
// detail::scan_multilevel scans the tile sums with the same kernel (recursively) and adds each
// tile's prefix back.
//
// Shared memory: 2 * blockDim.x * sizeof(T) bytes (8 KiB for 1024 threads of int32).
#pragma once

#include "scankit/cuda/detail/common.cuh"

namespace scankit::cuda::detail::hillis_steele_shared {

/// 256 threads. Small blocks win: a barrier stalls fewer threads, more blocks per SM overlap
/// one block's steps with another's loads, and each item takes fewer steps; below 128 the extra
/// levels of tile sums cost more. 128 and 256 tie; 256 keeps the tile sums and the number of
/// levels smaller.
inline constexpr int default_block_size = 256;

/// The tile sums of every level of the multi-level driver (tile = block size).
inline std::size_t workspace_bytes(std::int64_t n, std::size_t item_bytes, int block_size) {
  if (n <= 0) return 0;
  // tile_sums_bytes() counts nothing for n == 1, but the driver still takes one tile sum.
  const std::size_t levels = tile_sums_bytes(n, block_size, item_bytes);
  const std::size_t one = align_up(item_bytes);
  return levels > one ? levels : one;
}

template <class T, class Op>
__global__ void __launch_bounds__(1024)
    hss_tile_kernel(const T* in, T* out, std::int64_t n, Op op, bool exclusive, T init, T* sums,
                    std::int64_t tiles) {
  extern __shared__ __align__(16) unsigned char hss_smem[];
  const unsigned tid = threadIdx.x;
  const unsigned b = blockDim.x;
  T* const buf0 = reinterpret_cast<T*>(hss_smem);
  T* const buf1 = buf0 + b;
  for (std::int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const std::int64_t i = tile * b + tid;
    T x = i < n ? in[i] : op.identity();
    if (tile == 0 && tid == 0) x = op(init, x);
    buf0[tid] = x;
    __syncthreads();
    T* src = buf0;
    T* dst = buf1;
    for (unsigned d = 1; d < b; d <<= 1) {
      if (tid >= d) x = op(src[tid - d], x);
      dst[tid] = x;
      __syncthreads();
      T* t = src;
      src = dst;
      dst = t;
    }
    // x (and src[tid]) is now the inclusive scan of the tile up to item tid.
    if (i < n) {
      if (!exclusive) out[i] = x;
      else out[i] = tid > 0 ? src[tid - 1] : (tile == 0 ? init : op.identity());
    }
    if (tid == b - 1) sums[tile] = x;
    __syncthreads();  // the next tile overwrites buf0, which the exclusive read may use
  }
}

template <class T, class Op>
void run(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total,
         arena& ws, int block_size, cudaStream_t s) {
  static_assert(alignof(T) <= 16, "hillis-steele-shared: items aligned beyond 16 bytes");
  const std::size_t smem = 2 * static_cast<std::size_t>(block_size) * sizeof(T);
  if (n > 0) allow_dynamic_shared_memory(hss_tile_kernel<T, Op>, smem);
  auto scan_tiles = [&](const T* tin, T* tout, std::int64_t len, scan_kind k, T carry, T* sums) {
    const std::int64_t tiles = ceil_div(len, block_size);
    hss_tile_kernel<<<grid_for(tiles, std::int64_t{1} << 30), block_size, smem, s>>>(
        tin, tout, len, op, k == scan_kind::exclusive, carry, sums, tiles);
    SCANKIT_LAUNCH_CHECK("hss_tile_kernel");
  };
  scan_multilevel<T>(in, out, n, op, kind, init, d_total, ws, block_size, block_size, s,
                     scan_tiles);
}

}  // namespace scankit::cuda::detail::hillis_steele_shared
