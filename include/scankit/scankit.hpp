// scankit: data-parallel primitives (prefix scan, ...) for multicore CPUs and NVIDIA GPUs.
// Umbrella header: the operators, the CPU scans, and (when built with CUDA) the GPU scans'
// declarations.
#pragma once

#include <string_view>

#include "scankit/error.hpp"
#include "scankit/histogram.hpp"
#include "scankit/ops.hpp"
#include "scankit/scan.hpp"
#include "scankit/sort.hpp"
#include "scankit/types.hpp"
#include "scankit/compact.hpp"
#ifdef SCANKIT_HAS_CUDA
#include "scankit/cuda/histogram.hpp"
#include "scankit/cuda/scan.hpp"
#include "scankit/cuda/compact.hpp"
#include "scankit/cuda/sort.hpp"
#endif

#include "scankit/version.hpp"

namespace scankit {
std::string_view version() noexcept;
/// Whether this build has the CUDA backend (a GPU may still be absent at run time).
bool built_with_cuda() noexcept;
}  // namespace scankit
