// The segmented reduction in two passes, in which no tile waits for another (docs/ALGORITHMS.md,
// "Segments"). The tiles are the merge-path tiles of the look-back engine (kernels.cuh): equal
// shares of the items merged with the segment ends.
//
//   Pass 1 (reduce_tile_kernel), every tile on its own:
//     1. copy the tile's items to shared memory as 16-byte vectors, read where they lie in
//        global memory (the first vector may start before the tile, the last end after it), and
//        mark the heads of the segments that begin among them;
//     2. fold each thread's row into a scan state (state.cuh), scan the rows across the block,
//        rescan each row from its prefix in place: every item now holds the combination of its
//        segment's items from the segment's head or the tile's start, whichever is later;
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
#include "scankit/cuda/detail/segments/tuning.hpp"

namespace scankit::cuda::detail::segments {

/// Items of T per 16-byte vector, 1 where T does not tile 16 bytes.
template <class T>
inline constexpr int vector_items = (sizeof(T) <= 16 && 16 % sizeof(T) == 0) ? static_cast<int>(16 / sizeof(T)) : 1;

/// Shared memory of pass 1: D items in rows of Row, unpadded; the 16-byte vector j of row r
/// sits at position j ^ (r mod vectors per row), so that a warp writing consecutive vectors and
/// a warp reading one vector of 32 consecutive rows each hit distinct banks. Then the head
/// bitmap (one spare word: bit D reads as zero).
template <class T, int Row>
struct reduce_layout {
  static constexpr int D = block_threads * Row;
  static constexpr int V = vector_items<T>;
  static constexpr int row_vectors = Row / V;
  static_assert(Row % V == 0 && (row_vectors & (row_vectors - 1)) == 0, "rows hold a power of two of vectors");
  static constexpr int words = D / 32 + 1;
  static constexpr std::size_t heads_offset = (std::size_t{D} * sizeof(T) + 15) / 16 * 16;
  static constexpr std::size_t bytes = heads_offset + words * sizeof(unsigned);
  __device__ static int slot(int i) {
    const int r = i / Row, j = (i % Row) / V;
    return r * Row + (j ^ (r & (row_vectors - 1))) * V + i % V;
  }
};

/// Work items of one pass-1 tile: the items may start up to V - 1 slots into the tile's memory
/// (where their first vector begins), so a tile takes V fewer than it holds.
template <class T>
constexpr std::int64_t reduce_tile_work(int row_items) {
  return std::int64_t{block_threads} * row_items - vector_items<T>;
}

/// A 16-byte copy from global to shared memory (cp.async where the hardware has it).
__device__ __forceinline__ void copy16_to_shared(void* dst, const void* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const auto s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(src) : "memory");
#else
  *static_cast<uint4*>(dst) = __ldg(static_cast<const uint4*>(src));
#endif
}

template <int Row, class T, class Op>
__global__ void __launch_bounds__(block_threads, 3)
    reduce_tile_kernel(const __grid_constant__ tile_args<T> a, Op op, seg_state<T>* tile_states,
                       std::int64_t* open_segment) {
  using state = seg_state<T>;
  using layout = reduce_layout<T, Row>;
  constexpr int V = layout::V;
  const seg_op<Op> sop{op};
  extern __shared__ uint4 tile_memory[];
  T* items = reinterpret_cast<T*>(tile_memory);
  unsigned* heads = reinterpret_cast<unsigned*>(reinterpret_cast<char*>(tile_memory) + layout::heads_offset);
  __shared__ state warp_totals[32];
  const int tid = threadIdx.x;
  const std::int64_t t = blockIdx.x;
  const heads_desc& h = a.h;
  wait_for_previous_grid();  // the partition

  // --- Phase 0: the tile's items [b0, b0 + valid), held from slot `off`, and ends [a0, a1) ---
  const std::int64_t tile_work = reduce_tile_work<T>(Row);
  const std::int64_t total = a.n + h.segments;
  const std::int64_t d0 = t * tile_work, d1 = d0 + tile_work < total ? d0 + tile_work : total;
  const std::int64_t a0 = h.partition[t], a1 = h.partition[t + 1];
  const std::int64_t b0 = d0 - a0 < a.n ? d0 - a0 : a.n;
  std::int64_t count = d1 - a1 - b0;  // clamped, so that invalid bounds cannot reach past the tile
  count = count < 0 ? 0 : (count > tile_work ? tile_work : (count > a.n - b0 ? a.n - b0 : count));
  const int valid = static_cast<int>(count);
  const bool vectors = V > 1 && reinterpret_cast<std::uintptr_t>(a.in) % sizeof(T) == 0;
  const int off = vectors ? static_cast<int>(reinterpret_cast<std::uintptr_t>(a.in + b0) % 16 / sizeof(T)) : 0;
  const std::int64_t base = b0 - off;  // the global index of slot 0

  // --- Phase 1: copy the items to shared memory, mark the heads meanwhile ---
  if (vectors) {
    const int nvec = (off + valid + V - 1) / V;
    for (int v = tid; v < nvec; v += block_threads) {
      const std::int64_t g = base + std::int64_t{v} * V;
      if (g >= 0 && g + V <= a.n) {
        copy16_to_shared(items + layout::slot(v * V), a.in + g);
      } else {  // the vector reaches past either end of the input: the items inside it only
        for (int q = 0; q < V; ++q)
          items[layout::slot(v * V + q)] = g + q >= 0 && g + q < a.n ? a.in[g + q] : op.identity();
      }
    }
  } else {
    for (int j = tid; j < valid; j += block_threads) items[layout::slot(j)] = a.in[b0 + j];
  }
  for (int w = tid; w < layout::words; w += block_threads) heads[w] = 0;
  __syncthreads();
  // A non-empty segment that begins among these items ends here or later: s in [a0, a1].
  const std::int64_t last = a1 < h.segments - 1 ? a1 : h.segments - 1;
  for (std::int64_t s = a0 + tid; s <= last; s += block_threads) {
    const std::int64_t bg = h.begin[s];
    if (bg < h.end[s] && bg >= b0 && bg < b0 + valid) {
      const int i = static_cast<int>(bg - base);
      atomicOr(&heads[i >> 5], 1u << (i & 31));
    }
  }
  wait_shared_copies();
  __syncthreads();

  // --- Phase 2: fold the rows, scan them across the block, rescan each row in place ---
  const int row = tid * Row;
  const std::uint64_t row_heads = row_bits<Row>(heads, row);
  const int lo = off - row, hi = off + valid - row;  // the row's items are its slots [lo, hi)
  state row_state = sop.identity();
#pragma unroll
  for (int c = 0; c < Row; c += V) {
    T x[V];
    if constexpr (V > 1) {
      const uint4 w = *reinterpret_cast<const uint4*>(items + layout::slot(row + c));
      memcpy(x, &w, sizeof(x));
    } else {
      x[0] = items[layout::slot(row + c)];
    }
#pragma unroll
    for (int q = 0; q < V; ++q)
      if (c + q >= lo && c + q < hi) row_state = sop.step(row_state, x[q], (row_heads >> (c + q)) & 1u);
  }
  state aggregate;
  state running = tile::block_exclusive_scan(row_state, sop, warp_totals, aggregate);
#pragma unroll
  for (int c = 0; c < Row; c += V) {
    T* p = items + layout::slot(row + c);
    T x[V];
    if constexpr (V > 1) {
      const uint4 w = *reinterpret_cast<const uint4*>(p);
      memcpy(x, &w, sizeof(x));
    } else {
      x[0] = *p;
    }
#pragma unroll
    for (int q = 0; q < V; ++q) {
      if (c + q >= lo && c + q < hi) {
        running = sop.step(running, x[q], (row_heads >> (c + q)) & 1u);
        x[q] = running.value;
      }
    }
    if constexpr (V > 1) {
      uint4 w;
      memcpy(&w, x, sizeof(x));
      *reinterpret_cast<uint4*>(p) = w;
    } else {
      *p = x[0];
    }
  }
  __syncthreads();

  // --- Phase 3: write the segments that end here; the first may be partial ---
  for (std::int64_t s = a0 + tid; s < a1; s += block_threads) {
    const std::int64_t bg = h.begin[s], e = h.end[s];
    const std::int64_t i = e - 1 - base;  // the segment's last item, in slots
    a.out[s] = bg >= e ? a.empty_value : (i >= off && i < off + valid ? items[layout::slot(static_cast<int>(i))] : op.identity());
  }

  // --- Phase 4: publish the tile's state and its open segment ---
  if (tid == 0) {
    tile_states[t] = aggregate;
    const bool open = a1 > a0 && h.begin[a0] < b0 && h.begin[a0] < h.end[a0];
    open_segment[t] = open ? a0 : -1;
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
