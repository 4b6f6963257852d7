// Part of scankit/cpu/compact.hpp, which includes it after compact_config: the one place that
// chooses how a CPU compaction runs, as a pure function of the call and the config.
#pragma once

#include <algorithm>
#include <cstdint>

#include "scankit/cpu/detail/scan/tuning.hpp"

namespace scankit::cpu::detail {

struct compact_plan {
  compact_algorithm algorithm;  // what runs (parallel only from cfg.serial_cutoff items)
  std::int64_t block;           // items per block of the parallel algorithm
  bool streaming;               // its output through streaming stores
  bool simd;                    // its staging copy may use the AVX-512 compress path
};

/// How a compaction of n items runs: item_bytes per input item (the block is cut by them),
/// out_item_bytes per output item (the output's size decides streaming). cfg.block_bytes >= 1.
inline compact_plan plan_compact(std::int64_t n, std::int64_t item_bytes, std::int64_t out_item_bytes,
                                 const compact_config& cfg) {
  compact_plan p{cfg.algorithm, std::max<std::int64_t>(1, cfg.block_bytes / std::max<std::int64_t>(1, item_bytes)),
                 n * out_item_bytes >= scan_streaming_threshold, cfg.simd};
  if (p.algorithm == compact_algorithm::parallel && n < cfg.serial_cutoff) p.algorithm = compact_algorithm::serial_loop;
  return p;
}

}  // namespace scankit::cpu::detail
