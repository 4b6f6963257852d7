// The one place that decides how a GPU top-k runs: a pure function of the call and the device
// description (tested on the host for any device). Tuning: tuning.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "scankit/cuda/detail/device_info.hpp"
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
};

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

/// The plan of a top-k of n keys: one array, or segments none of which is longer than
/// `longest` (the row length, or n where the bounds are not known on the host).
inline plan make_plan(std::int64_t n, std::int64_t k, std::size_t key_bytes, std::int64_t longest, bool segmented,
                      const topk_config& cfg, const device_info& d) {
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
  // A small array is one row: one warp, or one block that holds it in shared memory, selects it
  // in one launch, where the grid-wide passes cost a dozen launches whatever the size.
  const bool one_row = !segmented && (cfg.path == topk_path::automatic
                                          ? n <= t.block_shared_keys
                                          : cfg.path == topk_path::warp || cfg.path == topk_path::block);
  if (segmented || one_row) {  // the row paths; one array that fits neither takes the grid-wide ones
    p.path = pick_warp && warp_fits                      ? topk_path::warp
             : cfg.path != topk_path::sort && block_fits ? topk_path::block
                                                         : topk_path::sort;
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
