// work-efficient-global: Blelloch's up-sweep / down-sweep in global memory, one launch per
// tree level, over the whole array at once (no tiles).
//
// 1. Copy the input into a workspace buffer of m = 2^ceil(log2 n) items, padded with
//    op.identity().
// 2. Up-sweep: for stride = 2, 4, ..., m, one launch with m / stride threads; thread t owns
//    node t of the level:  c = t * stride + stride - 1,  a = c - stride / 2,
//        buf[c] = op(buf[a], buf[c]).
// 3. The root buf[m - 1] now holds the total: it is saved (op(init, total) -> *d_total) and
//    replaced by init, so the down-sweep folds the carry-in into every prefix.
// 4. Down-sweep: for stride = m, ..., 2, one launch with m / stride threads:
//        left = buf[a];  buf[a] = buf[c];  buf[c] = op(buf[c], left).
//    buf[i] is then op(init, x0, ..., x(i-1)), the exclusive scan.
// 5. Final pass: out[i] = buf[i] (exclusive) or op(buf[i], in[i]) (inclusive; in place is fine
//    as each thread reads in[i] before writing out[i]).
//
// Every level launches exactly as many threads as it has nodes (a power of two: blocks of
// min(block_size, nodes) threads), so no thread is idle and no warp diverges on a bounds test.
// Levels with more than 2^30 blocks' worth of nodes loop (each thread takes an equal share).
#pragma once

#include "scankit/cuda/detail/scan/blelloch.cuh"

namespace scankit::cuda::detail::work_efficient_global {

/// Element-wise and tree-level launches: 256 threads is a good fit for both.
inline constexpr int default_block_size = 256;

inline std::int64_t padded_size(std::int64_t n) {
  std::int64_t m = 1;
  while (m < n) m <<= 1;
  return m;
}

/// The padded copy: 2^ceil(log2 n) items.
inline std::size_t workspace_bytes(std::int64_t n, std::size_t item_bytes, int /*block_size*/) {
  return n > 0 ? align_up(static_cast<std::size_t>(padded_size(n)) * item_bytes) : 0;
}

template <class T, class Op>
__global__ void weg_copy_pad_kernel(const T* __restrict__ in, T* __restrict__ buf, std::int64_t n,
                                    std::int64_t m, Op op) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < m;
       i += stride)
    buf[i] = i < n ? in[i] : op.identity();
}

template <class T, class Op>
__global__ void weg_up_sweep_kernel(T* buf, std::int64_t nodes, std::int64_t stride, Op op) {
  const std::int64_t threads = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       t < nodes; t += threads) {
    const std::int64_t c = t * stride + stride - 1, a = c - stride / 2;
    blelloch::combine_up(buf[a], buf[c], op);
  }
}

template <class T, class Op>
__global__ void weg_down_sweep_kernel(T* buf, std::int64_t nodes, std::int64_t stride, Op op) {
  const std::int64_t threads = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       t < nodes; t += threads) {
    const std::int64_t c = t * stride + stride - 1, a = c - stride / 2;
    blelloch::pass_prefix_down(buf[a], buf[c], op);
  }
}

/// Saves the root (the total) and clears it to the carry-in.
template <class T, class Op>
__global__ void weg_root_kernel(T* root, Op op, T init, T* total) {
  if (total != nullptr) *total = op(init, *root);
  *root = init;
}

template <class T, class Op>
__global__ void weg_final_kernel(const T* in, T* out, const T* __restrict__ buf, std::int64_t n,
                                 Op op, bool exclusive) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    out[i] = exclusive ? buf[i] : op(buf[i], in[i]);
}

template <class T, class Op>
void run(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total,
         arena& ws, int block_size, cudaStream_t s) {
  if (n == 0) {
    if (d_total) store_value(d_total, init, s);
    return;
  }
  const std::int64_t m = padded_size(n);
  T* buf = ws.take<T>(m);
  weg_copy_pad_kernel<<<grid_for(ceil_div(m, block_size)), block_size, 0, s>>>(in, buf, n, m, op);
  SCANKIT_LAUNCH_CHECK("weg_copy_pad_kernel");

  // A level of `nodes` threads (a power of two): blocks of min(block_size, nodes), and at most
  // 2^30 blocks (a power of two too, so every thread loops the same number of times).
  auto level_shape = [&](std::int64_t nodes, unsigned& grid, unsigned& block) {
    const std::int64_t b = nodes < block_size ? nodes : block_size;
    const std::int64_t blocks = nodes / b;
    block = static_cast<unsigned>(b);
    grid = static_cast<unsigned>(blocks < (std::int64_t{1} << 30) ? blocks : std::int64_t{1} << 30);
  };
  for (std::int64_t stride = 2; stride <= m; stride <<= 1) {
    const std::int64_t nodes = m / stride;
    unsigned grid = 0, block = 0;
    level_shape(nodes, grid, block);
    weg_up_sweep_kernel<<<grid, block, 0, s>>>(buf, nodes, stride, op);
    SCANKIT_LAUNCH_CHECK("weg_up_sweep_kernel");
  }
  weg_root_kernel<<<1, 1, 0, s>>>(buf + (m - 1), op, init, d_total);
  SCANKIT_LAUNCH_CHECK("weg_root_kernel");
  for (std::int64_t stride = m; stride >= 2; stride >>= 1) {
    const std::int64_t nodes = m / stride;
    unsigned grid = 0, block = 0;
    level_shape(nodes, grid, block);
    weg_down_sweep_kernel<<<grid, block, 0, s>>>(buf, nodes, stride, op);
    SCANKIT_LAUNCH_CHECK("weg_down_sweep_kernel");
  }
  weg_final_kernel<<<grid_for(ceil_div(n, block_size)), block_size, 0, s>>>(
      in, out, buf, n, op, kind == scan_kind::exclusive);
  SCANKIT_LAUNCH_CHECK("weg_final_kernel");
}

}  // namespace scankit::cuda::detail::work_efficient_global
