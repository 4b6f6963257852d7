// Tuning of the CPU scan, as data: every threshold and size scan_parallel's plan and loops
// read. parallel_scan_config's defaults (scankit/cpu/scan.hpp) are the first three.
#pragma once

#include <cstdint>

namespace scankit::cpu::detail {

/// Bytes of items per block: one block fits any current core's L2 (512 KiB or more) with room
/// for the prefetchers, so the scan's second read of it comes from L2.
inline constexpr std::int64_t scan_block_bytes = std::int64_t{128} << 10;
/// Inputs of fewer items run serially on the calling thread.
inline constexpr std::int64_t scan_serial_cutoff = std::int64_t{1} << 16;
/// Outputs of at least this many bytes are written with streaming stores (store_policy::
/// automatic); smaller ones likely stay in the caches for their consumer.
inline constexpr std::int64_t scan_streaming_threshold = std::int64_t{32} << 20;
/// Items per group of the grouped scan loop (a staging chunk is a multiple of it).
inline constexpr std::int64_t scan_group = 8;
/// Bytes of the L1-resident staging buffer of a streaming block scan.
inline constexpr std::int64_t scan_stage_bytes = 4096;
/// Prefix slots of the chained hand-off (two would do; more keep spinning threads apart).
inline constexpr std::int64_t scan_ring = 16;

}  // namespace scankit::cpu::detail
