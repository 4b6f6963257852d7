// CUDA backend: the scans along an axis (axis_scan.hpp), with their kernels, for .cu files.
// Including this header instantiates whatever you call, for any stateless monoid.
#pragma once

#include <string>

#include "scankit/cuda/axis_scan.hpp"
#include "scankit/cuda/detail/axis_scan/launch.cuh"
#include "scankit/error.hpp"

namespace scankit::cuda {

namespace detail::axis_scan {

/// Throws invalid_argument for a negative shape or one of more than max_elements items
/// (checked without overflowing); returns the item count.
inline std::int64_t checked_size(std::int64_t outer, std::int64_t len, std::int64_t inner) {
  if (outer < 0 || len < 0 || inner < 0)
    throw invalid_argument("scankit::cuda::axis_scan: negative shape [" + std::to_string(outer) +
                           "][" + std::to_string(len) + "][" + std::to_string(inner) + "]");
  if (outer == 0 || len == 0 || inner == 0) return 0;
  constexpr std::int64_t most = scankit::detail::max_elements;
  if (len > most / outer || inner > most / (outer * len))
    throw invalid_argument("scankit::cuda::axis_scan: shape [" + std::to_string(outer) + "][" +
                           std::to_string(len) + "][" + std::to_string(inner) +
                           "] has more than 2^62 items");
  return outer * len * inner;
}

}  // namespace detail::axis_scan

template <class Op>
void axis_scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t outer, std::int64_t len,
               std::int64_t inner, Op op, scan_kind kind, value_t<Op> init,
               const axis_scan_plan& plan, void* d_workspace, cudaStream_t stream) {
  using T = value_t<Op>;
  // The row kernel stages 2 x 264 items per warp in static shared memory.
  static_assert(sizeof(T) <= 8, "scankit::cuda::axis_scan: items of at most 8 bytes");
  namespace as = detail::axis_scan;
  const std::int64_t n = as::checked_size(outer, len, inner);
  scankit::detail::check_pointer(d_in, n, "d_in", "scankit::cuda::axis_scan");
  scankit::detail::check_pointer(d_out, n, "d_out", "scankit::cuda::axis_scan");
  if ((n == 0) != (plan.items == 0))
    throw invalid_argument("scankit::cuda::axis_scan: the plan was made for another shape");
  scankit::detail::check_pointer(d_workspace, plan.workspace_bytes, "d_workspace",
                                 "scankit::cuda::axis_scan");
  if (n == 0) return;
  (void)op;
  as::run<Op>(d_in, d_out, as::lines_of(plan, outer, len, inner), static_cast<T*>(d_workspace),
              init, kind == scan_kind::exclusive, plan.wide, stream);
}

template <class Op>
void axis_scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t outer, std::int64_t len,
               std::int64_t inner, Op op, scan_kind kind, value_t<Op> init, void* d_workspace,
               std::size_t workspace_bytes, cudaStream_t stream) {
  detail::axis_scan::checked_size(outer, len, inner);
  const axis_scan_plan plan = plan_axis_scan(outer, len, inner, sizeof(value_t<Op>));
  if (workspace_bytes < static_cast<std::size_t>(plan.workspace_bytes))
    throw invalid_argument("scankit::cuda::axis_scan: workspace of " + std::to_string(workspace_bytes) +
                           " bytes, " + std::to_string(plan.workspace_bytes) + " needed");
  axis_scan(d_in, d_out, outer, len, inner, op, kind, init, plan, d_workspace, stream);
}

}  // namespace scankit::cuda

/// Instantiates both axis scans for one monoid type.
#define SCANKIT_INSTANTIATE_AXIS_SCAN(...)                                                    \
  template void scankit::cuda::axis_scan<__VA_ARGS__>(                                        \
      const scankit::value_t<__VA_ARGS__>*, scankit::value_t<__VA_ARGS__>*, std::int64_t,     \
      std::int64_t, std::int64_t, __VA_ARGS__, scankit::scan_kind,                            \
      scankit::value_t<__VA_ARGS__>, const scankit::cuda::axis_scan_plan&, void*,             \
      cudaStream_t);                                                                          \
  template void scankit::cuda::axis_scan<__VA_ARGS__>(                                        \
      const scankit::value_t<__VA_ARGS__>*, scankit::value_t<__VA_ARGS__>*, std::int64_t,     \
      std::int64_t, std::int64_t, __VA_ARGS__, scankit::scan_kind,                            \
      scankit::value_t<__VA_ARGS__>, void*, std::size_t, cudaStream_t);
