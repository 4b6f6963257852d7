// The one function that decides how a reduction runs: a pure function of the call and the
// device description, so it is tested on the host for any device.
//
// The input is read as an unaligned head (items before the first 16-byte boundary), then rows
// of 32 16-byte vectors (one per lane). Every warp takes a contiguous run of rows, so the
// blocks' partial results, combined in block order, are the reduction in sequence order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/reduce.hpp"
#include "scankit/cuda/detail/reduce/tuning.hpp"
#include "scankit/error.hpp"

namespace scankit::cuda::detail::reduce {

/// Choices the tests and the CLI force to reach every code path; the defaults leave the plan alone.
struct override_options {
  bool scalar_loads = false;  // read item by item even where 16-byte vectors apply
  std::int64_t grid = 0;      // blocks of the first pass (0: the tuned count)
};

/// How one reduction runs.
struct plan {
  int vector_items = 1;      // items per 16-byte vector (1: item-by-item loads)
  std::int64_t head = 0;     // items before the first 16-byte boundary, combined first
  std::int64_t rows = 0;     // rows of 32 vectors after the head (the last may be partial)
  std::int64_t grid = 1;     // blocks of the first pass
  bool two_pass = false;     // a second launch combines the grid's partial results
  bool last_block = false;   // the grid's last block combines them (one launch)
  bool in_order = false;     // combine in sequence order (non-commutative operators)
};

/// Items of `item_bytes` in one 16-byte vector, or 1 where they do not tile one.
constexpr int vector_items_for(std::size_t item_bytes) {
  return item_bytes > 0 && item_bytes <= 16 && 16 % item_bytes == 0 ? static_cast<int>(16 / item_bytes) : 1;
}

/// The largest first-pass grid any call may take on this device (sizes the workspace).
inline std::int64_t max_grid(const device_info& d) {
  return std::int64_t{std::max(1, d.sm_count)} * tuning_for(d).blocks_per_sm;
}

/// The plan for n items of `item_bytes` whose first item sits `misalignment` bytes past a
/// 16-byte boundary, with an operator that is `commutative` or not.
inline plan make_plan(std::int64_t n, std::size_t item_bytes, std::size_t misalignment, bool commutative,
                      const reduce_config& cfg, const override_options& o, const device_info& d) {
  if (n < 0) throw invalid_argument("scankit::cuda::reduce: n must be >= 0");
  plan p;
  p.in_order = !commutative;
  const int v = vector_items_for(item_bytes);
  const bool item_aligned = misalignment % item_bytes == 0;
  if (!o.scalar_loads && v > 1 && item_aligned) {
    p.vector_items = v;
    p.head = std::min<std::int64_t>(n, static_cast<std::int64_t>(((16 - misalignment % 16) % 16) / item_bytes));
  }
  const std::int64_t row_items = 32 * std::int64_t{p.vector_items};
  p.rows = (n - p.head + row_items - 1) / row_items;
  const tuning t = tuning_for(d);
  const std::int64_t warps_per_block = block_threads / 32;
  // As many blocks as give each warp min_rows_per_warp rows, at most one wave.
  const std::int64_t wanted = (p.rows + warps_per_block * t.min_rows_per_warp - 1) / (warps_per_block * t.min_rows_per_warp);
  p.grid = std::clamp<std::int64_t>(wanted, 1, max_grid(d));
  if (o.grid > 0) p.grid = std::min(o.grid, max_grid(d));
  if (cfg.path == reduce_path::one_block) p.grid = 1;
  else if (cfg.path != reduce_path::automatic && p.grid == 1 && p.rows > 1) p.grid = 2;
  // Two launches (the second a programmatic dependent of the first) take less time than the
  // ticket's clear and one launch (docs/TUNING.md), so last_block runs only when asked for.
  p.last_block = p.grid > 1 && cfg.path == reduce_path::last_block;
  p.two_pass = p.grid > 1 && !p.last_block;
  return p;
}

/// Offset of the last_block path's ticket in the workspace: after the partial results of the
/// largest grid on this device.
inline std::size_t ticket_offset(std::size_t result_bytes, const device_info& d) {
  return (static_cast<std::size_t>(max_grid(d)) * result_bytes + 255) / 256 * 256;
}

/// Device bytes of a reduction's workspace: the partial results, then the ticket.
inline std::size_t workspace_bytes(std::size_t result_bytes, const device_info& d) {
  return ticket_offset(result_bytes, d) + 256;
}

}  // namespace scankit::cuda::detail::reduce
