// The one place that decides how a GPU segmented sort runs and what workspace it needs (pure).
#pragma once

#include <cstddef>
#include <cstdint>

#include "scankit/cuda/segmented_sort.hpp"

namespace scankit::cuda::detail::segmented_sort {

/// The path of a segmented sort. Only the two-sort path exists so far, for every length
/// distribution alike; `cfg` may name it.
inline segmented_sort_path plan(std::int64_t n, std::int64_t segments, const segmented_sort_config& cfg) {
  (void)n, (void)segments, (void)cfg;
  return segmented_sort_path::two_sort;
}

}  // namespace scankit::cuda::detail::segmented_sort
