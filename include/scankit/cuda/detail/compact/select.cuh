// The pieces every CUDA compaction shares: selectors (what "selected" means for each
// operation), the output description, and the small helper kernels
// (counting for a stable partition, run starts to run lengths).
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "scankit/cuda/compact.hpp"
#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/block/tile_scan.cuh"
#include "scankit/cuda/detail/compact/tuning.cuh"

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
