// The reduction kernel: every block reduces a contiguous run of the input and writes one
// partial result; the same kernel on one block then combines the partial results in order.
//
//   input:  [ head | row 0 | row 1 | ... | row R-1 (may be partial) ]
//   a row:  32 lanes x one 16-byte vector (or one item where vectors do not apply)
//   warp g of the grid takes rows [g*R/W, (g+1)*R/W): contiguous, in warp order
//
// Commutative operators: each lane folds its own items over all its rows (a fixed order, so
// the result is the same on every run), then the warp folds its lanes in lane order.
// Other operators: each row is folded lane by lane in sequence order before the next row, so
// items are combined exactly as the sequential loop orders them.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/reduce/tuning.hpp"

namespace scankit::cuda::detail::reduce {

/// The total of a full warp's values in lane order, in lane 0 (other lanes hold partial
/// totals). Pairs of neighbours first, so operands are never swapped.
template <class U, class Op>
__device__ __forceinline__ U warp_fold(U v, Op op) {
  const unsigned lane = threadIdx.x & 31u;
#pragma unroll
  for (unsigned d = 1; d < 32; d <<= 1) {
    const U other = shfl_down(v, d);
    if ((lane & (2 * d - 1)) == 0) v = op(v, other);
  }
  return v;
}

/// One row's items of this lane: V items from one 16-byte vector, or one item (V == 1).
template <class T, int V>
struct lane_items {
  T x[V];
};

template <class T, int V>
__device__ __forceinline__ lane_items<T, V> load_full(const T* p) {
  lane_items<T, V> r;
  if constexpr (V > 1) {
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(p));
    memcpy(r.x, &v, sizeof(v));
  } else {
    r.x[0] = p[0];
  }
  return r;
}

/// Folds the lane's items at [first, first + V) that lie below `end` (relative to `base`).
template <int V, class T, class U, class F, class Op>
__device__ __forceinline__ U fold_items(U acc, const lane_items<T, V>& it, std::int64_t first, std::int64_t index_base,
                                        F f, Op op) {
#pragma unroll
  for (int k = 0; k < V; ++k) acc = op(acc, f(it.x[k], index_base + first + k));
  return acc;
}

template <int V, class T, class U, class F, class Op>
__device__ __forceinline__ U fold_partial(U acc, const T* in, std::int64_t first, std::int64_t n, std::int64_t index_base,
                                          F f, Op op) {
#pragma unroll
  for (int k = 0; k < V; ++k)
    if (first + k < n) acc = op(acc, f(in[first + k], index_base + first + k));
  return acc;
}

/// A value another block of this grid wrote (and fenced): read around L1, word by word.
template <class U>
__device__ __forceinline__ U load_from_other_block(const U* p) {
  U v;
  if constexpr (sizeof(U) % 4 == 0) {
    unsigned w[sizeof(U) / 4];
#pragma unroll
    for (int i = 0; i < static_cast<int>(sizeof(U) / 4); ++i) w[i] = reinterpret_cast<const volatile unsigned*>(p)[i];
    memcpy(&v, w, sizeof(U));
  } else {
    unsigned char b[sizeof(U)];
    for (int i = 0; i < static_cast<int>(sizeof(U)); ++i) b[i] = reinterpret_cast<const volatile unsigned char*>(p)[i];
    memcpy(&v, b, sizeof(U));
  }
  return v;
}

/// Writes to out[blockIdx.x] the reduction of this block's rows (block 0 also folds the head
/// first). f(item, index) is what an item contributes; index_base is added to its position.
/// LastBlock: the block that finishes last (by the ticket, zero at launch) then folds out[0,
/// grid) in order into *result, so one launch does the whole reduction; the ticket's clear is
/// the previous grid, waited for only before the ticket is taken.
template <int V, int Unroll, bool InOrder, bool LastBlock, class T, class U, class F, class Op>
__global__ void __launch_bounds__(block_threads)
    reduce_kernel(const T* __restrict__ in, std::int64_t n, std::int64_t head, std::int64_t rows,
                  std::int64_t index_base, U* __restrict__ out, F f, Op op, U* result, unsigned* ticket) {
  constexpr int warps = block_threads / 32;
  constexpr std::int64_t row_items = 32 * V;
  __shared__ alignas(U) unsigned char warp_total_bytes[warps * sizeof(U)];
  __shared__ bool is_last;
  U* warp_total = reinterpret_cast<U*>(warp_total_bytes);

  // The input may be the previous kernel's output; with LastBlock, the previous kernel is the
  // ticket's clear, launched after everything before it had finished.
  if constexpr (!LastBlock) wait_for_previous_grid();
  allow_next_grid();

  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32u;
  const std::int64_t all_warps = std::int64_t{gridDim.x} * warps;
  const std::int64_t g = std::int64_t{blockIdx.x} * warps + warp;
  const std::int64_t per = rows / all_warps, extra = rows % all_warps;
  const std::int64_t r_begin = g * per + (g < extra ? g : extra);
  const std::int64_t r_end = r_begin + per + (g < extra ? 1 : 0);
  const std::int64_t full_rows = (n - head) / row_items;  // rows with every item present

  // ---- phase 1: the head (block 0, warp 0, lane 0: it comes first in sequence order) ----
  U acc = op.identity();
  if (g == 0 && lane == 0)
    for (std::int64_t i = 0; i < head; ++i) acc = op(acc, f(in[i], index_base + i));

  // ---- phase 2: the warp's rows, Unroll loads in flight at a time ----
  std::int64_t r = r_begin;
  for (; r + Unroll <= r_end && r + Unroll <= full_rows; r += Unroll) {
    lane_items<T, V> it[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) it[u] = load_full<T, V>(in + head + (r + u) * row_items + lane * V);
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      const std::int64_t first = head + (r + u) * row_items + lane * V;
      if constexpr (InOrder) {
        U row = fold_items<V>(op.identity(), it[u], first, index_base, f, op);
        row = warp_fold(row, op);
        if (lane == 0) acc = op(acc, row);
      } else {
        acc = fold_items<V>(acc, it[u], first, index_base, f, op);
      }
    }
  }
  for (; r < r_end; ++r) {  // the rest one row at a time; only the last row may be partial
    const std::int64_t first = head + r * row_items + lane * V;
    U part = InOrder ? op.identity() : acc;
    if (r < full_rows) part = fold_items<V>(part, load_full<T, V>(in + first), first, index_base, f, op);
    else part = fold_partial<V>(part, in, first, n, index_base, f, op);
    if constexpr (InOrder) {
      part = warp_fold(part, op);
      if (lane == 0) acc = op(acc, part);
    } else {
      acc = part;
    }
  }

  // ---- phase 3: lanes (commutative case), then warps, in order ----
  if constexpr (!InOrder) acc = warp_fold(acc, op);
  if (lane == 0) warp_total[warp] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    U b = warp_total[0];
#pragma unroll
    for (int w = 1; w < warps; ++w) b = op(b, warp_total[w]);
    out[blockIdx.x] = b;
    if constexpr (LastBlock) {
      __threadfence();
      wait_for_previous_grid();
      is_last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    }
  }
  if constexpr (LastBlock) {
    // ---- phase 4: the last block folds every block's result, in block order ----
    __syncthreads();
    if (!is_last) return;
    __threadfence();
    const unsigned grid = gridDim.x, per = (grid + block_threads - 1) / block_threads;
    const unsigned first = threadIdx.x * per, last = first + per < grid ? first + per : grid;
    U v = op.identity();
    for (unsigned i = first; i < last; ++i) v = op(v, load_from_other_block(out + i));
    v = warp_fold(v, op);
    if (lane == 0) warp_total[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
      U b = warp_total[0];
#pragma unroll
      for (int w = 1; w < warps; ++w) b = op(b, warp_total[w]);
      *result = b;
    }
  }
}

}  // namespace scankit::cuda::detail::reduce
