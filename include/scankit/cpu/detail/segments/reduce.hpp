// The CPU segmented reduction: merge path over the items and the segment ends.
//
// The work is the merge of the segment ends end[0..S) with the item positions 0..n-1 (an end
// e comes before item i when e <= i), n + S work items in all, cut into tiles of equal work.
// A tile reduces every segment whose end it holds, and keeps two partial values: the head
// (the items of its first segment, when that segment began in an earlier tile) and the tail
// (the items of the segment still open at its end). A pass over the tiles in order then
// carries the tails into the heads. The time depends on n + S alone, not on how the items are
// spread over the segments (one giant segment, or millions of empty ones), and every segment's
// value is folded from fixed pieces in a fixed order: the same bits on any number of threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "scankit/cpu/detail/segments/plan.hpp"
#include "scankit/cpu/detail/segments/tiles.hpp"
#include "scankit/ops.hpp"
#include "scankit/segments.hpp"

namespace scankit::cpu::detail::segments {

/// The number of segment ends among the first d work items of the merge (see the top).
inline std::int64_t merge_path_split(const std::int64_t* end, std::int64_t count, std::int64_t n, std::int64_t d) {
  std::int64_t lo = std::max<std::int64_t>(0, d - n), hi = std::min(d, count);
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    // end[mid] precedes item d - mid - 1: more than mid ends are among the first d.
    if (end[mid] <= d - mid - 1) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/// The segmented reduction at plan p (arguments already checked; p over n + seg.count work).
template <class Op>
void segmented_reduce(const value_t<Op>* in, std::int64_t n, const segment_bounds& seg, Op op,
                      const value_t<Op>& empty_value, value_t<Op>* out, const plan& p) {
  using U = value_t<Op>;
  const std::int64_t count = seg.count, work = n + count;
  if (count == 0) return;
  struct partial {
    std::int64_t first = 0, last = 0;  // segments [first, last) end in the tile
    bool head_open = false;             // segment `first` began in an earlier tile
  };
  std::vector<partial> tile(static_cast<std::size_t>(p.tiles));
  std::vector<U> head(static_cast<std::size_t>(p.tiles), op.identity());
  std::vector<U> tail(static_cast<std::size_t>(p.tiles), op.identity());
  auto run = [&](std::int64_t t) {
    const std::int64_t d0 = t * p.tile, d1 = std::min(work, d0 + p.tile);
    const std::int64_t s0 = merge_path_split(seg.end, count, n, d0), s1 = merge_path_split(seg.end, count, n, d1);
    const std::int64_t i0 = d0 - s0, i1 = d1 - s1;
    partial& pt = tile[static_cast<std::size_t>(t)];
    pt.first = s0;
    pt.last = s1;
    // Items before i are consumed; every end taken here is >= i0 (it was not taken before).
    std::int64_t i = i0;
    for (std::int64_t s = s0; s < s1; ++s) {
      const std::int64_t b = seg.begin[s], e = seg.end[s];
      const U v = fold(in, std::max(b, i), e, op);
      if (s == s0 && b < i0) {
        pt.head_open = true;
        head[static_cast<std::size_t>(t)] = v;
      } else {
        out[s] = b == e ? empty_value : v;
      }
      i = std::max(i, e);
    }
    // Items of the segment still open (those before its begin lie between segments).
    if (s1 < count) tail[static_cast<std::size_t>(t)] = fold(in, std::max(seg.begin[s1], i), i1, op);
  };
  for_each_tile(p.tiles, p.parallel, run);
  // Carries in tile order: `carry` holds the items so far of the segment open at the tile's
  // start (the identity when it has none yet).
  U carry = op.identity();
  for (std::int64_t t = 0; t < p.tiles; ++t) {
    const partial& pt = tile[static_cast<std::size_t>(t)];
    const U& tl = tail[static_cast<std::size_t>(t)];
    if (pt.last > pt.first) {
      if (pt.head_open) out[pt.first] = op(carry, head[static_cast<std::size_t>(t)]);
      carry = tl;
    } else {
      carry = op(carry, tl);
    }
  }
}

}  // namespace scankit::cpu::detail::segments
