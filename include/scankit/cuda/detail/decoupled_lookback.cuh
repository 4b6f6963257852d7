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

#include <limits>
#include <optional>

#include "scankit/cuda/detail/bulk_copy.cuh"
#include "scankit/cuda/detail/tile_scan.cuh"

namespace scankit::cuda::detail::decoupled_lookback {

/// Tuning per item size, printed by `scankit bench scan`. Two tile shapes:
/// - the *blocked* tile (16-byte vector path, from `blocked_from_items`): each warp copies a
///   contiguous segment of 32 x `blocked_vectors_per_thread` vectors into shared memory and
///   every lane then owns one contiguous row of it (blocked_kernel below);
/// - the *striped* register tile (smaller inputs, and the one-item path for types without
///   16-byte vectors or misaligned pointers): thread t holds vector r at (r * B + t) * V.
struct tuning {
  int block_size;
  int vectors_per_thread;          // striped register tile (one-item path: that many items x 1.5)
  int blocked_vectors_per_thread;  // blocked tile: 16-byte vectors per lane row
  int min_blocks_per_sm;           // launch bounds of the tuned block size (sets ptxas's budget)
  bool raking_block_scan;          // striped tile: tile::raking_scan_tile, else tile::scan_tile
  int single_block_tiles;          // inputs of at most this many tiles take the one-launch path
                                   // (4- and 8-byte items with 16-byte vectors and the tuned
                                   // block: up to 2,048 vectors instead, launch_striped)
  unsigned backoff_ns;             // sleep between polls of an unpublished status entry
  unsigned first_delay_ns;         // blocked tile: sleep before the first status read
  std::int64_t blocked_from_items;  // smaller inputs use the striped register tile
  std::int64_t prefetch_up_to_tiles;  // striped and blocked tiles: launches of at most this many
                                      // tiles prefetch tile blockIdx.x into L2 first
  int one_tile_per_sm_up_to_threads;  // blocked tile: where the tuned block would give more tiles
                                      // than SMs, blocks of up to this many threads (whole warps)
                                      // make one tile per SM instead (0: off)
  int load_window_tiles;              // blocked tile: launches of more tiles keep at most this
                                      // many tiles' loads in flight (tree::load_window; 0: off)
};
/// Why these numbers (H100):
/// - Session 2 (tools/experiments/lookback_tuning.cu, 2^28 int32): without the look-back the
///   tile kernel runs at 98% of the copy, with it 81%. Under full memory load one look-back
///   round trip takes about as long as the tile's own loads (~5 us) and a block holds its tile
///   while it waits, so tiles must be big: bytes in flight over tile lifetime.
/// - Sessions 2-7: the tile grew by staging vectors through shared memory with cp.async next
///   to 6-8 register vectors (striped, one total per vector, block scan by raking). It reached
///   85% of the copy for int32 (1.04x CUB) but only 79% for int64 (0.87x, CUB 90%).
/// - Session 8 (tools/experiments/session8_scan_blocked.cu, results/session8-round*.log):
///   the blocked tile. Whole in shared memory, 12 vectors per lane (48 KiB per 256 threads),
///   loaded with 16-byte __ldcs register loads and stored to shared memory (cp.async instead
///   lost 4-8% once the look-back ran, with or without an L2 evict-first policy; without the
///   look-back the two tied), one total per thread, and a 1-2 us sleep before the first status
///   read. 2^28 int64 0.875x -> 0.967x CUB, double 0.91x -> 0.99x, int32 2^30 1.045x -> 1.07x.
///   The same kernel without any look-back (wrong output, a bound) ran at 1.067x (int64) and
///   1.185x (int32) CUB: what is left is the look-back's wait.
/// - Things that did not help: the classic look-back that stops at the nearest inclusive
///   prefix (80%, and not deterministic for floats), recomputing the previous runs' sums
///   instead of waiting for their publication (80%), persistent grids (63-90%: a tile id taken
///   early is worked on late, and its successors wait), prefixes parked in shared memory, bulk
///   (TMA) copies (69-74%), 6 or 12 blocks per SM with smaller blocked tiles, back-offs of
///   200-600 ns.
/// - Tile ids from the atomic counter cost 2% (int32) to 5% (int64) against blockIdx (session
///   6); they stay: they are what makes the scan deadlock-free. Hiding the counter's round trip
///   did not pay here (session 13, docs/results/session13-round{1,2}.log): an L2 prefetch of
///   tile blockIdx.x issued before it (int32 2^28 1.07x -> 1.02x CUB, int64 0.97x -> 0.93x;
///   it pays in the compaction, compact_single_pass.cuh), or loading that tile into registers
///   and reloading when the id differs (0.88x: the ids miss blockIdx often).
/// One-launch path for a single tile only: at 2^14 int32 (two tiles) the one block walking
/// both tiles took 9.9 us against 8.4 us for the two-tile look-back launch at 2^15. (Since
/// session 22, 4- and 8-byte items with 16-byte vectors and the tuned block take one block of
/// 1,024 threads x 1-2 vectors instead, up to 2,048 vectors: launch_striped.)
template <std::size_t ItemBytes>
constexpr tuning tuning_for() {
  // Striped register tiles: 8 vectors with the raking block scan for 4-byte items (session 6:
  // 5-18% faster than one warp scan per vector at 2^16-2^22), 4 vectors with warp scans for
  // 8-byte items (raking lost there).
  // Where the blocked tile starts (session 8 sweeps with it always and never, 7 runs per size,
  // results/session8-round6.log): int32 blocked/striped 0.0203/0.0212 ms at 2^22 but
  // 0.0388/0.0364 at 2^23 (683 blocked tiles are 1.3 waves of the 528 resident blocks),
  // 0.0652/0.0651 at 2^24, 0.1153/0.1180 at 2^25, 0.8236/0.8860 at 2^28; int64 0.0114/0.0104
  // at 2^18, 0.0161/0.0157 at 2^20, 0.0219/0.0250 at 2^21, 1.631/2.287 at 2^28. The first
  // delay: without it int32 2^28-2^30 lost 1-1.5% and int64 2% (0.0 at small sizes).
  // 16-byte items (one per vector; their striped tile is the one-item tile): user operators
  // (affine maps mod 2^64) blocked / striped 1.10x / 0.66x CUB at 2^14, 1.73x / 0.78x at 2^20
  // (results/session8-round9.log).
  // 8-byte items (session 18, tools/experiments/session18_scan_mid.cu, one process with CUB,
  // docs/results/session18-round{1,2,3}.log): blocked tiles of 8 vectors (4,096 items) from
  // 2^16, where the striped tile ran at 0.91-0.99x CUB from 2^16.6 to 2^20 and 0.79x at 1.5 x
  // 2^20 (768 tiles: 1.45 waves of the 528 resident blocks). 256 x 8 with a 1 us first delay:
  // int64 / double 1.00-1.14x from 2^16 to 2^21 (12 vectors 0.88-0.98x; 6 vectors, 128- or
  // 512-thread blocks and the raking striped tile no better). At 2^12-2^16 every shape tried
  // ran at 1.07-1.28x (round 2), the striped tile among them.
  // The guess prefetch (session 18, round 6): a launch of at most 256 tiles (8-byte items up to
  // 2^20) is one wave, so tile blockIdx.x is what the block will most likely get from the
  // counter; prefetching it into L2 before waiting for the tree's clearing overlaps the load
  // with the clearing and the counter's round trip: int64 / double +5-13% at 2^14-2^16
  // (striped), +2-7% at 2^16.6-2^19.6 (blocked), +-1% at 2^20, -2 to -5% at 2^20.6-2^21.
  // Not measured for other item sizes, which keep it off.
  // One tile per SM and the load window (session 22, tools/experiments/session22_scan_window.cu,
  // docs/results/session22-round*.log): see launch_blocked.
  if constexpr (ItemBytes <= 4) return {256, 8, 12, 4, true, 1, 32, 1000, std::int64_t{1} << 24, 0, 0, 0};
  if constexpr (ItemBytes <= 8) return {256, 4, 8, 4, false, 1, 32, 1000, std::int64_t{1} << 16, 256, 768, 256};
  return {256, 4, 12, 4, false, 1, 32, 2000, std::int64_t{1} << 14, 0, 0, 0};
}

/// Where the blocked tile starts: the tuning's blocked_from_items, or the environment variable
/// SCANKIT_LOOKBACK_BLOCKED_FROM (items; for tuning runs: 0 always, a huge value never).
inline std::int64_t blocked_from_items(std::int64_t tuned) {
  static const std::optional<std::int64_t> from_env =
      env_integer("SCANKIT_LOOKBACK_BLOCKED_FROM", 0, std::numeric_limits<std::int64_t>::max());
  return from_env.value_or(tuned);
}

/// The blocked tile's first delay: the tuning's, or SCANKIT_LOOKBACK_FIRST_DELAY (ns).
inline unsigned first_delay_ns(unsigned tuned) {
  static const std::optional<std::int64_t> from_env = env_integer("SCANKIT_LOOKBACK_FIRST_DELAY", 0, 1000000);
  return from_env ? static_cast<unsigned>(*from_env) : tuned;
}

/// The blocked tile's one-tile-per-SM limit: the tuning's, or SCANKIT_LOOKBACK_ONE_TILE_PER_SM
/// (threads; 0 off).
inline int one_tile_per_sm_up_to_threads(int tuned) {
  static const std::optional<std::int64_t> from_env = env_integer("SCANKIT_LOOKBACK_ONE_TILE_PER_SM", 0, 1024);
  return from_env ? static_cast<int>(*from_env) : tuned;
}

/// The blocked tile's load window: the tuning's, or SCANKIT_LOOKBACK_LOAD_WINDOW (tiles; 0 off).
inline int load_window_tiles(int tuned) {
  static const std::optional<std::int64_t> from_env = env_integer("SCANKIT_LOOKBACK_LOAD_WINDOW", 0, 1 << 30);
  return from_env ? static_cast<int>(*from_env) : tuned;
}

/// The warp-specialized tile (specialized_kernel; Hopper only, 4- and 8-byte items, 16-byte
/// aligned pointers, the default block size): `consumers` threads + `producers` warps per
/// block, `stages` buffers of consumers x `vectors_per_thread` 16-byte vectors, compiled for
/// `min_blocks_per_sm` blocks per SM.
/// How session 15 chose its shapes (H100, session 15, tools/experiments/session15_scan_pipelined.cu, one
/// process with CUB and the copy; docs/results/session15-round{3,4,5,9,10,11}.log), the
/// library's kernel with 128-byte aligned buffers (round 11), 2^28 / 2^30:
/// - int32: 256 x 9 x 3 at 2 blocks/SM 1.161x / 1.156x CUB (94.4% / 94.1% of the copy; the
///   blocked tile 1.07x); 192 x 11 x 3 1.163x / 1.156x, 160 x 13 x 3 1.155x / 1.160x, 96 x 13
///   x 3 at 3/SM 1.155x / 1.151x, 256 x 13 x 2 1.132x, 128 x 11 x 4 1.107x.
/// - int64 (2^28 / 2^27 / 2^24): 256 x 13 x 2 1.052x / 1.047x / 1.170x; 192 x 11 x 3 1.036x /
///   1.033x / 1.192x; 96 x 13 x 3 at 3/SM 1.060x / 1.052x / 0.975x; 256 x 9 x 3 fits only
///   one block per SM (0.68x). The blocked tile: 0.97x.
/// - Unaligned buffers (the bulk copies need 16 bytes; they sat wherever the static shared
///   memory ended) cost the int32 tile 15% (round 8: 1.00x CUB).
/// - The producer also issues the stores (a separate storer warp lost 1-2%; taking the next
///   tile id while a tile loads did not help; 1, 2, 4 or 8 bulk copies per tile tied).
/// - from_items, from the size sweeps with the tile always against the dispatch below it
///   (round 10, docs/results/s15-sweep-*.csv) and the final sweeps (round 12,
///   docs/results/s15-final-sweep-*.csv): int32 1.10x against 1.03x at 2^23, 1.09x against
///   1.11x at 2^22; int64 at 256 x 13 x 2 0.905x / 0.941x / 1.048x CUB at 2^21 / 2^22 / 2^23,
///   the blocked tile 0.982x / 0.966x at 2^21 / 2^22 (and 0.88-0.92x at 2^23 in earlier
///   sessions), so 8-byte items take the tile above 2^22 (sizes between 2^22 and 2^23 were
///   not measured).
struct specialized_shape {
  int consumers;
  int vectors_per_thread;
  int stages;
  int min_blocks_per_sm;
  int producers;  // producer warps per block
  std::int64_t from_items;
};
/// Session 18 (tools/experiments/session18_scan_mid.cu, docs/results/session18-round{2,3}.log,
/// 15-41 runs per row): 128 consumers x 11 vectors x 3 buffers, three blocks per SM (68 KiB
/// each), beat every shape above for both item sizes. Three producers per SM compute row
/// totals over half the rows each: session 17's trace (session17_scan_trace.cu) had the one
/// producer of a 256-consumer block spend 1.7 us (int32) and 3.2 us (int64) of its 6.8 / 9.9 us
/// period on them, issuing no load meanwhile.
/// - int32 2^27 / 2^28 / 2^30: 1.176x / 1.168x / 1.166x CUB, 95.4% / 95.0% / 94.9% of the copy
///   (256 x 9 x 3: 1.150x / 1.161x / 1.156x); float 1.167x / 1.160x / 1.160x (1.128x / 1.143x
///   / 1.142x); 2^23 1.189x, 2^24-2^26 1.13-1.17x (256 x 9 x 3 1.09-1.16x). 128 x 9 x 3 was
///   close (1.16-1.17x at 2^24-2^25, 1.158x at 2^28); 128 x 7 x 4, 128 x 11 x 2 at 4/SM,
///   160 x 11 x 3, 128 x 13 x 3 lost.
/// - int64 2^24 / 2^26 / 2^28: 1.075x / 1.068x / 1.060x CUB, 95.8% of the copy at 2^28 (256 x
///   13 x 2: 1.009x / 1.042x / 1.045x); double 1.128x / 1.113x / 1.112x (96.2% of the copy at
///   2^28). From 2^21 (the blocked tile's 512 tiles fill the 528 resident blocks once; beyond,
///   it drops to 0.90x): 1.05-1.13x at 2^21.6-2^23 (256 x 13 x 2 0.96-1.08x).
/// - Four levels of 32 (one consumer warp each) cover 2^20 tiles: 5.9e9 4-byte or 2.9e9 8-byte
///   items. Larger inputs take the blocked tile (launch_specialized declines).
/// Session 19 (tools/experiments/session18_scan_ahead.cu, mode "producers", docs/results/
/// session19-round1.log): for 4-byte items, 256 consumers x 9 vectors x 3 buffers at two blocks
/// per SM with *two* producer warps, each totalling half the rows, reached 96.2-96.7% of the
/// copy at 2^26-2^30 (int32 1.181-1.186x CUB, float 1.173-1.180x) against 94.8-95.1% for
/// 128 x 11 x 3 with one producer (1.156-1.166x); 128 x 11 x 3 with two or four producers
/// tied with one. Session 18's trace of 128 x 11 x 3 (same log) had its producer's period at
/// 5.2 us, of which 2.9 us (mean) totalling rows. 8-byte items gained nothing (256 x 13 x 2
/// with four producers 1.066x against 1.061x at 2^28, 1.116x against 1.113x for double) and keep
/// the one-producer tile, whose code was unchanged (the same PTX as before) until every
/// producer thread came to arrive on `ready` itself (the review of session 19).
/// - Eight consumer warps allow eight levels, far beyond any input.
/// - from_items (session19-round2.log, the tile always against never, 21 runs per row, int32 /
///   float): 2^21 1.01x / 1.00x CUB against 1.05x / 1.06x; 2^22 1.16x / 1.12x against 1.21x /
///   1.20x; 2^22.5 1.16x / 1.14x against 1.00x / 1.01x (the striped tile's 724 tiles of 8,192
///   items are more than the 528 resident blocks); 2^23 1.21x / 1.26x against 1.02x / 1.03x. So
///   4-byte items take it above 2^22 (it started at 2^23 before, which left 2^22-2^23 at 1.00x).
template <std::size_t ItemBytes>
constexpr specialized_shape specialized_shape_for() {
  if constexpr (ItemBytes == 4) return {256, 9, 3, 2, 2, (std::int64_t{1} << 22) + 1};
  else return {128, 11, 3, 3, 1, (std::int64_t{1} << 21) + 1};
}

/// Where the warp-specialized tile starts: the shape's from_items, or the environment variable
/// SCANKIT_LOOKBACK_SPECIALIZED_FROM (items; for tests and tuning runs: 0 always, a huge value never).
inline std::int64_t specialized_from_items(std::int64_t tuned) {
  static const std::optional<std::int64_t> from_env =
      env_integer("SCANKIT_LOOKBACK_SPECIALIZED_FROM", 0, std::numeric_limits<std::int64_t>::max());
  return from_env.value_or(tuned);
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

/// Launches of at most this many tiles (two levels) may read level 1 from level 0 (runs_before).
/// Session 18, round 8 (docs/results/session18-round8.log, the library's blocked tile against
/// the same kernel waiting for level 1, one process with CUB): int64 / double +5-10% at 48-128
/// tiles (2^17.6-2^19 items), +0.5% at 192, -5% at 256 (each of 256 polling tiles then
/// re-reads up to 7 entries per lane until all have landed).
/// Session 22: 160 for items of up to 8 bytes, so that the one-tile-per-SM launches of the
/// blocked tile (up to 132 tiles on an H100) read level 1 from the aggregates too; 128 for
/// bigger items, whose blocked kernel spilled (36 bytes) with room for a fourth run's words.
template <class T>
constexpr std::int64_t runs_before_max_tiles() {
  return sizeof(T) <= 8 ? 160 : 128;
}

template <class T>
struct tree {
  level_status<T> level[max_levels];
  int levels;  // tree levels in use: the smallest L with 32^L >= tiles (0 for one tile)
  // Two levels, at most runs_before_max_tiles<T>() tiles: the look-back computes level 1 from the
  // aggregates itself (runs_before) instead of waiting for its entries. Set by the blocked
  // tile's launch.
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
  std::size_t bytes = align_up(2 * sizeof(unsigned long long)) + workspace_alignment;
  const int levels = levels_for(tiles);
  for (int k = 0; k < levels; ++k)
    bytes += align_up(static_cast<std::size_t>(level_entries(tiles, k)) * entry_bytes<T>()) +
             workspace_alignment;
  return bytes;
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

/// The guess prefetch of the striped and blocked kernels (where the launch asks for it): thread
/// 0 asks L2 for the tile of `tile_items` items numbered blockIdx.x, the id the block is most
/// likely to get from the counter when the launch is one wave. A hint only: it reads nothing the
/// clearing writes, and L2 is where global memory is coherent, so it may run before
/// wait_for_previous_grid(). Compiled only for item sizes whose tuning turns it on.
template <class T>
__device__ __forceinline__ void prefetch_guessed_tile(bool prefetch, const T* in, std::int64_t n,
                                                      std::int64_t tile_items) {
  if constexpr (tuning_for<sizeof(T)>().prefetch_up_to_tiles > 0) {
    if (!prefetch) return;
    const std::int64_t first = blockIdx.x * tile_items;
    if (threadIdx.x == 0 && first < n)
      prefetch_l2(in + first, static_cast<std::size_t>(n - first < tile_items ? n - first : tile_items) * sizeof(T));
  } else {
    (void)prefetch, (void)in, (void)n, (void)tile_items;
  }
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
/// runs before; at most 4 with runs_before_max_tiles<T>() tiles), all r reads in flight together,
/// then the warp combines the lanes in order: a fixed expression for each r, so floats round
/// the same way on every run (not the same way as the tree's level-1 entries, which nothing
/// then reads). Called by a whole warp; every lane gets the result.
template <class T, class Op>
__device__ __forceinline__ T runs_before(const level_status<T>& level0, std::int64_t t, Op op, unsigned backoff) {
  constexpr std::int64_t max_tiles = runs_before_max_tiles<T>();
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

/// The striped kernel (smaller inputs, and the one-item path): R vectors (or items) per thread
/// in registers in the layout of tile_scan.cuh.
template <int R, int V, bool Vec, bool Raking, int MaxThreads, int MinBlocks, class T, class Op>
__global__ void __launch_bounds__(MaxThreads, MinBlocks)
    lookback_scan_kernel(const T* in, T* out, std::int64_t n, Op op, bool exclusive, T init,
                         T* total, const __grid_constant__ tree<T> tr,
                         unsigned long long* tile_counter, unsigned backoff, bool prefetch) {
  extern __shared__ uint4 raking_buffer[];
  __shared__ tile::scan_storage<T, Raking ? 1 : R> smem;
  __shared__ T warp_sums[Raking ? 32 : 1];
  __shared__ T level_sums[max_levels];
  __shared__ std::int64_t tile_id;
  const std::int64_t B = blockDim.x;
  const std::int64_t tile_items = R * B * V;
  prefetch_guessed_tile(prefetch, in, n, tile_items);
  wait_for_previous_grid();  // the tree's clearing (this kernel follows it as a dependent)
  if (threadIdx.x == 0) tile_id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
  __syncthreads();
  const std::int64_t t = tile_id;
  const std::int64_t begin = t * tile_items;
  const std::int64_t valid = n - begin < tile_items ? n - begin : tile_items;

  // 1. Load the tile (items past the end are the identity).
  T x[R][V];
  tile::load<R, V, Vec, true>(in, begin, valid, x, op.identity());

  // 2. Scan the tile: each thread scans its vectors in place, the block scans the vector
  //    totals (tile_scan.cuh); publish the aggregate at once.
  T totals[R][1], prefix[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
#pragma unroll
    for (int j = 1; j < V; ++j) x[r][j] = op(x[r][j - 1], x[r][j]);
    totals[r][0] = x[r][V - 1];
  }
  T aggregate;
  if constexpr (Raking) {
    T flat[R];
#pragma unroll
    for (int r = 0; r < R; ++r) flat[r] = totals[r][0];
    aggregate = tile::raking_scan_tile(flat, prefix, op, reinterpret_cast<T*>(raking_buffer), warp_sums);
  } else {
    aggregate = tile::scan_tile(totals, prefix, op, smem);
  }
  if (threadIdx.x == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);

  // 3-4. Look back; the tile's prefix.
  look_back(tr, t, aggregate, op, backoff, level_sums);
  __syncthreads();
  const T tile_prefix = tile_prefix_of(tr, level_sums, init, op);
  if (threadIdx.x == 0 && total && begin + valid == n) *total = op(tile_prefix, aggregate);

  // 5. Finish (the vectors are already scanned in place) and store.
  tile::finish(x, prefix, tile_prefix, exclusive, op);
  tile::store<R, V, Vec, true>(out, begin, valid, x);
}

/// One thread's row of KV 16-byte vectors (V items each) in shared memory, scanned in place
/// from `running`, the combination of everything before the row (the last step of the blocked
/// and the warp-specialized tiles).
template <int KV, int V, class T, class Op>
__device__ __forceinline__ void scan_row_in_place(uint4* row, T running, bool exclusive, Op op) {
#pragma unroll
  for (int c = 0; c < KV; ++c) {
    T a[V];
    memcpy(a, &row[c], sizeof(a));
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
    memcpy(&row[c], a, sizeof(a));
  }
}

/// Shared-memory layout of the blocked tile: each warp's segment is 32 rows of KV 16-byte
/// vectors, lane l owning row l; every row is padded by one vector, so that the eight lanes of
/// a quarter-warp reading vector c of their rows (row stride KV + 1, odd) hit eight different
/// bank groups. Vector g of a segment (in memory order) lives in row g / KV, column g % KV.
template <int KV>
struct blocked_layout {
  static_assert(KV % 2 == 0, "the padding spreads the banks only for an even row length");
  static constexpr int row_vectors = KV + 1;
  static constexpr int segment_vectors = 32 * row_vectors;
  __device__ static constexpr int slot(int g) { return (g / KV) * row_vectors + g % KV; }
  static constexpr int bytes(int block) { return block * row_vectors * 16; }
};

/// The blocked kernel (16-byte vector path, larger inputs). The tile is blockDim.x * KV
/// vectors; warp w owns the contiguous segment of 32 * KV of them starting at w * 32 * KV.
///   0. With a load window (tree::load_window = W), tile t first waits until t - W + 1 tiles
///      have loaded theirs (launch_blocked says why). Deadlock-free: tiles below W never wait,
///      and tile t waits only for tiles that took smaller ids, which are running.
///   1. The warp loads its segment with coalesced 16-byte loads (all KV in flight, in
///      registers) and stores them to shared memory, so that lane l's row holds the
///      K = KV * V consecutive items l * K ... l * K + K - 1 of the segment.
///   2. Each lane combines its row (one total per thread); a warp scan and the warp totals
///      give each thread the tile items before its row, and the tile's aggregate, which is
///      published at once.
///   3. After a short sleep (first_delay: most predecessors publish meanwhile, so fewer status
///      reads find nothing), the look-back finds the tile's prefix.
///   4. Each lane scans its row again from its prefix, in place; the warp streams the segment
///      out with coalesced 16-byte stores.
/// A warp only ever touches its own segment, so only __syncwarp separates its steps; the
/// block meets twice (warp totals, look-back). The items stay in shared memory across the
/// look-back, so the registers hold nothing but the row's prefix there.
template <int KV, int MaxThreads, int MinBlocks, class T, class Op>
__global__ void __launch_bounds__(MaxThreads, MinBlocks)
    blocked_kernel(const T* in, T* out, std::int64_t n, Op op, bool exclusive, T init, T* total,
                   const __grid_constant__ tree<T> tr, unsigned long long* tile_counter,
                   unsigned backoff, unsigned first_delay, bool prefetch) {
  using layout = blocked_layout<KV>;
  constexpr int V = tile::vector_items<T>();
  constexpr int K = KV * V;  // items per lane row
  static_assert(V * sizeof(T) == 16, "the blocked tile needs 16-byte vectors");
  extern __shared__ uint4 segments[];
  __shared__ T warp_totals[32];
  __shared__ T level_sums[max_levels];
  __shared__ std::int64_t tile_id;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::int64_t tile_items = std::int64_t{blockDim.x} * K;
  prefetch_guessed_tile(prefetch, in, n, tile_items);
  wait_for_previous_grid();  // the tree's clearing (this kernel follows it as a dependent)
  if (threadIdx.x == 0) {
    const std::int64_t id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
    if (tr.load_window > 0 && id >= tr.load_window) wait_for_landed(tr.landed, id - tr.load_window + 1, backoff);
    tile_id = id;
  }
  __syncthreads();
  const std::int64_t t = tile_id;
  const std::int64_t begin = t * tile_items;
  const std::int64_t seg_begin = begin + std::int64_t{warp} * 32 * K;
  const std::int64_t seg_valid = n - seg_begin;  // items of the segment that exist (may be <= 0)
  const bool seg_full = seg_valid >= 32 * K;
  uint4* seg = segments + warp * layout::segment_vectors;
  uint4* row = seg + lane * layout::row_vectors;

  // 1. Load the segment (items past the end are the identity).
  if (seg_full) {
    const uint4* src = reinterpret_cast<const uint4*>(in + seg_begin) + lane;
    uint4 w[KV];
#pragma unroll
    for (int v = 0; v < KV; ++v) w[v] = __ldcs(src + v * 32);  // read once: evict-first
#pragma unroll
    for (int v = 0; v < KV; ++v) seg[layout::slot(v * 32 + lane)] = w[v];
  } else {
#pragma unroll
    for (int v = 0; v < KV; ++v) {
      const int g = v * 32 + lane;
      T a[V];
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const std::int64_t i = std::int64_t{g} * V + j;
        a[j] = i < seg_valid ? in[seg_begin + i] : op.identity();
      }
      memcpy(&seg[layout::slot(g)], a, sizeof(a));
    }
  }
  __syncwarp();

  // 2. Row totals; the block scan of the rows; publish the aggregate.
  T row_total;
  {
    T a[V];
    memcpy(a, &row[0], sizeof(a));
    row_total = a[0];
#pragma unroll
    for (int j = 1; j < V; ++j) row_total = op(row_total, a[j]);
#pragma unroll
    for (int c = 1; c < KV; ++c) {
      memcpy(a, &row[c], sizeof(a));
#pragma unroll
      for (int j = 0; j < V; ++j) row_total = op(row_total, a[j]);
    }
  }
  T aggregate;
  const T before_row = tile::block_exclusive_scan(row_total, op, warp_totals, aggregate);
  if (threadIdx.x == 0) {
    if (tr.levels > 0) tr.level[0].publish(t, aggregate);
    if (tr.load_window > 0) atomicAdd(tr.landed, 1ull);  // every load of the tile has landed
  }

  // 3. Look back.
  if (first_delay != 0 && warp < tr.levels) __nanosleep(first_delay);
  look_back<true>(tr, t, aggregate, op, backoff, level_sums);
  __syncthreads();
  const T tile_prefix = tile_prefix_of(tr, level_sums, init, op);
  if (threadIdx.x == 0 && total && begin + tile_items >= n) *total = op(tile_prefix, aggregate);

  // 4. Scan the row from its prefix, in place, and stream the segment out.
  scan_row_in_place<KV, V>(row, op(tile_prefix, before_row), exclusive, op);
  __syncwarp();
  if (seg_full) {
    uint4* dst = reinterpret_cast<uint4*>(out + seg_begin) + lane;
#pragma unroll
    for (int v = 0; v < KV; ++v) __stcs(dst + v * 32, seg[layout::slot(v * 32 + lane)]);
  } else {
#pragma unroll
    for (int v = 0; v < KV; ++v) {
      const int g = v * 32 + lane;
      T a[V];
      memcpy(a, &seg[layout::slot(g)], sizeof(a));
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const std::int64_t i = std::int64_t{g} * V + j;
        if (i < seg_valid) out[seg_begin + i] = a[j];
      }
    }
  }
}

/// The warp-specialized tile (large inputs, Hopper; session 15). A persistent grid: each block
/// stays resident, owns `Stages` shared-memory buffers of one tile (Consumers threads x KV
/// 16-byte vectors, in memory order) and splits its warps into two roles.
///   - The producer (the block's last warp), for each buffer in turn: waits until the
///     consumers are done with the buffer and stores the tile that was scanned in it with one
///     bulk copy, takes the next tile id, loads that tile with a bulk copy, and as soon as it
///     lands computes the exclusive prefix of each thread row, publishes the tile's aggregate
///     and hands the buffer to the consumers. With `Producers` > 1 warps (session 19), the
///     first of them stores, takes the id and loads; every one of them totals its share of the
///     rows, and they combine their totals through shared memory (in warp order, so that a
///     non-commutative operator keeps its order) before the hand-over.
///   - The consumers (warps 0 .. Consumers/32 - 1), for each buffer in the same order: look
///     back for the tile's prefix (decoupled_lookback's radix-32 tree) and scan their rows in
///     place from it.
/// Why: in the one-tile-per-block kernels a block loads nothing while it waits for its
/// predecessors, so the bytes in flight drop (blocked tile: 87% of the copy at 2^28 int32,
/// ~97% without the look-back). Here the next tiles' copies are under way while the consumers
/// look back, and an aggregate waits only for its data, never for a look-back (publishing it
/// from the consumers instead, after their previous look-back, chained the tiles: 40-81% of
/// the copy; docs/results/session15-round{1,2}.log).
/// Deadlock freedom: a block works on its tiles in the order it took their ids, so the
/// smallest unfinished id is always the consumers' current tile of some running block, and
/// its look-back needs only smaller ids, which are done.
/// KV is odd, so the eight lanes of a quarter warp reading vector c of their rows (stride KV
/// vectors) hit eight different bank groups without padding, which a bulk copy cannot add.
template <int Consumers, int KV, int Stages, int MinBlocks, int Producers, class T, class Op>
__global__ void __launch_bounds__(Consumers + 32 * Producers, MinBlocks)
    specialized_kernel(const T* in, T* out, std::int64_t n, std::int64_t tiles, Op op, bool exclusive, T init,
                       T* total, const __grid_constant__ tree<T> tr, unsigned long long* tile_counter,
                       unsigned backoff) {
  constexpr int V = tile::vector_items<T>();
  constexpr std::int64_t tile_items = std::int64_t{Consumers} * KV * V;
  constexpr unsigned tile_bytes = Consumers * KV * 16;
  constexpr int consumer_warps = Consumers / 32;
  constexpr int groups = consumer_warps / Producers;  // 32-row groups per producer warp
  static_assert(V * sizeof(T) == 16 && KV % 2 == 1 && Consumers % 32 == 0);
  static_assert(Producers >= 1 && consumer_warps % Producers == 0);
  // Stages tiles of Consumers * KV vectors. 128-byte aligned: with only the 16 bytes bulk
  // copies require, the int32 tile ran 15% slower (docs/results/session15-round{8,9}.log).
  extern __shared__ __align__(128) uint4 buffers[];
  // loaded: the bulk copy landed; ready: row prefixes written, aggregate published, tile id set;
  // scanned: every consumer is done with the buffer (its tile scanned in place).
  __shared__ std::uint64_t loaded[Stages], ready[Stages], scanned[Stages];
  __shared__ std::int64_t buffer_tile[Stages];
  __shared__ std::int64_t issued_tile[Producers > 1 ? Stages : 1];  // the id, for producer warps 1..
  __shared__ T before_row[Stages][Consumers];
  __shared__ T buffer_aggregate[Stages];
  __shared__ T producer_total[Stages][Producers];  // each producer warp's rows' total
  __shared__ T level_sums[2][max_levels];  // alternate tiles: one barrier per tile suffices
  const int tid = threadIdx.x, lane = tid & 31;
  auto buffer = [&](int s) { return buffers + s * Consumers * KV; };
  auto whole = [&](std::int64_t t) { return (t + 1) * tile_items <= n; };
  if (tid == 0) {
    for (int s = 0; s < Stages; ++s) {
      bulk::barrier_init(&loaded[s], 1);
      bulk::barrier_init(&ready[s], 32 * Producers);
      bulk::barrier_init(&scanned[s], Consumers);
    }
    bulk::fence_barrier_init();
  }
  wait_for_previous_grid();  // the tree's clearing (this kernel follows it as a dependent)
  __syncthreads();

  if (tid >= Consumers) {
    // The producers. Use j of the buffers is buffer j % Stages, phase (j / Stages) & 1.
    // Warp pw totals the rows of consumer warps pw * groups .. (pw + 1) * groups - 1.
    const int pw = Producers == 1 ? 0 : (tid - Consumers) >> 5;
    const int ptid = Producers == 1 ? lane : tid - Consumers;
    auto store_scanned = [&](int j) {  // the tile of use j, once scanned (a partial one is stored by the consumers)
      const int s = j % Stages;
      bulk::wait(&scanned[s], (j / Stages) & 1);
      const std::int64_t t = buffer_tile[s];
      if (lane == 0 && whole(t)) {
        bulk::store(out + t * tile_items, buffer(s), tile_bytes);
        bulk::wait_read();
      }
      __syncwarp();
    };
    int j = 0;
    for (;; ++j) {
      const int s = j % Stages;
      std::int64_t t = 0;
      // One producer keeps session 18's loop (id by shuffle, the load issued with the id):
      // the general form below, run with one producer, was 0.4-0.9% slower for 8-byte items
      // (docs/results/session19-round1.log, "producers1").
      if constexpr (Producers == 1) {
        if (j >= Stages) store_scanned(j - Stages);
        if (lane == 0) t = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
        t = __shfl_sync(0xffffffffu, t, 0);
      } else {
        // Warp 0 stores, takes the id and loads; `loaded` completes once per use (with the
        // bytes of a whole tile, else with a plain arrive) so that every producer warp can
        // wait on it for the id.
        if (pw == 0) {
          if (j >= Stages) store_scanned(j - Stages);
          if (lane == 0) {
            const auto id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
            issued_tile[s] = id;
            if (id < tiles && whole(id)) {
              bulk::arrive_expect_bytes(&loaded[s], tile_bytes);
              bulk::load(buffer(s), in + id * tile_items, tile_bytes, &loaded[s]);
            } else {
              bulk::arrive(&loaded[s]);
            }
          }
        }
        bulk::wait(&loaded[s], (j / Stages) & 1);
        t = issued_tile[s];
        // The consumers of this buffer's previous use are done with before_row[s] (warp 0
        // waited for that before refilling the buffer; waiting here says so to racecheck too).
        if (t < tiles && pw != 0 && j >= Stages) bulk::wait(&scanned[s], ((j - Stages) / Stages) & 1);
      }
      if (t < tiles) {
        const std::int64_t begin = t * tile_items;
        if (whole(t)) {
          if constexpr (Producers == 1) {  // (with more, warp 0 issued the load above)
            if (lane == 0) {
              bulk::arrive_expect_bytes(&loaded[s], tile_bytes);
              bulk::load(buffer(s), in + begin, tile_bytes, &loaded[s]);
            }
            bulk::wait(&loaded[s], (j / Stages) & 1);
          }
        } else {  // the last tile, partial: items past the end are the identity
          T* items = reinterpret_cast<T*>(buffer(s));
          for (std::int64_t i = ptid; i < tile_items; i += 32 * Producers) items[i] = begin + i < n ? in[begin + i] : op.identity();
          if constexpr (Producers == 1) __syncwarp();
          else sync_named(2, 32 * Producers);
        }
        // Row totals (lane l of warp pw takes rows (pw * groups + g) * 32 + l), then the rows'
        // exclusive prefixes in order, 32 rows per warp scan.
        [[maybe_unused]] T local[groups];
        T carry = op.identity();
#pragma unroll
        for (int g = 0; g < groups; ++g) {
          const int i = pw * groups + g;
          const uint4* row = buffer(s) + (i * 32 + lane) * KV;
          T row_total = op.identity();
#pragma unroll
          for (int c = 0; c < KV; ++c) {
            T a[V];
            memcpy(a, &row[c], sizeof(a));
#pragma unroll
            for (int k = 0; k < V; ++k) row_total = op(row_total, a[k]);
          }
          const T inclusive = warp_inclusive_scan(row_total, op);
          const T before_in_warp = shfl_up(inclusive, 1);
          const T before = lane == 0 ? carry : op(carry, before_in_warp);
          if constexpr (Producers == 1) before_row[s][i * 32 + lane] = before;
          else local[g] = before;
          carry = op(carry, shfl_idx(inclusive, 31));
        }
        T aggregate = carry;
        if constexpr (Producers > 1) {
          // Each warp's rows start after the totals of the warps before it (combined on the
          // left, so a non-commutative operator keeps its order).
          if (lane == 0) producer_total[s][pw] = carry;
          sync_named(3, 32 * Producers);
          T offset = op.identity();
          aggregate = op.identity();
#pragma unroll
          for (int q = 0; q < Producers; ++q) {
            const T x = producer_total[s][q];
            if (q < pw) offset = op(offset, x);
            aggregate = op(aggregate, x);
          }
#pragma unroll
          for (int g = 0; g < groups; ++g) before_row[s][(pw * groups + g) * 32 + lane] = op(offset, local[g]);
        }
        if (pw == 0 && lane == 0) {
          buffer_aggregate[s] = aggregate;
          if (tr.levels > 0) tr.level[0].publish(t, aggregate);
        }
      }
      // Every producer thread arrives, so that each one's row prefixes are released to the
      // consumers by its own arrive. (Until session 19 lane 0 arrived alone, with nothing but
      // the shuffles to order the other lanes' writes before it; one arrive per warp after a
      // __syncwarp drew racecheck hazards in the compaction's counting warps.)
      if (pw == 0 && lane == 0) buffer_tile[s] = t;
      bulk::arrive(&ready[s]);
      if (t >= tiles) break;  // the consumers stop at this use too
    }
    if (pw == 0) {
      for (int k = j - Stages + 1 < 0 ? 0 : j - Stages + 1; k < j; ++k) store_scanned(k);
      if (lane == 0) bulk::wait_all();
    }
    return;
  }
  // The consumers.
  for (int j = 0;; ++j) {
    const int s = j % Stages;
    bulk::wait(&ready[s], (j / Stages) & 1);
    const std::int64_t t = buffer_tile[s];
    if (t >= tiles) break;
    const T aggregate = buffer_aggregate[s];
    T* sums = level_sums[j & 1];
    look_back(tr, t, aggregate, op, backoff, sums, consumer_warps);
    sync_first_threads(Consumers);
    const T tile_prefix = tile_prefix_of(tr, sums, init, op);
    const std::int64_t begin = t * tile_items;
    if (tid == 0 && total && begin + tile_items >= n) *total = op(tile_prefix, aggregate);
    scan_row_in_place<KV, V>(buffer(s) + tid * KV, op(tile_prefix, before_row[s][tid]), exclusive, op);
    if (whole(t)) {
      bulk::fence_proxy_async();  // the producer's bulk store reads these writes
    } else {
      sync_first_threads(Consumers);
      const T* items = reinterpret_cast<const T*>(buffer(s));
      for (std::int64_t i = tid; i < tile_items && begin + i < n; i += Consumers) out[begin + i] = items[i];
    }
    bulk::arrive(&scanned[s]);
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
  std::size_t bytes = align_up(16);  // the tile counter and tree::landed
  const int levels = levels_for(tiles);
  for (int k = 0; k < levels; ++k)
    bytes += align_up(static_cast<std::size_t>(level_entries(tiles, k)) * entry) +
             2 * workspace_alignment;
  return bytes;
}

/// Sets a kernel's dynamic shared-memory limit when it needs more than the default 48 KiB.
template <class Kernel>
void allow_shared_bytes(Kernel* kernel, int bytes) {
  allow_dynamic_shared_memory(kernel, static_cast<std::size_t>(bytes));
}

/// Whether a launch of `tiles` tiles reads level 1 from the aggregates (runs_before): two levels
/// and at most runs_before_max_tiles<T>() tiles, unless SCANKIT_LOOKBACK_LEVEL1_FROM_AGGREGATES=0
/// (for tuning runs and the tests of the other path).
template <class T>
bool level1_from_aggregates(const tree<T>& tr, std::int64_t tiles) {
  static const std::optional<std::int64_t> from_env = env_integer("SCANKIT_LOOKBACK_LEVEL1_FROM_AGGREGATES", 0, 1);
  return from_env.value_or(1) != 0 && tr.levels == 2 && tiles <= runs_before_max_tiles<T>();
}

/// Clears the tree for `tiles` tiles and checks the grid fits one launch.
template <class T>
unsigned long long* prepare_tree(tree<T>& tr, std::int64_t tiles, arena& ws, cudaStream_t s) {
  if (tiles > 0x7fffffff) throw invalid_argument("decoupled-lookback: too many tiles for one launch");
  return carve_tree(tr, tiles, ws, s);
}

/// The striped register tile: R vectors (or items) per thread. The kernel is compiled for the
/// tuned block size and blocks per SM when `block` is that size (its register budget is what
/// the tuning assumed), else for any block size up to 1024.
template <int R, int V, bool Vec, class T, class Op>
void launch_striped(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total,
                    arena& ws, int block, cudaStream_t s) {
  constexpr tuning tu = tuning_of<T>();
  const bool exclusive = kind == scan_kind::exclusive;
  const std::int64_t tile_items = static_cast<std::int64_t>(R) * block * V;
  const std::int64_t tiles = ceil_div(n, tile_items);
  // The one-launch path for 4- and 8-byte items (session 22, session22_scan_window.cu mode 7,
  // docs/results/session22-round11.log): 1,024 threads with one or two vectors each, up to 2,048
  // vectors. The tuned striped shape (256 x 8 vectors for 4-byte items) took 6.5-7.3 us from
  // 2^10 to 2^13 int32 / float items; 1,024 x 1 took 4.5 us up to 4,096 items and 1,024 x 2
  // 5.2-5.3 us up to 8,192. For 8-byte items 1,024 x 1 took 4.6-4.8 us up to 2,048 against
  // 5.1-6.4 us, and 1,024 x 2 5.7-5.9 us up to 4,096, where two look-back tiles took 6.4-7.4 us.
  if constexpr (Vec && V * sizeof(T) == 16 && (sizeof(T) == 4 || sizeof(T) == 8)) {
    if (block == tu.block_size && n <= std::int64_t{2048} * V) {
      if (n <= std::int64_t{1024} * V)
        tile::single_block_scan_kernel<1, V, Vec><<<1, 1024, 0, s>>>(in, out, n, op, exclusive, init, d_total);
      else
        tile::single_block_scan_kernel<2, V, Vec><<<1, 1024, 0, s>>>(in, out, n, op, exclusive, init, d_total);
      SCANKIT_LAUNCH_CHECK("single_block_scan_kernel");
      return;
    }
  }
  if (tiles <= tu.single_block_tiles) {
    tile::single_block_scan_kernel<R, V, Vec><<<1, block, 0, s>>>(in, out, n, op, exclusive, init, d_total);
    SCANKIT_LAUNCH_CHECK("single_block_scan_kernel");
    return;
  }
  tree<T> tr;
  unsigned long long* counter = prepare_tree(tr, tiles, ws, s);
  constexpr bool raking = tu.raking_block_scan;
  const int smem = raking ? static_cast<int>(tile::raking_entries(R, block) * sizeof(T)) : 0;
  auto* kernel = block == tu.block_size
                     ? lookback_scan_kernel<R, V, Vec, raking, tu.block_size, tu.min_blocks_per_sm, T, Op>
                     : lookback_scan_kernel<R, V, Vec, raking, 1024, 1, T, Op>;
  allow_shared_bytes(kernel, smem);
  launch_after("launch of lookback_scan_kernel", kernel, static_cast<unsigned>(tiles), block, smem, s, in, out, n, op,
               exclusive, init, d_total, tr, counter, tu.backoff_ns, tiles <= tu.prefetch_up_to_tiles);
}

/// The blocked tile's block size for n items: the caller's, or (with the tuned block size,
/// where the tuning asks for it) the fewest whole warps that make at most one tile per SM, if
/// the tuned block would make more tiles than SMs and the limit allows.
template <class T>
int blocked_block_size(std::int64_t n, int block) {
  constexpr tuning tu = tuning_of<T>();
  const int limit = one_tile_per_sm_up_to_threads(tu.one_tile_per_sm_up_to_threads);
  if (block != tu.block_size || limit <= block) return block;
  const std::int64_t warp_items = std::int64_t{32} * tu.blocked_vectors_per_thread * tile::vector_items<T>();
  const std::int64_t sms = device_sm_count();
  if (ceil_div(n, warp_items * (block / 32)) <= sms) return block;
  const std::int64_t threads = 32 * ceil_div(n, sms * warp_items);
  return threads <= limit ? static_cast<int>(threads) : block;
}

/// The blocked tile (16-byte vectors, both pointers aligned).
/// Session 22 (tools/experiments/session22_scan_window.cu, docs/results/session22-round*.log,
/// 8-byte items, one process with CUB, 41 runs per row) found two things about launches that
/// fit the GPU in one wave (up to 2^21 8-byte items), where the look-back waits for the slowest
/// earlier tile's load (session 20):
/// - One tile per SM. With 4,096-item tiles, 2^19.1-2^20.6 items make 140-396 tiles, so some
///   SMs load more tiles than others, and their tiles land last: 1.00-1.05x CUB, 0.97-1.00x
///   at 2^20-2^20.4 (rounds 4-5). Blocks of 288-768 threads that make at most one tile per SM
///   (and read level 1 from the aggregates, runs_before_max_tiles) ran at 1.05-1.13x from
///   2^19.1 to 2^20.4 (round 6; a limit of 512 threads left 2^20.1-2^20.4 at 0.97-1.00x, one
///   of 1,024 was no better than 768).
/// - The load window. Beyond one tile per SM (768 threads), every tile's loads are in flight
///   at once and land in no order, so each tile's stores wait for nearly all loads. Keeping at
///   most 256 tiles' loads in flight (tile t loads once t - 255 tiles have landed) lets the early
///   tiles' look-back and stores overlap the later tiles' loads: +1.5-5% at 280-512 tiles
///   (int64 2^20.5-2^21 1.03-1.08x against 1.00-1.03x). Smaller windows lost (96 tiles: -10 to
///   -17%): fewer bytes in flight than HBM needs; 192 and 320 tiles tied with 256 (round 6).
template <class T, class Op>
void launch_blocked(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total,
                    arena& ws, int block, cudaStream_t s) {
  constexpr tuning tu = tuning_of<T>();
  constexpr int KV = tu.blocked_vectors_per_thread;
  const bool tuned_block = block == tu.block_size;
  // A wider block only where its shared memory fits the device (768 threads take 108 KiB, more
  // than a block may have on compute capability 7.5, 8.6, 8.9 or 12.x).
  const int wide = blocked_block_size<T>(n, block);
  if (wide != block && fits_shared_memory(blocked_kernel<KV, 1024, 1, T, Op>, blocked_layout<KV>::bytes(wide)))
    block = wide;
  const std::int64_t tile_items = static_cast<std::int64_t>(KV) * block * tile::vector_items<T>();
  const std::int64_t tiles = ceil_div(n, tile_items);
  tree<T> tr;
  unsigned long long* counter = prepare_tree(tr, tiles, ws, s);
  tr.level1_from_aggregates = level1_from_aggregates(tr, tiles);
  // The window counts tiles of the tuned size (256 tiles of 32 KiB keep HBM busy); a caller's
  // smaller block would leave too few bytes in flight, so only the tuned block takes it.
  const int window = load_window_tiles(tu.load_window_tiles);
  if (tuned_block && window > 0 && tiles > window) tr.load_window = window;
  const int smem = blocked_layout<KV>::bytes(block);
  auto* kernel = block == tu.block_size ? blocked_kernel<KV, tu.block_size, tu.min_blocks_per_sm, T, Op>
                                        : blocked_kernel<KV, 1024, 1, T, Op>;
  allow_shared_bytes(kernel, smem);
  launch_after("launch of blocked_kernel", kernel, static_cast<unsigned>(tiles), block, smem, s, in, out, n, op,
               kind == scan_kind::exclusive, init, d_total, tr, counter, tu.backoff_ns,
               first_delay_ns(tu.first_delay_ns), tiles <= tu.prefetch_up_to_tiles);
}

/// The warp-specialized tile. Returns false, having done nothing, where it does not apply: a
/// device without bulk copies, one tile or less, more tree levels than consumer warps, or a
/// kernel that does not fit on an SM (or in a block's shared memory there).
template <class T, class Op>
bool launch_specialized(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total,
                        arena& ws, cudaStream_t s) {
  constexpr specialized_shape sh = specialized_shape_for<sizeof(T)>();
  constexpr int B = sh.consumers, KV = sh.vectors_per_thread, S = sh.stages;
  const std::int64_t tile_items = std::int64_t{B} * KV * tile::vector_items<T>();
  const std::int64_t tiles = ceil_div(n, tile_items);
  if (tiles <= 1 || levels_for(tiles) > B / 32 || !device_has_bulk_copy()) return false;
  constexpr int threads = B + 32 * sh.producers;
  auto* kernel = specialized_kernel<B, KV, S, sh.min_blocks_per_sm, sh.producers, T, Op>;
  const int smem = S * B * KV * 16;
  if (!fits_shared_memory(kernel, static_cast<std::size_t>(smem))) return false;
  allow_shared_bytes(kernel, smem);
  int per_sm = 0;
  SCANKIT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
  if (per_sm == 0) return false;
  const std::int64_t grid = std::min<std::int64_t>(tiles, std::int64_t{per_sm} * device_sm_count());
  tree<T> tr;
  unsigned long long* counter = prepare_tree(tr, tiles, ws, s);
  launch_after("launch of specialized_kernel", kernel, static_cast<unsigned>(grid), threads, smem, s, in, out, n,
               tiles, op, kind == scan_kind::exclusive, init, d_total, tr, counter, tuning_of<T>().backoff_ns);
  return true;
}

template <class T, class Op>
void run(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total,
         arena& ws, int block, cudaStream_t s) {
  if (n == 0) {
    if (d_total) store_value(d_total, init, s);
    return;
  }
  constexpr tuning tu = tuning_of<T>();
  // The blocked tile wants whole 16-byte vectors: 1-, 2-, 4- and 8-byte items several to a
  // vector, 16-byte items one to a vector (both pointers 16-byte aligned). One tile's worth or
  // less takes the striped one-launch path whatever the threshold.
  constexpr int VB = tile::vector_items<T>();
  if constexpr (VB * sizeof(T) == 16 && (sizeof(T) == 4 || sizeof(T) == 8)) {
    if (block == tu.block_size && tile::vector_aligned(in, out) &&
        n >= specialized_from_items(specialized_shape_for<sizeof(T)>().from_items) &&
        launch_specialized(in, out, n, op, kind, init, d_total, ws, s))
      return;
  }
  if constexpr (VB * sizeof(T) == 16) {
    const std::int64_t one_blocked_tile = std::int64_t{tu.blocked_vectors_per_thread} * block * VB;
    if (tile::vector_aligned(in, out) && n >= blocked_from_items(tu.blocked_from_items) && n > one_blocked_tile) {
      launch_blocked(in, out, n, op, kind, init, d_total, ws, block, s);
      return;
    }
  }
  tile::dispatch_vector_path<T>(in, out, [&]<int V, bool Vec>() {
    if constexpr (Vec) {
      launch_striped<tu.vectors_per_thread, V, Vec>(in, out, n, op, kind, init, d_total, ws, block, s);
    } else {
      // Without 16-byte vectors the registers hold single items: 12 of them (the bytes of 3
      // vectors of 4-byte items).
      constexpr int R = 12;
      launch_striped<R, V, Vec>(in, out, n, op, kind, init, d_total, ws, block, s);
    }
  });
}

}  // namespace scankit::cuda::detail::decoupled_lookback
