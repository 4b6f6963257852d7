// Which strategy and launch shape each histogram algorithm uses (non-template).
#include <mutex>
#include <string>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/histogram.hpp"

namespace scankit::cuda {

namespace {

/// Shared memory a block may opt in to on the current device (227 KiB on the H100).
std::size_t optin_shared_bytes() {
  return static_cast<std::size_t>(detail::device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
}

int floor_pow2(std::int64_t x) {
  int p = 1;
  while (2 * static_cast<std::int64_t>(p) <= x) p *= 2;
  return p;
}

// Sub-histograms shared by a few warps while they take at most this much shared memory per
// block (4 copies of 256 bins). Measured on the H100 (2026-11-21, 1 GiB of uint8, 256 bins):
// one copy per warp (16 copies, 16 KiB) was 2% faster than one per block on uniform bytes but
// 6% slower on the normal-like input; the smaller footprint leaves more of the SM's combined
// L1/shared memory to the loads.
constexpr std::int64_t per_warp_budget = 8 * 1024;

// One 32-bit sub-histogram per lane, interleaved (bin b of lane l at word b * 32 + l), while
// the 32 copies take at most this much shared memory per block (256 bins and the trash slot
// take 32.1 KiB). A warp's 32 shared atomics then always hit 32 different banks, where in a
// per-warp copy the random bins of 32 lanes collide on a few banks and a skewed input's lanes
// pile onto one address. Above it the rows layout keeps the footprint small. Only for 1- and
// 2-byte samples (8 to 16 atomics per 16-byte vector, where the atomics limit): measured on the
// H100 (2026-11-21), 1 GiB of uint8 in 256 bins took 0.375 ms per lane against 0.461 ms with
// 4 per-warp copies (CUB 0.497 ms); 2^28 uint32 in 64 bins took 0.372 ms per lane against 0.359
// ms with one copy per block, which already reads at the memory's speed.
constexpr std::int64_t per_lane_budget = 40 * 1024;

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
  constexpr auto none = aggregation::none, runs = aggregation::runs, vectors = aggregation::vectors;
  histogram_plan p;
  // Shared counters: the bins and one trash slot for samples that are not counted.
  const auto bytes32 = static_cast<std::size_t>(num_bins + 1) * 4;
  auto fits = [&](std::size_t bytes) { return bytes <= optin_shared_bytes(); };
  auto shared_block = [&](std::size_t bytes) { return bytes > 32 * 1024 ? 1024 : 512; };
  switch (opts.algorithm) {
    case histogram_algorithm::global_atomic_blocked:
      p = {strategy::global_blocked, none, 1, 256, 0};
      break;
    case histogram_algorithm::global_atomic_interleaved:
      p = {strategy::global_strided, none, 1, 256, 0};
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
    case histogram_algorithm::adaptive: {
      const std::size_t bytes16 = static_cast<std::size_t>((num_bins + 2) / 2) * 4;
      if (sample_bytes <= 2 && static_cast<std::int64_t>(bytes32) * 32 <= per_lane_budget) {
        p = {strategy::shared32_lanes, vectors, 32, b ? b : 512, bytes32 * 32};
      } else if (static_cast<std::int64_t>(bytes32) * 2 <= per_warp_budget) {
        const int block = b ? b : 512;
        const int copies = std::min(floor_pow2(block / 32), floor_pow2(per_warp_budget / static_cast<std::int64_t>(bytes32)));
        p = {strategy::shared32, vectors, copies, block, bytes32 * copies};
      } else if (fits(bytes32)) {
        p = {strategy::shared32, vectors, 1, shared_block(bytes32), bytes32};
      } else if (fits(bytes16)) {
        p = {strategy::shared16, vectors, 1, 1024, bytes16};
      } else {
        p = {strategy::global_strided, vectors, 1, 256, 0};
      }
      break;
    }
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
