// Instantiates the CUDA scans for std::uint32_t with every built-in operator.
// (One file per element type so the build compiles them in parallel.)
#include "scankit/cuda/scan.cuh"

SCANKIT_INSTANTIATE_SCAN(scankit::sum<std::uint32_t>)
SCANKIT_INSTANTIATE_SCAN(scankit::product<std::uint32_t>)
SCANKIT_INSTANTIATE_SCAN(scankit::min<std::uint32_t>)
SCANKIT_INSTANTIATE_SCAN(scankit::max<std::uint32_t>)
SCANKIT_INSTANTIATE_SCAN(scankit::bit_and<std::uint32_t>)
SCANKIT_INSTANTIATE_SCAN(scankit::bit_or<std::uint32_t>)
SCANKIT_INSTANTIATE_SCAN(scankit::bit_xor<std::uint32_t>)
