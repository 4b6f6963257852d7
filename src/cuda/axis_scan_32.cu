// The scans along an axis for the built-in operators over the library's 32-bit scan types
// (axis_scan.hpp). Two files, by item size, so that a build compiles them side by side.
#include "scankit/cuda/axis_scan.cuh"

#define SCANKIT_AXIS_SCAN_ARITHMETIC(T)                 \
  SCANKIT_INSTANTIATE_AXIS_SCAN(scankit::sum<T>)     \
  SCANKIT_INSTANTIATE_AXIS_SCAN(scankit::product<T>) \
  SCANKIT_INSTANTIATE_AXIS_SCAN(scankit::min<T>)     \
  SCANKIT_INSTANTIATE_AXIS_SCAN(scankit::max<T>)
#define SCANKIT_AXIS_SCAN_INTEGER(T)                    \
  SCANKIT_AXIS_SCAN_ARITHMETIC(T)                     \
  SCANKIT_INSTANTIATE_AXIS_SCAN(scankit::bit_and<T>) \
  SCANKIT_INSTANTIATE_AXIS_SCAN(scankit::bit_or<T>)  \
  SCANKIT_INSTANTIATE_AXIS_SCAN(scankit::bit_xor<T>)

SCANKIT_AXIS_SCAN_INTEGER(std::int32_t)
SCANKIT_AXIS_SCAN_INTEGER(std::uint32_t)
SCANKIT_AXIS_SCAN_ARITHMETIC(float)
