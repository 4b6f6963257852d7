// The C ABI's own CUDA kernels (capi_kernels.cu, capi_histogram.cu), behind plain host
// functions that take SK_* codes, so that capi_cuda.cpp needs no CUDA compiler.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace scankit::capi::kernels {

/// Throws scankit::cuda_error for a failed CUDA call (clearing the error it leaves behind).
void check_cuda(cudaError_t e, const char* what);

/// SMs of a device, looked up once per device: calls on small arrays should not pay a driver
/// query each.
int sm_count(int device);

/// How a batched scan over [outer][len][inner] is cut (batched_scan_plan). Each warp takes one
/// work item at a time:
///   narrow (inner < 32): a contiguous run of elements: either `planes` whole planes (len *
///       inner elements each, short lines), or `rows` rows of one plane (long lines); for
///       inner > 1 32 elements per step, the lanes of one column combined by shuffles, for
///       inner == 1 (lines along the last axis) 256 per step, eight consecutive ones per lane,
///       and so for inner 2 and 4 with each row of the columns as one element (aligned arrays);
///   wide (inner >= 32): 32 columns of `rows` rows, one column per lane.
/// When a plane's lines are cut into several chunks (chunks > 1), the scan takes three
/// launches: the chunks' totals, their exclusive scan per line, and the scan proper from those
/// carry-ins (one more read of the input); the workspace holds outer * chunks * inner items.
struct batched_plan {
  bool wide = false;
  std::int64_t planes = 0;  // > 0: narrow work items of whole planes
  std::int64_t rows = 0;    // rows per chunk
  std::int64_t chunks = 1;  // chunks per plane (line)
  std::int64_t groups = 1;  // wide: column groups of 32
  std::int64_t items = 0;   // work items
  std::int64_t workspace_bytes = 0;
};

batched_plan batched_scan_plan(std::int64_t outer, std::int64_t len, std::int64_t inner,
                               int item_bytes, int sm_count);

/// The batched scan (every SK dtype of scans and every operator; init: one item, host memory).
void batched_scan(int dtype, int op, bool exclusive, const void* init, const void* in, void* out,
                  std::int64_t outer, std::int64_t len, std::int64_t inner,
                  const batched_plan& plan, void* workspace, cudaStream_t stream);

/// float16/bfloat16 bits to ordered uint16 bits (to_ordered) or back, from `in` to `out` (may
/// be the same array).
void half_keys(const std::uint16_t* in, std::uint16_t* out, std::int64_t n, int mantissa_bits,
               bool to_ordered, cudaStream_t stream);

/// out[i] = in[i] for i < n: 32-bit sort positions to the int64 indices the caller receives.
void widen_indices(const std::uint32_t* in, std::int64_t* out, std::int64_t n, cudaStream_t stream);

/// out[min(*d_count, size), size) = fill; item_bytes 1, 2, 4, 8 or 16.
void fill_tail(int item_bytes, void* out, const std::int64_t* d_count, std::int64_t size,
               const void* fill, cudaStream_t stream);

/// numpy.histogram's even bins (numpy_bins.hpp) with the library's counting kernels; counts
/// zeroed first. algorithm: a scankit::cuda::histogram_algorithm as int.
void numpy_histogram(int dtype, const void* samples, std::int64_t n, std::uint64_t* counts,
                     std::int64_t bins, double lower, double upper, int mode, int algorithm,
                     cudaStream_t stream);

/// scankit::cuda::bincount_capped into counts (capacity + 5 of them: the summary in the last
/// three), then the summary copied to the host one (three int64); synchronises with the stream.
void bincount_capped(int dtype, const void* samples, std::int64_t n, std::uint64_t* counts,
                     std::int64_t capacity, int algorithm, cudaStream_t stream,
                     std::int64_t* summary);

}  // namespace scankit::capi::kernels
