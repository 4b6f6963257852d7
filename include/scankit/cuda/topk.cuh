// The CUDA top-k's entry points (instantiated by the library in src/cuda/topk_<key>.cu): the
// argument and workspace checks, then the call into detail.
//
// Layering: topk_device() (checks) -> detail/topk/plan.hpp (which path; tuning.hpp holds its
// data) -> detail/topk/launch.cuh (workspace and launches) -> kernels.cuh (the grid-wide radix
// select of one array) and block_select.cuh (one block per segment).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/error.cuh"
#include "scankit/cuda/detail/math.hpp"
#include "scankit/cuda/detail/topk/launch.cuh"
#include "scankit/cuda/scan.hpp"  // workspace, device_count
#include "scankit/cuda/topk.hpp"

namespace scankit::cuda::detail {

/// The workspace a call of this shape needs (the one rule for the device and host entries).
inline std::size_t topk_shape_workspace_bytes(topk_shape shape, std::int64_t n, std::int64_t segments,
                                              std::int64_t rows, std::int64_t cols, std::int64_t k,
                                              std::size_t key_bytes, const topk_config& cfg) {
  switch (shape) {
    case topk_shape::rows: return topk_rows_workspace_bytes(rows, cols, k, key_bytes, cfg);
    case topk_shape::segments: return segmented_topk_workspace_bytes(n, segments, k, key_bytes, cfg);
    case topk_shape::array: break;
  }
  return topk_workspace_bytes(n, k, key_bytes, cfg);
}

template <class K>
void topk_device(const topk_request& r) {
  static_assert(is_sort_key_v<K>, "scankit::cuda top-k keys are 8..64-bit integers, float and double");
  constexpr const char* where = "scankit::cuda::topk";
  namespace tk = detail::topk;
  scankit::detail::check_size(r.n, where);
  const bool segmented = r.shape != topk_shape::array, rows = r.shape == topk_shape::rows;
  const std::int64_t count = rows ? r.rows : r.seg.count;
  if (r.seg.count < 0) throw invalid_argument(std::string(where) + ": the number of segments must be >= 0");
  // Segments: k is checked against the shortest on the host only (a device precondition).
  const std::int64_t max_k = rows ? r.cols : segmented && count == 0 ? INT64_MAX : r.n;
  if (r.k < 0 || r.k > max_k)
    throw invalid_argument(std::string(where) + ": k = " + std::to_string(r.k) + " is not in [0, " +
                           std::to_string(max_k) + "]");
  const std::int64_t outputs = segmented ? count * r.k : r.k;
  scankit::detail::check_pointer(r.in, r.n, "input", where);
  scankit::detail::check_pointer(r.values, outputs, "values", where);
  scankit::detail::check_pointer(r.indices, outputs, "indices", where);
  if (r.seg.count > 0 && (r.seg.begin == nullptr || r.seg.end == nullptr))
    throw invalid_argument(std::string(where) + ": null segment bounds");
  if (reinterpret_cast<std::uintptr_t>(r.in) % sizeof(K) || reinterpret_cast<std::uintptr_t>(r.values) % sizeof(K) ||
      reinterpret_cast<std::uintptr_t>(r.indices) % 8)
    throw invalid_argument(std::string(where) + ": pointers must be aligned to their element size");
  const std::size_t need =
      topk_shape_workspace_bytes(r.shape, r.n, count, r.rows, r.cols, r.k, sizeof(K), r.config);
  if (r.workspace_bytes < need)
    throw invalid_argument(std::string(where) + ": workspace of " + std::to_string(r.workspace_bytes) +
                           " bytes is too small; this call needs " + std::to_string(need));
  check_workspace_pointer(r.workspace, need, where);
  if (r.k == 0 || outputs == 0) return;
  const device_info& d = current_device_info();
  const std::int64_t cols = rows ? r.cols : r.n;  // the longest row or segment the plan may assume
  const tk::plan p = tk::make_plan(r.n, r.k, sizeof(K), cols, segmented, r.config, d, rows);
  const K* in = static_cast<const K*>(r.in);
  K* values = static_cast<K*>(r.values);
  const bool row_path = p.path == topk_path::warp || p.path == topk_path::block;
  if (!segmented && !row_path) {
    arena a(r.workspace, r.workspace_bytes);
    const auto w = tk::carve_array(a, p, r.k, sort_workspace_bytes(r.k, 8, 8));
    tk::run_array(in, r.n, r.k, r.options.largest, values, r.indices, p, w, r.stream);
  } else if (!segmented || (rows && row_path)) {  // rows, and one array taken as one row
    tk::run_rows(in, segmented ? count : 1, cols, r.k, r.options.largest, values, r.indices, p, r.workspace,
                 r.workspace_bytes, d, r.stream);
  } else if (p.path == topk_path::warp) {
    // Bounds: no segment is longer than n, which the plan checked against the warp's reach.
    const tk::segments_of seg{r.seg.begin, r.seg.end, cols};
    tk::run_warp(in, nullptr, seg, count, cols, r.k, r.options.largest, values, r.indices, d, r.stream);
  } else if (p.path == topk_path::block) {
    const tk::segments_of seg{r.seg.begin, r.seg.end, cols};
    tk::run_block(in, nullptr, seg, 0, count, -1, r.k, r.options.largest, values, r.indices, d, r.stream);
  } else {  // the sort path, of segments or rows
    const tk::segments_of seg{rows ? nullptr : r.seg.begin, rows ? nullptr : r.seg.end, cols};
    arena a(r.workspace, r.workspace_bytes);
    tk::run_sorted(in, seg, count, r.n, r.k, r.options.largest, values, r.indices, a, d, r.stream);
  }
}

template <class K>
void topk_host(const K* in, std::int64_t n, topk_shape shape, const segment_bounds& host_seg, std::int64_t rows,
               std::int64_t cols, std::int64_t k, K* values, std::int64_t* indices, const topk_options& opts,
               const topk_config& cfg) {
  constexpr const char* where = "scankit::cuda::topk (host)";
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(in, n, "input", where);
  if (device_count() == 0) throw no_device_error(std::string(where) + ": no CUDA device");
  const bool segmented = shape != topk_shape::array;
  const std::int64_t count = shape == topk_shape::rows ? rows : host_seg.count;
  const std::int64_t outputs = segmented ? count * k : k;
  if (k == 0 || outputs == 0) return;
  const std::size_t ws = topk_shape_workspace_bytes(shape, n, count, rows, cols, k, sizeof(K), cfg);
  const std::size_t in_b = align_up(static_cast<std::size_t>(n) * sizeof(K));
  const std::size_t seg_b = align_up(static_cast<std::size_t>(host_seg.count) * 8);
  const std::size_t val_b = align_up(static_cast<std::size_t>(outputs) * sizeof(K));
  const std::size_t idx_b = align_up(static_cast<std::size_t>(outputs) * 8);
  workspace mem(in_b + 2 * seg_b + val_b + idx_b + ws);
  char* base = static_cast<char*>(mem.data());
  K* d_in = reinterpret_cast<K*>(base);
  std::int64_t* d_begin = reinterpret_cast<std::int64_t*>(base + in_b);
  std::int64_t* d_end = reinterpret_cast<std::int64_t*>(base + in_b + seg_b);
  K* d_val = reinterpret_cast<K*>(base + in_b + 2 * seg_b);
  std::int64_t* d_idx = reinterpret_cast<std::int64_t*>(base + in_b + 2 * seg_b + val_b);
  void* d_ws = base + in_b + 2 * seg_b + val_b + idx_b;
  cudaStream_t s = nullptr;
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d_in, in, static_cast<std::size_t>(n) * sizeof(K), cudaMemcpyHostToDevice, s));
  topk_request r;
  r.in = d_in, r.n = n, r.k = k, r.values = d_val, r.indices = d_idx, r.workspace = d_ws, r.workspace_bytes = ws;
  r.stream = s, r.options = opts, r.config = cfg;
  r.shape = shape;
  if (shape == topk_shape::rows) {
    r.rows = rows, r.cols = cols;
  } else if (shape == topk_shape::segments) {
    SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d_begin, host_seg.begin, static_cast<std::size_t>(host_seg.count) * 8,
                                       cudaMemcpyHostToDevice, s));
    SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d_end, host_seg.end, static_cast<std::size_t>(host_seg.count) * 8,
                                       cudaMemcpyHostToDevice, s));
    r.seg = segment_bounds(d_begin, d_end, host_seg.count);
  }
  topk_device<K>(r);
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(values, d_val, static_cast<std::size_t>(outputs) * sizeof(K),
                                     cudaMemcpyDeviceToHost, s));
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(indices, d_idx, static_cast<std::size_t>(outputs) * 8, cudaMemcpyDeviceToHost, s));
  SCANKIT_CUDA_CHECK(cudaStreamSynchronize(s));
}

}  // namespace scankit::cuda::detail

/// Explicit instantiation of the top-k of key type K (device pointers and host containers).
#define SCANKIT_INSTANTIATE_TOPK(K)                                                                          \
  template void scankit::cuda::detail::topk_device<K>(const scankit::cuda::detail::topk_request&);           \
  template void scankit::cuda::detail::topk_host<K>(const K*, std::int64_t, scankit::cuda::detail::topk_shape,  \
                                                    const scankit::segment_bounds&,                          \
                                                    std::int64_t, std::int64_t, std::int64_t, K*,           \
                                                    std::int64_t*, const scankit::cuda::topk_options&,      \
                                                    const scankit::cuda::topk_config&);
