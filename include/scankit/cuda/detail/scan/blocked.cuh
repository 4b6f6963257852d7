// decoupled-lookback's blocked tile (16-byte vectors, larger inputs): each warp stages a
// contiguous segment in shared memory, every lane scans one contiguous row of it.
#pragma once

#include "scankit/cuda/detail/scan/striped.cuh"  // prefetch_guessed_tile

namespace scankit::cuda::detail::decoupled_lookback {

using namespace lookback;

/// One thread's row of KV 16-byte vectors (V items each) in shared memory, scanned in place
/// from `running`, the combination of everything before the row (the last step of the blocked
/// and the warp-specialized tiles).
template <int KV, int V, class T, class Op>
__device__ __forceinline__ void scan_row_in_place(uint4* row, T running, bool exclusive, Op op) {
#pragma unroll
  for (int c = 0; c < KV; ++c) {
    T a[V];
    memcpy(a, &row[c], sizeof(a));
#pragma unroll
    for (int j = 0; j < V; ++j) {
      const T item = a[j];
      if (exclusive) {
        a[j] = running;
        running = op(running, item);
      } else {
        running = op(running, item);
        a[j] = running;
      }
    }
    memcpy(&row[c], a, sizeof(a));
  }
}

/// Shared-memory layout of the blocked tile: each warp's segment is 32 rows of KV 16-byte
/// vectors, lane l owning row l; every row is padded by one vector, so that the eight lanes of
/// a quarter-warp reading vector c of their rows (row stride KV + 1, odd) hit eight different
/// bank groups. Vector g of a segment (in memory order) lives in row g / KV, column g % KV.
template <int KV>
struct blocked_layout {
  static_assert(KV % 2 == 0, "the padding spreads the banks only for an even row length");
  static constexpr int row_vectors = KV + 1;
  static constexpr int segment_vectors = 32 * row_vectors;
  __device__ static constexpr int slot(int g) { return (g / KV) * row_vectors + g % KV; }
  static constexpr int bytes(int block) { return block * row_vectors * 16; }
};

/// The blocked kernel (16-byte vector path, larger inputs). The tile is blockDim.x * KV
/// vectors; warp w owns the contiguous segment of 32 * KV of them starting at w * 32 * KV.
///   0. With a load window (tree::load_window = W), tile t first waits until t - W + 1 tiles
///      have loaded theirs (scan/tuning.cuh says why). Deadlock-free: tiles below W never wait,
///      and tile t waits only for tiles that took smaller ids, which are running.
///   1. The warp loads its segment with coalesced 16-byte loads (all KV in flight, in
///      registers) and stores them to shared memory, so that lane l's row holds the
///      K = KV * V consecutive items l * K ... l * K + K - 1 of the segment.
///   2. Each lane combines its row (one total per thread); a warp scan and the warp totals
///      give each thread the tile items before its row, and the tile's aggregate, which is
///      published at once.
///   3. After a short sleep (first_delay: most predecessors publish meanwhile, so fewer status
///      reads find nothing), the look-back finds the tile's prefix.
///   4. Each lane scans its row again from its prefix, in place; the warp streams the segment
///      out with coalesced 16-byte stores.
/// A warp only ever touches its own segment, so only __syncwarp separates its steps; the
/// block meets twice (warp totals, look-back). The items stay in shared memory across the
/// look-back, so the registers hold nothing but the row's prefix there.
template <int KV, int MaxThreads, int MinBlocks, class T, class Op>
__global__ void __launch_bounds__(MaxThreads, MinBlocks)
    blocked_kernel(const T* in, T* out, std::int64_t n, Op op, bool exclusive, T init, T* total,
                   const __grid_constant__ tree<T> tr, unsigned long long* tile_counter,
                   unsigned backoff, unsigned first_delay, bool prefetch) {
  using layout = blocked_layout<KV>;
  constexpr int V = tile::vector_items<T>();
  constexpr int K = KV * V;  // items per lane row
  static_assert(V * sizeof(T) == 16, "the blocked tile needs 16-byte vectors");
  extern __shared__ uint4 segments[];
  __shared__ T warp_totals[32];
  __shared__ T level_sums[max_levels];
  __shared__ std::int64_t tile_id;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::int64_t tile_items = std::int64_t{blockDim.x} * K;
  prefetch_guessed_tile(prefetch, in, n, tile_items);
  wait_for_previous_grid();  // the tree's clearing (this kernel follows it as a dependent)
  if (threadIdx.x == 0) {
    const std::int64_t id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
    if (tr.load_window > 0 && id >= tr.load_window) wait_for_landed(tr.landed, id - tr.load_window + 1, backoff);
    tile_id = id;
  }
  __syncthreads();
  const std::int64_t t = tile_id;
  const std::int64_t begin = t * tile_items;
  const std::int64_t seg_begin = begin + std::int64_t{warp} * 32 * K;
  const std::int64_t seg_valid = n - seg_begin;  // items of the segment that exist (may be <= 0)
  const bool seg_full = seg_valid >= 32 * K;
  uint4* seg = segments + warp * layout::segment_vectors;
  uint4* row = seg + lane * layout::row_vectors;

  // --- Phase 1: load the segment (items past the end are the identity) ---
  if (seg_full) {
    const uint4* src = reinterpret_cast<const uint4*>(in + seg_begin) + lane;
    uint4 w[KV];
#pragma unroll
    for (int v = 0; v < KV; ++v) w[v] = __ldcs(src + v * 32);  // read once: evict-first
#pragma unroll
    for (int v = 0; v < KV; ++v) seg[layout::slot(v * 32 + lane)] = w[v];
  } else {
#pragma unroll
    for (int v = 0; v < KV; ++v) {
      const int g = v * 32 + lane;
      T a[V];
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const std::int64_t i = std::int64_t{g} * V + j;
        a[j] = i < seg_valid ? in[seg_begin + i] : op.identity();
      }
      memcpy(&seg[layout::slot(g)], a, sizeof(a));
    }
  }
  __syncwarp();

  // --- Phase 2: row totals, the block scan of the rows, publish the aggregate ---
  T row_total;
  {
    T a[V];
    memcpy(a, &row[0], sizeof(a));
    row_total = a[0];
#pragma unroll
    for (int j = 1; j < V; ++j) row_total = op(row_total, a[j]);
#pragma unroll
    for (int c = 1; c < KV; ++c) {
      memcpy(a, &row[c], sizeof(a));
#pragma unroll
      for (int j = 0; j < V; ++j) row_total = op(row_total, a[j]);
    }
  }
  T aggregate;
  const T before_row = tile::block_exclusive_scan(row_total, op, warp_totals, aggregate);
  if (threadIdx.x == 0) {
    if (tr.levels > 0) tr.level[0].publish(t, aggregate);
    if (tr.load_window > 0) atomicAdd(tr.landed, 1ull);  // every load of the tile has landed
  }

  // --- Phase 3: look back ---
  if (first_delay != 0 && warp < tr.levels) __nanosleep(first_delay);
  look_back<true>(tr, t, aggregate, op, backoff, level_sums);
  __syncthreads();
  const T tile_prefix = tile_prefix_of(tr, level_sums, init, op);
  if (threadIdx.x == 0 && total && begin + tile_items >= n) *total = op(tile_prefix, aggregate);

  // --- Phase 4: scan the row from its prefix, in place, and stream the segment out ---
  scan_row_in_place<KV, V>(row, op(tile_prefix, before_row), exclusive, op);
  __syncwarp();
  if (seg_full) {
    uint4* dst = reinterpret_cast<uint4*>(out + seg_begin) + lane;
#pragma unroll
    for (int v = 0; v < KV; ++v) __stcs(dst + v * 32, seg[layout::slot(v * 32 + lane)]);
  } else {
#pragma unroll
    for (int v = 0; v < KV; ++v) {
      const int g = v * 32 + lane;
      T a[V];
      memcpy(a, &seg[layout::slot(g)], sizeof(a));
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const std::int64_t i = std::int64_t{g} * V + j;
        if (i < seg_valid) out[seg_begin + i] = a[j];
      }
    }
  }
}

}  // namespace scankit::cuda::detail::decoupled_lookback
