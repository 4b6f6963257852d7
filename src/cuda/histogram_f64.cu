// CUDA histograms of double samples (one sample type per file so they compile in parallel).
#include "scankit/cuda/histogram.cuh"

SCANKIT_INSTANTIATE_HISTOGRAM(double, std::uint32_t)
SCANKIT_INSTANTIATE_HISTOGRAM(double, std::uint64_t)
