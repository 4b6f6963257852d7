// CUB histogram baselines for float and double samples.
#include "histogram_baselines.cuh"

SCANKIT_TOOLS_HISTOGRAM_BASELINES_BOTH(float)
SCANKIT_TOOLS_HISTOGRAM_BASELINES_BOTH(double)
