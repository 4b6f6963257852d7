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
// Publishing. Every 32 bits of a published value travel in their own 64-bit word together
// with a "published" bit, written and read with single relaxed accesses (level_status), so a
// reader never sees a value without its flag, and wider items still cost one round trip.
#pragma once

#include <cstdlib>

#include "scankit/cuda/detail/tile_scan.cuh"

namespace scankit::cuda::detail::decoupled_lookback {

/// Tuning per item size: threads per block, 16-byte vectors per thread (register-only tiles,
/// and the staged tile's split between registers and shared memory), the blocks per SM the
/// tuned block size is compiled for, small-input limit, and the back-off while waiting for a
/// predecessor. Printed by `scankit bench --tuning`.
struct tuning {
  int block_size;
  int vectors_per_thread;         // register-only tiles (smaller inputs, other block sizes)
  int staged_register_vectors;    // the staged tile: vectors in registers ...
  int staged_vectors_per_thread;  // ... and through shared memory (cp.async), vector path only
  int min_blocks_per_sm;          // launch bounds of the tuned block size (sets ptxas's budget)
  bool raking_block_scan;         // tile::raking_scan_tile, else tile::scan_tile
  int single_block_tiles;         // inputs of at most this many tiles take the one-launch path
  unsigned backoff_ns;
  std::int64_t staged_from_items;  // smaller inputs use register-only tiles (more, smaller tiles)
};
/// Why these numbers (H100, 2^28 int32 sum, tools/experiments/lookback_tuning.cu):
/// - Without the look-back the same tile kernel runs at 98% of the copy; with it, 81%. Timing
///   each tile showed why: under full memory load one look-back round trip takes about as long
///   as the tile's own loads (~5 us), and a block holds its tile while it waits. Throughput is
///   bytes in flight over tile lifetime, so the cure is more bytes per tile, not more tiles.
/// - Registers cap the tile: 8 vectors per thread is what fits 64 registers (4 vectors: 65%
///   of the copy; 16 spill: 63%). Staging more vectors per thread in shared memory with
///   cp.async (each thread copies and reads back only its own vectors, so no barrier) makes
///   the tile bigger at the same occupancy. Each vector still costs a register for its total
///   and one for its prefix, so the split must leave ptxas room.
/// - Session 6 (tools/experiments/session6_scan_variants.cu, CUDA 13.0): the old 8 + 4 split
///   spilled 64 bytes per thread for int32 sums (ptxas -v) under the 64-register budget of
///   __launch_bounds__(1024). 6 + 6 compiled for 256 threads x 4 blocks per SM does not spill
///   and measured 2-3% faster at 2^28 and 2^30 (1.02-1.03x CUB for int32, against 1.01x);
///   8 + 8 at 3 blocks per SM tied with it; 8 + 12 and anything that spilled lost.
/// - Things that did not help: the classic look-back that stops at the nearest inclusive
///   prefix (80%, and not deterministic for floats), recomputing the previous runs' sums
///   instead of waiting for their publication (80%), a persistent grid holding two tiles
///   per block (63%: a tile id taken early is worked on late, and its successors wait), a
///   persistent grid that asks for its next tile id while storing the current one (session 6:
///   5-20% slower), prefixes parked in shared memory across the look-back (ptxas spilled as
///   much), bulk (TMA) copies through shared memory (69-74%), other back-offs and cache hints.
/// - Tile ids from the atomic counter cost 2% (int32) to 5% (int64) against blockIdx (session
///   6); they stay: they are what makes the scan deadlock-free.
/// One-launch path for a single tile only: at 2^14 int32 (two tiles) the one block walking
/// both tiles took 9.9 us against 8.4 us for the two-tile look-back launch at 2^15.
template <std::size_t ItemBytes>
constexpr tuning tuning_for() {
  // Register-only tiles below 2^25 items (4-byte): at 2^24 the 8-vector register tile beat the
  // 6 + 6 staged one (0.0684 against 0.0704 ms), at 2^26 it lost (0.2345 against 0.2276 ms)
  // (session 6). For int64 the crossing lies between 2^22 and 2^23 (session 3; at 2^28: 1.75
  // against 2.30 ms).
  // Session 6, later: the raking block scan (tile::raking_scan_tile) instead of one warp scan
  // per vector made 4-byte tiles 1-2% faster at 2^28-2^30 and 5-18% faster at 2^16-2^22
  // (int32 sum, against CUB: 1.041x / 1.044x at 2^28 / 2^30, 1.15x at 2^16, 1.09x at 2^20);
  // staged against register-only tiles with it (int32 sum, 15 runs): 2^20 0.0121 / 0.0111 ms,
  // 2^21 0.0149 / 0.0141, 2^22 0.0207 / 0.0212, 2^23 0.0402 / 0.0365 (1.3 waves of the staged
  // tile), 2^24 0.0657 / 0.0662, 2^25 0.1164 / 0.1196; max the same way. So staging starts at
  // 2^24 (results/session6-scan-staged-from.log). For 8-byte items raking lost (2^28 int64:
  // 0.892-0.903x CUB against 0.919x), so they keep the warp scans (results/session6-scan-raking.log).
  if constexpr (ItemBytes <= 4) return {256, 8, 6, 6, 4, true, 1, 32, std::int64_t{1} << 24};
  // 8-byte items: per-vector totals and prefixes take twice the registers, so fewer vectors
  // stay in registers and more are staged (2^28 int64: 4 + 8 reached 82% of the copy; 8 + 4
  // spilled, 78%; 6 + 8, 77%; session 6: 4 + 12 at 3 blocks per SM, 2 + 12 and 3 + 9 tied or lost).
  return {256, 4, 4, 8, 4, false, 1, 32, std::int64_t{1} << 23};
}

/// Where the staged tile starts: the tuning's staged_from_items, or the environment variable
/// SCANKIT_LOOKBACK_STAGED_FROM (items; for tuning runs: 0 always stages, a huge value never).
/// The staged tile is 1.5x bigger, which pays where tiles are plentiful (the look-back's wait
/// is hidden behind more bytes per tile) and costs parallelism where they are few.
inline std::int64_t staged_from_items(std::int64_t tuned) {
  static const std::int64_t from_env = [] {
    const char* e = std::getenv("SCANKIT_LOOKBACK_STAGED_FROM");
    if (e == nullptr || *e == '\0') return std::int64_t{-1};
    char* end = nullptr;
    const long long v = std::strtoll(e, &end, 10);
    return *end == '\0' && v >= 0 ? static_cast<std::int64_t>(v) : std::int64_t{-1};
  }();
  return from_env >= 0 ? from_env : tuned;
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
/// The published values of one tree level. An entry is W = ceil(sizeof(T) / 4) 64-bit words;
/// word k holds a "published" bit (bit 32) and the k-th 32 bits of the value, and is written
/// and read with one relaxed 64-bit access. A reader accepts an entry only when every word
/// has its bit, so it can never see a value without its flag, or half of a value. The words
/// are read with independent loads that are in flight together: one memory round trip for
/// any item size. (An earlier scheme for 8-byte items, value then flag with release/acquire,
/// needed two dependent round trips; under full memory load a round trip costs about as much
/// as loading a tile, so int64/double scans ran at 0.73x CUB.)
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
};

template <class T>
constexpr std::size_t entry_bytes() {
  return level_status<T>::W * sizeof(unsigned long long);
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

/// Device bytes of the tile counter and a tree for `tiles` tiles (with the arena's alignment
/// padding), as carve_tree takes them.
template <class T>
std::size_t tree_bytes(std::int64_t tiles) {
  std::size_t bytes = align_up(sizeof(unsigned long long)) + workspace_alignment;
  const int levels = levels_for(tiles);
  for (int k = 0; k < levels; ++k)
    bytes += align_up(static_cast<std::size_t>(level_entries(tiles, k)) * entry_bytes<T>()) +
             workspace_alignment;
  return bytes;
}

/// Takes the tile counter and the levels of a tree for `tiles` tiles from the arena, in one
/// contiguous range, and clears that range with one memset on stream s. Returns the counter.
template <class T>
unsigned long long* carve_tree(tree<T>& tr, std::int64_t tiles, arena& ws, cudaStream_t s) {
  tr = tree<T>{};
  tr.levels = levels_for(tiles);
  auto* counter = ws.take<unsigned long long>(1);
  char* first = reinterpret_cast<char*>(counter);
  char* last = first + align_up(sizeof(unsigned long long));
  for (int k = 0; k < tr.levels; ++k) {
    const std::int64_t words = level_entries(tiles, k) * level_status<T>::W;
    tr.level[k].words = ws.take<unsigned long long>(words);
    last = reinterpret_cast<char*>(tr.level[k].words) + align_up(static_cast<std::size_t>(words) * 8);
  }
  SCANKIT_CUDA_CHECK(cudaMemsetAsync(first, 0, static_cast<std::size_t>(last - first), s));
  return counter;
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

__device__ __forceinline__ void copy_async_16(void* smem_dst, const void* global_src) {
  const auto dst = static_cast<unsigned>(__cvta_generic_to_shared(smem_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(global_src) : "memory");
}

/// The single-pass kernel. A tile is R + S sub-tiles of blockDim.x * V items (the layout of
/// tile_scan.cuh): the first R travel through registers, the last S (vector path only) through
/// shared memory, copied there asynchronously (cp.async) while the register part loads. Each
/// thread copies and reads back only its own shared-memory vectors, so that part needs no
/// barrier. (A blocked layout of the staged part, one total per thread instead of S, needs
/// two more barriers and measured slower: 78% of the copy against 84%.)
template <int R, int S, int V, bool Vec, bool Raking, int MaxThreads, int MinBlocks, class T, class Op>
__global__ void __launch_bounds__(MaxThreads, MinBlocks)
    lookback_scan_kernel(const T* in, T* out, std::int64_t n, Op op, bool exclusive, T init,
                         T* total, const __grid_constant__ tree<T> tr,
                         unsigned long long* tile_counter, unsigned backoff) {
  static_assert(S == 0 || (Vec && V * sizeof(T) == 16), "staging needs 16-byte vectors");
  constexpr int RT = R + S;
  extern __shared__ uint4 staged[];  // S * blockDim.x vectors, then the raking buffer
  __shared__ tile::scan_storage<T, Raking ? 1 : RT> smem;
  __shared__ T warp_sums[Raking ? 32 : 1];
  __shared__ T level_sums[max_levels];
  __shared__ std::int64_t tile_id;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::int64_t tid = threadIdx.x, B = blockDim.x;
  if (threadIdx.x == 0) tile_id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
  __syncthreads();
  const std::int64_t t = tile_id;
  const std::int64_t tile_items = RT * B * V;
  const std::int64_t begin = t * tile_items;
  const std::int64_t valid = n - begin < tile_items ? n - begin : tile_items;
  const bool full = valid == tile_items;

  // 1. Load the tile: start the staged part, load the register part, then (below) wait for
  //    the staged part. Items past the end are the identity.
#pragma unroll
  for (int s = 0; s < S; ++s) {
    const std::int64_t first = ((R + s) * B + tid) * V;
    if (full) {
      copy_async_16(&staged[s * B + tid], in + begin + first);
    } else {
      T a[V];
#pragma unroll
      for (int j = 0; j < V; ++j) a[j] = first + j < valid ? in[begin + first + j] : op.identity();
      memcpy(&staged[s * B + tid], a, sizeof(a));
    }
  }
  // tile::load and tile::store take their fast vector path only for a whole register part.
  const std::int64_t register_items = R * B * V;
  const std::int64_t register_valid = valid < register_items ? valid : register_items;
  T x[R][V];
  tile::load<R, V, Vec>(in, begin, register_valid, x, op.identity());

  // 2. Scan the tile: each thread scans its register vectors in place and totals its staged
  //    ones; the block scans the vector totals (tile_scan.cuh); publish the aggregate at once.
  T totals[RT][1], prefix[RT];
#pragma unroll
  for (int r = 0; r < R; ++r) {
#pragma unroll
    for (int j = 1; j < V; ++j) x[r][j] = op(x[r][j - 1], x[r][j]);
    totals[r][0] = x[r][V - 1];
  }
  if constexpr (S > 0) asm volatile("cp.async.wait_all;" ::: "memory");
#pragma unroll
  for (int s = 0; s < S; ++s) {
    T a[V];
    memcpy(a, &staged[s * B + tid], sizeof(a));
    T v = a[0];
#pragma unroll
    for (int j = 1; j < V; ++j) v = op(v, a[j]);
    totals[R + s][0] = v;
  }
  T aggregate;
  if constexpr (Raking) {
    T flat[RT];
#pragma unroll
    for (int r = 0; r < RT; ++r) flat[r] = totals[r][0];
    aggregate = tile::raking_scan_tile(flat, prefix, op, reinterpret_cast<T*>(staged + S * B), warp_sums);
  } else {
    aggregate = tile::scan_tile(totals, prefix, op, smem);
  }
  if (threadIdx.x == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);

  // 3. Look back, one warp per tree level, all levels at once. Warp 0 (level 0) also
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

  // 4. The tile's prefix: the carry-in, then each level's run from the top down.
  T tile_prefix = init;
  for (int k = tr.levels - 1; k >= 0; --k) tile_prefix = op(tile_prefix, level_sums[k]);
  if (threadIdx.x == 0 && total && begin + valid == n) *total = op(tile_prefix, aggregate);

  // 5. Finish and store: the register part (its vectors are already scanned in place), then
  //    the staged part (scanned now, on its way out).
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const T p = op(tile_prefix, prefix[r]);
    if (exclusive) {
#pragma unroll
      for (int j = V - 1; j > 0; --j) x[r][j] = op(p, x[r][j - 1]);
      x[r][0] = p;
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j) x[r][j] = op(p, x[r][j]);
    }
  }
  tile::store<R, V, Vec>(out, begin, register_valid, x);
#pragma unroll
  for (int s = 0; s < S; ++s) {
    T a[V];
    memcpy(a, &staged[s * B + tid], sizeof(a));
    T running = op(tile_prefix, prefix[R + s]);
#pragma unroll
    for (int j = 0; j < V; ++j) {
      const T item = a[j];
      if (exclusive) {
        a[j] = running;
        running = op(running, item);
      } else {
        running = op(running, item);
        a[j] = running;
      }
    }
    const std::int64_t first = ((R + s) * B + tid) * V;
    if (full) {
      uint4 w;
      memcpy(&w, a, sizeof(w));
      __stcs(reinterpret_cast<uint4*>(out + begin + first), w);
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j)
        if (first + j < valid) out[begin + first + j] = a[j];
    }
  }
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
  const std::size_t entry = 8 * ((item_bytes + 3) / 4);  // level_status: one word per 4 bytes
  std::size_t bytes = align_up(8);
  const int levels = levels_for(tiles);
  for (int k = 0; k < levels; ++k)
    bytes += align_up(static_cast<std::size_t>(level_entries(tiles, k)) * entry) +
             2 * workspace_alignment;
  return bytes;
}

/// R vectors (or items) per thread in registers and S staged through shared memory. The
/// kernel is compiled for the tuned block size and blocks per SM when `block` is that size
/// (its register budget is what the tuning assumed), else for any block size up to 1024.
template <int R, int S, int V, bool Vec, class T, class Op>
void launch(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total,
            arena& ws, int block, cudaStream_t s) {
  constexpr tuning tu = tuning_of<T>();
  const bool exclusive = kind == scan_kind::exclusive;
  const std::int64_t tile_items = static_cast<std::int64_t>(R + S) * block * V;
  const std::int64_t tiles = ceil_div(n, tile_items);
  if (tiles <= tu.single_block_tiles) {
    // Register tiles only (R + S of them would not fit the registers of one thread).
    tile::single_block_scan_kernel<R, V, Vec><<<1, block, 0, s>>>(in, out, n, op, exclusive, init, d_total);
    SCANKIT_LAUNCH_CHECK("single_block_scan_kernel");
    return;
  }
  tree<T> tr;
  unsigned long long* counter = carve_tree(tr, tiles, ws, s);
  // One block per tile. (A persistent grid that fetched its next tile id early measured 2x
  // slower on the H100: a tile id taken early is worked on late, and its successors wait.)
  if (tiles > 0x7fffffff) throw invalid_argument("decoupled-lookback: too many tiles for one launch");
  constexpr bool raking = tu.raking_block_scan;
  const int staged_bytes = S * block * 16 +
                           (raking ? static_cast<int>(tile::raking_entries(R + S, block) * sizeof(T)) : 0);
  auto* kernel = block == tu.block_size
                     ? lookback_scan_kernel<R, S, V, Vec, raking, tu.block_size, tu.min_blocks_per_sm, T, Op>
                     : lookback_scan_kernel<R, S, V, Vec, raking, 1024, 1, T, Op>;
  if (staged_bytes > 48 * 1024)
    SCANKIT_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, staged_bytes));
  kernel<<<static_cast<unsigned>(tiles), block, staged_bytes, s>>>(
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
  constexpr tuning tu = tuning_of<T>();
  tile::dispatch_vector_path<T>(in, out, [&]<int V, bool Vec>() {
    if constexpr (Vec) {
      constexpr int R = tu.staged_register_vectors, S = tu.staged_vectors_per_thread;
      if (n >= staged_from_items(tu.staged_from_items))
        launch<R, S, V, Vec>(in, out, n, op, kind, init, d_total, ws, block, s);
      else
        launch<tu.vectors_per_thread, 0, V, Vec>(in, out, n, op, kind, init, d_total, ws, block, s);
    } else {
      // Without 16-byte vectors nothing is staged; the registers hold that many items instead.
      constexpr int R = tu.staged_register_vectors + tu.staged_vectors_per_thread;
      launch<R, 0, V, Vec>(in, out, n, op, kind, init, d_total, ws, block, s);
    }
  });
}

}  // namespace scankit::cuda::detail::decoupled_lookback
