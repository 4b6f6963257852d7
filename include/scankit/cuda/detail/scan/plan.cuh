// decoupled-lookback's plan: which path runs for a call, as one pure function of the request and
// the device's description (plan_scan). The launch code runs the plan; the description printer
// (scan_tuning_description, scan_path_description) prints it. Host-only code: the plan is
// tested without a GPU (tests/cuda/test_cuda_plans.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/lookback/tree_geometry.cuh"
#include "scankit/cuda/detail/math.hpp"
#include "scankit/cuda/detail/scan/tuning.cuh"
#include "scankit/cuda/detail/scan/tuning_override.hpp"

namespace scankit::cuda::detail::decoupled_lookback {

using namespace lookback;

inline constexpr int default_block_size = 256;

/// What the compiled kernels can do on the device (the launcher asks the runtime; a host test
/// states them).
struct scan_kernels {
  bool specialized_code = false;  // the warp-specialized kernel carries Hopper code here
  bool specialized_fits = true;   // a block of it fits the device's shared memory and an SM
  int blocked_max_threads = 1024; // the widest blocked-tile block whose shared memory fits
  friend bool operator==(const scan_kernels&, const scan_kernels&) = default;
};

/// The call, as the plan sees it.
struct scan_request {
  std::int64_t n;
  std::size_t item_bytes;
  bool aligned;  // input and output 16-byte aligned
  int block;     // the resolved block size (scan_config::block_size, or the tuned 256)
  scan_kernels kernels{};
  scan_tuning_override tuning{};  // scan_config::tuning
};

/// The fewest items per thread of any tile a plan makes (the workspace counts tiles with it).
inline constexpr int min_tile_items_per_thread = 4;

/// Workspace of a scan of n items at `block_size` threads: the tile counter and the look-back
/// tree of the most tiles any plan makes for it (tiles of at least block_size x 4 items).
inline std::size_t workspace_bytes(std::int64_t n, std::size_t item_bytes, int block_size) {
  const std::int64_t min_tile = static_cast<std::int64_t>(block_size) * min_tile_items_per_thread;
  const std::int64_t tiles = ceil_div(n, min_tile);
  const std::size_t entry = 8 * ((item_bytes + 3) / 4);  // level_status: one word per 4 bytes
  std::size_t bytes = align_up(16);  // the tile counter and tree::landed
  const int levels = levels_for(tiles);
  for (int k = 0; k < levels; ++k)
    bytes += align_up(static_cast<std::size_t>(level_entries(tiles, k)) * entry) +
             2 * workspace_alignment;
  return bytes;
}

/// The plan: a path (never automatic) and everything its launch takes from the tuning.
struct scan_plan {
  scan_path path = scan_path::one_launch;
  bool wide_one_launch = false;  // one_launch: 1,024 threads x `vectors` 16-byte vectors
  int block = 0;                 // threads per block (specialized: consumers)
  int vectors = 0;               // per thread: registers (striped, one_launch) or row (blocked, specialized)
  int vector_items = 1;          // items per vector (1: the one-item path)
  std::int64_t tile_items = 0;
  std::int64_t tiles = 0;
  int load_window = 0;           // blocked: tiles' loads in flight (0: no window)
  bool level1_from_aggregates = false;
  bool prefetch = false;         // striped and blocked: guess prefetch of tile blockIdx.x
  unsigned first_delay_ns = 0;
  unsigned backoff_ns = 0;
  friend bool operator==(const scan_plan&, const scan_plan&) = default;
};

/// The load window forced by scan_path::windowed where neither the override nor the tuning has one.
inline constexpr int forced_load_window_tiles = 256;

namespace plan_detail {

inline int vector_items_of(std::size_t item_bytes) {
  return item_bytes <= 16 && 16 % item_bytes == 0 ? static_cast<int>(16 / item_bytes) : 1;
}

inline scan_plan one_launch(const scan_request& c, const scan_tuning& tu) {
  scan_plan p;
  p.path = scan_path::one_launch;
  const int V = vector_items_of(c.item_bytes);
  const bool vec = V > 1 && c.aligned;
  if (vec && tu.one_launch_wide_vectors > 0 && c.block == tu.block_size &&
      c.n <= std::int64_t{tu.one_launch_wide_vectors} * V) {
    p.wide_one_launch = true;
    p.block = 1024;
    p.vectors = c.n <= std::int64_t{1024} * V ? 1 : 2;
  } else {
    p.block = c.block;
    p.vectors = vec ? tu.striped_vectors : 12;
  }
  p.vector_items = vec ? V : 1;
  p.tile_items = std::int64_t{p.block} * p.vectors * p.vector_items;
  p.tiles = ceil_div(c.n, p.tile_items);
  return p;
}

inline scan_plan striped(const scan_request& c, const scan_tuning& tu) {
  scan_plan p;
  p.path = scan_path::striped;
  const int V = vector_items_of(c.item_bytes);
  const bool vec = V > 1 && c.aligned;
  p.block = c.block;
  p.vectors = vec ? tu.striped_vectors : 12;  // without vectors: 12 items (3 vectors of 4-byte items)
  p.vector_items = vec ? V : 1;
  p.tile_items = std::int64_t{p.block} * p.vectors * p.vector_items;
  p.tiles = ceil_div(c.n, p.tile_items);
  p.prefetch = p.tiles <= tu.prefetch_up_to_tiles;
  p.backoff_ns = tu.backoff_ns;
  return p;
}

/// The blocked tile at `block` threads, with `window` (0: none).
inline scan_plan blocked(const scan_request& c, const scan_tuning& tu, scan_path path, int block, int window) {
  scan_plan p;
  p.path = path;
  p.block = block;
  p.vectors = tu.blocked_vectors;
  p.vector_items = vector_items_of(c.item_bytes);
  p.tile_items = std::int64_t{block} * p.vectors * p.vector_items;
  p.tiles = ceil_div(c.n, p.tile_items);
  p.load_window = window > 0 && p.tiles > window ? window : 0;
  p.level1_from_aggregates = c.tuning.level1_from_aggregates && levels_for(p.tiles) == 2 &&
                             p.tiles <= runs_before_max_tiles(c.item_bytes);
  p.prefetch = p.tiles <= tu.prefetch_up_to_tiles;
  p.first_delay_ns = c.tuning.first_delay_ns.value_or(tu.first_delay_ns);
  p.backoff_ns = tu.backoff_ns;
  return p;
}

/// The fewest whole warps (at least `block`, at most `limit`) that make at most one tile per SM;
/// `block` where none does.
inline int one_tile_per_sm_threads(const scan_request& c, const scan_tuning& tu, const device_info& d, int limit) {
  const std::int64_t warp_items = std::int64_t{32} * tu.blocked_vectors * vector_items_of(c.item_bytes);
  const std::int64_t sms = std::max(1, d.sm_count);
  if (ceil_div(c.n, warp_items * (c.block / 32)) <= sms) return c.block;
  const std::int64_t threads = 32 * ceil_div(c.n, sms * warp_items);
  return threads <= limit && threads <= c.kernels.blocked_max_threads ? static_cast<int>(threads) : c.block;
}

}  // namespace plan_detail

/// Which path decoupled-lookback runs for `c` on `d` (n > 0), and its launch shape.
/// automatic, in order: the warp-specialized tile (4- and 8-byte items, aligned, tuned block,
/// Hopper code, from specialized_from_items), the blocked tile (16-byte vectors, aligned, from
/// blocked_from_items and more than one tile; one tile per SM or the load window where the
/// tuning asks), the one-launch path (up to one striped tile, or 2,048 vectors of 4- and 8-byte
/// items), the striped tile. A forced path that does not apply falls back to automatic.
inline scan_plan plan_scan(const scan_request& c, const device_info& d) {
  namespace pd = plan_detail;
  const scan_tuning tu = tuning_for_size(c.item_bytes, d);
  const int V = pd::vector_items_of(c.item_bytes);
  const bool blocked_ok = V * c.item_bytes == 16 && c.aligned;  // whole 16-byte vectors
  const bool tuned_block = c.block == tu.block_size;
  const specialized_shape sh = specialized_shape_for_size(c.item_bytes);
  const std::int64_t specialized_tile = std::int64_t{sh.consumers} * sh.vectors_per_thread * V;
  const std::int64_t specialized_tiles = sh.consumers > 0 ? ceil_div(c.n, specialized_tile) : 0;
  const bool specialized_ok = sh.consumers > 0 && blocked_ok && tuned_block && c.kernels.specialized_code &&
                              c.kernels.specialized_fits && specialized_tiles > 1 &&
                              levels_for(specialized_tiles) <= sh.consumers / 32;
  const scan_tuning_override& o = c.tuning;
  const int limit = o.one_tile_per_sm_up_to_threads.value_or(tu.one_tile_per_sm_up_to_threads);
  const int window = o.load_window_tiles.value_or(tu.load_window_tiles);

  auto specialized = [&] {
    scan_plan p;
    p.path = scan_path::specialized;
    p.block = sh.consumers;
    p.vectors = sh.vectors_per_thread;
    p.vector_items = V;
    p.tile_items = specialized_tile;
    p.tiles = specialized_tiles;
    p.backoff_ns = tu.backoff_ns;
    return p;
  };
  switch (o.path) {
    case scan_path::automatic: break;
    case scan_path::one_launch: return pd::one_launch(c, tu);
    case scan_path::striped: return pd::striped(c, tu);
    case scan_path::blocked:
      if (blocked_ok) return pd::blocked(c, tu, scan_path::blocked, c.block, 0);
      break;
    case scan_path::one_tile_per_sm:
      if (blocked_ok && tuned_block) {
        const int wide = pd::one_tile_per_sm_threads(c, tu, d, limit > 0 ? limit : 1024);
        return pd::blocked(c, tu, wide != c.block ? scan_path::one_tile_per_sm : scan_path::blocked, wide, 0);
      }
      break;
    case scan_path::windowed:
      if (blocked_ok && tuned_block) {
        const int w = window > 0 ? window : forced_load_window_tiles;
        scan_plan p = pd::blocked(c, tu, scan_path::windowed, c.block, w);
        if (p.load_window == 0) p.path = scan_path::blocked;  // no more tiles than the window
        return p;
      }
      break;
    case scan_path::specialized:
      if (specialized_ok) return specialized();
      break;
  }
  if (specialized_ok && c.n >= o.specialized_from_items.value_or(tu.specialized_from_items)) return specialized();
  if (blocked_ok && c.n >= o.blocked_from_items.value_or(tu.blocked_from_items) &&
      c.n > std::int64_t{tu.blocked_vectors} * c.block * V) {
    // Wider blocks only with the tuned block, where the limit allows (and the shared memory fits).
    const int wide = tuned_block && limit > c.block ? pd::one_tile_per_sm_threads(c, tu, d, limit) : c.block;
    if (wide != c.block) return pd::blocked(c, tu, scan_path::one_tile_per_sm, wide, 0);
    // The window counts tiles of the tuned size; a smaller block would leave too few bytes in
    // flight.
    scan_plan p = pd::blocked(c, tu, scan_path::blocked, c.block, tuned_block ? window : 0);
    if (p.load_window > 0) p.path = scan_path::windowed;
    return p;
  }
  scan_plan p = pd::one_launch(c, tu);
  if (p.wide_one_launch || p.tiles <= tu.one_launch_tiles) return p;
  return pd::striped(c, tu);
}

/// One line on a plan, e.g. "blocked: 768 threads x 8 vectors of 2 items = 12288 items per tile,
/// 171 tiles, load window 256".
inline std::string describe(const scan_plan& p) {
  std::string s = std::string(name(p.path)) + ": " + std::to_string(p.block) + " threads x " +
                  std::to_string(p.vectors) + (p.vector_items > 1 ? " vectors of " + std::to_string(p.vector_items) +
                                                                          " items"
                                                                    : std::string(" items")) +
                  " = " + std::to_string(p.tile_items) + " items per tile, " + std::to_string(p.tiles) +
                  (p.tiles == 1 ? " tile" : " tiles");
  if (p.path == scan_path::one_launch) return s + " in one block";
  if (p.load_window > 0) s += ", load window " + std::to_string(p.load_window);
  if (p.level1_from_aggregates) s += ", level 1 from the aggregates";
  if (p.prefetch) s += ", guess prefetch";
  if (p.first_delay_ns > 0) s += ", first delay " + std::to_string(p.first_delay_ns) + " ns";
  return s + ", back-off " + std::to_string(p.backoff_ns) + " ns";
}

}  // namespace scankit::cuda::detail::decoupled_lookback
