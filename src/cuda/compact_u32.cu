// Instantiates the CUDA compactions for std::uint32_t (one file per element type so they compile in
// parallel).
#include "scankit/cuda/compact.cuh"

SCANKIT_INSTANTIATE_COMPACT(std::uint32_t)
