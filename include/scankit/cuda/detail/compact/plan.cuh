// single-pass compaction's plan: which tile runs for a call, as one pure function of the
// request and the device's description (plan_compact). The launch code runs the plan.
// Host-only code: the plan is tested without a GPU (tests/cuda/test_cuda_plans.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "scankit/cuda/compact.hpp"
#include "scankit/cuda/detail/compact/tuning.cuh"
#include "scankit/cuda/detail/compact/tuning_override.hpp"
#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/math.hpp"

namespace scankit::cuda::detail::compact {

/// What the compiled kernels can do on the device (the launcher asks the runtime; a host test
/// states them).
struct compact_kernels {
  bool specialized_code = false;  // the warp-specialized kernel carries Hopper code here
  bool specialized_fits = true;   // ... and a block of it fits the device (and the counts tree)
  friend bool operator==(const compact_kernels&, const compact_kernels&) = default;
};

/// The call, as the plan sees it.
struct compact_request {
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
  compact_tile tile = compact_tile::automatic;  // compact_config::tile
  compact_kernels kernels{};                    // for the override's specialized_shape
  compact_tuning_override tuning{};             // compact_config::tuning
};

struct compact_plan {
  compact_tile tile = compact_tile::medium;  // never automatic
  int specialized_shape = 0;
  bool prefetch = false;
  unsigned first_delay_ns = 0;
  friend bool operator==(const compact_plan&, const compact_plan&) = default;
};

/// Which tile single-pass runs for `c` on `d` (n > 0). automatic, in order: the warp-specialized
/// tile where it applies from specialized_from_bytes, the segmented tile where it applies from
/// its thresholds, then the small tile below small_tile_below_bytes (compact/tuning.cuh) and the
/// medium one from there. A forced tile that does not apply falls back to automatic.
inline compact_plan plan_compact(const compact_request& c, const device_info& d) {
  const compact_tuning_override& o = c.tuning;
  const compact_tuning tu = compact_tuning_for(c.item_bytes, d);
  const std::int64_t bytes = c.n * static_cast<std::int64_t>(c.item_bytes);
  const bool vectors = (c.item_bytes == 4 || c.item_bytes == 8);  // 16-byte vectors of 4 or 8-byte items
  const bool segmented_ok =
      c.reads_items && vectors && c.items_out && !c.indices_out && c.block == 256 && c.aligned;
  bool specialized_ok = segmented_ok && c.kernels.specialized_code && c.kernels.specialized_fits;
  if (specialized_ok) {
    const auto shapes = c.item_bytes == 4 ? specialized_shapes<4>() : specialized_shapes<8>();
    const specialized_shape& sh = shapes[static_cast<std::size_t>(o.specialized_shape)];
    const std::int64_t tile_items = std::int64_t{sh.consumers} * sh.vectors_per_thread * static_cast<std::int64_t>(16 / c.item_bytes);
    specialized_ok = ceil_div(c.n, tile_items) > 1;
  }
  compact_plan p;
  p.specialized_shape = o.specialized_shape;
  auto prefetch = [&](bool pays) {
    switch (o.prefetch) {
      case compact_prefetch::on: return true;
      case compact_prefetch::off: return false;
      default: return pays && bytes >= tu.prefetch_from_bytes;
    }
  };
  compact_tile tile = c.tile;
  if (tile == compact_tile::specialized && !specialized_ok) tile = compact_tile::automatic;
  if (tile == compact_tile::segmented && !segmented_ok) tile = compact_tile::automatic;
  if (tile == compact_tile::automatic) {
    if (specialized_ok && bytes >= o.specialized_from_bytes.value_or(c.flag_words ? tu.specialized_flags_from_bytes
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
    p.first_delay_ns = o.first_delay_ns.value_or(tu.segmented_first_delay_ns);
  } else if (tile != compact_tile::specialized) {
    p.prefetch = prefetch(c.prefetch_pays);
  }
  return p;
}

}  // namespace scankit::cuda::detail::compact
