// The CPU segmented sort's tuning, as data.
#pragma once

#include <cstdint>

namespace scankit::cpu::detail::segmented_sort {

/// Segments of at most this many items are sorted by insertion: the few moves such a segment
/// needs cost less than any sort's set-up.
constexpr std::int64_t insertion_max_items = 32;
/// Segments below this many items get a comparison sort: a radix sort's 256
/// counters per digit, cleared and scanned for every segment, cost more than the compares.
constexpr std::int64_t radix_min_items = 256;
/// Work (items plus segments) per task of the segment-parallel loop: large enough that a task
/// amortises its scheduling, small enough that a few giant segments leave the rest balanced.
constexpr std::int64_t chunk_work = std::int64_t{1} << 16;
/// A segment of at least this many items is sorted by the parallel radix sort on its own (the
/// whole pool on one segment) instead of by one thread: below it, one thread's sort of the
/// segment takes less time than the pool needs to spread it.
constexpr std::int64_t parallel_min_items = std::int64_t{1} << 20;
/// Inputs of fewer work items than this are sorted on the calling thread.
constexpr std::int64_t serial_below_work = std::int64_t{1} << 14;

}  // namespace scankit::cpu::detail::segmented_sort
