// CUDA segmented sorts: every segment of an array sorted on its own, by the order of the flat
// sorts (scankit/sort_traits.hpp: ascending or descending, a bit range, floats in IEEE total
// order), stably, the same result as scankit::cpu's segmented sorts bit for bit. Segments come
// as CSR offsets or begin/end bounds (scankit/segments.hpp); keys between segments keep their
// place.
//
// This header compiles with any C++20 compiler; the library instantiates the sorts for every
// key type of the radix sorts, with values of 4, 8 or 16 bytes (moved as opaque bytes).
//
//   std::size_t bytes = cuda::segmented_sort_workspace_bytes(n, n_segments, sizeof(K), sizeof(V));
//   cuda::segmented_sort_pairs(d_keys, d_keys_out, d_vals, d_vals_out, n, seg, d_ws, bytes, stream);
//
// Device-pointer calls are stream-ordered: no allocation, no synchronisation and no copy to the
// host inside a call (they can be captured in a CUDA graph); the workspace depends only on n,
// the number of segments and the types, and is aligned as cudaMalloc's pointers are. The algorithm (docs/ALGORITHMS.md, "GPU segmented sort"): every piece (a
// segment of at most 2,048 keys, or a 2,048-key slice of a longer one) sorted in shared memory
// by one launch whatever the lengths, then merge rounds within the longer segments; or, forced,
// a stable radix sort of every key's rank with its position, one of the positions by segment,
// and a scatter.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "scankit/concepts.hpp"
#include "scankit/error.hpp"
#include "scankit/segments.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::cuda {

/// How a segmented sort runs: automatic lets the plan choose; merge sorts pieces in shared
/// memory and merges the slices of long segments; two_sort sorts all keys by rank and then by
/// segment (two flat radix sorts and a scatter).
enum class segmented_sort_path { automatic, merge, two_sort };

constexpr std::string_view name(segmented_sort_path p) {
  return p == segmented_sort_path::two_sort ? "two-sort"
         : p == segmented_sort_path::merge  ? "merge"
         : p == segmented_sort_path::automatic ? "auto"
                                               : "?";
}

struct segmented_sort_config {
  segmented_sort_path path = segmented_sort_path::automatic;
  /// The merge path: segments of at least this many keys (and fewer than 2^30) sort by radix
  /// passes instead of merge rounds, where the keys are 2 bytes or more, the values 0, 4 or 8
  /// bytes and the bit range an even number of 8-bit digits, and keys and values are both in
  /// place or both not. 0: the tuned length (by key size); negative: never. The workspace grows as this falls (per such segment, about 3 KiB per digit).
  std::int64_t radix_from = 0;
};

/// Bytes of device workspace a segmented sort of n keys of `key_bytes` (values of
/// `value_bytes`, 0 for keys alone) in `segments` segments needs.
std::size_t segmented_sort_workspace_bytes(std::int64_t n, std::int64_t segments, std::size_t key_bytes,
                                           std::size_t value_bytes = 0, const segmented_sort_config& cfg = {});

namespace detail {
struct segmented_sort_request {
  const void* keys_in = nullptr;
  void* keys_out = nullptr;
  const void* values_in = nullptr;
  void* values_out = nullptr;
  std::size_t value_bytes = 0;
  std::int64_t n = 0;
  segment_bounds seg{};
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
  cudaStream_t stream = nullptr;
  sort_options options{};
  segmented_sort_config config{};
};
template <class K>
void segmented_sort_device(const segmented_sort_request& r);
template <class K>
void segmented_sort_host(K* keys, void* values, std::size_t value_bytes, std::int64_t n, const segment_bounds& seg,
                         const sort_options& opts, const segmented_sort_config& cfg);
}  // namespace detail

/// Sorts each segment of d_keys_in into d_keys_out (in place allowed). Preconditions (not
/// checked here: that would cost a pass and a copy to the host): the segments are valid for n
/// (scankit::cuda::check_segments checks them). Workspace:
/// segmented_sort_workspace_bytes(n, seg.count, sizeof(K), 0, cfg) bytes, 16-byte aligned (as
/// cudaMalloc's pointers are; checked).
template <class K>
void segmented_sort_keys(const K* d_keys_in, K* d_keys_out, std::int64_t n, const segment_bounds& seg,
                         void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
                         const sort_options& opts = {}, const segmented_sort_config& cfg = {}) {
  detail::segmented_sort_request r;
  r.keys_in = d_keys_in, r.keys_out = d_keys_out, r.n = n, r.seg = seg, r.workspace = d_workspace;
  r.workspace_bytes = workspace_bytes, r.stream = stream, r.options = opts, r.config = cfg;
  detail::segmented_sort_device<K>(r);
}

/// Sorts each segment's pairs by key, stably; values (4, 8 or 16 bytes) move with their keys.
template <class K, class V>
void segmented_sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out, std::int64_t n,
                          const segment_bounds& seg, void* d_workspace, std::size_t workspace_bytes,
                          cudaStream_t stream, const sort_options& opts = {}, const segmented_sort_config& cfg = {}) {
  static_assert(std::is_trivially_copyable_v<V> && (sizeof(V) == 4 || sizeof(V) == 8 || sizeof(V) == 16),
                "the CUDA segmented sort moves values of 4, 8 or 16 bytes");
  detail::segmented_sort_request r;
  r.keys_in = d_keys_in, r.keys_out = d_keys_out, r.values_in = d_values_in, r.values_out = d_values_out;
  r.value_bytes = sizeof(V), r.n = n, r.seg = seg, r.workspace = d_workspace, r.workspace_bytes = workspace_bytes;
  r.stream = stream, r.options = opts, r.config = cfg;
  detail::segmented_sort_device<K>(r);
}

/// Host containers: sorts each segment (host bounds, checked) in place; synchronises.
template <sort_key K>
void segmented_sort_keys(std::span<K> keys, const segment_bounds& seg, const sort_options& opts = {},
                         const segmented_sort_config& cfg = {}) {
  detail::segmented_sort_host<K>(keys.data(), nullptr, 0, static_cast<std::int64_t>(keys.size()), seg, opts, cfg);
}

template <sort_key K, class V>
void segmented_sort_pairs(std::span<K> keys, std::span<V> values, const segment_bounds& seg,
                          const sort_options& opts = {}, const segmented_sort_config& cfg = {}) {
  static_assert(std::is_trivially_copyable_v<V> && (sizeof(V) == 4 || sizeof(V) == 8 || sizeof(V) == 16),
                "the CUDA segmented sort moves values of 4, 8 or 16 bytes");
  if (values.size() != keys.size())
    throw invalid_argument("scankit::cuda::segmented_sort_pairs: " + std::to_string(keys.size()) + " keys but " +
                           std::to_string(values.size()) + " values");
  detail::segmented_sort_host<K>(keys.data(), values.data(), sizeof(V), static_cast<std::int64_t>(keys.size()), seg,
                                 opts, cfg);
}

}  // namespace scankit::cuda
