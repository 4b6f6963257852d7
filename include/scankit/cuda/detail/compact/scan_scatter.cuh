// scan-scatter: the textbook compaction in three launches.
//   1. map:     pos[i] = 1 if item i is selected, else 0
//   2. scan:    exclusive scan of pos in place with one of the foundation's scans; its
//               carry-out is the count
//   3. scatter: every selected item i goes to out[pos[i]] (a partition's rejected item i,
//               the (i - pos[i])-th rejected one, to the end)
// Positions are 32-bit while n < 2^32 (half the traffic of 64-bit ones) and 64-bit beyond.
// The scatter reads the input a second time and re-evaluates the selector.
#pragma once

#include <type_traits>

#include "scankit/cuda/detail/compact/select.cuh"
#include "scankit/cuda/scan.hpp"

namespace scankit::cuda::detail::compact::scan_scatter {

inline constexpr int block_default = 256;

template <class Sel, class P>
__global__ void map_kernel(const typename Sel::item_type* in, std::int64_t n, Sel sel, P* pos) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    pos[i] = select_at(in, i, sel) ? P(1) : P(0);
}

template <class Sel, class P>
__global__ void scatter_kernel(const typename Sel::item_type* in, std::int64_t n, Sel sel, const P* pos,
                               const P* total_ptr, outputs<typename Sel::item_type> out) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t total = static_cast<std::int64_t>(*total_ptr);
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    const std::int64_t k = static_cast<std::int64_t>(pos[i]);
    std::int64_t dst;
    if (select_at(in, i, sel)) dst = k;
    else if (out.mode == layout::partition_reversed) dst = n - 1 - (i - k);
    else if (out.mode == layout::partition_original) dst = total + (i - k);
    else continue;
    if constexpr (Sel::reads_items) {
      if (out.items) out.items[dst] = in[i];
    }
    if (out.indices) out.indices[dst] = i;
  }
}

template <class P>
__global__ void widen_count_kernel(const P* total, std::int64_t* count) {
  *count = static_cast<std::int64_t>(*total);
}

/// Positions are 32-bit below this many items.
inline constexpr std::int64_t narrow_limit = std::int64_t{1} << 32;

inline std::size_t workspace_bytes(std::int64_t n, const scan_config& scan) {
  const std::size_t p = n < narrow_limit ? 4 : 8;
  return align_up(static_cast<std::size_t>(n) * p) + align_up(p) + align_up(scan_workspace_bytes(n, p, scan));
}

template <class P, class Sel>
void run_with(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
              const outputs<typename Sel::item_type>& out, arena& ws, std::size_t scan_ws_bytes,
              const scan_config& scan_cfg, cudaStream_t s) {
  P* pos = ws.take<P>(n);
  P* total = ws.take<P>(1);
  void* scan_ws = scan_ws_bytes ? ws.take<unsigned char>(static_cast<std::int64_t>(scan_ws_bytes)) : nullptr;
  const unsigned grid = grid_for(ceil_div(n, block_default), 65536);
  map_kernel<<<grid, block_default, 0, s>>>(in, n, sel, pos);
  SCANKIT_LAUNCH_CHECK("scan_scatter::map_kernel");
  scankit::cuda::scan(pos, pos, n, sum<P>{}, scan_kind::exclusive, P(0), scan_ws, scan_ws_bytes, s,
                      scan_cfg, total);
  scatter_kernel<<<grid, block_default, 0, s>>>(in, n, sel, pos, total, out);
  SCANKIT_LAUNCH_CHECK("scan_scatter::scatter_kernel");
  if (out.count) {
    widen_count_kernel<<<1, 1, 0, s>>>(total, out.count);
    SCANKIT_LAUNCH_CHECK("scan_scatter::widen_count_kernel");
  }
}

template <class Sel>
void run(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
         const outputs<typename Sel::item_type>& out, arena& ws, const scan_config& scan_cfg,
         cudaStream_t s) {
  if (n < narrow_limit)
    run_with<std::uint32_t>(in, n, sel, out, ws, scan_workspace_bytes(n, 4, scan_cfg), scan_cfg, s);
  else
    run_with<std::int64_t>(in, n, sel, out, ws, scan_workspace_bytes(n, 8, scan_cfg), scan_cfg, s);
}

}  // namespace scankit::cuda::detail::compact::scan_scatter
