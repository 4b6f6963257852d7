// The CUDA radix sorts' host side: per path, the launches of its kernels over the workspace
// (onesweep per tile, the counting fill, the one-block sort, lsd-reduce-then-scan, split-1bit),
// and run_sort, which takes the value type and the plan's path (detail/sort/plan.cuh) to them.
// The public entry (scankit/cuda/sort.cuh) checks the arguments before calling run_sort.
#pragma once

#include <algorithm>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/sort/kernels.cuh"
#include "scankit/cuda/scan.hpp"
#include "scankit/cuda/sort.hpp"

namespace scankit::cuda::detail::radix {

/// Items per thread of the tile kernels for these element sizes (matches items_for<U, V>).
constexpr int items_for_bytes(std::size_t key_bytes, std::size_t value_bytes) {
  return std::max(key_bytes, value_bytes) <= 8 ? 16 : 8;
}
constexpr std::int64_t tile_for_bytes(std::size_t key_bytes, std::size_t value_bytes) {
  return 256 * items_for_bytes(key_bytes, value_bytes);
}
/// Tiles per onesweep launch: a portion's per-digit counts must fit the look-back word's 30
/// bits, so inputs of 2^30 keys or more are sorted a portion at a time, each portion's last
/// tile handing the running per-digit offsets to the next.
constexpr std::int64_t portion_tiles(std::int64_t tile) { return ((std::int64_t{1} << 30) - 1) / tile; }
/// The spine and split scans count in 64 bits (n may exceed 2^32).
using count_t = std::int64_t;
/// The scan the textbook sorts run over their counts.
inline scan_config spine_scan_config() {
  scan_config c;
  c.algorithm = scan_algorithm::decoupled_lookback;
  return c;
}
/// The histograms of every pass, then a counter of the histogram blocks that have finished.
inline constexpr std::size_t hist_bytes = max_passes * radix * sizeof(unsigned long long) + sizeof(unsigned long long);

/// Workspace bytes beyond the alternate buffers for the plan's path (the drivers take in the
/// same order).
inline std::size_t extra_workspace_bytes(std::int64_t n, std::size_t kb, std::size_t vb, const sort_plan& p) {
  const std::int64_t tile = tile_for_bytes(kb, vb);
  const std::int64_t tiles = ceil_div(n, tile);
  const std::size_t plan_bytes = align_up(hist_bytes) + align_up(sizeof(plan));
  const scan_config scan_cfg = spine_scan_config();
  switch (p.algorithm) {
    case sort_algorithm::onesweep: {
      // Look-back words for the main tile's tile count (no large tile is smaller), or the
      // reduced tile's where it stands in for main.
      const sort_tuning t = sort_tuning_for(kb, vb, p.tuning_arch);
      const std::int64_t ot = p.reduced ? t.reduced.tile() : t.main.tile();
      std::int64_t lookback_tiles = std::min(ceil_div(n, ot), portion_tiles(ot));
      // The small inputs' tile where it runs (n below its bound: 192 tiles at most). Reserved
      // for min(n, bound - 1) keys, so that the bytes never shrink as n grows: a workspace
      // sized for a larger n serves every smaller one. Forced at any n, it takes its own count.
      if (t.small.exists()) {
        const std::int64_t st = t.small.tile();
        lookback_tiles = std::max(lookback_tiles, ceil_div(std::min(n, t.small_below - 1), st));
        if (p.tile == sort_tile::small) lookback_tiles = std::max(lookback_tiles, std::min(ceil_div(n, st), portion_tiles(st)));
      }
      // Two arrays of look-back words (launches alternate between them).
      return plan_bytes + align_up(2 * radix * sizeof(unsigned long long)) +
             2 * align_up(static_cast<std::size_t>(lookback_header_words + lookback_tiles * radix) * sizeof(unsigned));
    }
    case sort_algorithm::lsd_reduce_then_scan:
      return plan_bytes + align_up(static_cast<std::size_t>(radix * tiles) * sizeof(count_t)) +
             scan_workspace_bytes(radix * tiles, sizeof(count_t), scan_cfg);
    case sort_algorithm::split_1bit:
      return align_up(static_cast<std::size_t>(n) * sizeof(count_t)) + align_up(sizeof(count_t)) +
             scan_workspace_bytes(n, sizeof(count_t), scan_cfg);
  }
  throw invalid_argument("scankit::cuda::sort: unknown algorithm");
}

/// The whole workspace: the alternate buffers of keys and values, then the path's tables. The
/// one-block sort works in shared memory and needs none.
inline std::size_t workspace_bytes(std::int64_t n, std::size_t kb, std::size_t vb, const sort_plan& p) {
  if (p.copy_only || p.tile == sort_tile::one_block) return 0;
  return align_up(static_cast<std::size_t>(n) * kb) + align_up(static_cast<std::size_t>(n) * vb) +
         extra_workspace_bytes(n, kb, vb, p);
}

template <class V>
V* take_values(arena& ws, std::int64_t n) {
  if constexpr (has_values<V>) return ws.take<V>(n);
  else return nullptr;
}

/// Blocks of the all-digits histogram: four waves of 3 blocks per SM, fewer for small n (4
/// vectors of keys a thread at least), each slice under 2^30 keys.
template <class U>
unsigned histogram_grid(std::int64_t n) {
  const std::int64_t waves = std::int64_t{12} * sort_device_info().sm_count;
  constexpr int block = histogram_shape<1>::block;
  const std::int64_t want = std::max<std::int64_t>(
      std::min<std::int64_t>(ceil_div(n * static_cast<std::int64_t>(sizeof(U)), block * 64), waves),
      ceil_div(n, std::int64_t{1} << 30));
  return grid_for(want);
}

/// The histograms and the plan. Zeroes zero_bytes (>= hist_bytes) from hist on first (a
/// kernel, so that the histogram kernel can follow it as a programmatic dependent): the
/// histograms, the finished-blocks counter, and whatever the caller placed right after them.
template <key_kind Kind, class U, int Parts = histogram_parts_default<U>>
void histogram_and_plan(const U* keys, std::int64_t n, int passes, const sort_options& opts, int begin,
                        int end, bool in_place, unsigned long long* hist, std::size_t zero_bytes, plan* pl,
                        cudaStream_t s) {
  unsigned* blocks_done = reinterpret_cast<unsigned*>(hist + max_passes * radix);
  clear_async(hist, zero_bytes, s);
  using shape = histogram_shape<Parts>;
  const std::size_t smem = shape::smem(passes);
  allow_dynamic_shared_memory(histogram_kernel<Kind, U, Parts>, smem);
  launch_after("launch of radix::histogram_kernel", histogram_kernel<Kind, U, Parts>, histogram_grid<U>(n), shape::block,
               smem, s, keys, n, passes, opts, begin, end, hist, blocks_done, in_place, pl);
}

/// Only an in-place sort can end in the alternate buffer (make_plan), so other sorts skip the
/// launch. Such a sort ends with onesweep_kernel, which lets its dependents launch early: a
/// caller's programmatic dependent must wait for it (griddepcontrol.wait), as CUDA requires
/// anyway.
template <class U, class V>
void final_copy(const plan* pl, const buffers<U, V>& buf, std::int64_t n, bool in_place, cudaStream_t s) {
  if (!in_place) return;
  launch_after("launch of radix::final_copy_kernel", final_copy_kernel<U, V>, grid_for(ceil_div(n, 256), 4096), 256,
               0, s, pl, buf, n);
}

/// onesweep at one tile: the histograms and the plan, then per digit pass one onesweep_kernel
/// launch per portion of at most 2^30 keys.
template <key_kind Kind, class U, class V, onesweep_shape shape>
void run_onesweep_tile(const sort_request& r, const buffers<U, V>& buf, int begin, int end, int passes,
                        bool in_place, arena& ws) {
  constexpr std::int64_t tile = shape.tile();
  auto kernel = onesweep_kernel_for<Kind, U, V, shape>;
  constexpr std::size_t smem = onesweep_smem_bytes<U, V, shape>;
  allow_dynamic_shared_memory(kernel, smem);  // static shared memory comes on top of smem
  const std::int64_t n = r.n;
  cudaStream_t s = r.stream;
  // The histograms and the first launch's look-back words are adjacent: one clear zeroes both;
  // after that each launch clears the other array for the next one (or the host does).
  const std::int64_t ptiles = portion_tiles(tile);
  const std::int64_t state_tiles = std::min(ceil_div(n, tile), ptiles);
  const std::int64_t words_per_state = lookback_header_words + state_tiles * radix;
  auto* hist = reinterpret_cast<unsigned long long*>(ws.take<char>(hist_bytes));
  unsigned* state[2];
  state[0] = ws.take<unsigned>(words_per_state);
  state[1] = ws.take<unsigned>(words_per_state);
  auto* pl = ws.take<plan>(1);
  auto* base = ws.take<unsigned long long>(2 * radix);
  constexpr int parts = histogram_parts_within<U>(static_cast<std::size_t>(shape.min_blocks) * smem);
  histogram_and_plan<Kind, U, parts>(buf.keys[0], n, passes, r.options, begin, end, in_place, hist,
                                     align_up(hist_bytes) + sizeof(unsigned) * words_per_state, pl, s);
  const std::int64_t portion = ptiles * tile;
  const std::int64_t portions = ceil_div(n, portion);
  const auto tiles_of = [&](std::int64_t q) { return ceil_div(std::min(n, (q + 1) * portion) - q * portion, tile); };
  int launch = 0;
  for (int p = 0; p < passes; ++p) {
    const auto dig = make_digit<Kind, U>(r.options, begin, end, p);
    for (std::int64_t pb = 0, q = 0; pb < n; pb += portion, ++q, ++launch) {
      const std::int64_t pe = std::min(n, pb + portion);
      const std::int64_t tiles = tiles_of(q);
      const bool last = p == passes - 1 && q == portions - 1;
      const std::int64_t next_tiles = last ? 0 : tiles_of((q + 1) % portions);
      // A launch clears the next one's words when it has at least as many blocks as that one
      // has tiles; a small last portion before a full one (n >= 2^30) leaves it to the host,
      // or its few blocks would clear a whole portion's words.
      const bool kernel_clears = next_tiles <= tiles;
      const unsigned long long* base_in = q == 0 ? hist + p * radix : base + ((q - 1) % 2) * radix;
      unsigned* now = state[launch % 2];
      unsigned* next = state[(launch + 1) % 2];
      launch_after("launch of radix::onesweep_kernel", kernel, static_cast<unsigned>(tiles), shape.block, smem, s, pl,
                   p, buf, pb, pe, dig, lookback_words{now, now + lookback_header_words},
                   lookback_words{next, next + lookback_header_words}, kernel_clears ? next_tiles : std::int64_t{-1},
                   base_in, base + (q % 2) * radix, segment_table{});
      if (!kernel_clears)
        clear_async(next, sizeof(unsigned) * static_cast<std::size_t>(lookback_header_words + next_tiles * radix), s);
    }
  }
  final_copy(pl, buf, n, in_place, s);
}

/// One-byte keys alone over their whole width: histogram, then counting_fill_kernel.
template <key_kind Kind, class U>
void run_counting_fill(const sort_request& r, const U* in, U* out, arena& ws) {
  auto* hist = reinterpret_cast<unsigned long long*>(ws.take<char>(hist_bytes));
  auto* pl = ws.take<plan>(1);
  histogram_and_plan<Kind, U>(in, r.n, 1, r.options, 0, 8, false, hist, hist_bytes, pl, r.stream);
  const U flip = r.options.descending ? static_cast<U>(~U{0}) : U{0};
  launch_after("launch of radix::counting_fill_kernel", counting_fill_kernel<Kind, U>,
               grid_for(ceil_div(r.n, 256 * 16), 4096), 256, 0, r.stream, hist, flip, out, r.n);
}

/// onesweep at the plan's tile (every tile a plan can name is instantiated for U and V).
template <key_kind Kind, class U, class V>
void run_onesweep(const sort_request& r, const buffers<U, V>& buf, int begin, int end, int passes, bool in_place,
                  arena& ws, const sort_plan& pl) {
  constexpr sort_tuning t = sort_tuning_for(sizeof(U), has_values<V> ? sizeof(V) : 0, tuned_arch);
  switch (pl.tile) {
    case sort_tile::counting:
      if constexpr (sizeof(U) == 1 && !has_values<V>) return run_counting_fill<Kind, U>(r, buf.keys[0], buf.keys[1], ws);
      break;
    case sort_tile::small:
      if constexpr (t.small.exists()) return run_onesweep_tile<Kind, U, V, t.small>(r, buf, begin, end, passes, in_place, ws);
      break;
    case sort_tile::large:
      if constexpr (t.large.exists()) return run_onesweep_tile<Kind, U, V, t.large>(r, buf, begin, end, passes, in_place, ws);
      break;
    case sort_tile::main:
      if constexpr (t.reduced.exists())
        if (pl.reduced) return run_onesweep_tile<Kind, U, V, t.reduced>(r, buf, begin, end, passes, in_place, ws);
      return run_onesweep_tile<Kind, U, V, t.main>(r, buf, begin, end, passes, in_place, ws);
    default: break;
  }
  throw error("scankit internal error: the sort plan names a onesweep tile these keys do not have");
}

template <key_kind Kind, class U, class V>
void run_reduce_then_scan(const sort_request& r, const buffers<U, V>& buf, int begin, int end, int passes,
                          bool in_place, arena& ws) {
  constexpr int items = items_for<U, V>();
  constexpr std::int64_t tile = 256 * items;
  const std::int64_t n = r.n;
  cudaStream_t s = r.stream;
  auto* hist = reinterpret_cast<unsigned long long*>(ws.take<char>(hist_bytes));
  auto* pl = ws.take<plan>(1);
  const std::int64_t tiles = ceil_div(n, tile);
  auto* counts = ws.take<count_t>(radix * tiles);
  const scan_config scan_cfg = spine_scan_config();
  const std::size_t scan_bytes = scan_workspace_bytes(radix * tiles, sizeof(count_t), scan_cfg);
  void* scan_ws = scan_bytes ? ws.take<char>(static_cast<std::int64_t>(scan_bytes)) : nullptr;
  histogram_and_plan<Kind, U>(buf.keys[0], n, passes, r.options, begin, end, in_place, hist, hist_bytes, pl, s);
  const unsigned grid = grid_for(tiles, 65535);
  const key_buffers<U> keys3{{buf.keys[0], buf.keys[1], buf.keys[2]}};
  for (int p = 0; p < passes; ++p) {
    const auto dig = make_digit<Kind, U>(r.options, begin, end, p);
    upsweep_kernel<Kind, U, count_t, items><<<grid, 256, 0, s>>>(pl, p, keys3, n, dig, counts, tiles);
    SCANKIT_LAUNCH_CHECK("radix::upsweep_kernel");
    scan(counts, counts, radix * tiles, sum<count_t>{}, scan_kind::exclusive, count_t{0}, scan_ws,
         scan_bytes, s, scan_cfg);
    downsweep_kernel<Kind, U, V, count_t, items><<<grid, 256, 0, s>>>(pl, p, buf, n, dig, counts, tiles);
    SCANKIT_LAUNCH_CHECK("radix::downsweep_kernel");
  }
  final_copy(pl, buf, n, in_place, s);
}

template <key_kind Kind, class U, class V>
void run_split(const sort_request& r, const buffers<U, V>& buf, int begin, int end, bool in_place,
               arena& ws) {
  const std::int64_t n = r.n;
  cudaStream_t s = r.stream;
  auto* flags = ws.take<count_t>(n);
  auto* zeros = ws.take<count_t>(1);
  const scan_config scan_cfg = spine_scan_config();
  const std::size_t scan_bytes = scan_workspace_bytes(n, sizeof(count_t), scan_cfg);
  void* scan_ws = scan_bytes ? ws.take<char>(static_cast<std::int64_t>(scan_bytes)) : nullptr;
  // Every bit is a pass (no skipping: this is the textbook algorithm); alternate between the
  // output and the alternate buffer so that the last pass writes the output.
  const int bits = end - begin;
  int next = bits % 2 == 1 ? 1 : 2;
  bool copy_back = false;
  if (in_place && next == 1) next = 2, copy_back = true;
  int cur = 0;
  const unsigned grid = grid_for(ceil_div(n, 256), 8192);
  for (int b = 0; b < bits; ++b) {
    const auto bit = digit_of<Kind, U>::make(r.options.descending ? static_cast<U>(~U{0}) : U{0}, begin + b, 1u);
    split_flags_kernel<Kind, U, count_t><<<grid, 256, 0, s>>>(buf.keys[cur], n, bit, flags);
    SCANKIT_LAUNCH_CHECK("radix::split_flags_kernel");
    scan(flags, flags, n, sum<count_t>{}, scan_kind::exclusive, count_t{0}, scan_ws, scan_bytes, s,
         scan_cfg, zeros);
    split_kernel<Kind, U, V, count_t><<<grid, 256, 0, s>>>(buf.keys[cur], buf.keys[next], buf.values[cur],
                                                          buf.values[next], buf.index_values && cur == 0,
                                                          n, bit, flags, zeros);
    SCANKIT_LAUNCH_CHECK("radix::split_kernel");
    cur = next;
    next = cur == 1 ? 2 : 1;
  }
  if (copy_back) {
    SCANKIT_CUDA_CHECK(cudaMemcpyAsync(buf.keys[1], buf.keys[2], sizeof(U) * n, cudaMemcpyDeviceToDevice, s));
    if constexpr (has_values<V>)
      SCANKIT_CUDA_CHECK(cudaMemcpyAsync(buf.values[1], buf.values[2], sizeof(V) * n, cudaMemcpyDeviceToDevice, s));
  }
}

/// n <= Block * Items: one block, one launch (small_sort_kernel).
template <key_kind Kind, class U, class V, int Block, int Items>
void run_one_block_shape(const sort_request& r, const buffers<U, V>& buf, int begin, int end, int passes) {
  auto kernel = small_sort_kernel<Kind, U, V, Block, Items>;
  constexpr std::size_t smem = sizeof(small_sort_storage<U, V, Block, Items>);
  allow_dynamic_shared_memory(kernel, smem);
  kernel<<<1, Block, smem, r.stream>>>(buf.keys[0], buf.keys[1], buf.values[0], buf.values[1], r.index_values,
                                       static_cast<int>(r.n), r.options, begin, end, passes);
  SCANKIT_LAUNCH_CHECK("radix::small_sort_kernel");
}

/// The one-block sort at the plan's shape (one_block_shape_for's: 256 threads with the fewest
/// items that hold n, then 512 and 1,024 threads with the most).
template <key_kind Kind, class U, class V>
void run_one_block(const sort_request& r, const buffers<U, V>& buf, int begin, int end, int passes,
                   const sort_plan& pl) {
  constexpr int most = sort_tuning_for(sizeof(U), has_values<V> ? sizeof(V) : 0, tuned_arch).one_block_items;
  constexpr int b = one_block_threads_min, eight = std::min(8, most);
  if (pl.block == b && pl.items == 1) return run_one_block_shape<Kind, U, V, b, 1>(r, buf, begin, end, passes);
  if (pl.block == b && pl.items == 2) return run_one_block_shape<Kind, U, V, b, 2>(r, buf, begin, end, passes);
  if (pl.block == b && pl.items == 4) return run_one_block_shape<Kind, U, V, b, 4>(r, buf, begin, end, passes);
  if (pl.block == b && pl.items == eight) return run_one_block_shape<Kind, U, V, b, eight>(r, buf, begin, end, passes);
  if (pl.block == b) return run_one_block_shape<Kind, U, V, b, most>(r, buf, begin, end, passes);
  if (pl.block == 2 * b) return run_one_block_shape<Kind, U, V, 2 * b, most>(r, buf, begin, end, passes);
  return run_one_block_shape<Kind, U, V, one_block_threads_max, most>(r, buf, begin, end, passes);
}

template <class K, class V>
void run(const sort_request& r, int begin, int end) {
  using U = typename radix_traits<K>::bits_t;
  constexpr key_kind kind = radix_traits<K>::kind;
  const std::int64_t n = r.n;
  [[maybe_unused]] cudaStream_t s = r.stream;
  if (n == 0) return;
  buffers<U, V> buf{};
  buf.keys[0] = const_cast<U*>(static_cast<const U*>(r.keys_in));
  buf.keys[1] = static_cast<U*>(r.keys_out);
  if constexpr (has_values<V>) {
    buf.values[0] = const_cast<V*>(static_cast<const V*>(r.values_in));
    buf.values[1] = static_cast<V*>(r.values_out);
  }
  buf.index_values = r.index_values;
  buf.discard_keys = r.discard_keys;
  const bool in_place = buf.keys[0] == buf.keys[1] ||
                        (has_values<V> && !r.index_values && buf.values[0] == buf.values[1]);
  const int passes = (end - begin + digit_bits - 1) / digit_bits;
  const sort_plan pl = plan_for(n, sizeof(U), has_values<V> ? sizeof(V) : 0, begin, end, r.config, sort_device_info());

  if constexpr (widens<V>) {
    // narrow_positions chose a onesweep tile: only onesweep is instantiated for these values.
    if (pl.copy_only || r.config.algorithm != sort_algorithm::onesweep || pl.tile == sort_tile::one_block)
      throw error("scankit internal error: 32-bit argsort positions on a path without them");
    arena ws(r.workspace, r.workspace_bytes);
    buf.keys[2] = ws.take<U>(n);
    buf.values[2] = take_values<V>(ws, n);
    return run_onesweep<kind, U, V>(r, buf, begin, end, passes, in_place, ws, pl);
  } else {
    if (pl.copy_only) {  // n == 1 or an empty bit range: nothing moves
      if (buf.keys[1] != buf.keys[0])
        SCANKIT_CUDA_CHECK(cudaMemcpyAsync(buf.keys[1], buf.keys[0], sizeof(U) * n, cudaMemcpyDeviceToDevice, s));
      if constexpr (has_values<V>) {
        if (r.index_values) {
          fill_index_kernel<V><<<grid_for(ceil_div(n, 256), 4096), 256, 0, s>>>(buf.values[1], n);
          SCANKIT_LAUNCH_CHECK("radix::fill_index_kernel");
        } else if (buf.values[1] != buf.values[0]) {
          SCANKIT_CUDA_CHECK(cudaMemcpyAsync(buf.values[1], buf.values[0], sizeof(V) * n, cudaMemcpyDeviceToDevice, s));
        }
      }
      return;
    }
    if (pl.tile == sort_tile::one_block) return run_one_block<kind, U, V>(r, buf, begin, end, passes, pl);
    arena ws(r.workspace, r.workspace_bytes);
    buf.keys[2] = ws.take<U>(n);
    buf.values[2] = take_values<V>(ws, n);
    switch (r.config.algorithm) {
      case sort_algorithm::onesweep: return run_onesweep<kind, U, V>(r, buf, begin, end, passes, in_place, ws, pl);
      case sort_algorithm::lsd_reduce_then_scan:
        return run_reduce_then_scan<kind, U, V>(r, buf, begin, end, passes, in_place, ws);
      case sort_algorithm::split_1bit: return run_split<kind, U, V>(r, buf, begin, end, in_place, ws);
    }
  }
}

/// The sort at the value type of r.value_bytes; int64 argsort positions carried as 32 bits
/// where `narrow` (narrow_positions).
template <class K>
void run_sort(const sort_request& r, int begin, int end, bool narrow) {
  switch (r.value_bytes) {
    case 0: return run<K, no_value>(r, begin, end);
    case 4: return run<K, blob_of<4>::type>(r, begin, end);
    case 8:
      if (narrow) return run<K, narrow_index>(r, begin, end);
      return run<K, blob_of<8>::type>(r, begin, end);
    case 16: return run<K, blob_of<16>::type>(r, begin, end);
  }
}

}  // namespace scankit::cuda::detail::radix
