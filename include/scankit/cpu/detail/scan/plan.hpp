// Part of scankit/cpu/scan.hpp, which includes it after parallel_scan_config: the one place
// that chooses how scan_parallel runs a call, as a pure function of the call and the config.
#pragma once

#include <algorithm>
#include <cstdint>

#include "scankit/cpu/detail/scan/tuning.hpp"

namespace scankit::cpu::detail {

/// The algorithms scan_parallel chooses between.
enum class scan_path {
  serial,   // one scan_block on the calling thread (small inputs, or a single block)
  chained,  // the single-pass chained scan over blocks (detail/scan/chained.hpp)
};

struct scan_plan {
  scan_path path;
  std::int64_t block;  // items per block
  bool streaming;      // the output goes out through streaming stores (out of place only)
  bool touch_output;   // its pages are first touched in parallel (see touch_pages)
};

/// How scan_parallel runs n items of item_bytes each under cfg (cfg.block_bytes >= 1).
inline scan_plan plan_scan(std::int64_t n, std::int64_t item_bytes, bool in_place, const parallel_scan_config& cfg) {
  const std::int64_t block = std::max<std::int64_t>(1, cfg.block_bytes / item_bytes);  // parallel_block_items
  if (n < cfg.serial_cutoff || n <= block) return {scan_path::serial, block, false, false};
  const auto bytes = n * item_bytes;
  const bool streaming =
      !in_place && (cfg.stores == store_policy::streaming ||
                    (cfg.stores == store_policy::automatic && bytes >= scan_streaming_threshold));
  return {scan_path::chained, block, streaming, streaming && cfg.touch_output};
}

}  // namespace scankit::cpu::detail
