// The GPU segmented sort's host driver (the plan in plan.hpp, the kernels in kernels.cuh), and
// the ordering step it shares with the top-k's sort path.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "scankit/cuda/detail/arena.hpp"
#include "scankit/cuda/detail/error.cuh"
#include "scankit/cuda/detail/math.hpp"
#include "scankit/cuda/detail/segmented_sort/kernels.cuh"
#include "scankit/cuda/detail/segmented_sort/tuning.hpp"
#include "scankit/cuda/sort.hpp"

namespace scankit::cuda::detail::segmented_sort {

/// Stable in-place sort of n 64-bit keys (their low `bits` bits) with 64-bit values.
inline void sort_u64_pairs(u64* keys, u64* vals, std::int64_t n, int bits, void* ws, std::size_t ws_bytes,
                           cudaStream_t stream) {
  sort_request r;
  r.keys_in = keys, r.keys_out = keys, r.values_in = vals, r.values_out = vals, r.value_bytes = 8;
  r.n = n, r.workspace = ws, r.workspace_bytes = ws_bytes, r.stream = stream;
  r.options.end_bit = std::max(1, std::min(64, bits));
  sort_device<std::uint64_t>(r);
}

/// Bits that hold every value in [0, count].
inline int bits_for_count(std::int64_t count) {
  int b = 1;
  while (b < 63 && (std::int64_t{1} << b) <= count) ++b;
  return b;
}

/// The order buffers: every key's rank, position and segment, and the flat sorts' workspace.
struct order_buffers {
  u64 *rank = nullptr, *pos = nullptr, *segment = nullptr;
  void* sort_ws = nullptr;
  std::size_t sort_bytes = 0;
};

inline std::size_t order_bytes(std::int64_t n) {
  return 3 * align_up(static_cast<std::size_t>(n) * 8) + align_up(sort_workspace_bytes(n, 8, 8));
}

inline order_buffers carve_order(arena& a, std::int64_t n) {
  order_buffers b;
  b.rank = a.take<u64>(n), b.pos = a.take<u64>(n), b.segment = a.take<u64>(n);
  b.sort_bytes = sort_workspace_bytes(n, 8, 8);
  b.sort_ws = a.take<unsigned char>(static_cast<std::int64_t>(b.sort_bytes));
  return b;
}

inline unsigned grid_for_items(std::int64_t n, int sm_count) {
  return static_cast<unsigned>(std::clamp<std::int64_t>((n + item_threads - 1) / item_threads, 1,
                                                        std::int64_t{blocks_per_sm} * std::max(1, sm_count)));
}

/// Leaves b.pos holding the positions ordered by (segment, rank, position) and b.segment their
/// segments (`count` for positions between segments): a stable sort by rank, then one by segment.
template <class K>
void order_by_segment(const K* keys, std::int64_t n, const segments_of& seg, std::int64_t count, int begin_bit,
                      int end_bit, bool descending, const order_buffers& b, int sm_count, cudaStream_t stream) {
  const unsigned grid = grid_for_items(n, sm_count);
  ranks_and_positions<<<grid, item_threads, 0, stream>>>(keys, n, begin_bit, end_bit, descending, b.rank, b.pos);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::segmented_sort ranks_and_positions");
  sort_u64_pairs(b.rank, b.pos, n, end_bit - begin_bit, b.sort_ws, b.sort_bytes, stream);
  segments_of_positions<><<<grid, item_threads, 0, stream>>>(seg, count, n, b.pos, b.segment);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::segmented_sort segments_of_positions");
  sort_u64_pairs(b.segment, b.pos, n, bits_for_count(count), b.sort_ws, b.sort_bytes, stream);
}

/// The two-sort path: order, then scatter every key (and value) to its place. A sort in place
/// first copies the input to the workspace (`copy`: n keys then n values), since the scatter
/// reads keys another thread's entry overwrites.
template <class K, class V>
void run_two_sort(const K* keys_in, K* keys_out, const V* values_in, V* values_out, std::int64_t n,
                  const segments_of& seg, std::int64_t count, const sort_options& opts, int begin_bit, int end_bit,
                  arena& a, int sm_count, cudaStream_t stream) {
  const order_buffers b = carve_order(a, n);
  K* key_copy = a.take<K>(n);
  V* value_copy = values_out ? a.take<V>(n) : nullptr;
  order_by_segment(keys_in, n, seg, count, begin_bit, end_bit, opts.descending, b, sm_count, stream);
  if (keys_in == keys_out) {
    SCANKIT_CUDA_CHECK(cudaMemcpyAsync(key_copy, keys_in, static_cast<std::size_t>(n) * sizeof(K),
                                       cudaMemcpyDeviceToDevice, stream));
    keys_in = key_copy;
  }
  if (values_out && values_in == values_out) {
    SCANKIT_CUDA_CHECK(cudaMemcpyAsync(value_copy, values_in, static_cast<std::size_t>(n) * sizeof(V),
                                       cudaMemcpyDeviceToDevice, stream));
    values_in = value_copy;
  }
  scatter_sorted<<<grid_for_items(n, sm_count), item_threads, 0, stream>>>(keys_in, values_in, seg, count, n,
                                                                           b.segment, b.pos, keys_out, values_out);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::segmented_sort scatter_sorted");
}

}  // namespace scankit::cuda::detail::segmented_sort
