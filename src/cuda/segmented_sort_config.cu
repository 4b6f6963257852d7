// The segmented sorts' non-template parts: the workspace size.
#include <string>

#include "scankit/cuda/detail/math.hpp"
#include "scankit/cuda/detail/segmented_sort/launch.cuh"
#include "scankit/cuda/detail/segmented_sort/plan.hpp"
#include "scankit/cuda/segmented_sort.hpp"

namespace scankit::cuda {

std::size_t segmented_sort_workspace_bytes(std::int64_t n, std::int64_t segments, std::size_t key_bytes,
                                           std::size_t value_bytes, const segmented_sort_config& cfg) {
  constexpr const char* who = "scankit::cuda::segmented_sort_workspace_bytes";
  if (n < 0 || segments < 0) throw invalid_argument(std::string(who) + ": n and segments must be >= 0");
  if (key_bytes != 1 && key_bytes != 2 && key_bytes != 4 && key_bytes != 8)
    throw invalid_argument(std::string(who) + ": keys are 1, 2, 4 or 8 bytes");
  if (value_bytes != 0 && value_bytes != 4 && value_bytes != 8 && value_bytes != 16)
    throw invalid_argument(std::string(who) + ": values are 4, 8 or 16 bytes (or 0: keys alone)");
  if (cfg.path != segmented_sort_path::automatic && cfg.path != segmented_sort_path::merge &&
      cfg.path != segmented_sort_path::two_sort)
    throw invalid_argument(std::string(who) + ": unknown segmented_sort_path");
  if (n == 0 || segments == 0) return 0;
  using detail::align_up;
  namespace ss = detail::segmented_sort;
  if (ss::plan(n, segments, cfg) == segmented_sort_path::merge) return ss::merge_bytes(n, segments, key_bytes, value_bytes, cfg);
  // The order buffers, then a copy of the keys and values for a sort in place.
  return ss::order_bytes(n) + align_up(static_cast<std::size_t>(n) * key_bytes) +
         align_up(static_cast<std::size_t>(n) * value_bytes);
}

}  // namespace scankit::cuda
