// Host-side plans shared by both backends: prefix offsets of per-rank counts (and a
// compaction's offsets), and the
// transfers that move a distributed array from one layout to another without changing its
// global order (rebalancing, and the sort's final balancing step).
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "scankit/dist/types.hpp"

namespace scankit::dist::detail {

/// offsets[q] = sizes[0] + ... + sizes[q - 1]; offsets[p] = the total.
inline std::vector<std::int64_t> exclusive_offsets(std::span<const std::int64_t> sizes) {
  std::vector<std::int64_t> off(sizes.size() + 1, 0);
  for (std::size_t q = 0; q < sizes.size(); ++q) off[q + 1] = off[q] + sizes[q];
  return off;
}

/// A rank's place in a distributed compaction: its own count, the counts of the ranks before it
/// (its global offset) and the global count, from every rank's count in rank order.
inline compaction_result compaction_offsets(const std::vector<std::int64_t>& counts, int rank) {
  compaction_result r;
  r.count = counts[static_cast<std::size_t>(rank)];
  for (int q = 0; q < static_cast<int>(counts.size()); ++q) {
    if (q < rank) r.offset += counts[static_cast<std::size_t>(q)];
    r.global_count += counts[static_cast<std::size_t>(q)];
  }
  return r;
}

/// The balanced layout of `total` items over `ranks` ranks.
inline std::vector<std::int64_t> balanced_sizes(std::int64_t total, int ranks) {
  std::vector<std::int64_t> s(static_cast<std::size_t>(ranks));
  for (int q = 0; q < ranks; ++q) s[static_cast<std::size_t>(q)] = balanced_size(total, q, ranks);
  return s;
}

/// One contiguous piece exchanged with one peer: `count` items at `offset` of the local array
/// (the source array for a send, the destination for a receive).
struct piece {
  std::int64_t offset = 0;
  std::int64_t count = 0;
};

/// What one rank sends to and receives from every rank (itself included) to move the array
/// from layout `from` (items per rank) to layout `to`, keeping the global order. Pieces are
/// indexed by peer; received pieces land in peer order, which is the global order.
struct transfer_plan {
  std::vector<piece> send;
  std::vector<piece> recv;
  bool identity = false;  // from == to: nothing moves on any rank
};

inline transfer_plan plan_transfer(std::span<const std::int64_t> from, std::span<const std::int64_t> to,
                                   int rank) {
  const int p = static_cast<int>(from.size());
  const auto f = exclusive_offsets(from), t = exclusive_offsets(to);
  transfer_plan plan;
  plan.send.resize(static_cast<std::size_t>(p));
  plan.recv.resize(static_cast<std::size_t>(p));
  plan.identity = std::equal(from.begin(), from.end(), to.begin(), to.end());
  const auto r = static_cast<std::size_t>(rank);
  for (std::size_t q = 0; q < static_cast<std::size_t>(p); ++q) {
    // My current items [f[r], f[r+1]) against q's target range [t[q], t[q+1]).
    const std::int64_t s0 = std::max(f[r], t[q]), s1 = std::min(f[r + 1], t[q + 1]);
    if (s1 > s0) plan.send[q] = {s0 - f[r], s1 - s0};
    // q's current items against my target range.
    const std::int64_t r0 = std::max(f[q], t[r]), r1 = std::min(f[q + 1], t[r + 1]);
    if (r1 > r0) plan.recv[q] = {r0 - t[r], r1 - r0};
  }
  return plan;
}

/// The items every rank receives in an all-to-all whose piece sizes are matrix[from * p + to]:
/// the column sums.
inline std::vector<std::int64_t> received_counts(std::span<const std::int64_t> matrix, int p) {
  std::vector<std::int64_t> in(static_cast<std::size_t>(p), 0);
  for (std::size_t q = 0; q < static_cast<std::size_t>(p); ++q)
    for (std::size_t k = 0; k < static_cast<std::size_t>(p); ++k) in[k] += matrix[q * static_cast<std::size_t>(p) + k];
  return in;
}

/// Rank `rank`'s part of an all-to-all whose piece sizes are matrix[from * p + to]: the pieces
/// it sends lie back to back in rank order in its array, and the pieces it receives land back
/// to back in rank order.
inline transfer_plan plan_all_to_all(std::span<const std::int64_t> matrix, int p, int rank) {
  transfer_plan plan;
  plan.send.resize(static_cast<std::size_t>(p));
  plan.recv.resize(static_cast<std::size_t>(p));
  const auto me = static_cast<std::size_t>(rank), np = static_cast<std::size_t>(p);
  std::int64_t send_at = 0, recv_at = 0;
  for (std::size_t q = 0; q < np; ++q) {
    const std::int64_t out_count = matrix[me * np + q], in_count = matrix[q * np + me];
    plan.send[q] = {send_at, out_count};
    plan.recv[q] = {recv_at, in_count};
    send_at += out_count;
    recv_at += in_count;
  }
  return plan;
}

}  // namespace scankit::dist::detail
