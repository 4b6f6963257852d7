// The GPU segmented sort's host drivers (the plan in plan.hpp): the merge path (pieces.cuh,
// merge_rounds.cuh) and the two-sort path (kernels.cuh), whose ordering step the top-k's sort
// path shares.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>
#include <cstdint>

#include "scankit/cuda/detail/arena.hpp"
#include "scankit/cuda/detail/error.cuh"
#include "scankit/cuda/detail/math.hpp"
#include "scankit/cuda/detail/device.cuh"
#include "scankit/cuda/detail/segmented_sort/kernels.cuh"
#include "scankit/cuda/detail/segmented_sort/merge_rounds.cuh"
#include "scankit/cuda/detail/segmented_sort/pieces.cuh"
#include "scankit/cuda/detail/segmented_sort/radix_long.cuh"
#include "scankit/cuda/detail/segmented_sort/plan.hpp"
#include "scankit/cuda/detail/segmented_sort/tuning.hpp"
#include "scankit/cuda/scan.hpp"
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

// ---- the merge path ----

/// Workspace of the merge path: every bin edge's bound and first segment, per segment its tile
/// count and first tile, the tile total and the longest length, the tiles' splits, the scan's
/// workspace, the alternate keys and values of the merge rounds (and of the radix passes), and
/// the radix passes' tables.
inline std::size_t merge_bytes(std::int64_t n, std::int64_t count, std::size_t key_bytes, std::size_t value_bytes,
                               const segmented_sort_config& cfg) {
  const auto c = static_cast<std::size_t>(count), un = static_cast<std::size_t>(n);
  const auto edges = static_cast<std::size_t>(ceil_div(n, std::int64_t{piece}) + 1);
  return 2 * align_up(edges * 8) + 2 * align_up(c * 8) + align_up(16) +
         align_up(static_cast<std::size_t>(max_merge_tiles(n)) * 8) +
         align_up(scan_workspace_bytes(count, 8)) + align_up(un * key_bytes) + align_up(un * value_bytes) +
         radix_bytes(radix_sizes_for(n, count, key_bytes, value_bytes, cfg));
}

/// The merge path: sort every piece (one launch), then merge the slices of long segments.
template <class K, class V>
void run_merge(const K* keys_in, K* keys_out, const V* values_in, V* values_out, std::int64_t n,
               const segments_of& seg, std::int64_t count, int begin_bit, int end_bit, bool descending,
               const segmented_sort_config& cfg, arena& a, int sm_count, cudaStream_t stream) {
  const rank_less<K> less{begin_bit, end_bit, descending};
  const std::size_t vb = std::is_void_v<V> ? 0 : sizeof(std::conditional_t<std::is_void_v<V>, char, V>);
  radix_rule rule;
  std::int64_t radix_tile_keys = 1;
  if constexpr (radix_compiled<K, V>) {
    rule = plan_radix(n, sizeof(K), vb, begin_bit, end_bit, cfg);
    if (rule.enabled()) radix_tile_keys = radix_tile<K, V>();
  }
  const std::int64_t bins = ceil_div(n, std::int64_t{piece});
  auto* bin_lo = a.take<std::int64_t>(bins + 1);
  auto* bin_segment = a.take<std::int64_t>(bins + 1);
  auto* tiles = a.take<std::int64_t>(count);
  auto* first = a.take<std::int64_t>(count);
  auto* scalars = a.take<std::int64_t>(2);  // the tile total, the longest length
  auto* splits = a.take<std::int64_t>(max_merge_tiles(n));
  const std::size_t scan_bytes = scan_workspace_bytes(count, 8);
  void* scan_ws = a.take<unsigned char>(static_cast<std::int64_t>(scan_bytes));
  K* alt = a.take<K>(n);
  V* alt_values = nullptr;
  if constexpr (!std::is_void_v<V>) alt_values = a.take<V>(n);
  const radix_buffers rb = carve_radix(a, radix_sizes_for(n, count, sizeof(K), vb, cfg), rule, radix_tile_keys);
  // No radix passes where no segment can take them, where their launches could not cover their
  // tiles (a forced tiny radix_from: decided before anything runs), or where only one of keys
  // and values is sorted in place: bins holding part of a radix segment sort it in place first,
  // and the passes must then read keys and values in the same order.
  bool mixed_aliasing = false;
  if constexpr (!std::is_void_v<V>) mixed_aliasing = (keys_in == keys_out) != (values_in == values_out);
  if (rb.z.segments == 0 || rb.z.tiles > max_launch_tiles || rb.z.segments > max_launch_tiles || mixed_aliasing)
    rule = {};

  // ---- step 1: every bin's bounds, then every piece, in shared memory ----
  auto kernel = sort_pieces<K, V>;
  constexpr std::size_t smem = pieces_shared_bytes<K>();
  allow_dynamic_shared_memory(kernel, smem);
  check_launch_tiles(bins, "scankit::cuda::segmented_sort sort_pieces");
  bin_bounds<><<<grid_for_items(bins + 1, sm_count), item_threads, 0, stream>>>(seg, count, n, bins, bin_lo,
                                                                               bin_segment);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::segmented_sort bin_bounds");
  launch_after("scankit::cuda::segmented_sort sort_pieces", kernel, dim3(static_cast<unsigned>(bins)),
               dim3(bin_threads), smem, stream, keys_in, keys_out, values_in, values_out, seg, count,
               static_cast<const std::int64_t*>(bin_lo), static_cast<const std::int64_t*>(bin_segment), less,
               rule);
  const int rounds = max_merge_rounds(n);
  if (rounds == 0 && !rule.enabled()) return;  // no segment can be longer than a piece

  // ---- step 2: the long segments' tiles (or their radix passes), then the rounds ----
  SCANKIT_CUDA_CHECK(cudaMemsetAsync(scalars, 0, 16, stream));
  radix_list list = rb.list;
  if (rule.enabled()) clear_async(list.counts, 16, stream);
  else list.counts = nullptr;  // lists nothing
  const long_tiles lt{first, scalars, scalars + 1};
  count_long_tiles<><<<grid_for_items(count, sm_count), item_threads, 0, stream>>>(
      seg, count, tiles, reinterpret_cast<unsigned long long*>(scalars + 1), list);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::segmented_sort count_long_tiles");
  scankit::cuda::scan(tiles, first, count, sum<std::int64_t>{}, scan_kind::exclusive, std::int64_t{0}, scan_ws,
                      scan_bytes, stream, {}, scalars);
  if (rule.enabled())
    run_radix_long(keys_in, keys_out, values_in, values_out, alt, alt_values, rb, begin_bit, end_bit, descending,
                   sm_count, stream);
  const unsigned part_grid = grid_for_items(max_merge_tiles(n), sm_count);
  const auto merge_grid = static_cast<unsigned>(std::clamp<std::int64_t>(
      max_merge_tiles(n), 1, std::int64_t{round_blocks_per_sm} * std::max(1, sm_count)));
  const K* src = keys_out;
  const V* src_values = values_out;
  std::int64_t w = piece;
  for (int r = 0; r < rounds; ++r, w *= 2) {
    K* dst = r % 2 == 0 ? alt : keys_out;
    V* dst_values = r % 2 == 0 ? alt_values : values_out;
    partition_round<<<part_grid, item_threads, 0, stream>>>(src, seg, count, lt, w, less, splits);
    SCANKIT_LAUNCH_CHECK("scankit::cuda::segmented_sort partition_round");
    merge_round<<<merge_grid, round_threads, 0, stream>>>(src, src_values, dst, dst_values, seg, count, lt, w, less,
                                                          splits);
    SCANKIT_LAUNCH_CHECK("scankit::cuda::segmented_sort merge_round");
    src = dst, src_values = dst_values;
  }
  finish_rounds<<<merge_grid, round_threads, 0, stream>>>(alt, static_cast<const V*>(alt_values), keys_out,
                                                          values_out, seg, count, lt);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::segmented_sort finish_rounds");
}

}  // namespace scankit::cuda::detail::segmented_sort
