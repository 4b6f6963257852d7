// The look-back's status tree, shared by the scan (detail/scan) and the compaction
// (detail/compact): a radix-32 tree of published values, the tile counter, and the warp-level
// look-back over it.
//
// Determinism. In the classic scheme a tile stops looking back at the nearest predecessor
// that has already published its inclusive prefix, so *which* partial sums get combined
// depends on timing; for floating point that changes the rounding from run to run. Here the
// published values form a fixed radix-32 tree instead: level 0 holds every tile's aggregate,
// level k+1 holds the combination of each aligned run of 32 level-k entries, published by the
// last tile of that run as soon as it knows it. Tile i's prefix is then always the same
// expression: for each level k (in parallel, one warp per level), combine the entries of its
// own aligned run of 32 that precede it, then chain the levels from the top. Every tile reads
// at most 31 values per level, mostly published long ago, and never waits on a predecessor's
// look-back (only on aggregates, which come right after a tile's reduction). Integer results
// are the same as any other order; floats are the same bits on every run.
//
// Publishing. Every 32 bits of a published value travel in their own 64-bit word together
// with a "published" bit, written and read with single relaxed accesses (level_status), so a
// reader never sees a value without its flag, and wider items still cost one round trip.
#pragma once

#include <cstring>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/lookback/tree_geometry.cuh"

namespace scankit::cuda::detail::lookback {

inline constexpr int max_levels = 8;  // 32^8 tiles: far beyond any memory

// ---------------------------------------------------------------------------------------
// Memory accesses with explicit semantics (PTX), so the protocol does not depend on volatile.

__device__ __forceinline__ unsigned long long load_relaxed(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
/// The published values of one tree level. An entry is W = ceil(sizeof(T) / 4) 64-bit words;
/// word k holds a "published" bit (bit 32) and the k-th 32 bits of the value, and is written
/// and read with one relaxed 64-bit access. A reader accepts an entry only when every word
/// has its bit, so it can never see a value without its flag, or half of a value. The words
/// are read with independent loads that are in flight together: one memory round trip for
/// any item size. (Value then flag with release/acquire would take two dependent round trips;
/// under full memory load a round trip costs about as much as loading a tile.)
template <class T>
struct level_status {
  static constexpr int W = static_cast<int>((sizeof(T) + 3) / 4);
  unsigned long long* words;
  __device__ void publish(std::int64_t i, T v) const {
    unsigned bits[W] = {};
    memcpy(bits, &v, sizeof(T));
#pragma unroll
    for (int k = 0; k < W; ++k) store_relaxed(words + i * W + k, (1ull << 32) | bits[k]);
  }
  /// The value in an entry's words (once every word has its bit).
  __device__ static T value(const unsigned long long (&w)[W]) {
    unsigned bits[W];
#pragma unroll
    for (int k = 0; k < W; ++k) bits[k] = static_cast<unsigned>(w[k]);
    T v;
    memcpy(&v, bits, sizeof(T));
    return v;
  }
  __device__ bool try_read(std::int64_t i, T& v) const {
    unsigned long long w[W];
#pragma unroll
    for (int k = 0; k < W; ++k) w[k] = load_relaxed(words + i * W + k);
    unsigned bits[W];
    bool ready = true;
#pragma unroll
    for (int k = 0; k < W; ++k) {
      ready = ready && (w[k] >> 32) != 0;
      bits[k] = static_cast<unsigned>(w[k]);
    }
    if (ready) memcpy(&v, bits, sizeof(T));
    return ready;
  }
};

template <class T>
struct tree {
  level_status<T> level[max_levels];
  int levels;  // tree levels in use: the smallest L with 32^L >= tiles (0 for one tile)
  // Two levels, at most runs_before_max_tiles(sizeof(T)) tiles: the look-back computes level 1
  // from the aggregates itself (runs_before) instead of waiting for its entries. Set by the
  // blocked tile's launch.
  bool level1_from_aggregates = false;
  // The blocked tile's load window (0: none): tile t issues its loads only once t - load_window
  // + 1 tiles have loaded theirs, as counted in `landed` (cleared with the tree).
  int load_window = 0;
  unsigned long long* landed = nullptr;
};

template <class T>
constexpr std::size_t entry_bytes() {
  return level_status<T>::W * sizeof(unsigned long long);
}

/// Device bytes of the tile counter and a tree for `tiles` tiles (with the arena's alignment
/// padding), as carve_tree takes them.
template <class T>
std::size_t tree_bytes(std::int64_t tiles) {
  return tree_bytes_for(tiles, entry_bytes<T>());
}

/// Takes the tile counter and the levels of a tree for `tiles` tiles from the arena, in one
/// contiguous range, and clears that range on stream s with clear_kernel (so that the look-back
/// kernel after it can be its programmatic dependent). Returns the counter.
template <class T>
unsigned long long* carve_tree(tree<T>& tr, std::int64_t tiles, arena& ws, cudaStream_t s) {
  tr = tree<T>{};
  tr.levels = levels_for(tiles);
  auto* counter = ws.take<unsigned long long>(2);  // the tile counter, then tr.landed
  tr.landed = counter + 1;
  char* first = reinterpret_cast<char*>(counter);
  char* last = first + align_up(2 * sizeof(unsigned long long));
  for (int k = 0; k < tr.levels; ++k) {
    const std::int64_t words = level_entries(tiles, k) * level_status<T>::W;
    tr.level[k].words = ws.take<unsigned long long>(words);
    last = reinterpret_cast<char*>(tr.level[k].words) + align_up(static_cast<std::size_t>(words) * 8);
  }
  clear_async(first, static_cast<std::size_t>(last - first), s);
  return counter;
}

/// Waits for entry i of a level and returns it.
template <class T>
__device__ __forceinline__ T wait_for(const level_status<T>& st, std::int64_t i, unsigned backoff) {
  T v;
  while (!st.try_read(i, v)) __nanosleep(backoff);
  return v;
}

/// Waits until the load window's counter reaches `count` (a throttle only: nothing is read
/// because of it, so a relaxed read is enough).
__device__ __forceinline__ void wait_for_landed(const unsigned long long* landed, std::int64_t count,
                                                unsigned backoff) {
  while (load_relaxed(landed) < static_cast<unsigned long long>(count)) __nanosleep(backoff);
}

/// The combination, in order, of the entries of `level` that precede `index` inside its
/// aligned run of 32 (lane j reads entry j of the run; absent lanes are the identity).
/// Called by a whole warp; every lane gets the result.
template <class T, class Op>
__device__ __forceinline__ T run_sum(const level_status<T>& level, std::int64_t index, Op op,
                                     unsigned backoff) {
  const std::int64_t first = index & ~std::int64_t{31};
  const int lane = threadIdx.x & 31;
  T v = op.identity();
  if (first + lane < index) v = wait_for(level, first + lane, backoff);
  return warp_reduce(v, op);
}

/// Level 1 of a two-level look-back without its entries: the combination, in order, of every
/// aggregate of the aligned runs of 32 before tile t's run, read from level 0. An entry of level
/// 1 is published by the last tile of its run once that tile's own look-back has read its run,
/// so waiting for it costs a round trip after the run's last aggregate; these reads wait for the
/// aggregates only. Lane l combines the r aggregates l * r ... l * r + r - 1 (r = t / 32, the
/// runs before; at most 4 with runs_before_max_tiles(sizeof(T)) tiles), all r reads in flight together,
/// then the warp combines the lanes in order: a fixed expression for each r, so floats round
/// the same way on every run (not the same way as the tree's level-1 entries, which nothing
/// then reads). Called by a whole warp; every lane gets the result.
template <class T, class Op>
__device__ __forceinline__ T runs_before(const level_status<T>& level0, std::int64_t t, Op op, unsigned backoff) {
  constexpr std::int64_t max_tiles = runs_before_max_tiles(sizeof(T));
  constexpr int max_runs = static_cast<int>(max_tiles / 32) - 1;
  static_assert(max_tiles % 32 == 0 && max_runs >= 1 && max_runs <= 31,
                "r = t / 32 < max_tiles / 32 must fit the pending mask and w");
  constexpr int W = level_status<T>::W;
  const int r = static_cast<int>(t >> 5), lane = threadIdx.x & 31;
  if (r == 0) return op.identity();
  const std::int64_t first = std::int64_t{lane} * r;
  unsigned long long w[max_runs][W];  // the raw words; an entry's stay once all have their bit
  unsigned pending = (1u << r) - 1;
  while (pending != 0) {
#pragma unroll
    for (int i = 0; i < max_runs; ++i)  // every read issued before any is looked at
#pragma unroll
      for (int k = 0; k < W; ++k)
        if ((pending >> i) & 1) w[i][k] = load_relaxed(level0.words + (first + i) * W + k);
#pragma unroll
    for (int i = 0; i < max_runs; ++i) {
      bool ready = (pending >> i) & 1;
#pragma unroll
      for (int k = 0; k < W; ++k) ready = ready && (w[i][k] >> 32) != 0;
      if (ready) pending &= ~(1u << i);
    }
    if (pending != 0) __nanosleep(backoff);
  }
  T v = level_status<T>::value(w[0]);
#pragma unroll
  for (int i = 1; i < max_runs; ++i)
    if (i < r) v = op(v, level_status<T>::value(w[i]));
  return warp_reduce(v, op);
}

/// Step 3 of both kernels: the look-back, one warp per tree level, all levels at once. Warp 0
/// (level 0) also publishes the entries this tile completes, as early as possible: the last
/// tile of an aligned run of 32 publishes the run's combination one level up, and so on while
/// it is also the last of the bigger runs. Publishing never waits on a higher level's
/// look-back, so no chain of waits forms between runs. Lane 0 of warp k leaves level k's
/// result in level_sums[k]; the caller must __syncthreads() before reading them. `warps`: the
/// warps 0 .. warps-1 that share the levels (every warp of the block unless a kernel gives its
/// other warps other work). Level1FromAggregates compiles in runs_before, taken where the
/// tree says so (the blocked kernel only: in the striped kernel, whose items wait in
/// registers, its reads made ptxas spill).
template <bool Level1FromAggregates = false, class T, class Op>
__device__ __forceinline__ void look_back(const tree<T>& tr, std::int64_t t, T aggregate, Op op,
                                          unsigned backoff, T* level_sums, int warps = -1) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int stride = warps > 0 ? warps : static_cast<int>(blockDim.x >> 5);
  for (int k = warp; k < tr.levels; k += stride) {
    T before;
    if constexpr (Level1FromAggregates) {
      before = k == 1 && tr.level1_from_aggregates ? runs_before(tr.level[0], t, op, backoff)
                                                   : run_sum(tr.level[k], t >> (5 * k), op, backoff);
    } else {
      before = run_sum(tr.level[k], t >> (5 * k), op, backoff);
    }
    if (lane == 0) level_sums[k] = before;
    if (k == 0) {
      T v = op(before, aggregate);  // level-0 run up to and including this tile
      for (int up = 1; up < tr.levels && ((t >> (5 * (up - 1))) & 31) == 31; ++up) {
        if (lane == 0) tr.level[up].publish(t >> (5 * up), v);
        if (up + 1 < tr.levels && ((t >> (5 * up)) & 31) == 31)
          v = op(run_sum(tr.level[up], t >> (5 * up), op, backoff), v);
      }
    }
  }
}

/// Step 4 of both kernels: the tile's prefix, the carry-in and then each level's run from the
/// top down (a fixed expression, so floats round the same way on every run).
template <class T, class Op>
__device__ __forceinline__ T tile_prefix_of(const tree<T>& tr, const T* level_sums, T init, Op op) {
  T p = init;
  for (int k = tr.levels - 1; k >= 0; --k) p = op(p, level_sums[k]);
  return p;
}

}  // namespace scankit::cuda::detail::lookback
