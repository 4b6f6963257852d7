// The small kernels of the NCCL backend: an ordered reduction for any monoid (the scan's
// local reduce), the sort's samples and cuts, and adding counts.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/dist/detail/splitters.hpp"
#include "scankit/dist/nccl_communicator.hpp"
#include "scankit/ops.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::dist::detail::nccl {

inline void check_launch(const char* kernel, const char* operation) {
  check_cuda(cudaGetLastError(), kernel, operation);
}

// ---- ordered reduction ----------------------------------------------------------------------
// Block b reduces a contiguous range of tiles, tile after tile; inside a tile each thread
// reduces its consecutive items, the warps combine their threads in lane order and warp 0
// combines the warps in order. A second launch of one block combines the blocks in order. So
// every combination is op(earlier, later): any monoid, commutative or not.

inline constexpr int reduce_threads = 256;

template <class T>
inline constexpr int reduce_items = sizeof(T) >= 32 ? 1 : static_cast<int>(std::min<std::size_t>(8, 32 / sizeof(T)));

/// The block's values combined in thread order; the result is valid in thread 0.
template <class Op>
__device__ value_t<Op> block_reduce_ordered(value_t<Op> v, const Op& op) {
  using T = value_t<Op>;
  __shared__ alignas(16) unsigned char raw[32 * sizeof(T)];
  T* warp_total = reinterpret_cast<T*>(raw);
  const int lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
  v = scankit::cuda::detail::warp_reduce(v, op);
  if (lane == 0) warp_total[warp] = v;
  __syncthreads();
  if (warp == 0) {
    const int warps = static_cast<int>((blockDim.x + 31) / 32);
    T x = lane < warps ? warp_total[lane] : op.identity();
    v = scankit::cuda::detail::warp_reduce(x, op);
  }
  __syncthreads();  // warp_total is reused by the next call
  return v;
}

template <class Op>
__global__ void __launch_bounds__(reduce_threads) reduce_tiles_kernel(const value_t<Op>* in, std::int64_t n,
                                                                      std::int64_t tiles_per_block, value_t<Op>* partial,
                                                                      Op op) {
  using T = value_t<Op>;
  constexpr int items = reduce_items<T>;
  const std::int64_t tile = std::int64_t{reduce_threads} * items;
  const std::int64_t tiles = (n + tile - 1) / tile;
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * tiles_per_block;
  const std::int64_t last = first + tiles_per_block < tiles ? first + tiles_per_block : tiles;
  T acc = op.identity();
  for (std::int64_t t = first; t < last; ++t) {
    const std::int64_t base = t * tile + static_cast<std::int64_t>(threadIdx.x) * items;
    T v = op.identity();
#pragma unroll
    for (int j = 0; j < items; ++j)
      if (base + j < n) v = op(v, in[base + j]);
    v = block_reduce_ordered(v, op);
    if (threadIdx.x == 0) acc = op(acc, v);
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = acc;
}

template <class Op>
__global__ void __launch_bounds__(reduce_threads) reduce_partials_kernel(const value_t<Op>* partial, int count,
                                                                         value_t<Op>* out, Op op) {
  using T = value_t<Op>;
  T acc = op.identity();
  for (int base = 0; base < count; base += reduce_threads) {
    const int i = base + static_cast<int>(threadIdx.x);
    T v = block_reduce_ordered(i < count ? partial[i] : op.identity(), op);
    if (threadIdx.x == 0) acc = op(acc, v);
  }
  if (threadIdx.x == 0) *out = acc;
}

/// *d_out = in[0] . ... . in[n-1] (the identity for n = 0), stream-ordered. `partials` is
/// scratch for one value per block.
template <class Op>
void local_reduce(const value_t<Op>* in, std::int64_t n, value_t<Op>* d_out, Op op, device_buffer& partials,
                  cudaStream_t stream, const char* operation) {
  using T = value_t<Op>;
  const std::int64_t tile = std::int64_t{reduce_threads} * reduce_items<T>;
  const std::int64_t tiles = (n + tile - 1) / tile;
  const std::int64_t max_blocks = 4 * std::int64_t{scankit::cuda::detail::device_sm_count()};
  const std::int64_t per_block = std::max<std::int64_t>(1, (tiles + max_blocks - 1) / max_blocks);
  const int blocks = static_cast<int>(std::max<std::int64_t>(1, (tiles + per_block - 1) / per_block));
  T* part = partials.get<T>(blocks, stream, operation);
  reduce_tiles_kernel<<<blocks, reduce_threads, 0, stream>>>(in, n, per_block, part, op);
  check_launch("reduce_tiles_kernel", operation);
  reduce_partials_kernel<<<1, reduce_threads, 0, stream>>>(part, blocks, d_out, op);
  check_launch("reduce_partials_kernel", operation);
}

// ---- the sort's samples and cuts ---------------------------------------------------------------

template <class K>
__global__ void samples_kernel(const K* sorted, std::int64_t n, std::int64_t per_rank, int rank, int begin, int end,
                               bool descending, sample* out) {
  const std::int64_t j = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= per_rank) return;
  const std::int64_t m = sample_count(n, per_rank);
  sample s;
  s.rank = rank;
  if (j < m) {
    s.pos = sample_position(j, n, m);
    s.bits = scankit::detail::sort_rank_bits(sorted[s.pos], begin, end, descending);
  }
  out[j] = s;
}

/// pieces[k] = the number of this rank's sorted items that go to rank k (between splitters
/// k - 1 and k). One block; `cut` is shared memory for ranks + 1 positions.
template <class K>
__global__ void pieces_kernel(const K* sorted, std::int64_t n, const splitter* split, int ranks, int rank, int begin,
                              int end, bool descending, std::int64_t* pieces) {
  extern __shared__ std::int64_t cut[];
  auto search = [&](std::uint64_t b, bool inclusive) {  // first position whose bits are > b (>= b)
    std::int64_t lo = 0, hi = n;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      const std::uint64_t x = scankit::detail::sort_rank_bits(sorted[mid], begin, end, descending);
      if (inclusive ? x <= b : x < b) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  for (int k = static_cast<int>(threadIdx.x); k <= ranks; k += static_cast<int>(blockDim.x)) {
    if (k == 0) cut[k] = 0;
    else if (k == ranks) cut[k] = n;
    else
      cut[k] = local_cut(split[k - 1], rank, n, [&](std::uint64_t b) { return search(b, false); },
                         [&](std::uint64_t b) { return search(b, true); });
  }
  __syncthreads();
  for (int k = static_cast<int>(threadIdx.x); k < ranks; k += static_cast<int>(blockDim.x)) pieces[k] = cut[k + 1] - cut[k];
}

/// offsets[q]: where the piece from rank q starts among the items `rank` receives (matrix: the
/// ranks x ranks piece sizes, [from][to]); offsets[ranks]: their total. One thread: ranks is
/// small, and this keeps the offsets on the device, stream-ordered.
template <class I>
__global__ void receive_offsets_kernel(const I* matrix, int ranks, int rank, I* offsets) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  I at = 0;
  for (int q = 0; q < ranks; ++q) {
    offsets[q] = at;
    at += matrix[static_cast<std::int64_t>(q) * ranks + rank];
  }
  offsets[ranks] = at;
}

// ---- counts ----------------------------------------------------------------------------------

template <class C>
__global__ void add_kernel(C* counts, const C* add, std::int64_t n) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    counts[i] = static_cast<C>(counts[i] + add[i]);
}

}  // namespace scankit::dist::detail::nccl
