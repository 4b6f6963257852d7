// The one place that decides how the CPU segmented sort runs: which sorter takes each segment,
// and whether the segments are spread over the thread pool (pure, tested directly).
#pragma once

#include <cstdint>
#include <string>

#include "scankit/cpu/detail/segmented_sort/tuning.hpp"
#include "scankit/error.hpp"

namespace scankit::cpu {

/// How one segment is sorted.
enum class segment_sorter {
  automatic,  // by its length: insertion, comparison, one thread's radix sort, or the whole pool's
  insertion,  // insertion sort (stable), for a handful of items
  comparison, // a comparison sort by rank (std::sort; stable through (rank, position) pairs)
  radix,      // one thread's LSD radix sort over a buffer of the segment's size
  parallel,   // the library's parallel radix sort (sort_keys_parallel) on the segment alone
};

/// What a caller may force of a CPU segmented sort; the defaults are the tuned choices. Every
/// choice gives the same result (the sorts are stable): forcing one reaches its code in tests.
struct segmented_sort_config {
  segment_sorter sorter = segment_sorter::automatic;
  /// The segment-parallel loop over the thread pool: on (the default, above a small size) or
  /// off (every segment on the calling thread).
  bool parallel = true;
};

}  // namespace scankit::cpu

namespace scankit::cpu::detail::segmented_sort {

/// The sorter for a segment of m items.
inline segment_sorter plan_segment(std::int64_t m, const segmented_sort_config& cfg) {
  if (cfg.sorter != segment_sorter::automatic) return cfg.sorter;
  if (m <= insertion_max_items) return segment_sorter::insertion;
  if (m < radix_min_items) return segment_sorter::comparison;
  if (m < parallel_min_items) return segment_sorter::radix;
  return segment_sorter::parallel;
}

/// Whether the segments are spread over the pool: `work` is items plus segments.
inline bool plan_parallel(std::int64_t work, const segmented_sort_config& cfg) {
  return cfg.parallel && work >= serial_below_work;
}

inline void check_config(const segmented_sort_config& cfg, const char* who) {
  switch (cfg.sorter) {
    case segment_sorter::automatic:
    case segment_sorter::insertion:
    case segment_sorter::comparison:
    case segment_sorter::radix:
    case segment_sorter::parallel: return;
  }
  throw invalid_argument(std::string(who) + ": unknown segment_sorter");
}

}  // namespace scankit::cpu::detail::segmented_sort
