// Merge path: a stable merge of sorted runs on the GPU, keys and (optionally) values that move
// with them. Every pass reads and writes each item once, so a pass costs about a device copy of
// the same bytes.
//
// The first d items of the merge of sorted A and B are A[0, a) and B[0, d - a) for exactly one
// a on the cross diagonal d; a binary search along the diagonal finds it (Odeh, Green,
// Mwassi, Shmueli, Birk: "Merge Path"). So the output splits into equal tiles that merge
// independently:
//
//   phase 1  partition: one thread per tile boundary searches its diagonal in global memory, in
//            a launch of its own, so that the searches' chains of dependent loads overlap each
//            other instead of delaying each tile's block
//   phase 2  stage: a block loads its tile's slices of A and B (contiguous, coalesced) into
//            shared memory
//   phase 3  merge: each thread searches its own diagonal inside the tile and merges `items`
//            outputs serially, recording which staged item each output is
//   phase 4  store: the block writes the tile's keys from shared memory, and gathers the values
//            from global memory by the recorded sources, both in output order (coalesced)
//
// Stable: among equal keys (keys `less` does not order) A's items come first, and each run's
// items keep their order. Positions are 64-bit everywhere but inside a tile.
//
// Outputs: a plain pointer, or a split_output that sends one window of positions to one buffer
// and the rest to another (the distributed sort writes the part of its merge that a rank keeps
// straight into that rank's output, and only the rest into scratch for its neighbours).
//
// Runs: the input holds `runs` sorted runs back to back, run r at [offsets[r], offsets[r + 1])
// (offsets in device memory). The pass of width w merges, for every group g, the runs
// [2gw, 2gw + w) (A, one sorted run after the passes before) with the runs [2gw + w, 2gw + 2w)
// (B) into the same positions of the output. A tile may cover the end of one group and the
// start of the next; it merges each part on its own. merge_runs() makes the passes w = 1, 2,
// 4, ...: p runs take ceil(log2 p) passes, and A is always the earlier runs, so items of equal
// keys end in run order.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/error.hpp"

namespace scankit::cuda::detail::merge {

inline constexpr int merge_threads = 128;
// Odd, so that the threads' serial writes at stride `merge_items` fall in different banks.
inline constexpr int merge_items = 15;
inline constexpr int merge_tile = merge_threads * merge_items;

/// An output whose positions [begin, end) go to window[0, end - begin) and every other position
/// x to side[x]; side is also the scratch of merge_runs' passes before the last one.
template <class T>
struct split_output {
  T* window = nullptr;
  T* side = nullptr;
  std::int64_t begin = 0, end = 0;

  __device__ T& operator[](std::int64_t x) const { return x >= begin && x < end ? window[x - begin] : side[x]; }
};

/// Where positions [lo, hi) of an output go when they all go to one buffer: position x to
/// base[x - shift]; base is null when the range straddles a split output's window edge.
template <class T>
struct output_range {
  T* base;
  std::int64_t shift;
};
template <class T>
__device__ output_range<T> resolve(T* out, std::int64_t, std::int64_t) {
  return {out, 0};
}
template <class T>
__device__ output_range<T> resolve(const split_output<T>& out, std::int64_t lo, std::int64_t hi) {
  if (lo >= out.begin && hi <= out.end) return {out.window, out.begin};
  if (hi <= out.begin || lo >= out.end) return {out.side, 0};
  return {nullptr, 0};
}

/// Writes value(i) to positions lo + i of `out` for this thread's i < count of a tile (i = t,
/// t + merge_threads, ...): through one base pointer where [lo, hi) lies on one side of a split
/// output's window edge (every tile but at most two), per item where it straddles the edge.
template <class Out, class Value>
__device__ void store_tile(const Out& out, std::int64_t lo, std::int64_t hi, int count, int t, const Value& value) {
  const auto r = resolve(out, lo, hi);
  if (r.base != nullptr) {
    auto* base = r.base + (lo - r.shift);
#pragma unroll
    for (int j = 0; j < merge_items; ++j) {
      const int i = t + j * merge_threads;
      if (i < count) base[i] = value(i);
    }
  } else {
    for (int i = t; i < count; i += merge_threads) out[lo + i] = value(i);
  }
}

/// The buffer that merge_runs' passes before the last write into: the output itself, or a split
/// output's side buffer.
template <class T>
T* pass_scratch(T* out) {
  return out;
}
template <class T>
T* pass_scratch(const split_output<T>& out) {
  return out.side;
}
inline std::nullptr_t pass_scratch(std::nullptr_t) { return nullptr; }

/// The groups of one pass: group g merges runs [2gw, 2gw + w) with [2gw + w, 2gw + 2w).
struct run_groups {
  const std::int64_t* offsets;  // runs + 1 positions
  std::int64_t runs = 0;
  std::int64_t width = 1;

  __device__ std::int64_t at(std::int64_t run) const { return offsets[run < runs ? run : runs]; }
  __device__ std::int64_t count() const { return (runs + 2 * width - 1) / (2 * width); }
  __device__ std::int64_t start(std::int64_t g) const { return at(2 * g * width); }
  __device__ std::int64_t middle(std::int64_t g) const { return at(2 * g * width + width); }
  __device__ std::int64_t end(std::int64_t g) const { return at(2 * g * width + 2 * width); }
  /// The group that holds output position x < n: the last one starting at or before x (empty
  /// groups start where the next one does).
  __device__ std::int64_t containing(std::int64_t x) const {
    std::int64_t lo = 0, hi = count() - 1;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo + 1) / 2;
      if (start(mid) <= x) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
};

/// How many of the first d outputs of merge(a, b) come from a: the largest i such that a[i - 1]
/// comes before b[d - i] (ties go to a).
template <class I, class K, class Less>
__device__ I merge_path_split(const K* a, I na, const K* b, I nb, I d, const Less& less) {
  I lo = d > nb ? d - nb : I{0}, hi = d < na ? d : na;
  while (lo < hi) {
    const I mid = lo + (hi - lo) / 2;
    if (!less(b[d - 1 - mid], a[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// ---- phase 1: partition --------------------------------------------------------------------------

/// splits[k]: how many of its group's A items come before output position k * merge_tile, in
/// the group that holds that position (unused for positions at or past n).
template <class K, class Less>
__global__ void merge_partition_kernel(const K* keys, run_groups groups, std::int64_t n, std::int64_t tiles, Less less,
                                       std::int64_t* splits) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k > tiles) return;
  const std::int64_t x = k * merge_tile;
  if (x >= n) {
    splits[k] = 0;
    return;
  }
  const std::int64_t g = groups.containing(x);
  const std::int64_t s = groups.start(g), m = groups.middle(g), e = groups.end(g);
  splits[k] = merge_path_split(keys + s, m - s, keys + m, e - m, x - s, less);
}

// At least 12 blocks per SM (at most 40 registers): both merges run faster so than at 8 blocks
// with 64 registers (docs/TUNING.md).
inline constexpr int merge_min_blocks = 12;

template <class K, class V, class KOut, class VOut, class Less>
__global__ void __launch_bounds__(merge_threads, merge_min_blocks)
    merge_tiles_kernel(const K* keys_in, const V* values_in, KOut keys_out, VOut values_out, run_groups groups, std::int64_t n,
                       const std::int64_t* splits, Less less) {
  __shared__ K staged[merge_tile];
  __shared__ int source[merge_tile];
  const int t = static_cast<int>(threadIdx.x);
  const std::int64_t lo = static_cast<std::int64_t>(blockIdx.x) * merge_tile;
  const std::int64_t hi = lo + merge_tile < n ? lo + merge_tile : n;
  const std::int64_t group_count = groups.count();
  for (std::int64_t g = groups.containing(lo); g < group_count && groups.start(g) < hi; ++g) {
    // This group's part of the tile: diagonals [d0, d1) of merge(A, B), A = [s, m), B = [m, e).
    const std::int64_t s = groups.start(g), m = groups.middle(g), e = groups.end(g);
    if (e <= lo) continue;  // an empty group
    const std::int64_t d0 = (lo > s ? lo : s) - s, d1 = (hi < e ? hi : e) - s;
    const std::int64_t a0 = lo > s ? splits[blockIdx.x] : 0;
    const std::int64_t a1 = hi < e ? splits[blockIdx.x + 1] : m - s;
    const std::int64_t b0 = d0 - a0;
    const int na = static_cast<int>(a1 - a0), count = static_cast<int>(d1 - d0);
    const K* a = keys_in + s + a0;
    const K* b = keys_in + m + b0;

    // ---- phase 2: stage A's slice, then B's, in shared memory ----------------------------------
    // A fixed trip count, so that each thread has all its loads in flight at once.
#pragma unroll
    for (int j = 0; j < merge_items; ++j) {
      const int i = t + j * merge_threads;
      if (i < count) staged[i] = i < na ? a[i] : b[i - na];
    }
    __syncthreads();

    // ---- phase 3: each thread merges `merge_items` outputs from its own diagonal -------------------
    // Both candidates are read from shared memory at every step (not carried in registers
    // across the steps: that form merged wrongly in an sm_90 build).
    const int d = t * merge_items < count ? t * merge_items : count;
    int ai = merge_path_split(staged, na, staged + na, count - na, d, less);
    int bi = na + d - ai;
    for (int j = 0; j < merge_items && d + j < count; ++j) {
      const bool take_a = ai < na && (bi >= count || !less(staged[bi], staged[ai]));
      source[d + j] = take_a ? ai++ : bi++;
    }
    __syncthreads();

    // ---- phase 4: store the keys, gather the values --------------------------------------------
    store_tile(keys_out, s + d0, s + d1, count, t, [&](int i) { return staged[source[i]]; });
    if constexpr (!std::is_void_v<V>) {
      store_tile(values_out, s + d0, s + d1, count, t, [&](int i) {
        const int from = source[i];
        return values_in[from < na ? s + a0 + from : m + b0 + (from - na)];
      });
    }
    __syncthreads();  // the next group's part reuses the shared arrays
  }
}

// ---- host side -------------------------------------------------------------------------------------

inline std::int64_t merge_tiles(std::int64_t n) { return ceil_div(n, merge_tile); }

/// Scratch of a pass (and of merge_runs): one position per tile boundary.
inline std::int64_t merge_split_count(std::int64_t n) { return merge_tiles(n) + 1; }

/// The passes merge_runs makes for `runs` runs: ceil(log2 runs), and at least one, so that the
/// output is always written.
inline int merge_passes(std::int64_t runs) {
  int passes = 1;
  while ((std::int64_t{1} << passes) < runs) ++passes;
  return passes;
}

/// Whether merge_runs needs the alternate buffers: with an odd number of passes it alternates
/// between the output and the input, with an even number between the output and the alternate.
inline bool merge_needs_alternate(std::int64_t runs) { return merge_passes(runs) % 2 == 0; }

/// One pass of width `width` over n items (stream-ordered). V = void: keys only. The outputs:
/// pointers or split_outputs. d_splits: merge_split_count(n) positions of scratch. The output
/// must not overlap the input.
template <class K, class V, class Less, class KOut, class VOut>
void merge_pass(const K* keys_in, const V* values_in, KOut keys_out, VOut values_out, std::int64_t n,
                const std::int64_t* d_run_offsets, std::int64_t runs, std::int64_t width, const Less& less,
                std::int64_t* d_splits, cudaStream_t stream) {
  if (n <= 0) return;
  const std::int64_t tiles = merge_tiles(n);
  check_launch_tiles(tiles, "scankit merge");
  const run_groups groups{d_run_offsets, runs, width};
  merge_partition_kernel<<<static_cast<unsigned>(ceil_div(tiles + 1, 256)), 256, 0, stream>>>(keys_in, groups, n, tiles, less,
                                                                                              d_splits);
  SCANKIT_LAUNCH_CHECK("merge_partition_kernel");
  merge_tiles_kernel<K, V, KOut, VOut, Less><<<static_cast<unsigned>(tiles), merge_threads, 0, stream>>>(keys_in, values_in, keys_out,
                                                                                            values_out, groups, n, d_splits, less);
  SCANKIT_LAUNCH_CHECK("merge_tiles_kernel");
}

/// Merges `runs` sorted runs of keys (and values; V = void: none), back to back at
/// d_run_offsets, into keys_out / values_out, stably in run order: merge_passes(runs) passes.
/// keys / values are overwritten from the second pass on; alt_keys / alt_values (n items each)
/// are used only when merge_needs_alternate(runs) and may be null otherwise. The outputs are
/// pointers or split_outputs (whose side buffers then hold n items: the passes before the last
/// use them as scratch). No two of the three buffers may overlap. d_splits:
/// merge_split_count(n) positions.
template <class K, class V, class Less, class KOut, class VOut>
void merge_runs(K* keys, V* values, K* alt_keys, V* alt_values, KOut keys_out, VOut values_out, std::int64_t n,
                const std::int64_t* d_run_offsets, std::int64_t runs, const Less& less, std::int64_t* d_splits,
                cudaStream_t stream) {
  const int passes = merge_passes(runs);
  // The last pass writes the output; the ones before alternate, backwards, between the output's
  // scratch and the buffer that is not the first pass's source when the count is even.
  K* scratch_keys = pass_scratch(keys_out);
  V* scratch_values = pass_scratch(values_out);
  K* other_keys = passes % 2 == 0 ? alt_keys : keys;
  V* other_values = passes % 2 == 0 ? alt_values : values;
  const K* src_keys = keys;
  const V* src_values = values;
  std::int64_t width = 1;
  for (int pass = 0; pass + 1 < passes; ++pass, width *= 2) {
    const bool to_scratch = (passes - 1 - pass) % 2 == 0;
    K* dst_keys = to_scratch ? scratch_keys : other_keys;
    V* dst_values = to_scratch ? scratch_values : other_values;
    merge_pass(src_keys, src_values, dst_keys, dst_values, n, d_run_offsets, runs, width, less, d_splits, stream);
    src_keys = dst_keys;
    src_values = dst_values;
  }
  merge_pass(src_keys, src_values, keys_out, values_out, n, d_run_offsets, runs, width, less, d_splits, stream);
}

}  // namespace scankit::cuda::detail::merge
