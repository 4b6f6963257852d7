// unique and unique_count on the GPU with every NaN one value (Python's unique(equal_nan=True)):
// the library instantiates its compactions with equal_to only, so the package instantiates this
// equivalence for the float types it takes (capi_cuda.cpp calls them through compact.hpp).
#include "scankit/cuda/compact.cuh"

#define SCANKIT_CAPI_UNIQUE_EQUAL_NAN(T)                                                          \
  template void scankit::cuda::unique<T, scankit::equal_or_both_nan<T>>(                          \
      const T*, T*, std::int64_t, scankit::equal_or_both_nan<T>, std::int64_t*, void*,            \
      std::size_t, cudaStream_t, const scankit::cuda::compact_config&);                           \
  template void scankit::cuda::unique_count<T, scankit::equal_or_both_nan<T>>(                    \
      const T*, T*, std::int64_t*, std::int64_t, scankit::equal_or_both_nan<T>, std::int64_t*,    \
      void*, std::size_t, cudaStream_t, const scankit::cuda::compact_config&);

SCANKIT_CAPI_UNIQUE_EQUAL_NAN(float)
SCANKIT_CAPI_UNIQUE_EQUAL_NAN(double)
