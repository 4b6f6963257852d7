// CUDA histograms of float samples (one sample type per file so they compile in parallel).
#include "scankit/cuda/histogram.cuh"

SCANKIT_INSTANTIATE_HISTOGRAM(float, std::uint32_t)
SCANKIT_INSTANTIATE_HISTOGRAM(float, std::uint64_t)
