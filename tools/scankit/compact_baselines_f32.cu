#include "compact_baselines.cuh"
SCANKIT_TOOLS_COMPACT_BASELINES(float)
