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
// Look-back. Each tile has one 64-bit status word: 2 bits of state (none, aggregate,
// inclusive prefix) and 62 bits of count, written and read with single relaxed accesses, so
// a reader never sees a count without its state. A tile's warp reads the 32 nearest
// predecessors' words at once, waits until none is empty, and sums the counts back to the
// nearest inclusive prefix (or takes all 32 aggregates and moves on 32 tiles). Counts are
// integers, so the sum is the same whichever predecessors happened to have published their
// prefixes: the result is deterministic.
#pragma once

#include "scankit/cuda/detail/compact_select.cuh"
#include "scankit/cuda/detail/decoupled_lookback.cuh"  // relaxed loads and stores

namespace scankit::cuda::detail::compact {

inline constexpr unsigned long long status_aggregate = 1ull << 62;
inline constexpr unsigned long long status_prefix = 2ull << 62;
inline constexpr unsigned long long status_value_mask = (1ull << 62) - 1;
inline constexpr unsigned lookback_backoff_ns = 20;

__device__ __forceinline__ long long warp_sum64(long long v) {
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

/// Called by one whole warp of tile t: publishes the tile's aggregate, looks back, publishes
/// the inclusive count, and returns (in every lane) the count of items selected before it.
__device__ __forceinline__ std::int64_t look_back(unsigned long long* status, std::int64_t t,
                                                 std::int64_t aggregate) {
  using decoupled_lookback::load_relaxed;
  using decoupled_lookback::store_relaxed;
  const int lane = threadIdx.x & 31;
  if (t == 0) {
    if (lane == 0) store_relaxed(status, status_prefix | static_cast<unsigned long long>(aggregate));
    return 0;
  }
  if (lane == 0) store_relaxed(status + t, status_aggregate | static_cast<unsigned long long>(aggregate));
  long long before = 0;
  for (std::int64_t last = t - 1;; last -= 32) {
    const std::int64_t j = last - lane;  // lane 0: the nearest predecessor
    unsigned long long w = status_prefix;  // before tile 0: a prefix of 0
    if (j >= 0)
      while ((w = load_relaxed(status + j)) >> 62 == 0) __nanosleep(lookback_backoff_ns);
    const unsigned prefixes = __ballot_sync(0xffffffffu, (w >> 62) == 2);
    const long long v = static_cast<long long>(w & status_value_mask);
    if (prefixes != 0) {
      const int nearest = __ffs(prefixes) - 1;
      before += warp_sum64(lane <= nearest ? v : 0);
      break;
    }
    before += warp_sum64(v);
  }
  if (lane == 0)
    store_relaxed(status + t, status_prefix | static_cast<unsigned long long>(before + aggregate));
  return before;
}

/// Shared memory for staging: items (when written) then tile positions (when indices are).
template <class T>
constexpr std::size_t stage_bytes(std::int64_t tile_items, bool items, bool indices) {
  return (items ? align_up(static_cast<std::size_t>(tile_items) * sizeof(T), 16) : 0) +
         (indices ? static_cast<std::size_t>(tile_items) * sizeof(unsigned) : 0);
}

template <int R, int V, class Sel>
__global__ void __launch_bounds__(512)
    single_pass_kernel(const typename Sel::item_type* in, std::int64_t n, Sel sel,
                       outputs<typename Sel::item_type> out, unsigned long long* status,
                       unsigned long long* tile_counter, bool vec) {
  using T = typename Sel::item_type;
  extern __shared__ __align__(16) unsigned char stage_raw[];
  __shared__ tile::scan_storage<int, R> scan_smem;
  __shared__ std::int64_t tile_id_s, before_s;
  const int tid = threadIdx.x;
  const std::int64_t B = blockDim.x;
  const std::int64_t tile_items = R * B * V;
  if (tid == 0) tile_id_s = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
  __syncthreads();
  const std::int64_t t = tile_id_s;
  const std::int64_t begin = t * tile_items;
  const std::int64_t valid = n - begin < tile_items ? n - begin : tile_items;

  // 1. Load and select. f[r][j] = 1 for a selected item (0 past the end).
  T x[R][V];
  if constexpr (Sel::reads_items) {
    if constexpr (V * sizeof(T) == 16) {
      if (vec) tile::load<R, V, true>(in, begin, valid, x, T{});
      else tile::load<R, V, false>(in, begin, valid, x, T{});
    } else {
      tile::load<R, V, false>(in, begin, valid, x, T{});
    }
  }
  int f[R][V];
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
          const T prev = j > 0 ? x[r][j - 1] : (begin + p > 0 ? in[begin + p - 1] : x[r][0]);
          s = sel(begin + p, x[r][j], prev);
        } else {
          s = sel(begin + p, x[r][j], x[r][j]);
        }
      }
      f[r][j] = s ? 1 : 0;
    }

  // 2. Ranks: after scan_tile, f[r][j] is the inclusive count within the thread's vector r
  //    and pre[r] the count of selected tile items before that vector.
  int pre[R];
  const int selected = tile::scan_tile(f, pre, sum<int>{}, scan_smem);

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
      const int rank = pre[r] + (j > 0 ? f[r][j - 1] : 0);  // selected before item p
      const bool s = f[r][j] != (j > 0 ? f[r][j - 1] : 0);
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

  // 4. Look back for the items selected before this tile.
  if (tid < 32) {
    const std::int64_t before = look_back(status, t, selected);
    if (tid == 0) {
      before_s = before;
      if (begin + valid == n && out.count) *out.count = before + selected;
    }
  }
  __syncthreads();
  const std::int64_t before = before_s;

  // 5. Write the staged items out, coalesced.
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
  return align_up(sizeof(unsigned long long)) + align_up(static_cast<std::size_t>(tiles) * 8);
}

/// Sets the kernel's dynamic shared memory limit when the staging needs more than 48 KiB.
template <class Kernel>
void allow_shared_memory(Kernel k, std::size_t bytes) {
  if (bytes > (48u << 10))
    SCANKIT_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(bytes)));
}

template <class Sel>
void run(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
         const outputs<typename Sel::item_type>& out, arena& ws, int block, cudaStream_t s) {
  using T = typename Sel::item_type;
  constexpr int V = tile::vector_items<T>();
  constexpr int R = vectors_per_thread<T>();
  const std::int64_t tile_items = static_cast<std::int64_t>(R) * block * V;
  const std::int64_t tiles = ceil_div(n, tile_items);
  if (tiles > 0x7fffffff) throw invalid_argument("scankit::cuda compaction: too many tiles for one launch");
  auto* counter = ws.take<unsigned long long>(1);
  auto* status = ws.take<unsigned long long>(tiles);
  // One memset clears the tile counter and every status word (they are contiguous).
  SCANKIT_CUDA_CHECK(cudaMemsetAsync(counter, 0,
                                     static_cast<std::size_t>(reinterpret_cast<char*>(status + tiles) -
                                                              reinterpret_cast<char*>(counter)),
                                     s));
  const bool vec = V > 1 && Sel::reads_items && tile::vector_aligned(in, in);
  const std::size_t smem = stage_bytes<T>(tile_items, Sel::reads_items && out.items != nullptr, out.indices != nullptr);
  auto kernel = single_pass_kernel<R, V, Sel>;
  allow_shared_memory(kernel, smem);
  kernel<<<static_cast<unsigned>(tiles), block, smem, s>>>(in, n, sel, out, status, counter, vec);
  SCANKIT_LAUNCH_CHECK("single_pass_kernel");
}

}  // namespace single_pass

}  // namespace scankit::cuda::detail::compact
