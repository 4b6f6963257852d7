// The scans scankit is compared with: CUB's DeviceScan and Thrust's scans, on device
// pointers. CUB and Thrust come from the CUDA toolkit (CCCL); they are baselines only, never
// part of scankit. Instantiated by nvcc for every built-in monoid in files generated from
// baselines.cu.in, one per element type (tools/CMakeLists.txt); callable from plain C++. CUDA
// builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "common/baselines.hpp"
#include "scankit/ops.hpp"

namespace scankit::tools {

/// Bytes of temporary storage cub_scan needs for n items.
template <class Op>
std::size_t cub_scan_temp_bytes(std::int64_t n, scan_kind kind);

/// CUB scan starting from op.identity(): DeviceScan::InclusiveSum/ExclusiveSum for sum,
/// InclusiveScan/ExclusiveScan with the operator as functor otherwise. Stream-ordered.
template <class Op>
void cub_scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t n, scan_kind kind,
              void* d_temp, std::size_t temp_bytes, cudaStream_t stream);

/// thrust::inclusive_scan / thrust::exclusive_scan (from op.identity()) on device pointers
/// with thrust::cuda::par(scratch).on(stream): default plus for sum, the functor otherwise.
template <class Op>
void thrust_scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t n, scan_kind kind,
                 thrust_scratch& scratch, cudaStream_t stream);

}  // namespace scankit::tools
