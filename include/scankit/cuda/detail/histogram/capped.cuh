// bincount_capped's parts: the bin of a key below a capacity, with two spare counters after
// the bins (keys at or above the capacity, negative keys), and the small kernel that reads the
// counts back into a summary: how many keys fell outside, and the largest key counted.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

namespace scankit::cuda::detail::hist {

/// Bin k for 0 <= k < capacity; keys at or above capacity go to counter `capacity`, negative
/// keys to counter `capacity + 1`: every key is counted, so one pass over the keys says whether
/// the capacity held them all.
template <class T>
struct capped_bins {
  static constexpr bool always_counted = true;  // the sinks need no spare "not counted" counter
  int capacity = 1;

  __host__ __device__ int operator()(T x) const {
    if constexpr (std::is_signed_v<T>) {
      if (x < 0) return capacity + 1;
    }
    using U = std::make_unsigned_t<T>;
    return static_cast<U>(x) >= static_cast<U>(capacity) ? capacity : static_cast<int>(x);
  }
};

/// Threads per block and counters per thread of capped_summary_kernel.
inline constexpr int summary_block = 256;
inline constexpr int summary_per_thread = 16;

/// summary[2] = max(summary[2], the largest k < capacity with counts[k] != 0): each thread
/// walks its counters from the top and stops at the first non-zero one. Block 0 also copies
/// the two spare counters to summary[0] (negative keys) and summary[1] (keys >= capacity).
/// summary[2] holds -1 before the launch.
template <class C>
__global__ void capped_summary_kernel(const C* counts, int capacity, std::int64_t* summary) {
  __shared__ int top;
  if (threadIdx.x == 0) top = -1;
  __syncthreads();
  const int stride = static_cast<int>(gridDim.x * blockDim.x);
  for (int k = capacity - 1 - static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); k >= 0;
       k -= stride) {
    if (counts[k] != 0) {
      atomicMax(&top, k);
      break;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    if (top >= 0) atomicMax(reinterpret_cast<long long*>(summary + 2), static_cast<long long>(top));
    if (blockIdx.x == 0) {
      summary[0] = static_cast<std::int64_t>(counts[capacity + 1]);
      summary[1] = static_cast<std::int64_t>(counts[capacity]);
    }
  }
}

}  // namespace scankit::cuda::detail::hist
