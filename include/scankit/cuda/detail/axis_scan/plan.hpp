// The scan along an axis: how [outer][len][inner] is cut into work items (plan_axis_scan). A
// pure function of the shape, the item size and the device description, in plain C++, so that
// host-only tests check it without a GPU; axis_scan.hpp includes it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "scankit/cuda/detail/axis_scan/tuning.hpp"
#include "scankit/cuda/detail/device_info.hpp"

namespace scankit::cuda {

/// How a scan along an axis of [outer][len][inner] is cut. Each warp takes one work item at a
/// time:
///   narrow (inner < 32): a contiguous run of elements: either `planes` whole planes (len *
///       inner elements each, short lines), or `rows` rows of one plane (long lines); for
///       inner > 1 32 elements per step, the lanes of one column combined by shuffles, for
///       inner == 1 (lines along the last axis) 256 per step, eight consecutive ones per lane,
///       and so for inner 2 and 4 with each row of the columns as one element (aligned arrays);
///   wide (inner >= 32): 32 columns of `rows` rows, one column per lane.
/// When a plane's lines are cut into several chunks (chunks > 1), the scan takes three
/// launches: the chunks' totals, their exclusive scan per line, and the scan proper from those
/// carry-ins (one more read of the input); the workspace holds outer * chunks * inner items.
struct axis_scan_plan {
  bool wide = false;
  std::int64_t planes = 0;  // > 0: narrow work items of whole planes
  std::int64_t rows = 0;    // rows per chunk
  std::int64_t chunks = 1;  // chunks per plane (line)
  std::int64_t groups = 1;  // wide: column groups of 32
  std::int64_t items = 0;   // work items (0: nothing to scan)
  std::int64_t workspace_bytes = 0;
  friend constexpr bool operator==(const axis_scan_plan&, const axis_scan_plan&) = default;
};

/// The plan for items of `item_bytes` bytes on `device` (only its SM count matters). The shape
/// must be non-negative with a product that fits std::int64_t (axis_scan checks).
inline axis_scan_plan plan_axis_scan(std::int64_t outer, std::int64_t len, std::int64_t inner,
                                     std::size_t item_bytes, const detail::device_info& device) {
  namespace tu = detail::axis_scan;
  const auto ceil_div = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
  axis_scan_plan p;
  const std::int64_t n = outer * len * inner;
  if (n == 0) return p;
  const std::int64_t target = std::int64_t{std::max(device.sm_count, 1)} * tu::items_per_sm;
  if (inner < tu::wide_from_inner) {
    const std::int64_t plane = len * inner;
    if (outer > 1 && plane <= tu::whole_planes_up_to) {
      // At least min_item_elements per item, and no more items than the target: a third round
      // of a few items would take as long as a whole one.
      p.planes = std::clamp<std::int64_t>(
          std::max(ceil_div(tu::min_item_elements, plane), ceil_div(outer, target)), 1, outer);
      p.items = ceil_div(outer, p.planes);
      p.rows = len;
      return p;
    }
    const std::int64_t rows_min = ceil_div(tu::min_item_elements, inner);
    p.chunks = std::clamp<std::int64_t>(ceil_div(target, outer), 1,
                                        std::max<std::int64_t>(1, len / rows_min));
  } else {
    p.wide = true;
    p.groups = ceil_div(inner, 32);
    p.chunks = std::clamp<std::int64_t>(ceil_div(target, outer * p.groups), 1,
                                        std::max<std::int64_t>(1, len / tu::wide_min_rows));
  }
  p.rows = ceil_div(len, p.chunks);
  p.chunks = ceil_div(len, p.rows);
  p.items = outer * p.chunks * p.groups;
  if (p.chunks > 1) p.workspace_bytes = outer * p.chunks * inner * static_cast<std::int64_t>(item_bytes);
  return p;
}

}  // namespace scankit::cuda
