// Queries of the current device and of the library's kernels on it, each remembered per device
// (and kernel), so that launch code can ask on every call.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/error.cuh"

namespace scankit::cuda::detail {

inline int current_device() {
  int dev = 0;
  SCANKIT_CUDA_CHECK(cudaGetDevice(&dev));
  return dev;
}

/// An attribute of the current device, looked up once per device and attribute: small calls
/// take a few microseconds, and a driver call on every launch would show in their time.
int device_attribute(cudaDeviceAttr attr);
/// The current device's multiprocessor count (at least 1).
inline int device_sm_count() { return current_device_info().sm_count; }

/// Lets `kernel` use `bytes` of dynamic shared memory on the current device. The runtime call
/// is made only when the kernel's limit there is lower (remembered per kernel and device).
void allow_dynamic_shared_memory_impl(const void* kernel, std::size_t bytes);
template <class... Params>
void allow_dynamic_shared_memory(void (*kernel)(Params...), std::size_t bytes) {
  allow_dynamic_shared_memory_impl(reinterpret_cast<const void*>(kernel), bytes);
}

/// Whether `kernel` with `bytes` of dynamic shared memory (plus its static shared memory) fits
/// the current device's per-block limit. Kernels sized for the largest opt-in limit check this
/// before allow_dynamic_shared_memory, so that a device with less takes another path instead
/// of failing.
bool fits_shared_memory_impl(const void* kernel, std::size_t bytes);
template <class... Params>
bool fits_shared_memory(void (*kernel)(Params...), std::size_t bytes) {
  return fits_shared_memory_impl(reinterpret_cast<const void*>(kernel), bytes);
}

/// Blocks of `kernel` with `threads` threads and `dynamic_bytes` of dynamic shared memory that
/// fit one SM of the current device (cudaOccupancyMaxActiveBlocksPerMultiprocessor, remembered
/// per kernel, device and shape: the query costs about as much as a small call).
int blocks_per_sm_impl(const void* kernel, int threads, std::size_t dynamic_bytes);
template <class... Params>
int blocks_per_sm(void (*kernel)(Params...), int threads, std::size_t dynamic_bytes) {
  return blocks_per_sm_impl(reinterpret_cast<const void*>(kernel), threads, dynamic_bytes);
}

/// The virtual architecture `kernel`'s code on the current device was compiled for, as
/// __CUDA_ARCH__ / 10 (80 for compute_80, 90 for compute_90), remembered per kernel and device.
/// Hopper-only paths (bulk copies, dependent launch) are taken only where this is 90 or more:
/// the device's compute capability alone does not say whether the code has them: a
/// compute_80 PTX build that the driver compiles for an sm_90 device has none.
int kernel_arch_impl(const void* kernel);
template <class... Params>
int kernel_arch(void (*kernel)(Params...)) {
  return kernel_arch_impl(reinterpret_cast<const void*>(kernel));
}
/// Whether `kernel` was compiled with the Hopper instructions (bulk copies, mbarrier
/// transactions, griddepcontrol) that sm_90 code paths rely on.
template <class... Params>
bool kernel_has_hopper_code(void (*kernel)(Params...)) {
  return kernel_arch(kernel) >= 90;
}

}  // namespace scankit::cuda::detail
