// The CUDA histograms' tuning table: which shared-memory layout adaptive takes for a bin count,
// and the launch shapes, per device class (detail/histogram/plan.hpp applies it).
#pragma once

#include <cstddef>

#include "scankit/cuda/detail/device_info.hpp"

namespace scankit::cuda::detail::hist {

struct histogram_tuning {
  /// One 32-bit sub-histogram per lane, interleaved (bin b of lane l at word b * 32 + l), while
  /// the 32 copies take at most this many bytes, for samples of at most lanes_sample_bytes. A
  /// warp's 32 shared atomics then hit 32 different banks whatever the bins. Only for 1- and
  /// 2-byte samples (8 to 16 atomics per 16-byte vector, where the atomics limit); wider
  /// samples already read at the memory's speed with one copy per block.
  std::size_t lanes_max_bytes;
  std::size_t lanes_sample_bytes;
  /// Sub-histograms shared by a few warps while they take at most this many bytes; a smaller
  /// footprint leaves more of the SM's L1 to the loads.
  std::size_t warps_max_bytes;
  int shared_block;        // threads per block of the shared layouts
  int shared_block_large;  // ... when the block's counters take more than large_bytes
  std::size_t large_bytes;
  int narrow16_block;  // 16-bit counters: the bins that do not fit as 32-bit ones
  int global_block;    // global atomics
};

/// The table: a row per device class (device_info.hpp). Every layout's shared memory is checked
/// against the device's limit by the plan, so one row serves parts of different sizes.
inline constexpr histogram_tuning histogram_row = {.lanes_max_bytes = 40 * 1024,
                                                   .lanes_sample_bytes = 2,
                                                   .warps_max_bytes = 8 * 1024,
                                                   .shared_block = 512,
                                                   .shared_block_large = 1024,
                                                   .large_bytes = 32 * 1024,
                                                   .narrow16_block = 1024,
                                                   .global_block = 256};
inline constexpr class_entry<histogram_tuning> histogram_table[] = {
    {device_class::hopper_fast_memory, histogram_row},
    {device_class::hopper, histogram_row},
    {device_class::ampere, histogram_row},
    {device_class::portable, histogram_row},
};
static_assert(names_every_class(histogram_table));

/// The tuning for samples of `sample_bytes` on device d (every sample size shares its row).
constexpr histogram_tuning histogram_tuning_for(std::size_t sample_bytes, const device_info& d) {
  (void)sample_bytes;
  return tuning_of_class(histogram_table, d);
}

}  // namespace scankit::cuda::detail::hist
