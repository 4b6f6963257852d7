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

/// The table: a row per device class (device_info.hpp).
inline constexpr class_entry<tuning> tuning_table[] = {
    {device_class::hopper_fast_memory, {8, 4}},  // 2,048 threads per SM
    {device_class::hopper, {8, 4}},
    {device_class::ampere, {8, 4}},
    {device_class::portable, {4, 4}},
};
static_assert(names_every_class(tuning_table));

constexpr tuning tuning_for(const device_info& d) { return tuning_of_class(tuning_table, d); }

}  // namespace scankit::cuda::detail::reduce
