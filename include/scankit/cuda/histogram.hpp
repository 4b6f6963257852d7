// CUDA backend: histograms of device memory (device-pointer API) and of host containers.
// Bins follow scankit/histogram_bins.hpp exactly (the CPU reference computes the same bins).
//
// Compiles with any C++20 compiler; the library instantiates every sample type
// (uint8, uint16, int32, uint32, int64, float, double) with uint32 and uint64 counters.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "scankit/error.hpp"
#include "scankit/histogram_bins.hpp"

namespace scankit::cuda {

/// Every histogram algorithm, each selectable by name (see docs/ALGORITHMS.md).
enum class histogram_algorithm {
  global_atomic_blocked,      // each thread counts a contiguous section with global atomics
  global_atomic_interleaved,  // grid-stride (coalesced) loads, global atomics
  shared_privatized,          // one 32-bit histogram per block in shared memory, merged at the end
  shared_aggregated,          // the same, adding runs of equal bins once per run
  adaptive,                   // the default: a strategy chosen per bin count (see plan())
};

inline constexpr std::array all_histogram_algorithms{
    histogram_algorithm::global_atomic_blocked, histogram_algorithm::global_atomic_interleaved,
    histogram_algorithm::shared_privatized, histogram_algorithm::shared_aggregated,
    histogram_algorithm::adaptive};

constexpr std::string_view name(histogram_algorithm a) {
  switch (a) {
    case histogram_algorithm::global_atomic_blocked: return "global-atomic-blocked";
    case histogram_algorithm::global_atomic_interleaved: return "global-atomic-interleaved";
    case histogram_algorithm::shared_privatized: return "shared-privatized";
    case histogram_algorithm::shared_aggregated: return "shared-aggregated";
    case histogram_algorithm::adaptive: return "adaptive";
  }
  return "?";
}

inline std::optional<histogram_algorithm> parse_histogram_algorithm(std::string_view s) {
  for (auto a : all_histogram_algorithms)
    if (name(a) == s) return a;
  if (s == "default") return histogram_algorithm::adaptive;
  return std::nullopt;
}

inline constexpr histogram_algorithm default_histogram_algorithm = histogram_algorithm::adaptive;

/// Which of adaptive's counting layouts runs (histogram_options::layout; the other algorithms
/// name their strategy themselves and ignore it). automatic takes the tuning table's choice for
/// the bin count, the sample size and the device (plan_histogram says which). The others force
/// one layout, for tests and measurements:
///   lanes     32 interleaved 32-bit sub-histograms per block, one per lane
///   warps     a 32-bit sub-histogram per warp (or per few warps, up to the device's limit)
///   block     one 32-bit histogram per block
///   narrow16  one 16-bit histogram per block, counters flushed to global memory at 2^15
///   global    global atomics, grid-stride
/// All of them add a 16-byte vector of one repeated value once. A forced layout whose counters
/// do not fit the device's shared memory per block falls back to the automatic choice, never
/// throws (as the sorts' sort_tile does).
enum class histogram_layout { automatic, lanes, warps, block, narrow16, global };

inline constexpr std::array all_histogram_layouts{histogram_layout::automatic, histogram_layout::lanes,
                                                  histogram_layout::warps,     histogram_layout::block,
                                                  histogram_layout::narrow16,  histogram_layout::global};

constexpr std::string_view name(histogram_layout l) {
  switch (l) {
    case histogram_layout::automatic: return "auto";
    case histogram_layout::lanes: return "lanes";
    case histogram_layout::warps: return "warps";
    case histogram_layout::block: return "block";
    case histogram_layout::narrow16: return "narrow16";
    case histogram_layout::global: return "global";
  }
  return "?";
}

struct histogram_options {
  histogram_algorithm algorithm = default_histogram_algorithm;
  /// Threads per block; 0 picks the strategy's default, else a multiple of 64 in [64, 1024].
  int block_size = 0;
  /// Add to counts instead of overwriting them (chunked and multi-GPU histograms compose).
  bool accumulate = false;
  /// adaptive only: force one counting layout (see histogram_layout).
  histogram_layout layout = histogram_layout::automatic;
};

/// What a histogram call will run: the counting strategy and its launch shape.
struct histogram_plan {
  enum class strategy {
    global_blocked,   // global atomics, contiguous sections
    global_strided,   // global atomics, grid-stride
    shared32,         // `copies` 32-bit sub-histograms per block in shared memory
    shared32_lanes,   // 32 interleaved 32-bit sub-histograms per block, one per lane
    shared16,         // one 16-bit histogram per block, counters flushed before they overflow
  } kind = strategy::global_strided;
  enum class aggregation {
    none,     // one atomic per counted sample
    runs,     // a thread adds each run of equal bins once (shared-aggregated)
    vectors,  // a 16-byte vector of one repeated value is added once, and consecutive such
              // vectors of one bin as one run; mixed vectors per sample (adaptive: costs a
              // few word comparisons per vector on mixed data)
  } aggregate = aggregation::none;
  int copies = 1;          // sub-histograms per block (shared32: one per warp or per few warps)
  int block_size = 256;
  std::size_t shared_bytes = 0;
  std::string describe() const;
};

/// The plan for num_bins bins with the given options on the current device. Throws
/// invalid_argument when the algorithm cannot hold num_bins (shared-privatized and
/// shared-aggregated need 4 * num_bins bytes of shared memory per block).
histogram_plan plan_histogram(std::int64_t num_bins, std::size_t sample_bytes,
                              const histogram_options& opts = {});

/// adaptive's tuning for samples of `sample_bytes` on the current device, in words, from the
/// tuning table's fields: the bin counts each layout takes and its launch shape.
std::string histogram_tuning_description(std::size_t sample_bytes);

/// Device-pointer histograms: stream-ordered, no allocation, no synchronisation, no
/// workspace. d_samples: n samples in device memory (naturally aligned); d_counts: num_bins
/// counters in device memory, zeroed first unless opts.accumulate. Arguments are checked
/// before anything is launched.
template <histogram_sample T, histogram_counter C>
void histogram_even(const T* d_samples, std::int64_t n, C* d_counts, std::int64_t num_bins,
                    histogram_level_t<T> lower, histogram_level_t<T> upper, cudaStream_t stream,
                    const histogram_options& opts = {});

/// d_edges: num_edges sorted edges in device memory (num_edges - 1 bins). The device-pointer
/// call cannot check that they are sorted (unsorted edges give unspecified bins, never an
/// out-of-bounds write); the host-container call checks.
template <histogram_sample T, histogram_counter C>
void histogram_range(const T* d_samples, std::int64_t n, C* d_counts,
                     const histogram_level_t<T>* d_edges, std::int64_t num_edges,
                     cudaStream_t stream, const histogram_options& opts = {});

/// counts[k] += #{i : keys[i] == k} for 0 <= k < num_bins (integer key types).
template <histogram_sample T, histogram_counter C>
  requires std::is_integral_v<T>
void bincount(const T* d_keys, std::int64_t n, C* d_counts, std::int64_t num_bins,
              cudaStream_t stream, const histogram_options& opts = {}) {
  histogram_even(d_keys, n, d_counts, num_bins, 0, num_bins, stream, opts);
}

/// The largest capacity of bincount_capped (its two spare counters count as bins).
inline constexpr std::int64_t max_bincount_capacity = max_histogram_bins - 2;

/// bincount for keys whose largest value is not known ahead, in one pass over the keys
/// (numpy.bincount's length is max + 1, which would otherwise need a pass of its own): counts
/// keys 0 <= k < capacity into d_counts[k], keys at or above capacity into d_counts[capacity]
/// and negative keys into d_counts[capacity + 1] (d_counts holds capacity + 2 counters, zeroed
/// first unless opts.accumulate), then writes d_summary[0] = the negative keys, d_summary[1] =
/// the keys at or above capacity, d_summary[2] = the largest k < capacity with a non-zero count
/// (-1 if none): three int64 in device memory. When the first two are 0, d_counts[0, max + 1)
/// is bincount's result with max = d_summary[2]; otherwise count again with the right size.
/// 1 <= capacity <= max_bincount_capacity. Stream-ordered, no allocation, no synchronisation.
template <histogram_sample T, histogram_counter C>
  requires std::is_integral_v<T>
void bincount_capped(const T* d_keys, std::int64_t n, C* d_counts, std::int64_t capacity,
                     std::int64_t* d_summary, cudaStream_t stream,
                     const histogram_options& opts = {});

/// Host-container histograms: copy the samples to the GPU, count there, copy the counts back
/// (added to `counts` with opts.accumulate). Synchronise. Throw no_device_error without a GPU.
template <histogram_sample T, histogram_counter C>
void histogram_even(std::span<const T> samples, std::span<C> counts, histogram_level_t<T> lower,
                    histogram_level_t<T> upper, const histogram_options& opts = {});

template <histogram_sample T, histogram_counter C>
void histogram_range(std::span<const T> samples, std::span<C> counts,
                     std::span<const histogram_level_t<T>> edges, const histogram_options& opts = {});

template <histogram_sample T, histogram_counter C>
  requires std::is_integral_v<T>
void bincount(std::span<const T> keys, std::span<C> counts, const histogram_options& opts = {}) {
  histogram_even(keys, counts, 0, static_cast<std::int64_t>(counts.size()), opts);
}

}  // namespace scankit::cuda
