// Definitions of the CUB histogram baselines (see histogram/baselines.hpp).
#pragma once

#include <cub/device/device_histogram.cuh>

#include <limits>
#include <type_traits>

#include "histogram/baselines.hpp"
#include "scankit/cuda/detail/common.cuh"

namespace scankit::tools {

namespace hist_detail {

/// The level type CUB gets for even bins when the levels fit in it.
template <class T>
using cub_level_t = std::conditional_t<
    std::is_floating_point_v<T>, T,
    std::conditional_t<std::is_same_v<T, std::uint32_t>, unsigned,
                       std::conditional_t<std::is_same_v<T, std::int64_t>, long long, int>>>;

template <class C>
auto* cub_counter(C* p) {
  if constexpr (sizeof(C) == 8) return reinterpret_cast<unsigned long long*>(p);
  else return reinterpret_cast<unsigned int*>(p);
}

template <class T>
bool levels_fit(histogram_level_t<T> lower, histogram_level_t<T> upper) {
  using L = cub_level_t<T>;
  if constexpr (std::is_floating_point_v<T>) return true;
  else
    return lower >= static_cast<std::int64_t>(std::numeric_limits<L>::min()) &&
           static_cast<long double>(upper) <= static_cast<long double>(std::numeric_limits<L>::max());
}

template <class T, class C>
cudaError_t even_call(void* d_temp, std::size_t& bytes, const T* d_samples, std::int64_t n, C* d_counts,
                      std::int64_t bins, histogram_level_t<T> lower, histogram_level_t<T> upper,
                      cudaStream_t s) {
  const int levels = static_cast<int>(bins + 1);
  if (levels_fit<T>(lower, upper)) {
    using L = cub_level_t<T>;
    return cub::DeviceHistogram::HistogramEven(d_temp, bytes, d_samples, cub_counter(d_counts), levels,
                                               static_cast<L>(lower), static_cast<L>(upper), n, s);
  }
  if constexpr (!std::is_floating_point_v<T>) {
    return cub::DeviceHistogram::HistogramEven(d_temp, bytes, d_samples, cub_counter(d_counts), levels,
                                               static_cast<long long>(lower),
                                               static_cast<long long>(upper), n, s);
  }
  return cudaErrorInvalidValue;
}

template <class T, class C>
cudaError_t range_call(void* d_temp, std::size_t& bytes, const T* d_samples, std::int64_t n, C* d_counts,
                       const histogram_level_t<T>* d_edges, std::int64_t num_edges, cudaStream_t s) {
  return cub::DeviceHistogram::HistogramRange(d_temp, bytes, d_samples, cub_counter(d_counts),
                                              static_cast<int>(num_edges), d_edges, n, s);
}

}  // namespace hist_detail

template <class T, class C>
std::size_t cub_histogram_even_temp_bytes(std::int64_t n, std::int64_t bins, histogram_level_t<T> lower,
                                          histogram_level_t<T> upper) {
  std::size_t bytes = 0;
  SCANKIT_CUDA_CHECK((hist_detail::even_call<T, C>(nullptr, bytes, nullptr, n, nullptr, bins, lower, upper, nullptr)));
  return bytes;
}

template <class T, class C>
std::size_t cub_histogram_range_temp_bytes(std::int64_t n, std::int64_t num_edges) {
  std::size_t bytes = 0;
  SCANKIT_CUDA_CHECK((hist_detail::range_call<T, C>(nullptr, bytes, nullptr, n, nullptr, nullptr, num_edges, nullptr)));
  return bytes;
}

template <class T, class C>
void cub_histogram_even(const T* d_samples, std::int64_t n, C* d_counts, std::int64_t bins,
                        histogram_level_t<T> lower, histogram_level_t<T> upper, void* d_temp,
                        std::size_t temp_bytes, cudaStream_t stream) {
  std::size_t bytes = temp_bytes;
  SCANKIT_CUDA_CHECK((hist_detail::even_call<T, C>(d_temp, bytes, d_samples, n, d_counts, bins, lower, upper, stream)));
}

template <class T, class C>
void cub_histogram_range(const T* d_samples, std::int64_t n, C* d_counts,
                         const histogram_level_t<T>* d_edges, std::int64_t num_edges, void* d_temp,
                         std::size_t temp_bytes, cudaStream_t stream) {
  std::size_t bytes = temp_bytes;
  SCANKIT_CUDA_CHECK((hist_detail::range_call<T, C>(d_temp, bytes, d_samples, n, d_counts, d_edges, num_edges, stream)));
}

}  // namespace scankit::tools

#define SCANKIT_TOOLS_HISTOGRAM_BASELINES_FOR(T, C)                                               \
  template std::size_t scankit::tools::cub_histogram_even_temp_bytes<T, C>(                       \
      std::int64_t, std::int64_t, scankit::histogram_level_t<T>, scankit::histogram_level_t<T>);   \
  template std::size_t scankit::tools::cub_histogram_range_temp_bytes<T, C>(std::int64_t,         \
                                                                             std::int64_t);       \
  template void scankit::tools::cub_histogram_even<T, C>(                                         \
      const T*, std::int64_t, C*, std::int64_t, scankit::histogram_level_t<T>,                     \
      scankit::histogram_level_t<T>, void*, std::size_t, cudaStream_t);                            \
  template void scankit::tools::cub_histogram_range<T, C>(                                        \
      const T*, std::int64_t, C*, const scankit::histogram_level_t<T>*, std::int64_t, void*,       \
      std::size_t, cudaStream_t);

/// Both counter types.
#define SCANKIT_TOOLS_HISTOGRAM_BASELINES(T)                  \
  SCANKIT_TOOLS_HISTOGRAM_BASELINES_FOR(T, std::uint32_t)     \
  SCANKIT_TOOLS_HISTOGRAM_BASELINES_FOR(T, std::uint64_t)
