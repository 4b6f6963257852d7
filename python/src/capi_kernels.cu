// The C ABI's CUDA calls by SK_* code: the library's scans along an axis (axis_scan.hpp), and
// the binding's own kernels: the float16/bfloat16 key maps of the sorts, the widening of sort
// positions, and the fill of fixed-size compaction results.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "capi_internal.hpp"
#include "capi_kernels.hpp"
#include "half_keys.hpp"
#include "scankit/cuda/axis_scan.hpp"

namespace scankit::capi::kernels {
namespace {

void check_launch(const char* what) {
  check_cuda(cudaGetLastError(), what);
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

int current_sm_count() {
  int dev = 0;
  check_cuda(cudaGetDevice(&dev), "cudaGetDevice");
  return sm_count(dev);
}

// ---- small kernels -------------------------------------------------------------------------

__global__ void half_keys_kernel(const std::uint16_t* in, std::uint16_t* out, std::int64_t n,
                                 int mant, bool to) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    out[i] = to ? half_to_ordered(in[i], mant) : half_from_ordered(in[i], mant);
}

/// Four positions a thread per step: one 16-byte load and two 16-byte stores, so that a warp's
/// accesses are whole contiguous segments (both arrays 16-byte aligned: the workspace and the
/// caller's fresh output are); the last n % 4 one at a time.
__global__ void widen_kernel(const std::uint32_t* in, std::int64_t* out, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t quads = n / 4;
  const auto* in4 = reinterpret_cast<const uint4*>(in);
  auto* out2 = reinterpret_cast<longlong2*>(out);
  for (std::int64_t q = first; q < quads; q += stride) {
    const uint4 v = in4[q];
    out2[2 * q] = make_longlong2(v.x, v.y);
    out2[2 * q + 1] = make_longlong2(v.z, v.w);
  }
  for (std::int64_t i = 4 * quads + first; i < n; i += stride) out[i] = in[i];
}

/// The same one position a thread per step, for an output that is not 16-byte aligned.
__global__ void widen_scalar_kernel(const std::uint32_t* in, std::int64_t* out, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    out[i] = in[i];
}

template <class V>
__global__ void fill_kernel(V* out, const std::int64_t* count, std::int64_t size, V value) {
  const std::int64_t c = *count;
  const std::int64_t start = c < 0 ? 0 : c > size ? size : c;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = start + static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < size; i += stride)
    out[i] = value;
}

}  // namespace

void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw scankit::cuda_error(static_cast<int>(e), std::string(what) + ": " + cudaGetErrorString(e));
  }
}

int sm_count(int device) {
  static std::mutex mu;
  static std::map<int, int> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache.find(device); it != cache.end()) return it->second;
  int sms = 0;
  check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
             "cudaDeviceGetAttribute");
  cache.emplace(device, sms);
  return sms;
}

batched_plan batched_scan_plan(std::int64_t outer, std::int64_t len, std::int64_t inner,
                               int item_bytes, int sm_count) {
  scankit::cuda::detail::device_info device;
  device.sm_count = sm_count;
  return scankit::cuda::plan_axis_scan(outer, len, inner, static_cast<std::size_t>(item_bytes), device);
}

void batched_scan(int dtype, int op, bool exclusive, const void* init, const void* in, void* out,
                  std::int64_t outer, std::int64_t len, std::int64_t inner,
                  const batched_plan& plan, void* workspace, cudaStream_t stream) {
  if (plan.items == 0) return;
  const auto kind = exclusive ? scankit::scan_kind::exclusive : scankit::scan_kind::inclusive;
  visit_types<scan_types>(dtype, "scan", [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_op<T>(op, [&](auto m) {
      const T first = init ? *static_cast<const T*>(init) : m.identity();
      scankit::cuda::axis_scan(static_cast<const T*>(in), static_cast<T*>(out), outer, len, inner,
                               m, kind, first, plan, workspace, stream);
    });
  });
}

void half_keys(const std::uint16_t* in, std::uint16_t* out, std::int64_t n, int mantissa_bits,
               bool to_ordered, cudaStream_t stream) {
  if (n == 0) return;
  const int grid = static_cast<int>(
      std::min<std::int64_t>(ceil_div(n, 256 * 4), std::int64_t{current_sm_count()} * 8));
  half_keys_kernel<<<grid, 256, 0, stream>>>(in, out, n, mantissa_bits, to_ordered);
  check_launch("float16 key map");
}

void widen_indices(const std::uint32_t* in, std::int64_t* out, std::int64_t n, cudaStream_t stream) {
  if (n == 0) return;
  const int grid = static_cast<int>(
      std::min<std::int64_t>(ceil_div(n, 256 * 4), std::int64_t{current_sm_count()} * 8));
  if (reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0)
    widen_kernel<<<grid, 256, 0, stream>>>(in, out, n);
  else
    widen_scalar_kernel<<<grid, 256, 0, stream>>>(in, out, n);
  check_launch("index widening");
}

__global__ void row_segments_kernel(std::int64_t* offsets, std::int64_t* positions, std::int64_t rows,
                                    std::int64_t cols) {
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  const std::int64_t first = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  for (std::int64_t r = first; r <= rows; r += stride) offsets[r] = r * cols;
  if (positions)
    for (std::int64_t i = first; i < rows * cols; i += stride) positions[i] = i % cols;
}

void row_segments(std::int64_t* offsets, std::int64_t* positions, std::int64_t rows, std::int64_t cols,
                  cudaStream_t stream) {
  const std::int64_t items = std::max(rows + 1, positions ? rows * cols : 0);
  const int grid = static_cast<int>(
      std::min<std::int64_t>(ceil_div(items, 256 * 4), std::int64_t{current_sm_count()} * 8));
  row_segments_kernel<<<std::max(grid, 1), 256, 0, stream>>>(offsets, positions, rows, cols);
  check_launch("row segments");
}

void fill_tail(int item_bytes, void* out, const std::int64_t* d_count, std::int64_t size,
               const void* fill, cudaStream_t stream) {
  if (size == 0) return;
  const int grid = static_cast<int>(
      std::min<std::int64_t>(ceil_div(size, 256 * 4), std::int64_t{current_sm_count()} * 8));
  visit_bytes(item_bytes, sizes_cpu, [&](auto tag) {
    using V = typename decltype(tag)::type;
    V value;
    std::memcpy(&value, fill, sizeof(V));
    fill_kernel<V><<<grid, 256, 0, stream>>>(static_cast<V*>(out), d_count, size, value);
  });
  check_launch("fill");
}

}  // namespace scankit::capi::kernels

