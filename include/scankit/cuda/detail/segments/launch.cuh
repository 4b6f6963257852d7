// The segmented operations' host side: check the call, plan it, carve the workspace, launch.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/segments/kernels.cuh"
#include "scankit/cuda/detail/segments/plan.hpp"
#include "scankit/cuda/detail/segments/reduce_tiles.cuh"

namespace scankit::cuda::detail::segments {

/// Throws invalid_argument naming `who` unless `ok`.
inline void require(bool ok, const char* who, const char* what) {
  if (!ok) throw invalid_argument(std::string(who) + ": " + what);
}

/// The checks every entry makes before it launches anything: sizes, pointers, workspace.
inline plan checked_plan(const char* who, operation what, std::int64_t n, std::int64_t n_segments,
                         std::size_t value_bytes, const void* d_workspace, std::size_t workspace_bytes,
                         const segments_config& cfg) {
  require(n >= 0, who, "n must be >= 0");
  require(n_segments >= 0, who, "the number of segments must be >= 0");
  const plan p = make_plan(what, n, n_segments, value_bytes, cfg, current_device_info());
  if (d_workspace == nullptr || workspace_bytes < p.workspace)
    throw invalid_argument(std::string(who) + ": workspace of " + std::to_string(workspace_bytes) +
                           " bytes, needs " + std::to_string(p.workspace) + " (segments_workspace_bytes)");
  check_workspace_pointer(d_workspace, p.workspace, who);
  return p;
}

/// The kernels cut their tiles as the plan did: a plan for another item size would misplace
/// every tile.
template <class T, int Row>
void check_tile_work(const plan& p) {
  if (p.tile_work != tile_work_for<T>(Row, p.partition))
    throw scankit::error("scankit::cuda::segments: the plan's tile of " + std::to_string(p.tile_work) +
                " work items does not match the kernels' (a plan for another item size)");
}

/// Runs the tile engine with sink Sink over a's items and heads.
template <sink Sink, class T, class Op>
void run_tiles(const plan& p, tile_args<T> a, Op op, void* d_workspace, std::size_t workspace_bytes,
               cudaStream_t s) {
  static_assert(std::is_trivially_copyable_v<T>, "segmented values must be trivially copyable");
  static_assert(sizeof(seg_state<T>) <= state_bytes_for(sizeof(T)), "the plan sizes the look-back state");
  constexpr int Row = row_items_for(sizeof(T));
  if (p.tiles == 0) return;
  check_launch_tiles(p.tiles, "segments");
  check_tile_work<T, Row>(p);
  arena ws(d_workspace, workspace_bytes);
  tree<seg_state<T>> tr;
  unsigned long long* counter = lookback::carve_tree(tr, p.tiles, ws, s);
  const tuning tu = tuning_for(current_device_info());
  if (p.partition) {
    std::int64_t* partition = ws.take<std::int64_t>(p.tiles + 1);
    const int threads = tu.partition_threads;
    partition_kernel<<<grid_for(ceil_div(p.tiles + 1, threads)), threads, 0, s>>>(
        a.h.end, a.h.segments, a.n, p.tile_work, p.tiles, partition);
    SCANKIT_LAUNCH_CHECK("segments partition_kernel");
    a.h.partition = partition;
  }
  auto* kernel = tile_kernel<Sink, Row, T, Op>;
  const std::size_t smem = tile_layout<T, Row>::bytes(Sink == sink::runs);
  allow_dynamic_shared_memory(kernel, smem);
  launch_after("segments tile_kernel", kernel, dim3(static_cast<unsigned>(p.tiles)), dim3(block_threads), smem, s, a,
               op, tr, counter, p.tiles, tu.backoff_ns, tu.first_delay_ns);
}

/// The two-pass segmented reduction (reduce_tiles.cuh): the partition, every tile on its own,
/// then one block of carries (none where a single tile holds everything).
template <class T, class Op>
void run_two_pass(const plan& p, tile_args<T> a, Op op, void* d_workspace, std::size_t workspace_bytes,
                  cudaStream_t s) {
  static_assert(std::is_trivially_copyable_v<T>, "segmented values must be trivially copyable");
  static_assert(sizeof(seg_state<T>) <= state_bytes_for(sizeof(T)), "the plan sizes the tile states");
  constexpr int Row = row_items_for(sizeof(T));
  if (p.tiles == 0) return;
  check_launch_tiles(p.tiles, "segments");
  check_tile_work<T, Row>(p);
  arena ws(d_workspace, workspace_bytes);
  std::int64_t* partition = ws.take<std::int64_t>(p.tiles + 1);
  auto* states = ws.take<seg_state<T>>(p.tiles);
  std::int64_t* open = ws.take<std::int64_t>(p.tiles);
  const tuning tu = tuning_for(current_device_info());
  partition_kernel<<<grid_for(ceil_div(p.tiles + 1, tu.partition_threads)), tu.partition_threads, 0, s>>>(
      a.h.end, a.h.segments, a.n, p.tile_work, p.tiles, partition);
  SCANKIT_LAUNCH_CHECK("segments partition_kernel");
  a.h.partition = partition;
  auto* kernel = reduce_tile_kernel<Row, T, Op>;
  constexpr std::size_t smem = tile_layout<T, Row>::bytes(false);
  allow_dynamic_shared_memory(kernel, smem);
  launch_after("segments reduce_tile_kernel", kernel, dim3(static_cast<unsigned>(p.tiles)), dim3(block_threads), smem,
               s, a, op, states, open);
  if (p.tiles > 1)
    launch_after("segments carry_kernel", carry_kernel<T, Op>, dim3(1), dim3(carry_threads), 0, s,
                 static_cast<const seg_state<T>*>(states), static_cast<const std::int64_t*>(open), p.tiles, op, a.out);
}

/// The classic reduction, one block per segment.
template <class T, class Op>
void run_block_per_segment(const T* d_in, std::int64_t n, const segment_bounds& seg, Op op, T empty_value, T* d_out,
                           cudaStream_t s) {
  constexpr int Row = row_items_for(sizeof(T));
  block_per_segment_kernel<Row, T, Op><<<grid_for(seg.count, std::int64_t{1} << 30), block_threads, 0, s>>>(
      d_in, n, seg.begin, seg.end, seg.count, op, empty_value, d_out);
  SCANKIT_LAUNCH_CHECK("segments block_per_segment_kernel");
}

}  // namespace scankit::cuda::detail::segments
