// decoupled-lookback's tuning tables: the kernel shapes (template parameters, compiled once for
// every architecture) and the thresholds that choose among the paths, per item size and device
// class. The rows by item size are the Hopper classes' (docs/TUNING.md has how each number was
// chosen); warp_specialized_table (device_info.hpp) says which classes run the warp-specialized
// tile, which needs Hopper's bulk copies; the others take only the portable paths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "scankit/cuda/detail/device_info.hpp"

namespace scankit::cuda::detail::decoupled_lookback {

inline constexpr std::int64_t never = std::numeric_limits<std::int64_t>::max();

/// One item size's tuning on one architecture. Two tile shapes carry most inputs:
/// - the *striped* register tile (smaller inputs, and the one-item path for types without
///   16-byte vectors or with misaligned pointers): thread t holds vector r at (r * B + t) * V;
/// - the *blocked* tile (16-byte vectors, larger inputs): each warp copies a contiguous segment
///   of 32 x `blocked_vectors` vectors into shared memory and every lane then owns one
///   contiguous row of it.
/// Tiles must be big: under full memory load one look-back round trip costs about as much as
/// the tile's own loads, and a block holds its tile while it waits.
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

/// The tables by item size. Each threshold sits where its path starts to beat the one before it
/// (docs/TUNING.md): the striped tile's shape and block scan, the blocked tile from where its
/// tiles fill the GPU, the guess prefetch and one tile per SM for 8-byte items where a launch is
/// about one wave, the load window beyond that, the one-launch path for inputs of a block or
/// two, and the warp-specialized tile from where it passes the blocked one.
template <std::size_t ItemBytes>
constexpr scan_tuning tuning_for() {
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
  return t;
}

/// The kernel shapes of item type T: the same on every device (a kernel is compiled once for all
/// of them).
template <class T>
constexpr scan_tuning kernel_tuning() {
  return tuning_for<sizeof(T)>();
}

/// The warp-specialized tile's shape. The buffers are 128-byte aligned and the producer also
/// issues the stores. One consumer warp per tree level: 256 consumers (eight levels) cover any
/// input, 128 (four levels) 2^20 tiles; larger inputs take the blocked tile.
template <std::size_t ItemBytes>
constexpr specialized_shape specialized_shape_for() {
  if constexpr (ItemBytes == 4) return {.consumers = 256, .vectors_per_thread = 9, .stages = 3, .min_blocks_per_sm = 2, .producers = 2};
  else return {.consumers = 128, .vectors_per_thread = 11, .stages = 3, .min_blocks_per_sm = 3, .producers = 1};
}

/// The row of items of `item_bytes` bytes, for code that knows the size only at run time.
inline scan_tuning row_for_size(std::size_t item_bytes) {
  switch (item_bytes) {
    case 1: return tuning_for<1>();
    case 2: return tuning_for<2>();
    case 4: return tuning_for<4>();
    case 8: return tuning_for<8>();
    case 16: return tuning_for<16>();
    default:  // other sizes share their size class's table without the 4- and 8-byte paths
      return item_bytes < 4 ? tuning_for<3>() : item_bytes < 8 ? tuning_for<7>() : tuning_for<16>();
  }
}

/// The tuning of items of `item_bytes` bytes on device d (the plan, the description).
inline scan_tuning tuning_for_size(std::size_t item_bytes, const device_info& d) {
  scan_tuning t = row_for_size(item_bytes);
  if (!tuning_of_class(warp_specialized_table, d)) t.specialized_from_items = never;
  return t;
}

/// The warp-specialized shape of 4- and 8-byte items (consumers 0 for other sizes).
inline specialized_shape specialized_shape_for_size(std::size_t item_bytes) {
  if (item_bytes == 4) return specialized_shape_for<4>();
  if (item_bytes == 8) return specialized_shape_for<8>();
  return {};
}

}  // namespace scankit::cuda::detail::decoupled_lookback
