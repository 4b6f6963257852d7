// decoupled-lookback's internals that a caller can force: the path and the thresholds that
// choose among the paths. Tests and the CLI set them (scan_config::tuning) to reach each path;
// the default (everything unset, path automatic) leaves the tuning alone.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace scankit::cuda {

/// The paths of decoupled-lookback (the default scan), forced through
/// scan_config::tuning.path. `automatic` picks one by item size, input
/// size, pointer alignment and device (plan_scan); the others force one, for tests and tuning
/// runs. A forced path that does not apply to a call runs what `automatic` would pick for it
/// (as compact_tile does); scan_path_description() says which path a call takes.
enum class scan_path {
  automatic,
  /// One block scans the whole input, tile after tile (any n). 4- and 8-byte items with
  /// 16-byte-aligned pointers and the tuned block take one block of 1,024 threads x 1-2 vectors
  /// up to 2,048 vectors.
  one_launch,
  /// The striped register tile with the look-back (any item size and alignment).
  striped,
  /// The blocked shared-memory tile with the look-back, at the configured block size, without
  /// the load window or wider blocks. Needs 16-byte vectors of items (1, 2, 4, 8 or 16 bytes)
  /// and 16-byte-aligned pointers.
  blocked,
  /// The blocked tile in blocks of the fewest whole warps (at least the tuned 256 threads, at
  /// most one_tile_per_sm_up_to_threads, or 1,024 where the tuning has no limit) that make at
  /// most one tile per SM. As blocked, and the tuned block size only.
  one_tile_per_sm,
  /// The blocked tile with the load window: tile t loads once t - W + 1 tiles have loaded
  /// (W = load_window_tiles, or the tuned window, or 256 where the tuning has none). As blocked,
  /// and the tuned block size only.
  windowed,
  /// The warp-specialized persistent tile (producer warps bulk-copy tiles into shared memory,
  /// consumer warps look back and scan). Needs 4- or 8-byte items, 16-byte-aligned pointers,
  /// the tuned block size, more than one tile, and kernel code with Hopper's bulk copies
  /// (sm_90 or later code on a device of compute capability 9.0 or later).
  specialized,
};

inline constexpr std::array all_scan_paths{scan_path::automatic, scan_path::one_launch, scan_path::striped,
                                           scan_path::blocked,   scan_path::one_tile_per_sm,
                                           scan_path::windowed,  scan_path::specialized};

constexpr std::string_view name(scan_path p) {
  switch (p) {
    case scan_path::automatic: return "auto";
    case scan_path::one_launch: return "one-launch";
    case scan_path::striped: return "striped";
    case scan_path::blocked: return "blocked";
    case scan_path::one_tile_per_sm: return "one-tile-per-sm";
    case scan_path::windowed: return "windowed";
    case scan_path::specialized: return "specialized";
  }
  return "?";
}

inline std::optional<scan_path> parse_scan_path(std::string_view s) {
  for (auto p : all_scan_paths)
    if (name(p) == s) return p;
  return std::nullopt;
}

namespace detail {

/// Overrides of decoupled-lookback's tuning (scan/tuning.cuh). Unset optionals keep the tuned
/// value; out-of-range values throw invalid_argument (from scan_workspace_bytes and scan).
struct scan_tuning_override {
  scan_path path = scan_path::automatic;
  /// automatic: inputs of at least this many items take the blocked tile (>= 0).
  std::optional<std::int64_t> blocked_from_items{};
  /// automatic: inputs of at least this many items take the warp-specialized tile where it
  /// applies (>= 0).
  std::optional<std::int64_t> specialized_from_items{};
  /// Blocked tile: sleep before the first look-back read, in ns ([0, 1,000,000]; 0: none).
  std::optional<unsigned> first_delay_ns{};
  /// Blocked tile, tuned block size: widest block (threads, [0, 1024]; 0: off) that may make
  /// one tile per SM where the tuned block would make more tiles than SMs.
  std::optional<int> one_tile_per_sm_up_to_threads{};
  /// Blocked tile, tuned block size: launches of more tiles than this keep at most this many
  /// tiles' loads in flight (>= 0; 0: off).
  std::optional<int> load_window_tiles{};
  /// Blocked tile, launches of two tree levels and at most runs_before_max_tiles tiles: read
  /// level 1 of the look-back from the aggregates (true) or wait for its entries.
  bool level1_from_aggregates = true;

  friend bool operator==(const scan_tuning_override&, const scan_tuning_override&) = default;
};

}  // namespace detail

}  // namespace scankit::cuda
