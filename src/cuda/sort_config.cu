// Non-template parts of the CUDA sorts: the workspace size.
#include "scankit/cuda/sort.cuh"

namespace scankit::cuda {

std::size_t sort_workspace_bytes(std::int64_t n, std::size_t key_bytes, std::size_t value_bytes,
                                 const sort_config& cfg) {
  scankit::detail::check_size(n, "scankit::cuda::sort_workspace_bytes");
  if (key_bytes != 1 && key_bytes != 2 && key_bytes != 4 && key_bytes != 8)
    throw invalid_argument("scankit::cuda::sort_workspace_bytes: keys are 1, 2, 4 or 8 bytes");
  if (value_bytes != 0 && value_bytes != 4 && value_bytes != 8 && value_bytes != 16)
    throw invalid_argument("scankit::cuda::sort_workspace_bytes: values are 0, 4, 8 or 16 bytes");
  if (n <= 1) return 0;
  if (cfg.algorithm == sort_algorithm::onesweep && n <= detail::radix::small_sort_limit(key_bytes, value_bytes))
    return 0;  // the one-block path works in shared memory
  return detail::radix::workspace_bytes(n, key_bytes, value_bytes, cfg.algorithm);
}

std::string onesweep_tuning_description(std::size_t key_bytes, std::size_t value_bytes, key_kind kind) {
  const auto describe = [](const detail::radix::onesweep_shape& t) {
    return "onesweep tile " + std::to_string(t.block) + " threads x " + std::to_string(t.items) + " keys = " +
           std::to_string(t.tile()) + " keys, register budget for " + std::to_string(t.min_blocks) +
           (t.min_blocks == 1 ? " block" : " blocks") + " per SM, keys staged in shared memory " +
           (t.stage_early ? "as they are ranked" : "after the look-back");
  };
  std::string text;
  const auto small = detail::radix::onesweep_small_shape_for(key_bytes, value_bytes);
  const auto large = detail::radix::onesweep_large_shape_for(key_bytes, value_bytes);
  // The large tile wins where both could run (SCANKIT_ONESWEEP_LARGE_FROM may lower its start).
  std::int64_t small_until = small.below_items;
  if (large.shape.block > 0) small_until = std::min(small_until, detail::radix::onesweep_large_from(large.from_items));
  if (small.shape.block > 0 && small_until > 0)
    text += "below " + std::to_string(small_until) + " keys, " + describe(small.shape) + "; then ";
  text += describe(detail::radix::onesweep_shape_for(key_bytes, value_bytes, kind));
  if (large.shape.block > 0)
    text += "; from " + std::to_string(detail::radix::onesweep_large_from(large.from_items)) + " keys, " +
            describe(large.shape);
  return text;
}

}  // namespace scankit::cuda
