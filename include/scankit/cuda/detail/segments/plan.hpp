// The one function that decides how a segmented operation runs: a pure function of the call
// and the device description, so it is tested on the host for any device.
//
// The merge-path engine cuts the work (the items, plus the segment ends where segments are
// given by bounds) into tiles of block_threads * row_items work items, less a 16-byte vector
// where segments are given by bounds (the items of such a tile may start up to a vector into
// its memory: tile.cuh); flags and keys give no segment ends, so their tiles are plain runs of
// items. The segmented reduction runs on the same tiles in two passes (reduce_tiles.cuh)
// unless forced onto the look-back engine; the classic block_per_segment reduction launches
// one block per segment.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/lookback/tree_geometry.cuh"
#include "scankit/cuda/detail/math.hpp"
#include "scankit/cuda/detail/segments/tuning.hpp"
#include "scankit/cuda/segments.hpp"
#include "scankit/error.hpp"

namespace scankit::cuda::detail::segments {

/// What the call computes, as far as the plan cares.
enum class operation {
  reduce,        // one result per segment (segment bounds)
  scan_offsets,  // one result per item, segments by CSR offsets
  scan_heads,    // one result per item, segments by flags or keys
  reduce_by_key, // one result per run of keys
};

/// How one segmented operation runs.
struct plan {
  bool block_per_segment = false;  // the classic reduction (one block per segment)
  bool two_pass = false;           // tiles reduced on their own, then one pass of carries
  int row_items = 1;               // items per thread row
  std::int64_t tile_work = 0;      // work items (items + segment ends) per tile
  std::int64_t tiles = 0;          // tiles of the merge-path engine (0: nothing to launch)
  bool partition = false;          // a merge-path partition of the items and segment ends
  std::size_t workspace = 0;       // bytes the call needs
};

/// Bytes of the look-back state of a value of `value_bytes` bytes: the value, padded to 8
/// bytes, then a 64-bit count of segment heads.
constexpr std::size_t state_bytes_for(std::size_t value_bytes) { return (value_bytes + 7) / 8 * 8 + 8; }

/// The plan for `n` items in `n_segments` segments (0 for flags and keys) of `value_bytes`.
inline plan make_plan(operation what, std::int64_t n, std::int64_t n_segments, std::size_t value_bytes,
                      const segments_config& cfg, const device_info& d) {
  (void)d;
  if (n < 0) throw invalid_argument("scankit::cuda::segments: n must be >= 0");
  if (n_segments < 0) throw invalid_argument("scankit::cuda::segments: the number of segments must be >= 0");
  if (value_bytes == 0) throw invalid_argument("scankit::cuda::segments: value_bytes must be > 0");
  if (cfg.algorithm == segments_algorithm::block_per_segment && what != operation::reduce)
    throw invalid_argument("scankit::cuda::segments: block_per_segment computes segmented reductions only");
  if (cfg.algorithm == segments_algorithm::two_pass && what != operation::reduce)
    throw invalid_argument("scankit::cuda::segments: two_pass computes segmented reductions only");
  plan p;
  p.row_items = row_items_for(value_bytes);
  const bool bounds = what == operation::reduce || what == operation::scan_offsets;
  const std::int64_t vector = value_bytes <= 16 && 16 % value_bytes == 0 ? static_cast<std::int64_t>(16 / value_bytes) : 1;
  p.tile_work = std::int64_t{block_threads} * p.row_items - (bounds ? vector : 0);
  if (what == operation::reduce && cfg.algorithm == segments_algorithm::block_per_segment) {
    p.block_per_segment = true;
    p.workspace = workspace_alignment;  // nothing, but never 0 bytes
    return p;
  }
  if (what == operation::reduce &&
      (cfg.algorithm == segments_algorithm::automatic || cfg.algorithm == segments_algorithm::two_pass)) {
    p.two_pass = true;
    p.partition = true;
    p.tiles = ceil_div(n + n_segments, p.tile_work);
    const std::size_t tiles = static_cast<std::size_t>(std::max<std::int64_t>(p.tiles, 1));
    p.workspace = align_up((tiles + 1) * sizeof(std::int64_t)) + align_up(tiles * state_bytes_for(value_bytes)) +
                  align_up(tiles * sizeof(std::int64_t)) + 3 * workspace_alignment;
    return p;
  }
  p.partition = bounds;
  const std::int64_t work = n + (bounds ? n_segments : 0);
  p.tiles = ceil_div(work, p.tile_work);
  const std::size_t state_entry = (state_bytes_for(value_bytes) + 3) / 4 * 8;  // level_status words
  p.workspace = lookback::tree_bytes_for(std::max<std::int64_t>(p.tiles, 1), state_entry);
  if (p.partition) p.workspace += align_up(static_cast<std::size_t>(p.tiles + 1) * sizeof(std::int64_t)) + workspace_alignment;
  return p;
}

/// The workspace every segmented operation over (n, n_segments) fits in: the larger of the two
/// reductions' (bounds add their ends to the work; the look-back engine is the scans' too).
inline std::size_t workspace_for_any(std::int64_t n, std::int64_t n_segments, std::size_t value_bytes,
                                     const device_info& d) {
  const plan look_back = make_plan(operation::reduce, n, n_segments, value_bytes,
                                   segments_config{segments_algorithm::merge_path}, d);
  const plan two_pass = make_plan(operation::reduce, n, n_segments, value_bytes,
                                  segments_config{segments_algorithm::two_pass}, d);
  return std::max(look_back.workspace, two_pass.workspace);
}

}  // namespace scankit::cuda::detail::segments
