// The segmented reduction's last step on the GPU (capi_segments_finish.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "capi_internal.hpp"
#include "capi_kernels.hpp"
#include "capi_segments_finish.hpp"

namespace scankit::capi::kernels {
namespace {

template <class T, class Op>
__global__ void finish_kernel(Op op, bool mean, bool has_init, T init, const std::int64_t* offsets,
                              std::int64_t n_segments, T* out) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t s = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       s < n_segments; s += stride) {
    const std::int64_t length = offsets[s + 1] - offsets[s];
    if (length <= 0) continue;
    T v = out[s];
    if (has_init) v = op(init, v);
    if (mean) v = static_cast<T>(v / static_cast<T>(length));
    out[s] = v;
  }
}

}  // namespace

void finish_segments(int dtype, int op, bool mean, const void* init, const std::int64_t* offsets,
                     std::int64_t n_segments, void* out, cudaStream_t stream) {
  if (n_segments <= 0 || (!mean && init == nullptr)) return;
  visit_types<scan_types>(dtype, "segment_reduce", [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_segment_op<T>(op, [&](auto m) {
      const T first = init ? *static_cast<const T*>(init) : T{};
      const int threads = 256;
      const auto blocks =
          static_cast<unsigned>(std::min<std::int64_t>((n_segments + threads - 1) / threads, 4096));
      finish_kernel<T><<<blocks, threads, 0, stream>>>(m, mean, init != nullptr, first, offsets,
                                                       n_segments, static_cast<T*>(out));
      check_cuda(cudaGetLastError(), "segment_reduce: the finishing kernel");
    });
  });
}

}  // namespace scankit::capi::kernels
