// Tuning of the CPU histogram, as data.
#pragma once

#include <cstdint>

namespace scankit::cpu::detail {

/// Up to this many bins a thread counts into four interleaved sub-histograms (count_local).
inline constexpr std::int64_t histogram_interleave_max_bins = 4096;
/// A task counts at least this many samples, and at least histogram_grain_per_bin per bin, so
/// that zeroing and merging a private histogram stays small next to the counting.
inline constexpr std::int64_t histogram_min_grain = std::int64_t{1} << 16;
inline constexpr std::int64_t histogram_grain_per_bin = 16;
/// Bins per task of the merge of the private histograms.
inline constexpr int histogram_merge_grain = 1024;

}  // namespace scankit::cpu::detail
