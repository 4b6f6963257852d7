// The warp path of the segmented top-k: one warp per segment (or row) of at most
// warp_max_items * 32 keys, for k up to 32. The whole segment sits in the warp's registers,
// so it is read once and nothing else touches memory until the k results are written.
//
//   phase 1  load: lane l holds the segment's keys l, l + 32, ... as orders (rank, position),
//            smaller first; and its own best
//   phase 2  k rounds: a reduction over the lanes finds the warp's best order; the lane that
//            holds it drops it and finds its next best; lane r keeps round r's winner
//   phase 3  lane r < k writes winner r: the results come out in order, ties by position (a
//            level over chunk winners writes the row positions it was given beside them)
#pragma once

#include <cstdint>

#include "scankit/cuda/detail/segmented_sort/kernels.cuh"  // segments_of
#include "scankit/cuda/detail/topk/kernels.cuh"            // rank_of
#include "scankit/cuda/detail/topk/tuning.hpp"
#include "scankit/cuda/detail/warp/scan.cuh"

namespace scankit::cuda::detail::topk {

using segmented_sort::segments_of;

/// A key's order in the warp path: its rank, then its position in the segment. Keys of up to
/// 4 bytes pack both into one word; 8-byte keys carry the position beside the rank.
template <class K, bool Packed = (sizeof(K) <= 4)>
struct order {
  u64 word;
  static constexpr u64 none_word = ~u64{0};
  __device__ static order make(u64 rank, unsigned pos) { return {rank << 32 | pos}; }
  __device__ static order none() { return {none_word}; }
  __device__ unsigned pos() const { return static_cast<unsigned>(word); }
  __device__ bool before(const order& o) const { return word < o.word; }
};
template <class K>
struct order<K, false> {
  u64 rank;
  unsigned p;
  __device__ static order make(u64 rank, unsigned pos) { return {rank, pos}; }
  __device__ static order none() { return {~u64{0}, ~0u}; }
  __device__ unsigned pos() const { return p; }
  __device__ bool before(const order& o) const { return rank < o.rank || (rank == o.rank && p < o.p); }
};

template <class K, int Items>
__global__ void __launch_bounds__(warp_path_threads)
    warp_select(const K* in, const std::int64_t* positions, segments_of seg, std::int64_t count, std::int64_t k,
                bool largest, K* values, std::int64_t* indices) {
  using O = order<K>;
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const std::int64_t warps = std::int64_t{gridDim.x} * (blockDim.x >> 5);
  // s is the same for every lane of a warp, so a warp runs its loop together.
  for (std::int64_t s = (blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x) >> 5; s < count; s += warps) {
    const std::int64_t first = seg.first(s);
    const int len = static_cast<int>(seg.last(s) - first);
    const K* x = in + first;

    // ---- phase 1: load ----
    O item[Items];
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int p = lane + 32 * j;
      item[j] = p < len ? O::make(rank_of(x[p], largest), static_cast<unsigned>(p)) : O::none();
    }
    O best = item[0], mine = O::none();
#pragma unroll
    for (int j = 1; j < Items; ++j)
      if (item[j].before(best)) best = item[j];

    // ---- phase 2: k rounds ----
    for (int r = 0; r < k; ++r) {
      const O w = warp_reduce(best, [](const O& a, const O& b) { return b.before(a) ? b : a; });
      if (lane == r) mine = w;
      const unsigned p = w.pos();
      if (static_cast<int>(p & 31u) == lane) {
        // The dropped item is found by its position, not by indexing item[] with p >> 5: a
        // computed index would move the array out of registers into local memory.
        best = O::none();
#pragma unroll
        for (int j = 0; j < Items; ++j) {
          if (item[j].pos() == p) item[j] = O::none();
          if (item[j].before(best)) best = item[j];
        }
      }
    }

    // ---- phase 3: lane r writes winner r (a segment shorter than k, a broken precondition,
    // leaves the rest unwritten rather than read past its end) ----
    if (lane < k && lane < len) {
      const unsigned p = mine.pos();
      values[s * k + lane] = x[p];
      indices[s * k + lane] = positions ? positions[first + p] : static_cast<std::int64_t>(p);
    }
  }
}

}  // namespace scankit::cuda::detail::topk
