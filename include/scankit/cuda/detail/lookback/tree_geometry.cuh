// The shape of the look-back's radix-32 tree, shared by the scan and the compaction: level 0
// has one entry per tile, level k + 1 one entry per aligned run of 32 level-k entries.
#pragma once

#include <cstddef>
#include <cstdint>

#include "scankit/cuda/detail/math.hpp"

namespace scankit::cuda::detail::lookback {

/// Tree levels for `tiles` tiles: the smallest L with 32^L >= tiles (0 for one tile).
inline int levels_for(std::int64_t tiles) {
  int levels = 0;
  for (std::int64_t span = 1; span < tiles; span *= 32) ++levels;
  return levels;
}

/// Look-back launches of at most this many tiles (two levels) may read level 1 from the
/// aggregates (runs_before): beyond it every polling tile re-reads up to 7 entries per lane.
/// 160 covers a one-tile-per-SM launch of up to 160 SMs; bigger items keep 128, whose blocked
/// kernel spills with a fifth run.
constexpr std::int64_t runs_before_max_tiles(std::size_t item_bytes) { return item_bytes <= 8 ? 160 : 128; }

/// Entries of level k for `tiles` tiles.
inline std::int64_t level_entries(std::int64_t tiles, int k) {
  std::int64_t span = std::int64_t{1} << (5 * k);
  return ceil_div(tiles, span);
}

/// Device bytes of the tile counter and a tree for `tiles` tiles whose entries take
/// `entry_bytes` bytes each, with the arena's alignment padding (what carve_tree takes).
inline std::size_t tree_bytes_for(std::int64_t tiles, std::size_t entry_bytes) {
  std::size_t bytes = align_up(2 * sizeof(unsigned long long)) + workspace_alignment;
  const int levels = levels_for(tiles);
  for (int k = 0; k < levels; ++k)
    bytes += align_up(static_cast<std::size_t>(level_entries(tiles, k)) * entry_bytes) + workspace_alignment;
  return bytes;
}

}  // namespace scankit::cuda::detail::lookback
