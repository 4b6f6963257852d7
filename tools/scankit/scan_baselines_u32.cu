// CUB and Thrust scan baselines for std::uint32_t (one file per element type so they compile in parallel).
#include "scan_baselines.cuh"

SCANKIT_TOOLS_SCAN_BASELINES_INT(std::uint32_t)
