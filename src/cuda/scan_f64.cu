// Instantiates the CUDA scans for double with every built-in operator.
// (One file per element type so the build compiles them in parallel.)
#include "scankit/cuda/scan.cuh"

SCANKIT_INSTANTIATE_SCAN(scankit::sum<double>)
SCANKIT_INSTANTIATE_SCAN(scankit::product<double>)
SCANKIT_INSTANTIATE_SCAN(scankit::min<double>)
SCANKIT_INSTANTIATE_SCAN(scankit::max<double>)
