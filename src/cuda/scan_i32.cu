// Instantiates the CUDA scans for std::int32_t with every built-in operator.
// (One file per element type so the build compiles them in parallel.)
#include "scankit/cuda/scan.cuh"

SCANKIT_INSTANTIATE_SCAN(scankit::sum<std::int32_t>)
SCANKIT_INSTANTIATE_SCAN(scankit::product<std::int32_t>)
SCANKIT_INSTANTIATE_SCAN(scankit::min<std::int32_t>)
SCANKIT_INSTANTIATE_SCAN(scankit::max<std::int32_t>)
SCANKIT_INSTANTIATE_SCAN(scankit::bit_and<std::int32_t>)
SCANKIT_INSTANTIATE_SCAN(scankit::bit_or<std::int32_t>)
SCANKIT_INSTANTIATE_SCAN(scankit::bit_xor<std::int32_t>)
