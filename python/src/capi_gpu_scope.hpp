// What the GPU backend's translation units share: the caller's device made current for a call,
// and the stream handle.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "capi_internal.hpp"
#include "capi_kernels.hpp"

namespace scankit::capi::gpu::scope {

/// Makes `device` current for the call and restores the caller's device after it.
class device_scope {
 public:
  explicit device_scope(int device) {
    const int count = device_count();
    if (count == 0) throw scankit::no_device_error("no CUDA device is visible");
    if (device < 0 || device >= count)
      throw scankit::invalid_argument("device " + std::to_string(device) + " does not exist (" +
                                      std::to_string(count) + " visible)");
    kernels::check_cuda(cudaGetDevice(&previous_), "cudaGetDevice");
    if (previous_ != device) kernels::check_cuda(cudaSetDevice(device), "cudaSetDevice");
    device_ = device;
  }
  ~device_scope() {
    if (previous_ != device_) (void)cudaSetDevice(previous_);
  }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  int previous_ = 0, device_ = 0;
};

inline cudaStream_t as_stream(std::uintptr_t s) {
  return reinterpret_cast<cudaStream_t>(s);
}

}  // namespace scankit::capi::gpu::scope
