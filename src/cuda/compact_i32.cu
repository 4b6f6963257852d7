// Instantiates the CUDA compactions for std::int32_t (one file per element type so they compile in
// parallel).
#include "scankit/cuda/compact.cuh"

SCANKIT_INSTANTIATE_COMPACT(std::int32_t)
