// The CUDA radix sorts' tuning table: per key size, value size and architecture, the onesweep
// tiles and the one-block sort's largest shape, with every size threshold the plan
// (detail/sort/plan.cuh) applies. The measurements behind each entry are in the tuning log.
#pragma once

#include <cstddef>
#include <cstdint>

namespace scankit::cuda::detail::radix {

/// A onesweep tile: `block` threads x `items` keys per thread. A tile stays resident for about
/// the same time whatever its size (mostly fixed latency), so the keys resident per SM and the
/// look-backs per key set the speed.
struct onesweep_shape {
  int block = 0;  // 0: no such tile
  int items = 0;
  int min_blocks = 0;  // per SM: the register budget ptxas must meet (without it, it may take more)
  /// Keys (and values) go to shared memory as they are ranked, so no register holds them across
  /// the look-back; the lower register peak is what allows the large tiles.
  bool stage_early = false;
  constexpr int tile() const { return block * items; }
  constexpr bool exists() const { return block > 0; }
  constexpr bool operator==(const onesweep_shape&) const = default;
};

/// The one-block sort (every pass in one block's shared memory, one launch) runs 256 threads
/// with the fewest items per thread that hold n, then 512 and 1,024 threads with the most. A
/// pass fills and scans a counter table per warp and digit, so fewer warps are cheaper.
inline constexpr int one_block_threads_min = 256;  // a thread per digit
inline constexpr int one_block_threads_max = 1024;

/// Where each onesweep tile applies and the one-block sort's limit, for one key size, value
/// size and architecture. Sizes are in keys.
struct sort_tuning {
  onesweep_shape main;     // every n that no other path takes
  onesweep_shape small{};  // n < small_below (fewer, smaller tiles keep more SMs busy)
  std::int64_t small_below = 0;
  onesweep_shape large{};  // n >= large_from, where the device's shared memory holds it
  std::int64_t large_from = 0;
  /// main's stand-in on GPUs whose shared memory per block cannot hold main (the plan checks
  /// that main or this fits the least shared memory per block, least_shared_per_block).
  onesweep_shape reduced{};
  /// 4-byte values only: from this n (0: never) an argsort with int64 output carries its
  /// positions as 32 bits on these tiles and writes int64 from the last pass (narrow_index).
  /// That last pass stores values of two widths under a predicate, which fits the registers
  /// without spills only on the large tiles of 4- and 8-byte keys (one block per SM); so
  /// smaller n and 1- and 2-byte keys keep 64-bit positions. The threshold is the large tile's.
  std::int64_t narrow_positions_from = 0;
  /// Items per thread of the one-block sort's largest shapes: the keys and values of a tile
  /// fit the registers of 1,024 threads without spills.
  int one_block_items = 0;
  constexpr std::int64_t one_block_limit() const {
    return std::int64_t{one_block_threads_max} * one_block_items;
  }
};

/// The compute capability 9.0 table.
///   Keys alone: 512 x 22 at 3 blocks per SM, 512 x 18 at 2 for 8-byte keys; float and int8
///     keys take the integer shapes (held as sortable bits between passes).
///   Pairs: from large_from one 512-thread block per SM with a larger tile (fewer look-backs per
///     key, longer runs per digit in the scatter); below it there are too few large tiles to
///     fill the SMs, so the main tile runs.
///   1- and 2-byte keys with 4-byte values: 256 x 16 at 3 blocks per SM below large_from.
///   One-byte keys with 8- or 16-byte values sort in one pass over few tiles: a small tile at 4
///     blocks per SM below small_below keeps more SMs busy.
///   16-byte values, and 8-byte sides, stay on tiles staged late below large_from: staged
///     early their main tiles spill registers.
constexpr sort_tuning sort_tuning_sm90(std::size_t key_bytes, std::size_t value_bytes) {
  constexpr std::int64_t M = std::int64_t{1} << 20;
  constexpr onesweep_shape late_384x12{.block = 384, .items = 12, .min_blocks = 2};
  constexpr onesweep_shape late_256x8{.block = 256, .items = 8, .min_blocks = 2};
  constexpr onesweep_shape early_256x16{
      .block = 256, .items = 16, .min_blocks = 3, .stage_early = true};
  constexpr onesweep_shape early_512x28{
      .block = 512, .items = 28, .min_blocks = 1, .stage_early = true};
  constexpr onesweep_shape early_512x16{
      .block = 512, .items = 16, .min_blocks = 1, .stage_early = true};
  const std::size_t widest = key_bytes > value_bytes ? key_bytes : value_bytes;
  const int one_block_items = value_bytes > 0 ? (widest <= 8 ? 8 : 4) : (widest <= 4 ? 16 : 8);
  if (value_bytes == 0) {
    if (key_bytes >= 8)
      return {.main = {.block = 512, .items = 18, .min_blocks = 2, .stage_early = true},
              .one_block_items = one_block_items};
    return {.main = {.block = 512, .items = 22, .min_blocks = 3, .stage_early = true},
            .one_block_items = one_block_items};
  }
  if (value_bytes == 4) {
    switch (key_bytes) {
      case 1:
        return {.main = early_256x16,
                .large = {.block = 512, .items = 24, .min_blocks = 2, .stage_early = true},
                .large_from = M,
                .one_block_items = one_block_items};
      case 2:
        return {.main = early_256x16,
                .large = {.block = 384, .items = 28, .min_blocks = 2, .stage_early = true},
                .large_from = 2 * M,
                .one_block_items = one_block_items};
      case 4:
        // 384 x 28 does not fit the least shared memory per block: such GPUs run the late 384 x 12.
        return {.main = {.block = 384, .items = 28, .min_blocks = 2, .stage_early = true},
                .large = {.block = 512, .items = 40, .min_blocks = 1, .stage_early = true},
                .large_from = 16 * M,
                .reduced = late_384x12,
                .narrow_positions_from = 16 * M,
                .one_block_items = one_block_items};
      default:
        return {.main = {.block = 384, .items = 18, .min_blocks = 2, .stage_early = true},
                .large = {.block = 512, .items = 24, .min_blocks = 1, .stage_early = true},
                .large_from = M,
                .narrow_positions_from = M,
                .one_block_items = one_block_items};
    }
  }
  if (value_bytes == 8) {
    switch (key_bytes) {
      case 1:
        return {.main = late_384x12,
                .small = {.block = 256, .items = 8, .min_blocks = 4, .stage_early = true},
                .small_below = std::int64_t{3} << 17,
                .large = early_512x28,
                .large_from = 4 * M,
                .one_block_items = one_block_items};
      case 4:
        return {.main = {.block = 512, .items = 13, .min_blocks = 2, .stage_early = true},
                .large = early_512x28,
                .large_from = 4 * M,
                .one_block_items = one_block_items};
      case 8:
        return {.main = late_384x12,
                .large = {.block = 512, .items = 20, .min_blocks = 1, .stage_early = true},
                .large_from = 4 * M,
                .one_block_items = one_block_items};
      default:
        return {.main = late_384x12,
                .large = early_512x28,
                .large_from = 4 * M,
                .one_block_items = one_block_items};
    }
  }
  // 16-byte values.
  switch (key_bytes) {
    case 1:
      return {.main = late_256x8,
              .small = {.block = 256, .items = 4, .min_blocks = 4, .stage_early = true},
              .small_below = std::int64_t{1} << 17,
              .large = early_512x16,
              .large_from = M / 2,
              .one_block_items = one_block_items};
    case 8:
      return {.main = late_256x8,
              .large = {.block = 384, .items = 16, .min_blocks = 1, .stage_early = true},
              .large_from = M,
              .one_block_items = one_block_items};
    default:
      return {.main = late_256x8,
              .large = early_512x16,
              .large_from = M / 2,
              .one_block_items = one_block_items};
  }
}

/// The tuning for keys of `key_bytes`, values of `value_bytes` (0: keys only) and compute
/// capability `arch` (major * 10 + minor). Compute capability 8.x takes the 9.0 entry; the plan
/// checks each tile's shared memory against the device's, so a tile too large is not taken.
constexpr sort_tuning sort_tuning_for(std::size_t key_bytes, std::size_t value_bytes, int arch) {
  if (arch >= 90) return sort_tuning_sm90(key_bytes, value_bytes);
  return sort_tuning_sm90(key_bytes, value_bytes);  // the sm_80 entry is the sm_90 one
}

/// The kernels are instantiated for the tiles of one entry (the shapes are template parameters):
/// the entries may differ in their thresholds but not in their tiles.
inline constexpr int tuned_arch = 90;
constexpr bool entries_share_tiles() {
  for (std::size_t kb : {1, 2, 4, 8})
    for (std::size_t vb : {0, 4, 8, 16}) {
      const sort_tuning a = sort_tuning_for(kb, vb, 80), b = sort_tuning_for(kb, vb, tuned_arch);
      if (!(a.main == b.main && a.small == b.small && a.large == b.large &&
            a.reduced == b.reduced && a.one_block_items == b.one_block_items))
        return false;
    }
  return true;
}
static_assert(entries_share_tiles(), "every architecture's entry must use the instantiated tiles");

/// The workspace holds look-back state for the main (or reduced) tile's tile count, so no large
/// tile may be smaller.
constexpr bool large_tiles_at_least_main() {
  for (std::size_t kb : {1, 2, 4, 8})
    for (std::size_t vb : {0, 4, 8, 16}) {
      const sort_tuning t = sort_tuning_for(kb, vb, tuned_arch);
      if (t.large.exists() && t.large.tile() < t.main.tile()) return false;
    }
  return true;
}
static_assert(large_tiles_at_least_main(),
              "a large onesweep tile is smaller than the workspace assumes");

/// The one-block sort's shape for n keys (n <= the tuning's one_block_limit()).
struct one_block_shape {
  int block;
  int items;
};
constexpr one_block_shape one_block_shape_for(std::int64_t n, int most_items) {
  constexpr int b = one_block_threads_min;
  const int eight = most_items < 8 ? most_items : 8;
  if (n <= b) return {b, 1};
  if (n <= b * 2) return {b, 2};
  if (n <= b * 4) return {b, 4};
  if (n <= b * eight) return {b, eight};
  if (n <= b * most_items) return {b, most_items};
  if (n <= 2 * b * most_items) return {2 * b, most_items};
  return {one_block_threads_max, most_items};
}

}  // namespace scankit::cuda::detail::radix
