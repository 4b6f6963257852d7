// The scan along an axis: which kernels run for a plan (plan.hpp) and their launches. A plan
// with chunks > 1 takes three launches (chunk totals, their carry-ins, the scan); otherwise one.
// The kernel follows from the plan and the pointers: wide, the row kernel (inner 1, or 2 and 4
// on aligned arrays), or narrow (whole planes or chunks of rows).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "scankit/cuda/detail/axis_scan/kernels.cuh"
#include "scankit/cuda/detail/axis_scan/plan.hpp"
#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/device_info.hpp"

namespace scankit::cuda::detail::axis_scan {

/// Blocks for `warps` warps of work: no more than the device holds at once (the kernels loop
/// over their work items).
inline int grid_for(std::int64_t warps, int sm_count) {
  const std::int64_t blocks = (std::max<std::int64_t>(warps, 1) + block_warps - 1) / block_warps;
  return static_cast<int>(
      std::min<std::int64_t>(blocks, std::int64_t{sm_count} * (threads_per_sm / block_threads)));
}

/// The plan's fields a kernel reads.
inline lines lines_of(const axis_scan_plan& plan, std::int64_t outer, std::int64_t len, std::int64_t inner) {
  return lines{outer, len, inner, plan.planes, plan.rows, plan.chunks, plan.groups, plan.items};
}

/// The row kernel's element for lines of `inner` interleaved columns: 1 (inner == 1), 2 or 4
/// columns where every array is aligned to such a row (4 only for items of up to 4 bytes: a
/// warp's slice of shared memory holds 264 elements), else 0 (the narrow kernel).
template <class T>
int row_columns(std::int64_t inner, const void* in, const void* out, const void* ws) {
  const auto aligned = [&](std::size_t bytes) {
    return (reinterpret_cast<std::uintptr_t>(in) | reinterpret_cast<std::uintptr_t>(out) |
            reinterpret_cast<std::uintptr_t>(ws)) % bytes == 0;
  };
  if (inner == 1) return 1;
  if (inner == 2 && aligned(2 * sizeof(T))) return 2;
  if (inner == 4 && sizeof(T) <= 4 && aligned(4 * sizeof(T))) return 4;
  return 0;
}

/// The row kernel over elements of `columns` interleaved columns (row_columns).
template <class Op, bool Totals>
void run_rows(int columns, const typename Op::value_type* in, typename Op::value_type* out, const lines& p,
              typename Op::value_type* ws, typename Op::value_type init, bool exclusive, int grid, cudaStream_t s) {
  using T = typename Op::value_type;
  const auto as = [&]<int C>(std::integral_constant<int, C>) {
    using E = cols<T, C>;
    E first;
    for (int i = 0; i < C; ++i) first.v[i] = init;
    row_kernel<cols_op<Op, C>, Totals><<<grid, block_threads, 0, s>>>(
        reinterpret_cast<const E*>(in), reinterpret_cast<E*>(out), p, reinterpret_cast<E*>(ws), first, exclusive);
  };
  if (columns == 1) {
    row_kernel<Op, Totals><<<grid, block_threads, 0, s>>>(in, out, p, ws, init, exclusive);
  } else if (columns == 2) {
    as(std::integral_constant<int, 2>{});
  } else if constexpr (sizeof(T) <= 4) {
    as(std::integral_constant<int, 4>{});
  }
}

/// The scan of the plan whose fields are p (p.items > 0), stream-ordered: in may equal out;
/// ws holds the plan's workspace (used only where p.chunks > 1).
template <class Op>
void run(const typename Op::value_type* in, typename Op::value_type* out, const lines& p,
         typename Op::value_type* ws, typename Op::value_type init, bool exclusive, bool wide,
         cudaStream_t s) {
  using T = typename Op::value_type;
  const int sms = current_device_info().sm_count;
  const int grid = grid_for(p.items, sms);
  const int by_row = wide ? 0 : row_columns<T>(p.inner, in, out, ws);
  if (p.chunks > 1) {
    if (wide)
      wide_kernel<Op, true><<<grid, block_threads, 0, s>>>(in, out, p, ws, init, exclusive);
    else if (by_row)
      run_rows<Op, true>(by_row, in, out, p, ws, init, exclusive, grid, s);
    else
      narrow_kernel<Op, true, false>
          <<<grid, block_threads, 0, s>>>(in, out, p, ws, init, exclusive);
    SCANKIT_LAUNCH_CHECK("scan along an axis (chunk totals)");
    const std::int64_t lines_total = p.outer * p.inner;
    if (p.chunks > carry_block_from_chunks && lines_total < std::int64_t{sms} * carry_block_lines_per_sm) {
      carry_block_kernel<Op><<<static_cast<int>(lines_total), carry_block_threads, 0, s>>>(p, ws, init);
    } else {
      carry_kernel<Op><<<grid_for(lines_total, sms), block_threads, 0, s>>>(p, ws, init);
    }
    SCANKIT_LAUNCH_CHECK("scan along an axis (carry-ins)");
  }
  if (wide)
    wide_kernel<Op, false><<<grid, block_threads, 0, s>>>(in, out, p, ws, init, exclusive);
  else if (by_row)
    run_rows<Op, false>(by_row, in, out, p, ws, init, exclusive, grid, s);
  else if (p.planes > 0)
    narrow_kernel<Op, false, true><<<grid, block_threads, 0, s>>>(in, out, p, ws, init, exclusive);
  else
    narrow_kernel<Op, false, false><<<grid, block_threads, 0, s>>>(in, out, p, ws, init, exclusive);
  SCANKIT_LAUNCH_CHECK("scan along an axis");
}

}  // namespace scankit::cuda::detail::axis_scan
