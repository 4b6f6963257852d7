// Non-template parts of the CUDA histograms: the plan on the current device (the pure plan
// function is detail/histogram/plan.hpp), its description and the tuning's description.
#include <string>

#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/histogram/plan.hpp"
#include "scankit/cuda/detail/histogram/tuning.cuh"
#include "scankit/cuda/histogram.hpp"

namespace scankit::cuda {

std::string histogram_plan::describe() const {
  std::string s;
  switch (kind) {
    case strategy::global_blocked: s = "global atomics, contiguous sections"; break;
    case strategy::global_strided: s = "global atomics, grid-stride"; break;
    case strategy::shared32:
      s = copies == 1 ? "one 32-bit shared histogram per block"
                      : std::to_string(copies) + " 32-bit shared sub-histograms per block (per warp)";
      break;
    case strategy::shared32_lanes:
      s = "32 interleaved 32-bit shared sub-histograms per block (per lane)";
      break;
    case strategy::shared16: s = "16-bit shared counters, flushed at 2^15"; break;
  }
  if (aggregate == aggregation::runs) s += ", runs aggregated";
  if (aggregate == aggregation::vectors) s += ", repeated vectors aggregated";
  s += ", " + std::to_string(block_size) + " threads";
  if (shared_bytes) s += ", " + std::to_string(shared_bytes / 1024) + " KiB shared";
  return s;
}

histogram_plan plan_histogram(std::int64_t num_bins, std::size_t sample_bytes,
                              const histogram_options& opts) {
  return detail::hist::plan_histogram_for(num_bins, sample_bytes, opts, detail::current_device_info());
}

std::string histogram_tuning_description(std::size_t sample_bytes) {
  const detail::device_info& dev = detail::current_device_info();
  const detail::hist::histogram_tuning t = detail::hist::histogram_tuning_for(sample_bytes, dev);
  const std::size_t optin = dev.smem_per_block_optin;
  std::string s = "adaptive histogram tuning (" + std::string(detail::name_of(detail::class_of(dev))) + " entry): ";
  if (sample_bytes <= t.lanes_sample_bytes)
    s += "32 per-lane 32-bit sub-histograms up to " + std::to_string(t.lanes_max_bytes / 4 / 32 - 1) + " bins; ";
  s += "per-warp 32-bit sub-histograms up to " + std::to_string(t.warps_max_bytes / 4 / 2 - 1) + " bins; ";
  s += "one 32-bit histogram per block (" + std::to_string(t.shared_block) + " threads, " +
       std::to_string(t.shared_block_large) + " above " + std::to_string(t.large_bytes / 1024) + " KiB) up to " +
       std::to_string(optin / 4 - 1) + " bins; ";
  s += "one 16-bit histogram (" + std::to_string(t.narrow16_block) + " threads) up to " +
       std::to_string(optin / 4 * 2 - 2) + " bins; global atomics (" + std::to_string(t.global_block) +
       " threads) above";
  return s;
}

}  // namespace scankit::cuda
