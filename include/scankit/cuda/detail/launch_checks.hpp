// Checks a launcher makes before it launches: shared by every primitive so that each limit is
// stated, and worded, once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "scankit/error.hpp"

namespace scankit::cuda::detail {

/// The most tiles one launch can take where every block owns one tile: a grid's x dimension
/// holds at most 2^31 - 1 blocks.
inline constexpr std::int64_t max_launch_tiles = 0x7fffffff;

/// Throws invalid_argument("<who>: too many tiles for one launch") where `tiles` tiles, one
/// block each, do not fit one launch's grid.
inline void check_launch_tiles(std::int64_t tiles, std::string_view who) {
  if (tiles > max_launch_tiles)
    throw invalid_argument(std::string(who) + ": too many tiles for one launch");
}

}  // namespace scankit::cuda::detail
