// The host-side plan of the distributed radix sort (detail/nccl/radix_sort.cuh): from every
// rank's counts of the keys' top digits (8 bits, ordered as the sort orders them), which range
// of top digits each rank sorts, where the split by the top digit puts each key, what crosses
// the interconnect, and where each received piece lies. Pure host code, so that it is tested
// on its own (tests/dist/test_radix_plan.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "scankit/dist/detail/plan.hpp"

namespace scankit::dist::detail {

inline constexpr int top_digits = 256;

constexpr std::int64_t distance(std::int64_t a, std::int64_t b) { return a > b ? a - b : b - a; }

/// Which top digits each rank sorts: rank q the digits [cut[q], cut[q + 1]) of every rank's keys.
struct radix_split_plan {
  std::vector<int> cut;                 // p + 1
  std::vector<std::int64_t> bucket;     // p: the keys rank q holds after the exchange
  std::vector<std::int64_t> digit;      // 256: the keys of each top digit over all ranks
  std::vector<std::int64_t> matrix;     // p x p: [from * p + to], the keys `from` sends to `to`
  std::int64_t imbalance = 0;           // the most any rank's bucket differs from its target
};

/// counts: p x 256, counts[q * 256 + d] the keys of rank q with top digit d. Each cut is the
/// digit boundary nearest to the balanced layout's (target's) boundary, so a bucket differs
/// from its target by at most about half a digit's keys on each side.
inline radix_split_plan plan_radix_split(std::span<const std::int64_t> counts, std::span<const std::int64_t> target) {
  const int p = static_cast<int>(target.size());
  const auto up = static_cast<std::size_t>(p);
  radix_split_plan s;
  s.digit.assign(top_digits, 0);
  for (std::size_t q = 0; q < up; ++q)
    for (std::size_t d = 0; d < top_digits; ++d) s.digit[d] += counts[q * top_digits + d];
  std::vector<std::int64_t> below(top_digits + 1, 0);  // keys of digits < d
  for (std::size_t d = 0; d < top_digits; ++d) below[d + 1] = below[d] + s.digit[d];
  const auto goal = exclusive_offsets(target);
  s.cut.assign(up + 1, 0);
  s.cut[up] = top_digits;
  for (std::size_t q = 1; q < up; ++q) {
    int best = s.cut[q - 1];
    for (int d = best + 1; d <= top_digits; ++d)
      if (distance(below[static_cast<std::size_t>(d)], goal[q]) < distance(below[static_cast<std::size_t>(best)], goal[q]))
        best = d;
    s.cut[q] = best;
  }
  s.bucket.assign(up, 0);
  s.matrix.assign(up * up, 0);
  for (std::size_t to = 0; to < up; ++to) {
    s.bucket[to] = below[static_cast<std::size_t>(s.cut[to + 1])] - below[static_cast<std::size_t>(s.cut[to])];
    s.imbalance = std::max(s.imbalance, distance(s.bucket[to], target[to]));
    for (std::size_t from = 0; from < up; ++from)
      for (int d = s.cut[to]; d < s.cut[to + 1]; ++d) s.matrix[from * up + to] += counts[from * top_digits + static_cast<std::size_t>(d)];
  }
  return s;
}

/// The `g`-th of `groups` consecutive ranges of rank q's top digits (the exchange moves them one
/// after the other, so that a rank sorts a group while the next one arrives): its first digit.
inline int group_digit(const radix_split_plan& s, int q, int groups, int g) {
  const auto uq = static_cast<std::size_t>(q);
  return s.cut[uq] + (s.cut[uq + 1] - s.cut[uq]) * g / groups;
}

/// One rank's layout around the exchange. The split writes the rank's keys into one buffer:
/// first those that leave (for each rank q ≠ rank in rank order, by q's digit group, each by
/// digit), then the rank's pieces as they will lie after the exchange (by digit group, then the
/// pieces of ranks 0, 1, ... in rank order, each by digit), its own piece already in place.
/// Exchange g sends the leaving ranges of every rank's group g and receives the other ranks'
/// pieces of this rank's group g into their places. Every range sent or received starts at a
/// multiple of `align` items (gaps between them are never read), so that NCCL's copies on both
/// ends can take vector loads and stores.
struct radix_rank_layout {
  std::vector<unsigned long long> digit_base;  // 256: where the split puts the first key of each digit
  std::int64_t size = 0;                       // the buffer's length
  std::vector<transfer_plan> exchange;         // per group, within that buffer (its own pieces stay)
  int first_digit = 0, buckets = 0;            // the rank's digits [first_digit, first_digit + buckets)
  std::vector<int> group_bucket;               // groups + 1: group g's buckets [group_bucket[g], group_bucket[g + 1])
  /// groups + 1: where group g's pieces start (the last: size). The group's sort may use
  /// [group_at[g], group_at[g] + its item count) as scratch once it has read them: that range
  /// ends before the next group's (every group's range holds at least its items).
  std::vector<std::int64_t> group_at;
  std::vector<std::int64_t> piece_offset;      // buckets x p: piece j of bucket b
  std::vector<std::int64_t> piece_count;
  std::vector<std::int64_t> bucket_start;      // buckets + 1: where bucket b starts in the sorted bucket
};

inline radix_rank_layout plan_radix_rank(std::span<const std::int64_t> counts, const radix_split_plan& s, int rank,
                                         int groups = 1, std::int64_t align = 64) {
  const int p = static_cast<int>(s.bucket.size());
  const auto up = static_cast<std::size_t>(p), me = static_cast<std::size_t>(rank);
  const auto ug = static_cast<std::size_t>(groups);
  const auto count = [&](std::size_t q, int d) { return counts[q * top_digits + static_cast<std::size_t>(d)]; };
  // Rank `from`'s keys of rank `to`'s digit group g.
  const auto keys_of = [&](std::size_t from, std::size_t to, int g) {
    std::int64_t n = 0;
    for (int d = group_digit(s, static_cast<int>(to), groups, g); d < group_digit(s, static_cast<int>(to), groups, g + 1); ++d)
      n += count(from, d);
    return n;
  };
  const auto aligned = [&](std::int64_t at) { return (at + align - 1) / align * align; };
  radix_rank_layout l;
  l.first_digit = s.cut[me];
  l.buckets = s.cut[me + 1] - s.cut[me];
  l.exchange.assign(ug, transfer_plan{std::vector<piece>(up), std::vector<piece>(up), false});
  l.digit_base.assign(top_digits, 0);
  std::int64_t at = 0;
  const auto place = [&](std::size_t q, int g) {  // the split's bases of rank q's group g, from `at`
    for (int d = group_digit(s, static_cast<int>(q), groups, g); d < group_digit(s, static_cast<int>(q), groups, g + 1); ++d) {
      l.digit_base[static_cast<std::size_t>(d)] = static_cast<unsigned long long>(at);
      at += count(me, d);
    }
  };
  // The keys that leave: per rank, per group.
  for (std::size_t q = 0; q < up; ++q)
    for (int g = 0; g < groups && q != me; ++g) {
      at = aligned(at);
      l.exchange[static_cast<std::size_t>(g)].send[q] = {at, keys_of(me, q, g)};
      place(q, g);
    }
  // The pieces: per group, per source rank.
  std::vector<std::int64_t> piece_at(ug * up);
  for (int g = 0; g < groups; ++g)
    for (std::size_t j = 0; j < up; ++j) {
      at = aligned(at);
      piece_at[static_cast<std::size_t>(g) * up + j] = at;
      if (j != me) l.exchange[static_cast<std::size_t>(g)].recv[j] = {at, keys_of(j, me, g)};
      if (j == me) place(me, g);
      else at += keys_of(j, me, g);
    }
  l.size = at;
  l.group_at.assign(ug + 1, l.size);
  for (std::size_t g = 0; g < ug; ++g) l.group_at[g] = piece_at[g * up];
  const auto nb = static_cast<std::size_t>(l.buckets);
  l.group_bucket.assign(ug + 1, 0);
  for (int g = 0; g <= groups; ++g) l.group_bucket[static_cast<std::size_t>(g)] = group_digit(s, rank, groups, g) - l.first_digit;
  l.piece_offset.assign(nb * up, 0);
  l.piece_count.assign(nb * up, 0);
  l.bucket_start.assign(nb + 1, 0);
  for (int g = 0; g < groups; ++g)
    for (std::size_t j = 0; j < up; ++j) {
      at = piece_at[static_cast<std::size_t>(g) * up + j];
      for (int b = l.group_bucket[static_cast<std::size_t>(g)]; b < l.group_bucket[static_cast<std::size_t>(g) + 1]; ++b) {
        const auto ub = static_cast<std::size_t>(b);
        const std::int64_t c = count(j, l.first_digit + b);
        l.piece_offset[ub * up + j] = at;
        l.piece_count[ub * up + j] = c;
        at += c;
      }
    }
  for (std::size_t b = 0; b < nb; ++b)
    l.bucket_start[b + 1] = l.bucket_start[b] + s.digit[static_cast<std::size_t>(l.first_digit) + b];
  return l;
}

}  // namespace scankit::dist::detail
