// The top-k's non-template parts: the plan and the workspace sizes on the current device.
#include <algorithm>
#include <cstdint>

#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/math.hpp"
#include "scankit/cuda/detail/topk/launch.cuh"
#include "scankit/cuda/topk.hpp"

namespace scankit::cuda {

namespace {
void check_request(std::int64_t n, std::int64_t k, std::size_t key_bytes, std::int64_t segments, const char* who) {
  if (n < 0 || k < 0 || segments < 0) throw invalid_argument(std::string(who) + ": n, k and segments must be >= 0");
  if (key_bytes != 1 && key_bytes != 2 && key_bytes != 4 && key_bytes != 8)
    throw invalid_argument(std::string(who) + ": keys are 1, 2, 4 or 8 bytes");
}
void check_rows(std::int64_t rows, std::int64_t cols, const char* who) {
  if (rows < 0 || cols < 0) throw invalid_argument(std::string(who) + ": rows and cols must be >= 0");
  if (cols > 0 && rows > INT64_MAX / cols) throw invalid_argument(std::string(who) + ": rows * cols overflows");
}
void check_path(const topk_config& cfg, const char* who) {
  if (std::find(all_topk_paths.begin(), all_topk_paths.end(), cfg.path) == all_topk_paths.end())
    throw invalid_argument(std::string(who) + ": unknown topk_path");
  if (std::find(all_topk_splits.begin(), all_topk_splits.end(), cfg.split) == all_topk_splits.end())
    throw invalid_argument(std::string(who) + ": unknown topk_split");
}
}  // namespace

topk_path plan_topk(std::int64_t n, std::int64_t k, std::size_t key_bytes, std::int64_t segments,
                    const topk_config& cfg) {
  check_request(n, k, key_bytes, segments, "scankit::cuda::plan_topk");
  check_path(cfg, "scankit::cuda::plan_topk");
  return detail::topk::make_plan(n, std::max<std::int64_t>(k, 1), key_bytes, n, segments > 0, cfg,
                                 detail::current_device_info())
      .path;
}

topk_path plan_topk_rows(std::int64_t rows, std::int64_t cols, std::int64_t k, std::size_t key_bytes,
                         const topk_config& cfg) {
  check_rows(rows, cols, "scankit::cuda::plan_topk_rows");
  check_request(rows * cols, k, key_bytes, rows, "scankit::cuda::plan_topk_rows");
  check_path(cfg, "scankit::cuda::plan_topk_rows");
  return detail::topk::make_plan(rows * cols, std::max<std::int64_t>(k, 1), key_bytes, cols, true, cfg,
                                 detail::current_device_info(), true)
      .path;
}

std::size_t topk_workspace_bytes(std::int64_t n, std::int64_t k, std::size_t key_bytes, const topk_config& cfg) {
  check_request(n, k, key_bytes, 0, "scankit::cuda::topk_workspace_bytes");
  check_path(cfg, "scankit::cuda::topk_workspace_bytes");
  if (k == 0) return 0;
  using namespace detail;
  const topk::plan p = topk::make_plan(n, k, key_bytes, n, false, cfg, current_device_info());
  // One row: no workspace, but for the winners of its chunks where it is split.
  if (p.path == topk_path::warp || p.path == topk_path::block) return topk::chunk_workspace_bytes(p, key_bytes);
  const std::size_t u = 8;
  return align_up(2 * sizeof(topk::select_state)) + align_up(topk::hist_bins * u) +
         2 * align_up(static_cast<std::size_t>(p.capacity) * u) + 2 * align_up(static_cast<std::size_t>(k) * u) +
         align_up(sort_workspace_bytes(k, 8, 8));
}

std::size_t segmented_topk_workspace_bytes(std::int64_t n, std::int64_t segments, std::int64_t k,
                                           std::size_t key_bytes, const topk_config& cfg) {
  check_request(n, k, key_bytes, segments, "scankit::cuda::segmented_topk_workspace_bytes");
  check_path(cfg, "scankit::cuda::segmented_topk_workspace_bytes");
  if (k == 0 || segments == 0) return 0;
  using namespace detail;
  // The longest segment is not known here: n, which never picks a smaller workspace than a call.
  const topk::plan p = topk::make_plan(n, k, key_bytes, n, true, cfg, current_device_info());
  return p.path == topk_path::sort ? segmented_sort::order_bytes(n) : 0;
}

std::size_t topk_rows_workspace_bytes(std::int64_t rows, std::int64_t cols, std::int64_t k, std::size_t key_bytes,
                                      const topk_config& cfg) {
  check_rows(rows, cols, "scankit::cuda::topk_rows_workspace_bytes");
  const std::int64_t n = rows * cols;
  check_request(n, k, key_bytes, rows, "scankit::cuda::topk_rows_workspace_bytes");
  check_path(cfg, "scankit::cuda::topk_rows_workspace_bytes");
  if (k == 0 || rows == 0) return 0;
  using namespace detail;
  // Split rows keep their chunks' winners; the sort path its ordering buffers.
  const topk::plan p = topk::make_plan(n, k, key_bytes, cols, true, cfg, current_device_info(), true);
  return p.path == topk_path::sort ? segmented_sort::order_bytes(n) : topk::chunk_workspace_bytes(p, key_bytes);
}

}  // namespace scankit::cuda
