// single-pass compaction's tuning table and dispatch: which tile runs for a call, as one pure
// function of the call, the device and the config (plan_compact). The launch code runs the plan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "scankit/cuda/compact.hpp"
#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/compact/select.cuh"

namespace scankit::cuda::detail::compact {

/// One item size's thresholds on one architecture (H100 measurements; sm_80 reuses them, not
/// measured there, and takes only the portable tiles).
struct compact_tuning {
  std::int64_t segmented_from_bytes;            // predicates and run starts
  std::int64_t segmented_flags_from_bytes;      // select_flagged
  std::int64_t specialized_from_bytes;          // never: off
  std::int64_t specialized_flags_from_bytes;    // select_flagged
  std::int64_t prefetch_from_bytes;             // guess prefetch, where it pays for the selector
  unsigned segmented_first_delay_ns;
};

/// - Segmented tile, 4-byte items: ties the medium tile at 2^27 items and wins from 2^28
///   (select_if 1/50/99%: 1.04/1.06/1.09-1.12x CUB against 1.03/1.04-1.05/1.02-1.04x; partition
///   1.17-1.18x against 1.09-1.10x), loses up to 8% at 2^23-2^26 (too few tiles to fill 528
///   block slots evenly); select_flagged, whose flags it loads as one word per vector, wins from
///   2^22 (1.06-1.15x against 0.94-1.00x); 8-byte items win from 2^24 (uint64 select_if
///   0.95-0.97x against 0.90-0.94x).
/// - Warp-specialized tile from where the small tile stops: uint32 at 2^23 / 2^24 items 1.11x /
///   1.18x CUB against 1.12x / 0.99x; uint64 at 2^21 1.17x against 1.16x (at 2^21 uint32 and
///   2^20 uint64 it loses: 0.80x / 0.86x against 1.16x / 1.11x).
/// - Guess prefetch from 2^27 4-byte items: select_if 0.99 -> 1.03-1.05x CUB at half selected,
///   0.97-0.98 -> 1.02-1.03x at 1%, unique 1.00 -> 1.03-1.04x, remove_if 0.99 -> 1.05x; at
///   2^21-2^24 it loses up to 10%, for uint64 items 2%, for select_flagged 0.7%.
/// - Warp-specialized tile for select_flagged (it reads the flags from global memory into row
///   masks, compact/specialized.cuh), 4-byte items with uint8 flags, half selected: 2^26 items
///   0.174 ms (1.33x CUB, 91% of copy) against the small tile's 0.188 and the segmented one's
///   0.191; 2^28 items 0.655 ms (1.34x, 95.5%) against the segmented tile's 0.715. Smaller
///   sizes and 8-byte items are not measured and keep the other tiles.
/// - Segmented first delay: none (512-1,000 ns lose 2-6%).
inline compact_tuning compact_tuning_for(std::size_t item_bytes, int arch) {
  constexpr std::int64_t never = std::numeric_limits<std::int64_t>::max();
  compact_tuning t{.segmented_from_bytes = item_bytes == 8 ? std::int64_t{1} << 27 : std::int64_t{1} << 29,
                   .segmented_flags_from_bytes = item_bytes == 8 ? std::int64_t{1} << 27 : std::int64_t{1} << 24,
                   .specialized_from_bytes = small_tile_below_bytes,
                   .specialized_flags_from_bytes = item_bytes == 4 ? std::int64_t{1} << 28 : never,
                   .prefetch_from_bytes = std::int64_t{1} << 29,
                   .segmented_first_delay_ns = 0};
  if (arch < 90) t.specialized_from_bytes = t.specialized_flags_from_bytes = never;  // Ampere: no bulk copies
  return t;
}

/// The call, as the dispatch sees it.
struct compact_call {
  std::int64_t n;
  std::size_t item_bytes;      // sizeof the selector's item type
  bool reads_items;            // false: select_indices
  bool flag_words;             // select_flagged
  bool items_out;              // items are written (not only indices)
  bool indices_out;            // indices are written
  bool aligned;                // input and item output 16-byte aligned
  int block;                   // resolved block size
  bool prefetch_pays;          // small and medium tiles: the selector gains from the guess prefetch
  bool segmented_prefetch_pays;
};

/// What the dispatch needs to know about the device and the compiled kernels.
struct compact_device {
  int arch = 90;
  bool specialized_code = false;  // the warp-specialized kernel carries Hopper code here
  bool specialized_fits = true;   // ... and a block of it fits the device (and the counts tree)
};

struct compact_plan {
  compact_tile tile = compact_tile::medium;  // never automatic
  int specialized_shape = 0;
  bool prefetch = false;
  unsigned first_delay_ns = 0;
};

/// Which tile single-pass runs for `c` on `d` with `cfg` (n > 0). automatic, in order: the
/// warp-specialized tile where it applies from specialized_from_bytes, the segmented tile where it
/// applies from its thresholds, then the small tile below small_tile_below_bytes (compact_select.cuh)
/// and the medium one from there. A forced tile that does not apply falls back to automatic.
inline compact_plan plan_compact(const compact_call& c, const compact_device& d, const compact_config& cfg) {
  const compact_tuning tu = compact_tuning_for(c.item_bytes, d.arch);
  const std::int64_t bytes = c.n * static_cast<std::int64_t>(c.item_bytes);
  const bool vectors = (c.item_bytes == 4 || c.item_bytes == 8);  // 16-byte vectors of 4 or 8-byte items
  const bool segmented_ok =
      c.reads_items && vectors && c.items_out && !c.indices_out && c.block == 256 && c.aligned;
  bool specialized_ok = segmented_ok && d.specialized_code && d.specialized_fits;
  if (specialized_ok) {
    const auto shapes = c.item_bytes == 4 ? specialized_shapes<4>() : specialized_shapes<8>();
    const specialized_shape& sh = shapes[static_cast<std::size_t>(cfg.specialized_shape)];
    const std::int64_t tile_items = std::int64_t{sh.consumers} * sh.vectors_per_thread * static_cast<std::int64_t>(16 / c.item_bytes);
    specialized_ok = ceil_div(c.n, tile_items) > 1;
  }
  compact_plan p;
  p.specialized_shape = cfg.specialized_shape;
  auto prefetch = [&](bool pays) {
    switch (cfg.prefetch) {
      case compact_prefetch::on: return true;
      case compact_prefetch::off: return false;
      default: return pays && bytes >= tu.prefetch_from_bytes;
    }
  };
  compact_tile tile = cfg.tile;
  if (tile == compact_tile::specialized && !specialized_ok) tile = compact_tile::automatic;
  if (tile == compact_tile::segmented && !segmented_ok) tile = compact_tile::automatic;
  if (tile == compact_tile::automatic) {
    if (specialized_ok && bytes >= cfg.specialized_from_bytes.value_or(c.flag_words ? tu.specialized_flags_from_bytes
                                                                                    : tu.specialized_from_bytes))
      tile = compact_tile::specialized;
    else if (segmented_ok && bytes >= (c.flag_words ? tu.segmented_flags_from_bytes : tu.segmented_from_bytes))
      tile = compact_tile::segmented;
    else
      tile = resolve_tile(compact_tile::automatic, c.n, c.reads_items ? c.item_bytes : 0);
  }
  p.tile = tile;
  if (tile == compact_tile::segmented) {
    p.prefetch = prefetch(c.segmented_prefetch_pays);
    p.first_delay_ns = cfg.first_delay_ns.value_or(tu.segmented_first_delay_ns);
  } else if (tile != compact_tile::specialized) {
    p.prefetch = prefetch(c.prefetch_pays);
  }
  return p;
}

}  // namespace scankit::cuda::detail::compact
