// The one place that decides how a GPU segmented sort runs and what workspace it needs (pure).
#pragma once

#include <cstddef>
#include <cstdint>

#include "scankit/cuda/detail/math.hpp"
#include "scankit/cuda/detail/segmented_sort/tuning.hpp"
#include "scankit/cuda/segmented_sort.hpp"

namespace scankit::cuda::detail::segmented_sort {

/// The path of a segmented sort: the merge path for every length distribution (its time
/// follows n and the lengths' logarithm, its workspace is a fraction of the two-sort path's),
/// unless `cfg` names one.
inline segmented_sort_path plan(std::int64_t n, std::int64_t segments, const segmented_sort_config& cfg) {
  (void)n, (void)segments;
  return cfg.path == segmented_sort_path::automatic ? segmented_sort_path::merge : cfg.path;
}

/// The most merge tiles the long segments of n keys can make: each longer than a piece, so
/// ceil(len / piece) < 2 len / piece.
inline std::int64_t max_merge_tiles(std::int64_t n) { return 2 * ceil_div(n, std::int64_t{piece}) + 1; }

/// The merge rounds n keys can need: widths piece, 2 piece, ... below n.
inline int max_merge_rounds(std::int64_t n) {
  int r = 0;
  for (std::int64_t w = piece; w < n; w *= 2) ++r;
  return r;
}

}  // namespace scankit::cuda::detail::segmented_sort
