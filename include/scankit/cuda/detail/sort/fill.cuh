// The sorts' small helper kernels: the counting sort of one-byte keys, the final copy of an
// in-place sort, and the index values of a sort that moves nothing.
#pragma once

#include "scankit/cuda/detail/sort/common.cuh"

namespace scankit::cuda::detail::radix {

/// One-byte keys alone, sorted over their whole width: the histogram says everything (a
/// counting sort). After the plan, starts[d] is where the keys of digit d begin in the output,
/// and every key of digit d is the same key, so the output is each digit's key repeated: one
/// read of the keys (the histogram) and one write, instead of a ranking pass.
template <key_kind Kind, class U>
__global__ void __launch_bounds__(256) counting_fill_kernel(const unsigned long long* starts, U flip, U* out,
                                                            std::int64_t n) {
  static_assert(sizeof(U) == 1, "one-byte keys");
  __shared__ unsigned long long start[radix + 1];
  wait_for_previous_grid();
  for (int d = threadIdx.x; d < radix; d += blockDim.x) start[d] = starts[d];
  if (threadIdx.x == 0) start[radix] = static_cast<unsigned long long>(n);
  __syncthreads();
  const bool vector_out = reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x * 16;
  for (std::int64_t v = (std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x) * 16; v < n; v += stride) {
    // The digit of output slot v: the last digit starting at or before it (empty digits start
    // where the next one does, so they are passed over).
    int lo = 0, hi = radix - 1;
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (start[mid] <= static_cast<unsigned long long>(v)) lo = mid;
      else hi = mid - 1;
    }
    int d = lo;
    alignas(16) U keys[16];
#pragma unroll
    for (int j = 0; j < 16; ++j) {
      while (d < radix - 1 && start[d + 1] <= static_cast<unsigned long long>(v + j)) ++d;
      keys[j] = ordered_bits<Kind, U>::from(static_cast<U>(static_cast<U>(d) ^ flip));
    }
    if (vector_out && v + 16 <= n) {
      *reinterpret_cast<uint4*>(out + v) = *reinterpret_cast<const uint4*>(keys);
    } else {
      for (int j = 0; j < 16 && v + j < n; ++j) out[v + j] = keys[j];
    }
  }
}

/// In-place sorts with an odd number of active passes end in the alternate buffer. The
/// narrow_index positions of an int64 argsort are widened on the way (the last digit pass
/// wrote them as uint32 to the alternate buffer, which holds no more).
template <class U, class V>
__global__ void final_copy_kernel(const plan* pl, buffers<U, V> buf, std::int64_t n) {
  wait_for_previous_grid();
  if (!pl->final_copy) return;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    buf.keys[1][i] = buf.keys[2][i];
    if constexpr (widens<V>) store_wide_index(buf.values[1], i, buf.values[2][i]);
    else if constexpr (has_values<V>) buf.values[1][i] = buf.values[2][i];
  }
}

/// Values for a sort that does not move anything (n == 1, an empty bit range): copied, or
/// the positions for argsort.
template <class V>
__global__ void fill_index_kernel(V* out, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    out[i] = index_value<V>(i);
}

}  // namespace scankit::cuda::detail::radix
