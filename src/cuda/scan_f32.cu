// Instantiates the CUDA scans for float with every built-in operator.
// (One file per element type so the build compiles them in parallel.)
#include "scankit/cuda/scan.cuh"

SCANKIT_INSTANTIATE_SCAN(scankit::sum<float>)
SCANKIT_INSTANTIATE_SCAN(scankit::product<float>)
SCANKIT_INSTANTIATE_SCAN(scankit::min<float>)
SCANKIT_INSTANTIATE_SCAN(scankit::max<float>)
