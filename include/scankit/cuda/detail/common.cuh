// Umbrella of the CUDA backend's shared machinery, for code that wants all of it. Each part
// lives in a file named for what it holds; include those directly in new code.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>

#include "scankit/cuda/detail/arena.hpp"          // arena: typed arrays from a workspace
#include "scankit/cuda/detail/device.cuh"         // device and kernel queries
#include "scankit/cuda/detail/error.cuh"          // SCANKIT_CUDA_CHECK, SCANKIT_LAUNCH_CHECK
#include "scankit/cuda/detail/fill.cuh"           // store_value, clear_async
#include "scankit/cuda/detail/launch.cuh"         // launch_after, grid_for, dependent launch
#include "scankit/cuda/detail/launch_checks.hpp"  // check_launch_tiles
#include "scankit/cuda/detail/math.hpp"           // ceil_div, align_up
#include "scankit/cuda/detail/pipeline/prefetch.cuh"  // prefetch_l2
#include "scankit/cuda/detail/scan/multilevel.cuh"    // scan_multilevel, tile_sums_bytes
#include "scankit/cuda/detail/warp/scan.cuh"          // warp_inclusive_scan, warp_reduce
#include "scankit/cuda/detail/warp/shuffle.cuh"       // shfl_up, shfl_idx, shfl_down
#include "scankit/error.hpp"
#include "scankit/ops.hpp"
