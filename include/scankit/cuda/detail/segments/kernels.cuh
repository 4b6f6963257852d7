// The segmented operations' kernels: the merge-path partition, the tile engine every
// segmented operation runs on, and the classic one-block-per-segment reduction.
//
// The tile engine, top to bottom (docs/ALGORITHMS.md, "Segments"):
//   0. Tile t covers the work items [t * W, (t + 1) * W) of the merge of the items with the
//      segment ends (bounds; W a vector less than the D items a tile holds), or the items
//      [t * D, (t + 1) * D) (flags, keys): the partition says how many segment ends came
//      before it, so it knows its items [b0, b0 + valid) and its ends [a0, a1) (tile.cuh).
//   1. The block copies its items into shared memory as 16-byte vectors (tile.cuh's layout)
//      and marks the segment heads among them in a bitmap (from the segment begins, the
//      flags, or key changes).
//   2. Each thread folds its row of consecutive items into a scan state (value since the last
//      head, heads seen; state.cuh): the items after the row's last head, plainly where the
//      row has none; a block scan of the states gives every row its prefix and the tile its
//      aggregate, which is published at once.
//   3. The deterministic look-back (lookback/status_tree.cuh) over the states gives the tile's
//      prefix: the carry of the segment open at the tile's start.
//   4. Each thread rescans its row from its prefix, in shared memory, a vector at a time.
//   5. The sink writes the results: every item (scans, as 16-byte vectors where the output is
//      aligned as the input), the value at each segment end (reductions), or each run's key
//      and value (reduce_by_key).
// A segment that spans many tiles is carried by the look-back, a tile of many short segments
// writes many results: either way a tile does D work items, so no distribution of lengths
// slows it down.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "scankit/cuda/detail/block/tile_scan.cuh"
#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/lookback/status_tree.cuh"
#include "scankit/cuda/detail/segments/state.cuh"
#include "scankit/cuda/detail/segments/tile.cuh"
#include "scankit/cuda/detail/segments/tuning.hpp"

namespace scankit::cuda::detail::segments {

using lookback::max_levels;
using lookback::tree;

// ---------------------------------------------------------------------------------------------
// The merge-path partition: for every tile boundary d = t * D (the last one clamped to the end
// of the work), how many segment ends come before it. An end e = end[s] comes before item j
// when e <= j, so the first d work items hold a ends and d - a items for the largest a with
// end[a - 1] <= d - a (a binary search: the condition holds for small a and fails past it).
// A template, so that the instantiation files that all include this header (segments_*.cu)
// share one definition instead of each defining the symbol (a multiple definition at link).
template <int = 0>
__global__ void partition_kernel(const std::int64_t* end, std::int64_t segments, std::int64_t n,
                                 std::int64_t tile_work, std::int64_t tiles, std::int64_t* partition) {
  const std::int64_t total = n + segments;
  const std::int64_t step = std::int64_t{gridDim.x} * blockDim.x;  // the grid is capped: stride over it
  for (std::int64_t t = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; t <= tiles; t += step) {
    const std::int64_t d = t * tile_work < total ? t * tile_work : total;
    std::int64_t lo = d - n > 0 ? d - n : 0, hi = d < segments ? d : segments;
    while (lo < hi) {
      const std::int64_t mid = (lo + hi + 1) / 2;
      if (end[mid - 1] <= d - mid) lo = mid;
      else hi = mid - 1;
    }
    partition[t] = lo;
  }
}

// ---------------------------------------------------------------------------------------------
// The tile engine.

template <sink Sink, int Row, class T, class Op>
__global__ void __launch_bounds__(block_threads, 3)
    tile_kernel(const __grid_constant__ tile_args<T> a, Op op, const __grid_constant__ tree<seg_state<T>> tr,
                unsigned long long* tile_counter, std::int64_t tiles, unsigned backoff, unsigned first_delay) {
  using state = seg_state<T>;
  using layout = tile_layout<T, Row>;
  constexpr int D = layout::D, V = layout::V;
  const seg_op<Op> sop{op};
  extern __shared__ uint4 tile_memory[];
  T* items = reinterpret_cast<T*>(tile_memory);
  unsigned* heads = reinterpret_cast<unsigned*>(reinterpret_cast<char*>(tile_memory) + layout::heads_offset);
  __shared__ state warp_totals[32];
  __shared__ state level_sums[max_levels];
  __shared__ std::int64_t tile_id;
  const int tid = threadIdx.x, warp = tid >> 5;
  wait_for_previous_grid();  // the tree's clearing and the partition
  if (tid == 0) tile_id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
  __syncthreads();
  const std::int64_t t = tile_id;
  const heads_desc& h = a.h;
  const bool by_bounds = h.source == head_source::bounds;

  // --- Phase 0: the tile's items [b0, b0 + valid), held from slot off, and ends [a0, a1) ---
  const tile_span sp = span_of(a, t, tile_work_for<T>(Row, by_bounds));
  const int valid = sp.valid, off = sp.off;

  // --- Phase 1: copy the items to shared memory, mark the heads meanwhile ---
  copy_items<layout>(a, sp, items, op);
  if (by_bounds) {
    mark_bounds<layout::words>(h, sp, heads, nullptr);
  } else {  // tiles by flags or keys hold their items from slot 0
    if (tid == 0) heads[layout::words - 1] = 0;  // the spare word; the ballots write every other
    if (h.source == head_source::flags) mark_heads<std::uint8_t, D>(h.flags, true, sp.b0, valid, heads);
    else if (h.key_bytes == 4) mark_heads<std::uint32_t, D>(static_cast<const std::uint32_t*>(h.keys), false, sp.b0, valid, heads);
    else mark_heads<std::uint64_t, D>(static_cast<const std::uint64_t*>(h.keys), false, sp.b0, valid, heads);
  }
  wait_shared_copies();
  __syncthreads();

  // --- Phase 2: fold the rows, scan them across the block, publish the aggregate ---
  // A row's state is the fold of its items after its last head (the head restarts it) and its
  // head count; a row without heads whose slots all hold items folds without any test.
  const int row = tid * Row;
  const std::uint64_t row_heads = row_bits<Row>(heads, row);
  const int lo = off - row, hi = off + valid - row;  // the row's items are its slots [lo, hi)
  const bool plain = row_heads == 0 && lo <= 0 && hi >= Row;  // as fold_row_tail's plain fold
  const T acc = fold_row_tail<layout, Row>(items, row, row_heads, lo, hi, op);
  const state row_state{acc, static_cast<std::int64_t>(__popcll(row_heads))};
  state aggregate;
  const state before_row = tile::block_exclusive_scan(row_state, sop, warp_totals, aggregate);
  if (tid == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);

  // --- Phase 3: look back for the carry into the tile ---
  if (first_delay != 0 && warp < tr.levels) __nanosleep(first_delay);
  lookback::look_back(tr, t, aggregate, sop, backoff, level_sums);
  __syncthreads();
  const state prefix = lookback::tile_prefix_of(tr, level_sums, sop.identity(), sop);

  // --- Phase 4: rescan the rows from their prefixes, in place, a vector at a time ---
  state running = sop(prefix, before_row);
  if (plain) {  // no head: a plain fold from the row's prefix
    T v = running.value;
#pragma unroll
    for (int c = 0; c < Row; c += V) {
      T* p = items + layout::slot(row + c);
      T x[V];
      load_vector(p, x);
#pragma unroll
      for (int q = 0; q < V; ++q) {
        if constexpr (Sink == sink::items) {
          const T before = op(a.init, v);
          v = op(v, x[q]);
          x[q] = a.exclusive ? before : op(a.init, v);
        } else {
          v = op(v, x[q]);
          x[q] = v;
        }
      }
      store_vector(p, x);
    }
  } else {
    rescan_row<layout, Row>(items, row, row_heads, lo, hi, running, sop,
                            [&](const state& before, const state& after, bool head) -> T {
                              if constexpr (Sink == sink::items) {
                                if (a.exclusive) return head ? a.init : op(a.init, before.value);
                                return op(a.init, after.value);
                              } else {
                                return after.value;
                              }
                            });
  }
  __syncthreads();

  // --- Phase 5: write the results ---
  if constexpr (Sink == sink::items) {
    // As 16-byte vectors where the output lies at the input's offset in bytes within 16 (the
    // tile's edge vectors item by item), else item by item.
    T* out = a.out;
    const bool vector_out = sp.vectors && reinterpret_cast<std::uintptr_t>(out + sp.b0) % 16 ==
                                              static_cast<std::uintptr_t>(off) * sizeof(T);
    if (vector_out) {
      for (int v = tid; v < (off + valid + V - 1) / V; v += block_threads) {
        const int s0 = v * V;
        T x[V];
        load_vector(items + layout::slot(s0), x);
        if (s0 >= off && s0 + V <= off + valid) {
          if constexpr (V > 1) {
            uint4 w;
            memcpy(&w, x, 16);
            __stcs(reinterpret_cast<uint4*>(out + sp.base + s0), w);
          } else {
            store_once(out + sp.base + s0, x[0]);
          }
        } else {
#pragma unroll
          for (int q = 0; q < V; ++q)
            if (s0 + q >= off && s0 + q < off + valid) store_once(out + sp.base + s0 + q, x[q]);
        }
      }
    } else {
      for (int j = tid; j < valid; j += block_threads) store_once(out + sp.b0 + j, items[layout::slot(j + off)]);
    }
  } else if constexpr (Sink == sink::segments) {
    // Segment s ends among this tile's work items: its last item is in the tile, or is the
    // item just before it (then its value is the carry).
    for (std::int64_t s = sp.a0 + tid; s < sp.a1; s += block_threads) {
      const std::int64_t bg = h.begin[s], e = h.end[s];
      const std::int64_t i = e - 1 - sp.base;  // in slots
      a.out[s] = bg >= e ? a.empty_value : (i >= off && i < off + valid ? items[layout::slot(static_cast<int>(i))] : prefix.value);
    }
  } else {
    // Keys: the tile's items are its slots [0, valid). Each run's index is the number of heads
    // up to its last item, less one: the bitmap's words are counted once (a block scan), then
    // every item finds its count by a popcount.
    const std::int64_t b0 = sp.b0;
    int* ranks = reinterpret_cast<int*>(reinterpret_cast<char*>(tile_memory) + layout::ranks_offset);
    constexpr int per_thread = (layout::words + block_threads - 1) / block_threads;
    int mine = 0;
#pragma unroll
    for (int q = 0; q < per_thread; ++q) {
      const int w = tid * per_thread + q;
      if (w < layout::words) mine += __popc(heads[w]);
    }
    __shared__ int count_sums[32];
    int all = 0;
    int before = tile::block_exclusive_scan(mine, sum<int>{}, count_sums, all);
#pragma unroll
    for (int q = 0; q < per_thread; ++q) {
      const int w = tid * per_thread + q;
      if (w < layout::words) {
        ranks[w] = before;
        before += __popc(heads[w]);
      }
    }
    __syncthreads();
    for (int j = tid; j < valid; j += block_threads) {
      const std::int64_t g = b0 + j;
      const bool run_ends = j + 1 < valid ? head_bit(heads, j + 1) : (g + 1 >= a.n || key_at(h, g + 1) != key_at(h, g));
      if (!run_ends) continue;
      const int rank = ranks[j >> 5] + __popc(heads[j >> 5] & (0xffffffffu >> (31 - (j & 31))));
      const std::int64_t r = prefix.heads + rank - 1;
      a.out[r] = items[layout::slot(j + off)];
      if (h.key_bytes == 4) static_cast<std::uint32_t*>(a.unique_keys)[r] = static_cast<const std::uint32_t*>(h.keys)[g];
      else static_cast<std::uint64_t*>(a.unique_keys)[r] = static_cast<const std::uint64_t*>(h.keys)[g];
    }
    if (tid == 0 && t == tiles - 1) *a.num_runs = sop(prefix, aggregate).heads;
  }
}

// ---------------------------------------------------------------------------------------------
// The classic segmented reduction: one block per segment (grid-strided over the segments).
// Each thread folds Row consecutive items of a chunk of block_threads * Row, the block combines
// the threads in order, and the chunks are combined in order: any monoid, a fixed expression.

template <int Row, class T, class Op>
__global__ void __launch_bounds__(block_threads)
    block_per_segment_kernel(const T* in, std::int64_t n, const std::int64_t* begin, const std::int64_t* end,
                             std::int64_t segments, Op op, T empty_value, T* out) {
  __shared__ T warp_sums[32];
  constexpr std::int64_t chunk = std::int64_t{block_threads} * Row;
  for (std::int64_t s = blockIdx.x; s < segments; s += gridDim.x) {
    std::int64_t bg = begin[s], e = end[s];
    bg = bg < 0 ? 0 : (bg > n ? n : bg);
    e = e < bg ? bg : (e > n ? n : e);
    T acc = op.identity();
    for (std::int64_t base = bg; base < e; base += chunk) {
      T v = op.identity();
#pragma unroll
      for (int c = 0; c < Row; ++c) {
        const std::int64_t i = base + std::int64_t{threadIdx.x} * Row + c;
        if (i < e) v = op(v, in[i]);
      }
      T aggregate;
      (void)tile::block_exclusive_scan(v, op, warp_sums, aggregate);
      acc = op(acc, aggregate);
      __syncthreads();  // warp_sums is reused by the next chunk
    }
    if (threadIdx.x == 0) out[s] = bg < e ? acc : empty_value;
  }
}

}  // namespace scankit::cuda::detail::segments
