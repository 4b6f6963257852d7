// single-pass compaction's internals that a caller can force: the guess prefetch, the
// warp-specialized tile's shape and thresholds. Tests and the CLI set them
// (compact_config::tuning) to reach each path; the default leaves the tuning alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace scankit::cuda {

/// single-pass's guess prefetch: thread 0 of each block asks L2 for tile blockIdx.x (the id the
/// tile counter most likely hands it) before the id comes back. A hint only, so forcing it is
/// always correct; it does something only in code built for sm_90 or later. automatic: the
/// small, medium and segmented tiles prefetch for 4-byte items selected by a predicate or as run
/// starts (the segmented tile for 8-byte ones too) from 512 MiB of input.
enum class compact_prefetch { automatic, on, off };

inline constexpr compact_prefetch all_compact_prefetches[] = {compact_prefetch::automatic, compact_prefetch::on,
                                                              compact_prefetch::off};

constexpr std::string_view name(compact_prefetch p) {
  switch (p) {
    case compact_prefetch::automatic: return "auto";
    case compact_prefetch::on: return "on";
    case compact_prefetch::off: return "off";
  }
  return "?";
}

namespace detail {

/// Overrides of single-pass's tuning (compact/tuning.cuh). Unset optionals keep the tuned value;
/// out-of-range values throw invalid_argument (from compact_workspace_bytes and every
/// compaction).
struct compact_tuning_override {
  compact_prefetch prefetch = compact_prefetch::automatic;
  /// The warp-specialized tile's shape: 0 the tuned one (256 rows x 13 vectors x 2 buffers),
  /// 1 the alternative (256 x 11 x 2).
  int specialized_shape = 0;
  /// automatic: inputs of at least this many bytes take the warp-specialized tile where it
  /// applies (>= 0).
  std::optional<std::int64_t> specialized_from_bytes{};
  /// Segmented tile: sleep before the first look-back read, in ns ([0, 1,000,000]; tuned: 0).
  std::optional<unsigned> first_delay_ns{};

  friend bool operator==(const compact_tuning_override&, const compact_tuning_override&) = default;
};

}  // namespace detail

}  // namespace scankit::cuda
