// The histogram kernel with global atomics only (no shared memory).
#pragma once

#include "scankit/cuda/detail/histogram/input.cuh"
#include "scankit/cuda/detail/histogram/sinks.cuh"

namespace scankit::cuda::detail::hist {

/// Global atomics. Blocked: thread g counts vectors [g * per, (g + 1) * per) (uncoalesced on
/// purpose: the textbook first attempt). Otherwise grid-stride, `unroll` vectors in flight.
template <class T, class C, class Bins, bool Blocked, agg A>
__global__ void global_kernel(const T* in, std::int64_t n, Bins bins, C* counts) {
  const layout L = split(in, n);
  count_head_and_tail(in, n, L, bins, counts);
  const uint4* v = reinterpret_cast<const uint4*>(in + L.head);
  const global_sink<C> sink{counts};
  run_state run;
  const std::int64_t threads = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t g = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if constexpr (Blocked) {
    const std::int64_t per = ceil_div(L.vectors, threads);
    const std::int64_t begin = g * per;
    const std::int64_t end = begin + per < L.vectors ? begin + per : L.vectors;
    for (std::int64_t i = begin; i < end; ++i) count_vector<A, T>(__ldg(v + i), bins, run, sink);
  } else {
    for (std::int64_t base = g; base < L.vectors; base += threads * unroll) {
      uint4 r[unroll];
#pragma unroll
      for (int u = 0; u < unroll; ++u) {
        const std::int64_t i = base + u * threads;
        if (i < L.vectors) r[u] = __ldg(v + i);
      }
#pragma unroll
      for (int u = 0; u < unroll; ++u)
        if (base + u * threads < L.vectors) count_vector<A, T>(r[u], bins, run, sink);
    }
  }
  flush(run, sink);
}

}  // namespace scankit::cuda::detail::hist
