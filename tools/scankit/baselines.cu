// Non-template baselines: the device-to-device copy and the Thrust block cache.
#include "baselines.cuh"

namespace scankit::tools {

void device_copy(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
}

thrust_scratch::thrust_scratch() : p_(std::make_unique<impl>()) {}
thrust_scratch::~thrust_scratch() = default;

}  // namespace scankit::tools
