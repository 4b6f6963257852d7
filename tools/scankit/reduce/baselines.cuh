// Definitions of the CUB reduce baselines (see reduce/baselines.hpp).
#pragma once

#include <cub/device/device_reduce.cuh>

#include "common/baselines.cuh"
#include "reduce/baselines.hpp"

namespace scankit::tools {

template <class T>
void cub_reduce(cub_reduce_args& a) {
  const auto* in = static_cast<const T*>(a.in);
  auto* out = static_cast<T*>(a.out);
  if (a.op == "sum") {
    SCANKIT_CUDA_CHECK(cub::DeviceReduce::Sum(a.temp, a.temp_bytes, in, out, a.n, a.stream));
  } else if (a.op == "min") {
    SCANKIT_CUDA_CHECK(cub::DeviceReduce::Min(a.temp, a.temp_bytes, in, out, a.n, a.stream));
  } else if (a.op == "max") {
    SCANKIT_CUDA_CHECK(cub::DeviceReduce::Max(a.temp, a.temp_bytes, in, out, a.n, a.stream));
  } else if (a.op == "argmin") {
    SCANKIT_CUDA_CHECK(cub::DeviceReduce::ArgMin(a.temp, a.temp_bytes, in, out, a.index, a.n, a.stream));
  } else if (a.op == "argmax") {
    SCANKIT_CUDA_CHECK(cub::DeviceReduce::ArgMax(a.temp, a.temp_bytes, in, out, a.index, a.n, a.stream));
  } else {
    throw error("no CUB reduce baseline for " + a.op);
  }
}

}  // namespace scankit::tools

#define SCANKIT_TOOLS_REDUCE_BASELINES(T) template void scankit::tools::cub_reduce<T>(scankit::tools::cub_reduce_args&);
