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
// counts now use the radix-32 tree of the scan's look-back (decoupled_lookback.cuh): every
// tile publishes its count at level 0 as soon as it is known, the last tile of each aligned
// run of 32 entries publishes the run's sum one level up, and a tile's prefix is, for each
// level (one warp per level, all at once), the sum of the entries before it in its own run
// of 32. A tile waits only for recent aggregates, never for a chain of prefixes. Counts
// are integers, so the result is exact and deterministic either way.
#pragma once

#include "scankit/cuda/detail/compact_select.cuh"
#include "scankit/cuda/detail/decoupled_lookback.cuh"  // relaxed loads and stores

namespace scankit::cuda::detail::compact {

using count_t = unsigned long long;
/// Sleep between polls of a predecessor's entry. H100, 2^28 uint32 (2026-11-21, session 5):
/// 32 ns was best; 128 ns tied, 512 ns lost 6% at 1% selected, and sleeping 500-1000 ns
/// before the first poll (as CUB does) lost 2-6% (docs/results/session5-round2.log).
inline constexpr unsigned lookback_backoff_ns = 32;

/// Shared memory for staging: items (when written) then tile positions (when indices are).
template <class T>
constexpr std::size_t stage_bytes(std::int64_t tile_items, bool items, bool indices) {
  // Items get one spare 16-byte vector: the vectorised write-out reads whole vectors.
  return (items ? align_up(static_cast<std::size_t>(tile_items) * sizeof(T) + 16, 16) : 0) +
         (indices ? static_cast<std::size_t>(tile_items) * sizeof(unsigned) : 0);
}

/// Copies `count` staged items to out[g0 .. g0 + count) with 16-byte stores (a block-wide
/// call). Output item g0 + j is stage[s0 + j], or stage[s0 - j] when `reversed`. Whole
/// aligned output vectors are assembled from two aligned shared-memory vectors shifted by
/// the (block-uniform) misalignment between the two sides; the partial vectors at either end
/// are written item by item. `out` must be 16-byte aligned; stage needs one spare vector.
template <int V, class T>
__device__ __forceinline__ void write_run(T* out, std::int64_t g0, int count, const T* stage, int s0, bool reversed) {
  if (count <= 0) return;
  const int tid = threadIdx.x, B = blockDim.x;
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
  if (tid == 0 && tr.levels > 0) tr.level[0].publish(t, static_cast<count_t>(selected));

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

  // 4. Look back, one warp per tree level, all levels at once (the scan's look-back over the
  //    counts); warp 0 also publishes the upper-level entries this tile completes.
  decoupled_lookback::look_back(tr, t, static_cast<count_t>(selected), sum<count_t>{}, lookback_backoff_ns,
                                level_sums);
  __syncthreads();
  std::int64_t before = 0;
  for (int k = 0; k < tr.levels; ++k) before += static_cast<std::int64_t>(level_sums[k]);
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
/// predicate or as run starts, from this many bytes of input, or from what
/// SCANKIT_COMPACT_PREFETCH_FROM says (bytes; "off": never).
inline constexpr std::int64_t prefetch_from_bytes = std::int64_t{1} << 29;
bool prefetch_guessed_tile(std::int64_t input_bytes);
template <class Sel>
inline constexpr bool guess_prefetch_pays = false;
template <class T, class P, bool Keep>
inline constexpr bool guess_prefetch_pays<pred_selector<T, P, Keep>> = sizeof(T) == 4;
template <class T, class E>
inline constexpr bool guess_prefetch_pays<run_start_selector<T, E>> = sizeof(T) == 4;

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

template <class Sel>
void run(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
         const outputs<typename Sel::item_type>& out, arena& ws, int block, compact_tile tile, cudaStream_t s) {
  using T = typename Sel::item_type;
  constexpr int R = vectors_per_thread<T>();
  switch (resolve_tile(tile, n, Sel::reads_items ? sizeof(T) : 0)) {
    case compact_tile::small: return launch<(R > 1 ? R / 2 : 1), 4>(in, n, sel, out, ws, block, s);
    // (384 threads x 4 vectors at 3 blocks per SM, CUB's 36 warps, measured slower on the H100:
    // 0.75/0.85/0.93x CUB at 1/50/99% against 0.83/0.88/1.02x; docs/results/session5-round4.log.)
    default: return launch<R, 3>(in, n, sel, out, ws, block, s);
  }
}

}  // namespace single_pass

}  // namespace scankit::cuda::detail::compact
