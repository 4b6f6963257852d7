// CUB and Thrust scan baselines for double (one file per element type so they compile in parallel).
#include "scan_baselines.cuh"

SCANKIT_TOOLS_SCAN_BASELINES_FLOAT(double)
