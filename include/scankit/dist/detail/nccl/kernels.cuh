// The small kernels of the NCCL backend: an ordered reduction for any monoid (the scan's
// local reduce), the sort's samples and cuts, and adding counts.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

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
// Each warp reduces a contiguous run of chunks of 32 x items: lane l holds the chunk's items
// l*items .. l*items+items-1 (two 16-byte loads per lane for 4- and 8-byte arithmetic items on
// an aligned input), combines them in order, and the warp combines its lanes in lane order; the
// warp's running value takes its chunks in order. The block then combines its warps in order,
// and a second launch of one block combines the blocks in order. So every combination is
// op(earlier, later): any monoid, commutative or not. Per chunk a warp pays a handful of
// shuffles and no block barrier, so the loads stay in flight, where a block-wide combine per
// tile (two barriers a tile) stalls them (docs/TUNING.md, distributed).

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

/// Whether a lane's items of a full chunk are read as 16-byte vectors (then `in` must be
/// 16-byte aligned; the launch checks).
template <class T>
inline constexpr bool reduce_vector_loads = std::is_arithmetic_v<T> && (reduce_items<T> * sizeof(T)) % 16 == 0;

template <class Op>
__global__ void __launch_bounds__(reduce_threads) reduce_warps_kernel(const value_t<Op>* in, std::int64_t n,
                                                                      std::int64_t chunks_per_warp, bool aligned,
                                                                      value_t<Op>* partial, Op op) {
  using T = value_t<Op>;
  constexpr int items = reduce_items<T>;
  constexpr std::int64_t chunk = 32 * std::int64_t{items};
  const int lane = static_cast<int>(threadIdx.x % 32);
  const std::int64_t warp = static_cast<std::int64_t>(blockIdx.x) * (reduce_threads / 32) + threadIdx.x / 32;
  const std::int64_t chunks = (n + chunk - 1) / chunk;
  const std::int64_t first = warp * chunks_per_warp;
  const std::int64_t last = first + chunks_per_warp < chunks ? first + chunks_per_warp : chunks;
  T acc = op.identity();
#pragma unroll 2
  for (std::int64_t c = first; c < last; ++c) {
    const std::int64_t base = c * chunk + static_cast<std::int64_t>(lane) * items;
    T t = op.identity();
    if constexpr (reduce_vector_loads<T>) {
      if (aligned && (c + 1) * chunk <= n) {
        constexpr int vectors = items * static_cast<int>(sizeof(T)) / 16;
        uint4 raw[vectors];
#pragma unroll
        for (int k = 0; k < vectors; ++k) raw[k] = reinterpret_cast<const uint4*>(in + base)[k];
        T v[items];
        memcpy(v, raw, sizeof(v));
        t = v[0];
#pragma unroll
        for (int j = 1; j < items; ++j) t = op(t, v[j]);
        acc = op(acc, scankit::cuda::detail::warp_reduce(t, op));
        continue;
      }
    }
#pragma unroll
    for (int j = 0; j < items; ++j)
      if (base + j < n) t = op(t, in[base + j]);
    acc = op(acc, scankit::cuda::detail::warp_reduce(t, op));
  }
  const T r = block_reduce_ordered(lane == 0 ? acc : op.identity(), op);
  if (threadIdx.x == 0) partial[blockIdx.x] = r;
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
  constexpr std::int64_t warps_per_block = reduce_threads / 32;
  const std::int64_t chunk = 32 * std::int64_t{reduce_items<T>};
  const std::int64_t chunks = (n + chunk - 1) / chunk;
  const std::int64_t max_warps = 4 * warps_per_block * std::int64_t{scankit::cuda::detail::device_sm_count()};
  const std::int64_t per_warp = std::max<std::int64_t>(1, (chunks + max_warps - 1) / max_warps);
  const std::int64_t warps = std::max<std::int64_t>(1, (chunks + per_warp - 1) / per_warp);
  const int blocks = static_cast<int>((warps + warps_per_block - 1) / warps_per_block);
  const bool aligned = reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  T* part = partials.get<T>(blocks, stream, operation);
  reduce_warps_kernel<<<blocks, reduce_threads, 0, stream>>>(in, n, per_warp, aligned, part, op);
  check_launch("reduce_warps_kernel", operation);
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
