// The one place that decides how a GPU segmented sort runs and what workspace it needs (pure).
#pragma once

#include <cstddef>
#include <cstdint>

#include "scankit/cuda/detail/math.hpp"
#include "scankit/cuda/detail/segmented_sort/tuning.hpp"
#include "scankit/cuda/segmented_sort.hpp"

namespace scankit::cuda::detail::segmented_sort {

/// The path of a segmented sort: the merge path for every length distribution (its time
/// follows n and the lengths' logarithm, its workspace is a fraction of the two-sort path's),
/// unless `cfg` names one.
inline segmented_sort_path plan(std::int64_t n, std::int64_t segments, const segmented_sort_config& cfg) {
  (void)n, (void)segments;
  return cfg.path == segmented_sort_path::automatic ? segmented_sort_path::merge : cfg.path;
}

/// Which segments of the merge path sort by radix passes (radix_long.cuh): lengths in [from,
/// most_radix_keys]. The default sorts none.
inline constexpr std::int64_t most_radix_keys = (std::int64_t{1} << 30) - 1;  // the look-back counts' width
struct radix_rule {
  std::int64_t from = most_radix_keys + 1;
  constexpr bool enabled() const { return from <= most_radix_keys; }
  constexpr bool operator()(std::int64_t len) const { return len >= from && len <= most_radix_keys; }
};

/// Passes of 8-bit digits over bits [begin_bit, end_bit).
constexpr int radix_passes(int begin_bit, int end_bit) { return (end_bit - begin_bit + 7) / 8; }

/// The radix rule of a merge-path sort of n keys: cfg.radix_from (0: the tuned length for the
/// key size, negative: none), for keys of 2 bytes or more with values of 0, 4 or 8 bytes over an even
/// number of digits (so that the passes end in the output buffer, in place too).
inline radix_rule plan_radix(std::int64_t n, std::size_t key_bytes, std::size_t value_bytes, int begin_bit,
                             int end_bit, const segmented_sort_config& cfg) {
  const std::int64_t from = cfg.radix_from == 0 ? radix_from_length(key_bytes) : cfg.radix_from;
  const int passes = radix_passes(begin_bit, end_bit);
  if (from < 0 || from > n || key_bytes < 2 || (value_bytes != 0 && value_bytes != 4 && value_bytes != 8) ||
      passes == 0 || passes % 2 != 0)
    return {};
  return {from};
}

/// The most segments n keys in `count` segments can have that the rule `from` sorts by radix.
inline std::int64_t max_radix_segments(std::int64_t n, std::int64_t count, std::int64_t from) {
  if (from <= 0 || from > n) return 0;
  return n / from < count ? n / from : count;
}

/// The most merge tiles the long segments of n keys can make: each longer than a piece, so
/// ceil(len / piece) < 2 len / piece.
inline std::int64_t max_merge_tiles(std::int64_t n) { return 2 * ceil_div(n, std::int64_t{piece}) + 1; }

/// The merge rounds n keys can need: widths piece, 2 piece, ... below n.
inline int max_merge_rounds(std::int64_t n) {
  int r = 0;
  for (std::int64_t w = piece; w < n; w *= 2) ++r;
  return r;
}

}  // namespace scankit::cuda::detail::segmented_sort
