// single-pass compaction's tuning: the tile geometry of its kernels and the thresholds that
// choose among the tiles, per item size and device class. Host-only code: plan_compact reads
// it on the host, and the kernels take their shapes from it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "scankit/cuda/compact.hpp"
#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/math.hpp"

namespace scankit::cuda::detail::compact {

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

/// Inputs below this many bytes take the small tile when the tile is `automatic`: more, shorter
/// tiles give a short input more parallelism; the medium tile's lower fixed cost per item wins
/// beyond.
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
/// SM (two fill the SM's shared memory). Shape 0 is the default; the override's
/// specialized_shape = 1 picks the other.
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

/// One item size's thresholds on one device.
struct compact_tuning {
  std::int64_t segmented_from_bytes;            // predicates and run starts
  std::int64_t segmented_flags_from_bytes;      // select_flagged
  std::int64_t specialized_from_bytes;          // never: off
  std::int64_t specialized_flags_from_bytes;    // select_flagged
  std::int64_t prefetch_from_bytes;             // guess prefetch, where it pays for the selector
  unsigned segmented_first_delay_ns;
};

/// The thresholds by item size (the same for every class that runs a tile; which classes run
/// the warp-specialized one: warp_specialized_table, device_info.hpp): the segmented tile from where it beats the medium one (earlier
/// for select_flagged, whose flags it loads as one word per vector), the warp-specialized tile
/// from where the small tile stops, the guess prefetch from where it stops losing (docs/TUNING.md).
inline compact_tuning compact_tuning_for(std::size_t item_bytes, const device_info& d) {
  constexpr std::int64_t never = std::numeric_limits<std::int64_t>::max();
  compact_tuning t{.segmented_from_bytes = item_bytes == 8 ? std::int64_t{1} << 27 : std::int64_t{1} << 29,
                   .segmented_flags_from_bytes = item_bytes == 8 ? std::int64_t{1} << 27 : std::int64_t{1} << 24,
                   .specialized_from_bytes = small_tile_below_bytes,
                   .specialized_flags_from_bytes = item_bytes == 4 ? std::int64_t{1} << 28 : never,
                   .prefetch_from_bytes = std::int64_t{1} << 29,
                   .segmented_first_delay_ns = 0};
  if (!tuning_of_class(warp_specialized_table, d)) t.specialized_from_bytes = t.specialized_flags_from_bytes = never;
  return t;
}

}  // namespace scankit::cuda::detail::compact
