// The segmented reduction in two passes, in which no tile waits for another (docs/ALGORITHMS.md,
// "Segments"). The tiles are the merge-path tiles of the look-back engine (kernels.cuh): equal
// shares of the items merged with the segment ends.
//
//   Pass 1 (reduce_tile_kernel), every tile on its own:
//     1. copy the tile's items to shared memory as 16-byte vectors, read where they lie in
//        global memory (the first vector may start before the tile, the last end after it), and
//        mark the first and last items of the segments that begin or end among them (tile.cuh);
//     2. fold each thread's row into a scan state (state.cuh; only the items after the row's
//        last head count), scan the rows across the block, rescan the rows that hold a
//        segment's last item from their prefixes in place: such an item now holds the
//        combination of its segment's items from the segment's head or the tile's start,
//        whichever is later;
//     3. write each segment that ends here: its item's value, or the identity where the segment
//        ends before the tile's first item. Only the first segment can have begun before the
//        tile (segments are disjoint and ordered); its value is partial, and the tile records it;
//     4. publish the tile's aggregate state.
//   Pass 2 (carry_kernel), one block: an exclusive scan of the tile states gives each tile the
//   carry of the segment open at its start, which is combined in front of that tile's partial.
// A segment spanning many tiles costs one state per tile, a tile of many segments one write per
// segment; either way a tile is D work items, so the time follows n plus the segment count.
#pragma once

#include <cstdint>
#include <cstring>

#include "scankit/cuda/detail/block/tile_scan.cuh"
#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/segments/kernels.cuh"
#include "scankit/cuda/detail/segments/state.cuh"
#include "scankit/cuda/detail/segments/tile.cuh"
#include "scankit/cuda/detail/segments/tuning.hpp"

namespace scankit::cuda::detail::segments {

template <int Row, class T, class Op>
__global__ void __launch_bounds__(block_threads, 3)
    reduce_tile_kernel(const __grid_constant__ tile_args<T> a, Op op, seg_state<T>* tile_states,
                       std::int64_t* open_segment) {
  using state = seg_state<T>;
  using layout = tile_layout<T, Row>;
  const seg_op<Op> sop{op};
  extern __shared__ uint4 tile_memory[];
  T* items = reinterpret_cast<T*>(tile_memory);
  unsigned* heads = reinterpret_cast<unsigned*>(reinterpret_cast<char*>(tile_memory) + layout::heads_offset);
  unsigned* ends = reinterpret_cast<unsigned*>(reinterpret_cast<char*>(tile_memory) + layout::ends_offset);
  __shared__ state warp_totals[32];
  const int tid = threadIdx.x;
  const std::int64_t t = blockIdx.x;
  const heads_desc& h = a.h;
  wait_for_previous_grid();  // the partition

  // --- Phase 0: the tile's items [b0, b0 + valid), held from slot off, and ends [a0, a1) ---
  const tile_span sp = span_of(a, t, tile_work_for<T>(Row, true));
  const int valid = sp.valid, off = sp.off;

  // --- Phase 1: copy the items to shared memory, mark the segments' first and last items ---
  copy_items<layout>(a, sp, items, op);
  mark_bounds<layout::words>(h, sp, heads, ends);
  wait_shared_copies();
  __syncthreads();

  // --- Phase 2: fold the rows, scan them across the block, rescan the rows with ends ---
  // A row's state is the fold of its items after its last head (the head restarts it) and its
  // head count; a row without heads whose slots all hold items folds without any test. Only
  // the items at segments' ends are read again, so only the rows that hold one are rescanned.
  const int row = tid * Row;
  const std::uint64_t row_heads = row_bits<Row>(heads, row);
  const int lo = off - row, hi = off + valid - row;  // the row's items are its slots [lo, hi)
  const T acc = fold_row_tail<layout, Row>(items, row, row_heads, lo, hi, op);
  const state row_state{acc, static_cast<std::int64_t>(__popcll(row_heads))};
  state aggregate;
  const state running = tile::block_exclusive_scan(row_state, sop, warp_totals, aggregate);
  if (row_bits<Row>(ends, row) != 0)
    rescan_row<layout, Row>(items, row, row_heads, lo, hi, running, sop,
                            [](const state&, const state& after, bool) { return after.value; });
  __syncthreads();

  // --- Phase 3: write the segments that end here; the first may be partial ---
  for (std::int64_t s = sp.a0 + tid; s < sp.a1; s += block_threads) {
    const std::int64_t bg = h.begin[s], e = h.end[s];
    const std::int64_t i = e - 1 - sp.base;  // the segment's last item, in slots
    a.out[s] = bg >= e ? a.empty_value : (i >= off && i < off + valid ? items[layout::slot(static_cast<int>(i))] : op.identity());
  }

  // --- Phase 4: publish the tile's state and its open segment ---
  if (tid == 0) {
    tile_states[t] = aggregate;
    const bool open = sp.a1 > sp.a0 && h.begin[sp.a0] < sp.b0 && h.begin[sp.a0] < h.end[sp.a0];
    open_segment[t] = open ? sp.a0 : -1;
  }
}

/// Pass 2: one block scans the tile states (each thread a run of consecutive tiles) and
/// completes each tile's open segment: out[s] = op(carry, partial).
inline constexpr int carry_threads = 1024;

template <class T, class Op>
__global__ void __launch_bounds__(carry_threads)
    carry_kernel(const seg_state<T>* tile_states, const std::int64_t* open_segment, std::int64_t tiles, Op op, T* out) {
  using state = seg_state<T>;
  const seg_op<Op> sop{op};
  __shared__ state warp_totals[32];
  wait_for_previous_grid();  // pass 1
  const std::int64_t per = (tiles + carry_threads - 1) / carry_threads;
  const std::int64_t t0 = threadIdx.x * per < tiles ? threadIdx.x * per : tiles;
  const std::int64_t t1 = t0 + per < tiles ? t0 + per : tiles;
  state run = sop.identity();
#pragma unroll 8
  for (std::int64_t t = t0; t < t1; ++t) run = sop(run, tile_states[t]);
  state all;
  state carry = tile::block_exclusive_scan(run, sop, warp_totals, all);
  for (std::int64_t t = t0; t < t1; ++t) {
    const std::int64_t s = open_segment[t];
    if (s >= 0) out[s] = op(carry.value, out[s]);
    carry = sop(carry, tile_states[t]);
  }
}

}  // namespace scankit::cuda::detail::segments
