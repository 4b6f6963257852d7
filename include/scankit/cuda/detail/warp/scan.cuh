// Scan and reduction across the 32 lanes of a full warp, for any trivially copyable T.
#pragma once

#include "scankit/cuda/detail/warp/shuffle.cuh"

namespace scankit::cuda::detail {

/// Inclusive scan across the 32 lanes of a full warp (Kogge-Stone with shuffles).
template <class T, class Op>
__device__ __forceinline__ T warp_inclusive_scan(T v, Op op) {
  const unsigned lane = threadIdx.x & 31u;
#pragma unroll
  for (unsigned d = 1; d < 32; d <<= 1) {
    T other = shfl_up(v, d);
    if (lane >= d) v = op(other, v);
  }
  return v;
}

/// Reduction across the 32 lanes of a full warp; the result is valid in every lane.
/// The order is the lanes' order, so non-commutative operators are fine.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce(T v, Op op) {
  return shfl_idx(warp_inclusive_scan(v, op), 31);
}

}  // namespace scankit::cuda::detail
