// hillis-steele-global: the naive O(n log n) Hillis-Steele scan in global memory.
//
// Step d (d = 0, 1, ..., ceil(log2 n) - 1) is one launch:
//     x_out[i] = op(x_in[i - 2^d], x_in[i])   for i >= 2^d,   x_out[i] = x_in[i] otherwise.
// Each launch reads one buffer and writes another (ping-pong), so no launch ever reads an item
// that it also writes: the in-place single-buffer version often shown in blogs races between
// blocks; this one cannot.
//
// Buffers: the steps alternate between `out` and one workspace buffer W of n items, assigned
// backwards from the last pass so that the last pass lands in `out`. In place (in == out) with
// an odd number of passes, a copy pass in -> W goes first so the first step does not
// overwrite its own input.
//
// Carry-in: folded into item 0 as the first pass reads it (op(init, x0)).
// Exclusive: the steps produce the inclusive scan (in W), then a final shift pass writes
//     out[0] = init, out[i] = inclusive[i - 1].
// Carry-out: the thread that writes the last item of the last pass also writes *d_total.
#pragma once

#include <vector>

#include "scankit/cuda/detail/common.cuh"

namespace scankit::cuda::detail::hillis_steele_global {

/// An element-wise launch: 256 threads keep enough loads in flight and occupancy full.
inline constexpr int default_block_size = 256;

/// One buffer of n items (the ping-pong partner of `out`).
inline std::size_t workspace_bytes(std::int64_t n, std::size_t item_bytes, int /*block_size*/) {
  return n > 0 ? align_up(static_cast<std::size_t>(n) * item_bytes) : 0;
}

/// src[j], with the carry-in folded into item 0 when `fold` is set (first pass only).
template <class T, class Op>
__device__ __forceinline__ T hsg_load(const T* src, std::int64_t j, bool fold, const T& init,
                                      const Op& op) {
  const T v = src[j];
  return (fold && j == 0) ? op(init, v) : v;
}

/// One Hillis-Steele step with distance `offset` (offset 0: a plain copy, used to fold init
/// when there are no steps or to move the input out of the way when scanning in place).
template <class T, class Op>
__global__ void hsg_step_kernel(const T* __restrict__ src, T* __restrict__ dst, std::int64_t n,
                                std::int64_t offset, Op op, bool fold, T init, T* total) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    T v = hsg_load(src, i, fold, init, op);
    if (offset > 0 && i >= offset) v = op(hsg_load(src, i - offset, fold, init, op), v);
    dst[i] = v;
    if (total != nullptr && i == n - 1) *total = v;
  }
}

/// Exclusive from inclusive: dst[0] = init, dst[i] = src[i - 1]; the carry-out is src[n - 1].
template <class T, class Op>
__global__ void hsg_shift_kernel(const T* __restrict__ src, T* __restrict__ dst, std::int64_t n,
                                 Op op, bool fold, T init, T* total) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    dst[i] = i == 0 ? init : hsg_load(src, i - 1, fold, init, op);
    if (total != nullptr && i == n - 1) *total = hsg_load(src, n - 1, fold, init, op);
  }
}

template <class T, class Op>
void run(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total,
         arena& ws, int block_size, cudaStream_t s) {
  if (n == 0) {
    if (d_total) store_value(d_total, init, s);
    return;
  }
  // The passes, in order: offset >= 1 is a step, 0 a copy, -1 the exclusive shift.
  constexpr std::int64_t copy = 0, shift = -1;
  std::vector<std::int64_t> passes;
  for (std::int64_t d = 1; d < n; d <<= 1) passes.push_back(d);
  if (kind == scan_kind::exclusive) passes.push_back(shift);
  if (passes.empty()) passes.push_back(copy);  // n == 1, inclusive: out[0] = op(init, in[0])
  if (in == out && passes.size() % 2 == 1) passes.insert(passes.begin(), copy);

  T* w = ws.take<T>(n);
  const std::size_t p = passes.size();
  const unsigned grid = grid_for(ceil_div(n, block_size));
  const T* src = in;
  for (std::size_t k = 1; k <= p; ++k) {
    // Pass k writes `out` when p - k is even (so pass p does), W otherwise.
    T* dst = (p - k) % 2 == 0 ? out : w;
    const bool fold = k == 1;
    T* total = k == p ? d_total : nullptr;
    const std::int64_t pass = passes[k - 1];
    if (pass == shift) {
      hsg_shift_kernel<<<grid, block_size, 0, s>>>(src, dst, n, op, fold, init, total);
      SCANKIT_LAUNCH_CHECK("hsg_shift_kernel");
    } else {
      hsg_step_kernel<<<grid, block_size, 0, s>>>(src, dst, n, pass, op, fold, init, total);
      SCANKIT_LAUNCH_CHECK("hsg_step_kernel");
    }
    src = dst;
  }
}

}  // namespace scankit::cuda::detail::hillis_steele_global
