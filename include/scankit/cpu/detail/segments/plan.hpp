// The one function that decides how a CPU segmented operation runs: tile size and whether to
// use the thread pool, from the call alone (pure, so it is tested directly).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "scankit/cpu/detail/segments/tuning.hpp"
#include "scankit/error.hpp"

namespace scankit::cpu {

/// Which way a CPU segmented operation runs.
enum class segments_path {
  automatic,  // the calling thread for small inputs, the thread pool otherwise
  serial,     // the calling thread alone (the same tiles in the same order: the same bits)
  parallel,   // the thread pool, whatever the size
};

/// What a caller may force of a CPU segmented operation; the defaults are the tuned choices.
struct segments_config {
  segments_path path = segments_path::automatic;
  /// Work per tile: items (plus segment ends, for segmented_reduce); 0 takes the tuned size.
  /// Results depend on it for floats (it fixes how a segment's items are associated).
  std::int64_t tile_items = 0;
};

}  // namespace scankit::cpu

namespace scankit::cpu::detail::segments {

struct plan {
  std::int64_t tile = 1;   // work items per tile
  std::int64_t tiles = 0;  // ceil(work / tile)
  bool parallel = false;
};

/// The plan for `work` work items of `item_bytes` bytes each (items, plus segment ends for the
/// reductions). Throws invalid_argument, naming `who`, for a bad config.
inline plan make_plan(std::int64_t work, std::size_t item_bytes, const segments_config& cfg, const char* who) {
  if (cfg.tile_items < 0) throw invalid_argument(std::string(who) + ": tile_items must be >= 0");
  if (cfg.path != segments_path::automatic && cfg.path != segments_path::serial &&
      cfg.path != segments_path::parallel)
    throw invalid_argument(std::string(who) + ": unknown segments_path");
  plan p;
  const auto bytes = static_cast<std::int64_t>(std::max<std::size_t>(item_bytes, 1));
  p.tile = cfg.tile_items > 0 ? cfg.tile_items : std::max<std::int64_t>(1, tile_bytes / bytes);
  p.tiles = work / p.tile + (work % p.tile != 0 ? 1 : 0);
  switch (cfg.path) {
    case segments_path::serial: p.parallel = false; break;
    case segments_path::parallel: p.parallel = p.tiles > 0; break;
    default: p.parallel = p.tiles > 1 && work >= serial_below_bytes / bytes; break;
  }
  return p;
}

}  // namespace scankit::cpu::detail::segments
