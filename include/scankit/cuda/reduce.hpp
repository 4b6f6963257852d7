// CUDA backend: reductions of device memory (device-pointer API) and of host containers:
// reduce over any monoid, argmin, argmax and min_max.
//
// This header compiles with any C++20 compiler (no nvcc needed): it declares the reductions, and
// the library instantiates them for the built-in element types and operators. To reduce with
// your own monoid, include "scankit/cuda/reduce.cuh" from a .cu file instead.
//
// Results are the same bits on every run on a given device: the input is cut into the same
// contiguous runs each time and their results are combined in order. A monoid that does not
// declare itself commutative (see is_commutative_v) is combined in sequence order, so
// non-commutative operators are reduced correctly.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "scankit/cuda/scan.hpp"  // workspace
#include "scankit/error.hpp"
#include "scankit/ops.hpp"
#include "scankit/reduce_ops.hpp"

namespace scankit::cuda {

/// How the partial results of the blocks are combined. `automatic` picks by size.
enum class reduce_path {
  automatic,
  /// One block reads everything and writes the result: no second launch.
  one_block,
  /// Many blocks write partial results, one more launch of one block combines them in order.
  two_pass,
  /// Many blocks write partial results; the block that finishes last (by an atomic ticket,
  /// cleared before the launch) combines them in order: one launch of the reduction.
  last_block,
};

/// What a caller may choose of a reduction; the defaults are the tuned choices.
struct reduce_config {
  reduce_path path = reduce_path::automatic;
};

/// Bytes of device workspace a reduction whose result takes `result_bytes` bytes needs on the
/// current device (the same for every n). 0 is never returned.
std::size_t reduce_workspace_bytes(std::size_t result_bytes);

/// Copies `bytes` from device memory to the host once `stream` reaches this point (waits).
void copy_result_to_host(void* host, const void* device, std::size_t bytes, cudaStream_t stream);

/// Device-pointer reduction, stream-ordered, no allocation, no synchronisation: writes
/// op(f(x0, 0), f(x1, 1), ..., f(xn-1, n-1)) to *d_out (op.identity() for n == 0).
///   d_in:        n items of T in device memory (any alignment of T).
///   d_out:       one value_t<Op> in device memory.
///   d_workspace: at least reduce_workspace_bytes(sizeof(value_t<Op>)) bytes of device memory,
///                aligned as cudaMalloc's pointers are (16 bytes at least; checked).
/// Arguments are checked before anything is launched; a failure throws and writes nothing.
template <class T, class F, class Op>
void transform_reduce(const T* d_in, std::int64_t n, F f, Op op, value_t<Op>* d_out, void* d_workspace,
                      std::size_t workspace_bytes, cudaStream_t stream, const reduce_config& cfg = {});

/// op(x0, ..., xn-1) into *d_out, as transform_reduce.
template <class Op>
void reduce(const value_t<Op>* d_in, std::int64_t n, Op op, value_t<Op>* d_out, void* d_workspace,
            std::size_t workspace_bytes, cudaStream_t stream, const reduce_config& cfg = {}) {
  transform_reduce(d_in, n, as_value{}, op, d_out, d_workspace, workspace_bytes, stream, cfg);
}

/// The smallest item and its first position into *d_out (a NaN wins, as numpy.argmin).
/// n must be at least 1.
template <class T>
void argmin(const T* d_in, std::int64_t n, indexed<T>* d_out, void* d_workspace, std::size_t workspace_bytes,
            cudaStream_t stream, const reduce_config& cfg = {}) {
  if (n == 0) throw invalid_argument("scankit::cuda::argmin: an empty array has no minimum");
  transform_reduce(d_in, n, as_indexed{}, argmin_op<T>{}, d_out, d_workspace, workspace_bytes, stream, cfg);
}

/// The largest item and its first position into *d_out (a NaN wins, as numpy.argmax).
/// n must be at least 1.
template <class T>
void argmax(const T* d_in, std::int64_t n, indexed<T>* d_out, void* d_workspace, std::size_t workspace_bytes,
            cudaStream_t stream, const reduce_config& cfg = {}) {
  if (n == 0) throw invalid_argument("scankit::cuda::argmax: an empty array has no maximum");
  transform_reduce(d_in, n, as_indexed{}, argmax_op<T>{}, d_out, d_workspace, workspace_bytes, stream, cfg);
}

/// The smallest and the largest item into *d_out, in one pass (NaN if any item is NaN).
template <class T>
void min_max(const T* d_in, std::int64_t n, min_max_value<T>* d_out, void* d_workspace,
             std::size_t workspace_bytes, cudaStream_t stream, const reduce_config& cfg = {}) {
  transform_reduce(d_in, n, as_min_max{}, min_max_op<T>{}, d_out, d_workspace, workspace_bytes, stream, cfg);
}

/// Device-pointer reduction that returns the result on the host: grows `ws` as needed (the
/// result's slot included), then synchronises `stream`.
template <class T, class F, class Op>
value_t<Op> transform_reduce(const T* d_in, std::int64_t n, F f, Op op, workspace& ws, cudaStream_t stream,
                             const reduce_config& cfg = {}) {
  using R = value_t<Op>;
  const std::size_t partials = reduce_workspace_bytes(sizeof(R));
  ws.reserve(partials + sizeof(R));
  R* slot = reinterpret_cast<R*>(static_cast<char*>(ws.data()) + partials);
  transform_reduce(d_in, n, f, op, slot, ws.data(), partials, stream, cfg);
  R result;
  copy_result_to_host(&result, slot, sizeof(R), stream);
  return result;
}

/// Options of the host-container reductions.
struct host_reduce_options {
  reduce_config config{};
  /// Upper bound on device memory the call may use (0: no bound). Larger arrays go through the
  /// GPU in chunks; the chunk size, and so the order floats are combined in, follows from it.
  std::size_t device_memory_limit = 0;
};

/// Host-array reduction: copies `in` to the GPU in chunks, reduces each, and combines the
/// chunks' results in order. Synchronises. Throws no_device_error without a GPU.
template <class T, class F, class Op>
value_t<Op> transform_reduce_host(const T* in, std::int64_t n, F f, Op op, const host_reduce_options& opts = {});

template <class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
T reduce(std::span<const T> in, Op op = {}, const host_reduce_options& opts = {}) {
  return transform_reduce_host(in.data(), static_cast<std::int64_t>(in.size()), as_value{}, op, opts);
}

/// The first position of the smallest item (a NaN, where there is one). Throws for an empty span.
template <class T>
std::int64_t argmin(std::span<const T> in, const host_reduce_options& opts = {}) {
  if (in.empty()) throw invalid_argument("scankit::cuda::argmin: an empty array has no minimum");
  return transform_reduce_host(in.data(), static_cast<std::int64_t>(in.size()), as_indexed{}, argmin_op<T>{}, opts)
      .index;
}

/// The first position of the largest item (a NaN, where there is one). Throws for an empty span.
template <class T>
std::int64_t argmax(std::span<const T> in, const host_reduce_options& opts = {}) {
  if (in.empty()) throw invalid_argument("scankit::cuda::argmax: an empty array has no maximum");
  return transform_reduce_host(in.data(), static_cast<std::int64_t>(in.size()), as_indexed{}, argmax_op<T>{}, opts)
      .index;
}

/// The smallest and the largest item (the identities' extremes for an empty span).
template <class T>
min_max_value<T> min_max(std::span<const T> in, const host_reduce_options& opts = {}) {
  return transform_reduce_host(in.data(), static_cast<std::int64_t>(in.size()), as_min_max{}, min_max_op<T>{}, opts);
}

}  // namespace scankit::cuda
