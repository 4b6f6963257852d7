// The pieces every CUDA compaction shares: selectors (what "selected" means for each
// operation), the output description, tile geometry, and the small helper kernels
// (counting for a stable partition, run starts to run lengths).
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "scankit/cuda/compact.hpp"
#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/scan/tile_scan.cuh"

namespace scankit::cuda::detail::compact {

// ---------------------------------------------------------------------------------------
// Selectors. A selector says whether item i (value x, its predecessor prev) is selected.
//   item_type    what the kernels load per item (a placeholder when reads_items is false)
//   needs_prev   the kernels must pass the previous item (in[i-1], unspecified for i == 0)

// Keep = false selects where pred is false (remove_if). A template argument rather than a
// member: as a run-time flag it cost two instructions per item in the single-pass kernel.
template <class T, class Pred, bool Keep = true>
struct pred_selector {  // select_if, remove_if, partition, nonzero
  using item_type = T;
  static constexpr bool reads_items = true, needs_prev = false;
  Pred pred;
  __device__ __forceinline__ bool operator()(std::int64_t, const T& x, const T&) const {
    return static_cast<bool>(pred(x)) == Keep;
  }
};

template <class T, class F>
struct flag_selector {  // select_flagged
  using item_type = T;
  static constexpr bool reads_items = true, needs_prev = false;
  const F* flags;
  __device__ __forceinline__ bool operator()(std::int64_t i, const T&, const T&) const {
    return flags[i] != F(0);
  }
  /// Whether the V flags of V consecutive items from a multiple of V make one aligned word
  /// (2, 4, 8 or 16 bytes) that one load can fetch.
  template <int V>
  __host__ __device__ bool words_aligned() const {
    constexpr std::size_t bytes = V * sizeof(F);
    return (bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16) && reinterpret_cast<std::uintptr_t>(flags) % bytes == 0;
  }
  /// Bit j set where item i0 + j (j < V) is flagged, from one load (words_aligned<V>() must
  /// hold and i0 be a multiple of V). The segmented kernel issues these next to its item
  /// loads: one load per vector instead of V byte loads, and no register per flag in flight.
  template <int V>
  __device__ __forceinline__ unsigned flag_word(std::int64_t i0) const {
    constexpr std::size_t bytes = V * sizeof(F);
    using word = std::conditional_t<bytes == 2, unsigned short,
                                    std::conditional_t<bytes == 4, unsigned, std::conditional_t<bytes == 8, uint2, uint4>>>;
    F f[V];
    if constexpr (bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16) {
      const word w = *reinterpret_cast<const word*>(flags + i0);
      memcpy(f, &w, bytes);
    } else {
      for (int j = 0; j < V; ++j) f[j] = flags[i0 + j];
    }
    unsigned m = 0;
#pragma unroll
    for (int j = 0; j < V; ++j) m |= (f[j] != F(0) ? 1u : 0u) << j;
    return m;
  }
  /// Asks L2 for the flags of items [i0, i0 + count): the warp-specialized tile issues it with
  /// a tile's bulk load, a buffer round before it counts the tile from these flags.
  __device__ __forceinline__ void prefetch_flags(std::int64_t i0, std::int64_t count) const {
    prefetch_l2(flags + i0, static_cast<std::size_t>(count) * sizeof(F));
  }
};

template <class Sel>
inline constexpr bool has_flag_words = false;
template <class T, class F>
inline constexpr bool has_flag_words<flag_selector<T, F>> = true;

template <class T, class Eq>
struct run_start_selector {  // unique, unique_count: the first item of each run
  using item_type = T;
  static constexpr bool reads_items = true, needs_prev = true;
  Eq eq;
  __device__ __forceinline__ bool operator()(std::int64_t i, const T& x, const T& prev) const {
    return i == 0 || !static_cast<bool>(eq(prev, x));
  }
};

template <class Pred>
struct index_selector {  // select_indices: nothing is loaded
  using item_type = unsigned;  // sets the tile geometry only
  static constexpr bool reads_items = false, needs_prev = false;
  Pred pred;
  __device__ __forceinline__ bool operator()(std::int64_t i, const unsigned&, const unsigned&) const {
    return static_cast<bool>(pred(i));
  }
};

/// Where partition puts rejected items (see scankit::rejected_order).
enum class layout : int { select, partition_reversed, partition_original };

/// What a compaction writes. items: the selected items (nullable); indices: their positions
/// (nullable); count: the number selected. Partition writes rejected items to items too.
template <class T>
struct outputs {
  T* items = nullptr;
  std::int64_t* indices = nullptr;
  std::int64_t* count = nullptr;
  const std::int64_t* selected_total = nullptr;  // partition_original: counted beforehand
  layout mode = layout::select;
};

// ---------------------------------------------------------------------------------------
// Tile geometry of the single-pass kernel: every thread loads R 16-byte vectors (V items
// each), so a tile is R * block * V items. R is chosen so a tile is 8192 items of <= 4 bytes
// (4096 of 8 bytes) at the default 256 threads: large enough to spread a tile's fixed costs
// (tile id, look-back), small enough to stage in shared memory.

inline constexpr int default_block_size = 256;

/// R for items of `item_bytes` bytes at the medium tile: 8 vectors of 4-byte items, 2 of
/// 1-byte items, 8 of 8-byte items, fewer for big structs (their staging must fit in shared
/// memory).
constexpr int vectors_per_thread_for(std::size_t item_bytes) {
  if (item_bytes >= 8) return item_bytes >= 64 ? 1 : static_cast<int>(64 / item_bytes);
  const int V = (16 % item_bytes == 0) ? static_cast<int>(16 / item_bytes) : 1;
  return 32 / V > 0 ? 32 / V : 1;
}

/// R of a tile size: small halves the medium R.
constexpr int vectors_per_thread_for(std::size_t item_bytes, compact_tile tile) {
  const int r = vectors_per_thread_for(item_bytes);
  if (tile == compact_tile::small) return r > 1 ? r / 2 : 1;
  return r;
}

/// Inputs below this many bytes take the small tile when the tile is `automatic`: on the H100
/// (uint32, half selected) the small tile is faster up to 2^22 items (more, shorter tiles: more
/// parallelism for a short input) and the medium one from 2^24 (2^23 a tie).
inline constexpr std::int64_t small_tile_below_bytes = std::int64_t{1} << 25;

/// The tile size `automatic` stands for, for n items of item_bytes bytes.
constexpr compact_tile resolve_tile(compact_tile t, std::int64_t n, std::size_t item_bytes) {
  if (t != compact_tile::automatic) return t;
  if (item_bytes == 0) item_bytes = sizeof(unsigned);
  return n * static_cast<std::int64_t>(item_bytes) < small_tile_below_bytes ? compact_tile::small : compact_tile::medium;
}

template <class T>
constexpr int vectors_per_thread() {
  return vectors_per_thread_for(sizeof(T));
}

/// 16-byte vectors per lane of the segmented tile (compact/segmented.cuh): 12, as the scan's
/// blocked tile (12,288 four-byte items per 256 threads).
inline constexpr int segmented_vectors_per_thread = 12;

/// The warp-specialized tile's shape (compact/specialized.cuh, specialized_kernel): `consumers`
/// threads + two look-back warps + `count_warps` producer warps per block, `stages` buffers of
/// consumers x vectors_per_thread 16-byte vectors, compiled for min_blocks_per_sm blocks per
/// SM (two fill the SM's shared memory). Shape 0 is the default; compact_config::specialized_shape
/// = 1 picks the other. H100, select_if at 1/50/99% selected against CUB, four counting warps:
/// uint32 2^28 256 x 13 x 2 1.31/1.23/1.20x (1.26x at 2^30, half), 256 x 11 x 2 1.30/1.22/1.21x;
/// uint64 2^27 256 x 13 x 2 1.14/1.14/1.13x, 256 x 11 x 2 1.13/1.14/1.14x. Three buffers of
/// 256 x 9 fit one block per SM only (0.94/0.96/1.02x with one counting warp); four counting
/// warps instead of one shorten the count from 2.1 to 0.8 us per tile.
struct specialized_shape {
  int consumers;
  int vectors_per_thread;
  int stages;
  int min_blocks_per_sm;
  int count_warps;
};
template <std::size_t ItemBytes>
constexpr std::array<specialized_shape, 2> specialized_shapes() {
  if constexpr (ItemBytes == 4) return {{{256, 13, 2, 2, 4}, {256, 11, 2, 2, 4}}};
  else return {{{256, 13, 2, 2, 4}, {256, 11, 2, 2, 4}}};
}

/// The fewest items a warp-specialized tile of `item_bytes`-byte items may hold (0: no such tile).
constexpr std::int64_t smallest_specialized_tile(std::size_t item_bytes) {
  if (item_bytes != 4 && item_bytes != 8) return 0;
  const auto shapes = item_bytes == 4 ? specialized_shapes<4>() : specialized_shapes<8>();
  std::int64_t least = 0;
  for (const auto& sh : shapes) {
    const std::int64_t items = std::int64_t{sh.consumers} * sh.vectors_per_thread * static_cast<std::int64_t>(16 / item_bytes);
    if (least == 0 || items < least) least = items;
  }
  return least;
}

/// Items per tile of the kernel a call with `tile` may run, or fewer. The segmented and
/// warp-specialized tiles fall back to the automatic one where they do not apply, and
/// automatic may take the warp-specialized one, so workspace sizes count with the smaller of
/// the automatic tile and the smallest warp-specialized tile (an upper bound on the tiles of all).
inline std::int64_t tile_items_for(std::int64_t n, std::size_t item_bytes, int block, compact_tile tile) {
  if (tile == compact_tile::segmented || tile == compact_tile::specialized) tile = compact_tile::automatic;
  if (item_bytes == 0) item_bytes = sizeof(unsigned);
  const std::int64_t V = (item_bytes <= 16 && 16 % item_bytes == 0) ? static_cast<std::int64_t>(16 / item_bytes) : 1;
  const std::int64_t automatic =
      static_cast<std::int64_t>(vectors_per_thread_for(item_bytes, resolve_tile(tile, n, item_bytes))) * block * V;
  const std::int64_t specialized = smallest_specialized_tile(item_bytes);
  return specialized > 0 && specialized < automatic ? specialized : automatic;
}

// ---------------------------------------------------------------------------------------
// Helper kernels.

template <class Sel>
__device__ __forceinline__ bool select_at(const typename Sel::item_type* in, std::int64_t i, const Sel& sel) {
  using T = typename Sel::item_type;
  if constexpr (!Sel::reads_items) {
    return sel(i, T{}, T{});
  } else if constexpr (Sel::needs_prev) {
    const T x = in[i];
    return sel(i, x, i > 0 ? in[i - 1] : x);
  } else {
    return sel(i, in[i], in[i]);
  }
}

/// *total += number of selected items (for a stable partition; integer atomics, so the sum
/// is exact whatever the order).
template <class Sel>
__global__ void count_selected_kernel(const typename Sel::item_type* in, std::int64_t n, Sel sel,
                                      std::int64_t* total) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  long long c = 0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    c += select_at(in, i, sel) ? 1 : 0;
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) c += __shfl_xor_sync(0xffffffffu, c, d);
  if ((threadIdx.x & 31) == 0 && c != 0)
    atomicAdd(reinterpret_cast<unsigned long long*>(total), static_cast<unsigned long long>(c));
}

/// Run starts to run lengths, step 1: next_start[c] = the start just past chunk c (or n),
/// saved before step 2 overwrites it.
inline constexpr int diff_block = 256, diff_items = 4, diff_chunk = diff_block * diff_items;

// (Templates, like every kernel in these headers, so that each .cu file including them can
// define them without clashing at link time.)
template <class I>
__global__ void save_chunk_ends_kernel(const I* starts, const I* runs_ptr, I n, I* next_start) {
  const std::int64_t runs = *runs_ptr;
  const std::int64_t chunks = ceil_div(runs, diff_chunk);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t c = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; c < chunks; c += stride) {
    const std::int64_t e = (c + 1) * diff_chunk;
    next_start[c] = e < runs ? starts[e] : n;
  }
}

/// Step 2: s[k] = s[k+1] - s[k] in place, one block per chunk; every thread reads all it
/// needs before the barrier and writes after it, and the value past the chunk comes from
/// step 1, so no block reads what another writes.
template <class I>
__global__ void __launch_bounds__(diff_block)
    starts_to_counts_kernel(I* s, const I* runs_ptr, const I* next_start) {
  const std::int64_t runs = *runs_ptr;
  const std::int64_t chunks = ceil_div(runs, diff_chunk);
  for (std::int64_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    const std::int64_t b = c * diff_chunk;
    std::int64_t cur[diff_items], nxt[diff_items];
#pragma unroll
    for (int j = 0; j < diff_items; ++j) {
      const std::int64_t k = b + j * diff_block + threadIdx.x;
      if (k < runs) {
        cur[j] = s[k];
        nxt[j] = (k + 1 < runs && k + 1 < b + diff_chunk) ? s[k + 1] : next_start[c];
      }
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < diff_items; ++j) {
      const std::int64_t k = b + j * diff_block + threadIdx.x;
      if (k < runs) s[k] = nxt[j] - cur[j];
    }
    __syncthreads();
  }
}

/// Launches both steps (grid sized from n, the bound on the number of runs).
inline void starts_to_counts(std::int64_t* d_starts, const std::int64_t* d_runs, std::int64_t n,
                             std::int64_t* next_start, cudaStream_t s) {
  const std::int64_t chunks = ceil_div(n, diff_chunk);
  save_chunk_ends_kernel<std::int64_t><<<grid_for(ceil_div(chunks, 256), 4096), 256, 0, s>>>(d_starts, d_runs, n, next_start);
  SCANKIT_LAUNCH_CHECK("save_chunk_ends_kernel");
  starts_to_counts_kernel<std::int64_t><<<grid_for(chunks, 65536), diff_block, 0, s>>>(d_starts, d_runs, next_start);
  SCANKIT_LAUNCH_CHECK("starts_to_counts_kernel");
}

inline std::size_t chunk_ends_bytes(std::int64_t n) {
  return align_up(static_cast<std::size_t>(ceil_div(n, diff_chunk) + 1) * sizeof(std::int64_t));
}

}  // namespace scankit::cuda::detail::compact
