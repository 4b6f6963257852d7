// Pieces shared by the CPU segmented operations: running tiles in order or on the thread
// pool, folding and scanning one run of items, and where the segments start (the heads) for
// each way of describing segments.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>

#include "scankit/cpu/detail/common.hpp"  // SCANKIT_CPU_HAS_SSE2
#include "scankit/cpu/detail/parallel.hpp"
#include "scankit/cpu/detail/reduce/blocks.hpp"
#include "scankit/ops.hpp"
#include "scankit/reduce_ops.hpp"
#include "scankit/segments.hpp"

namespace scankit::cpu::detail::segments {

/// f(t) for every tile t in [0, tiles): in order on the calling thread, or as tasks on the
/// thread pool. Tiles write disjoint outputs, so the order does not change any result.
template <class F>
void for_each_tile(std::int64_t tiles, bool parallel, F f) {
  if (!parallel) {
    for (std::int64_t t = 0; t < tiles; ++t) f(t);
    return;
  }
  auto body = [&f](const tbb::blocked_range<std::int64_t>& r) {
    for (std::int64_t t = r.begin(); t < r.end(); ++t) f(t);
  };
  // Through the fence: the tasks read the caller's captures, the caller their results.
  fenced_region<decltype(body)> region(body);
  {
    typename fenced_region<decltype(body)>::scope open(region);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, tiles, 1), region.template get_body<0>());
  }
}

/// op over in[lo, hi), from the identity (lanes for commutative operators, as reduce does).
/// The association depends on lo and hi only, never on threads.
template <class Op>
value_t<Op> fold(const value_t<Op>* in, std::int64_t lo, std::int64_t hi, Op op) {
  if (lo >= hi) return op.identity();
  return reduce::fold_block(in, lo, hi, as_value{}, op);
}

/// Scans in[lo, hi) into out[lo, hi) from acc, left to right; returns the running value.
/// Reads in[i] before writing out[i], so out may be in.
template <class Op>
value_t<Op> scan_run(const value_t<Op>* in, value_t<Op>* out, std::int64_t lo, std::int64_t hi, value_t<Op> acc,
                     Op op, scan_kind kind) {
  using U = value_t<Op>;
  if (kind == scan_kind::inclusive) {
    for (std::int64_t i = lo; i < hi; ++i) {
      acc = op(acc, in[i]);
      out[i] = acc;
    }
  } else {
    for (std::int64_t i = lo; i < hi; ++i) {
      const U x = in[i];
      out[i] = acc;
      acc = op(acc, x);
    }
  }
  return acc;
}

/// Scans in[a, b) into out[a, b) from acc, restarting from init at a when first_head and at
/// every i > a where starts(i): the serial loop's shape, one branch per item that is
/// mispredicted about once per segment (a loop per run costs a second mispredicted exit, where
/// a run's end is found). Left to right, so the same bits as scan_run over each run.
template <class Op, class Starts>
void scan_items(const value_t<Op>* in, value_t<Op>* out, std::int64_t a, std::int64_t b, value_t<Op> acc,
                bool first_head, Starts starts, const value_t<Op>& init, Op op, scan_kind kind) {
  using U = value_t<Op>;
  if (a >= b) return;
  if (first_head) acc = init;
  if (kind == scan_kind::inclusive) {
    acc = op(acc, in[a]);
    out[a] = acc;
    for (std::int64_t i = a + 1; i < b; ++i) {
      if (starts(i)) acc = init;
      acc = op(acc, in[i]);
      out[i] = acc;
    }
  } else {
    U x = in[a];
    out[a] = acc;
    acc = op(acc, x);
    for (std::int64_t i = a + 1; i < b; ++i) {
      if (starts(i)) acc = init;
      x = in[i];
      out[i] = acc;
      acc = op(acc, x);
    }
  }
}

/// The first index in [k, last] whose offset exceeds v, or last + 1 (off non-decreasing).
/// Gallops from k, so skipping a run of m equal offsets (empty segments) costs O(log m).
inline std::int64_t first_above(const std::int64_t* off, std::int64_t k, std::int64_t last, std::int64_t v) {
  if (k > last || off[k] > v) return k;
  std::int64_t lo = k, step = 1, hi;  // invariant: off[lo] <= v
  for (;;) {
    hi = lo + step;
    if (hi > last) {
      hi = last + 1;
      break;
    }
    if (off[hi] > v) break;
    lo = hi;
    step *= 2;
  }
  return std::upper_bound(off + lo + 1, off + hi, v) - off;
}

/// The first i in [from, to) whose key differs in its bits from keys[i - 1], or `to` (from >= 1).
/// Compares 16 bytes of keys with the same bytes one key earlier per step, so a run costs one
/// mispredicted branch (its end) and a fraction of an instruction per item.
template <class K>
std::int64_t next_key_head(const K* keys, std::int64_t from, std::int64_t to) {
  std::int64_t i = from;
#ifdef SCANKIT_CPU_HAS_SSE2
  // same_key compares a key's 4 or 8 bytes: so do these vectors.
  if constexpr (sizeof(K) == 4 || sizeof(K) == 8) {
    constexpr std::int64_t per = 16 / sizeof(K);
    for (; i + per <= to; i += per) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(keys + i));
      const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(keys + i - 1));
      // One bit per byte that differs; the first such byte's key is the head.
      const unsigned diff = ~static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y))) & 0xFFFFu;
      if (diff != 0) return i + static_cast<std::int64_t>(__builtin_ctz(diff) / sizeof(K));
    }
  }
#endif
  for (; i < to; ++i)
    if (!scankit::detail::same_key(keys[i], keys[i - 1])) return i;
  return to;
}

// Heads: where segments start. Each policy gives, for a tile [a, b) of items:
//   last_head(a, b)        the last head in [a, b), or -1.
// and offsets and keys (what their users need):
//   for_each_run(a, b, f)  f(lo, hi, head) for consecutive runs covering [a, b), each cut at
//                          every head; head says whether lo starts a segment (the first run
//                          continues the previous tile's segment unless a is a head).
// and flags and keys:
//   is_head(i)             whether item i (i < n) starts a segment.
//   starts(i)              is_head for i >= 1, cheap enough to ask of every item (scan_items).

/// Covering CSR offsets (off[0] == 0, off[count] == n): heads are the begins of non-empty
/// segments.
struct offset_heads {
  const std::int64_t* off;
  std::int64_t count;

  template <class F>
  void for_each_run(std::int64_t a, std::int64_t b, F&& f) const {
    // First offset >= a: off[count] == n > a, so k <= count.
    std::int64_t k = std::lower_bound(off, off + count + 1, a) - off;
    std::int64_t pos = a;
    if (off[k] > a) {
      pos = std::min(off[k], b);
      f(a, pos, false);
    }
    while (pos < b) {  // pos is a head
      k = first_above(off, k, count, pos);
      const std::int64_t e = std::min(off[k], b);
      f(pos, e, true);
      pos = e;
    }
  }
  std::int64_t last_head(std::int64_t a, std::int64_t b) const {
    // The last offset <= b - 1 (off[0] == 0 <= b - 1); the segment after it is not empty.
    const std::int64_t k = (std::upper_bound(off, off + count + 1, b - 1) - off) - 1;
    return off[k] >= a ? off[k] : -1;
  }
};

/// One flag byte per item; item 0 is always a head.
struct flag_heads {
  const std::uint8_t* flags;
  bool is_head(std::int64_t i) const { return i == 0 || flags[i] != 0; }
  bool starts(std::int64_t i) const { return flags[i] != 0; }
  std::int64_t last_head(std::int64_t a, std::int64_t b) const {
    for (std::int64_t i = b - 1; i >= a; --i)
      if (is_head(i)) return i;
    return -1;
  }
};

/// Runs of keys with equal bits; item 0 is always a head.
template <class K>
struct key_heads {
  const K* keys;
  bool is_head(std::int64_t i) const { return i == 0 || !scankit::detail::same_key(keys[i], keys[i - 1]); }
  bool starts(std::int64_t i) const { return !scankit::detail::same_key(keys[i], keys[i - 1]); }
  template <class F>
  void for_each_run(std::int64_t a, std::int64_t b, F&& f) const {
    bool head = is_head(a);
    for (std::int64_t pos = a; pos < b;) {
      const std::int64_t e = next_key_head(keys, pos + 1, b);
      f(pos, e, head);
      head = true;
      pos = e;
    }
  }
  std::int64_t last_head(std::int64_t a, std::int64_t b) const {
    for (std::int64_t i = b - 1; i >= a; --i)
      if (is_head(i)) return i;
    return -1;
  }
};

}  // namespace scankit::cpu::detail::segments
