// The CUB baselines of `scankit bench segments`: cub::DeviceSegmentedReduce::Sum (reduce, CSR
// offsets as the begin and end iterators), cub::DeviceScan::InclusiveSumByKey (every scan op,
// with u32 segment ids as keys) and cub::DeviceReduce::ReduceByKey (reduce-by-key, the same
// keys). Instantiated by nvcc in files generated from baselines.cu.in, one per element type
// (tools/CMakeLists.txt); callable from plain C++. CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace scankit::tools {

/// One CUB call (temp == nullptr: the size query, answered in temp_bytes). op: reduce (in,
/// offsets, count -> out: count T), scan (keys, in, n -> out: n T) or reduce-by-key (keys, in,
/// n -> unique_keys, out, num_runs).
struct cub_segments_args {
  std::string op;
  const void* in = nullptr;
  void* out = nullptr;
  std::int64_t n = 0;
  const std::int64_t* offsets = nullptr;
  std::int64_t count = 0;
  const std::uint32_t* keys = nullptr;
  std::uint32_t* unique_keys = nullptr;
  std::int64_t* num_runs = nullptr;
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  cudaStream_t stream = nullptr;
};

/// The CUB call of a segments --op: "reduce", "scan" (scan, scan-flags, scan-by-key) or
/// "reduce-by-key".
inline std::string cub_segments_call(const std::string& op) {
  if (op == "reduce" || op == "reduce-by-key") return op;
  return "scan";
}

/// Runs (or sizes) the CUB call of T; throws scankit::cuda_error when CUB fails.
template <class T>
void cub_segments(cub_segments_args& a);

}  // namespace scankit::tools
