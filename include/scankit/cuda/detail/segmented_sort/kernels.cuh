// The kernels of the GPU segmented sort's two-sort path, shared with the top-k's sort path:
// every key's rank with its position, the segment of each position, and the final scatter.
#pragma once

#include <cstdint>
#include <cstring>

#include "scankit/sort_traits.hpp"

namespace scankit::cuda::detail::segmented_sort {

using u64 = unsigned long long;

/// Segment s: bounds in device memory, or row s of a rows x cols matrix (begin == nullptr).
struct segments_of {
  const std::int64_t* begin;
  const std::int64_t* end;
  std::int64_t cols;
  __device__ __forceinline__ std::int64_t first(std::int64_t s) const { return begin ? begin[s] : s * cols; }
  __device__ __forceinline__ std::int64_t last(std::int64_t s) const { return begin ? end[s] : (s + 1) * cols; }
};

/// The segment that holds position i, or `count` for a position between segments (segments are
/// sorted and do not overlap, so it is the last one that begins at or before i, if i is before
/// its end).
__device__ __forceinline__ std::int64_t segment_of(const segments_of& seg, std::int64_t count, std::int64_t i) {
  if (!seg.begin) return i / seg.cols;
  std::int64_t lo = 0, hi = count;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (seg.begin[mid] <= i) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && i < seg.end[lo - 1] ? lo - 1 : count;
}

/// The first index of a sorted array whose value is at least v.
__device__ __forceinline__ std::int64_t lower_bound(const u64* a, std::int64_t n, u64 v) {
  std::int64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/// Every key's rank bits (the sorts' order: bit range and direction) and its position.
template <class K>
__global__ void ranks_and_positions(const K* in, std::int64_t n, int begin_bit, int end_bit, bool descending,
                                    u64* rank, u64* pos) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    rank[i] = static_cast<u64>(scankit::detail::sort_rank_bits(in[i], begin_bit, end_bit, descending));
    pos[i] = static_cast<u64>(i);
  }
}

template <class = void>
__global__ void segments_of_positions(segments_of seg, std::int64_t count, std::int64_t n, const u64* pos,
                                      u64* segment) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    segment[i] = static_cast<u64>(segment_of(seg, count, static_cast<std::int64_t>(pos[i])));
}

/// Entry j of the order (by segment, then rank, then position) goes to its segment's begin plus
/// its place among the segment's entries; a key between segments stays where it was.
template <class K, class V>
__global__ void scatter_sorted(const K* keys_in, const V* values_in, segments_of seg, std::int64_t count,
                               std::int64_t n, const u64* segment, const u64* pos, K* keys_out, V* values_out) {
  for (std::int64_t j = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; j < n;
       j += std::int64_t{gridDim.x} * blockDim.x) {
    const u64 s = segment[j];
    const std::int64_t from = static_cast<std::int64_t>(pos[j]);
    const std::int64_t to = s == static_cast<u64>(count)
                                ? from
                                : seg.first(static_cast<std::int64_t>(s)) + (j - lower_bound(segment, j, s));
    keys_out[to] = keys_in[from];
    if (values_out) values_out[to] = values_in[from];
  }
}

}  // namespace scankit::cuda::detail::segmented_sort
