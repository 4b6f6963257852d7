// The scan along an axis: its launch shape and the sizes at which the plan (plan.hpp) changes
// strategy. Plain C++: the plan reads these on the host, the kernels at compile time.
#pragma once

#include <cstdint>

namespace scankit::cuda::detail::axis_scan {

/// Threads of every kernel but the block carry-in; each warp works alone.
inline constexpr int block_threads = 256;
inline constexpr int block_warps = block_threads / 32;
/// Resident threads of one SM the grid is sized for (grid = SMs x this / block_threads at most).
inline constexpr int threads_per_sm = 2048;
/// Steps of 32 items a warp loads before it combines them: independent loads in flight.
inline constexpr int unroll = 8;
/// Row kernel (inner 1, 2 or 4): consecutive items per lane; a step is 32 of those runs.
inline constexpr int row_items = 8;

/// The plan aims at this many work items per SM: two waves of full SMs (64 warps each).
inline constexpr std::int64_t items_per_sm = 64 * 2;
/// A work item has at least this many elements (32 steps of 32 items).
inline constexpr std::int64_t min_item_elements = 32 * 32;
/// Narrow lines: planes (len x inner) of at most this many elements are taken whole, several
/// to a work item (the row kernel keeps a row position in 32-bit counters for such rows).
inline constexpr std::int64_t whole_planes_up_to = 2048;
/// Lines of at least this many interleaved columns take the wide kernel, one column a lane.
inline constexpr std::int64_t wide_from_inner = 32;
/// Wide kernel: fewest rows per chunk.
inline constexpr std::int64_t wide_min_rows = 64;
/// Carry-ins: more chunks per line than this on fewer lines than carry_block_lines_per_sm per
/// SM take one block per line instead of one warp per line.
inline constexpr std::int64_t carry_block_from_chunks = 256;
inline constexpr std::int64_t carry_block_lines_per_sm = 16;
inline constexpr int carry_block_threads = 1024;

}  // namespace scankit::cuda::detail::axis_scan
