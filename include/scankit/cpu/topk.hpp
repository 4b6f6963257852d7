// CPU top-k: the k largest (or smallest) items of an array, of every row of a matrix, or of
// every segment, with their positions, sorted: the k largest in descending order, ties broken
// by the smaller position, so the result is the same on every run and machine. The order is
// the flat sorts' (sort_traits.hpp): floats in IEEE total order, NaNs above +inf (a NaN is
// among the largest, as torch.topk has it), -0 below +0.
//
//   topk_serial / segmented_topk_serial  the reference: a stable sort of positions, sliced at k
//   topk                one array: values[0, k) and indices[0, k) (positions in the array)
//   segmented_topk      every segment s (CSR offsets or bounds): values and indices
//                       [s k, s k + k), indices relative to the segment's begin; every segment
//                       must hold at least k items
//   topk_rows           every row of a row-major rows x cols matrix, as segmented_topk
//
// The algorithm (detail/topk/plan.hpp chooses, detail/topk/select.hpp holds them): one thread
// selects over (rank, position) pairs for a segment or a small array; a large array is
// selected by the pool, for a small k with a heap of the k best per chunk (one read), else
// with a radix select over the rank bits (three or four reads, however large k is), then
// sorted. Segments are spread over the pool.
// Bad arguments (k < 0 or above a length, n < 0, null pointers, bad segments) throw
// scankit::invalid_argument before anything is written.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include <tbb/enumerable_thread_specific.h>

#include "scankit/cpu/detail/parallel.hpp"
#include "scankit/cpu/detail/topk/plan.hpp"
#include "scankit/cpu/detail/topk/select.hpp"
#include "scankit/error.hpp"
#include "scankit/segments.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::cpu {

/// Which end of the order a top-k keeps.
struct topk_options {
  bool largest = true;  // the k largest, in descending order; false: the k smallest, ascending
};

namespace detail::topk {

template <class K>
void check_args(const K* in, std::int64_t n, std::int64_t k, std::int64_t max_k, const K* values,
                const std::int64_t* indices, std::int64_t outputs, const char* who) {
  static_assert(is_sort_key_v<K>, "scankit::cpu top-k keys are 8..64-bit integers, float and double");
  scankit::detail::check_size(n, who);
  scankit::detail::check_pointer(in, n, "input", who);
  if (k < 0 || k > max_k)
    throw invalid_argument(std::string(who) + ": k = " + std::to_string(k) + " is not in [0, " + std::to_string(max_k) +
                           "]");
  scankit::detail::check_pointer(values, outputs, "values", who);
  scankit::detail::check_pointer(indices, outputs, "indices", who);
}

/// The shortest segment's length (unlimited for no segments: there is nothing to write).
inline std::int64_t shortest(const segment_bounds& seg) {
  std::int64_t m = INT64_MAX;
  for (std::int64_t s = 0; s < seg.count; ++s) m = std::min(m, seg.end[s] - seg.begin[s]);
  return m;
}

/// The checks of the segmented top-k: the segments, then k against the shortest of them.
template <class K>
void check_segmented_args(const K* in, std::int64_t n, const segment_bounds& seg, std::int64_t k, const K* values,
                          const std::int64_t* indices, const char* who) {
  check_segments_host(seg, n, who);
  check_args(in, n, k, shortest(seg), values, indices, seg.count * k, who);
}

/// select_one of `count` segments, segment s being `length(s)` items at in + first(s), into
/// [s k, s k + k), spread over the pool in tasks of about chunk_items of the `items` in all.
template <class K, class First, class Length>
void select_each(const K* in, std::int64_t count, std::int64_t items, First first, Length length, std::int64_t k,
                 bool largest, K* values, std::int64_t* indices) {
  tbb::enumerable_thread_specific<std::vector<std::pair<bits_t<K>, std::int64_t>>> scratch;
  const std::int64_t per_task = std::max<std::int64_t>(1, chunk_items / std::max<std::int64_t>(1, items / count));
  fenced_for_each(count, per_task, [&](std::int64_t s) {
    select_one(in + first(s), length(s), k, largest, values + s * k, indices + s * k, scratch.local());
  });
}

}  // namespace detail::topk

// ---------------------------------------------------------------------------------------------
// Serial references.

/// The k first positions of a stable sort of the array by rank, and their values.
template <class K>
void topk_serial(const K* in, std::int64_t n, std::int64_t k, K* values, std::int64_t* indices,
                 const topk_options& opts = {}) {
  detail::topk::check_args(in, n, k, n, values, indices, k, "scankit::cpu::topk_serial");
  std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
  std::iota(idx.begin(), idx.end(), std::int64_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t a, std::int64_t b) {
    return detail::topk::rank_of(in[a], opts.largest) < detail::topk::rank_of(in[b], opts.largest);
  });
  for (std::int64_t j = 0; j < k; ++j) {
    indices[j] = idx[static_cast<std::size_t>(j)];
    values[j] = in[indices[j]];
  }
}

/// topk_serial of every segment, into [s k, s k + k), positions relative to the segment.
template <class K>
void segmented_topk_serial(const K* in, std::int64_t n, const segment_bounds& seg, std::int64_t k, K* values,
                           std::int64_t* indices, const topk_options& opts = {}) {
  detail::topk::check_segmented_args(in, n, seg, k, values, indices, "scankit::cpu::segmented_topk_serial");
  for (std::int64_t s = 0; s < seg.count; ++s)
    topk_serial(in + seg.begin[s], seg.end[s] - seg.begin[s], k, values + s * k, indices + s * k, opts);
}

// ---------------------------------------------------------------------------------------------
// The library's top-k.

/// The k largest (or smallest) items of in[0, n) and their positions (see the top).
template <class K>
void topk(const K* in, std::int64_t n, std::int64_t k, K* values, std::int64_t* indices, const topk_options& opts = {},
          const topk_config& cfg = {}) {
  constexpr const char* who = "scankit::cpu::topk";
  detail::topk::check_config(cfg, who);
  detail::topk::check_args(in, n, k, n, values, indices, k, who);
  if (k == 0) return;
  const topk_path path = detail::topk::plan_topk(n, k, cfg);
  if (path == topk_path::radix) {
    detail::topk::radix_select(in, n, k, opts.largest, values, indices);
  } else if (path == topk_path::heap) {
    detail::topk::heap_select(in, n, k, opts.largest, values, indices);
  } else {
    std::vector<std::pair<detail::topk::bits_t<K>, std::int64_t>> pairs;
    detail::topk::select_one(in, n, k, opts.largest, values, indices, pairs);
  }
}

/// The top-k of every segment, into [s k, s k + k), positions relative to the segment's begin.
template <class K>
void segmented_topk(const K* in, std::int64_t n, const segment_bounds& seg, std::int64_t k, K* values,
                    std::int64_t* indices, const topk_options& opts = {}) {
  detail::topk::check_segmented_args(in, n, seg, k, values, indices, "scankit::cpu::segmented_topk");
  if (k == 0 || seg.count == 0) return;
  detail::topk::select_each(
      in, seg.count, n, [&](std::int64_t s) { return seg.begin[s]; },
      [&](std::int64_t s) { return seg.end[s] - seg.begin[s]; }, k, opts.largest, values, indices);
}

/// The top-k of every row of a row-major rows x cols matrix (k <= cols), into rows x k arrays.
template <class K>
void topk_rows(const K* in, std::int64_t rows, std::int64_t cols, std::int64_t k, K* values, std::int64_t* indices,
               const topk_options& opts = {}) {
  constexpr const char* who = "scankit::cpu::topk_rows";
  if (rows < 0 || cols < 0) throw invalid_argument(std::string(who) + ": rows and cols must be >= 0");
  if (cols > 0 && rows > INT64_MAX / cols) throw invalid_argument(std::string(who) + ": rows * cols overflows");
  detail::topk::check_args(in, rows * cols, k, cols, values, indices, rows * k, who);
  if (k == 0 || rows == 0) return;
  detail::topk::select_each(
      in, rows, rows * cols, [&](std::int64_t r) { return r * cols; }, [&](std::int64_t) { return cols; }, k,
      opts.largest, values, indices);
}

}  // namespace scankit::cpu
