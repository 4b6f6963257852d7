// CUDA histograms of std::int64_t samples (one sample type per file so they compile in parallel).
#include "scankit/cuda/histogram.cuh"

SCANKIT_INSTANTIATE_HISTOGRAM(std::int64_t, std::uint32_t)
SCANKIT_INSTANTIATE_HISTOGRAM(std::int64_t, std::uint64_t)
