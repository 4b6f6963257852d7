// The CPU segmented scans (by offsets, flags or keys) and reduce_by_key: tiles of a fixed
// number of items, in three steps.
//
//   1. every tile, in parallel: the fold of its items from its last head (or from its start
//      when it has none): the tail it hands to the next tile (reduce_by_key: also the number
//      of heads it holds, which takes a read of all its keys).
//   2. in tile order, on the calling thread: the carry into each tile, the value of the
//      segment open at its start, P[t+1] = has_head[t] ? op(init, tail[t]) : op(P[t], tail[t]).
//   3. every tile, in parallel: scan (or reduce) its runs from its carry, init at each head.
//
// The scans run step 1, then 2, then 3 over all tiles (step 1 reads only a tile's last
// segment). reduce_by_key chains the three per tile instead (chain.hpp), so that step 3 reads
// the keys that step 1 read from the cache.
//
// The work is the items alone: a head costs O(1) (for offsets, O(log m) to skip m empty
// segments), so the segment lengths do not matter. The tile size fixes every association,
// so floats give the same bits on any number of threads and on the serial path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "scankit/cpu/detail/segments/chain.hpp"
#include "scankit/cpu/detail/segments/plan.hpp"
#include "scankit/cpu/detail/segments/tiles.hpp"
#include "scankit/ops.hpp"

namespace scankit::cpu::detail::segments {

/// The segmented scan at plan p (over n items), with segments given by the heads policy H.
template <class H, class Op>
void segmented_scan(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, const H& heads, Op op, scan_kind kind,
                    const value_t<Op>& init, const plan& p) {
  using U = value_t<Op>;
  if (n == 0) return;
  auto bounds = [&](std::int64_t t) { return std::pair{t * p.tile, std::min(n, (t + 1) * p.tile)}; };
  // Pass 1 for tile t: its tail and whether it holds a head.
  auto tail_of = [&](std::int64_t t, U& tail, bool& has_head) {
    const auto [a, b] = bounds(t);
    const std::int64_t last = heads.last_head(a, b);
    has_head = last >= 0;
    tail = fold(in, has_head ? last : a, b, op);
  };
  // Pass 3 for tile t, from the carry into it.
  auto scan_tile = [&](std::int64_t t, const U& carry) {
    const auto [a, b] = bounds(t);
    if constexpr (requires { heads.starts(a); }) {
      scan_items(in, out, a, b, carry, heads.is_head(a), [&](std::int64_t i) { return heads.starts(i); }, init, op,
                 kind);
    } else {
      U acc = carry;
      heads.for_each_run(a, b, [&](std::int64_t lo, std::int64_t hi, bool head) {
        if (head) acc = init;
        acc = scan_run(in, out, lo, hi, acc, op, kind);
      });
    }
  };
  auto next_carry = [&](const U& carry, const U& tail, bool has_head) {
    return has_head ? op(init, tail) : op(carry, tail);
  };
  if (!p.parallel) {
    // The same tiles and carries in order: the parallel path's bits. The tail is folded
    // before the tile is written, as out may be in.
    U carry = init;
    for (std::int64_t t = 0; t < p.tiles; ++t) {
      U tail = op.identity();
      bool has_head = false;
      if (t + 1 < p.tiles) tail_of(t, tail, has_head);
      scan_tile(t, carry);
      if (t + 1 < p.tiles) carry = next_carry(carry, tail, has_head);
    }
    return;
  }
  std::vector<U> carry(static_cast<std::size_t>(p.tiles), init);
  std::vector<unsigned char> has_head(static_cast<std::size_t>(p.tiles), 0);
  // The last tile's tail is never used: its slot takes nothing.
  for_each_tile(p.tiles - 1, true, [&](std::int64_t t) {
    bool h = false;
    tail_of(t, carry[static_cast<std::size_t>(t + 1)], h);
    has_head[static_cast<std::size_t>(t)] = h ? 1 : 0;
  });
  for (std::int64_t t = 1; t < p.tiles; ++t) {
    const auto k = static_cast<std::size_t>(t);
    carry[k] = next_carry(carry[k - 1], carry[k], has_head[k - 1] != 0);
  }
  for_each_tile(p.tiles, true, [&](std::int64_t t) { scan_tile(t, carry[static_cast<std::size_t>(t)]); });
}

/// reduce_by_key at plan p over n items: writes the runs' keys and aggregates, returns the
/// number of runs. One read of the keys from memory: the tiles are chained (chain.hpp), so a
/// tile counts its heads and runs its runs while its keys are in cache.
template <class K, class Op>
std::int64_t reduce_by_key(const K* keys, const value_t<Op>* in, std::int64_t n, Op op, K* unique_keys,
                           value_t<Op>* aggregates, const plan& p) {
  using U = value_t<Op>;
  if (n == 0) return 0;
  const key_heads<K> heads{keys};
  auto bounds = [&](std::int64_t t) { return std::pair{t * p.tile, std::min(n, (t + 1) * p.tile)}; };
  struct summary {
    std::int64_t heads = 0;  // heads in the tile
    bool has_head = false;
    U tail;  // the fold from the tile's last head (or its start) to its end
  };
  struct carried {
    std::int64_t base = 0;  // runs begun before the tile
    U carry;                // the value so far of the run open at the tile's start
  };
  auto local = [&](std::int64_t t) {
    const auto [a, b] = bounds(t);
    // Counted without branches, so the loop vectorises.
    std::int64_t h = heads.is_head(a);
    for (std::int64_t i = a + 1; i < b; ++i) h += !scankit::detail::same_key(keys[i], keys[i - 1]);
    const std::int64_t last = h > 0 ? heads.last_head(a, b) : -1;
    return summary{h, last >= 0, fold(in, last >= 0 ? last : a, b, op)};
  };
  auto combine = [&](const carried& s, const summary& l) {
    return carried{s.base + l.heads, l.has_head ? l.tail : op(s.carry, l.tail)};
  };
  // A run's aggregate is written by the tile that holds its last item.
  auto finish = [&](std::int64_t t, const carried& s, const summary&) {
    const auto [a, b] = bounds(t);
    const bool ends_at_b = b == n || heads.is_head(b);
    std::int64_t r = s.base - 1;
    const U& c = s.carry;
    heads.for_each_run(a, b, [&](std::int64_t lo, std::int64_t hi, bool head) {
      if (head) {
        ++r;
        unique_keys[r] = keys[lo];
      }
      if (hi < b || ends_at_b) aggregates[r] = head ? fold(in, lo, hi, op) : op(c, fold(in, lo, hi, op));
    });
  };
  return chain_tiles(p.tiles, p.parallel, carried{0, op.identity()}, local, combine, finish).base;
}

}  // namespace scankit::cpu::detail::segments
