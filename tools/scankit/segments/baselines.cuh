// Definitions of the CUB segments baselines (see segments/baselines.hpp).
#pragma once

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>

#include "common/baselines.cuh"
#include "segments/baselines.hpp"

namespace scankit::tools {

template <class T>
void cub_segments(cub_segments_args& a) {
  const auto* in = static_cast<const T*>(a.in);
  auto* out = static_cast<T*>(a.out);
  if (a.op == "reduce") {
    SCANKIT_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(a.temp, a.temp_bytes, in, out, a.count, a.offsets,
                                                       a.offsets + 1, a.stream));
  } else if (a.op == "scan") {
    SCANKIT_CUDA_CHECK(cub::DeviceScan::InclusiveSumByKey(a.temp, a.temp_bytes, a.keys, in, out, a.n,
                                                          ::cuda::std::equal_to<>{}, a.stream));
  } else if (a.op == "reduce-by-key") {
    SCANKIT_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(a.temp, a.temp_bytes, a.keys, a.unique_keys, in, out, a.num_runs,
                                                      ::cuda::std::plus<>{}, a.n, a.stream));
  } else {
    throw error("no CUB segments baseline for " + a.op);
  }
}

}  // namespace scankit::tools

#define SCANKIT_TOOLS_SEGMENTS_BASELINES(T) \
  template void scankit::tools::cub_segments<T>(scankit::tools::cub_segments_args&);
