// The CUB radix sort baseline of `scankit bench sort` (cub::DeviceRadixSort::SortKeys /
// SortPairs and their Descending forms). Compiled by nvcc (sort_baselines_<key>.cu); callable
// from plain C++. CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace scankit::tools {

/// One CUB sort call (temp == nullptr: the size query, answered in temp_bytes).
struct cub_sort_args {
  const void* keys_in = nullptr;
  void* keys_out = nullptr;
  const void* values_in = nullptr;
  void* values_out = nullptr;
  std::size_t value_bytes = 0;  // 0: keys only
  std::int64_t n = 0;
  int begin_bit = 0, end_bit = 0;
  bool descending = false;
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  cudaStream_t stream = nullptr;
};

/// Runs (or sizes) the CUB sort, built for every key type ("u8" ... "f64") with no values and
/// with 4-, 8- and 16-byte values; throws scankit::cuda_error on failure.
void cub_sort(std::string_view key_type, cub_sort_args& a);

}  // namespace scankit::tools
