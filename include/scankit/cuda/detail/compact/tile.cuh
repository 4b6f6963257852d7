// single-pass: stream compaction in one launch (after Merrill & Garland's decoupled
// look-back, applied to the counts of selected items).
//
// Each block takes the next tile id from an atomic counter (so a tile only ever waits for
// tiles handed out before it, which are already running: no deadlock whatever the
// scheduling order), then:
//   1. loads its tile with 16-byte vector loads (the tile layout of tile_scan.cuh) and
//      evaluates the selector on every item;
//   2. scans the 0/1 flags across the block: every item gets its rank among the tile's
//      selected items, and the tile its count;
//   3. publishes the count as the tile's aggregate, and stages the selected items (for a
//      partition also the rejected ones, after them) in shared memory in output order;
//   4. looks back (one warp) over the predecessors' published values for the number of
//      items selected before the tile, and publishes its own inclusive count;
//   5. copies the staged items to the output: consecutive threads write consecutive
//      addresses, so stores are coalesced whatever the selection pattern.
// Staging before the look-back (3 before 4) hides the wait for the predecessors behind
// useful work.
//
// This file: the small and medium tiles' kernel.
#pragma once

#include "scankit/cuda/detail/compact/tile_common.cuh"

namespace scankit::cuda::detail::compact {

template <int R, int MinBlocks, int V, class Sel>
__global__ void __launch_bounds__(256, MinBlocks)
    single_pass_kernel(const typename Sel::item_type* in, std::int64_t n, Sel sel,
                       outputs<typename Sel::item_type> out,
                       const __grid_constant__ lookback::tree<count_t> tr,
                       unsigned long long* tile_counter, bool vec, bool vec_out, bool prefetch) {
  using T = typename Sel::item_type;
  extern __shared__ __align__(16) unsigned char stage_raw[];
  __shared__ int warp_sums[32];
  __shared__ std::int64_t tile_id_s;
  __shared__ count_t level_sums[lookback::max_levels];
  const int tid = threadIdx.x;
  const std::int64_t B = blockDim.x;
  const std::int64_t tile_items = R * B * V;
  wait_for_previous_grid();  // the tree's clearing (this kernel follows it as a dependent)
  if constexpr (Sel::reads_items) {
    if (prefetch && tid == 0) {  // the guess prefetch (prefetch_guessed_tile)
      const std::int64_t first = blockIdx.x * tile_items;
      if (first < n) prefetch_l2(in + first, static_cast<std::size_t>(n - first < tile_items ? n - first : tile_items) * sizeof(T));
    }
  }
  if (tid == 0) tile_id_s = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
  __syncthreads();
  const std::int64_t t = tile_id_s;
  const std::int64_t begin = t * tile_items;
  const std::int64_t valid = n - begin < tile_items ? n - begin : tile_items;

  // --- Phase 1: load and select ---
  // Bit r*V + j of `mask` is set for a selected item.
  static_assert(R * V <= 64, "selection mask is 64 bits");
  using mask_t = std::conditional_t<(R * V > 32), unsigned long long, unsigned>;
  T x[R][V];
  if constexpr (Sel::reads_items) {
    if constexpr (V * sizeof(T) == 16) {
      if (vec) tile::load<R, V, true>(in, begin, valid, x, T{});
      else tile::load<R, V, false>(in, begin, valid, x, T{});
    } else {
      tile::load<R, V, false>(in, begin, valid, x, T{});
    }
  }
  // unique: the item before each vector comes from the neighbouring lane; lane 0 loads it
  // (issued next to the tile's loads, so the latencies overlap).
  T up[Sel::needs_prev ? R : 1];
  if constexpr (Sel::needs_prev) {
    T edge[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const std::int64_t p0 = (r * B + tid) * V;
      edge[r] = ((tid & 31) == 0 && p0 < valid && begin + p0 > 0) ? in[begin + p0 - 1] : T{};
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      up[r] = shfl_up(x[r][V - 1], 1);
      if ((tid & 31) == 0) up[r] = edge[r];
    }
  }
  // In-tile positions are 32-bit (a tile is far below 2^31 items): 64-bit ones, one per item,
  // pushed the kernel past its register budget into spills.
  const int tile_valid = static_cast<int>(valid), threads = static_cast<int>(B);
  const bool full = valid == tile_items;
  auto selected_at = [&](int r, int j) {
    const int p = (r * threads + tid) * V + j;
    if constexpr (!Sel::reads_items) return sel(begin + p, T{}, T{});
    else if constexpr (Sel::needs_prev) return sel(begin + p, x[r][j], j > 0 ? x[r][j > 0 ? j - 1 : 0] : up[r]);
    else return sel(begin + p, x[r][j], x[r][j]);
  };
  mask_t mask = 0;
  if (full) {  // two loops, so that whole tiles carry no bounds test per item
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int j = 0; j < V; ++j) mask |= static_cast<mask_t>(selected_at(r, j) ? 1u : 0u) << (r * V + j);
  } else {
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int j = 0; j < V; ++j)
        if ((r * threads + tid) * V + j < tile_valid)
          mask |= static_cast<mask_t>(selected_at(r, j) ? 1u : 0u) << (r * V + j);
  }

  // --- Phase 2: ranks ---
  // Scan the per-vector counts across the block (the tile scan with one item per
  // vector); pre[r] is then the number of selected tile items before the thread's vector r.
  constexpr mask_t vmask = V >= 64 ? ~mask_t{0} : (mask_t{1} << V) - 1u;
  int cnt[R], pre[R];
#pragma unroll
  for (int r = 0; r < R; ++r) cnt[r] = __popcll(static_cast<unsigned long long>((mask >> (r * V)) & vmask));
  // The block scan rakes through shared memory (tile::raking_scan_tile): one warp scan per
  // tile instead of one per vector. Its buffer lies after the staging areas, so staging needs
  // no extra barrier.
  int* rake = reinterpret_cast<int*>(
      stage_raw + stage_bytes<T>(tile_items, out.items != nullptr && Sel::reads_items, out.indices != nullptr));
  const int selected = tile::raking_scan_tile(cnt, pre, sum<int>{}, rake, warp_sums);
  if (tid == 0) publish_count(tr, t, static_cast<count_t>(selected));

  // --- Phase 3: stage in output order ---
  // Selected items at their rank; for a partition the rejected
  // ones after all selected, at (count selected) + (rejected before them).
  const bool partition = out.mode != layout::select;
  T* stage_items = reinterpret_cast<T*>(stage_raw);
  unsigned* stage_pos = reinterpret_cast<unsigned*>(
      stage_raw + (out.items ? align_up(static_cast<std::size_t>(tile_items) * sizeof(T) + 16, 16) : 0));
  // (One kernel serves every layout: it waits on memory and on the look-back, not on
  // instruction issue, and a second kernel without the run-time branches for partitions and
  // indices did not run faster: docs/TUNING.md.)
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const unsigned mine = static_cast<unsigned>((mask >> (r * V)) & vmask);  // V <= 16 bits
    if (!partition && mine == 0) continue;  // most vectors at a low selectivity
#pragma unroll
    for (int j = 0; j < V; ++j) {
      const int p = (r * threads + tid) * V + j;
      const int rank = pre[r] + __popc(mine & ((1u << j) - 1u));  // selected before item p
      const bool s = (mine >> j) & 1u;
      int slot = -1;
      if (s) slot = rank;
      else if (partition && p < tile_valid) slot = selected + (p - rank);
      if (slot >= 0) {
        if constexpr (Sel::reads_items) {
          if (out.items) stage_items[slot] = x[r][j];
        }
        if (out.indices) stage_pos[slot] = static_cast<unsigned>(p);
      }
    }
  }

  // --- Phase 4: look back (count_before: one warp over the counts tree) ---
  const std::int64_t before = count_before(tr, t, static_cast<count_t>(selected), level_sums);
  if (tid == 0 && out.count && begin + valid == n) *out.count = before + selected;

  // --- Phase 5: write the staged items out, coalesced ---
  // Selected items to [before, before + selected);
  // a partition's rejected ones after all selected items (reversed: from the end down).
  const std::int64_t rejected_before = begin - before;
  const int rejected = partition ? static_cast<int>(valid) - selected : 0;
  if constexpr (Sel::reads_items && V > 1 && sizeof(T) >= 4) {
    if (out.items && vec_out && !out.indices) {
      write_run<V>(out.items, before, selected, stage_items, 0, false);
      if (out.mode == layout::partition_reversed)
        write_run<V>(out.items, n - rejected_before - rejected, rejected, stage_items, selected + rejected - 1, true);
      else if (out.mode == layout::partition_original)
        write_run<V>(out.items, *out.selected_total + rejected_before, rejected, stage_items, selected, false);
      return;
    }
  }
  const std::int64_t total = out.mode == layout::partition_original ? *out.selected_total : 0;
  const int to_write = selected + rejected;
  for (int k = tid; k < to_write; k += static_cast<int>(B)) {
    std::int64_t dst;
    if (k < selected) dst = before + k;
    else if (out.mode == layout::partition_reversed) dst = n - 1 - (rejected_before + (k - selected));
    else dst = total + rejected_before + (k - selected);
    if constexpr (Sel::reads_items) {
      if (out.items) out.items[dst] = stage_items[k];
    }
    if (out.indices) out.indices[dst] = begin + stage_pos[k];
  }
}

}  // namespace scankit::cuda::detail::compact
