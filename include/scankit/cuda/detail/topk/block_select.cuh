// The block path of the segmented top-k: one block per segment (or row) runs the radix select
// of kernels.cuh in shared memory, 8-bit digits with one counter per thread, then sorts its k
// winners by (rank, position) with a bitonic network and writes them out. A row longer than a
// block holds is split into chunks, one block each (plan.hpp's chunk_for; launch.cuh's levels).
#pragma once

#include <algorithm>
#include <cstdint>

#include "scankit/cuda/detail/segmented_sort/kernels.cuh"
#include "scankit/cuda/detail/topk/kernels.cuh"
#include "scankit/cuda/detail/topk/plan.hpp"  // position_bits_for

namespace scankit::cuda::detail::topk {

using segmented_sort::segments_of;

template <class K>
__global__ void __launch_bounds__(block_path_threads)
    segment_select(const K* in, const std::int64_t* positions, segments_of seg, std::int64_t chunk, std::int64_t count,
                   std::int64_t k, std::int64_t padded_k, int shared_keys, bool largest, bool in_order, K* values,
                   std::int64_t* indices) {
  using U = typename radix_traits<K>::bits_t;
  constexpr int T = block_path_threads, rank_bits = sizeof(K) * 8;
  extern __shared__ __align__(16) unsigned char smem[];
  u64* w_rank = reinterpret_cast<u64*>(smem);
  u64* w_pos = w_rank + padded_k;
  U* held = reinterpret_cast<U*>(w_pos + padded_k);
  __shared__ unsigned h[T];
  __shared__ u64 warp_sums[32];
  __shared__ select_state st;
  __shared__ unsigned written;
  const int t = threadIdx.x;
  for (std::int64_t s = blockIdx.x; s < count; s += gridDim.x) {
    // A chunk of a row (rows of seg.cols keys split into `chunk`-key pieces) reports positions
    // in its row; a level over winners reports the positions it was given beside them.
    std::int64_t b = 0, len = 0, offset = 0;
    if (chunk > 0) {
      const std::int64_t per_row = (seg.cols + chunk - 1) / chunk, row = s / per_row;
      offset = (s - row * per_row) * chunk;
      b = row * seg.cols + offset, len = std::min(chunk, seg.cols - offset);
    } else {
      b = seg.first(s), len = seg.last(s) - b;
    }
    const K* x = in + b;
    const bool hold = len <= shared_keys;
    if (hold)
      for (std::int64_t i = t; i < len; i += T) held[i] = static_cast<U>(rank_of(x[i], largest));
    if (t == 0) st = select_state{}, st.k_rem = static_cast<u64>(k), written = 0;
    __syncthreads();
    auto rank_at = [&](std::int64_t i) -> u64 { return hold ? static_cast<u64>(held[i]) : rank_of(x[i], largest); };
    // ---- the digits: the rank's from the top, then the position's ----
    const int pos_bits = position_bits_for(len);
    const int rank_digits = (rank_bits + 7) / 8, digits = rank_digits + (pos_bits + 7) / 8;
    for (int d = 0; d < digits && !st.done; ++d) {
      const bool on_pos = d >= rank_digits;
      const int top = on_pos ? pos_bits - 8 * (d - rank_digits) : rank_bits - 8 * d;
      const int shift = top > 8 ? top - 8 : 0, width = top - shift;
      const unsigned dmask = (1u << width) - 1u;
      h[t] = 0;
      __syncthreads();
      const select_state cur = st;
      for (std::int64_t i = t; i < len; i += T) {
        const u64 r = rank_at(i), p = static_cast<u64>(i);
        if (matches(r, p, cur)) atomicAdd(&h[static_cast<unsigned>((on_pos ? p : r) >> shift) & dmask], 1u);
      }
      __syncthreads();
      const u64 c = h[t];
      const u64 below = block_exclusive_sum(c, warp_sums);
      if (below < cur.k_rem && cur.k_rem <= below + c) {
        const u64 bits = static_cast<u64>(dmask) << shift;
        st.k_rem = cur.k_rem - below;
        if (on_pos) st.prefix_pos |= static_cast<u64>(t) << shift, st.mask_pos |= bits;
        else st.prefix_rank |= static_cast<u64>(t) << shift, st.mask_rank |= bits;
        st.done = c == st.k_rem;
      }
      __syncthreads();
    }
    const select_state fin = st;
    if (in_order) {
      // ---- a level whose winners another level selects from: the k winners in position
      // order (each warp a contiguous span; a warp's offset is the count of the warps before) ----
      constexpr int W = T / 32;
      const int lane = t & 31, w = t >> 5;
      const std::int64_t span = (len + W - 1) / W, lo = std::min(len, w * span), hi = std::min(len, lo + span);
      unsigned mine = 0;
      for (std::int64_t i0 = lo; i0 < hi; i0 += 32) {
        const std::int64_t i = i0 + lane;
        mine += __popc(__ballot_sync(0xffffffffu, i < hi && wins(rank_at(i), static_cast<u64>(i), fin)));
      }
      if (lane == 0) h[w] = mine;
      __syncthreads();
      unsigned base = 0;
      for (int q = 0; q < w; ++q) base += h[q];
      for (std::int64_t i0 = lo; i0 < hi; i0 += 32) {
        const std::int64_t i = i0 + lane;
        const bool win = i < hi && wins(rank_at(i), static_cast<u64>(i), fin);
        const unsigned m = __ballot_sync(0xffffffffu, win);
        const unsigned slot = base + __popc(m & ((1u << lane) - 1u));
        if (win && slot < k) values[s * k + slot] = x[i], indices[s * k + slot] = positions ? positions[b + i] : offset + i;
        base += __popc(m);
      }
      __syncthreads();  // the next segment overwrites the held ranks and the counters
      continue;
    }
    // ---- collect the k winners, pad, sort them by (rank, position) ----
    for (std::int64_t i = t; i < len; i += T) {
      const u64 r = rank_at(i);
      if (wins(r, static_cast<u64>(i), fin)) {
        const unsigned slot = atomicAdd(&written, 1u);
        if (slot < k) w_rank[slot] = r, w_pos[slot] = static_cast<u64>(i);
      }
    }
    for (std::int64_t i = k + t; i < padded_k; i += T) w_rank[i] = ~u64{0}, w_pos[i] = ~u64{0};
    __syncthreads();
    for (std::int64_t size = 2; size <= padded_k; size <<= 1) {
      for (std::int64_t stride = size >> 1; stride > 0; stride >>= 1) {
        for (std::int64_t q = t; q < padded_k / 2; q += T) {
          const std::int64_t i = 2 * stride * (q / stride) + q % stride, j = i + stride;
          const bool up = (i & size) == 0;
          const bool greater = w_rank[i] > w_rank[j] || (w_rank[i] == w_rank[j] && w_pos[i] > w_pos[j]);
          if (greater == up) {
            const u64 r = w_rank[i], p = w_pos[i];
            w_rank[i] = w_rank[j], w_pos[i] = w_pos[j], w_rank[j] = r, w_pos[j] = p;
          }
        }
        __syncthreads();
      }
    }
    // ---- write the segment's results ----
    // A segment shorter than k (a broken precondition) leaves padding: never read through it.
    for (std::int64_t j = t; j < k; j += T) {
      const std::int64_t p = static_cast<std::int64_t>(w_pos[j]);
      if (p < len) values[s * k + j] = x[p], indices[s * k + j] = positions ? positions[b + p] : offset + p;
    }
    __syncthreads();
  }
}

}  // namespace scankit::cuda::detail::topk
