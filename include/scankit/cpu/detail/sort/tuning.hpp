// Tuning of the CPU radix sort, as data: the sizes that choose between its algorithms
// (hybrid_params, which the tests shrink to reach every path at small sizes) and the
// constants its plan and loops read.
#pragma once

#include <cstdint>

namespace scankit::cpu::detail {

/// Bits per digit: 256 digits, so a pass's per-chunk histograms and a thread's write-combining
/// lines (256 x 64 bytes) stay in L1.
inline constexpr int radix_bits = 8;
inline constexpr int radix = 1 << radix_bits;

/// Keys the survey samples to guess which digits vary.
inline constexpr std::int64_t sort_survey_sample = 1024;
/// Below this many items a sort runs as one chunk on the calling thread.
inline constexpr std::int64_t sort_one_chunk_below = std::int64_t{1} << 16;
/// Large inputs are cut into more chunks (up to hybrid_params::chunks_per_worker per worker)
/// only while every (chunk, digit) range still averages this many bytes of keys, so that the
/// lines cut at the ranges' edges stay few.
inline constexpr std::int64_t sort_range_bytes = std::int64_t{16} << 10;
/// With several threads, a bucket of more than 1/(2 workers) of the items, and more than this
/// many, is sorted by every thread rather than one (see plan_leaf_max).
inline constexpr std::int64_t sort_shared_bucket_min_items = std::int64_t{1} << 16;

/// How the MSD-first hybrid sorts a bucket of keys without values (detail/sort/vqsort.hpp).
enum class bucket_sort {
  /// The radix passes in the cache (leaf, split_leaf): stable, any key type and bit range.
  radix,
  /// Highway's vectorized quicksort, for 4- and 8-byte keys over their whole bit range: there
  /// two keys that compare equal are the same bits, so the order of equal keys, which a
  /// quicksort does not keep, cannot be seen. Elsewhere, and in builds without Highway, radix.
  vqsort,
};

/// Tuning of the MSD-first hybrid (detail/sort/msd_hybrid.hpp). The defaults are the
/// library's; tests shrink them so that the hybrid and its recursion run at small sizes.
/// min_bytes: below it the array and its scratch buffer mostly stay in a server's last-level
/// cache, where the LSD passes are cheap.
struct hybrid_params {
  /// The hybrid sorts inputs of at least this many bytes (keys and values together).
  std::int64_t min_bytes = std::int64_t{16} << 20;
  /// The most bytes (keys and values) of one bucket that a single thread sorts alone.
  std::int64_t leaf_bytes = std::int64_t{8} << 20;
  /// A bucket of more bytes than this, with at least three digits left, is split once more by
  /// its top digit before its LSD passes, so that those run on pieces the size of an L1 cache.
  std::int64_t split_bytes = std::int64_t{256} << 10;
  /// Large inputs are cut into up to this many chunks per worker (each chunk's items going to
  /// 256 ranges of their own), so that a worker slowed down by something else on the host
  /// holds up the read and the scatter less: TBB hands the chunks out as workers come free.
  std::int64_t chunks_per_worker = 4;
  /// How a bucket of keys without values is sorted (where the choice applies).
  bucket_sort buckets = bucket_sort::vqsort;
};

}  // namespace scankit::cpu::detail
