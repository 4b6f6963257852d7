// L2 prefetch hints issued by device code.
#pragma once

#include <cstddef>
#include <cstdint>

namespace scankit::cuda::detail {

/// Asks L2 to fetch the 16-byte-aligned part of [p, p + bytes) (Hopper: one bulk prefetch;
/// elsewhere nothing). A hint: nothing waits for it, and L2 is where global memory is
/// coherent, so a prefetched line is never stale. The range is rounded inwards, so no byte
/// outside [p, p + bytes) is touched.
__device__ __forceinline__ void prefetch_l2(const void* p, std::size_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t first = (a + 15) & ~std::uintptr_t{15}, last = (a + bytes) & ~std::uintptr_t{15};
  if (last > first)
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(first), "r"(static_cast<unsigned>(last - first)));
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace scankit::cuda::detail
