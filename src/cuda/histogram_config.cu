// Which strategy and launch shape each histogram algorithm uses (non-template).
#include <mutex>
#include <string>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/histogram/tuning.cuh"
#include "scankit/cuda/histogram.hpp"

namespace scankit::cuda {

namespace {

/// Shared memory a block may opt in to on the current device (227 KiB on the H100, 163 KiB on an
/// A100, 99 KiB on consumer Ampere and Ada).
std::size_t optin_shared_bytes() {
  return static_cast<std::size_t>(detail::device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
}

/// The current device's compute capability (major * 10 + minor): the tuning table's key.
int device_arch() {
  return detail::device_attribute(cudaDevAttrComputeCapabilityMajor) * 10 +
         detail::device_attribute(cudaDevAttrComputeCapabilityMinor);
}

int floor_pow2(std::int64_t x) {
  int p = 1;
  while (2 * static_cast<std::int64_t>(p) <= x) p *= 2;
  return p;
}

}  // namespace

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

namespace {

/// adaptive's plan: the layout `forced` names where its counters fit the device, else the
/// tuning table's choice, in order: per-lane copies (small bins, 1- and 2-byte samples),
/// per-warp copies, one 32-bit histogram per block, one 16-bit histogram, global atomics.
/// `block` 0: the layout's own block size.
histogram_plan plan_adaptive(std::int64_t num_bins, std::size_t sample_bytes, int block, histogram_layout forced) {
  using strategy = histogram_plan::strategy;
  constexpr auto vectors = histogram_plan::aggregation::vectors;
  const detail::hist::histogram_tuning t = detail::hist::histogram_tuning_for(sample_bytes, device_arch());
  const std::size_t optin = optin_shared_bytes();
  // Shared counters: the bins and one trash slot for samples that are not counted.
  const auto bytes32 = static_cast<std::size_t>(num_bins + 1) * 4;
  const std::size_t bytes16 = static_cast<std::size_t>((num_bins + 2) / 2) * 4;
  const int shared_block = block ? block : t.shared_block;
  const auto lanes = [&]() -> histogram_plan { return {strategy::shared32_lanes, vectors, 32, shared_block, bytes32 * 32}; };
  const auto warps = [&](std::size_t budget) -> histogram_plan {
    const int copies = std::min(floor_pow2(shared_block / 32), floor_pow2(static_cast<std::int64_t>(budget / bytes32)));
    return {strategy::shared32, vectors, copies, shared_block, bytes32 * copies};
  };
  const auto one_block = [&]() -> histogram_plan {
    return {strategy::shared32, vectors, 1, bytes32 > t.large_bytes ? t.shared_block_large : t.shared_block, bytes32};
  };
  const auto narrow16 = [&]() -> histogram_plan { return {strategy::shared16, vectors, 1, t.narrow16_block, bytes16}; };
  const auto global = [&]() -> histogram_plan { return {strategy::global_strided, vectors, 1, t.global_block, 0}; };
  switch (forced) {
    case histogram_layout::automatic: break;
    case histogram_layout::lanes:
      if (bytes32 * 32 <= optin) return lanes();
      break;
    case histogram_layout::warps:
      if (bytes32 * 2 <= optin && shared_block >= 64) return warps(optin);
      break;
    case histogram_layout::block:
      if (bytes32 <= optin) return one_block();
      break;
    case histogram_layout::narrow16:
      if (bytes16 <= optin) return narrow16();
      break;
    case histogram_layout::global: return global();
  }
  if (sample_bytes <= t.lanes_sample_bytes && bytes32 * 32 <= t.lanes_max_bytes) return lanes();
  if (bytes32 * 2 <= t.warps_max_bytes) return warps(t.warps_max_bytes);
  if (bytes32 <= optin) return one_block();
  if (bytes16 <= optin) return narrow16();
  return global();
}

}  // namespace

histogram_plan plan_histogram(std::int64_t num_bins, std::size_t sample_bytes,
                              const histogram_options& opts) {
  const char* where = "scankit::cuda::histogram";
  scankit::detail::check_bins(num_bins, where);
  const int b = opts.block_size;
  if (b != 0 && (b < 64 || b > 1024 || b % 64 != 0))
    throw invalid_argument(std::string(where) + ": block size " + std::to_string(b) +
                           " is not 0 or a multiple of 64 in [64, 1024]");
  using strategy = histogram_plan::strategy;
  using aggregation = histogram_plan::aggregation;
  constexpr auto none = aggregation::none, runs = aggregation::runs;
  histogram_plan p;
  // Shared counters: the bins and one trash slot for samples that are not counted.
  const auto bytes32 = static_cast<std::size_t>(num_bins + 1) * 4;
  const detail::hist::histogram_tuning t = detail::hist::histogram_tuning_for(sample_bytes, device_arch());
  auto fits = [&](std::size_t bytes) { return bytes <= optin_shared_bytes(); };
  auto shared_block = [&](std::size_t bytes) { return bytes > t.large_bytes ? t.shared_block_large : t.shared_block; };
  switch (opts.algorithm) {
    case histogram_algorithm::global_atomic_blocked:
      p = {strategy::global_blocked, none, 1, t.global_block, 0};
      break;
    case histogram_algorithm::global_atomic_interleaved:
      p = {strategy::global_strided, none, 1, t.global_block, 0};
      break;
    case histogram_algorithm::shared_privatized:
    case histogram_algorithm::shared_aggregated:
      if (!fits(bytes32))
        throw invalid_argument(std::string(where) + ": " + std::string(name(opts.algorithm)) +
                               " keeps 4 bytes per bin in shared memory; " +
                               std::to_string(num_bins) + " bins need " + std::to_string(bytes32) +
                               " bytes, more than the " + std::to_string(optin_shared_bytes()) +
                               " a block can have on this GPU");
      p = {strategy::shared32, opts.algorithm == histogram_algorithm::shared_aggregated ? runs : none, 1,
           shared_block(bytes32), bytes32};
      break;
    case histogram_algorithm::adaptive: p = plan_adaptive(num_bins, sample_bytes, b, opts.layout); break;
  }
  if (b) {
    p.block_size = b;
    if (p.kind == strategy::shared32 && p.copies > b / 32) {
      p.copies = floor_pow2(b / 32);
      p.shared_bytes = bytes32 * p.copies;
    }
  }
  return p;
}

}  // namespace scankit::cuda

namespace scankit::cuda {

std::string histogram_tuning_description(std::size_t sample_bytes) {
  const detail::hist::histogram_tuning t = detail::hist::histogram_tuning_for(sample_bytes, device_arch());
  const std::size_t optin = optin_shared_bytes();
  std::string s = "adaptive histogram tuning (sm_" + std::to_string(device_arch() >= 90 ? 90 : 80) + " entry): ";
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
