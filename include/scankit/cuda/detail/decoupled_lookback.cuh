// decoupled-lookback: the single-pass scan (after Merrill & Garland, 2016), made bitwise
// deterministic.
//
// Each block takes the next tile id from an atomic counter (not blockIdx: a tile only ever
// waits for tiles that were handed out before it, and those are already running or done, so
// the scan cannot deadlock however blocks are scheduled). It loads and scans its tile, then
// publishes the tile's aggregate and looks back over its predecessors' published values, a
// warp at a time, for the combination of everything before it.
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
// Publishing. For items of at most 4 bytes the flag and the value share one 64-bit word
// written and read with single relaxed accesses, so a reader can never see a value without
// its flag. Wider items use a value array plus a flag array: the value is written first and
// the flag with release semantics; readers load the flag with acquire semantics, then the
// value (the PTX memory model's message-passing pattern).
#pragma once

#include "scankit/cuda/detail/tile_scan.cuh"

namespace scankit::cuda::detail::decoupled_lookback {

/// Tuning per item size: threads per block, 16-byte vectors per thread, small-input limit,
/// and the back-off while waiting for a predecessor. Printable with `scankit bench --tuning`.
struct tuning {
  int block_size;
  int vectors_per_thread;
  int single_block_tiles;  // inputs of at most this many tiles take the one-launch path
  unsigned backoff_ns;
};
/// Measured on the H100 (2^28 int32 sum, 256 threads): 4 vectors per thread reached 65% of
/// the copy's bandwidth, 8 vectors 78%: bigger tiles spread the fixed cost of a tile (the
/// atomic, the look-back) over more bytes. 8 vectors is what fits 64 registers.
/// One-launch path for a single tile only: at 2^14 int32 (two tiles) the one block walking
/// both tiles took 9.9 us against 8.4 us for the two-tile look-back launch at 2^15.
template <std::size_t ItemBytes>
constexpr tuning tuning_for() {
  return {256, 8, 1, 32};
}

inline constexpr int default_block_size = 256;
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
__device__ __forceinline__ unsigned load_relaxed_u32(const unsigned* p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed_u32(unsigned* p, unsigned v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned load_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_release(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/// The published values of one tree level, with the two publishing schemes.
template <class T, bool Packed = (sizeof(T) <= 4)>
struct level_status;

template <class T>
struct level_status<T, true> {
  unsigned long long* words;  // high half: 1 when published; low half: the value's bits
  __device__ void publish(std::int64_t i, T v) const {
    unsigned bits = 0;
    memcpy(&bits, &v, sizeof(T));
    store_relaxed(words + i, (1ull << 32) | bits);
  }
  __device__ bool try_read(std::int64_t i, T& v) const {
    const unsigned long long w = load_relaxed(words + i);
    if ((w >> 32) == 0) return false;
    const unsigned bits = static_cast<unsigned>(w);
    memcpy(&v, &bits, sizeof(T));
    return true;
  }
};

template <class T>
struct level_status<T, false> {
  unsigned* flags;
  T* values;
  static constexpr int words = (sizeof(T) + 3) / 4;
  __device__ void publish(std::int64_t i, T v) const {
    unsigned w[words] = {};
    memcpy(w, &v, sizeof(T));
    unsigned* dst = reinterpret_cast<unsigned*>(values + i);
#pragma unroll
    for (int k = 0; k < words; ++k) store_relaxed_u32(dst + k, w[k]);
    store_release(flags + i, 1u);
  }
  __device__ bool try_read(std::int64_t i, T& v) const {
    if (load_acquire(flags + i) == 0) return false;
    unsigned w[words];
    const unsigned* src = reinterpret_cast<const unsigned*>(values + i);
#pragma unroll
    for (int k = 0; k < words; ++k) w[k] = load_relaxed_u32(src + k);
    memcpy(&v, w, sizeof(T));
    return true;
  }
};

template <class T>
struct tree {
  level_status<T> level[max_levels];
  int levels;  // tree levels in use: the smallest L with 32^L >= tiles (0 for one tile)
};

template <class T>
constexpr std::size_t entry_bytes() {
  return sizeof(T) <= 4 ? sizeof(unsigned long long) : sizeof(unsigned) + sizeof(T);
}

inline int levels_for(std::int64_t tiles) {
  int levels = 0;
  for (std::int64_t span = 1; span < tiles; span *= 32) ++levels;
  return levels;
}

inline std::int64_t level_entries(std::int64_t tiles, int k) {
  std::int64_t span = std::int64_t{1} << (5 * k);
  return ceil_div(tiles, span);
}

template <class T>
std::size_t tree_bytes(std::int64_t tiles) {
  std::size_t bytes = align_up(sizeof(unsigned long long));  // the tile counter
  const int levels = levels_for(tiles);
  for (int k = 0; k < levels; ++k) {
    const auto e = static_cast<std::size_t>(level_entries(tiles, k));
    bytes += sizeof(T) <= 4 ? align_up(e * 8) : align_up(e * 4) + align_up(e * sizeof(T));
  }
  return bytes;
}

/// Waits for entry i of a level and returns it.
template <class T>
__device__ __forceinline__ T wait_for(const level_status<T>& st, std::int64_t i, unsigned backoff) {
  T v;
  while (!st.try_read(i, v)) __nanosleep(backoff);
  return v;
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

template <int R, int V, bool Vec, class T, class Op>
__global__ void __launch_bounds__(1024)
    lookback_scan_kernel(const T* in, T* out, std::int64_t n, Op op, bool exclusive, T init,
                         T* total, const __grid_constant__ tree<T> tr,
                         unsigned long long* tile_counter, unsigned backoff) {
  __shared__ tile::scan_storage<T, R> smem;
  __shared__ T level_sums[max_levels];
  __shared__ std::int64_t tile_id;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (threadIdx.x == 0) tile_id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
  __syncthreads();
  const std::int64_t t = tile_id;
  const std::int64_t tile_items = static_cast<std::int64_t>(R) * blockDim.x * V;
  const std::int64_t begin = t * tile_items;
  const std::int64_t valid = n - begin < tile_items ? n - begin : tile_items;

  // 1. Load and scan the tile; publish its aggregate at level 0 at once.
  T x[R][V], prefix[R];
  tile::load<R, V, Vec>(in, begin, valid, x, op.identity());
  const T aggregate = tile::scan_tile(x, prefix, op, smem);
  if (threadIdx.x == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);

  // 2. Look back, one warp per tree level, all levels at once. Warp 0 (level 0) also
  //    publishes the entries this tile completes, as early as possible: the last tile of an
  //    aligned run of 32 publishes the run's combination one level up, and so on while it
  //    is also the last of the bigger runs. Publishing never waits on a higher level's
  //    look-back, so no chain of waits forms between runs.
  for (int k = warp; k < tr.levels; k += blockDim.x >> 5) {
    const T before = run_sum(tr.level[k], t >> (5 * k), op, backoff);
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
  __syncthreads();

  // 3. The tile's prefix: the carry-in, then each level's run from the top down.
  T tile_prefix = init;
  for (int k = tr.levels - 1; k >= 0; --k) tile_prefix = op(tile_prefix, level_sums[k]);
  if (threadIdx.x == 0 && total && begin + valid == n) *total = op(tile_prefix, aggregate);

  // 4. Finish and store the tile.
  tile::finish(x, prefix, tile_prefix, exclusive, op);
  tile::store<R, V, Vec>(out, begin, valid, x);
}

template <class T>
constexpr tuning tuning_of() {
  return tuning_for<sizeof(T)>();
}

inline std::size_t workspace_bytes(std::int64_t n, std::size_t item_bytes, int block_size) {
  // Tile size depends on the item size only through the vector width; bound it from below
  // by 4 items per thread (the smallest tile any item size gets), which overestimates tiles.
  const std::int64_t min_tile = static_cast<std::int64_t>(block_size) * 4;
  const std::int64_t tiles = ceil_div(n, min_tile);
  const std::size_t entry = item_bytes <= 4 ? 8 : align_up(4 + item_bytes, 4);
  std::size_t bytes = align_up(8);
  const int levels = levels_for(tiles);
  for (int k = 0; k < levels; ++k)
    bytes += align_up(static_cast<std::size_t>(level_entries(tiles, k)) * entry) +
             2 * workspace_alignment;
  return bytes;
}

template <int V, bool Vec, class T, class Op>
void launch(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total,
            arena& ws, int block, cudaStream_t s) {
  constexpr tuning tu = tuning_of<T>();
  constexpr int R = tu.vectors_per_thread;
  const bool exclusive = kind == scan_kind::exclusive;
  const std::int64_t tile_items = static_cast<std::int64_t>(R) * block * V;
  const std::int64_t tiles = ceil_div(n, tile_items);
  if (tiles <= tu.single_block_tiles) {
    tile::single_block_scan_kernel<R, V, Vec><<<1, block, 0, s>>>(in, out, n, op, exclusive, init, d_total);
    SCANKIT_LAUNCH_CHECK("single_block_scan_kernel");
    return;
  }
  tree<T> tr{};
  tr.levels = levels_for(tiles);
  // Carve the counter and the levels from one contiguous range, so one memset resets all.
  auto* counter = ws.take<unsigned long long>(1);
  char* first = reinterpret_cast<char*>(counter);
  char* last = first + align_up(sizeof(unsigned long long));
  for (int k = 0; k < tr.levels; ++k) {
    const std::int64_t e = level_entries(tiles, k);
    if constexpr (sizeof(T) <= 4) {
      tr.level[k].words = ws.take<unsigned long long>(e);
      last = reinterpret_cast<char*>(tr.level[k].words) + align_up(e * 8);
    } else {
      tr.level[k].flags = ws.take<unsigned>(e);
      tr.level[k].values = ws.take<T>(e);
      last = reinterpret_cast<char*>(tr.level[k].values) + align_up(e * sizeof(T));
    }
  }
  SCANKIT_CUDA_CHECK(cudaMemsetAsync(first, 0, static_cast<std::size_t>(last - first), s));
  // One block per tile. (A persistent grid that fetched its next tile id early measured 2x
  // slower on the H100: a tile id taken early is worked on late, and its successors wait.)
  if (tiles > 0x7fffffff) throw invalid_argument("decoupled-lookback: too many tiles for one launch");
  lookback_scan_kernel<R, V, Vec><<<static_cast<unsigned>(tiles), block, 0, s>>>(
      in, out, n, op, exclusive, init, d_total, tr, counter, tu.backoff_ns);
  SCANKIT_LAUNCH_CHECK("lookback_scan_kernel");
}

template <class T, class Op>
void run(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total,
         arena& ws, int block, cudaStream_t s) {
  if (n == 0) {
    if (d_total) store_value(d_total, init, s);
    return;
  }
  constexpr int V = tile::vector_items<T>();
  if (V > 1 && tile::vector_aligned(in, out))
    launch<V, (V > 1)>(in, out, n, op, kind, init, d_total, ws, block, s);
  else
    launch<1, false>(in, out, n, op, kind, init, d_total, ws, block, s);
}

}  // namespace scankit::cuda::detail::decoupled_lookback
