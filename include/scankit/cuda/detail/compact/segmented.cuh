// The single-pass compaction's segmented tile: each warp compacts its own contiguous segment.
#pragma once

#include "scankit/cuda/detail/compact/tile_common.cuh"

namespace scankit::cuda::detail::compact {

/// The segmented tile: the scan's blocked tile (scan/blocked.cuh) applied
/// to compaction. A tile is blockDim.x * KV 16-byte vectors; warp w owns the contiguous
/// segment of 32 * KV of them starting at w * 32 * KV, and compacts it on its own:
///   1. the warp loads its segment with KV coalesced 16-byte loads per lane (all in flight at
///      once); column v of the segment is vector v * 32 + lane of every lane;
///   2. column by column, in memory order, the lanes evaluate the selector, rank their
///      selected items with one ballot per bit of the per-lane count, and store them to the
///      warp's shared-memory segment at their rank (a partition's rejected items go to the
///      other end, backwards), so no block-wide scan is needed to stage;
///   3. the block meets once to add up the warps' counts (the tile's count, published at
///      once) and once more after the look-back;
///   4. each warp streams its staged run(s) out with the 16-byte stores of write_run.
/// The medium tile's chain per tile is barrier -> block scan (3 barriers) -> staging ->
/// look-back -> barrier -> write-out; here the per-item work before the look-back is
/// warp-local and the tile is 1.5x bigger (12,288 four-byte items) at 4 blocks per SM, so
/// a tile's wait for its predecessors is spread over more bytes in flight.
/// For items of 4 and 8 bytes (one 16-byte vector holds V of them), with items written and
/// no indices, 256 threads, both pointers 16-byte aligned; other calls take the small or
/// medium tile, as automatic would.
template <int KV>
constexpr std::size_t segmented_smem_bytes(int block) {
  return static_cast<std::size_t>(block / 32) * (32 * KV + 1) * 16;  // + 1: write_run's spare vector
}

template <int KV, int MinBlocks, class Sel>
__global__ void __launch_bounds__(256, MinBlocks)
    segmented_kernel(const typename Sel::item_type* in, std::int64_t n, Sel sel, outputs<typename Sel::item_type> out,
                     const __grid_constant__ lookback::tree<count_t> tr, unsigned long long* tile_counter,
                     unsigned first_delay, bool prefetch) {
  using T = typename Sel::item_type;
  constexpr int V = tile::vector_items<T>();
  static_assert(V * sizeof(T) == 16 && V <= 4 && Sel::reads_items, "the segmented tile needs 16-byte vectors of items");
  constexpr int SEG = 32 * KV * V;  // items per warp segment
  extern __shared__ uint4 segments[];
  __shared__ int warp_counts[32];
  __shared__ std::int64_t tile_id_s;
  __shared__ count_t level_sums[lookback::max_levels];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  const std::int64_t tile_items = std::int64_t{warps} * SEG;
  wait_for_previous_grid();  // the tree's clearing (this kernel follows it as a dependent)
  if (prefetch && threadIdx.x == 0) {  // the guess prefetch (prefetch_guessed_tile)
    const std::int64_t first = blockIdx.x * tile_items;
    if (first < n) prefetch_l2(in + first, static_cast<std::size_t>(n - first < tile_items ? n - first : tile_items) * sizeof(T));
  }
  if (threadIdx.x == 0) tile_id_s = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
  __syncthreads();
  const std::int64_t t = tile_id_s;
  const std::int64_t begin = t * tile_items;
  const std::int64_t seg_begin = begin + std::int64_t{warp} * SEG;
  const std::int64_t seg_left = n - seg_begin;  // items of the segment that exist, if below SEG (may be <= 0)
  const bool seg_full = seg_left >= SEG;
  const int seg_valid = seg_full ? SEG : (seg_left > 0 ? static_cast<int>(seg_left) : 0);
  T* stage = reinterpret_cast<T*>(segments + warp * (32 * KV + 1));

  // --- Phase 1: load the segment ---
  // The lane's vector v is vector v * 32 + lane of the segment.
  T x[KV][V];
  if (seg_full) {
    const uint4* src = reinterpret_cast<const uint4*>(in + seg_begin) + lane;
#pragma unroll
    for (int v = 0; v < KV; ++v) {
      const uint4 w = __ldcs(src + v * 32);  // read once: evict-first
      memcpy(&x[v][0], &w, 16);
    }
  } else {
#pragma unroll
    for (int v = 0; v < KV; ++v)
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const int i = (v * 32 + lane) * V + j;
        x[v][j] = i < seg_valid ? in[seg_begin + i] : T{};
      }
  }
  // select_flagged: each vector's flags in one load where they make an aligned word.
  [[maybe_unused]] unsigned flag_masks[has_flag_words<Sel> ? KV : 1];
  [[maybe_unused]] bool flag_words = false;
  if constexpr (has_flag_words<Sel>) {
    flag_words = seg_full && sel.template words_aligned<V>();
    if (flag_words) {
#pragma unroll
      for (int v = 0; v < KV; ++v) flag_masks[v] = sel.template flag_word<V>(seg_begin + (v * 32 + lane) * V);
    }
  }
  // unique: the item before the segment (lane 0 of column 0 needs it).
  T edge{};
  if constexpr (Sel::needs_prev) {
    if (lane == 0 && seg_begin > 0 && seg_valid > 0) edge = in[seg_begin - 1];
  }

  // --- Phase 2: select and stage column by column ---
  // A lane's count in a column is at most V <= 4, so its warp
  // prefix is the sum over the count's bits b of 2^b * (lanes below with bit b set).
  const bool partition = out.mode != layout::select;
  const unsigned below = (1u << lane) - 1u;
  int selected = 0, rejected = 0;  // the warp's so far (warp-uniform)
#pragma unroll
  for (int v = 0; v < KV; ++v) {
    T up{};
    if constexpr (Sel::needs_prev) {
      up = shfl_up(x[v][V - 1], 1);
      const T from_last_lane = shfl_idx(x[v > 0 ? v - 1 : 0][V - 1], 31);
      if (lane == 0) up = v > 0 ? from_last_lane : edge;
    }
    const int first = (v * 32 + lane) * V;  // the lane's first item in the segment
    unsigned m = 0;
    if (flag_words) {
      m = flag_masks[has_flag_words<Sel> ? v : 0];
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j) {
        // (Items past the end are not given to the selector: a flag selector would read past
        // its flags.)
        bool s = seg_full || first + j < seg_valid;
        if constexpr (Sel::needs_prev) s = s && sel(seg_begin + first + j, x[v][j], j > 0 ? x[v][j > 0 ? j - 1 : 0] : up);
        else s = s && sel(seg_begin + first + j, x[v][j], x[v][j]);
        if (s) m |= 1u << j;
      }
    }
    const int c = __popc(m);
    int pre = 0, total = 0;
#pragma unroll
    for (int b = 0; (1 << b) <= V; ++b) {
      const unsigned bits = __ballot_sync(0xffffffffu, (c >> b) & 1);
      pre += __popc(bits & below) << b;
      total += __popc(bits) << b;
    }
    if (m != 0) {
#pragma unroll
      for (int j = 0; j < V; ++j)
        if ((m >> j) & 1u) stage[selected + pre + __popc(m & ((1u << j) - 1u))] = x[v][j];
    }
    if (partition) {
      // Valid items are a prefix of the segment: the column's and those before the lane's.
      const int col_first = v * 32 * V;
      const int col_valid = seg_valid - col_first < 0 ? 0 : (seg_valid - col_first < 32 * V ? seg_valid - col_first : 32 * V);
      const int valid_before = col_valid < lane * V ? col_valid : lane * V;
      const int rpre = rejected + valid_before - pre;  // the warp's rejected items before the lane's
#pragma unroll
      for (int j = 0; j < V; ++j)
        if (!((m >> j) & 1u) && first + j < seg_valid)
          stage[SEG - 1 - (rpre + j - __popc(m & ((1u << j) - 1u)))] = x[v][j];
      rejected += col_valid - total;
    }
    selected += total;
  }

  // --- Phase 3: the tile's count (published at once), the warp's place in it, the look-back ---
  if (lane == 0) warp_counts[warp] = selected;
  __syncthreads();
  int warp_before = 0, tile_selected = 0;
  for (int w = 0; w < warps; ++w) {
    const int c = warp_counts[w];
    warp_before += w < warp ? c : 0;
    tile_selected += c;
  }
  if (threadIdx.x == 0) publish_count(tr, t, static_cast<count_t>(tile_selected));
  if (first_delay != 0 && warp < tr.levels) __nanosleep(first_delay);
  const std::int64_t before = count_before(tr, t, static_cast<count_t>(tile_selected), level_sums);
  if (threadIdx.x == 0 && out.count && begin + tile_items >= n) *out.count = before + tile_selected;

  // --- Phase 4: write out ---
  // Each warp writes its runs: selected items to before + warp_before ...; a partition's
  // rejected ones after all selected items, k-th rejected of the segment at stage[SEG-1-k].
  write_run<V>(out.items, before + warp_before, selected, stage, 0, false, lane, 32);
  if (partition && rejected > 0) {
    const std::int64_t rejected_before = (begin - before) + (std::int64_t{warp} * SEG - warp_before);
    if (out.mode == layout::partition_reversed)  // the k-th goes to n - 1 - (rejected_before + k)
      write_run<V>(out.items, n - rejected_before - rejected, rejected, stage, SEG - rejected, false, lane, 32);
    else
      write_run<V>(out.items, *out.selected_total + rejected_before, rejected, stage, SEG - 1, true, lane, 32);
  }
}

}  // namespace scankit::cuda::detail::compact
