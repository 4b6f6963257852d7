// Instantiates the CUDA sorts for std::int32_t keys (every value size). One key type per file so
// the build compiles them in parallel.
#include "scankit/cuda/sort.cuh"

SCANKIT_INSTANTIATE_SORT(std::int32_t)
