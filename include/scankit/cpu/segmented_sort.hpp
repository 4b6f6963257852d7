// CPU segmented sorts: every segment of an array sorted on its own, in place, by the order of
// the flat sorts (sort_traits.hpp: ascending or descending, a bit range, floats in IEEE total
// order), stably. Segments come as CSR offsets or begin/end bounds (segments.hpp); items
// between segments are left as they are.
//
//   segmented_sort_keys_serial / _pairs_serial  the reference: std::stable_sort per segment
//   segmented_sort_keys / segmented_sort_pairs  the library's sort (below)
//   segmented_sort(span keys, span offsets)     the same over spans of CSR offsets
//
// Each segment goes to one sorter by its length (detail/segmented_sort/plan.hpp): an insertion
// sort for a handful of items, a comparison sort for short segments, one thread's LSD radix sort
// (detail/segmented_sort/sorters.hpp) up to a size where the pool pays, and the parallel radix sort (sort.hpp) on the segment
// alone above it. The segments are dealt to the pool in tasks of equal work (items plus
// segments, so millions of empty or one-item segments weigh what their count says), and the
// giant segments run after them, one at a time, each on the whole pool.
// Bad arguments (negative n, a null pointer, segments that decrease or pass n, a bad bit
// range) throw scankit::invalid_argument before anything is written.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <tbb/enumerable_thread_specific.h>

#include "scankit/cpu/detail/parallel.hpp"
#include "scankit/cpu/detail/segmented_sort/plan.hpp"
#include "scankit/cpu/detail/segmented_sort/sorters.hpp"
#include "scankit/cpu/detail/sort/args.hpp"
#include "scankit/cpu/sort.hpp"
#include "scankit/error.hpp"
#include "scankit/segments.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::cpu {

namespace detail::segmented_sort {

template <class K, class V>
ranker<K> checked_ranker(const K* keys, const V* values, bool with_values, std::int64_t n, const segment_bounds& seg,
                         const sort_options& opts, const char* who) {
  check_sort_args(keys, values, with_values, n, who);
  check_segments_host(seg, n, who);
  const auto [b, e] = scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, who);
  return ranker<K>{b, e, opts.descending};
}

/// Segment s's items, sorted by the sorter the plan (or the config) gives it.
template <class K, class V>
void sort_one(K* keys, V* values, std::int64_t m, segment_sorter how, const ranker<K>& rank, scratch<K, V>& s,
              const sort_options& opts) {
  switch (how) {
    case segment_sorter::insertion: insertion_sort(keys, values, m, rank); break;
    case segment_sorter::comparison: comparison_sort(keys, values, m, rank, s); break;
    case segment_sorter::parallel:
      if (values != nullptr) sort_pairs_parallel(keys, values, m, opts);
      else sort_keys_parallel(keys, m, opts);
      break;
    default: radix_sort(keys, values, m, rank, s); break;
  }
}

template <class K, class V>
void run(K* keys, V* values, const segment_bounds& seg, const ranker<K>& rank, const sort_options& opts,
         const segmented_sort_config& cfg, std::int64_t n) {
  // Segment s begins at work position begin[s] + s: strictly increasing, so tasks of equal
  // work are ranges of segments found by binary search.
  const std::int64_t work = n + seg.count;
  auto sort_range = [&](std::int64_t s0, std::int64_t s1, scratch<K, V>& s, bool skip_parallel) {
    bool skipped = false;
    for (std::int64_t q = s0; q < s1; ++q) {
      const std::int64_t b = seg.begin[q], m = seg.end[q] - b;
      if (m <= 1) continue;
      const segment_sorter how = plan_segment(m, cfg);
      if (how == segment_sorter::parallel && skip_parallel) {
        skipped = true;
        continue;
      }
      sort_one(keys + b, values ? values + b : nullptr, m, how, rank, s, opts);
    }
    return skipped;
  };
  if (!plan_parallel(work, cfg)) {
    scratch<K, V> s;
    sort_range(0, seg.count, s, false);
    return;
  }
  auto first_segment_at = [&](std::int64_t w) {  // the first s with begin[s] + s >= w
    std::int64_t lo = 0, hi = seg.count;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (seg.begin[mid] + mid < w) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const std::int64_t tasks = (work + chunk_work - 1) / chunk_work;
  tbb::enumerable_thread_specific<scratch<K, V>> scratches;
  std::atomic<bool> giants{false};
  fenced_for_each(tasks, 1, [&](std::int64_t t) {
    const std::int64_t s0 = first_segment_at(t * chunk_work), s1 = first_segment_at((t + 1) * chunk_work);
    if (sort_range(s0, s1, scratches.local(), true)) giants.store(true, std::memory_order_relaxed);
  });
  if (!giants.load()) return;
  // The segments left for the whole pool, one after another.
  scratch<K, V> unused;
  for (std::int64_t q = 0; q < seg.count; ++q) {
    const std::int64_t b = seg.begin[q], m = seg.end[q] - b;
    if (m > 1 && plan_segment(m, cfg) == segment_sorter::parallel)
      sort_one(keys + b, values ? values + b : nullptr, m, segment_sorter::parallel, rank, unused, opts);
  }
}

}  // namespace detail::segmented_sort

// ---------------------------------------------------------------------------------------------
// Serial references.

/// std::stable_sort of each segment's keys by their rank bits.
template <class K>
void segmented_sort_keys_serial(K* keys, std::int64_t n, const segment_bounds& seg, const sort_options& opts = {}) {
  const auto rank = detail::segmented_sort::checked_ranker<K, int>(keys, nullptr, false, n, seg, opts,
                                                                   "scankit::cpu::segmented_sort_keys_serial");
  for (std::int64_t q = 0; q < seg.count; ++q)
    std::stable_sort(keys + seg.begin[q], keys + seg.end[q], [&](K a, K b) { return rank(a) < rank(b); });
}

/// The pairs of each segment, stably sorted by key: a stable sort of positions, then the
/// permutation applied.
template <class K, class V>
void segmented_sort_pairs_serial(K* keys, V* values, std::int64_t n, const segment_bounds& seg,
                                 const sort_options& opts = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "sort values must be trivially copyable");
  const auto rank = detail::segmented_sort::checked_ranker(keys, values, true, n, seg, opts,
                                                           "scankit::cpu::segmented_sort_pairs_serial");
  std::vector<std::int64_t> idx;
  std::vector<K> k;
  std::vector<V> v;
  for (std::int64_t q = 0; q < seg.count; ++q) {
    const std::int64_t b = seg.begin[q], m = seg.end[q] - b;
    idx.resize(static_cast<std::size_t>(m));
    std::iota(idx.begin(), idx.end(), b);
    std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t x, std::int64_t y) { return rank(keys[x]) < rank(keys[y]); });
    k.clear();
    v.clear();
    for (const std::int64_t i : idx) {
      k.push_back(keys[i]);
      v.push_back(values[i]);
    }
    std::copy(k.begin(), k.end(), keys + b);
    std::copy(v.begin(), v.end(), values + b);
  }
}

// ---------------------------------------------------------------------------------------------
// The library's segmented sorts.

/// Sorts each segment's keys in place (see the top of this file).
template <class K>
void segmented_sort_keys(K* keys, std::int64_t n, const segment_bounds& seg, const sort_options& opts = {},
                         const segmented_sort_config& cfg = {}) {
  constexpr const char* who = "scankit::cpu::segmented_sort_keys";
  detail::segmented_sort::check_config(cfg, who);
  const auto rank = detail::segmented_sort::checked_ranker<K, int>(keys, nullptr, false, n, seg, opts, who);
  detail::segmented_sort::run<K, int>(keys, nullptr, seg, rank, opts, cfg, n);
}

/// Sorts each segment's pairs in place by key, stably; values move with their keys.
template <class K, class V>
void segmented_sort_pairs(K* keys, V* values, std::int64_t n, const segment_bounds& seg,
                          const sort_options& opts = {}, const segmented_sort_config& cfg = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "sort values must be trivially copyable");
  constexpr const char* who = "scankit::cpu::segmented_sort_pairs";
  detail::segmented_sort::check_config(cfg, who);
  const auto rank = detail::segmented_sort::checked_ranker(keys, values, true, n, seg, opts, who);
  detail::segmented_sort::run(keys, values, seg, rank, opts, cfg, n);
}

/// segmented_sort_keys over a span, with CSR offsets (offsets.size() - 1 segments).
template <class K>
void segmented_sort(std::span<K> keys, std::span<const std::int64_t> offsets, const sort_options& opts = {}) {
  if (offsets.empty()) throw invalid_argument("scankit::cpu::segmented_sort: offsets need at least one entry");
  segmented_sort_keys(keys.data(), static_cast<std::int64_t>(keys.size()),
                      segment_offsets{offsets.data(), static_cast<std::int64_t>(offsets.size()) - 1}, opts);
}

/// segmented_sort_pairs over spans, with CSR offsets.
template <class K, class V>
void segmented_sort(std::span<K> keys, std::span<V> values, std::span<const std::int64_t> offsets,
                    const sort_options& opts = {}) {
  constexpr const char* who = "scankit::cpu::segmented_sort";
  if (offsets.empty()) throw invalid_argument(std::string(who) + ": offsets need at least one entry");
  if (keys.size() != values.size())
    throw invalid_argument(std::string(who) + ": " + std::to_string(keys.size()) + " keys but " +
                           std::to_string(values.size()) + " values");
  segmented_sort_pairs(keys.data(), values.data(), static_cast<std::int64_t>(keys.size()),
                       segment_offsets{offsets.data(), static_cast<std::int64_t>(offsets.size()) - 1}, opts);
}

}  // namespace scankit::cpu
