// The sort path of the segmented top-k (any k): every key's rank sorted stably with its
// position, then stably by segment, so each segment's keys lie together in (rank, position)
// order; the first k of each are its top-k.
#pragma once

#include <cstdint>

#include "scankit/cuda/detail/arena.hpp"
#include "scankit/cuda/detail/error.cuh"
#include "scankit/cuda/detail/topk/block_select.cuh"
#include "scankit/cuda/detail/topk/kernels.cuh"
#include "scankit/cuda/sort.hpp"
#include "scankit/cuda/detail/math.hpp"
#include <algorithm>

namespace scankit::cuda::detail::topk {

/// Stable in-place sort of n 64-bit keys (their low `bits` bits) with 64-bit values.
inline void sort_u64_pairs(u64* keys, u64* vals, std::int64_t n, int bits, void* ws, std::size_t ws_bytes,
                           cudaStream_t stream) {
  sort_request r;
  r.keys_in = keys, r.keys_out = keys, r.values_in = vals, r.values_out = vals, r.value_bytes = 8;
  r.n = n, r.workspace = ws, r.workspace_bytes = ws_bytes, r.stream = stream;
  r.options.end_bit = std::max(1, std::min(64, bits));
  sort_device<std::uint64_t>(r);
}

/// The segment that holds position i, or `count` for a position between segments.
__device__ __forceinline__ std::int64_t segment_of(const segments_of& seg, std::int64_t count, std::int64_t i) {
  if (!seg.begin) return i / seg.cols;
  std::int64_t lo = 0, hi = count;  // the first segment that begins after i
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (seg.begin[mid] <= i) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && i < seg.end[lo - 1] ? lo - 1 : count;
}

template <class K>
__global__ void ranks_and_positions(const K* in, std::int64_t n, bool largest, u64* rank, u64* pos) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    rank[i] = rank_of(in[i], largest), pos[i] = static_cast<u64>(i);
}

template <class = void>
__global__ void segments_of_positions(segments_of seg, std::int64_t count, std::int64_t n, const u64* pos,
                                             u64* segment) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    segment[i] = static_cast<u64>(segment_of(seg, count, static_cast<std::int64_t>(pos[i])));
}

/// Segment s's keys start at the first sorted entry whose segment is s; its first k are its top-k.
template <class K>
__global__ void write_sorted_topk(const K* in, segments_of seg, std::int64_t count, std::int64_t n, std::int64_t k,
                                  const u64* segment, const u64* pos, K* values, std::int64_t* indices) {
  for (std::int64_t s = blockIdx.x; s < count; s += gridDim.x) {
    std::int64_t lo = 0, hi = n;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (segment[mid] < static_cast<u64>(s)) lo = mid + 1;
      else hi = mid;
    }
    const std::int64_t first = seg.first(s);
    for (std::int64_t j = threadIdx.x; j < k; j += blockDim.x) {
      const std::int64_t p = static_cast<std::int64_t>(pos[lo + j]);
      values[s * k + j] = in[p];
      indices[s * k + j] = p - first;
    }
  }
}

/// Workspace of the sort path: ranks, positions and segments of every key, and the sort's.
inline std::size_t sorted_workspace_bytes(std::int64_t n) {
  return 3 * align_up(static_cast<std::size_t>(n) * 8) + align_up(sort_workspace_bytes(n, 8, 8));
}

inline int bits_for_count(std::int64_t count) {
  int b = 1;
  while (b < 63 && (std::int64_t{1} << b) <= count) ++b;
  return b;
}

template <class K>
void run_sorted(const K* in, segments_of seg, std::int64_t count, std::int64_t n, std::int64_t k, bool largest,
                K* values, std::int64_t* indices, arena& a, const device_info& d, cudaStream_t stream) {
  u64* rank = a.take<u64>(n);
  u64* pos = a.take<u64>(n);
  u64* segment = a.take<u64>(n);
  const std::size_t sort_bytes = sort_workspace_bytes(n, 8, 8);
  void* sort_ws = a.take<unsigned char>(static_cast<std::int64_t>(sort_bytes));
  const unsigned grid = static_cast<unsigned>(std::clamp<std::int64_t>((n + 255) / 256, 1, 16 * d.sm_count));
  ranks_and_positions<<<grid, 256, 0, stream>>>(in, n, largest, rank, pos);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::topk ranks_and_positions");
  sort_u64_pairs(rank, pos, n, static_cast<int>(sizeof(K) * 8), sort_ws, sort_bytes, stream);
  segments_of_positions<><<<grid, 256, 0, stream>>>(seg, count, n, pos, segment);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::topk segments_of_positions");
  sort_u64_pairs(segment, pos, n, bits_for_count(count), sort_ws, sort_bytes, stream);
  const unsigned sgrid = static_cast<unsigned>(std::clamp<std::int64_t>(count, 1, 65535));
  write_sorted_topk<<<sgrid, 256, 0, stream>>>(in, seg, count, n, k, segment, pos, values, indices);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::topk write_sorted_topk");
}

}  // namespace scankit::cuda::detail::topk
