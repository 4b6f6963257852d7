// Definitions of the CUB compaction baselines (see compact/baselines.hpp).
#pragma once

#include <cub/device/device_partition.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "compact/baselines.hpp"
#include "scankit/cuda/detail/common.cuh"

namespace scankit::tools {

namespace detail {
template <class T>
struct cub_nonzero {
  __host__ __device__ bool operator()(const T& x) const { return x != T(0); }
};
template <class T>
struct cub_zero {
  __host__ __device__ bool operator()(const T& x) const { return x == T(0); }
};
template <class T>
struct cub_nonzero_at {
  const T* in;
  __host__ __device__ bool operator()(std::int64_t i) const { return in[i] != T(0); }
};

/// One CUB call: a size query when d_temp is null, else the operation.
template <class T>
cudaError_t cub_call(compact_op op, void* d_temp, std::size_t& bytes, const T* d_in, const std::uint8_t* d_flags,
                     T* d_out, std::int64_t* d_idx, std::int64_t* d_count, std::int64_t n, cudaStream_t s) {
  switch (op) {
    case compact_op::select_if:
      return cub::DeviceSelect::If(d_temp, bytes, d_in, d_out, d_count, n, cub_nonzero<T>{}, s);
    case compact_op::remove_if:
      return cub::DeviceSelect::If(d_temp, bytes, d_in, d_out, d_count, n, cub_zero<T>{}, s);
    case compact_op::select_flagged:
      return cub::DeviceSelect::Flagged(d_temp, bytes, d_in, d_flags, d_out, d_count, n, s);
    case compact_op::partition:
      return cub::DevicePartition::If(d_temp, bytes, d_in, d_out, d_count, n, cub_nonzero<T>{}, s);
    case compact_op::unique:
      return cub::DeviceSelect::Unique(d_temp, bytes, d_in, d_out, d_count, n, s);
    case compact_op::unique_count:
      return cub::DeviceRunLengthEncode::Encode(d_temp, bytes, d_in, d_out, d_idx, d_count, n, s);
    case compact_op::nonzero:
      return cub::DeviceSelect::If(d_temp, bytes, thrust::counting_iterator<std::int64_t>(0), d_idx, d_count, n,
                                   cub_nonzero_at<T>{d_in}, s);
  }
  return cudaErrorInvalidValue;
}
}  // namespace detail

template <class T>
std::size_t cub_compact_temp_bytes(compact_op op, std::int64_t n) {
  std::size_t bytes = 0;
  SCANKIT_CUDA_CHECK(detail::cub_call<T>(op, nullptr, bytes, nullptr, nullptr, nullptr, nullptr, nullptr, n, nullptr));
  return bytes;
}

template <class T>
void cub_compact(compact_op op, const T* d_in, const std::uint8_t* d_flags, T* d_out, std::int64_t* d_idx,
                 std::int64_t* d_count, std::int64_t n, void* d_temp, std::size_t temp_bytes, cudaStream_t stream) {
  std::size_t bytes = temp_bytes;
  SCANKIT_CUDA_CHECK(detail::cub_call<T>(op, d_temp, bytes, d_in, d_flags, d_out, d_idx, d_count, n, stream));
}

}  // namespace scankit::tools

#define SCANKIT_TOOLS_COMPACT_BASELINES(T)                                                             \
  template std::size_t scankit::tools::cub_compact_temp_bytes<T>(scankit::tools::compact_op, std::int64_t); \
  template void scankit::tools::cub_compact<T>(scankit::tools::compact_op, const T*, const std::uint8_t*, T*, \
                                               std::int64_t*, std::int64_t*, std::int64_t, void*, std::size_t, \
                                               cudaStream_t);
