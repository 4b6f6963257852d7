// The sort path of the segmented top-k (any k): the segmented sort's ordering step (every
// key's rank sorted stably with its position, then stably by segment) leaves each segment's
// keys together in (rank, position) order; the first k of each are its top-k.
#pragma once

#include <algorithm>
#include <cstdint>

#include "scankit/cuda/detail/arena.hpp"
#include "scankit/cuda/detail/error.cuh"
#include "scankit/cuda/detail/segmented_sort/launch.cuh"
#include "scankit/cuda/detail/topk/kernels.cuh"

namespace scankit::cuda::detail::topk {

/// Segment s's keys start at the first ordered entry whose segment is s.
template <class K>
__global__ void write_sorted_topk(const K* in, segmented_sort::segments_of seg, std::int64_t count, std::int64_t n,
                                  std::int64_t k, const u64* segment, const u64* pos, K* values, std::int64_t* indices) {
  for (std::int64_t s = blockIdx.x; s < count; s += gridDim.x) {
    const std::int64_t start = segmented_sort::lower_bound(segment, n, static_cast<u64>(s));
    const std::int64_t first = seg.first(s);
    // A segment shorter than k (a broken precondition) ends early: never read past it.
    for (std::int64_t j = threadIdx.x; j < k && start + j < n && segment[start + j] == static_cast<u64>(s);
         j += blockDim.x) {
      const std::int64_t p = static_cast<std::int64_t>(pos[start + j]);
      values[s * k + j] = in[p];
      indices[s * k + j] = p - first;
    }
  }
}

template <class K>
void run_sorted(const K* in, segmented_sort::segments_of seg, std::int64_t count, std::int64_t n, std::int64_t k,
                bool largest, K* values, std::int64_t* indices, arena& a, const device_info& d, cudaStream_t stream) {
  const auto b = segmented_sort::carve_order(a, n);
  segmented_sort::order_by_segment(in, n, seg, count, 0, static_cast<int>(sizeof(K) * 8), largest, b, d.sm_count,
                                   stream);
  const unsigned grid = static_cast<unsigned>(std::clamp<std::int64_t>(count, 1, 65535));
  write_sorted_topk<<<grid, 256, 0, stream>>>(in, seg, count, n, k, b.segment, b.pos, values, indices);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::topk write_sorted_topk");
}

}  // namespace scankit::cuda::detail::topk
