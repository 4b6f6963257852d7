// decoupled-lookback's tuning tables: the kernel shapes (template parameters, compiled once for
// every architecture) and the thresholds that choose among the paths, per item size and
// architecture. Every number here was measured on an H100 (sm_90) against CUB and the copy
// bandwidth; docs/ALGORITHMS.md has the sweeps. sm_80 reuses the sm_90 numbers (nothing was
// measured there) and takes only the portable paths: its table turns the warp-specialized tile
// off: that tile needs Hopper's bulk copies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace scankit::cuda::detail::decoupled_lookback {

inline constexpr std::int64_t never = std::numeric_limits<std::int64_t>::max();

/// One item size's tuning on one architecture. Two tile shapes carry most inputs:
/// - the *striped* register tile (smaller inputs, and the one-item path for types without
///   16-byte vectors or with misaligned pointers): thread t holds vector r at (r * B + t) * V;
/// - the *blocked* tile (16-byte vectors, larger inputs): each warp copies a contiguous segment
///   of 32 x `blocked_vectors` vectors into shared memory and every lane then owns one
///   contiguous row of it.
/// Tiles must be big: under full memory load one look-back round trip costs about as much as
/// the tile's own loads (~5 us), and a block holds its tile while it waits.
struct scan_tuning {
  // Kernel shapes (template parameters).
  int block_size;          // threads of the striped and blocked tiles
  int striped_vectors;     // striped tile: vectors per thread (one-item path: 12 items)
  bool striped_raking;     // striped tile: block scan by raking through shared memory, else one
                           // warp scan per vector
  int blocked_vectors;     // blocked tile: 16-byte vectors per lane row
  int min_blocks_per_sm;   // launch bounds of the tuned block size (ptxas's register budget)
  // Thresholds.
  int one_launch_tiles;                // inputs of at most this many striped tiles take one block
  int one_launch_wide_vectors;         // 4- and 8-byte vector path, tuned block: inputs of at most
                                       // this many vectors take one block of 1,024 threads (0: off)
  std::int64_t blocked_from_items;     // smaller inputs take the striped tile
  std::int64_t specialized_from_items; // larger inputs take the warp-specialized tile (never: off)
  std::int64_t prefetch_up_to_tiles;   // striped and blocked launches of at most this many tiles
                                       // prefetch tile blockIdx.x into L2 (0: off)
  int one_tile_per_sm_up_to_threads;   // blocked tile: blocks of up to this many threads where
                                       // that makes at most one tile per SM (0: off)
  int load_window_tiles;               // blocked tile: at most this many tiles' loads in flight (0: off)
  unsigned backoff_ns;                 // sleep between polls of an unpublished entry
  unsigned first_delay_ns;             // blocked tile: sleep before the first status read
};

/// The warp-specialized tile (Hopper, 4- and 8-byte items): `consumers` threads + `producers`
/// warps per block, `stages` bulk-copy buffers of consumers x `vectors_per_thread` 16-byte
/// vectors, compiled for `min_blocks_per_sm` blocks per SM.
struct specialized_shape {
  int consumers;
  int vectors_per_thread;
  int stages;
  int min_blocks_per_sm;
  int producers;
};

/// H100 numbers behind the tables (one process with CUB and the copy):
/// - Striped tile: 8 vectors with the raking block scan for 4-byte items (5-18% faster than one
///   warp scan per vector at 2^16-2^22), 4 vectors with warp scans for 8-byte items (raking
///   loses there).
/// - Blocked tile: 12 vectors per lane (48 KiB per 256 threads) for 1-, 2-, 4- and 16-byte
///   items, 8 for 8-byte items (int64 / double 1.00-1.14x CUB from 2^16 to 2^21; 12 vectors
///   0.88-0.98x). It starts at 2^24 4-byte items (int32 blocked / striped 0.0652 / 0.0651 ms at
///   2^24, 0.8236 / 0.8860 at 2^28; at 2^23 its 683 tiles are 1.3 waves of the 528 resident
///   blocks and lose), 2^16 8-byte items (where the striped tile falls to 0.79x CUB at
///   1.5 x 2^20) and 2^14 16-byte items (affine maps 1.73x against 0.78x CUB at 2^20).
/// - First delay: without it int32 2^28-2^30 loses 1-1.5% and int64 2%.
/// - Guess prefetch (8-byte items, launches of up to 256 tiles: one wave, so tile blockIdx.x is
///   what the counter most likely hands out): +5-13% at 2^14-2^16, +2-7% at 2^16.6-2^19.6,
///   -2 to -5% beyond 2^20.6. For 4-byte items it costs 5% (int32 2^28 1.07x -> 1.02x CUB).
/// - One tile per SM (8-byte items): 2^19.1-2^20.6 items make 140-396 tiles of 4,096, so some
///   SMs load two and their tiles land last (0.97-1.05x CUB); blocks of 288-768 threads making
///   one tile per SM run at 1.05-1.13x (a limit of 512 leaves 2^20.1-2^20.4 at 0.97-1.00x,
///   1,024 is no better than 768).
/// - Load window (8-byte items): beyond one tile per SM every tile's loads are in flight at once
///   and land in no order; keeping 256 tiles' loads in flight lets the early tiles' look-back
///   and stores overlap the later loads: +1.5-5% at 280-512 tiles (96 tiles: -10 to -17%;
///   192 and 320 tie with 256).
/// - One launch: one block of 1,024 threads x 1-2 vectors up to 2,048 vectors (int32 4.5 us up
///   to 4,096 items, 5.2 us up to 8,192, against 6.5-7.3 us for the striped tile; int64 4.6-4.8
///   us up to 2,048 and 5.7-5.9 us up to 4,096 against 6.4-7.4 us for two look-back tiles);
///   otherwise one tile (a block walking two tiles takes 9.9 us against 8.4 us for the two-tile
///   look-back).
/// - Warp-specialized from 2^22 + 1 4-byte items (int32 / float 1.16x / 1.14x CUB at 2^22.5
///   against 1.00x / 1.01x, 1.21x / 1.26x at 2^23 against 1.02x / 1.03x; at 2^22 it loses,
///   1.16x against 1.21x) and 2^21 + 1 8-byte items (1.05-1.13x at 2^21.6-2^23 against the
///   blocked tile's 0.90x once its 512 tiles pass the 528 resident blocks).
template <std::size_t ItemBytes>
constexpr scan_tuning tuning_for(int arch) {
  scan_tuning t{};
  if constexpr (ItemBytes <= 4) {
    t = {.block_size = 256, .striped_vectors = 8, .striped_raking = true, .blocked_vectors = 12,
         .min_blocks_per_sm = 4, .one_launch_tiles = 1, .one_launch_wide_vectors = ItemBytes == 4 ? 2048 : 0,
         .blocked_from_items = std::int64_t{1} << 24,
         .specialized_from_items = ItemBytes == 4 ? (std::int64_t{1} << 22) + 1 : never,
         .prefetch_up_to_tiles = 0, .one_tile_per_sm_up_to_threads = 0, .load_window_tiles = 0,
         .backoff_ns = 32, .first_delay_ns = 1000};
  } else if constexpr (ItemBytes <= 8) {
    t = {.block_size = 256, .striped_vectors = 4, .striped_raking = false, .blocked_vectors = 8,
         .min_blocks_per_sm = 4, .one_launch_tiles = 1, .one_launch_wide_vectors = ItemBytes == 8 ? 2048 : 0,
         .blocked_from_items = std::int64_t{1} << 16,
         .specialized_from_items = ItemBytes == 8 ? (std::int64_t{1} << 21) + 1 : never,
         .prefetch_up_to_tiles = 256, .one_tile_per_sm_up_to_threads = 768, .load_window_tiles = 256,
         .backoff_ns = 32, .first_delay_ns = 1000};
  } else {
    t = {.block_size = 256, .striped_vectors = 4, .striped_raking = false, .blocked_vectors = 12,
         .min_blocks_per_sm = 4, .one_launch_tiles = 1, .one_launch_wide_vectors = 0,
         .blocked_from_items = std::int64_t{1} << 14, .specialized_from_items = never,
         .prefetch_up_to_tiles = 0, .one_tile_per_sm_up_to_threads = 0, .load_window_tiles = 0,
         .backoff_ns = 32, .first_delay_ns = 2000};
  }
  if (arch < 90) t.specialized_from_items = never;  // Ampere: no bulk copies
  return t;
}

/// The kernel shapes of item type T: the same on every architecture (a kernel is compiled once
/// for all of them), taken from the sm_90 table.
template <class T>
constexpr scan_tuning kernel_tuning() {
  return tuning_for<sizeof(T)>(90);
}

/// The warp-specialized tile's shape.
/// - 4-byte items: 256 consumers x 9 vectors x 3 buffers at two blocks per SM with two producer
///   warps, each totalling half the rows: 96.2-96.7% of the copy at 2^26-2^30 (int32
///   1.181-1.186x CUB, float 1.173-1.180x), against 94.8-95.1% for 128 x 11 x 3 with one
///   producer.
/// - 8-byte items: 128 x 11 x 3 at three blocks per SM, one producer: int64 1.075x / 1.068x /
///   1.060x CUB at 2^24 / 2^26 / 2^28 (95.8% of the copy), double 1.112-1.128x (96.2%); 256 x 13
///   x 2 reaches 1.009-1.045x, and four producers gain nothing (1.066x against 1.061x).
/// - The buffers are 128-byte aligned: with only the 16 bytes bulk copies require, the int32
///   tile runs 15% slower. The producer also issues the stores (a separate storer warp loses
///   1-2%).
/// - One consumer warp per tree level: 256 consumers (eight levels) cover any input, 128 (four
///   levels) 2^20 tiles, 2.9e9 8-byte items; larger inputs take the blocked tile.
template <std::size_t ItemBytes>
constexpr specialized_shape specialized_shape_for() {
  if constexpr (ItemBytes == 4) return {.consumers = 256, .vectors_per_thread = 9, .stages = 3, .min_blocks_per_sm = 2, .producers = 2};
  else return {.consumers = 128, .vectors_per_thread = 11, .stages = 3, .min_blocks_per_sm = 3, .producers = 1};
}

/// The tuning of items of `item_bytes` bytes on `arch` (compute capability x 10), for code that
/// knows the size only at run time (the dispatch, the description).
inline scan_tuning tuning_for_size(std::size_t item_bytes, int arch) {
  switch (item_bytes) {
    case 1: return tuning_for<1>(arch);
    case 2: return tuning_for<2>(arch);
    case 4: return tuning_for<4>(arch);
    case 8: return tuning_for<8>(arch);
    case 16: return tuning_for<16>(arch);
    default:  // other sizes share their size class's table without the 4- and 8-byte paths
      return item_bytes < 4 ? tuning_for<3>(arch) : item_bytes < 8 ? tuning_for<7>(arch) : tuning_for<16>(arch);
  }
}

/// The warp-specialized shape of 4- and 8-byte items (consumers 0 for other sizes).
inline specialized_shape specialized_shape_for_size(std::size_t item_bytes) {
  if (item_bytes == 4) return specialized_shape_for<4>();
  if (item_bytes == 8) return specialized_shape_for<8>();
  return {};
}

}  // namespace scankit::cuda::detail::decoupled_lookback
