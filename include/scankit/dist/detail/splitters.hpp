// Splitter selection of the distributed sort (host side, the same on both backends).
//
// Every item has a unique identity in the composite order (ordered key bits, rank, position in
// the rank's locally sorted shard): ties between equal keys are broken by where the items are,
// which is their global input order because the local sort is stable. A splitter is one such
// identity; bucket k receives the items at or above splitter k - 1 and below splitter k. With
// the ties broken, a run of equal keys can be cut anywhere, so all-equal and heavily skewed keys
// split as evenly as distinct ones.
//
// Each rank q contributes m_q = min(n_q, S) regular samples of its sorted shard, sample j at
// position P_q(j) = floor(j * n_q / m_q). Every rank receives all samples and computes the same
// splitters from them (no second broadcast). For a sample x, the number of rank q's items below
// x is known exactly for x's own rank and lies between P_q(c - 1) + 1 and P_q(c) for the
// others, c being the number of q's samples below x; the estimate takes the middle. For each
// target boundary (the balanced layout's offsets) the sample whose estimate is nearest is the
// splitter. The estimate is off by at most half a sampling interval per rank, so the buckets
// are within about n/S + p items of the balanced sizes; when every shard has at most S items,
// every item is a sample and the buckets are exact.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <tuple>
#include <vector>

#include "scankit/dist/detail/plan.hpp"
#include "scankit/dist/types.hpp"

namespace scankit::dist::detail {

/// One sample: the item's ordered key bits (complemented for a descending sort, restricted to
/// the sort's bit range), its rank and its position in that rank's sorted shard. pos < 0: an
/// unused slot (a shard with fewer than S items sends fewer samples).
struct sample {
  std::uint64_t bits = 0;
  std::int64_t rank = 0;
  std::int64_t pos = -1;
};
static_assert(sizeof(sample) == 24);

constexpr std::int64_t sample_count(std::int64_t n, std::int64_t per_rank) { return n < per_rank ? n : per_rank; }

/// floor(j * n / m) without overflow (j < m, m <= the samples per rank).
constexpr std::int64_t sample_position(std::int64_t j, std::int64_t n, std::int64_t m) {
  return j * (n / m) + (j * (n % m)) / m;
}

struct splitter {
  enum class kind : std::int32_t { below_all, item, above_all };
  kind where = kind::below_all;
  std::uint64_t bits = 0;
  std::int64_t rank = 0;
  std::int64_t pos = 0;
};

/// How many of rank `rank`'s n sorted items come before splitter s. lower(b) / upper(b): the
/// first position whose bits are >= b / > b.
template <class Lower, class Upper>
constexpr std::int64_t local_cut(const splitter& s, int rank, std::int64_t n, Lower lower, Upper upper) {
  switch (s.where) {
    case splitter::kind::below_all: return 0;
    case splitter::kind::above_all: return n;
    case splitter::kind::item: break;
  }
  if (rank < s.rank) return upper(s.bits);  // equal keys of earlier ranks come first
  if (rank > s.rank) return lower(s.bits);
  return s.pos;
}

/// The p - 1 splitters from every rank's samples (p blocks of `per_rank` slots, rank-major) and
/// the shard sizes.
inline std::vector<splitter> choose_splitters(std::span<const sample> all, std::span<const std::int64_t> sizes,
                                              std::int64_t per_rank) {
  const int p = static_cast<int>(sizes.size());
  std::int64_t n = 0;
  for (auto s : sizes) n += s;
  std::vector<sample> s;
  s.reserve(all.size());
  for (const auto& x : all)
    if (x.pos >= 0) s.push_back(x);
  std::sort(s.begin(), s.end(), [](const sample& a, const sample& b) {
    return std::tie(a.bits, a.rank, a.pos) < std::tie(b.bits, b.rank, b.pos);
  });

  // The estimate of rank q's items below a sample, given c of q's samples are below it.
  auto position = [&](int q, std::int64_t j) {
    const std::int64_t nq = sizes[static_cast<std::size_t>(q)], m = sample_count(nq, per_rank);
    return j >= m ? nq : sample_position(j, nq, m);
  };
  auto middle = [&](int q, std::int64_t c) {
    const std::int64_t lo = c > 0 ? position(q, c - 1) + 1 : 0, hi = position(q, c);
    return lo + (hi - lo) / 2;
  };

  // Candidates: below everything (0 items below), every sample, above everything (n below).
  const auto count = static_cast<std::int64_t>(s.size());
  std::vector<std::int64_t> est(static_cast<std::size_t>(count));
  std::vector<std::int64_t> seen(static_cast<std::size_t>(p), 0);
  std::int64_t sum = 0;  // sum over q of middle(q, seen[q]); middle(q, 0) is 0
  for (std::int64_t i = 0; i < count; ++i) {
    const int q = static_cast<int>(s[static_cast<std::size_t>(i)].rank);
    auto& c = seen[static_cast<std::size_t>(q)];
    est[static_cast<std::size_t>(i)] = s[static_cast<std::size_t>(i)].pos + sum - middle(q, c);
    sum += middle(q, c + 1) - middle(q, c);
    ++c;
  }
  auto estimate = [&](std::int64_t cand) {  // cand in [-1, count]
    return cand < 0 ? 0 : cand >= count ? n : est[static_cast<std::size_t>(cand)];
  };
  auto distance = [](std::int64_t a, std::int64_t b) { return a > b ? a - b : b - a; };

  std::vector<splitter> out(static_cast<std::size_t>(p > 0 ? p - 1 : 0));
  std::int64_t cand = -1;
  for (int k = 1; k < p; ++k) {
    const std::int64_t target = balanced_offset(n, k, p);
    // The last candidate at or below the target, then the nearer of it and the next one (the
    // estimates never decrease along the sorted samples, so neither does the choice).
    while (cand < count && estimate(cand + 1) <= target) ++cand;
    std::int64_t pick = cand;
    if (cand < count && distance(estimate(cand + 1), target) < distance(estimate(cand), target)) pick = cand + 1;
    splitter& sp = out[static_cast<std::size_t>(k - 1)];
    if (pick < 0) {
      sp.where = splitter::kind::below_all;
    } else if (pick >= count) {
      sp.where = splitter::kind::above_all;
    } else {
      const sample& x = s[static_cast<std::size_t>(pick)];
      sp = {splitter::kind::item, x.bits, x.rank, x.pos};
    }
  }
  return out;
}

}  // namespace scankit::dist::detail
