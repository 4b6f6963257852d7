// Tuning of the CPU compaction, as data. Its block size, serial cut-off and streaming threshold
// are the scan's (compact_config's defaults; detail/scan/tuning.hpp); these are its own.
#pragma once

#include <cstdint>

namespace scankit::cpu::detail {

/// Items whose flags the parallel compaction evaluates at a time, before it copies them (a
/// stack buffer of one byte per item).
inline constexpr std::int64_t compact_flag_chunk = 256;
/// Prefix slots of the chained hand-off (two would do; more keep spinning threads apart).
inline constexpr std::int64_t compact_ring = 16;
/// Items per task of the parallel count of a stable partition's selection.
inline constexpr std::int64_t compact_count_grain = std::int64_t{1} << 14;
/// unique_count turns run starts into lengths serially below this many runs; above, in
/// chunks of compact_lengths_chunk runs.
inline constexpr std::int64_t compact_lengths_serial_below = std::int64_t{1} << 16;
inline constexpr std::int64_t compact_lengths_chunk = std::int64_t{1} << 14;

}  // namespace scankit::cpu::detail
