// The CPU radix sort's plan: which algorithm sorts a call (plan_sort), and within the
// MSD-first hybrid how each bucket is sorted and written (plan_bucket, plan_leaf_output,
// plan_leaf_max), how many chunks a pass cuts its input into (plan_chunks). Pure functions of
// the call's sizes and hybrid_params (detail/sort/tuning.hpp); radix_sorter asks them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "scankit/cpu/detail/sort/tuning.hpp"

namespace scankit::cpu::detail {

/// The algorithms of a sort, or of a bucket too big for one thread.
enum class sort_path {
  lsd,         // chunked LSD passes over the whole array (detail/sort/lsd.hpp)
  msd_hybrid,  // one chunked pass by the top digit, then every bucket on its own (msd_hybrid.hpp)
};

/// How one bucket of the hybrid is sorted by one thread (detail/sort/buckets.hpp, vqsort.hpp).
enum class bucket_path {
  vqsort,  // Highway's vectorized quicksort (plan_vqsort_buckets)
  split,   // one more pass by its top digit into L1-sized pieces, each then as `radix`
  radix,   // serial LSD passes in the thread's buffers (leaf)
};

/// How a bucket sort's last pass writes its destination: with plain stores; through the
/// line_writer (streaming whole lines; for buckets too big for the cache); or, staged, into
/// a buffer in the cache and from there to the destination with stream_bytes (for buckets
/// that fit the cache, whose digit ranges are too short for whole lines: this skips the
/// read of every destination line that plain stores cost).
enum class out_mode { plain, combine, staged };

/// Whether n items of item_bytes each (keys and values) are enough for the hybrid.
inline bool hybrid_sized(std::int64_t n, std::int64_t item_bytes, const hybrid_params& hp) {
  return n * item_bytes >= hp.min_bytes;
}

/// The algorithm for n items whose keys vary in `varying_digits` digits: the hybrid from
/// hp.min_bytes when at least two digits vary (below it the array and its scratch buffer
/// mostly stay in a server's last-level cache, where the LSD passes are cheap), else LSD.
inline sort_path plan_sort(std::int64_t n, std::int64_t item_bytes, std::size_t varying_digits,
                           const hybrid_params& hp) {
  return varying_digits >= 2 && hybrid_sized(n, item_bytes, hp) ? sort_path::msd_hybrid : sort_path::lsd;
}

/// Whether the hybrid's buckets of keys without values go to Highway's vqsort: 4- and 8-byte
/// keys over their whole bit range (two keys that compare equal are then the same bits, so
/// the order of equal keys, which a quicksort does not keep, cannot be seen), in builds with
/// Highway, unless hp.buckets says radix.
inline bool plan_vqsort_buckets([[maybe_unused]] const hybrid_params& hp, [[maybe_unused]] bool with_values,
                                [[maybe_unused]] std::size_t key_bytes, [[maybe_unused]] bool whole_key) {
#if defined(SCANKIT_HAS_HIGHWAY)
  return hp.buckets == bucket_sort::vqsort && !with_values && (key_bytes == 4 || key_bytes == 8) && whole_key;
#else
  return false;
#endif
}

/// How one thread sorts a bucket of m items with `digits_left` varying digits below the one
/// that made it: a bucket bigger than hp.split_bytes with at least three digits left is split
/// once more, so that the LSD passes run on pieces the size of an L1 cache.
inline bucket_path plan_bucket(std::int64_t m, std::int64_t item_bytes, std::size_t digits_left, bool vqsort,
                               const hybrid_params& hp) {
  if (vqsort) return bucket_path::vqsort;
  if (digits_left >= 3 && m * item_bytes > hp.split_bytes) return bucket_path::split;
  return bucket_path::radix;
}

/// How a bucket sort of m items writes its destination (see out_mode).
inline out_mode plan_leaf_output(std::int64_t m, std::int64_t item_bytes, bool write_combining,
                                 const hybrid_params& hp) {
  if (!write_combining) return out_mode::plain;
  return m * item_bytes <= hp.split_bytes ? out_mode::staged : out_mode::combine;
}

/// The most items of a bucket that one thread sorts alone: it must fit the thread's buffers
/// (hp.leaf_bytes) and, with several threads, hold at most 1/(2 workers) of the items, so
/// that the slowest thread finishes within 1.5x of the mean. Larger buckets (skewed keys) are
/// sorted one after the other by every thread.
inline std::int64_t plan_leaf_max(std::int64_t n, std::int64_t item_bytes, std::int64_t workers,
                                  const hybrid_params& hp) {
  std::int64_t leaf_max = std::clamp<std::int64_t>(hp.leaf_bytes / item_bytes, 1, std::int64_t{1} << 31);
  if (workers > 1) leaf_max = std::min(leaf_max, std::max(n / (2 * workers), sort_shared_bucket_min_items));
  return leaf_max;
}

/// The chunks a pass over n keys of key_bytes each is cut into: one below
/// sort_one_chunk_below items; else one per worker, and more (up to hp.chunks_per_worker
/// each) while every (chunk, digit) range still averages sort_range_bytes of keys. More
/// chunks than workers let TBB hand them out as workers come free, so that a worker slowed
/// down by something else on the host holds up the pass less.
inline std::int64_t plan_chunks(std::int64_t n, std::int64_t key_bytes, std::int64_t workers, const hybrid_params& hp) {
  if (n < sort_one_chunk_below) return 1;
  const std::int64_t most = workers * std::max<std::int64_t>(1, hp.chunks_per_worker);
  const std::int64_t by_size = n * key_bytes / (radix * sort_range_bytes);
  return std::min(n, std::clamp(by_size, workers, most));
}

}  // namespace scankit::cpu::detail
