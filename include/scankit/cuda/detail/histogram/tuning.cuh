// The CUDA histograms' tuning table: which shared-memory layout adaptive takes for a bin count,
// and the launch shapes, per sample size and architecture (plan_histogram applies it).
#pragma once

#include <cstddef>

namespace scankit::cuda::detail::hist {

struct histogram_tuning {
  /// One 32-bit sub-histogram per lane, interleaved (bin b of lane l at word b * 32 + l), while
  /// the 32 copies take at most this many bytes, for samples of at most lanes_sample_bytes. A
  /// warp's 32 shared atomics then hit 32 different banks whatever the bins. Only for 1- and
  /// 2-byte samples (8 to 16 atomics per 16-byte vector, where the atomics limit): H100, 1 GiB
  /// of uint8 in 256 bins, 0.375 ms per lane against 0.461 ms with per-warp copies (CUB 0.497
  /// ms); 2^28 uint32 in 64 bins, 0.372 ms per lane against 0.359 ms with one copy per block,
  /// which already reads at the memory's speed.
  std::size_t lanes_max_bytes;
  std::size_t lanes_sample_bytes;
  /// Sub-histograms shared by a few warps while they take at most this many bytes: H100, 1 GiB
  /// of uint8 in 256 bins, one copy per warp (16 KiB) is 2% faster than one per block on
  /// uniform bytes but 6% slower on normal-like input; the smaller footprint leaves more of
  /// the SM's L1 to the loads.
  std::size_t warps_max_bytes;
  int shared_block;        // threads per block of the shared layouts
  int shared_block_large;  // ... when the block's counters take more than large_bytes
  std::size_t large_bytes;
  int narrow16_block;  // 16-bit counters: the bins that do not fit as 32-bit ones
  int global_block;    // global atomics
};

/// The tuning for samples of `sample_bytes` on compute capability `arch` (major * 10 + minor).
/// Measured on the H100; compute capability 8.x takes the same numbers (nothing measured on an
/// A100). Every layout's shared memory is checked against the device's limit by the plan.
constexpr histogram_tuning histogram_tuning_for(std::size_t sample_bytes, int arch) {
  (void)sample_bytes;
  (void)arch;  // the sm_80 entry is the sm_90 one
  return {.lanes_max_bytes = 40 * 1024,
          .lanes_sample_bytes = 2,
          .warps_max_bytes = 8 * 1024,
          .shared_block = 512,
          .shared_block_large = 1024,
          .large_bytes = 32 * 1024,
          .narrow16_block = 1024,
          .global_block = 256};
}

}  // namespace scankit::cuda::detail::hist
