// Which strategy and launch shape a histogram takes: plan_histogram_for, a pure function of the
// request (bins, sample size, options) and a device_info, so that tests plan for any device.
// The public plan_histogram (src/cuda/histogram_config.cu) calls it with the current device;
// the table it reads is detail/histogram/tuning.cuh.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/histogram/tuning.cuh"
#include "scankit/cuda/histogram.hpp"
#include "scankit/error.hpp"
#include "scankit/histogram_bins.hpp"

namespace scankit::cuda::detail::hist {

/// The largest power of two <= x (x >= 1).
inline int floor_pow2(std::int64_t x) {
  int p = 1;
  while (2 * static_cast<std::int64_t>(p) <= x) p *= 2;
  return p;
}

/// adaptive's plan: the layout `forced` names where its counters fit the device, else the
/// tuning table's choice, in order: per-lane copies (small bins, 1- and 2-byte samples),
/// per-warp copies, one 32-bit histogram per block, one 16-bit histogram, global atomics.
/// `block` 0: the layout's own block size.
inline histogram_plan plan_adaptive(std::int64_t num_bins, std::size_t sample_bytes, int block, histogram_layout forced,
                                    const device_info& dev) {
  using strategy = histogram_plan::strategy;
  constexpr auto vectors = histogram_plan::aggregation::vectors;
  const histogram_tuning t = histogram_tuning_for(sample_bytes, dev);
  const std::size_t optin = dev.smem_per_block_optin;
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

/// The plan for num_bins bins of samples of `sample_bytes` with `opts` on a device described by
/// `dev`. Throws invalid_argument for a bad bin count or block size, and where the algorithm
/// cannot hold num_bins (shared-privatized and shared-aggregated need 4 * num_bins bytes of
/// shared memory per block).
inline histogram_plan plan_histogram_for(std::int64_t num_bins, std::size_t sample_bytes,
                                         const histogram_options& opts, const device_info& dev) {
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
  const histogram_tuning t = histogram_tuning_for(sample_bytes, dev);
  auto fits = [&](std::size_t bytes) { return bytes <= dev.smem_per_block_optin; };
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
                               " bytes, more than the " + std::to_string(dev.smem_per_block_optin) +
                               " a block can have on this GPU");
      p = {strategy::shared32, opts.algorithm == histogram_algorithm::shared_aggregated ? runs : none, 1,
           shared_block(bytes32), bytes32};
      break;
    case histogram_algorithm::adaptive: p = plan_adaptive(num_bins, sample_bytes, b, opts.layout, dev); break;
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

}  // namespace scankit::cuda::detail::hist
