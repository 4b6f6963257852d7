// The CUB baselines of `scankit bench reduce` (cub::DeviceReduce::Sum, Min, Max, ArgMin,
// ArgMax). Instantiated by nvcc in files generated from baselines.cu.in, one per element type
// (tools/CMakeLists.txt); callable from plain C++. CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace scankit::tools {

/// One CUB reduction (temp == nullptr: the size query, answered in temp_bytes). op: sum, min,
/// max (out: one T), argmin or argmax (out: one T, index: one int64).
struct cub_reduce_args {
  std::string op;
  const void* in = nullptr;
  void* out = nullptr;
  std::int64_t* index = nullptr;
  std::int64_t n = 0;
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  cudaStream_t stream = nullptr;
};

/// Whether CUB has the operation (`product` and `min_max` are not DeviceReduce calls).
inline bool cub_has_reduce(const std::string& op) {
  return op == "sum" || op == "min" || op == "max" || op == "argmin" || op == "argmax";
}

/// Runs (or sizes) the CUB reduction of T; throws scankit::cuda_error when CUB fails.
template <class T>
void cub_reduce(cub_reduce_args& a);

}  // namespace scankit::tools
