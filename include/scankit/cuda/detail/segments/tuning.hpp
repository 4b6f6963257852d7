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

/// Items per row for items of `item_bytes` (at least one).
constexpr int row_items_for(std::size_t item_bytes) {
  return item_bytes >= static_cast<std::size_t>(row_bytes) ? 1 : static_cast<int>(row_bytes / item_bytes);
}

/// One row of the tuning table.
struct tuning {
  unsigned backoff_ns;     // sleep between polls of a predecessor's status
  unsigned first_delay_ns; // sleep before the first poll: most predecessors publish meanwhile
  int partition_threads;   // threads per block of the merge-path partition
};

/// The table: an entry per device class, looked up by compute capability; the last entry is
/// the rule for devices no entry names.
struct tuning_entry {
  int min_arch;  // the entry applies from this compute capability (10 * major + minor)
  tuning t;
};
inline constexpr tuning_entry tuning_table[] = {
    {90, {32, 1000, 256}},  // Hopper
    {80, {32, 1000, 256}},  // Ampere and Ada
    {0, {128, 0, 256}},     // anything older or unknown
};

constexpr tuning tuning_for(const device_info& d) {
  for (const auto& e : tuning_table)
    if (d.arch >= e.min_arch) return e.t;
  return tuning_table[std::size(tuning_table) - 1].t;
}

}  // namespace scankit::cuda::detail::segments
