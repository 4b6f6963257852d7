// What the histograms are compared with: CUB's DeviceHistogram (HistogramEven and
// HistogramRange); the read-once kernel, their bandwidth floor, is in common/baselines.hpp.
// Instantiated by nvcc in files generated from baselines.cu.in, one per sample type
// (tools/CMakeLists.txt); callable from plain C++. CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "scankit/histogram_bins.hpp"

namespace scankit::tools {

/// Bytes of temporary storage cub_histogram_even / cub_histogram_range need.
template <class T, class C>
std::size_t cub_histogram_even_temp_bytes(std::int64_t n, std::int64_t bins,
                                          histogram_level_t<T> lower, histogram_level_t<T> upper);
template <class T, class C>
std::size_t cub_histogram_range_temp_bytes(std::int64_t n, std::int64_t num_edges);

/// cub::DeviceHistogram::HistogramEven with bins + 1 levels from lower to upper. The levels
/// are passed to CUB as int (uint8, uint16, int32), unsigned (uint32), long long (int64) or
/// the sample type (float, double) when they fit, else as long long. Stream-ordered.
template <class T, class C>
void cub_histogram_even(const T* d_samples, std::int64_t n, C* d_counts, std::int64_t bins,
                        histogram_level_t<T> lower, histogram_level_t<T> upper, void* d_temp,
                        std::size_t temp_bytes, cudaStream_t stream);

/// cub::DeviceHistogram::HistogramRange over num_edges device-resident edges.
template <class T, class C>
void cub_histogram_range(const T* d_samples, std::int64_t n, C* d_counts,
                         const histogram_level_t<T>* d_edges, std::int64_t num_edges, void* d_temp,
                         std::size_t temp_bytes, cudaStream_t stream);

}  // namespace scankit::tools
