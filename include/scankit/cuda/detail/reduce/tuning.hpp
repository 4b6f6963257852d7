// The reductions' tuning, as data: which block shape and how many blocks per SM each class of
// device gets. The unroll (vectors a lane loads before it combines them) is fixed per item size
// at compile time, so only the entries below vary by device.
#pragma once

#include <cstddef>

#include "scankit/cuda/detail/device_info.hpp"

namespace scankit::cuda::detail::reduce {

/// Threads of every reduce block: eight warps, enough to hide the block's own combine.
inline constexpr int block_threads = 256;

/// 16-byte vectors a lane has in flight per step: enough bytes in flight per SM to cover the
/// memory latency at full occupancy, few enough registers to keep that occupancy.
constexpr int unroll_for(std::size_t item_bytes) { return item_bytes <= 8 ? 4 : 2; }

/// One row of the tuning table.
struct tuning {
  int blocks_per_sm;    // resident blocks the grid is sized for (one wave)
  int min_rows_per_warp;  // rows (32 vectors) a warp reads at least before more blocks pay
};

/// The table: an entry per device class, looked up by compute capability; the last entry is
/// the rule for devices no entry names.
struct tuning_entry {
  int min_arch;  // the entry applies from this compute capability (10 * major + minor)
  tuning t;
};
inline constexpr tuning_entry tuning_table[] = {
    {90, {8, 4}},  // Hopper: 2,048 threads per SM
    {80, {8, 4}},  // Ampere and Ada
    {0, {4, 4}},   // anything older or unknown
};

constexpr tuning tuning_for(const device_info& d) {
  for (const auto& e : tuning_table)
    if (d.arch >= e.min_arch) return e.t;
  return tuning_table[std::size(tuning_table) - 1].t;
}

}  // namespace scankit::cuda::detail::reduce
