// CUDA backend: segmented reductions and scans, and the by-key operations (the group-by of
// sorted data), for device memory (stream-ordered, with a workspace) and host containers.
//
//   segmented_reduce  one result per segment (CSR offsets or begin/end bounds)
//   segmented_scan    inclusive or exclusive, the carry reset at each segment (offsets or flags)
//   scan_by_key       the same with runs of equal keys as segments
//   reduce_by_key     each run's key and aggregate, and the number of runs
//
// Load balance: the items and the segment ends are merged (merge path) and cut into tiles of
// equal work, so the time depends on n and the number of segments, not on how the items are
// spread over them; a segment that spans tiles is carried through a deterministic look-back
// (docs/ALGORITHMS.md, "Segments"). Floats give the same bits on every run on a device.
//
// This header compiles with any C++20 compiler: the library instantiates these functions for
// the built-in element types (int32, uint32, int64, uint64, float, double) with sum,
// product, min and max, and keys of 4 and 8 bytes.
// Include "scankit/cuda/segments.cuh" from a .cu file for other monoids or types.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <cstring>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "scankit/cuda/scan.hpp"  // workspace
#include "scankit/error.hpp"
#include "scankit/ops.hpp"
#include "scankit/segments.hpp"

namespace scankit::cuda {

/// How a segmented reduction is computed (docs/ALGORITHMS.md, "Segments").
enum class segments_algorithm {
  automatic,
  /// Items and segment ends merged and cut into equal tiles; carries by look-back. The default
  /// of the scans and the by-key operations.
  merge_path,
  /// The same tiles, each reduced on its own; a second, one-block pass carries the segments
  /// that span tile edges, so no tile waits for another. segmented_reduce only; its default.
  two_pass,
  /// The classic scheme (as CUB's DeviceSegmentedReduce): one thread block per segment.
  /// segmented_reduce only.
  block_per_segment,
};

/// What a caller may choose of a segmented operation; the defaults are the tuned choices.
struct segments_config {
  segments_algorithm algorithm = segments_algorithm::automatic;
};

/// Bytes of device workspace a segmented operation over n items in `n_segments` segments (0
/// for flags and keys) with values of `value_bytes` bytes needs with `cfg`. Throws
/// invalid_argument for a negative n or n_segments or a bad config.
std::size_t segments_workspace_bytes(std::int64_t n, std::int64_t n_segments, std::size_t value_bytes,
                                     const segments_config& cfg = {});

/// Checks device-memory segments against n items as check_segments_host does (one kernel and
/// one copy of a flag to the host; synchronises `stream`). The device-pointer functions below
/// take valid segments as a precondition and do not check them (a check costs a pass);
/// invalid ones give unspecified results but never access memory out of bounds.
/// `covering`: the offsets must also run from 0 to n (the segmented scans). Throws
/// invalid_argument naming the first bad segment.
void check_segments(const segment_bounds& seg, std::int64_t n, cudaStream_t stream, bool covering = false);

/// Device-pointer segmented reduction, stream-ordered, no allocation, no synchronisation:
/// d_out[s] = op(x[begin[s]], ..., x[end[s] - 1]) for every segment, `empty_value` for an
/// empty one (pass op.identity() for the identity).
///   d_in:        n items in device memory.
///   seg:         segment bounds (or CSR offsets) in device memory, valid (see check_segments).
///   d_out:       seg.count values in device memory.
///   d_workspace: at least segments_workspace_bytes(n, seg.count, sizeof(value_t<Op>), cfg)
///                bytes, aligned as cudaMalloc's pointers are.
/// Arguments (sizes, pointers, workspace) are checked before anything is launched; a failure
/// throws and writes nothing.
template <class Op>
void segmented_reduce(const value_t<Op>* d_in, std::int64_t n, const segment_bounds& seg, Op op,
                      value_t<Op> empty_value, value_t<Op>* d_out, void* d_workspace, std::size_t workspace_bytes,
                      cudaStream_t stream, const segments_config& cfg = {});

/// Device-pointer segmented scan over CSR offsets that cover all n items (offsets[0] == 0,
/// offsets[count] == n). Inclusive: out[i] = op(init, x[head], ..., x[i]); exclusive:
/// out[i] = op(init, x[head], ..., x[i - 1]) (init at each segment's first item). d_out ==
/// d_in is allowed. Workspace: segments_workspace_bytes(n, seg.count, sizeof(value_t<Op>)).
template <class Op>
void segmented_scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t n, const segment_offsets& seg, Op op,
                    scan_kind kind, value_t<Op> init, void* d_workspace, std::size_t workspace_bytes,
                    cudaStream_t stream, const segments_config& cfg = {});

/// The same with segments starting at the items whose flag is non-zero (and at item 0).
/// Workspace: segments_workspace_bytes(n, 0, sizeof(value_t<Op>)).
template <class Op>
void segmented_scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t n, head_flags flags, Op op,
                    scan_kind kind, value_t<Op> init, void* d_workspace, std::size_t workspace_bytes,
                    cudaStream_t stream, const segments_config& cfg = {});

namespace detail::segments {
// The by-key operations compare keys by their bits, so they are compiled once per key width.
template <class Bits, class Op>
void scan_by_key(const Bits* d_keys, const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t n, Op op,
                 scan_kind kind, value_t<Op> init, void* d_workspace, std::size_t workspace_bytes,
                 cudaStream_t stream, const segments_config& cfg);
template <class Bits, class Op>
void reduce_by_key(const Bits* d_keys, const value_t<Op>* d_in, std::int64_t n, Op op, Bits* d_unique_keys,
                   value_t<Op>* d_aggregates, std::int64_t* d_num_runs, void* d_workspace,
                   std::size_t workspace_bytes, cudaStream_t stream, const segments_config& cfg);
}  // namespace detail::segments

/// The same with runs of equal keys (by their bits) as segments.
/// Workspace: segments_workspace_bytes(n, 0, sizeof(value_t<Op>)).
template <segment_key K, class Op>
void scan_by_key(const K* d_keys, const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t n, Op op,
                 scan_kind kind, value_t<Op> init, void* d_workspace, std::size_t workspace_bytes,
                 cudaStream_t stream, const segments_config& cfg = {}) {
  using B = scankit::detail::key_bits_t<sizeof(K)>;
  detail::segments::scan_by_key(reinterpret_cast<const B*>(d_keys), d_in, d_out, n, op, kind, init, d_workspace,
                                workspace_bytes, stream, cfg);
}

/// Device-pointer reduce_by_key: for each run of equal keys (by their bits), in order, its key
/// to d_unique_keys[r] and op over its values to d_aggregates[r]; the number of runs to
/// *d_num_runs (device memory). Both outputs must hold n items (the most runs there can be).
/// Workspace: segments_workspace_bytes(n, 0, sizeof(value_t<Op>)).
template <segment_key K, class Op>
void reduce_by_key(const K* d_keys, const value_t<Op>* d_in, std::int64_t n, Op op, K* d_unique_keys,
                   value_t<Op>* d_aggregates, std::int64_t* d_num_runs, void* d_workspace,
                   std::size_t workspace_bytes, cudaStream_t stream, const segments_config& cfg = {}) {
  using B = scankit::detail::key_bits_t<sizeof(K)>;
  detail::segments::reduce_by_key(reinterpret_cast<const B*>(d_keys), d_in, n, op,
                                  reinterpret_cast<B*>(d_unique_keys), d_aggregates, d_num_runs, d_workspace,
                                  workspace_bytes, stream, cfg);
}

// ---------------------------------------------------------------------------------------------
// Host containers: copy in, run on the current device, copy out; synchronise. The segments are
// checked on the host first (check_segments_host); a failure throws and writes nothing. Throw
// no_device_error without a GPU.

template <class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
std::vector<T> segmented_reduce(std::span<const T> in, std::span<const std::int64_t> offsets, Op op = {},
                                std::optional<std::type_identity_t<T>> empty_value = std::nullopt, const segments_config& cfg = {});

template <class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
void segmented_scan(std::span<const T> in, std::span<T> out, std::span<const std::int64_t> offsets, Op op = {},
                    scan_kind kind = scan_kind::inclusive, std::optional<std::type_identity_t<T>> init = std::nullopt,
                    const segments_config& cfg = {});

namespace detail::segments {
template <class Bits, class Op>
void scan_by_key_host(const Bits* keys, const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op,
                      scan_kind kind, value_t<Op> init, const segments_config& cfg);
template <class Bits, class Op>
std::pair<std::vector<Bits>, std::vector<value_t<Op>>> reduce_by_key_host(const Bits* keys, const value_t<Op>* in,
                                                                         std::int64_t n, Op op,
                                                                         const segments_config& cfg);
}  // namespace detail::segments

template <segment_key K, class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
void scan_by_key(std::span<const K> keys, std::span<const T> in, std::span<T> out, Op op = {},
                 scan_kind kind = scan_kind::inclusive, std::optional<std::type_identity_t<T>> init = std::nullopt,
                 const segments_config& cfg = {}) {
  if (keys.size() != in.size())
    throw invalid_argument("scankit::cuda::scan_by_key: keys and values differ in length");
  if (out.size() < in.size()) throw invalid_argument("scankit::cuda::scan_by_key: output shorter than input");
  using B = scankit::detail::key_bits_t<sizeof(K)>;
  detail::segments::scan_by_key_host(reinterpret_cast<const B*>(keys.data()), in.data(), out.data(),
                                     static_cast<std::int64_t>(in.size()), op, kind, init ? *init : op.identity(), cfg);
}

/// Returns (unique keys, aggregates), one entry per run.
template <segment_key K, class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
std::pair<std::vector<K>, std::vector<T>> reduce_by_key(std::span<const K> keys, std::span<const T> in, Op op = {},
                                                        const segments_config& cfg = {}) {
  if (keys.size() != in.size())
    throw invalid_argument("scankit::cuda::reduce_by_key: keys and values differ in length");
  using B = scankit::detail::key_bits_t<sizeof(K)>;
  auto [bits, aggregates] = detail::segments::reduce_by_key_host(
      reinterpret_cast<const B*>(keys.data()), in.data(), static_cast<std::int64_t>(in.size()), op, cfg);
  std::vector<K> unique(bits.size());
  if (!bits.empty()) std::memcpy(unique.data(), bits.data(), bits.size() * sizeof(K));
  return {std::move(unique), std::move(aggregates)};
}

}  // namespace scankit::cuda
