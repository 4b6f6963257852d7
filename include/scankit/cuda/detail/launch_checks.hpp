// Checks a launcher makes before it launches: shared by every primitive so that each limit is
// stated, and worded, once.
#pragma once

#include <cstddef>
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

/// The alignment a caller's workspace must have (cudaMalloc's pointers have 256): the arrays
/// carved from it (math.hpp's workspace_alignment apart) are read as aligned words of up to 16 bytes.
inline constexpr std::size_t workspace_base_alignment = 16;

/// Throws invalid_argument("<who>: workspace is a null pointer" or "... must be 16-byte
/// aligned") where a call that needs `need` bytes of workspace was given an unusable pointer.
inline void check_workspace_pointer(const void* workspace, std::size_t need, std::string_view who) {
  if (need == 0) return;
  if (workspace == nullptr) throw invalid_argument(std::string(who) + ": workspace is a null pointer");
  if (reinterpret_cast<std::uintptr_t>(workspace) % workspace_base_alignment != 0)
    throw invalid_argument(std::string(who) + ": workspace must be " + std::to_string(workspace_base_alignment) +
                           "-byte aligned (as cudaMalloc's pointers are)");
}

}  // namespace scankit::cuda::detail
