// Instantiates the CUDA compactions for double (one file per element type so they compile in
// parallel).
#include "scankit/cuda/compact.cuh"

SCANKIT_INSTANTIATE_COMPACT(double)
