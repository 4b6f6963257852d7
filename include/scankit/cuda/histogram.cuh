// The CUDA histograms' entry points (instantiated by the library in src/cuda/histogram_*.cu).
//
// Layering: histogram_even/range (entry: check arguments, zero counts) -> plan_histogram
// (strategy and launch shape for the bin count and device: detail/histogram/plan.hpp, tuning in
// detail/histogram/tuning.cuh) -> run_plan (launch per 2^31-sample chunk:
// detail/histogram/launch.cuh) -> the kernels in detail/histogram/kernels.cuh.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/histogram/launch.cuh"
#include "scankit/cuda/histogram.hpp"

namespace scankit::cuda {

template <histogram_sample T, histogram_counter C>
void histogram_even(const T* d_samples, std::int64_t n, C* d_counts, std::int64_t num_bins,
                    histogram_level_t<T> lower, histogram_level_t<T> upper, cudaStream_t stream,
                    const histogram_options& opts) {
  const char* where = "scankit::cuda::histogram_even";
  detail::hist::check_device_args(d_samples, n, d_counts, where);
  const auto e = even_bins<T>::make(num_bins, lower, upper, where);
  const histogram_plan p = plan_histogram(num_bins, sizeof(T), opts);
  detail::hist::zero_counts(d_counts, num_bins, opts.accumulate, stream);
  if (n == 0) return;
  if constexpr (!std::is_floating_point_v<T>) {
    if constexpr (sizeof(T) <= 2) {
      if (e.identity())
        return detail::hist::run_plan(p, d_samples, n, even_bins_identity<T>{}, d_counts, e.num_bins, stream);
    }
    if (e.full_range())
      return detail::hist::run_plan(p, d_samples, n, even_bins_full<T>{e}, d_counts, e.num_bins, stream);
    if (e.fast_path())
      return detail::hist::run_plan(p, d_samples, n, even_bins_fast<T>{e}, d_counts, e.num_bins, stream);
  }
  detail::hist::run_plan(p, d_samples, n, e, d_counts, e.num_bins, stream);
}

template <histogram_sample T, histogram_counter C>
void histogram_range(const T* d_samples, std::int64_t n, C* d_counts,
                     const histogram_level_t<T>* d_edges, std::int64_t num_edges,
                     cudaStream_t stream, const histogram_options& opts) {
  const char* where = "scankit::cuda::histogram_range";
  detail::hist::check_device_args(d_samples, n, d_counts, where);
  const auto r = range_bins<T>::make(d_edges, num_edges, false, where);
  const histogram_plan p = plan_histogram(r.num_bins, sizeof(T), opts);
  detail::hist::zero_counts(d_counts, r.num_bins, opts.accumulate, stream);
  if (n == 0) return;
  detail::hist::run_plan(p, d_samples, n, r, d_counts, r.num_bins, stream);
}

template <histogram_sample T, histogram_counter C>
  requires std::is_integral_v<T>
void bincount_capped(const T* d_keys, std::int64_t n, C* d_counts, std::int64_t capacity,
                     std::int64_t* d_summary, cudaStream_t stream, const histogram_options& opts) {
  const char* where = "scankit::cuda::bincount_capped";
  detail::hist::check_device_args(d_keys, n, d_counts, where);
  if (capacity < 1 || capacity > max_bincount_capacity)
    throw invalid_argument(std::string(where) + ": capacity = " + std::to_string(capacity) +
                           " is outside [1, 2^24 - 2]");
  if (d_summary == nullptr) throw invalid_argument(std::string(where) + ": summary is a null pointer");
  if (reinterpret_cast<std::uintptr_t>(d_summary) % alignof(std::int64_t) != 0)
    throw invalid_argument(std::string(where) + ": summary is not aligned to int64");
  const std::int64_t bins = capacity + 2;
  const int cap = static_cast<int>(capacity);
  // 1- and 2-byte keys below a capacity that holds every value are counted as they are, in the
  // values' own bins (65,536 bins of 16-bit keys keep 16-bit shared counters; 65,538 would not).
  std::int64_t values = bins;
  if constexpr (sizeof(T) <= 2)
    if (capacity >= (std::int64_t{1} << (8 * sizeof(T)))) values = std::int64_t{1} << (8 * sizeof(T));
  const histogram_plan p = plan_histogram(values, sizeof(T), opts);
  detail::hist::zero_counts(d_counts, bins, opts.accumulate, stream);
  SCANKIT_CUDA_CHECK(cudaMemsetAsync(d_summary + 2, 0xFF, sizeof(std::int64_t), stream));  // -1
  if (n > 0) {
    if (values < bins) {
      if constexpr (sizeof(T) <= 2)
        detail::hist::run_plan(p, d_keys, n, even_bins_identity<T>{}, d_counts,
                               static_cast<int>(values), stream);
    } else {
      detail::hist::run_plan(p, d_keys, n, detail::hist::capped_bins<T>{cap}, d_counts,
                             static_cast<int>(bins), stream);
    }
  }
  using detail::hist::summary_block, detail::hist::summary_per_thread;
  const auto grid = static_cast<int>(
      std::max<std::int64_t>(1, detail::ceil_div(capacity, std::int64_t{summary_block} * summary_per_thread)));
  detail::hist::capped_summary_kernel<<<grid, summary_block, 0, stream>>>(d_counts, cap, d_summary);
  SCANKIT_LAUNCH_CHECK("bincount_capped summary");
}

template <histogram_sample T, histogram_counter C>
void histogram_even(std::span<const T> samples, std::span<C> counts, histogram_level_t<T> lower,
                    histogram_level_t<T> upper, const histogram_options& opts) {
  const char* where = "scankit::cuda::histogram_even";
  even_bins<T>::make(static_cast<std::int64_t>(counts.size()), lower, upper, where);  // checks first
  detail::hist::require_device(where);
  plan_histogram(static_cast<std::int64_t>(counts.size()), sizeof(T), opts);  // needs the device
  detail::hist::via_device(samples, counts, opts.accumulate, [&](const T* in, std::int64_t n, C* c) {
    histogram_options o = opts;
    o.accumulate = opts.accumulate;
    histogram_even(in, n, c, static_cast<std::int64_t>(counts.size()), lower, upper, nullptr, o);
  });
}

template <histogram_sample T, histogram_counter C>
void histogram_range(std::span<const T> samples, std::span<C> counts,
                     std::span<const histogram_level_t<T>> edges, const histogram_options& opts) {
  const char* where = "scankit::cuda::histogram_range";
  range_bins<T>::make(edges.data(), static_cast<std::int64_t>(edges.size()), true, where);
  if (counts.size() + 1 != edges.size())
    throw invalid_argument(std::string(where) + ": counts must have edges.size() - 1 entries");
  detail::hist::require_device(where);
  plan_histogram(static_cast<std::int64_t>(counts.size()), sizeof(T), opts);  // needs the device
  detail::hist::device_array d_edges(edges.size_bytes());
  SCANKIT_CUDA_CHECK(cudaMemcpy(d_edges.p, edges.data(), edges.size_bytes(), cudaMemcpyHostToDevice));
  detail::hist::via_device(samples, counts, opts.accumulate, [&](const T* in, std::int64_t n, C* c) {
    histogram_range(in, n, c, static_cast<const histogram_level_t<T>*>(d_edges.p),
                    static_cast<std::int64_t>(edges.size()), nullptr, opts);
  });
}

}  // namespace scankit::cuda

/// Instantiates every histogram entry point for one sample type and one counter type.
#define SCANKIT_INSTANTIATE_HISTOGRAM(T, C)                                                      \
  template void scankit::cuda::histogram_even<T, C>(const T*, std::int64_t, C*, std::int64_t,     \
                                                    scankit::histogram_level_t<T>,                \
                                                    scankit::histogram_level_t<T>, cudaStream_t,  \
                                                    const scankit::cuda::histogram_options&);     \
  template void scankit::cuda::histogram_range<T, C>(const T*, std::int64_t, C*,                  \
                                                     const scankit::histogram_level_t<T>*,        \
                                                     std::int64_t, cudaStream_t,                  \
                                                     const scankit::cuda::histogram_options&);    \
  template void scankit::cuda::histogram_even<T, C>(std::span<const T>, std::span<C>,             \
                                                    scankit::histogram_level_t<T>,                \
                                                    scankit::histogram_level_t<T>,                \
                                                    const scankit::cuda::histogram_options&);     \
  template void scankit::cuda::histogram_range<T, C>(                                             \
      std::span<const T>, std::span<C>, std::span<const scankit::histogram_level_t<T>>,           \
      const scankit::cuda::histogram_options&);

/// Instantiates bincount_capped for one integer key type and one counter type.
#define SCANKIT_INSTANTIATE_BINCOUNT(T, C)                                                        \
  template void scankit::cuda::bincount_capped<T, C>(const T*, std::int64_t, C*, std::int64_t,    \
                                                     std::int64_t*, cudaStream_t,                 \
                                                     const scankit::cuda::histogram_options&);
