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
inline constexpr unsigned lookback_backoff_ns = 32;

/// Shared memory for staging: items (when written) then tile positions (when indices are).
template <class T>
constexpr std::size_t stage_bytes(std::int64_t tile_items, bool items, bool indices) {
  // Items get one spare 16-byte vector: the vectorised write-out reads whole vectors.
  return (items ? align_up(static_cast<std::size_t>(tile_items) * sizeof(T) + 16, 16) : 0) +
         (indices ? static_cast<std::size_t>(tile_items) * sizeof(unsigned) : 0);
}

template <int R, int V, class Sel>
__global__ void __launch_bounds__(256, 3)  // 3 blocks per SM: at most 85 registers
    single_pass_kernel(const typename Sel::item_type* in, std::int64_t n, Sel sel,
                       outputs<typename Sel::item_type> out,
                       const __grid_constant__ decoupled_lookback::tree<count_t> tr,
                       unsigned long long* tile_counter, bool vec, bool vec_out) {
  using T = typename Sel::item_type;
  extern __shared__ __align__(16) unsigned char stage_raw[];
  __shared__ tile::scan_storage<int, R> scan_smem;
  __shared__ std::int64_t tile_id_s;
  __shared__ count_t level_sums[decoupled_lookback::max_levels];
  const int tid = threadIdx.x;
  const std::int64_t B = blockDim.x;
  const std::int64_t tile_items = R * B * V;
  if (tid == 0) tile_id_s = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
  __syncthreads();
  const std::int64_t t = tile_id_s;
  const std::int64_t begin = t * tile_items;
  const std::int64_t valid = n - begin < tile_items ? n - begin : tile_items;

  // 1. Load and select: bit r*V + j of `mask` is set for a selected item (R*V <= 32 for
  //    every item size; see vectors_per_thread_for).
  static_assert(R * V <= 32, "selection mask is 32 bits");
  T x[R][V];
  if constexpr (Sel::reads_items) {
    if constexpr (V * sizeof(T) == 16) {
      if (vec) tile::load<R, V, true>(in, begin, valid, x, T{});
      else tile::load<R, V, false>(in, begin, valid, x, T{});
    } else {
      tile::load<R, V, false>(in, begin, valid, x, T{});
    }
  }
  // unique: the item before each vector comes from the neighbouring lane (lane 0 reads it).
  T up[Sel::needs_prev ? R : 1];
  if constexpr (Sel::needs_prev) {
#pragma unroll
    for (int r = 0; r < R; ++r) up[r] = shfl_up(x[r][V - 1], 1);
  }
  unsigned mask = 0;
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int j = 0; j < V; ++j) {
      const std::int64_t p = (r * B + tid) * V + j;
      bool s = false;
      if (p < valid) {
        if constexpr (!Sel::reads_items) {
          s = sel(begin + p, T{}, T{});
        } else if constexpr (Sel::needs_prev) {
          T prev = x[r][j > 0 ? j - 1 : 0];
          if (j == 0) {  // the last item of the previous thread's vector r
            prev = up[r];
            if ((tid & 31) == 0 && begin + p > 0) prev = in[begin + p - 1];
          }
          s = sel(begin + p, x[r][j], prev);
        } else {
          s = sel(begin + p, x[r][j], x[r][j]);
        }
      }
      mask |= (s ? 1u : 0u) << (r * V + j);
    }

  // 2. Ranks: scan the per-vector counts across the block (the tile scan with one item per
  //    vector); pre[r] is then the number of selected tile items before the thread's vector r.
  constexpr unsigned vmask = V >= 32 ? 0xffffffffu : (1u << V) - 1u;
  int cnt[R][1], pre[R];
#pragma unroll
  for (int r = 0; r < R; ++r) cnt[r][0] = __popc((mask >> (r * V)) & vmask);
  const int selected = tile::scan_tile(cnt, pre, sum<int>{}, scan_smem);
  if (tid == 0 && tr.levels > 0) tr.level[0].publish(t, static_cast<count_t>(selected));

  // 3. Stage in output order: selected items at their rank; for a partition the rejected
  //    ones after all selected, at (count selected) + (rejected before them).
  const bool partition = out.mode != layout::select;
  T* stage_items = reinterpret_cast<T*>(stage_raw);
  unsigned* stage_pos = reinterpret_cast<unsigned*>(
      stage_raw + (out.items ? align_up(static_cast<std::size_t>(tile_items) * sizeof(T), 16) : 0));
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int j = 0; j < V; ++j) {
      const int p = static_cast<int>((r * B + tid) * V + j);
      const unsigned mine = mask >> (r * V);
      const int rank = pre[r] + __popc(mine & ((1u << j) - 1u));  // selected before item p
      const bool s = (mine >> j) & 1u;
      int slot = -1;
      if (s) slot = rank;
      else if (partition && p < valid) slot = selected + (p - rank);
      if (slot >= 0) {
        if constexpr (Sel::reads_items) {
          if (out.items) stage_items[slot] = x[r][j];
        }
        if (out.indices) stage_pos[slot] = static_cast<unsigned>(p);
      }
    }

  // 4. Look back, one warp per tree level, all levels at once. Warp 0 also publishes the
  //    upper-level entries this tile completes (it is the last tile of an aligned run).
  const int lane = tid & 31, warp = tid >> 5;
  for (int k = warp; k < tr.levels; k += static_cast<int>(B >> 5)) {
    const count_t run = decoupled_lookback::run_sum(tr.level[k], t >> (5 * k), sum<count_t>{}, lookback_backoff_ns);
    if (lane == 0) level_sums[k] = run;
    if (k == 0) {
      count_t v = run + static_cast<count_t>(selected);
      for (int up_level = 1; up_level < tr.levels && ((t >> (5 * (up_level - 1))) & 31) == 31; ++up_level) {
        if (lane == 0) tr.level[up_level].publish(t >> (5 * up_level), v);
        if (up_level + 1 < tr.levels && ((t >> (5 * up_level)) & 31) == 31)
          v += decoupled_lookback::run_sum(tr.level[up_level], t >> (5 * up_level), sum<count_t>{}, lookback_backoff_ns);
      }
    }
  }
  __syncthreads();
  std::int64_t before = 0;
  for (int k = 0; k < tr.levels; ++k) before += static_cast<std::int64_t>(level_sums[k]);
  if (tid == 0 && out.count && begin + valid == n) *out.count = before + selected;

  // 5. Write the staged items out, coalesced.
  if constexpr (Sel::reads_items && V > 1 && sizeof(T) >= 4) {
    if (out.mode == layout::select && out.items && vec_out) {
      // 16-byte stores: a scalar head up to the first aligned output address, then whole
      // vectors (each read from shared memory as two aligned vectors and shifted by the
      // block-uniform misalignment), then a scalar tail.
      const int head = static_cast<int>((V - before % V) % V);
      const int h = head < selected ? head : selected;
      if (tid < h) out.items[before + tid] = stage_items[tid];
      const int vectors = (selected - h) / V;
      T* dst = out.items + before + h;
      for (int m = tid; m < vectors; m += static_cast<int>(B)) {
        const int k0 = h + m * V;          // first staged item of this output vector
        const int c = k0 / V;              // its aligned shared-memory vector
        T w[2 * V];
        const uint4 lo = reinterpret_cast<const uint4*>(stage_items)[c];
        const uint4 hi = reinterpret_cast<const uint4*>(stage_items)[c + 1];
        memcpy(&w[0], &lo, 16);
        memcpy(&w[V], &hi, 16);
        T o[V];
#pragma unroll
        for (int sft = 0; sft < V; ++sft)
          if (sft == h % V) {
#pragma unroll
            for (int j = 0; j < V; ++j) o[j] = w[sft + j];
          }
        uint4 vv;
        memcpy(&vv, o, 16);
        __stcs(reinterpret_cast<uint4*>(dst + static_cast<std::int64_t>(m) * V), vv);
      }
      for (int k = h + vectors * V + tid; k < selected; k += static_cast<int>(B)) out.items[before + k] = stage_items[k];
      return;
    }
  }
  const std::int64_t rejected_before = begin - before;
  const std::int64_t total = out.mode == layout::partition_original ? *out.selected_total : 0;
  const int to_write = partition ? static_cast<int>(valid) : selected;
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

inline std::size_t workspace_bytes(std::int64_t n, std::size_t item_bytes, int block) {
  const std::int64_t tiles = ceil_div(n, tile_items_for(item_bytes, block));
  return decoupled_lookback::tree_bytes<count_t>(tiles) + 4 * workspace_alignment;
}

/// Raises the kernel's dynamic shared memory limit when static plus dynamic shared memory
/// would pass the default 48 KiB.
template <class Kernel>
void allow_shared_memory(Kernel k, std::size_t bytes) {
  if (bytes > (40u << 10))
    SCANKIT_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(bytes)));
}

template <class Sel>
void run(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
         const outputs<typename Sel::item_type>& out, arena& ws, int block, cudaStream_t s) {
  using T = typename Sel::item_type;
  namespace dl = decoupled_lookback;
  constexpr int V = tile::vector_items<T>();
  constexpr int R = vectors_per_thread<T>();
  const std::int64_t tile_items = static_cast<std::int64_t>(R) * block * V;
  const std::int64_t tiles = ceil_div(n, tile_items);
  if (tiles > 0x7fffffff) throw invalid_argument("scankit::cuda compaction: too many tiles for one launch");
  // The tile counter and the tree levels, carved contiguously so one memset clears them all.
  dl::tree<count_t> tr{};
  tr.levels = dl::levels_for(tiles);
  auto* counter = ws.take<unsigned long long>(1);
  char* last = reinterpret_cast<char*>(counter) + align_up(sizeof(unsigned long long));
  for (int k = 0; k < tr.levels; ++k) {
    const std::int64_t e = dl::level_entries(tiles, k);
    tr.level[k].flags = ws.take<unsigned>(e);
    tr.level[k].values = ws.take<count_t>(e);
    last = reinterpret_cast<char*>(tr.level[k].values) + align_up(static_cast<std::size_t>(e) * sizeof(count_t));
  }
  SCANKIT_CUDA_CHECK(cudaMemsetAsync(counter, 0, static_cast<std::size_t>(last - reinterpret_cast<char*>(counter)), s));
  const bool vec = V > 1 && Sel::reads_items && tile::vector_aligned(in, in);
  const bool vec_out = out.items != nullptr && tile::vector_aligned(out.items, out.items);
  const std::size_t smem = stage_bytes<T>(tile_items, Sel::reads_items && out.items != nullptr, out.indices != nullptr);
  auto kernel = single_pass_kernel<R, V, Sel>;
  allow_shared_memory(kernel, smem);
  kernel<<<static_cast<unsigned>(tiles), block, smem, s>>>(in, n, sel, out, tr, counter, vec, vec_out);
  SCANKIT_LAUNCH_CHECK("single_pass_kernel");
}

}  // namespace single_pass

}  // namespace scankit::cuda::detail::compact
