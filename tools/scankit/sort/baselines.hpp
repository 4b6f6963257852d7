// The CUB radix sort baseline of `scankit bench sort` (cub::DeviceRadixSort::SortKeys /
// SortPairs and their Descending forms). Instantiated by nvcc in files generated from
// baselines.cu.in, one per key type (tools/CMakeLists.txt); callable from plain C++. CUDA
// builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

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

/// Runs (or sizes) the CUB sort of keys K with no values or with 4-, 8- or 16-byte values;
/// throws scankit::error for another value size and scankit::cuda_error when CUB fails.
template <class K>
void cub_sort(cub_sort_args& a);

}  // namespace scankit::tools
