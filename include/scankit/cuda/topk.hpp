// CUDA top-k: the k largest (or smallest) keys of an array, of every row of a matrix, or of
// every segment, with their int64 positions, sorted: the k largest in descending order, ties
// broken by the smaller position, so the result is the same on every run and every GPU and
// equals scankit::cpu::topk's. The order is the sorts' (scankit/sort_traits.hpp): floats in
// IEEE total order, NaNs above +inf, -0 below +0.
//
// This header compiles with any C++20 compiler; the library instantiates the top-k for every
// key type of the radix sorts (uint8..64, int8..64, float, double).
//
//   std::size_t bytes = cuda::topk_workspace_bytes(n, k, sizeof(float));
//   cuda::topk(d_x, n, k, d_values, d_indices, d_ws, bytes, stream);
//
// Device-pointer calls are stream-ordered: no allocation, no synchronisation, no copy to the
// host inside a call (they can be captured in a CUDA graph).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scankit/concepts.hpp"
#include "scankit/error.hpp"
#include "scankit/segments.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::cuda {

/// Which end of the order a top-k keeps.
struct topk_options {
  bool largest = true;  // the k largest, in descending order; false: the k smallest, ascending
};

/// How a top-k runs (see docs/ALGORITHMS.md, "GPU top-k"). automatic lets plan_topk
/// choose; the others force one path, for tests and measurements:
///   sampled  one array: a strided sample gives a threshold that about a few thousand keys
///            beat; one read of the input keeps those as candidates, a radix select finds
///            the k among them (back to `radix` where the sample misjudged: too few or too
///            many candidates)
///   radix    one array: a radix select over the whole input, 11-bit digits of the ranks then
///            of the positions, the keys of the chosen digit moved to a candidate buffer once
///            they fit (about two reads)
///   block    segments and rows: one block per segment selects in shared memory (k up to
///            topk_block_max_k, else sort); automatic also runs one array that a block holds
///            in shared memory as one row
///   sort     segments and rows: a segmented sort of (rank, position), sliced at k
///   warp     segments and rows of at most 1,024 keys, k up to 32: one warp per segment holds
///            it in registers and takes the k best one by one (automatic picks it for rows
///            that fit, and for one array that fits; bounds in device memory only where n
///            itself fits)
/// A forced path that does not apply (sampled for segments, block above its k, warp above its
/// length or k) runs the
/// automatic choice; plan_topk reports what runs.
enum class topk_path { automatic, sampled, radix, block, sort, warp };

inline constexpr std::array all_topk_paths{topk_path::automatic, topk_path::sampled, topk_path::radix,
                                           topk_path::block, topk_path::sort, topk_path::warp};

constexpr std::string_view name(topk_path p) {
  switch (p) {
    case topk_path::automatic: return "auto";
    case topk_path::sampled: return "sampled";
    case topk_path::radix: return "radix";
    case topk_path::block: return "block";
    case topk_path::sort: return "sort";
    case topk_path::warp: return "warp";
  }
  return "?";
}

/// Whether rows (topk_rows, or one array as one row) longer than a block holds are split into
/// chunks, one block each, selected in levels: automatic splits them while they are too few to
/// fill the GPU (tuning's split_rows_per_sm); always and never force the choice (block path).
enum class topk_split { automatic, always, never };

inline constexpr std::array all_topk_splits{topk_split::automatic, topk_split::always, topk_split::never};

constexpr std::string_view name(topk_split s) {
  switch (s) {
    case topk_split::automatic: return "auto";
    case topk_split::always: return "always";
    case topk_split::never: return "never";
  }
  return "?";
}

struct topk_config {
  topk_path path = topk_path::automatic;
  topk_split split = topk_split::automatic;
};

/// The largest k the block path selects (its winners are sorted in shared memory).
inline constexpr std::int64_t topk_block_max_k = 1024;

/// The path a top-k of one array of n keys (segments == 0) or of `segments` segments takes.
topk_path plan_topk(std::int64_t n, std::int64_t k, std::size_t key_bytes, std::int64_t segments = 0,
                    const topk_config& cfg = {});

/// The path a top-k of each row of a rows x cols matrix takes (topk_rows).
topk_path plan_topk_rows(std::int64_t rows, std::int64_t cols, std::int64_t k, std::size_t key_bytes,
                         const topk_config& cfg = {});

/// Bytes of device workspace a top-k of one array of n keys of `key_bytes` needs.
std::size_t topk_workspace_bytes(std::int64_t n, std::int64_t k, std::size_t key_bytes, const topk_config& cfg = {});

/// Bytes of device workspace a top-k of `segments` segments (bounds) over n keys needs.
std::size_t segmented_topk_workspace_bytes(std::int64_t n, std::int64_t segments, std::int64_t k,
                                           std::size_t key_bytes, const topk_config& cfg = {});

/// Bytes of device workspace a top-k of each row of a rows x cols matrix needs on the current
/// device (rows longer than a block holds, too few to fill the GPU, keep their chunks' winners).
std::size_t topk_rows_workspace_bytes(std::int64_t rows, std::int64_t cols, std::int64_t k, std::size_t key_bytes,
                                      const topk_config& cfg = {});

namespace detail {
/// What a top-k selects from: one array, segments (bounds, none included), or rows x cols.
enum class topk_shape { array, segments, rows };

/// One top-k request, type-erased over nothing but the key type.
struct topk_request {
  const void* in = nullptr;
  std::int64_t n = 0;
  std::int64_t k = 0;
  topk_shape shape = topk_shape::array;
  segment_bounds seg{};             // segments: bounds in device memory
  std::int64_t rows = 0, cols = 0;  // rows
  void* values = nullptr;
  std::int64_t* indices = nullptr;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
  cudaStream_t stream = nullptr;
  topk_options options{};
  topk_config config{};
};
template <class K>
void topk_device(const topk_request& r);
}  // namespace detail

/// The k largest (or smallest) of d_in[0, n): d_values[0, k) sorted, d_indices[0, k) their
/// positions. 0 <= k <= n. Workspace: topk_workspace_bytes(n, k, sizeof(K), cfg).
template <class K>
void topk(const K* d_in, std::int64_t n, std::int64_t k, K* d_values, std::int64_t* d_indices, void* d_workspace,
          std::size_t workspace_bytes, cudaStream_t stream, const topk_options& opts = {}, const topk_config& cfg = {}) {
  detail::topk_request r;
  r.in = d_in, r.n = n, r.k = k, r.values = d_values, r.indices = d_indices, r.workspace = d_workspace;
  r.workspace_bytes = workspace_bytes, r.stream = stream, r.options = opts, r.config = cfg;
  detail::topk_device<K>(r);
}

/// The top-k of every segment (bounds or CSR offsets in device memory) into [s k, s k + k),
/// positions relative to the segment's begin. Preconditions (not checked here: that would cost
/// a pass and a copy to the host): the segments are valid for n (scankit::cuda::check_segments
/// checks them) and every segment holds at least k keys.
template <class K>
void segmented_topk(const K* d_in, std::int64_t n, const segment_bounds& seg, std::int64_t k, K* d_values,
                    std::int64_t* d_indices, void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
                    const topk_options& opts = {}, const topk_config& cfg = {}) {
  detail::topk_request r;
  r.in = d_in, r.n = n, r.k = k, r.shape = detail::topk_shape::segments, r.seg = seg, r.values = d_values;
  r.indices = d_indices;
  r.workspace = d_workspace, r.workspace_bytes = workspace_bytes, r.stream = stream, r.options = opts, r.config = cfg;
  detail::topk_device<K>(r);
}

/// The top-k of every row of a row-major rows x cols matrix (k <= cols) into rows x k arrays.
/// Workspace: topk_rows_workspace_bytes(rows, cols, k, sizeof(K), cfg).
template <class K>
void topk_rows(const K* d_in, std::int64_t rows, std::int64_t cols, std::int64_t k, K* d_values,
               std::int64_t* d_indices, void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
               const topk_options& opts = {}, const topk_config& cfg = {}) {
  if (rows < 0 || cols < 0) throw invalid_argument("scankit::cuda::topk_rows: rows and cols must be >= 0");
  if (cols > 0 && rows > INT64_MAX / cols) throw invalid_argument("scankit::cuda::topk_rows: rows * cols overflows");
  detail::topk_request r;
  r.in = d_in, r.n = rows * cols, r.k = k, r.shape = detail::topk_shape::rows, r.rows = rows, r.cols = cols;
  r.values = d_values;
  r.indices = d_indices;
  r.workspace = d_workspace, r.workspace_bytes = workspace_bytes, r.stream = stream, r.options = opts, r.config = cfg;
  detail::topk_device<K>(r);
}

namespace detail {
/// The host-container top-k: copies in, selects, copies out; synchronises.
template <class K>
void topk_host(const K* in, std::int64_t n, topk_shape shape, const segment_bounds& host_seg, std::int64_t rows,
               std::int64_t cols, std::int64_t k, K* values, std::int64_t* indices, const topk_options& opts,
               const topk_config& cfg);
}  // namespace detail

/// Host containers: the top-k of an array into values and indices (each resized to k).
/// Everything is checked on the host first; throws no_device_error without a GPU.
template <sort_key K>
void topk(std::span<const K> in, std::int64_t k, std::vector<K>& values, std::vector<std::int64_t>& indices,
          const topk_options& opts = {}, const topk_config& cfg = {}) {
  if (k < 0 || k > static_cast<std::int64_t>(in.size()))
    throw invalid_argument("scankit::cuda::topk: k = " + std::to_string(k) + " is not in [0, " +
                           std::to_string(in.size()) + "]");
  values.resize(static_cast<std::size_t>(k));
  indices.resize(static_cast<std::size_t>(k));
  detail::topk_host<K>(in.data(), static_cast<std::int64_t>(in.size()), detail::topk_shape::array, {}, 0, 0, k,
                       values.data(), indices.data(),
                       opts, cfg);
}

/// Host containers: the top-k of every segment (host bounds, checked) into count * k arrays.
template <sort_key K>
void segmented_topk(std::span<const K> in, const segment_bounds& seg, std::int64_t k, std::vector<K>& values,
                    std::vector<std::int64_t>& indices, const topk_options& opts = {}, const topk_config& cfg = {}) {
  check_segments_host(seg, static_cast<std::int64_t>(in.size()), "scankit::cuda::segmented_topk");
  std::int64_t shortest = INT64_MAX;
  for (std::int64_t s = 0; s < seg.count; ++s) shortest = std::min(shortest, seg.end[s] - seg.begin[s]);
  if (k < 0 || (seg.count > 0 && k > shortest))
    throw invalid_argument("scankit::cuda::segmented_topk: k = " + std::to_string(k) +
                           " is negative or above the shortest segment's length");
  values.resize(static_cast<std::size_t>(seg.count * k));
  indices.resize(static_cast<std::size_t>(seg.count * k));
  detail::topk_host<K>(in.data(), static_cast<std::int64_t>(in.size()), detail::topk_shape::segments, seg, 0, 0, k,
                       values.data(), indices.data(),
                       opts, cfg);
}

/// Host containers: the top-k of every row of a row-major rows x cols matrix.
template <sort_key K>
void topk_rows(std::span<const K> in, std::int64_t rows, std::int64_t cols, std::int64_t k, std::vector<K>& values,
               std::vector<std::int64_t>& indices, const topk_options& opts = {}, const topk_config& cfg = {}) {
  if (rows < 0 || cols < 0 || (cols > 0 && rows > INT64_MAX / cols) ||
      static_cast<std::int64_t>(in.size()) != rows * cols)
    throw invalid_argument("scankit::cuda::topk_rows: the input does not hold rows x cols keys");
  if (k < 0 || k > cols)
    throw invalid_argument("scankit::cuda::topk_rows: k = " + std::to_string(k) + " is not in [0, " +
                           std::to_string(cols) + "]");
  values.resize(static_cast<std::size_t>(rows * k));
  indices.resize(static_cast<std::size_t>(rows * k));
  detail::topk_host<K>(in.data(), rows * cols, detail::topk_shape::rows, {}, rows, cols, k, values.data(),
                       indices.data(), opts, cfg);
}

}  // namespace scankit::cuda
