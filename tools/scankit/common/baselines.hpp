// Reference points that are not scankit: a device-to-device copy (the bandwidth floor of any
// primitive that reads and writes its data once), a read-once kernel (the floor of one that
// only reads it, such as a histogram) and the memory Thrust's temporaries come from. Compiled
// by nvcc in baselines.cu; callable from plain C++. CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

namespace scankit::tools {

/// cudaMemcpyAsync of `bytes` bytes from device to device on `stream`; throws on failure.
void device_copy(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);

/// Reads `bytes` bytes (16-byte vectors, grid-stride) and does nothing with them: the time to
/// read the samples once. d_sink: one unsigned of device memory the kernel may write.
void read_once(const void* d, std::size_t bytes, unsigned* d_sink, cudaStream_t stream);

/// A cache of device blocks for Thrust's temporary allocations: blocks are kept after their
/// first use, so Thrust calls timed after a warm-up do not cudaMalloc (or cudaFree).
class thrust_scratch {
 public:
  thrust_scratch();
  ~thrust_scratch();
  thrust_scratch(const thrust_scratch&) = delete;
  thrust_scratch& operator=(const thrust_scratch&) = delete;
  struct impl;
  impl& get() { return *p_; }

 private:
  std::unique_ptr<impl> p_;
};

}  // namespace scankit::tools
