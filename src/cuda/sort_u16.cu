// Instantiates the CUDA sorts for std::uint16_t keys (every value size). One key type per file so
// the build compiles them in parallel.
#include "scankit/cuda/sort.cuh"

SCANKIT_INSTANTIATE_SORT(std::uint16_t)
