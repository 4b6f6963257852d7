// One bucket of the MSD-first hybrid, sorted by the lower varying digits by one thread, in the
// cache (bucket_path::radix and bucket_path::split).
//
//   * leaf: one read counts every digit (and finds those constant within the bucket, which are
//     skipped); the LSD passes ping-pong with plain stores between two buffers of the thread,
//     kept from one bucket to the next so that they stay cached, and only the last pass writes
//     the destination. The passes are laid out backwards from that destination, so the result
//     comes out in place whatever their number, with no copy.
//   * split_leaf: a bucket bigger than hybrid_params::split_bytes with at least three digits
//     left is first split once more by its top digit into pieces of L1 size, each then sorted
//     as a leaf: passes over a whole bucket and two buffers of its size would outgrow L2.
//   * A bucket or piece that fits the cache is staged (out_mode::staged): its last pass writes
//     one of the thread's buffers, which then goes to the destination with streaming stores.
//     Its digit ranges are a few items long, so plain stores into the destination would first
//     read almost every line of it from DRAM, and the line_writer would find no whole lines.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>

#include "scankit/cpu/detail/sort/passes.hpp"
#include "scankit/cpu/detail/sort/plan.hpp"
#include "scankit/cpu/detail/sort/sorter.hpp"
#include "scankit/cpu/detail/streaming.hpp"

namespace scankit::cpu::detail {

/// A bucket too big for the L1 cache: one more stable pass, by its top digit, from s into
/// buffer a (plain stores: it stays in L2 for the next step), then each piece sorted by the
/// digits below with leaf(), in buffers b and c, into its range of d. A whole bucket's passes
/// over two buffers of its size would outgrow L2; the pieces' passes stay in L1. The last
/// passes are staged (out_mode): a piece's digit ranges are shorter than a line, so the
/// line_writer would not find whole lines.
template <class K, class V>
void radix_sorter<K, V>::split_leaf(span s, span d, std::int64_t m, const std::vector<int>& rest, leaf_buffers& lb,
                                    std::int64_t cap) const {
  const int top = rest.back();
  const std::vector<int> lower(rest.begin(), rest.end() - 1);
  const pass_fn digit_top = digit_.pass(top);
  lb.reserve(cap, s.v != nullptr);
  std::array<std::int64_t, radix + 1> first{};
  for (std::int64_t i = 0; i < m; ++i) ++first[digit_top(s.k[i]) + 1];
  if (first[digit_top(s.k[0]) + 1] == m) {  // constant top digit (every key has the first's)
    leaf(s, d, m, lower, lb.a(), lb.b(), leaf_out(m));
    return;
  }
  std::partial_sum(first.begin(), first.end(), first.begin());
  std::array<std::int64_t, radix> off;
  std::copy_n(first.begin(), radix, off.begin());
  const span a = lb.a();
  scatter_run(s.k, s.v, 0, m, a.k, a.v, off, digit_top, false);
  for (int q = 0; q < radix; ++q) {
    const std::int64_t len = first[q + 1] - first[q];
    if (len == 0) continue;
    if (plan_bucket(len, item_bytes(), lower.size(), false, hp_) == bucket_path::split) {
      // A skewed bucket: the piece is still big; split it too, in buffers of its own (b and
      // c hold only ordinary pieces).
      leaf_buffers sub;
      split_leaf(a.at(first[q]), d.at(first[q]), len, lower, sub, len);
    } else {
      leaf(a.at(first[q]), d.at(first[q]), len, lower, lb.b(), lb.c(), leaf_out(len));
    }
  }
}

/// Serial LSD sort of one bucket of m items by the passes `rest`, from s to d (which may
/// be s), in the cache: one read counts every digit, the passes ping-pong between the
/// buffers a and b (m items each) with plain stores, and only the last one writes d, as
/// `out` says.
template <class K, class V>
void radix_sorter<K, V>::leaf(span s, span d, std::int64_t m, const std::vector<int>& rest, span a, span b, out_mode out) const {
  const std::size_t np = rest.size();
  const auto [shift, mask] = shifts_and_masks(rest);
  std::array<std::array<std::uint32_t, radix>, sizeof(K)> h;  // m < 2^31
  for (std::size_t j = 0; j < np; ++j) h[j].fill(0);
  {
    // The digit count a compile-time constant for the usual one to three, so that the inner
    // loop unrolls (a loop over a run-time count is the slower form of this count).
    const digit_fn<K> dg = digit_;
    const K* const k = s.k;
    // (shift and mask copied: a lambda may not capture structured bindings before C++20's
    // P1091, which Clang implements from version 16.)
    auto count = [&, shift = shift, mask = mask]<std::size_t P>(std::integral_constant<std::size_t, P>) {
      for (std::int64_t i = 0; i < m; ++i) {
        const U o = dg.ordered(k[i]);
        for (std::size_t j = 0; j < (P == 0 ? np : P); ++j) ++h[j][(o >> shift[j]) & mask[j]];
      }
    };
    if (np == 1) count(std::integral_constant<std::size_t, 1>{});
    else if constexpr (sizeof(K) >= 2) {
      if (np == 2) count(std::integral_constant<std::size_t, 2>{});
      else if constexpr (sizeof(K) >= 4) {
        if (np == 3) count(std::integral_constant<std::size_t, 3>{});
        else count(std::integral_constant<std::size_t, 0>{});
      }
    }
  }
  std::array<std::size_t, sizeof(K)> act{};  // the passes that vary in this bucket
  int r = 0;
  // A digit varies unless every key has the first key's: one look-up per digit, not a scan
  // of the 256 counts for their maximum (pieces are small, so the scan would show).
  // m >= 1 here: msd() and split_leaf() skip empty buckets and pieces.
  const U first_key = digit_.ordered(s.k[0]);
  for (std::size_t j = 0; j < np; ++j)
    if (h[j][(first_key >> shift[j]) & mask[j]] < static_cast<std::uint32_t>(m)) act[r++] = j;
  if (r == 0) {
    if (s.k != d.k) {
      std::memcpy(static_cast<void*>(d.k), s.k, static_cast<std::size_t>(m) * sizeof(K));
      if (s.v) std::memcpy(static_cast<void*>(d.v), s.v, static_cast<std::size_t>(m) * sizeof(V));
    }
    return;
  }
  auto pass = [&](span from, span to, std::size_t j, bool last) {
    std::array<std::int64_t, radix> off;
    std::int64_t run = 0;
    for (int q = 0; q < radix; ++q) {
      off[q] = run;
      run += h[j][q];
    }
    // Streaming stores only for the last pass: its output is not read again soon, while
    // the buffers' lines are, and must stay in the cache.
    scatter_run(from.k, from.v, 0, m, to.k, to.v, off, digit_.pass(rest[j]), last && out == out_mode::combine);
  };
  const bool staged = out == out_mode::staged;
  if (!staged && r == 1 && s.k == d.k) {  // in place, one pass: through a buffer and back
    pass(s, a, act[0], false);
    std::memcpy(static_cast<void*>(d.k), a.k, static_cast<std::size_t>(m) * sizeof(K));
    if (s.v) std::memcpy(static_cast<void*>(d.v), a.v, static_cast<std::size_t>(m) * sizeof(V));
    return;
  }
  // The last pass writes d (staged: b, which then goes to d), the ones before alternate a
  // and b backwards from it, so d (possibly s) is written only once everything has been read
  // from s.
  const span last = staged ? b : d;
  span from = s;
  for (int q = 0; q < r; ++q) {
    const span to = q == r - 1 ? last : (r - 1 - q) % 2 == 1 ? a : b;
    pass(from, to, act[static_cast<std::size_t>(q)], q == r - 1);
    from = to;
  }
  if (staged) {
    stream_bytes(d.k, b.k, static_cast<std::size_t>(m) * sizeof(K));
    if (s.v) stream_bytes(d.v, b.v, static_cast<std::size_t>(m) * sizeof(V));
  }
}

}  // namespace scankit::cpu::detail
