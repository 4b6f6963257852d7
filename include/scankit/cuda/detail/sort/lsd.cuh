// The textbook sorts: lsd-reduce-then-scan (per digit: upsweep tile counts, the library's scan
// over them, downsweep rank and scatter) and split-1bit (per bit: flags, scan, split).
#pragma once

#include "scankit/cuda/detail/sort/ranking.cuh"
#include "scankit/cuda/detail/sort/common.cuh"

namespace scankit::cuda::detail::radix {

/// A tile's keys (and values) through shared memory: loads warp-striped, scatters each key
/// to out[offset of its digit + its position in the tile], reading the staged tile in order
/// so that runs of equal digits become runs of consecutive addresses (coalesced stores).
template <key_kind Kind, class U, class V, int Items>
struct tile_sort {
  static constexpr int block = 256;
  static constexpr int tile = block * Items;
  using ranker = block_rank<block, Items>;
  union staging {
    U keys[tile];
    std::conditional_t<has_values<V>, V, U> values[tile];
  };
  struct storage {
    typename ranker::storage rank;
    staging buf;
    long long offset[radix];  // global position of the digit's first key minus its tile start
    unsigned char digit[has_values<V> ? tile : 1];
  };

  __device__ __forceinline__ static int local_index(int j) {
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    return w * 32 * Items + j * 32 + lane;
  }

  __device__ __forceinline__ static void load(const U* src, std::int64_t tile_begin, int tile_n,
                                              U (&key)[Items], bool (&valid)[Items]) {
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int li = local_index(j);
      valid[j] = li < tile_n;
      key[j] = valid[j] ? src[tile_begin + li] : U{0};
    }
  }

  /// Needs s.offset filled and a barrier after that.
  __device__ __forceinline__ static void scatter(storage& s, const U (&key)[Items],
                                                 const unsigned (&rank)[Items], const bool (&valid)[Items],
                                                 int tile_n, digit_of<Kind, U> dig, U* dst_keys,
                                                 const V* src_values, bool index_values,
                                                 std::int64_t tile_begin, V* dst_values) {
#pragma unroll
    for (int j = 0; j < Items; ++j)
      if (valid[j]) s.buf.keys[rank[j]] = key[j];
    __syncthreads();
    for (int i = threadIdx.x; i < tile_n; i += block) {
      const U k = s.buf.keys[i];
      const unsigned d = dig(k);
      if constexpr (has_values<V>) s.digit[i] = static_cast<unsigned char>(d);
      dst_keys[s.offset[d] + i] = k;
    }
    if constexpr (has_values<V>) {
      __syncthreads();
#pragma unroll
      for (int j = 0; j < Items; ++j)
        if (valid[j]) {
          const std::int64_t gi = tile_begin + local_index(j);
          s.buf.values[rank[j]] = index_values ? index_value<V>(gi) : src_values[gi];
        }
      __syncthreads();
      for (int i = threadIdx.x; i < tile_n; i += block)
        dst_values[s.offset[s.digit[i]] + i] = s.buf.values[i];
    }
  }
};

// ---------------------------------------------------------------------------------------
// lsd-reduce-then-scan

/// counts[d * tiles + t] = number of keys of tile t with digit d (digit-major, so that one
/// exclusive scan of the whole array gives every (digit, tile) its output offset).
template <key_kind Kind, class U, class C, int Items>
__global__ void __launch_bounds__(256)
upsweep_kernel(const plan* pl, int pass, key_buffers<U> keys3, std::int64_t n,
               digit_of<Kind, U> dig, C* counts, std::int64_t tiles) {
  if (!pl->active[pass]) return;
  const U* src = keys3.keys[pl->src[pass]];
  constexpr int tile = 256 * Items;
  __shared__ unsigned c[radix];
  for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    c[threadIdx.x] = 0;
    __syncthreads();
    const std::int64_t b = t * tile;
    const std::int64_t e = b + tile < n ? b + tile : n;
    for (std::int64_t i = b + threadIdx.x; i < e; i += 256) atomicAdd(&c[dig(src[i])], 1u);
    __syncthreads();
    counts[threadIdx.x * tiles + t] = static_cast<C>(c[threadIdx.x]);
    __syncthreads();
  }
}

template <key_kind Kind, class U, class V, class C, int Items>
__global__ void __launch_bounds__(256)
downsweep_kernel(const plan* pl, int pass, buffers<U, V> buf, std::int64_t n,
                 digit_of<Kind, U> dig, const C* offsets, std::int64_t tiles) {
  using ts = tile_sort<Kind, U, V, Items>;
  if (!pl->active[pass]) return;
  const U* src = buf.keys[pl->src[pass]];
  U* dst = buf.keys[pl->dst[pass]];
  __shared__ typename ts::storage s;
  for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::int64_t tile_begin = t * ts::tile;
    const int tile_n = static_cast<int>(n - tile_begin < ts::tile ? n - tile_begin : ts::tile);
    U key[Items];
    bool valid[Items];
    unsigned digit[Items], rank[Items];
    ts::load(src, tile_begin, tile_n, key, valid);
#pragma unroll
    for (int j = 0; j < Items; ++j) digit[j] = dig(key[j]);
    ts::ranker::rank(s.rank, digit, valid, rank);
    if (threadIdx.x < radix)
      s.offset[threadIdx.x] = static_cast<long long>(offsets[threadIdx.x * tiles + t]) - s.rank.digit_start[threadIdx.x];
    __syncthreads();
    ts::scatter(s, key, rank, valid, tile_n, dig, dst, buf.values[pl->src[pass]],
                buf.index_values && pl->src[pass] == 0, tile_begin, buf.values[pl->dst[pass]]);
    __syncthreads();
  }
}

// ---------------------------------------------------------------------------------------
// split-1bit

template <key_kind Kind, class U, class C>
__global__ void split_flags_kernel(const U* src, std::int64_t n, digit_of<Kind, U> bit, C* flags) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    flags[i] = static_cast<C>(1u - bit(src[i]));
}

/// zeros_before: the exclusive scan of the flags; zeros: their total.
template <key_kind Kind, class U, class V, class C>
__global__ void split_kernel(const U* src_k, U* dst_k, const V* src_v, V* dst_v, bool index_values,
                             std::int64_t n, digit_of<Kind, U> bit, const C* zeros_before, const C* zeros) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t z = static_cast<std::int64_t>(*zeros);
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    const U k = src_k[i];
    const std::int64_t zb = static_cast<std::int64_t>(zeros_before[i]);
    const std::int64_t pos = bit(k) ? z + (i - zb) : zb;
    dst_k[pos] = k;
    if constexpr (has_values<V>) dst_v[pos] = index_values ? index_value<V>(i) : src_v[i];
  }
}

}  // namespace scankit::cuda::detail::radix
