// The distributed radix sort's host plan (scankit/dist/detail/radix_plan.hpp), run on the host:
// every rank's split, the exchange and the per-bucket sort emulated with the plan's numbers on
// plain vectors, against std::stable_sort of the whole input. The GPU path uses the same plan,
// so a wrong offset here is a wrong sort there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "scankit/dist/detail/radix_plan.hpp"

namespace {

using namespace scankit::dist::detail;
using item = std::pair<std::uint32_t, std::int64_t>;  // key, global input position

int top(std::uint32_t k) { return static_cast<int>(k >> 24); }

std::vector<std::vector<item>> make_shards(const std::vector<std::int64_t>& sizes, int kind, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<std::vector<item>> s(sizes.size());
  std::int64_t pos = 0;
  for (std::size_t q = 0; q < sizes.size(); ++q)
    for (std::int64_t i = 0; i < sizes[q]; ++i, ++pos) {
      std::uint32_t k = static_cast<std::uint32_t>(g());
      if (kind == 1) k = static_cast<std::uint32_t>(g() % 7) << 24 | (k & 0xff);  // few top digits, many equal keys
      if (kind == 2) k = 0x5a000000u;                                            // all equal
      s[q].push_back({k, pos});
    }
  return s;
}

// Runs the plan on the host and checks the result of every phase.
void check(const std::vector<std::int64_t>& sizes, int kind, std::uint64_t seed, int groups = 1) {
  SCOPED_TRACE(::testing::Message() << "ranks " << sizes.size() << " kind " << kind << " seed " << seed << " groups " << groups);
  const int p = static_cast<int>(sizes.size());
  const auto up = static_cast<std::size_t>(p);
  const auto shards = make_shards(sizes, kind, seed);
  std::int64_t total = 0;
  for (auto n : sizes) total += n;
  std::vector<std::int64_t> target(up);
  for (int q = 0; q < p; ++q) target[static_cast<std::size_t>(q)] = scankit::dist::balanced_size(total, q, p);
  std::vector<std::int64_t> counts(up * top_digits, 0);
  for (std::size_t q = 0; q < up; ++q)
    for (const auto& it : shards[q]) ++counts[q * top_digits + static_cast<std::size_t>(top(it.first))];

  const auto split = plan_radix_split(counts, target);
  ASSERT_EQ(split.cut.front(), 0);
  ASSERT_EQ(split.cut.back(), top_digits);
  ASSERT_TRUE(std::is_sorted(split.cut.begin(), split.cut.end()));
  std::int64_t sum = 0;
  for (std::size_t q = 0; q < up; ++q) {
    sum += split.bucket[q];
    EXPECT_LE(distance(split.bucket[q], target[q]), split.imbalance);
  }
  ASSERT_EQ(sum, total);

  // Phase 2: every rank's split into its buffer.
  std::vector<radix_rank_layout> lay;
  std::vector<std::vector<item>> buf(up);
  for (int r = 0; r < p; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    lay.push_back(plan_radix_rank(counts, split, r, groups));
    buf[ur].assign(static_cast<std::size_t>(lay[ur].size), item{0, -1});
    auto next = lay[ur].digit_base;
    for (const auto& it : shards[ur]) {
      auto& at = next[static_cast<std::size_t>(top(it.first))];
      ASSERT_LT(at, buf[ur].size());
      ASSERT_EQ(buf[ur][at].second, -1) << "two keys at one place";
      buf[ur][at++] = it;
    }
  }
  // Phase 3: the exchanges, each send matched by the receive of the same size.
  auto after = buf;
  for (std::size_t g = 0; g < static_cast<std::size_t>(groups); ++g)
  for (int r = 0; r < p; ++r)
    for (int q = 0; q < p; ++q) {
      const auto ur = static_cast<std::size_t>(r), uq = static_cast<std::size_t>(q);
      const piece s = lay[ur].exchange[g].send[uq], d = lay[uq].exchange[g].recv[ur];
      ASSERT_EQ(s.count, d.count);
      if (r == q) ASSERT_EQ(s.count, 0);
      if (s.count > 0) ASSERT_TRUE(s.offset % 64 == 0 && d.offset % 64 == 0) << "an unaligned range";
      for (std::int64_t i = 0; i < s.count; ++i)
        after[uq][static_cast<std::size_t>(d.offset + i)] = buf[ur][static_cast<std::size_t>(s.offset + i)];
    }
  // Phase 4: per bucket, the pieces in piece order, sorted stably; then the ranks' buckets in
  // rank order are the stable sort of the input.
  std::vector<item> got;
  for (int r = 0; r < p; ++r) {
    const auto& l = lay[static_cast<std::size_t>(r)];
    const auto& a = after[static_cast<std::size_t>(r)];
    ASSERT_EQ(l.bucket_start.back(), split.bucket[static_cast<std::size_t>(r)]);
    // Each group's pieces lie in its range, which holds the group's items (its sort's scratch).
    for (int g = 0; g < groups; ++g) {
      const auto ug = static_cast<std::size_t>(g);
      const int b0 = l.group_bucket[ug], b1 = l.group_bucket[ug + 1];
      ASSERT_LE(l.group_at[ug] + l.bucket_start[static_cast<std::size_t>(b1)] - l.bucket_start[static_cast<std::size_t>(b0)], l.group_at[ug + 1]);
      for (int b = b0; b < b1; ++b)
        for (int j = 0; j < p; ++j) {
          const auto i = static_cast<std::size_t>(b * p + j);
          if (l.piece_count[i] == 0) continue;
          ASSERT_GE(l.piece_offset[i], l.group_at[ug]);
          ASSERT_LE(l.piece_offset[i] + l.piece_count[i], l.group_at[ug + 1]);
        }
    }
    for (int b = 0; b < l.buckets; ++b) {
      std::vector<item> bucket;
      for (int j = 0; j < p; ++j) {
        const auto i = static_cast<std::size_t>(b * p + j);
        for (std::int64_t k = 0; k < l.piece_count[i]; ++k) {
          const item& it = a[static_cast<std::size_t>(l.piece_offset[i] + k)];
          ASSERT_EQ(top(it.first), l.first_digit + b) << "a piece holds another digit's key";
          bucket.push_back(it);
        }
      }
      ASSERT_EQ(static_cast<std::int64_t>(bucket.size()), l.bucket_start[static_cast<std::size_t>(b) + 1] - l.bucket_start[static_cast<std::size_t>(b)]);
      std::stable_sort(bucket.begin(), bucket.end(), [](const item& x, const item& y) { return x.first < y.first; });
      got.insert(got.end(), bucket.begin(), bucket.end());
    }
  }
  std::vector<item> want;
  for (const auto& s : shards) want.insert(want.end(), s.begin(), s.end());
  std::stable_sort(want.begin(), want.end(), [](const item& x, const item& y) { return x.first < y.first; });
  ASSERT_EQ(got, want);
}

TEST(DistRadixPlan, UniformKeys) {
  for (int p : {1, 2, 3, 4, 8})
    for (std::int64_t per : {0, 1, 7, 1000, 20011})
      for (int groups : {1, 3, 4}) check(std::vector<std::int64_t>(static_cast<std::size_t>(p), per), 0, 1, groups);
}

TEST(DistRadixPlan, UnevenAndEmptyShards) {
  check({0, 5000, 3, 12000}, 0, 2);
  check({0, 5000, 3, 12000}, 0, 2, 4);
  check({30000, 0}, 0, 3, 200);  // more groups than a rank has digits
  check({30000, 0}, 0, 3);
  check({0, 0, 0}, 0, 4);
  check({1, 0, 0, 0, 0}, 0, 5);
}

TEST(DistRadixPlan, SkewedTopDigits) {
  for (int p : {2, 3, 4}) {
    check(std::vector<std::int64_t>(static_cast<std::size_t>(p), 9001), 1, 6);
    check(std::vector<std::int64_t>(static_cast<std::size_t>(p), 9001), 2, 7);
    check(std::vector<std::int64_t>(static_cast<std::size_t>(p), 9001), 1, 8, 4);
  }
}

TEST(DistRadixPlan, CutsNearTheBalancedShares) {
  // Uniform top digits: every cut within one digit's keys of its share.
  std::vector<std::int64_t> counts(2 * top_digits, 100);
  const auto s = plan_radix_split(counts, std::vector<std::int64_t>{25600, 25600});
  EXPECT_EQ(s.cut[1], 128);
  EXPECT_EQ(s.imbalance, 0);
  // One digit holds everything: one rank takes it all.
  std::vector<std::int64_t> one(2 * top_digits, 0);
  one[17] = 500, one[top_digits + 17] = 700;
  const auto t = plan_radix_split(one, std::vector<std::int64_t>{600, 600});
  EXPECT_EQ(t.imbalance, 600);
  EXPECT_EQ(t.bucket[0] + t.bucket[1], 1200);
}

}  // namespace
