// Error checks of the CUDA backend: every runtime call and every launch goes through one of
// these, so a failure throws scankit::cuda_error naming the call.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "scankit/error.hpp"

namespace scankit::cuda::detail {

[[noreturn]] inline void throw_cuda(cudaError_t e, const char* call, const char* file, int line) {
  // A failed call also sets the runtime's last error; reset it, or the next launch's check
  // (cudaGetLastError) reports this failure again against the wrong kernel.
  (void)cudaGetLastError();
  throw cuda_error(static_cast<int>(e), std::string("CUDA error in ") + call + " (" + file + ":" +
                                            std::to_string(line) + "): " + cudaGetErrorName(e) +
                                            ": " + cudaGetErrorString(e));
}

}  // namespace scankit::cuda::detail

/// Checks a CUDA runtime call; throws scankit::cuda_error naming the call on failure.
#define SCANKIT_CUDA_CHECK(call)                                                       \
  do {                                                                                 \
    cudaError_t scankit_err_ = (call);                                                 \
    if (scankit_err_ != cudaSuccess)                                                   \
      ::scankit::cuda::detail::throw_cuda(scankit_err_, #call, __FILE__, __LINE__);    \
  } while (0)

/// Checks the launch just made (configuration errors surface here, not at the next sync).
#define SCANKIT_LAUNCH_CHECK(kernel_name)                                              \
  do {                                                                                 \
    cudaError_t scankit_err_ = cudaGetLastError();                                     \
    if (scankit_err_ != cudaSuccess)                                                   \
      ::scankit::cuda::detail::throw_cuda(scankit_err_, "launch of " kernel_name,      \
                                          __FILE__, __LINE__);                         \
  } while (0)
