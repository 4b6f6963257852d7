// CUDA backend: scans along one axis of an N-D array, many lines at once.
//
// The array is seen as [outer][len][inner] (row-major, contiguous): outer * inner lines of len
// items each, line (a, c) holding items (a * len + r) * inner + c for r = 0 .. len-1. Every
// line is scanned independently, with the same operator and carry-in. One launch (or three, for
// few long lines) serves all lines, where a scan per line would pay a launch each.
//
// This header compiles with any C++20 compiler: it declares the scans, and the library
// instantiates them for the built-in element types and operators (those of scankit::cuda::scan).
// For your own monoid, include "scankit/cuda/axis_scan.cuh" from a .cu file instead.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "scankit/cuda/detail/axis_scan/plan.hpp"
#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/ops.hpp"

namespace scankit::cuda {

/// The plan for the current device (plan_axis_scan of plan.hpp with its description).
inline axis_scan_plan plan_axis_scan(std::int64_t outer, std::int64_t len, std::int64_t inner,
                                     std::size_t item_bytes) {
  return plan_axis_scan(outer, len, inner, item_bytes, detail::current_device_info());
}

/// Bytes of device workspace an axis scan of this shape needs on the current device (0 for
/// many short lines).
inline std::size_t axis_scan_workspace_bytes(std::int64_t outer, std::int64_t len,
                                             std::int64_t inner, std::size_t item_bytes) {
  return static_cast<std::size_t>(plan_axis_scan(outer, len, inner, item_bytes).workspace_bytes);
}

/// Device-pointer scan along the middle axis of [outer][len][inner], stream-ordered, no
/// allocation, no synchronisation. Op is a stateless monoid of items of at most 8 bytes: the
/// kernels use Op{}, not `op`.
///   d_in, d_out: outer * len * inner items in device memory, naturally aligned; d_out == d_in
///                (in place) is allowed, partly overlapping arrays are not.
///   init:        carry-in of every line, combined before its first item; an exclusive scan
///                writes it at the line's first position.
///   d_workspace: at least axis_scan_workspace_bytes(...) bytes of device memory (may be null
///                where that is 0), aligned to 16 bytes.
/// Arguments are checked before anything is launched: negative shapes, a size that overflows,
/// null pointers and too small a workspace throw invalid_argument.
template <class Op>
void axis_scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t outer, std::int64_t len,
               std::int64_t inner, Op op, scan_kind kind, value_t<Op> init, void* d_workspace,
               std::size_t workspace_bytes, cudaStream_t stream);

/// The same with a plan the caller made (plan_axis_scan for this shape, sizeof(value_t<Op>) and
/// the current device; its workspace_bytes at d_workspace): the call then makes no plan of its
/// own. For callers that sized the workspace from the plan already.
template <class Op>
void axis_scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t outer, std::int64_t len,
               std::int64_t inner, Op op, scan_kind kind, value_t<Op> init,
               const axis_scan_plan& plan, void* d_workspace, cudaStream_t stream);

}  // namespace scankit::cuda
