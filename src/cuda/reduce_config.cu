// The reductions' non-template parts: the workspace size on the current device and the copy of
// a result to the host.
#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/reduce/plan.hpp"
#include "scankit/cuda/reduce.hpp"

namespace scankit::cuda {

std::size_t reduce_workspace_bytes(std::size_t result_bytes) {
  if (result_bytes == 0) throw invalid_argument("scankit::cuda::reduce_workspace_bytes: result_bytes must be > 0");
  return detail::reduce::workspace_bytes(result_bytes, detail::current_device_info());
}

void copy_result_to_host(void* host, const void* device, std::size_t bytes, cudaStream_t stream) {
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream));
  SCANKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace scankit::cuda
