// The GPU top-k's tuning, as data: digit widths, the sample's size and margin, block shapes.
#pragma once

#include <cstdint>

#include "scankit/cuda/detail/device_info.hpp"

namespace scankit::cuda::detail::topk {

/// Bits of one digit of the grid-wide radix select: 2,048 counters per block fit in 8 KiB of
/// shared memory, and a 32-bit rank takes three digits.
inline constexpr int grid_digit_bits = 11;
/// Bits of one digit of the block path: 256 counters, one per thread of the block.
inline constexpr int block_digit_bits = 8;

/// Threads of the grid-wide passes: their last block's digit search gives each thread
/// 2^grid_digit_bits / 256 counters. The block path has one thread per 8-bit digit value.
inline constexpr int pass_threads = 256;
inline constexpr int block_path_threads = 1 << block_digit_bits;

/// The warp path: one warp per segment of at most warp_max_items * 32 keys, held in registers
/// (32 orders of 8 or 12 bytes per lane), for k up to warp_max_k (one winner per lane).
inline constexpr int warp_path_threads = 256;
inline constexpr int warp_max_items = 32;
inline constexpr int warp_max_k = 32;

/// One row of the tuning table.
struct tuning {
  int pass_blocks_per_sm;      // resident blocks the passes' grids are sized for
  int block_shared_keys;       // keys a segment may have to be held in shared memory (else read per
                               // pass); one array of at most this many keys runs as one row
  std::int64_t chunked_max_n;   // one array of up to this many keys may run as one row in chunks
  int split_rows_per_sm;        // rows are split into chunks only while fewer than this many per SM:
                                // more fill the GPU with one block each, and each level sorts k winners
  std::int64_t sampled_min_n;  // below this one array takes the radix path (a sample would not pay)
  int sample_ratio;            // one key of the input in this many is in the sample
  int sample_margin;           // sampled keys the threshold lies beyond the expected k-th, besides 4 sigma
};

/// The table: a row per device class (device_info.hpp).
inline constexpr class_entry<tuning> tuning_table[] = {
    {device_class::hopper_fast_memory, {8, 8192, std::int64_t{1} << 20, 4, std::int64_t{1} << 20, 256, 8}},
    {device_class::hopper, {8, 8192, std::int64_t{1} << 20, 4, std::int64_t{1} << 20, 256, 8}},
    {device_class::ampere, {8, 8192, std::int64_t{1} << 20, 4, std::int64_t{1} << 20, 256, 8}},
    {device_class::portable, {4, 4096, std::int64_t{1} << 19, 4, std::int64_t{1} << 20, 256, 8}},
};
static_assert(names_every_class(tuning_table));

constexpr tuning tuning_for(const device_info& d) { return tuning_of_class(tuning_table, d); }

}  // namespace scankit::cuda::detail::topk
