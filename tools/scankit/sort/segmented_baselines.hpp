// The CUB baselines of `scankit bench sort --segments`: cub::DeviceSegmentedRadixSort
// (SortKeys / SortPairs and their Descending forms) and cub::DeviceSegmentedSort
// (StableSortKeys / StableSortPairs and their Descending forms), with the CSR offsets as the
// begin and end iterators. Instantiated by nvcc in files generated from baselines.cu.in, one
// per key type of SCANKIT_CUB_SORT_SEGMENTED_TYPES (tools/CMakeLists.txt), for keys alone and
// with u32 values only: the bench moves no other values, and every instantiation of these
// dispatchers adds to the build. Callable from plain C++. CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace scankit::tools {

/// One CUB segmented sort call (temp == nullptr: the size query, answered in temp_bytes).
struct cub_segmented_sort_args {
  bool radix = true;  // DeviceSegmentedRadixSort; false: DeviceSegmentedSort (stable)
  const void* keys_in = nullptr;
  void* keys_out = nullptr;
  const std::uint32_t* values_in = nullptr;  // null: keys only
  std::uint32_t* values_out = nullptr;
  int n = 0;         // both CUB calls take an int count here (the bench checks the range)
  int segments = 0;  // offsets[0..segments]: device memory
  const std::int64_t* offsets = nullptr;
  bool descending = false;
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  cudaStream_t stream = nullptr;
};

/// Runs (or sizes) the CUB segmented sort of keys K; throws scankit::cuda_error when CUB fails.
template <class K>
void cub_segmented_sort(cub_segmented_sort_args& a);

}  // namespace scankit::tools
