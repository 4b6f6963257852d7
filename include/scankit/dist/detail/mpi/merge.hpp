// Stable merge of sorted runs on the CPU (the MPI ranks' sort, phase 6): the pieces a rank
// receives lie back to back in source-rank order, each sorted; merging them in that order, the
// earlier run first among equal keys, is the stable sort of the bucket.
//
// Rounds of pairwise merges: round w merges runs [2gw, 2gw + w) with [2gw + w, 2gw + 2w) for
// every g, so p runs take ceil(log2 p) rounds, each one read and one write of the items,
// alternating between the received vectors and one scratch pair (swapped into place at the
// end: no final copy). Inside a round the output is cut into chunks that merge in parallel
// (oneTBB): a chunk's start in each input is found by a binary search on its cross diagonal
// (merge path), so the chunks need nothing from each other. The last round can place one
// window of the result elsewhere (the part of a bucket that stays on its rank, written straight
// into the rank's output).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace scankit::dist::detail::mpi {

/// How many of the first d outputs of merge(a[0, na), b[0, nb)) come from a (ties go to a).
template <class K, class Less>
std::int64_t merge_split(const K* a, std::int64_t na, const K* b, std::int64_t nb, std::int64_t d, const Less& less) {
  std::int64_t lo = std::max<std::int64_t>(0, d - nb), hi = std::min(d, na);
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (!less(b[d - 1 - mid], a[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/// Positions [begin, end) of a merge's result, written to keys[0, end - begin) (and values)
/// instead of the vectors.
template <class K, class V>
struct placed_window {
  K* keys = nullptr;
  V* values = nullptr;
  std::int64_t begin = 0, end = 0;
};

/// Merges the sorted runs [offsets[r], offsets[r + 1]) of `keys` (and of `values`, when not
/// null, moving with their keys) into one sorted sequence, in place of the vectors; positions
/// inside `window` go to the window's arrays instead (what the vectors hold there is then
/// unspecified).
template <class K, class V, class Less>
void merge_runs(std::vector<K>& keys, std::vector<V>* values, std::span<const std::int64_t> offsets, const Less& less,
                const placed_window<K, V>& window = {}) {
  const auto runs = static_cast<std::int64_t>(offsets.size()) - 1;
  if (runs <= 1) {
    // Already one sorted run: only the window moves.
    std::copy(keys.begin() + window.begin, keys.begin() + window.end, window.keys);
    if (values) std::copy(values->begin() + window.begin, values->begin() + window.end, window.values);
    return;
  }
  constexpr std::int64_t chunk = std::int64_t{1} << 15;
  std::vector<K> keys2(keys.size());
  std::vector<V> values2(values ? values->size() : 0);
  struct task {
    std::int64_t start, middle, end, d0, d1;  // a group's runs [start, middle) and [middle, end); outputs [d0, d1)
  };
  std::vector<task> work;
  auto at = [&](std::int64_t run) { return offsets[static_cast<std::size_t>(std::min(run, runs))]; };
  for (std::int64_t w = 1; w < runs; w *= 2) {
    work.clear();
    for (std::int64_t g = 0; 2 * g * w < runs; ++g) {
      const std::int64_t s = at(2 * g * w), m = at(2 * g * w + w), e = at(2 * g * w + 2 * w);
      for (std::int64_t d = 0; d < e - s; d += chunk) work.push_back({s, m, e, d, std::min(d + chunk, e - s)});
    }
    const K* kin = keys.data();
    K* kout = keys2.data();
    const V* vin = values ? values->data() : nullptr;
    V* vout = values ? values2.data() : nullptr;
    // The last round writes the window's positions to the window: position o to kout[o] or,
    // inside [w0, w1), to kwin[o - w0].
    const bool last = 2 * w >= runs;
    const std::int64_t w0 = last ? window.begin : 0, w1 = last ? window.end : 0;
    K* const kwin = window.keys;
    V* const vwin = window.values;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, work.size()), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t t = r.begin(); t != r.end(); ++t) {
        const task& c = work[t];
        const K* a = kin + c.start;
        const K* b = kin + c.middle;
        const std::int64_t na = c.middle - c.start, nb = c.end - c.middle;
        std::int64_t i = merge_split(a, na, b, nb, c.d0, less), j = c.d0 - i;
        const std::int64_t i_end = merge_split(a, na, b, nb, c.d1, less), j_end = c.d1 - i_end;
        for (std::int64_t o = c.start + c.d0; o < c.start + c.d1; ++o) {
          const bool take_a = j >= j_end || (i < i_end && !less(b[j], a[i]));
          const std::int64_t from = take_a ? c.start + i++ : c.middle + j++;
          const bool placed = o >= w0 && o < w1;
          (placed ? kwin[o - w0] : kout[o]) = kin[from];
          if (vout) (placed ? vwin[o - w0] : vout[o]) = vin[from];
        }
      }
    });
    keys.swap(keys2);
    if (values) values->swap(values2);
  }
}

}  // namespace scankit::dist::detail::mpi
