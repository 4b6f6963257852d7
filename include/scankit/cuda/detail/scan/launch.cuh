// decoupled-lookback: the single-pass scan (after Merrill & Garland, 2016), made bitwise
// deterministic.
//
// Each block takes the next tile id from an atomic counter (not blockIdx: a tile only ever
// waits for tiles that were handed out before it, and those are already running or done, so
// the scan cannot deadlock however blocks are scheduled). It loads and scans its tile, then
// publishes the tile's aggregate and looks back over its predecessors' published values, a
// warp at a time, for the combination of everything before it.
//
// This file holds the host side: workspace, config checks, the kernel facts the plan needs,
// and the launchers that run plan_scan's plan. The tree and the look-back over it:
// lookback/status_tree.cuh. The paths and their tiles: scan/striped.cuh, scan/blocked.cuh,
// scan/specialized.cuh (and the one-launch path, tile_scan.cuh's single_block_scan_kernel).
// Which one runs: scan/plan.cuh, with the tuning of scan/tuning.cuh.
#pragma once

#include "scankit/cuda/detail/launch_checks.hpp"
#include "scankit/cuda/detail/scan/blocked.cuh"
#include "scankit/cuda/detail/scan/plan.cuh"
#include "scankit/cuda/detail/scan/specialized.cuh"
#include "scankit/cuda/detail/scan/striped.cuh"
#include "scankit/cuda/scan.hpp"

namespace scankit::cuda::detail::decoupled_lookback {

using namespace lookback;

/// Checks the ranges of `cfg`'s decoupled-lookback override (scan_tuning_override).
inline void check_config(const scan_config& cfg) {
  auto bad = [](const std::string& what) { throw invalid_argument("scankit::cuda::scan_config: " + what); };
  const scan_tuning_override& o = cfg.tuning;
  if (std::find(all_scan_paths.begin(), all_scan_paths.end(), o.path) == all_scan_paths.end()) bad("unknown scan path");
  if (o.blocked_from_items.value_or(0) < 0) bad("blocked_from_items is negative");
  if (o.specialized_from_items.value_or(0) < 0) bad("specialized_from_items is negative");
  if (o.first_delay_ns.value_or(0) > 1000000u) bad("first_delay_ns is over 1,000,000");
  const int limit = o.one_tile_per_sm_up_to_threads.value_or(0);
  if (limit < 0 || limit > 1024) bad("one_tile_per_sm_up_to_threads is outside [0, 1024]");
  if (o.load_window_tiles.value_or(0) < 0) bad("load_window_tiles is negative");
}

/// The blocked kernel compiled for `block` threads: the tuned block's launch bounds where it is
/// the tuned size (its register budget is what the tuning assumed), else any size up to 1,024.
template <class T, class Op>
auto blocked_kernel_for(int block) {
  constexpr scan_tuning tu = kernel_tuning<T>();
  constexpr int KV = tu.blocked_vectors;
  return block == tu.block_size ? blocked_kernel<KV, tu.block_size, tu.min_blocks_per_sm, T, Op>
                                : blocked_kernel<KV, 1024, 1, T, Op>;
}

template <class T, class Op>
auto specialized_kernel_of() {
  constexpr specialized_shape sh = specialized_shape_for<sizeof(T)>();
  return specialized_kernel<sh.consumers, sh.vectors_per_thread, sh.stages, sh.min_blocks_per_sm, sh.producers, T, Op>;
}

/// What plan_scan needs to know on the current device: its description and what the kernels of
/// items of type T with operator Op can do there.
struct scan_facts {
  const device_info* device = nullptr;
  scan_kernels kernels;
};

/// The facts of T and Op on the current device, looked up once per host thread and device (the
/// scan is called at microsecond sizes, where every driver call shows).
template <class T, class Op>
const scan_facts& device_facts() {
  struct cached {
    int device = -1;
    scan_facts facts;
  };
  thread_local cached c;
  const int dev = current_device();
  if (c.device == dev) return c.facts;
  scan_kernels f;
  if constexpr (tile::vector_items<T>() * sizeof(T) == 16) {
    constexpr int KV = kernel_tuning<T>().blocked_vectors;
    f.blocked_max_threads = 0;
    for (int b = 1024; b >= 32 && f.blocked_max_threads == 0; b -= 32)
      if (fits_shared_memory(blocked_kernel<KV, 1024, 1, T, Op>, blocked_layout<KV>::bytes(b))) f.blocked_max_threads = b;
  }
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) f.specialized_code = kernel_has_hopper_code(specialized_kernel_of<T, Op>());
  c.device = dev;
  c.facts = {&current_device_info(), f};
  return c.facts;
}

/// Clears the tree for `tiles` tiles and checks the grid fits one launch.
template <class T>
unsigned long long* prepare_tree(tree<T>& tr, std::int64_t tiles, arena& ws, cudaStream_t s) {
  check_launch_tiles(tiles, "decoupled-lookback");
  return carve_tree(tr, tiles, ws, s);
}

/// The one-launch path: one block walks every tile (R registers per thread).
template <int R, int V, bool Vec, class T, class Op>
void launch_one_block(const T* in, T* out, std::int64_t n, Op op, bool exclusive, T init, T* d_total, int block,
                      cudaStream_t s) {
  tile::single_block_scan_kernel<R, V, Vec><<<1, block, 0, s>>>(in, out, n, op, exclusive, init, d_total);
  SCANKIT_LAUNCH_CHECK("single_block_scan_kernel");
}

/// The striped register tile, or the one-launch path: R vectors (or items) per thread. The
/// look-back kernel is compiled for the tuned block size and blocks per SM when `block` is that
/// size, else for any block size up to 1024.
template <int R, int V, bool Vec, class T, class Op>
void launch_striped(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total, arena& ws,
                    const scan_plan& p, cudaStream_t s) {
  constexpr scan_tuning tu = kernel_tuning<T>();
  const bool exclusive = kind == scan_kind::exclusive;
  if (p.path == scan_path::one_launch) {
    if constexpr (Vec && (sizeof(T) == 4 || sizeof(T) == 8)) {
      if (p.wide_one_launch) {
        if (p.vectors == 1) launch_one_block<1, V, Vec>(in, out, n, op, exclusive, init, d_total, 1024, s);
        else launch_one_block<2, V, Vec>(in, out, n, op, exclusive, init, d_total, 1024, s);
        return;
      }
    }
    launch_one_block<R, V, Vec>(in, out, n, op, exclusive, init, d_total, p.block, s);
    return;
  }
  tree<T> tr;
  unsigned long long* counter = prepare_tree(tr, p.tiles, ws, s);
  constexpr bool raking = tu.striped_raking;
  const int smem = raking ? static_cast<int>(tile::raking_entries(R, p.block) * sizeof(T)) : 0;
  auto* kernel = p.block == tu.block_size
                     ? lookback_scan_kernel<R, V, Vec, raking, tu.block_size, tu.min_blocks_per_sm, T, Op>
                     : lookback_scan_kernel<R, V, Vec, raking, 1024, 1, T, Op>;
  allow_dynamic_shared_memory(kernel, static_cast<std::size_t>(smem));
  launch_after("launch of lookback_scan_kernel", kernel, static_cast<unsigned>(p.tiles), p.block, smem, s, in, out, n,
               op, exclusive, init, d_total, tr, counter, p.backoff_ns, p.prefetch);
}

/// The blocked tile (16-byte vectors, both pointers aligned), plain, one tile per SM or
/// windowed as the plan says.
template <class T, class Op>
void launch_blocked(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total, arena& ws,
                    const scan_plan& p, cudaStream_t s) {
  constexpr int KV = kernel_tuning<T>().blocked_vectors;
  tree<T> tr;
  unsigned long long* counter = prepare_tree(tr, p.tiles, ws, s);
  tr.level1_from_aggregates = p.level1_from_aggregates;
  tr.load_window = p.load_window;
  const int smem = blocked_layout<KV>::bytes(p.block);
  auto* kernel = blocked_kernel_for<T, Op>(p.block);
  allow_dynamic_shared_memory(kernel, static_cast<std::size_t>(smem));
  launch_after("launch of blocked_kernel", kernel, static_cast<unsigned>(p.tiles), p.block, smem, s, in, out, n, op,
               kind == scan_kind::exclusive, init, d_total, tr, counter, p.backoff_ns, p.first_delay_ns, p.prefetch);
}

/// The warp-specialized tile. Returns false, having done nothing, where a block does not fit
/// the device's shared memory or an SM.
template <class T, class Op>
bool launch_specialized(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total, arena& ws,
                        const scan_plan& p, cudaStream_t s) {
  constexpr specialized_shape sh = specialized_shape_for<sizeof(T)>();
  constexpr int threads = sh.consumers + 32 * sh.producers;
  auto* kernel = specialized_kernel_of<T, Op>();
  const int smem = sh.stages * sh.consumers * sh.vectors_per_thread * 16;
  if (!fits_shared_memory(kernel, static_cast<std::size_t>(smem))) return false;
  allow_dynamic_shared_memory(kernel, static_cast<std::size_t>(smem));
  const int per_sm = blocks_per_sm(kernel, threads, static_cast<std::size_t>(smem));
  if (per_sm == 0) return false;
  const std::int64_t grid = std::min<std::int64_t>(p.tiles, std::int64_t{per_sm} * current_device_info().sm_count);
  tree<T> tr;
  unsigned long long* counter = prepare_tree(tr, p.tiles, ws, s);
  launch_after("launch of specialized_kernel", kernel, static_cast<unsigned>(grid), threads, smem, s, in, out, n,
               p.tiles, op, kind == scan_kind::exclusive, init, d_total, tr, counter, p.backoff_ns);
  return true;
}

/// The scan: plan_scan picks the path, the launchers run it.
template <class T, class Op>
void run(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total, arena& ws, int block,
         const scan_config& cfg, cudaStream_t s) {
  if (n == 0) {
    if (d_total) store_value(d_total, init, s);
    return;
  }
  const scan_facts& facts = device_facts<T, Op>();
  scan_request req{n, sizeof(T), tile::vector_aligned(in, out), block, facts.kernels, cfg.tuning};
  scan_plan p = plan_scan(req, *facts.device);
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    if (p.path == scan_path::specialized) {
      if (launch_specialized(in, out, n, op, kind, init, d_total, ws, p, s)) return;
      req.kernels.specialized_fits = false;
      p = plan_scan(req, *facts.device);
    }
  }
  if constexpr (tile::vector_items<T>() * sizeof(T) == 16) {
    if (p.path == scan_path::blocked || p.path == scan_path::one_tile_per_sm || p.path == scan_path::windowed) {
      launch_blocked(in, out, n, op, kind, init, d_total, ws, p, s);
      return;
    }
  }
  constexpr int striped_vectors = kernel_tuning<T>().striped_vectors;
  tile::dispatch_vector_path<T>(in, out, [&]<int V, bool Vec>() {
    // Without 16-byte vectors the registers hold single items: 12 of them (the bytes of 3
    // vectors of 4-byte items).
    constexpr int R = Vec ? striped_vectors : 12;
    launch_striped<R, V, Vec>(in, out, n, op, kind, init, d_total, ws, p, s);
  });
}

}  // namespace scankit::cuda::detail::decoupled_lookback
