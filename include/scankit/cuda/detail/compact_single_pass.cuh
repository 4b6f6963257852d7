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
// Look-back. A first version used the classic scheme (one status word per tile; a tile sums
// its predecessors' aggregates back to the nearest inclusive prefix, 32 at a time). On the
// H100 it ran at 58% of a copy: with ~400 tiles resident, the nearest prefix is usually
// hundreds of tiles back, so a tile spends many dependent 32-wide reads walking to it. The
// counts used the radix-32 tree of the scan's look-back (decoupled_lookback.cuh): every
// tile publishes its count at level 0 as soon as it is known, the last tile of each aligned
// run of 32 entries publishes the run's sum one level up, and a tile's prefix is, for each
// level, the sum of the entries before it in its own run of 32. A tile waits only for recent
// aggregates, never for a chain of prefixes. Since session 17 they use the counts tree
// (counts_tree below): the same levels, but every tile adds its count to its entry at each
// level with an atomic add, so an upper entry is complete as soon as its last tile's count
// lands, without waiting for that tile's look-back to publish it. Counts are integers, so the
// result is exact and deterministic either way.
#pragma once

#include "scankit/cuda/detail/bulk_copy.cuh"
#include "scankit/cuda/detail/compact_select.cuh"
#include "scankit/cuda/detail/decoupled_lookback.cuh"  // relaxed loads and stores

namespace scankit::cuda::detail::compact {

using count_t = unsigned long long;
/// Sleep between polls of a predecessor's entry. H100, 2^28 uint32 (2026-11-21, session 5):
/// 32 ns was best; 128 ns tied, 512 ns lost 6% at 1% selected, and sleeping 500-1000 ns
/// before the first poll (as CUB does) lost 2-6% (docs/results/session5-round2.log).
inline constexpr unsigned lookback_backoff_ns = 32;

/// The tree of counts (session 17). The same levels as the scan's
/// radix-32 tree, but one 64-bit word per entry: the count in the low `value_bits` bits and,
/// above them, how many tiles have added to it. A tile stores its own level-0 entry and adds
/// itself to its entry at every level above with a fire-and-forget atomic (red.add), so an
/// upper entry is complete the moment its last tile's count lands: nobody has to look back
/// first and publish it. (The scan's scheme, where the last tile of a run publishes the run's
/// sum one level up after seeing the run complete, left each look-back waiting 4.8 us on
/// average after its last predecessor had published, at 2^28 uint32 half selected: two or
/// three more polling round trips per level; docs/results/session17-round3.log.) Counts are
/// integers, so adding them in any order is exact.
namespace counts_tree {
inline constexpr int value_bits = 40;  // counts of up to 2^40 items per entry
inline constexpr int max_levels = 5;   // level k needs 5k + 1 bits of arrivals; 24 are left
inline constexpr unsigned long long value_mask = (1ull << value_bits) - 1;

__device__ __forceinline__ void add_relaxed(unsigned long long* p, unsigned long long v) {
  asm volatile("red.relaxed.gpu.global.add.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/// Tile t's count, at every level (one thread).
__device__ __forceinline__ void publish(const decoupled_lookback::tree<count_t>& tr, std::int64_t t, count_t count) {
  const unsigned long long word = (1ull << value_bits) | count;
  decoupled_lookback::store_relaxed(tr.level[0].words + t, word);
#pragma unroll
  for (int k = 1; k < max_levels; ++k)
    if (k < tr.levels) add_relaxed(tr.level[k].words + (t >> (5 * k)), word);
}

/// The number of items selected before tile t (one warp; every lane gets it): at each level,
/// lane i waits for entry i of the aligned run of 32 before the tile's index there to be
/// complete (all 32^level tiles added), all levels' loads in flight together.
__device__ __forceinline__ std::int64_t look_back(const decoupled_lookback::tree<count_t>& tr, std::int64_t t) {
  const int lane = threadIdx.x & 31;
  unsigned pending = 0;  // bit k: this lane still waits for its entry of level k
  count_t found = 0;
#pragma unroll
  for (int k = 0; k < max_levels; ++k) {
    const std::int64_t idx = t >> (5 * k);
    if (k < tr.levels && (idx & ~std::int64_t{31}) + lane < idx) pending |= 1u << k;
  }
  while (__any_sync(0xffffffffu, pending != 0)) {
    unsigned long long w[max_levels];
#pragma unroll
    for (int k = 0; k < max_levels; ++k)
      if ((pending >> k) & 1u) w[k] = decoupled_lookback::load_relaxed(tr.level[k].words + ((t >> (5 * k)) & ~std::int64_t{31}) + lane);
#pragma unroll
    for (int k = 0; k < max_levels; ++k)
      if (((pending >> k) & 1u) && (w[k] >> value_bits) == (1ull << (5 * k))) found += w[k] & value_mask, pending &= ~(1u << k);
    if (__any_sync(0xffffffffu, pending != 0)) __nanosleep(lookback_backoff_ns);
  }
  return static_cast<std::int64_t>(warp_reduce(found, sum<count_t>{}));
}
}  // namespace counts_tree

/// Tile t's count, from one thread of the kernels that look back with the whole block
/// (single_pass_kernel, segmented_kernel): into the counts tree where the tree's levels fit it,
/// else (over 2^25 tiles) into the scan's tree.
__device__ __forceinline__ void publish_count(const decoupled_lookback::tree<count_t>& tr, std::int64_t t, count_t count) {
  if (tr.levels == 0) return;
  if (tr.levels <= counts_tree::max_levels) counts_tree::publish(tr, t, count);
  else tr.level[0].publish(t, count);
}

/// The items selected before tile t, for those kernels; every thread of the block calls it (it
/// holds a __syncthreads) and gets the result. The counts tree needs one warp; the scan's tree
/// one warp per level, whose level-0 warp publishes the upper entries this tile completes.
__device__ __forceinline__ std::int64_t count_before(const decoupled_lookback::tree<count_t>& tr, std::int64_t t,
                                                     count_t count, count_t* level_sums) {
  std::int64_t before = 0;
  if (tr.levels <= counts_tree::max_levels) {
    if (threadIdx.x < 32) {
      const std::int64_t found = counts_tree::look_back(tr, t);
      if (threadIdx.x == 0) level_sums[0] = static_cast<count_t>(found);
    }
    __syncthreads();
    before = static_cast<std::int64_t>(level_sums[0]);
  } else {
    decoupled_lookback::look_back(tr, t, count, sum<count_t>{}, lookback_backoff_ns, level_sums);
    __syncthreads();
    for (int k = 0; k < tr.levels; ++k) before += static_cast<std::int64_t>(level_sums[k]);
  }
  return before;
}

/// Shared memory for staging: items (when written) then tile positions (when indices are).
template <class T>
constexpr std::size_t stage_bytes(std::int64_t tile_items, bool items, bool indices) {
  // Items get one spare 16-byte vector: the vectorised write-out reads whole vectors.
  return (items ? align_up(static_cast<std::size_t>(tile_items) * sizeof(T) + 16, 16) : 0) +
         (indices ? static_cast<std::size_t>(tile_items) * sizeof(unsigned) : 0);
}

/// Copies `count` staged items to out[g0 .. g0 + count) with 16-byte stores. Output item g0 + j is stage[s0 + j], or stage[s0 - j] when `reversed`. Whole
/// aligned output vectors are assembled from two aligned shared-memory vectors shifted by
/// the (block-uniform) misalignment between the two sides; the partial vectors at either end
/// are written item by item. `out` must be 16-byte aligned; stage needs one spare vector.
/// `tid` of `B` threads share the work: the whole block by default, or one warp (lane, 32).
template <int V, class T>
__device__ __forceinline__ void write_run(T* out, std::int64_t g0, int count, const T* stage, int s0, bool reversed,
                                          int tid = threadIdx.x, int B = blockDim.x) {
  if (count <= 0) return;
  const int head = static_cast<int>((V - g0 % V) % V) < count ? static_cast<int>((V - g0 % V) % V) : count;
  const int vectors = (count - head) / V;
  auto stage_of = [&](int j) { return reversed ? s0 - j : s0 + j; };
  for (int j = tid; j < head; j += B) out[g0 + j] = stage[stage_of(j)];
  // Vector m covers output items j = head + m*V + i (i < V). Their staged items are the V
  // consecutive ones starting at q (ascending; reversed runs read them backwards).
  const int q0 = reversed ? s0 - head - (V - 1) : s0 + head;
  const int shift = ((q0 % V) + V) % V;
  const uint4* sv = reinterpret_cast<const uint4*>(stage);
  for (int m = tid; m < vectors; m += B) {
    const int q = reversed ? q0 - m * V : q0 + m * V;
    const int c = (q - shift) / V;
    T w[2 * V];
    const uint4 lo = sv[c], hi = sv[c + 1];
    memcpy(&w[0], &lo, 16);
    memcpy(&w[V], &hi, 16);
    T o[V];
#pragma unroll
    for (int sft = 0; sft < V; ++sft)
      if (sft == shift) {
#pragma unroll
        for (int i = 0; i < V; ++i) o[i] = reversed ? w[sft + V - 1 - i] : w[sft + i];
      }
    uint4 v;
    memcpy(&v, o, 16);
    __stcs(reinterpret_cast<uint4*>(out + g0 + head + static_cast<std::int64_t>(m) * V), v);
  }
  for (int j = head + vectors * V + tid; j < count; j += B) out[g0 + j] = stage[stage_of(j)];
}

template <int R, int MinBlocks, int V, class Sel>
__global__ void __launch_bounds__(256, MinBlocks)
    single_pass_kernel(const typename Sel::item_type* in, std::int64_t n, Sel sel,
                       outputs<typename Sel::item_type> out,
                       const __grid_constant__ decoupled_lookback::tree<count_t> tr,
                       unsigned long long* tile_counter, bool vec, bool vec_out, bool prefetch) {
  using T = typename Sel::item_type;
  extern __shared__ __align__(16) unsigned char stage_raw[];
  __shared__ int warp_sums[32];
  __shared__ std::int64_t tile_id_s;
  __shared__ count_t level_sums[decoupled_lookback::max_levels];
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

  // 1. Load and select: bit r*V + j of `mask` is set for a selected item.
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
  //    (issued next to the tile's loads, so the latencies overlap).
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

  // 2. Ranks: scan the per-vector counts across the block (the tile scan with one item per
  //    vector); pre[r] is then the number of selected tile items before the thread's vector r.
  constexpr mask_t vmask = V >= 64 ? ~mask_t{0} : (mask_t{1} << V) - 1u;
  int cnt[R], pre[R];
#pragma unroll
  for (int r = 0; r < R; ++r) cnt[r] = __popcll(static_cast<unsigned long long>((mask >> (r * V)) & vmask));
  //    The block scan rakes through shared memory (tile::raking_scan_tile): one warp scan per
  //    tile instead of one per vector. On the H100 (session 6) that alone took select_if from
  //    0.84/0.88/1.03x CUB to 0.94/0.98/1.06x at 1/50/99% and unique from 0.85x to 1.06x
  //    (docs/results/session6-compact-raking.log). Its buffer lies after the staging areas,
  //    so staging needs no extra barrier.
  int* rake = reinterpret_cast<int*>(
      stage_raw + stage_bytes<T>(tile_items, out.items != nullptr && Sel::reads_items, out.indices != nullptr));
  const int selected = tile::raking_scan_tile(cnt, pre, sum<int>{}, rake, warp_sums);
  if (tid == 0) publish_count(tr, t, static_cast<count_t>(selected));

  // 3. Stage in output order: selected items at their rank; for a partition the rejected
  //    ones after all selected, at (count selected) + (rejected before them).
  const bool partition = out.mode != layout::select;
  T* stage_items = reinterpret_cast<T*>(stage_raw);
  unsigned* stage_pos = reinterpret_cast<unsigned*>(
      stage_raw + (out.items ? align_up(static_cast<std::size_t>(tile_items) * sizeof(T) + 16, 16) : 0));
  // (Session 7 measured a second kernel for plain selects, compiled without this loop's
  // run-time branches for partitions and indices: Nsight Compute counted 192 M warp
  // instructions against 346 M at 2^28 uint32 and half selected, yet it ran 1-3% slower, and
  // unique 11% slower; docs/results/session7-round3.log. The kernel waits on memory and on
  // the look-back, not on instruction issue.)
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

  // 4. Look back (count_before: one warp over the counts tree).
  const std::int64_t before = count_before(tr, t, static_cast<count_t>(selected), level_sums);
  if (tid == 0 && out.count && begin + valid == n) *out.count = before + selected;

  // 5. Write the staged items out, coalesced: selected items to [before, before + selected);
  //    a partition's rejected ones after all selected items (reversed: from the end down).
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

/// The segmented tile (session 14): the scan's blocked tile (decoupled_lookback.cuh) applied
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
/// The medium tile's chain per tile was barrier -> block scan (3 barriers) -> staging ->
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
                     const __grid_constant__ decoupled_lookback::tree<count_t> tr, unsigned long long* tile_counter,
                     unsigned first_delay, bool prefetch) {
  using T = typename Sel::item_type;
  constexpr int V = tile::vector_items<T>();
  static_assert(V * sizeof(T) == 16 && V <= 4 && Sel::reads_items, "the segmented tile needs 16-byte vectors of items");
  constexpr int SEG = 32 * KV * V;  // items per warp segment
  extern __shared__ uint4 segments[];
  __shared__ int warp_counts[32];
  __shared__ std::int64_t tile_id_s;
  __shared__ count_t level_sums[decoupled_lookback::max_levels];
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

  // 1. Load the segment: lane's vector v is vector v * 32 + lane of the segment.
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

  // 2. Stage column by column. A lane's count in a column is at most V <= 4, so its warp
  //    prefix is the sum over the count's bits b of 2^b * (lanes below with bit b set).
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

  // 3. The tile's count (published at once) and the warp's place in it; the look-back.
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

  // 4. Each warp writes its runs: selected items to before + warp_before ...; a partition's
  //    rejected ones after all selected items, k-th rejected of the segment at stage[SEG-1-k].
  write_run<V>(out.items, before + warp_before, selected, stage, 0, false, lane, 32);
  if (partition && rejected > 0) {
    const std::int64_t rejected_before = (begin - before) + (std::int64_t{warp} * SEG - warp_before);
    if (out.mode == layout::partition_reversed)  // the k-th goes to n - 1 - (rejected_before + k)
      write_run<V>(out.items, n - rejected_before - rejected, rejected, stage, SEG - rejected, false, lane, 32);
    else
      write_run<V>(out.items, *out.selected_total + rejected_before, rejected, stage, SEG - 1, true, lane, 32);
  }
}

/// The warp-specialized tile (sessions 16-17; Hopper): the scan's specialized_kernel
/// (decoupled_lookback.cuh) applied to compaction. A persistent grid; each block owns `Stages`
/// shared-memory buffers of one tile (Consumers rows of KV 16-byte vectors, in memory order)
/// and splits its warps into three roles, which take the buffers in the same order, each as
/// soon as the role before it is done with it:
///   - the producer (CountWarps warps after the look-back warps): its first warp takes a tile
///     id and starts loading the tile with one bulk copy as soon as a buffer is free; when a
///     tile lands, each producer warp counts the selected items of its share of the rows and
///     keeps each row's exclusive prefix of those counts; the tile's count goes into the
///     counts tree (counts_tree::publish) and the buffer is handed on ("ready");
///   - two look-back warps, taking alternate tiles, find the number of items selected before
///     the tile (counts_tree::look_back) and hand it on ("prefixed");
///   - the consumers (Consumers threads, one row each) take their row into registers, select,
///     move their selected items to their rank in the tile, in place (a partition's rejected
///     items after all selected ones), and once the tile's prefix is known write the run(s) out
///     with coalesced 16-byte stores; then the buffer is free again ("written").
/// Why: with one tile per block nothing is loaded while a tile waits for its predecessors;
/// here the next tile's load is under way meanwhile, and a tile's count waits only for its
/// data. Deadlock freedom as in the scan: every role handles a block's tiles in the order the
/// block took their ids, and no count waits for a look-back.
/// What limits it: a block's two buffers each go round load, count, look-back and write, so
/// the time a buffer spends there sets the speed. Session 16 (docs/results/session16-round
/// {1..7}.log; 2^28 uint32 select_if at 1/50/99% selected against CUB): a bounds test and a
/// branch per item in the count cost 1.7x; whole tiles counted without them, every row
/// unrolled, and big tiles in two buffers gave 1.18/1.14/1.18x. Session 17 traced every tile
/// (tools/experiments/session17_compact_trace.cu, docs/results/session17-round{1..4}.log): at
/// half selected a buffer went round in 12.2 us, 6.3 us of it in the look-back, and 4.8 us of
/// that after the tile's last predecessor had published: the upper tree levels waited for
/// other tiles' look-backs to publish them. With the counts tree (upper entries completed by
/// atomic adds) the buffer goes round in 8.0 us at 1% selected and 10.4 us at half: with one
/// counting warp 1.23/1.20/1.19x, with four over 256 x 13 rows 1.31/1.23/1.20x (1.26x at 2^30,
/// half selected). Four counting warps instead of one shortened the count from 2.1 to 0.8 us.
/// Staging in place: every consumer has its row in registers before any of them writes (a
/// barrier), so the permutation needs no second buffer. The last tile, partial, is read from
/// global memory instead (by the producer to count, by the consumers to stage). Each buffer
/// carries 8 spare vectors after the tile: write_run reads one vector past the last staged one.
template <int Consumers, int KV>
constexpr int specialized_buffer_vectors() {
  return Consumers * KV + 8;
}
inline constexpr int specialized_lookback_warps = 2;  // tiles looked back at once per block

template <int Consumers, int KV, int Stages, int MinBlocks, int CountWarps, class Sel>
__global__ void __launch_bounds__(Consumers + 32 * specialized_lookback_warps + 32 * CountWarps, MinBlocks)
    specialized_kernel(const typename Sel::item_type* in, std::int64_t n, std::int64_t tiles, Sel sel,
                       outputs<typename Sel::item_type> out,
                       const __grid_constant__ decoupled_lookback::tree<count_t> tr,
                       unsigned long long* tile_counter) {
  using T = typename Sel::item_type;
  constexpr int V = tile::vector_items<T>();
  constexpr int K = KV * V;  // items per row
  constexpr std::int64_t tile_items = std::int64_t{Consumers} * K;
  constexpr unsigned tile_bytes = Consumers * KV * 16;
  constexpr int consumer_warps = Consumers / 32, LW = specialized_lookback_warps;
  constexpr int producer_first = Consumers + 32 * LW;  // the producer's first thread
  constexpr int groups_per_counter = consumer_warps / CountWarps;  // groups of 32 rows each counting warp counts
  static_assert(V * sizeof(T) == 16 && KV % 2 == 1 && Consumers % 32 == 0 && K <= 64 && Sel::reads_items);
  static_assert(CountWarps >= 1 && consumer_warps % CountWarps == 0);
  using mask_t = std::conditional_t<(K > 32), unsigned long long, unsigned>;
  // 128-byte aligned, as the scan's (its int32 tile ran 15% slower with only 16).
  extern __shared__ __align__(128) uint4 buffers[];
  // loaded: the bulk copy landed; ready: counts and row prefixes written, tile id set;
  // prefixed: the tile's prefix found; written: every consumer is done with the buffer.
  __shared__ std::uint64_t loaded[Stages], ready[Stages], prefixed[Stages], written[Stages];
  __shared__ std::int64_t buffer_tile[Stages], buffer_before[Stages];
  __shared__ int buffer_count[Stages];
  __shared__ int before_row[Stages][Consumers];
  __shared__ T buffer_edge[Stages];  // unique: the item before the tile
  __shared__ int end_use;  // the use at which the producer ran out of tiles
  __shared__ int counter_total[Stages][CountWarps];  // items each counting warp found selected
  const int tid = threadIdx.x, lane = tid & 31;
  auto buffer = [&](int s) { return buffers + s * specialized_buffer_vectors<Consumers, KV>(); };
  auto valid_of = [&](std::int64_t t) {
    const std::int64_t left = n - t * tile_items;
    return static_cast<int>(left < tile_items ? left : tile_items);
  };
  if (tid == 0) {
    for (int s = 0; s < Stages; ++s) {
      bulk::barrier_init(&loaded[s], 1);
      bulk::barrier_init(&ready[s], 32 * CountWarps);
      bulk::barrier_init(&prefixed[s], 1);
      bulk::barrier_init(&written[s], Consumers);
    }
    bulk::fence_barrier_init();
    end_use = 0x7fffffff;
  }
  wait_for_previous_grid();  // the tree's clearing (this kernel follows it as a dependent)
  __syncthreads();

  if (tid >= producer_first) {
    // The producer: CountWarps warps. Warp 0 also takes the tile ids and issues the loads.
    // Use j of the buffers is buffer j % Stages, phase (j / Stages) & 1.
    const int pw = (tid - producer_first) >> 5;
    __shared__ std::int64_t issued_tile[Stages];
    auto issue = [&](int u) {  // warp 0: takes the tile id of use u and starts loading a whole tile
      const int s = u % Stages;
      // Every lane has read the slot's previous id. (Without this barrier only the warp's
      // shuffles in between ordered those reads before lane 0's write: racecheck warned, round 8.)
      __syncwarp();
      if (lane == 0) {
        const auto t = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
        issued_tile[s] = t;
        // `loaded` completes once per use, with the bytes of a whole tile or at once: the
        // other counting warps learn the tile id after waiting on it.
        if (t < tiles && valid_of(t) == tile_items) {
          bulk::arrive_expect_bytes(&loaded[s], tile_bytes);
          bulk::load(buffer(s), in + t * tile_items, tile_bytes, &loaded[s]);
        } else {
          bulk::arrive(&loaded[s]);
        }
      }
      __syncwarp();
      return issued_tile[s];
    };
    bool more = true;  // the last use issued had a tile (later ones will not)
    if (pw == 0)
      for (int u = 0; u < Stages && more; ++u) more = issue(u) < tiles;
    for (int j = 0;; ++j) {
      const int s = j % Stages;
      bulk::wait(&loaded[s], (j / Stages) & 1);
      const std::int64_t t = issued_tile[s];
      if (t < tiles) {
        const std::int64_t begin = t * tile_items;
        const int valid = valid_of(t);
        const bool full = valid == tile_items;
        T edge{};
        if constexpr (Sel::needs_prev) {
          if (begin > 0) edge = in[begin - 1];
        }
        // Selected items per row (lane l of counting warp p counts rows 32 i + l for the
        // row groups i of the warp), then the rows' exclusive prefixes in order, 32 rows per
        // warp scan. Whole tiles count from shared memory without bounds tests (every tile
        // waits for this count: a bounds test and a branch per item cost 1.7x at 1% selected,
        // session 16 rounds 4 against 5), all rows unrolled so their loads and scans overlap;
        // the partial tile counts from global memory.
        const T* tile_data = reinterpret_cast<const T*>(buffer(s));
        int c[groups_per_counter];
        if (full) {
#pragma unroll
          for (int g = 0; g < groups_per_counter; ++g) {
            const int row = (pw * groups_per_counter + g) * 32 + lane, first = row * K;
            T prev{};
            if constexpr (Sel::needs_prev) prev = row > 0 ? tile_data[first - 1] : edge;
            c[g] = 0;
#pragma unroll
            for (int v = 0; v < KV; ++v) {
              T a[V];
              memcpy(a, &buffer(s)[row * KV + v], sizeof(a));
#pragma unroll
              for (int k = 0; k < V; ++k) {
                c[g] += sel(begin + first + v * V + k, a[k], prev) ? 1 : 0;
                if constexpr (Sel::needs_prev) prev = a[k];
              }
            }
          }
        } else {
#pragma unroll 1
          for (int g = 0; g < groups_per_counter; ++g) {
            const int row = (pw * groups_per_counter + g) * 32 + lane, first = row * K;
            T prev = edge;
            if constexpr (Sel::needs_prev) {
              if (row > 0 && first - 1 < valid) prev = in[begin + first - 1];
            }
            int count = 0;
            for (int k = 0; k < K && first + k < valid; ++k) {
              const T x = in[begin + first + k];
              count += sel(begin + first + k, x, prev) ? 1 : 0;
              if constexpr (Sel::needs_prev) prev = x;
            }
            c[g] = count;
          }
        }
        int carry = 0;
#pragma unroll
        for (int g = 0; g < groups_per_counter; ++g) {
          const int inclusive = warp_inclusive_scan(c[g], sum<int>{});
          c[g] = carry + inclusive - c[g];  // now the row's exclusive prefix within the warp's rows
          carry += shfl_idx(inclusive, 31);
        }
        int offset = 0, total = carry;
        if constexpr (CountWarps > 1) {
          if (lane == 0) counter_total[s][pw] = carry;
          sync_named(2, CountWarps * 32);
          total = 0;
#pragma unroll
          for (int q = 0; q < CountWarps; ++q) {
            const int x = counter_total[s][q];
            offset += q < pw ? x : 0;
            total += x;
          }
        }
        // The consumers of this buffer's previous use have read its row prefixes (they arrived on
        // `written` before warp 0 refilled the buffer; waiting here says so to racecheck too).
        if (j >= Stages) bulk::wait(&written[s], ((j - Stages) / Stages) & 1);
#pragma unroll
        for (int g = 0; g < groups_per_counter; ++g) before_row[s][(pw * groups_per_counter + g) * 32 + lane] = offset + c[g];
        if (lane == 0 && pw == 0) {
          buffer_count[s] = total;
          if constexpr (Sel::needs_prev) buffer_edge[s] = edge;
          counts_tree::publish(tr, t, static_cast<count_t>(total));  // (tiles >= 2: the tree has a level 0)
        }
      }
      if (lane == 0 && pw == 0) {
        buffer_tile[s] = t;
        if (t >= tiles) atomicExch(&end_use, j);
      }
      // Every producer thread releases its own writes (before_row; lane 0 of warp 0 also the
      // tile's id and count): with one arrive per warp after a __syncwarp, racecheck reported
      // the consumers' reads of before_row as hazards (session 17, round 6).
      bulk::arrive(&ready[s]);
      if (t >= tiles) return;  // the other roles stop at this use too
      // Warp 0 refills the buffer of the use before this one once its consumers are done with it.
      if (pw == 0 && j >= 1 && more) {
        const int u = j - 1 + Stages;
        bulk::wait(&written[u % Stages], ((j - 1) / Stages) & 1);
        more = issue(u) < tiles;
      }
    }
  }

  if (tid >= Consumers) {
    // The look-back warps: warp w takes uses w, w + LW, ..., one tile each, all levels at
    // once, so LW look-backs can be in flight. A warp whose next use lies past the last one
    // (end_use, set by the producer) stops there.
    const int w = (tid - Consumers) >> 5;
    for (int j = w;; j += LW) {
      const int s = j % Stages;
      while (!bulk::test(&ready[s], (j / Stages) & 1)) {
        if (atomicAdd(&end_use, 0) < j) return;  // (atomics: the producer may be writing it)
        __nanosleep(32);
      }
      const std::int64_t t = buffer_tile[s];
      if (t >= tiles) return;
      const std::int64_t before = counts_tree::look_back(tr, t);
      if (lane == 0) {
        buffer_before[s] = before;
        bulk::arrive(&prefixed[s]);
      }
    }
  }

  // The consumers.
  const bool partition = out.mode != layout::select;
  for (int j = 0;; ++j) {
    const int s = j % Stages;
    bulk::wait(&ready[s], (j / Stages) & 1);
    const std::int64_t t = buffer_tile[s];
    if (t >= tiles) break;
    const std::int64_t begin = t * tile_items;
    const int valid = valid_of(t), selected = buffer_count[s], first = tid * K;
    const bool full = valid == tile_items;
    T* items = reinterpret_cast<T*>(buffer(s));

    // The row, and which of its items are selected.
    T x[K];
    T prev{};
    if (full) {
#pragma unroll
      for (int v = 0; v < KV; ++v) memcpy(&x[v * V], &buffer(s)[tid * KV + v], 16);
      if constexpr (Sel::needs_prev) prev = tid == 0 ? buffer_edge[s] : items[first - 1];
    } else {
#pragma unroll
      for (int k = 0; k < K; ++k) x[k] = first + k < valid ? in[begin + first + k] : T{};
      if constexpr (Sel::needs_prev) prev = tid == 0 ? buffer_edge[s] : (first - 1 < valid ? in[begin + first - 1] : T{});
    }
    mask_t m = 0;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if ((full || first + k < valid) && sel(begin + first + k, x[k], k == 0 ? prev : x[k > 0 ? k - 1 : 0]))
        m |= mask_t{1} << k;
    }
    sync_first_threads(Consumers);  // every row is in registers: the buffer is free to stage in

    // Stage in output order, in place: selected items at their rank in the tile; for a
    // partition the rejected ones after all selected, at selected + (rejected before them).
    int rank = before_row[s][tid];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if ((m >> k) & 1u) items[rank++] = x[k];
      else if (partition && first + k < valid) items[selected + (first + k - rank)] = x[k];
    }
    sync_first_threads(Consumers);

    // Once the prefix is known, write out, as the segmented tile: selected items to
    // [before, before + selected); a partition's rejected ones after all selected items
    // (reversed: from the end down).
    bulk::wait(&prefixed[s], (j / Stages) & 1);
    const std::int64_t before = buffer_before[s];
    if (tid == 0 && out.count && begin + valid == n) *out.count = before + selected;
    write_run<V>(out.items, before, selected, items, 0, false, tid, Consumers);
    if (partition) {
      const std::int64_t rejected_before = begin - before;
      const int rejected = valid - selected;
      if (out.mode == layout::partition_reversed)
        write_run<V>(out.items, n - rejected_before - rejected, rejected, items, selected + rejected - 1, true, tid,
                     Consumers);
      else
        write_run<V>(out.items, *out.selected_total + rejected_before, rejected, items, selected, false, tid, Consumers);
    }
    // The producer's next bulk copy into this buffer must follow these threads' writes to it.
    bulk::fence_proxy_async();
    bulk::arrive(&written[s]);
  }
}

namespace single_pass {


inline std::size_t workspace_bytes(std::int64_t n, std::size_t item_bytes, int block, compact_tile tile) {
  const std::int64_t tiles = ceil_div(n, tile_items_for(n, item_bytes, block, tile));
  return decoupled_lookback::tree_bytes<count_t>(tiles) + 4 * workspace_alignment;
}

/// Raises the kernel's dynamic shared memory limit when static plus dynamic shared memory
/// would pass the default 48 KiB.
template <class Kernel>
void allow_shared_memory(Kernel k, std::size_t bytes) {
  if (bytes > (40u << 10))
    allow_dynamic_shared_memory(k, bytes < (48u << 10) + 1 ? (48u << 10) + 1 : bytes);
}

/// The guess prefetch. A block's tile id comes from an atomic counter, and nothing can be
/// loaded before it is back. Blocks start in about blockIdx order, so thread 0 first asks L2
/// (one bulk prefetch) for tile blockIdx.x: the tile loads issued once the id is back find
/// its lines in L2 or on their way, and when two blocks that started together got each
/// other's ids, each has fetched the other's tile. The id alone decides what a block works
/// on, so the look-back protocol is unchanged. H100, session 13 (docs/results/
/// session13-round4.log, uint32 select_if against CUB, without -> with): from 2^27 items
/// 0.99 -> 1.03-1.05x at half selected, 0.97-0.98 -> 1.02-1.03x at 1%, but 1.05-1.07 ->
/// 1.03-1.05x at 99%; unique 1.00 -> 1.03-1.04x, remove_if 0.99 -> 1.05x, partition 1.10 ->
/// 1.09x; at 2^21-2^24 it lost up to 10%, for uint64 items 2% at 2^28, and for select_flagged
/// (whose flags it does not fetch) 0.7% (0.99 -> 0.98x, session13-round6.log). (The scan and
/// onesweep lost 1-5% with it, and loading the guessed tile itself, reloading on a miss, lost
/// 10-20% everywhere: session13-round{1,2}.log.) So it runs for 4-byte items selected by a
/// predicate or as run starts (8-byte ones too in the segmented tile: segmented_prefetch_pays),
/// from this many bytes of input, or from what
/// SCANKIT_COMPACT_PREFETCH_FROM says (bytes; "off": never).
inline constexpr std::int64_t prefetch_from_bytes = std::int64_t{1} << 29;
bool prefetch_guessed_tile(std::int64_t input_bytes);
template <class Sel>
inline constexpr bool guess_prefetch_pays = false;
template <class T, class P, bool Keep>
inline constexpr bool guess_prefetch_pays<pred_selector<T, P, Keep>> = sizeof(T) == 4;
template <class T, class E>
inline constexpr bool guess_prefetch_pays<run_start_selector<T, E>> = sizeof(T) == 4;
/// The segmented tile prefetches for 8-byte items too (session 14, docs/results/
/// session14-round5.log, uint64 at 2^27 against CUB, without -> with, two alternations:
/// select_if 50% 0.95-0.96 -> 1.00x, 99% 1.01 -> 1.05x, partition 0.98 -> 1.04-1.05x, unique
/// 0.94 -> 0.96x, double 0.95-0.96 -> 1.00-1.01x; 1% lost, 0.94-0.95 -> 0.91x). The medium
/// tile lost 2% with it for uint64 (session 13), so there it stays off.
template <class Sel>
inline constexpr bool segmented_prefetch_pays = guess_prefetch_pays<Sel>;
template <class T, class P, bool Keep>
inline constexpr bool segmented_prefetch_pays<pred_selector<T, P, Keep>> = sizeof(T) == 4 || sizeof(T) == 8;
template <class T, class E>
inline constexpr bool segmented_prefetch_pays<run_start_selector<T, E>> = sizeof(T) == 4 || sizeof(T) == 8;

/// Launches the kernel with R vectors per thread (and at least MinBlocks blocks per SM).
template <int R, int MinBlocks, class Sel>
void launch(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
            const outputs<typename Sel::item_type>& out, arena& ws, int block, cudaStream_t s) {
  using T = typename Sel::item_type;
  namespace dl = decoupled_lookback;
  constexpr int V = tile::vector_items<T>();
  const std::int64_t tile_items = static_cast<std::int64_t>(R) * block * V;
  const std::int64_t tiles = ceil_div(n, tile_items);
  if (tiles > 0x7fffffff) throw invalid_argument("scankit::cuda compaction: too many tiles for one launch");
  // The tile counter and the tree levels, carved contiguously and cleared by one kernel.
  dl::tree<count_t> tr;
  unsigned long long* counter = dl::carve_tree(tr, tiles, ws, s);
  const bool vec = V > 1 && Sel::reads_items && tile::vector_aligned(in, in);
  const bool vec_out = out.items != nullptr && tile::vector_aligned(out.items, out.items);
  const std::size_t stage = stage_bytes<T>(tile_items, Sel::reads_items && out.items != nullptr, out.indices != nullptr);
  const std::size_t smem = stage + tile::raking_entries(R, block) * sizeof(int);
  auto kernel = single_pass_kernel<R, MinBlocks, V, Sel>;
  allow_shared_memory(kernel, smem);
  launch_after("launch of single_pass_kernel", kernel, static_cast<unsigned>(tiles), block, smem, s, in, n, sel, out, tr,
               counter, vec, vec_out,
               guess_prefetch_pays<Sel> && prefetch_guessed_tile(n * static_cast<std::int64_t>(sizeof(T))));
}

/// The segmented tile's first delay: SCANKIT_COMPACT_FIRST_DELAY (ns) or `tuned`.
unsigned segmented_first_delay_ns(unsigned tuned);

/// Launches the segmented kernel; false (nothing launched) where it does not apply.
template <class Sel>
bool launch_segmented(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
                      const outputs<typename Sel::item_type>& out, arena& ws, int block, cudaStream_t s) {
  using T = typename Sel::item_type;
  if constexpr (Sel::reads_items && (sizeof(T) == 4 || sizeof(T) == 8) && tile::vector_items<T>() * sizeof(T) == 16) {
    if (out.items == nullptr || out.indices != nullptr || block != 256 || !tile::vector_aligned(in, out.items)) return false;
    namespace dl = decoupled_lookback;
    constexpr int KV = segmented_vectors_per_thread;
    const std::int64_t tiles = ceil_div(n, std::int64_t{KV} * block * tile::vector_items<T>());
    if (tiles > 0x7fffffff) throw invalid_argument("scankit::cuda compaction: too many tiles for one launch");
    dl::tree<count_t> tr;
    unsigned long long* counter = dl::carve_tree(tr, tiles, ws, s);
    const std::size_t smem = segmented_smem_bytes<KV>(block);
    // Four blocks per SM (64 registers) for predicates; flags and run starts keep more per
    // lane (flag words, the previous vector) and spilled 48-228 bytes there, so they get 3.
    constexpr int min_blocks = has_flag_words<Sel> || Sel::needs_prev ? 3 : 4;
    auto kernel = segmented_kernel<KV, min_blocks, Sel>;
    allow_shared_memory(kernel, smem);
    launch_after("launch of segmented_kernel", kernel, static_cast<unsigned>(tiles), block, smem, s, in, n, sel, out, tr,
                 counter, segmented_first_delay_ns(0),
                 segmented_prefetch_pays<Sel> && prefetch_guessed_tile(n * static_cast<std::int64_t>(sizeof(T))));
    return true;
  } else {
    return false;
  }
}

/// From how many bytes of input `automatic` takes the warp-specialized tile where it applies,
/// or what SCANKIT_COMPACT_SPECIALIZED_FROM says (bytes; 0 always, a huge value never).
std::int64_t specialized_from_bytes(std::int64_t tuned);
/// H100, select_if at half selected, every tile and CUB in one process. Session 17 (the counts
/// tree, four counting warps; docs/results/session17-round7.log, the counts tree in every tile):
/// uint32 at 2^21 / 2^22 / 2^23 items 0.80 / 1.05 / 1.11x CUB against the small tile's 1.16 /
/// 1.09 / 1.12x, and 1.18x at 2^24 against 0.99x (round 5); uint64 at 2^20 / 2^21 / 2^22 items
/// 0.86 / 1.17 / 1.07x against the small tile's 1.11 / 1.16 / 1.04x. So it starts where the
/// small tile stops (small_tile_below_bytes). Session 16 (one counting warp, the scan's tree)
/// had needed 2^24 and 2^22 items.
template <class Sel>
constexpr std::int64_t specialized_tuned_from_bytes() {
  return small_tile_below_bytes;  // 2^23 four-byte items, 2^22 eight-byte ones
}

/// Launches the warp-specialized kernel of shape `sh` over `tiles` tiles; false (nothing
/// launched) where a block does not fit the device's shared memory or SM, or the tiles need
/// more tree levels than the counts tree holds (over 2^25 tiles).
template <specialized_shape sh, class Sel>
bool launch_specialized_shape(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
                              const outputs<typename Sel::item_type>& out, arena& ws, std::int64_t tiles,
                              cudaStream_t s) {
  namespace dl = decoupled_lookback;
  if (dl::levels_for(tiles) > counts_tree::max_levels) return false;
  constexpr int B = sh.consumers, KV = sh.vectors_per_thread, S = sh.stages;
  constexpr int threads = B + 32 * specialized_lookback_warps + 32 * sh.count_warps;
  auto kernel = specialized_kernel<B, KV, S, sh.min_blocks_per_sm, sh.count_warps, Sel>;
  const std::size_t smem = std::size_t{S} * specialized_buffer_vectors<B, KV>() * 16;
  if (!fits_shared_memory(kernel, smem)) return false;
  allow_dynamic_shared_memory(kernel, smem);
  int per_sm = 0;
  SCANKIT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
  if (per_sm == 0) return false;
  const std::int64_t grid = std::min<std::int64_t>(tiles, std::int64_t{per_sm} * device_sm_count());
  dl::tree<count_t> tr;
  unsigned long long* counter = dl::carve_tree(tr, tiles, ws, s);
  launch_after("launch of specialized_kernel", kernel, static_cast<unsigned>(grid), threads, smem, s, in, n, tiles,
               sel, out, tr, counter);
  return true;
}

/// Launches the warp-specialized kernel; false (nothing launched) where it does not apply:
/// items other than 4 or 8 bytes, flags (select_flagged), indices written, a block size other
/// than the default, unaligned pointers, one tile or less, or a device without bulk copies.
template <class Sel>
bool launch_specialized(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
                        const outputs<typename Sel::item_type>& out, arena& ws, int block, cudaStream_t s) {
  using T = typename Sel::item_type;
  if constexpr (Sel::reads_items && !has_flag_words<Sel> && (sizeof(T) == 4 || sizeof(T) == 8) &&
                tile::vector_items<T>() * sizeof(T) == 16) {
    if (out.items == nullptr || out.indices != nullptr || block != default_block_size ||
        !tile::vector_aligned(in, out.items))
      return false;
    const int shape = specialized_shape_index();
    constexpr auto shapes = specialized_shapes<sizeof(T)>();
    const specialized_shape sh = shapes[static_cast<std::size_t>(shape)];
    const std::int64_t tile_items = std::int64_t{sh.consumers} * sh.vectors_per_thread * tile::vector_items<T>();
    const std::int64_t tiles = ceil_div(n, tile_items);
    if (tiles <= 1 || !device_has_bulk_copy()) return false;
    if (tiles > 0x7fffffff) throw invalid_argument("scankit::cuda compaction: too many tiles for one launch");
    return shape == 0 ? launch_specialized_shape<shapes[0], Sel>(in, n, sel, out, ws, tiles, s)
                      : launch_specialized_shape<shapes[1], Sel>(in, n, sel, out, ws, tiles, s);
  } else {
    return false;
  }
}

/// From how many bytes of input `automatic` takes the segmented tile (where it applies).
/// H100, session 14 sweeps with every tile and CUB in one process (docs/results/
/// session14-round{1,2}*): for 4-byte items selected by a predicate or as run starts it ties
/// the medium tile at 2^27 items and wins from 2^28 (select_if 1/50/99%: 1.04/1.06/1.09-1.12x
/// CUB against 1.03/1.04-1.05/1.02-1.04x; partition 1.17-1.18x against 1.09-1.10x), but loses
/// up to 8% at 2^23-2^26 (too few tiles to fill 528 block slots evenly); select_flagged, whose
/// flags it loads as one word per vector, wins from 2^22 (1.06-1.15x against 0.94-1.00x);
/// 8-byte items win from 2^24 (uint64 select_if 0.95-0.97x against 0.90-0.94x).
template <class Sel>
constexpr std::int64_t segmented_from_bytes() {
  if constexpr (sizeof(typename Sel::item_type) == 8) return std::int64_t{1} << 27;
  else if constexpr (has_flag_words<Sel>) return std::int64_t{1} << 24;
  else return std::int64_t{1} << 29;
}

template <class Sel>
void run(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
         const outputs<typename Sel::item_type>& out, arena& ws, int block, compact_tile tile, cudaStream_t s) {
  using T = typename Sel::item_type;
  constexpr int R = vectors_per_thread<T>();
  const std::int64_t bytes = n * static_cast<std::int64_t>(sizeof(T));
  if (tile == compact_tile::specialized ||
      (tile == compact_tile::automatic && bytes >= specialized_from_bytes(specialized_tuned_from_bytes<Sel>()))) {
    if (launch_specialized(in, n, sel, out, ws, block, s)) return;
    tile = compact_tile::automatic;  // where it does not apply
  }
  if (tile == compact_tile::automatic && bytes >= segmented_from_bytes<Sel>())
    tile = compact_tile::segmented;
  if (tile == compact_tile::segmented) {
    if (launch_segmented(in, n, sel, out, ws, block, s)) return;
    tile = compact_tile::automatic;  // where it does not apply
  }
  switch (resolve_tile(tile, n, Sel::reads_items ? sizeof(T) : 0)) {
    case compact_tile::small: return launch<(R > 1 ? R / 2 : 1), 4>(in, n, sel, out, ws, block, s);
    // (384 threads x 4 vectors at 3 blocks per SM, CUB's 36 warps, measured slower on the H100:
    // 0.75/0.85/0.93x CUB at 1/50/99% against 0.83/0.88/1.02x; docs/results/session5-round4.log.)
    default: return launch<R, 3>(in, n, sel, out, ws, block, s);
  }
}

}  // namespace single_pass

}  // namespace scankit::cuda::detail::compact
