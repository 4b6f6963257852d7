// The CUDA sorts' definitions (instantiated by the library in src/cuda/sort_<key>.cu).
//
// Layering: sort_device() (checks arguments) -> value size dispatch -> plan_for (which path:
// detail/sort/dispatch.cuh) -> the path's host driver below -> its kernels (detail/sort/*.cuh).
#pragma once

#include <algorithm>

#include "scankit/cuda/detail/common.cuh"
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

/// Blocks of the all-digits histogram: four waves of 3 blocks per SM (better than 1 wave or
/// 2,048 blocks' worth on the H100), fewer for small n (4 vectors of keys a thread at least),
/// each slice under 2^30 keys.
template <class U>
unsigned histogram_grid(std::int64_t n) {
  const std::int64_t waves = std::int64_t{12} * device_sm_count();
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
  const sort_plan pl = plan_for(n, sizeof(U), has_values<V> ? sizeof(V) : 0, begin, end, r.config, current_device_limits());

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

// ---- the radix sort of scankit::dist: split by the top digit, then sort each bucket ----

/// The main tile (its reduced stand-in where the device's shared memory does not hold main):
/// f(std::integral_constant<onesweep_shape, tile>{}).
template <class U, class V, class F>
decltype(auto) with_main_tile(F&& f) {
  constexpr sort_tuning t = sort_tuning_for(sizeof(U), has_values<V> ? sizeof(V) : 0, tuned_arch);
  if constexpr (t.reduced.exists()) {
    if (onesweep_smem_bytes<U, V, t.main> + static_shared_reserve > current_device_limits().shared_per_block)
      return f(std::integral_constant<onesweep_shape, t.reduced>{});
  }
  return f(std::integral_constant<onesweep_shape, t.main>{});
}

/// The smallest tile with_main_tile may take (the look-back words are sized by it).
constexpr std::int64_t smallest_main_tile(std::size_t key_bytes, std::size_t value_bytes) {
  const sort_tuning t = sort_tuning_for(key_bytes, value_bytes, tuned_arch);
  return t.reduced.exists() ? std::min(t.main.tile(), t.reduced.tile()) : t.main.tile();
}

/// Writes a plan on the device (a kernel argument, so no host memory is involved).
/// (A template: defined in a header that several translation units include.)
template <int = 0>
__global__ void write_plan_kernel(plan* out, plan value) { *out = value; }

template <key_kind Kind, class U>
const unsigned long long* run_top_digit_starts(const U* keys, std::int64_t n, const sort_options& opts, arena& ws,
                                               cudaStream_t s) {
  constexpr int bits = static_cast<int>(sizeof(U)) * 8;
  auto* hist = reinterpret_cast<unsigned long long*>(ws.take<char>(hist_bytes));
  auto* pl = ws.take<plan>(1);
  if (n == 0) {
    clear_async(hist, radix * sizeof(unsigned long long), s);
    return hist;
  }
  // One pass over bits [bits - 8, bits): its histogram, scanned into the digits' starts.
  histogram_and_plan<Kind, U>(keys, n, 1, opts, bits - digit_bits, bits, false, hist, hist_bytes, pl, s);
  return hist;
}

template <key_kind Kind, class U, class V, onesweep_shape shape>
void run_split_by_top_digit(const top_digit_split& r) {
  constexpr int bits = static_cast<int>(sizeof(U)) * 8, top = bits / digit_bits - 1;
  constexpr std::int64_t tile = shape.tile();
  auto kernel = onesweep_kernel_for<Kind, U, V, shape>;
  constexpr std::size_t smem = onesweep_smem_bytes<U, V, shape>;
  allow_dynamic_shared_memory(kernel, smem);
  const std::int64_t tiles = ceil_div(r.n, tile);
  arena ws(r.workspace, r.workspace_bytes);
  ws.take<char>(hist_bytes);  // top_digit_starts' words
  ws.take<plan>(1);
  auto* pl = ws.take<plan>(1);
  auto* base_out = ws.take<unsigned long long>(radix);
  unsigned* words = ws.take<unsigned>(lookback_header_words + tiles * radix);
  plan p{};
  p.active[top] = 1, p.src[top] = 0, p.dst[top] = 1, p.raw_out[top] = 1;
  write_plan_kernel<><<<1, 1, 0, r.stream>>>(pl, p);
  SCANKIT_LAUNCH_CHECK("radix::write_plan_kernel");
  clear_async(words, sizeof(unsigned) * static_cast<std::size_t>(lookback_header_words + tiles * radix), r.stream);
  buffers<U, V> buf{};
  buf.keys[0] = const_cast<U*>(static_cast<const U*>(r.keys_in));
  buf.keys[1] = static_cast<U*>(r.keys_out);
  if constexpr (has_values<V>) {
    buf.values[0] = const_cast<V*>(static_cast<const V*>(r.values_in));
    buf.values[1] = static_cast<V*>(r.values_out);
  }
  launch_after("launch of radix::onesweep_kernel (top digit)", kernel, static_cast<unsigned>(tiles), shape.block, smem,
               r.stream, pl, top, buf, std::int64_t{0}, r.n, make_digit<Kind, U>(r.options, 0, bits, top),
               lookback_words{words, words + lookback_header_words}, lookback_words{nullptr, nullptr}, std::int64_t{-1},
               r.digit_base, base_out, segment_table{});
}

/// The tables of a bucket sort, staged in pinned host memory and copied to the workspace in
/// one transfer: the first pass's segments (the pieces, bucket-major), the later passes' (the
/// buckets), their destinations, and the plan.
struct bucket_tables {
  std::int64_t* first_tile;  // pieces + 1, then buckets + 1
  std::int64_t* begin;       // pieces, then buckets
  std::int64_t* end;
  void** key_dst;            // pieces (first pass), then buckets x 3 (alternate 0, alternate 1, final)
  void** value_dst;
  plan* pl;
  static std::size_t bytes(int buckets, int pieces) {
    const std::size_t segs = static_cast<std::size_t>(buckets) * static_cast<std::size_t>(pieces);
    const std::size_t b = static_cast<std::size_t>(buckets);
    return 3 * align_up(sizeof(std::int64_t) * (segs + b + 2)) + 2 * align_up(sizeof(void*) * (segs + 3 * b)) +
           align_up(sizeof(plan));
  }
  static bucket_tables at(void* base, int buckets, int pieces) {
    arena a(base, bytes(buckets, pieces));
    const std::int64_t segs = static_cast<std::int64_t>(buckets) * pieces;
    bucket_tables t;
    t.first_tile = a.take<std::int64_t>(segs + buckets + 2);
    t.begin = a.take<std::int64_t>(segs + buckets + 2);
    t.end = a.take<std::int64_t>(segs + buckets + 2);
    t.key_dst = a.take<void*>(segs + 3 * buckets);
    t.value_dst = a.take<void*>(segs + 3 * buckets);
    t.pl = a.take<plan>(1);
    return t;
  }
};

template <key_kind Kind, class U, class V, onesweep_shape shape>
void run_bucket_sort(const bucket_sort& r) {
  constexpr int bits = static_cast<int>(sizeof(U)) * 8, passes = bits / digit_bits - 1;
  static_assert(passes >= 1, "the bucket sort is for keys of 2 bytes or more");
  // An odd number of passes ends reading r.keys, so the last pass may write into keys_alt.
  static_assert(passes % 2 == 1, "the bucket sort's passes alternate between two buffers");
  constexpr std::int64_t tile = shape.tile();
  auto kernel = onesweep_kernel_for<Kind, U, V, shape, true>;
  constexpr std::size_t smem = onesweep_smem_bytes<U, V, shape>;
  allow_dynamic_shared_memory(kernel, smem);
  cudaStream_t s = r.stream;
  const int B = r.buckets, J = r.pieces, segs = B * J;
  const auto ub = [](int i) { return static_cast<std::size_t>(i); };

  // ---- the tables, on the host ----
  auto h = bucket_tables::at(r.staging, B, J);
  std::vector<std::int64_t> bucket_start(ub(B) + 1, 0);
  for (int b = 0; b < B; ++b) {
    std::int64_t total = 0;
    for (int j = 0; j < J; ++j) total += r.piece_count[ub(b * J + j)];
    bucket_start[ub(b) + 1] = bucket_start[ub(b)] + total;
  }
  const std::int64_t n = bucket_start[ub(B)];
  if (n == 0) return;
  U* alt_keys[2] = {static_cast<U*>(r.keys_alt), static_cast<U*>(r.keys)};
  V* alt_values[2] = {static_cast<V*>(r.values_alt), static_cast<V*>(r.values)};
  // First pass: piece (b, j) from its offset to bucket b's place in alternate 0 (or its final
  // destination when it is the only pass).
  std::int64_t tiles0 = 0;
  for (int b = 0; b < B; ++b)
    for (int j = 0; j < J; ++j) {
      const int i = b * J + j;
      h.first_tile[i] = tiles0;
      h.begin[i] = r.piece_offset[ub(i)];
      h.end[i] = r.piece_offset[ub(i)] + r.piece_count[ub(i)];
      tiles0 += ceil_div(r.piece_count[ub(i)], tile);
      h.key_dst[i] = passes == 1 ? r.key_dst[b] : static_cast<void*>(alt_keys[0] + bucket_start[ub(b)]);
      h.value_dst[i] = !has_values<V>   ? nullptr
                       : passes == 1    ? r.value_dst[b]
                                        : static_cast<void*>(alt_values[0] + bucket_start[ub(b)]);
    }
  h.first_tile[segs] = tiles0;
  // Later passes: bucket b from its place in the alternate read to its place in the other one,
  // or (the last pass) to its destination.
  std::int64_t tiles1 = 0;
  for (int b = 0; b < B; ++b) {
    h.first_tile[segs + 1 + b] = tiles1;
    h.begin[segs + 1 + b] = bucket_start[ub(b)];
    h.end[segs + 1 + b] = bucket_start[ub(b) + 1];
    tiles1 += ceil_div(bucket_start[ub(b) + 1] - bucket_start[ub(b)], tile);
    for (int a = 0; a < 2; ++a) {
      h.key_dst[segs + a * B + b] = alt_keys[a] + bucket_start[ub(b)];
      h.value_dst[segs + a * B + b] = has_values<V> ? static_cast<void*>(alt_values[a] + bucket_start[ub(b)]) : nullptr;
    }
    h.key_dst[segs + 2 * B + b] = r.key_dst[b];
    h.value_dst[segs + 2 * B + b] = has_values<V> ? r.value_dst[b] : nullptr;
  }
  h.first_tile[segs + 1 + B] = tiles1;
  // The first pass reads the raw keys (buffer 0); later ones the alternates (buffer 2), as
  // sortable bits where the kernel holds them so; the last writes raw keys.
  *h.pl = plan{};
  for (int k = 0; k < passes; ++k) {
    h.pl->active[k] = 1;
    h.pl->src[k] = k == 0 ? 0 : 2;
    h.pl->dst[k] = 1;
    h.pl->raw_out[k] = k == passes - 1 ? 1 : 0;
  }

  // ---- the workspace ----
  arena ws(r.workspace, r.workspace_bytes);
  const std::size_t table_bytes = bucket_tables::bytes(B, J);
  void* tables = ws.take<char>(static_cast<std::int64_t>(table_bytes));
  const auto d = bucket_tables::at(tables, B, J);
  const std::int64_t max_tiles = std::max(tiles0, tiles1);
  int* map0 = ws.take<int>(std::max<std::int64_t>(tiles0, 1));
  int* map1 = ws.take<int>(std::max<std::int64_t>(tiles1, 1));
  unsigned* hist = ws.take<unsigned>(static_cast<std::int64_t>(segs) * passes * radix);
  auto* first_bases = ws.take<unsigned long long>(static_cast<std::int64_t>(segs) * radix);
  auto* later_bases = ws.take<unsigned long long>(std::max(1, (passes - 1) * B) * std::int64_t{radix});
  const std::int64_t words_per_state = lookback_header_words + max_tiles * radix;
  unsigned* state[2] = {ws.take<unsigned>(words_per_state), ws.take<unsigned>(words_per_state)};
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(tables, r.staging, table_bytes, cudaMemcpyHostToDevice, s));
  clear_async(hist, sizeof(unsigned) * static_cast<std::size_t>(segs) * passes * radix, s);
  clear_async(state[0], sizeof(unsigned) * static_cast<std::size_t>(lookback_header_words + tiles0 * radix), s);

  // ---- the pieces' counts, the offsets ----
  tile_segments_kernel<><<<grid_for(segs, 4096), 256, 0, s>>>(d.first_tile, segs, map0);
  SCANKIT_LAUNCH_CHECK("radix::tile_segments_kernel");
  tile_segments_kernel<><<<grid_for(B, 4096), 256, 0, s>>>(d.first_tile + segs + 1, B, map1);
  SCANKIT_LAUNCH_CHECK("radix::tile_segments_kernel");
  const segment_table first{map0, d.first_tile, d.begin, d.end, first_bases, d.key_dst, d.value_dst};
  const std::size_t hist_smem = sizeof(unsigned) * passes * radix * segment_histogram_copies(passes);
  segment_histogram_kernel<Kind, U><<<grid_for(std::min<std::int64_t>(tiles0, 8 * device_sm_count())), 256, hist_smem, s>>>(
      static_cast<const U*>(r.keys), first, tiles0, tile, passes, r.options, hist);
  SCANKIT_LAUNCH_CHECK("radix::segment_histogram_kernel");
  bucket_bases_kernel<><<<B, radix, 0, s>>>(hist, B, J, passes, first_bases, later_bases);
  SCANKIT_LAUNCH_CHECK("radix::bucket_bases_kernel");

  // ---- the passes ----
  for (int k = 0; k < passes; ++k) {
    const bool last = k == passes - 1;
    const std::int64_t tiles = k == 0 ? tiles0 : tiles1, next_tiles = last ? 0 : tiles1;
    segment_table t = first;
    if (k > 0) {
      const int dst_table = last ? 2 : k % 2;
      t = segment_table{map1,
                        d.first_tile + segs + 1,
                        d.begin + segs + 1,
                        d.end + segs + 1,
                        later_bases + static_cast<std::int64_t>(k - 1) * B * radix,
                        d.key_dst + segs + dst_table * B,
                        d.value_dst + segs + dst_table * B};
    }
    buffers<U, V> buf{};
    buf.keys[0] = static_cast<U*>(r.keys);
    buf.keys[2] = k == 0 ? nullptr : alt_keys[(k - 1) % 2];
    if constexpr (has_values<V>) {
      buf.values[0] = static_cast<V*>(r.values);
      buf.values[2] = k == 0 ? nullptr : alt_values[(k - 1) % 2];
    }
    // A launch clears the next one's words when it has at least as many blocks.
    const bool kernel_clears = next_tiles <= tiles;
    unsigned* now = state[k % 2];
    unsigned* next = state[(k + 1) % 2];
    if (tiles > 0)
      launch_after("launch of radix::onesweep_kernel (segmented)", kernel, static_cast<unsigned>(tiles), shape.block,
                   smem, s, d.pl, k, buf, std::int64_t{0}, std::int64_t{0}, make_digit<Kind, U>(r.options, 0, bits, k),
                   lookback_words{now, now + lookback_header_words}, lookback_words{next, next + lookback_header_words},
                   kernel_clears && tiles > 0 ? next_tiles : std::int64_t{-1}, nullptr, nullptr, t);
    if ((!kernel_clears || tiles == 0) && !last)
      clear_async(next, sizeof(unsigned) * static_cast<std::size_t>(lookback_header_words + next_tiles * radix), s);
  }
}

/// f(std::type_identity<V>{}, std::integral_constant<onesweep_shape, tile>{}) for the value
/// type of `value_bytes` and the main tile of keys K (2 bytes or more).
template <class K, class F>
void on_main_tile(std::size_t value_bytes, F&& f) {
  using U = typename radix_traits<K>::bits_t;
  if constexpr (sizeof(K) >= 2) {
    const auto with = [&](auto v) {
      with_main_tile<U, typename decltype(v)::type>([&](auto shape) { f(v, shape); });
    };
    switch (value_bytes) {
      case 0: return with(std::type_identity<no_value>{});
      case 4: return with(std::type_identity<blob_of<4>::type>{});
      case 8: return with(std::type_identity<blob_of<8>::type>{});
      case 16: return with(std::type_identity<blob_of<16>::type>{});
    }
    throw invalid_argument("scankit::dist radix sort: values are 0, 4, 8 or 16 bytes");
  } else {
    throw invalid_argument("scankit::dist radix sort: keys of 2 bytes or more");
  }
}

}  // namespace scankit::cuda::detail::radix

namespace scankit::cuda::detail {

template <class K>
const unsigned long long* top_digit_starts(const K* keys, std::int64_t n, const sort_options& opts, void* workspace,
                                           std::size_t workspace_bytes, cudaStream_t stream) {
  using U = typename radix_traits<K>::bits_t;
  arena ws(workspace, workspace_bytes);
  return radix::run_top_digit_starts<radix_traits<K>::kind, U>(reinterpret_cast<const U*>(keys), n, opts, ws, stream);
}

template <class K>
void split_by_top_digit(const top_digit_split& r) {
  using U = typename radix_traits<K>::bits_t;
  if (r.n > top_digit_split_limit(sizeof(K), r.value_bytes))
    throw invalid_argument("scankit::dist radix sort: too many keys for one split by the top digit");
  radix::on_main_tile<K>(r.value_bytes, [&](auto v, auto shape) {
    if (r.n == 0) return;
    radix::run_split_by_top_digit<radix_traits<K>::kind, U, typename decltype(v)::type, decltype(shape)::value>(r);
  });
}

template <class K>
void sort_buckets(const bucket_sort& r) {
  using U = typename radix_traits<K>::bits_t;
  if (r.staging_bytes < bucket_sort_staging_bytes(r.buckets, r.pieces))
    throw invalid_argument("scankit::dist radix sort: staging memory too small");
  radix::on_main_tile<K>(r.value_bytes, [&](auto v, auto shape) {
    radix::run_bucket_sort<radix_traits<K>::kind, U, typename decltype(v)::type, decltype(shape)::value>(r);
  });
}

template <class K>
void sort_device(const sort_request& r) {
  constexpr const char* where = "scankit::cuda::sort";
  scankit::detail::check_size(r.n, where);
  scankit::detail::check_pointer(r.keys_in, r.n, "input keys", where);
  scankit::detail::check_pointer(r.keys_out, r.n, "output keys", where);
  const std::size_t vb = r.value_bytes;
  if (vb != 0 && vb != 4 && vb != 8 && vb != 16)
    throw invalid_argument(std::string(where) + ": values must be 4, 8 or 16 bytes, not " + std::to_string(vb));
  if (r.index_values && vb != 8 && vb != 4)
    throw invalid_argument(std::string(where) + ": argsort writes 8-byte or 4-byte indices");
  if (r.index_values && vb == 4 && r.n > (std::int64_t{1} << 32))
    throw invalid_argument(std::string(where) + ": 32-bit indices hold at most 2^32 positions, not " +
                           std::to_string(r.n));
  if (vb) {
    if (!r.index_values) scankit::detail::check_pointer(r.values_in, r.n, "input values", where);
    scankit::detail::check_pointer(r.values_out, r.n, "output values", where);
    const std::size_t align = std::min<std::size_t>(vb, 8);
    if (reinterpret_cast<std::uintptr_t>(r.values_in) % align || reinterpret_cast<std::uintptr_t>(r.values_out) % align)
      throw invalid_argument(std::string(where) + ": value pointers must be aligned to " + std::to_string(align) + " bytes");
  }
  if (reinterpret_cast<std::uintptr_t>(r.keys_in) % sizeof(K) || reinterpret_cast<std::uintptr_t>(r.keys_out) % sizeof(K))
    throw invalid_argument(std::string(where) + ": key pointers must be aligned to the key size");
  const auto [begin, end] = scankit::detail::sort_bit_range(r.options, radix_traits<K>::bits, where);
  // int64 argsort positions carried as 32 bits (sort_positions): their own, smaller workspace.
  const bool narrow = r.index_values && vb == 8 &&
                      radix::narrow_positions(r.n, sizeof(K), begin, end, r.config, radix::current_device_limits());
  const std::size_t need = r.index_values ? argsort_workspace_bytes(r.n, sizeof(K), vb, r.config)
                                          : sort_workspace_bytes(r.n, sizeof(K), vb, r.config);
  if (r.workspace_bytes < need)
    throw invalid_argument(std::string(where) + ": workspace of " + std::to_string(r.workspace_bytes) +
                           " bytes is too small; " + std::string(name(r.config.algorithm)) + " needs " +
                           std::to_string(need) + " for n = " + std::to_string(r.n));
  if (need > 0 && r.workspace == nullptr) throw invalid_argument(std::string(where) + ": workspace is a null pointer");
  switch (vb) {
    case 0: return radix::run<K, radix::no_value>(r, begin, end);
    case 4: return radix::run<K, radix::blob_of<4>::type>(r, begin, end);
    case 8:
      if (narrow) return radix::run<K, radix::narrow_index>(r, begin, end);
      return radix::run<K, radix::blob_of<8>::type>(r, begin, end);
    case 16: return radix::run<K, radix::blob_of<16>::type>(r, begin, end);
  }
}

template <class K>
void sort_host(K* keys, void* values, std::size_t value_bytes, bool index_values, std::int64_t n,
               const sort_options& opts, const sort_config& cfg) {
  constexpr const char* where = "scankit::cuda::sort (host)";
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(keys, n, "keys", where);
  if (value_bytes) scankit::detail::check_pointer(values, n, "values", where);
  scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, where);
  if (device_count() == 0) throw no_device_error(std::string(where) + ": no CUDA device");
  if (n == 0) return;
  const std::size_t kbytes = sizeof(K) * static_cast<std::size_t>(n);
  const std::size_t vbytes = value_bytes * static_cast<std::size_t>(n);
  const std::size_t wbytes = sort_workspace_bytes(n, sizeof(K), value_bytes, cfg);
  workspace mem(align_up(kbytes) + align_up(vbytes) + wbytes);
  char* base = static_cast<char*>(mem.data());
  K* d_keys = reinterpret_cast<K*>(base);
  void* d_vals = value_bytes ? base + align_up(kbytes) : nullptr;
  void* d_ws = base + align_up(kbytes) + align_up(vbytes);
  cudaStream_t s = nullptr;
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d_keys, keys, kbytes, cudaMemcpyHostToDevice, s));
  if (value_bytes && !index_values) SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d_vals, values, vbytes, cudaMemcpyHostToDevice, s));
  sort_request r;
  r.keys_in = d_keys, r.keys_out = d_keys, r.values_in = index_values ? nullptr : d_vals, r.values_out = d_vals;
  r.value_bytes = value_bytes, r.index_values = index_values, r.n = n, r.workspace = d_ws;
  r.workspace_bytes = wbytes, r.stream = s, r.options = opts, r.config = cfg;
  sort_device<K>(r);
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(keys, d_keys, kbytes, cudaMemcpyDeviceToHost, s));
  if (value_bytes) SCANKIT_CUDA_CHECK(cudaMemcpyAsync(values, d_vals, vbytes, cudaMemcpyDeviceToHost, s));
  SCANKIT_CUDA_CHECK(cudaStreamSynchronize(s));
}

}  // namespace scankit::cuda::detail

/// Instantiates the device-pointer and host-container sorts for one key type.
#define SCANKIT_INSTANTIATE_SORT(K)                                                            \
  template void scankit::cuda::detail::sort_device<K>(const scankit::cuda::detail::sort_request&); \
  template void scankit::cuda::detail::sort_host<K>(K*, void*, std::size_t, bool, std::int64_t, \
                                                    const scankit::sort_options&,              \
                                                    const scankit::cuda::sort_config&); \
  template const unsigned long long* scankit::cuda::detail::top_digit_starts<K>(                \
      const K*, std::int64_t, const scankit::sort_options&, void*, std::size_t, cudaStream_t); \
  template void scankit::cuda::detail::split_by_top_digit<K>(                                   \
      const scankit::cuda::detail::top_digit_split&);                                           \
  template void scankit::cuda::detail::sort_buckets<K>(const scankit::cuda::detail::bucket_sort&);
