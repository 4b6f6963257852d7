// The segmented operations' tuning, as data. A tile is block_threads rows of row_bytes bytes
// of items; the row length in items is fixed per item size at compile time, so only the
// entries below vary by device.
#pragma once

#include <cstddef>

#include "scankit/cuda/detail/device_info.hpp"

namespace scankit::cuda::detail::segments {

/// Threads of every tile: eight warps, as the scans' tiles.
inline constexpr int block_threads = 256;

/// Bytes of items each thread's row holds: 64 int32 items, a tile of 64 KiB, which the block
/// keeps in shared memory across the look-back. A tile's look-back costs about as much as
/// loading a small tile, so tiles are large (as the scans' are).
inline constexpr int row_bytes = 256;

/// Items per row for items of `item_bytes`: the largest power of two whose items fit row_bytes
/// (at least one), so that rows tile the 32-bit words of the head bitmap.
constexpr int row_items_for(std::size_t item_bytes) {
  int r = 1;
  while (static_cast<std::size_t>(2 * r) * item_bytes <= static_cast<std::size_t>(row_bytes)) r *= 2;
  return r;
}

/// One row of the tuning table.
struct tuning {
  unsigned backoff_ns;     // sleep between polls of a predecessor's status
  unsigned first_delay_ns; // sleep before the first poll: most predecessors publish meanwhile
  int partition_threads;   // threads per block of the merge-path partition
};

/// The table: a row per device class (device_info.hpp).
inline constexpr class_entry<tuning> tuning_table[] = {
    {device_class::hopper_fast_memory, {32, 1000, 256}},
    {device_class::hopper, {32, 1000, 256}},
    {device_class::ampere, {32, 1000, 256}},
    {device_class::portable, {128, 0, 256}},
};
static_assert(names_every_class(tuning_table));

constexpr tuning tuning_for(const device_info& d) { return tuning_of_class(tuning_table, d); }

}  // namespace scankit::cuda::detail::segments
