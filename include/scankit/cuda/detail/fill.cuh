// Small kernels that write device memory for several primitives: one value, or zeroes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "scankit/cuda/detail/error.cuh"
#include "scankit/cuda/detail/launch.cuh"
#include "scankit/cuda/detail/math.hpp"

namespace scankit::cuda::detail {

template <class T>
__global__ void store_value_kernel(T* dst, T value) {
  *dst = value;
}

/// Writes `value` to d_dst on stream s (e.g. n == 0: the carry-out is the carry-in).
template <class T>
void store_value(T* d_dst, T value, cudaStream_t s) {
  store_value_kernel<<<1, 1, 0, s>>>(d_dst, value);
  SCANKIT_LAUNCH_CHECK("store_value_kernel");
}

/// Zeroes `words` 8-byte words at p, as cudaMemsetAsync would, but as a kernel: the kernel
/// after it can then be launched as its programmatic dependent (launch_after), and it lets
/// that one launch at once (it still waits for the zeroes before it reads them).
template <int = 0>
__global__ void clear_kernel(unsigned long long* p, std::int64_t words) {
  allow_next_grid();
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < words; i += stride) p[i] = 0;
}

/// Clears `bytes` at p on stream s (clear_kernel when p and bytes are whole 8-byte words).
inline void clear_async(void* p, std::size_t bytes, cudaStream_t s) {
  if (bytes == 0) return;
  if (reinterpret_cast<std::uintptr_t>(p) % 8 != 0 || bytes % 8 != 0) {
    SCANKIT_CUDA_CHECK(cudaMemsetAsync(p, 0, bytes, s));
    return;
  }
  const auto words = static_cast<std::int64_t>(bytes / 8);
  clear_kernel<><<<grid_for(ceil_div(words, 256 * 8), 2048), 256, 0, s>>>(static_cast<unsigned long long*>(p), words);
  SCANKIT_LAUNCH_CHECK("clear_kernel");
}

}  // namespace scankit::cuda::detail
