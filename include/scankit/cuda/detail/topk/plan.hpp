// The one place that decides how a GPU top-k runs: a pure function of the call and the device
// description (tested on the host for any device). Tuning: tuning.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/math.hpp"  // align_up
#include "scankit/cuda/detail/topk/tuning.hpp"
#include "scankit/cuda/topk.hpp"
#include "scankit/ops.hpp"  // SCANKIT_HD

namespace scankit::cuda::detail::topk {

/// How one top-k runs.
struct plan {
  topk_path path = topk_path::radix;
  // One array: the sample (sampled path): `groups` runs of `group` consecutive keys, one run
  // every `stride` keys; its `sample_k`-th best rank is the threshold of the candidates.
  std::int64_t group = 1, groups = 0, stride = 0, sample_k = 0;
  std::int64_t capacity = 0;  // candidate buffer (keys whose rank may still be among the k)
  int rank_bits = 32;         // digits of the rank, then of the position
  int position_bits = 1;
  std::int64_t pass_grid = 1;  // blocks of the grid-wide passes
  // Rows (one array as one row) longer than a block holds, split for the block path: each level
  // selects the k best of every chunk of a row, the next level among a row's chunk winners.
  std::int64_t chunk = 0;            // keys per chunk of the first level (0: rows are not split)
  std::int64_t chunk_winners = 0;    // the first level's winners, of all rows (its output)
  std::int64_t next_winners = 0;     // the second level's, where it splits again (each level's fewer)
  bool warp_last = false;            // the last level may take the warp path where it fits
};

/// Shared memory of the block path: the winners (padded to a power of two), then the ranks of a
/// segment short enough to be held.
constexpr std::size_t block_shared_bytes(std::int64_t padded_k, int shared_keys, std::size_t key_bytes) {
  return static_cast<std::size_t>(padded_k) * 16 + static_cast<std::size_t>(shared_keys) * key_bytes;
}

/// Shared memory past the dynamic part: the block path's static counters and state.
inline constexpr std::size_t block_static_allowance = 4096;

/// The block path's shared memory and the keys it holds per segment.
struct block_shape {
  std::int64_t padded_k;
  int shared_keys;
  std::size_t shared_bytes;
};

/// The shape for k and rows of `longest` keys (-1: segments of unknown lengths): a segment's
/// ranks are held in shared memory when it fits (up to the tuned count), else read per digit;
/// rows get exactly the room of one row, or none when a row does not fit.
inline block_shape block_shape_for(std::int64_t k, std::int64_t longest, std::size_t key_bytes, const device_info& d) {
  block_shape b;
  b.padded_k = 1;
  while (b.padded_k < k) b.padded_k <<= 1;
  const std::size_t limit = std::max<std::size_t>(d.smem_per_block_optin, 48 * 1024) - block_static_allowance;
  const std::size_t winners = block_shared_bytes(b.padded_k, 0, key_bytes);
  const auto tuned = static_cast<std::int64_t>(tuning_for(d).block_shared_keys);
  const auto room = static_cast<std::int64_t>((limit > winners ? limit - winners : 0) / key_bytes);
  const std::int64_t most = std::min(tuned, room);
  b.shared_keys = static_cast<int>(longest < 0 ? most : longest <= most ? longest : 0);
  b.shared_bytes = block_shared_bytes(b.padded_k, b.shared_keys, key_bytes);
  return b;
}

/// Keys per chunk where rows of `cols` keys are split for a block path that holds `held` keys:
/// near-equal chunks of at least 2k keys (so each level at least halves a row), the last one
/// at least k; 0 where a row fits the block or cannot be split so.
constexpr std::int64_t chunk_for(std::int64_t cols, std::int64_t k, std::int64_t held) {
  if (held <= 0 || cols <= held) return 0;
  const std::int64_t m = (cols + held - 1) / held, c = (cols + m - 1) / m;
  return 2 * k <= c && cols - (m - 1) * c >= k ? c : 0;
}

/// Bits needed to write every position below n (at least 1); the block path takes it per segment.
SCANKIT_HD constexpr int position_bits_for(std::int64_t n) {
  int b = 1;
  while (b < 63 && (std::int64_t{1} << b) < n) ++b;
  return b;
}

/// The sample's size and threshold rank for n keys and k (sampled path), and the candidates
/// the threshold should leave: k plus a margin of four standard deviations and `margin` keys.
inline void size_sample(plan& p, std::int64_t n, std::int64_t k, std::size_t key_bytes, const tuning& t) {
  // Runs of one 32-byte sector (no more than the array), a whole number of runs apart, so
  // that each run is one sector of an aligned array and the last one ends inside it.
  p.group = std::clamp<std::int64_t>(32 / static_cast<std::int64_t>(key_bytes), 1, n);
  const std::int64_t wanted = std::max<std::int64_t>(p.group, n / t.sample_ratio);
  p.groups = std::max<std::int64_t>(1, wanted / p.group);
  p.stride = n / p.groups / p.group * p.group;
  const double s = static_cast<double>(p.groups * p.group);
  const double mean = static_cast<double>(k) * s / static_cast<double>(n);
  p.sample_k = std::min<std::int64_t>(p.groups * p.group,
                                      static_cast<std::int64_t>(std::ceil(mean + 4.0 * std::sqrt(mean))) + t.sample_margin);
}

/// Workspace of the split rows: two buffers of winners (values and positions), each level
/// writing the one the level before did not; every level writes fewer than the one before.
inline std::size_t chunk_workspace_bytes(const plan& p, std::size_t key_bytes) {
  const auto w = static_cast<std::size_t>(p.chunk_winners), v = static_cast<std::size_t>(p.next_winners);
  return align_up(w * key_bytes) + align_up(w * 8) + align_up(v * key_bytes) + align_up(v * 8);
}

/// The plan of a top-k of n keys: one array, or segments none of which is longer than
/// `longest` (the row length, or n where the bounds are not known on the host); `rows`: the
/// segments are n / longest rows of `longest` keys.
inline plan make_plan(std::int64_t n, std::int64_t k, std::size_t key_bytes, std::int64_t longest, bool segmented,
                      const topk_config& cfg, const device_info& d, bool rows = false) {
  const tuning t = tuning_for(d);
  plan p;
  p.rank_bits = static_cast<int>(key_bytes * 8);
  p.position_bits = position_bits_for(n);
  if (n <= 0) return p;  // nothing to select: no sample to size (a forced sampled path divides by it)
  p.pass_grid = std::clamp<std::int64_t>((n + 8 * pass_threads - 1) / (8 * pass_threads), 1,
                                         std::int64_t{std::max(1, d.sm_count)} * t.pass_blocks_per_sm);
  // The warp path holds a segment in one warp's registers and one winner per lane; the block
  // path counts a digit in 32 bits and sorts its winners in shared memory.
  const bool warp_fits = k <= warp_max_k && longest <= std::int64_t{warp_max_items} * 32;
  const bool block_fits = k <= topk_block_max_k && longest < (std::int64_t{1} << 32);
  const bool pick_warp = cfg.path == topk_path::automatic || cfg.path == topk_path::warp;
  const std::int64_t held = block_fits ? block_shape_for(k, -1, key_bytes, d).shared_keys : 0;
  const bool few_rows = !segmented || (rows && n / longest < std::int64_t{std::max(1, d.sm_count)} * t.split_rows_per_sm);
  const bool split = (!segmented || rows) && (cfg.split == topk_split::always || (cfg.split == topk_split::automatic && few_rows));
  const std::int64_t chunk = split ? chunk_for(longest, k, held) : 0;
  // A small array is one row: one warp, or one block that holds it in shared memory, selects it
  // in one launch, where the grid-wide passes cost a dozen launches whatever the size. Up to
  // chunked_max_n keys it is still one row, in chunks, while one block takes all their winners.
  const bool chunked_row = chunk > 0 && n <= t.chunked_max_n && (n + chunk - 1) / chunk * k <= held;
  const bool one_row = !segmented && (cfg.path == topk_path::automatic
                                          ? n <= t.block_shared_keys || chunked_row
                                          : cfg.path == topk_path::warp || cfg.path == topk_path::block);
  if (segmented || one_row) {  // the row paths; one array that fits neither takes the grid-wide ones
    p.path = pick_warp && warp_fits                      ? topk_path::warp
             : cfg.path != topk_path::sort && block_fits ? topk_path::block
                                                         : topk_path::sort;
    if (p.path == topk_path::block && chunk > 0) {
      p.chunk = chunk;
      const std::int64_t n_rows = n / longest, per_row = (longest + chunk - 1) / chunk;
      const std::int64_t next = chunk_for(per_row * k, k, held);
      p.chunk_winners = n_rows * per_row * k;
      p.next_winners = next > 0 ? n_rows * ((per_row * k + next - 1) / next) * k : 0;
      p.warp_last = pick_warp;
    }
    if (segmented || p.path != topk_path::sort) return p;
  }
  p.capacity = std::min<std::int64_t>(n, std::max<std::int64_t>(std::int64_t{1} << 16, n / 64));
  bool sampled = n >= t.sampled_min_n;
  if (sampled) {
    size_sample(p, n, k, key_bytes, t);
    const std::int64_t expected = p.sample_k * (n / std::max<std::int64_t>(1, p.groups * p.group));
    sampled = expected <= n / 8;
    if (sampled) p.capacity = std::min<std::int64_t>(n, std::max<std::int64_t>(p.capacity, 3 * expected));
  }
  if (cfg.path == topk_path::radix || (cfg.path != topk_path::sampled && !sampled)) {
    p.path = topk_path::radix;
  } else {
    p.path = topk_path::sampled;
    if (p.groups == 0) size_sample(p, n, k, key_bytes, t);  // forced on a small array
  }
  return p;
}

}  // namespace scankit::cuda::detail::topk
