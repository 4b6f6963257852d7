// The segmented operations' non-template parts: the workspace size on the current device and
// the check of device-memory segments.
#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <string>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/segments/plan.hpp"
#include "scankit/cuda/segments.hpp"

namespace scankit::cuda {

std::size_t segments_workspace_bytes(std::int64_t n, std::int64_t n_segments, std::size_t value_bytes,
                                     const segments_config& cfg) {
  namespace ds = detail::segments;
  (void)ds::make_plan(ds::operation::reduce, n, n_segments, value_bytes, cfg, detail::current_device_info());  // checks cfg
  return ds::workspace_for_any(n, n_segments, value_bytes, detail::current_device_info());
}

namespace {

/// Marks in *first_bad the smallest s whose segment breaks the rules of check_segments_host.
__global__ void check_segments_kernel(const std::int64_t* begin, const std::int64_t* end, std::int64_t count,
                                      std::int64_t n, bool covering, unsigned long long* first_bad) {
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t s = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; s < count; s += stride) {
    const std::int64_t b = begin[s], e = end[s];
    bool bad = b < 0 || e > n || b > e || (s > 0 && b < end[s - 1]);
    if (covering) bad = bad || (s == 0 && b != 0) || (s == count - 1 && e != n) || (s > 0 && b != end[s - 1]);
    if (bad) atomicMin(first_bad, static_cast<unsigned long long>(s));
  }
}

}  // namespace

void check_segments(const segment_bounds& seg, std::int64_t n, cudaStream_t stream, bool covering) {
  constexpr const char* who = "scankit::cuda::check_segments";
  if (n < 0) throw invalid_argument(std::string(who) + ": n must be >= 0");
  if (seg.count < 0) throw invalid_argument(std::string(who) + ": the number of segments must be >= 0");
  if (seg.count == 0) {
    if (covering && n != 0) throw invalid_argument(std::string(who) + ": no segments for " + std::to_string(n) + " items");
    return;
  }
  if (seg.begin == nullptr || seg.end == nullptr) throw invalid_argument(std::string(who) + ": null segment offsets");
  unsigned long long* d_bad = nullptr;
  SCANKIT_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&d_bad), sizeof(unsigned long long), stream));
  struct freer {
    unsigned long long* p;
    cudaStream_t s;
    ~freer() { cudaFreeAsync(p, s); }
  } guard{d_bad, stream};
  SCANKIT_CUDA_CHECK(cudaMemsetAsync(d_bad, 0xff, sizeof(unsigned long long), stream));
  check_segments_kernel<<<detail::grid_for(detail::ceil_div(seg.count, 256), 4096), 256, 0, stream>>>(
      seg.begin, seg.end, seg.count, n, covering, d_bad);
  SCANKIT_LAUNCH_CHECK("check_segments_kernel");
  unsigned long long bad = 0;
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(&bad, d_bad, sizeof(bad), cudaMemcpyDeviceToHost, stream));
  SCANKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (bad == std::numeric_limits<unsigned long long>::max()) return;
  const auto s = static_cast<std::int64_t>(bad);
  std::int64_t b = 0, e = 0, previous_end = 0;
  SCANKIT_CUDA_CHECK(cudaMemcpy(&b, seg.begin + s, sizeof(b), cudaMemcpyDeviceToHost));
  SCANKIT_CUDA_CHECK(cudaMemcpy(&e, seg.end + s, sizeof(e), cudaMemcpyDeviceToHost));
  if (s > 0) SCANKIT_CUDA_CHECK(cudaMemcpy(&previous_end, seg.end + s - 1, sizeof(e), cudaMemcpyDeviceToHost));
  throw invalid_argument(std::string(who) + ": segment " + std::to_string(s) + " is [" + std::to_string(b) + ", " +
                         std::to_string(e) + ") after a segment ending at " + std::to_string(previous_end) +
                         ": bounds must lie in [0, n = " + std::to_string(n) + "], not decrease" +
                         (covering ? ", and cover every item" : ""));
}

}  // namespace scankit::cuda
