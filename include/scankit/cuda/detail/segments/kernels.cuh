// The segmented operations' kernels: the merge-path partition, the tile engine every
// segmented operation runs on, and the classic one-block-per-segment reduction.
//
// The tile engine, top to bottom (docs/ALGORITHMS.md, "Segments"):
//   0. Tile t covers work items [t * D, (t + 1) * D) of the merge of the items with the segment
//      ends (bounds), or items [t * D, (t + 1) * D) (flags, keys): the partition says how many
//      segment ends came before it, so it knows its items [b0, b1) and its ends [a0, a1).
//   1. The block loads its items into shared memory with coalesced loads and marks the segment
//      heads among them in a bitmap (from the segment begins, the flags, or key changes).
//   2. Each thread folds its row of consecutive items into a scan state (value since the last
//      head, heads seen; state.cuh); a block scan of the states gives every row its prefix and
//      the tile its aggregate, which is published at once.
//   3. The deterministic look-back (lookback/status_tree.cuh) over the states gives the tile's
//      prefix: the carry of the segment open at the tile's start.
//   4. Each thread rescans its row from its prefix, in shared memory.
//   5. The sink writes the results: every item (scans), the value at each segment end
//      (reductions), or each run's key and value (reduce_by_key).
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
#include "scankit/cuda/detail/segments/tuning.hpp"

namespace scankit::cuda::detail::segments {

using lookback::max_levels;
using lookback::tree;

/// Where the segment heads come from.
enum class head_source : int { bounds, flags, keys };

/// What the tile engine writes.
enum class sink : int {
  items,     // every item's scan value (segmented scans)
  segments,  // one value per segment end (segmented reductions)
  runs,      // each run's key and value, and the number of runs (reduce_by_key)
};

/// The heads of one call.
struct heads_desc {
  head_source source = head_source::flags;
  const std::int64_t* begin = nullptr;  // bounds
  const std::int64_t* end = nullptr;
  std::int64_t segments = 0;
  const std::int64_t* partition = nullptr;  // tiles + 1 counts of segment ends before each tile
  const std::uint8_t* flags = nullptr;      // flags
  const void* keys = nullptr;               // keys, compared by their bits
  int key_bytes = 4;
};

/// Everything a tile-engine launch reads and writes, but the operator and the tree.
template <class T>
struct tile_args {
  const T* in = nullptr;
  std::int64_t n = 0;
  heads_desc h{};
  T* out = nullptr;        // items: n values; segments: one per segment; runs: the aggregates
  bool exclusive = false;  // items
  T init{};                // items: combined before each segment's first item
  T empty_value{};         // segments: the result of an empty segment
  void* unique_keys = nullptr;          // runs
  std::int64_t* num_runs = nullptr;     // runs
};

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

/// Shared memory of a tile of D items of T in rows of Row: the items (each row padded by one
/// slot, so the rows' strides are odd in 4-byte words and a warp reading item c of 32 rows hits
/// 32 banks), the head bitmap (one spare word, so that bit D reads as zero), and, for
/// reduce_by_key, each bitmap word's count of heads before it.
template <class T, int Row>
struct tile_layout {
  static constexpr int D = block_threads * Row;
  static constexpr int words = D / 32 + 1;
  static constexpr std::size_t items_bytes = (std::size_t{D} + D / Row) * sizeof(T);
  static constexpr std::size_t heads_offset = (items_bytes + 15) / 16 * 16;
  static constexpr std::size_t ranks_offset = heads_offset + words * sizeof(unsigned);
  static constexpr std::size_t bytes(bool ranks) { return ranks_offset + (ranks ? words * sizeof(int) : 0); }
  __device__ static int slot(int i) { return i + i / Row; }
};

__device__ __forceinline__ std::uint64_t key_at(const heads_desc& h, std::int64_t i) {
  return h.key_bytes == 4 ? static_cast<std::uint64_t>(static_cast<const std::uint32_t*>(h.keys)[i])
                          : static_cast<const std::uint64_t*>(h.keys)[i];
}

/// Copies one item from global to shared memory without a register round trip where the
/// hardware can (cp.async on Ampere and newer, for naturally aligned 4-, 8- and 16-byte items).
template <class T>
__device__ __forceinline__ void copy_to_shared(T* dst, const T* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr ((sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16) && alignof(T) >= sizeof(T)) {
    const auto s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(s), "l"(src), "n"(sizeof(T)) : "memory");
    return;
  }
#endif
  *dst = *src;
}
__device__ __forceinline__ void wait_shared_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
#endif
}

/// Streaming (evict-first) stores where the type has them, plain ones otherwise.
template <class T>
__device__ __forceinline__ void store_once(T* p, const T& v) {
  if constexpr (std::is_arithmetic_v<T>) __stcs(p, v);
  else *p = v;
}

__device__ __forceinline__ bool head_bit(const unsigned* heads, int i) { return (heads[i >> 5] >> (i & 31)) & 1u; }

/// A warp shuffle up by one lane of a flag byte or key.
template <class E>
__device__ __forceinline__ E shfl_up_one(E x) {
  using W = std::conditional_t<sizeof(E) == 8, unsigned long long, unsigned>;
  return static_cast<E>(__shfl_up_sync(0xffffffffu, static_cast<W>(x), 1));
}

/// Marks the heads of items [b0, b0 + valid) given by flags (E = std::uint8_t: a non-zero byte)
/// or by keys (E = the key bits: a key that differs from its predecessor), item 0 always, in
/// the bitmap `heads` of a tile of D items. Lane l of a warp reads a 16-byte vector of K items,
/// the 32 lanes a run of 32 K consecutive items; a key's predecessor is the previous lane's last
/// key, and 32 / K neighbouring lanes OR their bits into one bitmap word. Inputs that are not
/// 16-byte aligned are read item by item, with one ballot per 32 items.
template <class E, int D>
__device__ __forceinline__ void mark_heads(const E* src, bool flags, std::int64_t b0, int valid, unsigned* heads) {
  constexpr int K = static_cast<int>(16 / sizeof(E));
  const int tid = threadIdx.x, lane = tid & 31;
  const bool aligned = reinterpret_cast<std::uintptr_t>(src + b0) % 16 == 0;
  if constexpr (D % (block_threads * K) == 0) {
    if (aligned) {
      constexpr int lanes_per_word = 32 / K;
#pragma unroll 4
      for (int v = 0; v < D / (block_threads * K); ++v) {
        const int j0 = (v * block_threads + tid) * K;
        const std::int64_t i0 = b0 + j0;
        E e[K];
        if (j0 + K <= valid) {
          const uint4 w = __ldg(reinterpret_cast<const uint4*>(src + i0));
          memcpy(e, &w, 16);
        } else {
#pragma unroll
          for (int q = 0; q < K; ++q) e[q] = j0 + q < valid ? src[i0 + q] : E{};
        }
        E before = shfl_up_one(e[K - 1]);
        if (lane == 0 && i0 > 0 && j0 < valid) before = src[i0 - 1];
        unsigned bits = 0;
#pragma unroll
        for (int q = 0; q < K; ++q) {
          const bool head = j0 + q < valid && (i0 + q == 0 || (flags ? e[q] != E{} : e[q] != (q == 0 ? before : e[q - 1])));
          bits |= static_cast<unsigned>(head) << q;
        }
        bits <<= j0 & 31;
#pragma unroll
        for (int m = 1; m < lanes_per_word; m <<= 1) bits |= __shfl_xor_sync(0xffffffffu, bits, m);
        if (lane % lanes_per_word == 0) heads[j0 >> 5] = bits;
      }
      return;
    }
  }
  const int warp = tid >> 5;
#pragma unroll 8
  for (int k = 0; k < D / block_threads; ++k) {
    const int j = k * block_threads + tid;  // a warp's 32 items are consecutive: one ballot, one word
    const std::int64_t i = b0 + j;
    const E x = j < valid ? src[i] : E{};
    E before = shfl_up_one(x);
    if (lane == 0 && j < valid && i > 0) before = src[i - 1];
    const bool head = j < valid && (i == 0 || (flags ? x != E{} : x != before));
    const unsigned word = __ballot_sync(0xffffffffu, head);
    if (lane == 0) heads[k * (block_threads / 32) + warp] = word;
  }
}

/// The head bits of a thread's row of Row (at most 64) items starting at `row`, a multiple of Row.
template <int Row>
__device__ __forceinline__ std::uint64_t row_bits(const unsigned* heads, int row) {
  static_assert(Row <= 64 && (Row >= 32 ? Row % 32 == 0 : 32 % Row == 0), "rows tile the bitmap's words");
  if constexpr (Row > 32) {
    return heads[row >> 5] | (static_cast<std::uint64_t>(heads[(row >> 5) + 1]) << 32);
  } else if constexpr (Row == 32) {
    return heads[row >> 5];
  } else {
    return (heads[row >> 5] >> (row & 31)) & ((1u << Row) - 1u);
  }
}

template <sink Sink, int Row, class T, class Op>
__global__ void __launch_bounds__(block_threads, 3)
    tile_kernel(const __grid_constant__ tile_args<T> a, Op op, const __grid_constant__ tree<seg_state<T>> tr,
                unsigned long long* tile_counter, std::int64_t tiles, unsigned backoff, unsigned first_delay) {
  using state = seg_state<T>;
  using layout = tile_layout<T, Row>;
  constexpr int D = layout::D;  // work items per tile
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

  // --- Phase 0: the tile's items [b0, b0 + valid) and segment ends [a0, a1) ---
  const std::int64_t total = a.n + (by_bounds ? h.segments : 0);
  const std::int64_t d0 = t * D, d1 = d0 + D < total ? d0 + D : total;
  const std::int64_t a0 = by_bounds ? h.partition[t] : 0, a1 = by_bounds ? h.partition[t + 1] : 0;
  const std::int64_t b0 = d0 - a0 < a.n ? d0 - a0 : a.n;
  std::int64_t count = d1 - a1 - b0;  // clamped, so that invalid bounds cannot reach past the tile
  count = count < 0 ? 0 : (count > D ? D : (count > a.n - b0 ? a.n - b0 : count));
  const int valid = static_cast<int>(count);

  // --- Phase 1: copy the items to shared memory, mark the heads meanwhile ---
  for (int j = tid; j < D; j += block_threads) {
    if (j < valid) copy_to_shared(items + layout::slot(j), a.in + b0 + j);
    else items[layout::slot(j)] = op.identity();
  }
  if (by_bounds) {
    for (int w = tid; w < layout::words; w += block_threads) heads[w] = 0;
    __syncthreads();
    // A non-empty segment that begins among these items ends here or later: s in [a0, a1].
    const std::int64_t last = a1 < h.segments - 1 ? a1 : h.segments - 1;
    for (std::int64_t s = a0 + tid; s <= last; s += block_threads) {
      const std::int64_t bg = h.begin[s];
      if (bg < h.end[s] && bg >= b0 && bg < b0 + valid) {
        const int i = static_cast<int>(bg - b0);
        atomicOr(&heads[i >> 5], 1u << (i & 31));
      }
    }
  } else {
    if (tid == 0) heads[layout::words - 1] = 0;  // the spare word; the ballots write every other
    if (h.source == head_source::flags) mark_heads<std::uint8_t, D>(h.flags, true, b0, valid, heads);
    else if (h.key_bytes == 4) mark_heads<std::uint32_t, D>(static_cast<const std::uint32_t*>(h.keys), false, b0, valid, heads);
    else mark_heads<std::uint64_t, D>(static_cast<const std::uint64_t*>(h.keys), false, b0, valid, heads);
  }
  wait_shared_copies();
  __syncthreads();

  // --- Phase 2: fold the rows, scan them across the block, publish the aggregate ---
  const int row = tid * Row;
  const std::uint64_t row_heads = row_bits<Row>(heads, row);
  state row_state = sop.identity();
#pragma unroll 16
  for (int c = 0; c < Row; ++c)
    if (row + c < valid) row_state = sop.step(row_state, items[layout::slot(row + c)], (row_heads >> c) & 1u);
  state aggregate;
  const state before_row = tile::block_exclusive_scan(row_state, sop, warp_totals, aggregate);
  if (tid == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);

  // --- Phase 3: look back for the carry into the tile ---
  if (first_delay != 0 && warp < tr.levels) __nanosleep(first_delay);
  lookback::look_back(tr, t, aggregate, sop, backoff, level_sums);
  __syncthreads();
  const state prefix = lookback::tile_prefix_of(tr, level_sums, sop.identity(), sop);

  // --- Phase 4: rescan the rows from their prefixes, in place ---
  state running = sop(prefix, before_row);
#pragma unroll 16
  for (int c = 0; c < Row; ++c) {
    const int i = row + c;
    if (i >= valid) break;
    const bool head = (row_heads >> c) & 1u;
    T& x = items[layout::slot(i)];
    if constexpr (Sink == sink::items) {
      const T before = head ? a.init : op(a.init, running.value);
      running = sop.step(running, x, head);
      x = a.exclusive ? before : op(a.init, running.value);
    } else {
      running = sop.step(running, x, head);
      x = running.value;
    }
  }
  __syncthreads();

  // --- Phase 5: write the results ---
  if constexpr (Sink == sink::items) {
    for (int j = tid; j < valid; j += block_threads) store_once(a.out + b0 + j, items[layout::slot(j)]);
  } else if constexpr (Sink == sink::segments) {
    // Segment s ends among this tile's work items: its last item is in the tile, or is the
    // item just before it (then its value is the carry).
    for (std::int64_t s = a0 + tid; s < a1; s += block_threads) {
      const std::int64_t bg = h.begin[s], e = h.end[s];
      const std::int64_t i = e - 1 - b0;
      a.out[s] = bg >= e ? a.empty_value : (i >= 0 && i < valid ? items[layout::slot(static_cast<int>(i))] : prefix.value);
    }
  } else {
    // Each run's index is the number of heads up to its last item, less one: the bitmap's
    // words are counted once (a block scan), then every item finds its count by a popcount.
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
      a.out[r] = items[layout::slot(j)];
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
