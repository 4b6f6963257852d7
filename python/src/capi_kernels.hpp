// The C ABI's CUDA calls that need the CUDA compiler (capi_kernels.cu, capi_histogram.cu),
// behind plain host functions that take SK_* codes, so that capi_cuda.cpp needs none: the
// library's axis scans and NumPy-binned histograms by code, and the binding's own small kernels.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "scankit/cuda/detail/axis_scan/plan.hpp"

namespace scankit::capi::kernels {

/// Throws scankit::cuda_error for a failed CUDA call (clearing the error it leaves behind).
void check_cuda(cudaError_t e, const char* what);

/// SMs of a device, looked up once per device: calls on small arrays should not pay a driver
/// query each.
int sm_count(int device);

/// How a batched scan over [outer][len][inner] is cut: the library's axis scan plan
/// (scankit/cuda/detail/axis_scan/plan.hpp).
using batched_plan = scankit::cuda::axis_scan_plan;

/// scankit::cuda::plan_axis_scan for a device of `sm_count` SMs.
batched_plan batched_scan_plan(std::int64_t outer, std::int64_t len, std::int64_t inner,
                               int item_bytes, int sm_count);

/// scankit::cuda::axis_scan with `plan` (every SK dtype of scans and every operator; init: one
/// item, host memory, or null for the operator's identity).
void batched_scan(int dtype, int op, bool exclusive, const void* init, const void* in, void* out,
                  std::int64_t outer, std::int64_t len, std::int64_t inner,
                  const batched_plan& plan, void* workspace, cudaStream_t stream);

/// float16/bfloat16 bits to ordered uint16 bits (to_ordered) or back, from `in` to `out` (may
/// be the same array).
void half_keys(const std::uint16_t* in, std::uint16_t* out, std::int64_t n, int mantissa_bits,
               bool to_ordered, cudaStream_t stream);

/// out[i] = in[i] for i < n: 32-bit sort positions to the int64 indices the caller receives.
void widen_indices(const std::uint32_t* in, std::int64_t* out, std::int64_t n, cudaStream_t stream);

/// offsets[r] = r * cols for r <= rows (the rows as CSR segments), and positions[i] = i % cols
/// for i < rows * cols where positions is not null.
void row_segments(std::int64_t* offsets, std::int64_t* positions, std::int64_t rows, std::int64_t cols,
                  cudaStream_t stream);

/// out[min(*d_count, size), size) = fill; item_bytes 1, 2, 4, 8 or 16.
void fill_tail(int item_bytes, void* out, const std::int64_t* d_count, std::int64_t size,
               const void* fill, cudaStream_t stream);

/// numpy.histogram's even bins (scankit/histogram_numpy.hpp) with the library's counting kernels; counts
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
