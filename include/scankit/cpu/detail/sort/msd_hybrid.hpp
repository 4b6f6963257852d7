// The MSD-first hybrid radix sort (sort_path::msd_hybrid), for inputs of at least
// hybrid_params::min_bytes whose keys vary in at least two digits.
//
// Every LSD pass is a round trip through DRAM, so instead:
//   - one chunked, write-combining pass (detail/sort/passes.hpp) by the most significant
//     varying digit moves the items from the caller's array into 256 buckets of the scratch
//     buffer;
//   - each bucket (about n/256 items) is then sorted by the lower varying digits by one thread,
//     in the cache (detail/sort/buckets.hpp, or vqsort.hpp for keys alone), and only its last
//     pass writes the bucket's range of the caller's array.
// Each item then crosses DRAM five times (survey; MSD read and write; bucket read and write)
// instead of twelve for four LSD passes. Stable: the MSD pass is a stable chunked pass, and
// each bucket sort a stable LSD sort. Buckets vary in size, so each thread takes the next
// bucket, largest first, from a shared counter. A bucket too big for one thread
// (plan_leaf_max: skewed keys, most of them sharing their top digit) would serialise the sort:
// such buckets are sorted first, one after the other, each by every thread with the same
// algorithm on the next digit down. The bucket buffers take up to 3 x leaf_bytes per thread, on
// top of the scratch buffer.
//
// Out of place (from another array), the buckets land in the output and are sorted there in
// place, so no scratch buffer of n items is needed (a bucket too big for one thread gets
// scratch of its own size).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "scankit/cpu/detail/parallel.hpp"
#include "scankit/cpu/detail/sort/buckets.hpp"
#include "scankit/cpu/detail/sort/lsd.hpp"
#include "scankit/cpu/detail/sort/passes.hpp"
#include "scankit/cpu/detail/sort/plan.hpp"
#include "scankit/cpu/detail/sort/sorter.hpp"
#include "scankit/cpu/detail/sort/vqsort.hpp"
#include "scankit/cpu/detail/streaming.hpp"

namespace scankit::cpu::detail {

/// Sorts the n items of `from` by the passes t.active (t: the survey of from) into x when
/// end_in_x, else into y. `from` is only read; it is x itself, or a third array of n items.
/// y is scratch of n items; for an out-of-place sort that takes the hybrid (uses_hybrid) it
/// may be x itself, as the hybrid's bucket sorts run in place.
template <class K, class V>
void radix_sorter<K, V>::sort(span from, span x, span y, std::int64_t n, const tally& t, bool end_in_x) const {
  if (t.active.empty()) {
    const span fin = end_in_x ? x : y;
    if (from.k != fin.k) copy(from, fin, n);
    return;
  }
  if (uses_hybrid(n, t)) msd(from, x, y, n, t, end_in_x);
  else lsd(from, x, y, n, t, end_in_x);
}

/// The MSD-first hybrid: one chunked pass by the top active digit into y, then every
/// bucket sorted by the lower digits on its own; see the notes at the top of this file.
/// With y == x (an out-of-place sort: from is another array), the buckets are sorted in
/// place in x, and only the rare buckets too big for one thread get scratch of their own.
template <class K, class V>
void radix_sorter<K, V>::msd(span from, span x, span y, std::int64_t n, const tally& t, bool end_in_x) const {
  const int top = t.active.back();
  const std::vector<int> rest(t.active.begin(), t.active.end() - 1);
  std::vector<std::int64_t> hist(static_cast<std::size_t>(t.chunks * radix));
  histogram(t, true, from.k, n, top, hist);
  std::array<std::int64_t, radix + 1> first{};  // bucket d: [first[d], first[d + 1])
  for (int d = 0; d < radix; ++d) {
    first[d + 1] = first[d];
    for (std::int64_t c = 0; c < t.chunks; ++c) first[d + 1] += hist[static_cast<std::size_t>(c * radix + d)];
  }
  scan_hist(hist, t.chunks);
  // Every chunk writes into every bucket at once, and a bucket is about one huge page (2 MiB
  // at 2^27 uint32): on a destination nobody has written yet (a fresh NumPy array, a fresh
  // scratch buffer) all threads fault the same page, one clears it while the others wait,
  // and the kernel's clearing of the whole array runs on one thread at a time. Touched first
  // by contiguous ranges, its pages are cleared by all threads at once; on resident pages a
  // touch costs one line in 64.
  if (workers_ > 1) {
    touch_pages(y.k, n * static_cast<std::int64_t>(sizeof(K)), static_cast<int>(workers_));
    if (y.v) touch_pages(y.v, n * static_cast<std::int64_t>(sizeof(V)), static_cast<int>(workers_));
  }
  scatter(from, y, n, t.chunks, top, hist);

  // Buckets of more than leaf_max items (skewed keys) are sorted one after the other by every
  // thread, recursively; the others by one thread each.
  const std::int64_t leaf_max = plan_leaf_max(n, item_bytes(), workers_, hp_);
  const span dst = end_in_x ? x : y;
  const bool in_place = y.k == x.k;
  std::int64_t big = 0;  // the largest bucket sorted by every thread
  for (int d = 0; d < radix; ++d) big = std::max(big, first[d + 1] - first[d] > leaf_max ? first[d + 1] - first[d] : 0);
  raw_buffer<std::byte> own(in_place && big > 0 && ws_ == nullptr ? big * item_bytes() + 64 : 0);
  std::byte* const spare = !in_place || big == 0 ? nullptr
                           : ws_ != nullptr    ? ws_->scratch(static_cast<std::size_t>(big * item_bytes()) + 64)
                                               : own.get();
  std::vector<int> leaves;
  std::int64_t cap = 0;
  for (int d = 0; d < radix; ++d) {
    const std::int64_t m = first[d + 1] - first[d];
    if (m == 0) continue;
    if (m <= leaf_max) {
      leaves.push_back(d);
      cap = std::max(cap, m);
      continue;
    }
    const span yb = y.at(first[d]), xb = x.at(first[d]);
    if (in_place) {
      const std::size_t kb = line_round(static_cast<std::size_t>(m) * sizeof(K));
      const span scratch{reinterpret_cast<K*>(spare), with_values_ ? reinterpret_cast<V*>(spare + kb) : nullptr};
      sort(xb, xb, scratch, m, survey(xb.k, m, rest), true);
    } else {
      sort(yb, yb, xb, m, survey(yb.k, m, rest), !end_in_x);
    }
  }
  if (leaves.empty()) return;
  // Largest first, each thread taking the next bucket when done with one: the small ones
  // fill in at the end.
  std::stable_sort(leaves.begin(), leaves.end(),
                   [&](int a, int b) { return first[a + 1] - first[a] > first[b + 1] - first[b]; });
  const std::int64_t pool = std::min<std::int64_t>(workers_, static_cast<std::int64_t>(leaves.size()));
  std::vector<leaf_buffers> buffers(static_cast<std::size_t>(pool));
  if (ws_ != nullptr) ws_->prepare_leaves(buffers.size());  // here, before the workers start
  for (std::size_t i = 0; i < buffers.size(); ++i) buffers[i].ws = ws_, buffers[i].slot = i;
  std::atomic<std::size_t> next{0};
  const bool quicksort = quicksort_buckets();
  for_chunks(pool, [&](std::int64_t c) {
    leaf_buffers& lb = buffers[static_cast<std::size_t>(c)];
    // Every worker's buffers up front, by that worker (the pages then lie near it), whether
    // or not a bucket is left for it: a workspace then holds the same after the same call.
    if (!quicksort) lb.reserve(cap, y.v != nullptr);
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < leaves.size();) {
      const int d = leaves[i];
      const std::int64_t m = first[d + 1] - first[d];
      switch (plan_bucket(m, item_bytes(), rest.size(), quicksort, hp_)) {
        case bucket_path::vqsort: quicksort_leaf(y.k + first[d], dst.k + first[d], m); break;
        case bucket_path::split: split_leaf(y.at(first[d]), dst.at(first[d]), m, rest, lb, cap); break;
        case bucket_path::radix: leaf(y.at(first[d]), dst.at(first[d]), m, rest, lb.a(), lb.b(), leaf_out(m)); break;
      }
    }
    store_fence();  // the staged copies' streaming stores, before the join publishes them
  });
}

}  // namespace scankit::cpu::detail
