// The CPU segmented operations' tuning, as data.
#pragma once

#include <cstdint>

namespace scankit::cpu::detail::segments {

/// Bytes of input per tile: every tile is one task's work and one set of partial carries.
/// Fixed per item size (not per thread count), so results are the same bits on any machine.
/// A segmented reduction counts a segment end as one more item of work (merge path).
constexpr std::int64_t tile_bytes = std::int64_t{1} << 17;
/// Inputs below this many bytes run on the calling thread (the same tiles in order, so the
/// result does not depend on the path).
constexpr std::int64_t serial_below_bytes = std::int64_t{1} << 18;
/// Hand-off slots of the chained tiles (chain.hpp): two would do; more keep the threads that
/// wait on neighbouring tiles on different cache lines.
constexpr std::int64_t chain_ring = 8;

}  // namespace scankit::cpu::detail::segments
