// The CUDA scans' definitions. Include from a .cu file to scan with your own monoid:
//
//   #include "scankit/cuda/scan.cuh"
//   scankit::cuda::scan(d_in, d_out, n, my_monoid{}, scankit::scan_kind::inclusive, ...);
//
// Layering: scan() (entry: checks arguments) -> dispatch by algorithm -> the algorithm's host
// driver (detail/<algorithm>.cuh; decoupled-lookback: detail/scan/launch.cuh) -> its kernels ->
// block and warp primitives (detail/block/, detail/warp/).
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "scankit/cuda/detail/scan/blelloch.cuh"
#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/scan/launch.cuh"
#include "scankit/cuda/detail/scan/hillis_steele_global.cuh"
#include "scankit/cuda/detail/scan/hillis_steele_shared.cuh"
#include "scankit/cuda/detail/scan/reduce_then_scan.cuh"
#include "scankit/cuda/detail/scan/work_efficient_global.cuh"
#include "scankit/cuda/scan.hpp"

namespace scankit::cuda {

namespace detail {
/// Block size the algorithm runs with: the caller's, checked, or the algorithm's default.
int resolve_block_size(const scan_config& cfg);
}  // namespace detail

template <class Op>
void scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t n, Op op, scan_kind kind,
          value_t<Op> init, void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
          const scan_config& cfg, value_t<Op>* d_total) {
  using T = value_t<Op>;
  static_assert(std::is_trivially_copyable_v<T>, "scan items must be trivially copyable");
  scankit::detail::check_size(n, "scankit::cuda::scan");
  scankit::detail::check_pointer(d_in, n, "input", "scankit::cuda::scan");
  scankit::detail::check_pointer(d_out, n, "output", "scankit::cuda::scan");
  const std::size_t need = scan_workspace_bytes(n, sizeof(T), cfg);
  if (workspace_bytes < need)
    throw invalid_argument("scankit::cuda::scan: workspace of " + std::to_string(workspace_bytes) +
                           " bytes is too small; " + std::string(name(cfg.algorithm)) + " needs " +
                           std::to_string(need) + " for n = " + std::to_string(n));
  detail::check_workspace_pointer(d_workspace, need, "scankit::cuda::scan");
  const int block = detail::resolve_block_size(cfg);
  detail::arena ws(d_workspace, workspace_bytes);
  switch (cfg.algorithm) {
    case scan_algorithm::hillis_steele_global:
      return detail::hillis_steele_global::run(d_in, d_out, n, op, kind, init, d_total, ws, block, stream);
    case scan_algorithm::hillis_steele_shared:
      return detail::hillis_steele_shared::run(d_in, d_out, n, op, kind, init, d_total, ws, block, stream);
    case scan_algorithm::blelloch:
      return detail::blelloch::run<false>(d_in, d_out, n, op, kind, init, d_total, ws, block, stream);
    case scan_algorithm::blelloch_conflict_free:
      return detail::blelloch::run<true>(d_in, d_out, n, op, kind, init, d_total, ws, block, stream);
    case scan_algorithm::work_efficient_global:
      return detail::work_efficient_global::run(d_in, d_out, n, op, kind, init, d_total, ws, block, stream);
    case scan_algorithm::reduce_then_scan:
      return detail::reduce_then_scan::run(d_in, d_out, n, op, kind, init, d_total, ws, block, stream);
    case scan_algorithm::decoupled_lookback:
      return detail::decoupled_lookback::run(d_in, d_out, n, op, kind, init, d_total, ws, block, cfg, stream);
  }
  throw invalid_argument("scankit::cuda::scan: unknown algorithm");
}

}  // namespace scankit::cuda

#include "scankit/cuda/detail/scan/host.cuh"

/// Instantiates the device-pointer and host-container scans for one monoid type.
#define SCANKIT_INSTANTIATE_SCAN(...)                                                         \
  template void scankit::cuda::scan<__VA_ARGS__>(                                             \
      const scankit::value_t<__VA_ARGS__>*, scankit::value_t<__VA_ARGS__>*, std::int64_t,     \
      __VA_ARGS__, scankit::scan_kind, scankit::value_t<__VA_ARGS__>, void*, std::size_t,     \
      cudaStream_t, const scankit::cuda::scan_config&, scankit::value_t<__VA_ARGS__>*);       \
  template scankit::value_t<__VA_ARGS__> scankit::cuda::scan_host<__VA_ARGS__>(               \
      const scankit::value_t<__VA_ARGS__>*, scankit::value_t<__VA_ARGS__>*, std::int64_t,     \
      __VA_ARGS__, scankit::scan_kind, scankit::value_t<__VA_ARGS__>,                         \
      const scankit::cuda::host_scan_options&);
