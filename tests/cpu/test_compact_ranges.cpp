// Tests of the range API (scankit/compact.hpp): it forwards to the parallel CPU compactions.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "common/test_util.hpp"
#include "scankit/compact.hpp"

namespace {

namespace sk = scankit;

std::vector<int> random_small(std::int64_t n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  std::uniform_int_distribution<int> d(0, 3);
  for (auto& x : v) x = d(sk::test::rng());
  return v;
}

TEST(CompactRanges, MatchStdAlgorithms) {
  for (std::int64_t n : {0, 1, 1000, 300007}) {
    const auto v = random_small(n);
    std::vector<int> out(v.size()), expect;
    auto nz = [](int x) { return x != 0; };
    EXPECT_EQ(sk::select_if(v, out, sk::is_nonzero<int>{}), std::count_if(v.begin(), v.end(), nz));
    std::copy_if(v.begin(), v.end(), std::back_inserter(expect), nz);
    EXPECT_TRUE(std::equal(expect.begin(), expect.end(), out.begin()));
    expect.clear();
    const auto k = sk::remove_if(v, out, sk::is_nonzero<int>{});
    std::remove_copy_if(v.begin(), v.end(), std::back_inserter(expect), nz);
    ASSERT_EQ(k, static_cast<std::int64_t>(expect.size()));
    EXPECT_TRUE(std::equal(expect.begin(), expect.end(), out.begin()));
    expect.clear();
    const auto u = sk::unique(v, out);
    std::unique_copy(v.begin(), v.end(), std::back_inserter(expect));
    ASSERT_EQ(u, static_cast<std::int64_t>(expect.size()));
    EXPECT_TRUE(std::equal(expect.begin(), expect.end(), out.begin()));
    std::vector<std::int64_t> idx(v.size()), counts(v.size());
    const auto z = sk::nonzero(v, idx);
    EXPECT_EQ(z, std::count_if(v.begin(), v.end(), nz));
    for (std::int64_t i = 0; i < z; ++i) EXPECT_NE(v[idx[i]], 0);
    const auto runs = sk::unique_count(v, out, counts);
    EXPECT_EQ(runs, u);
    std::int64_t total = 0;
    for (std::int64_t r = 0; r < runs; ++r) total += counts[r];
    EXPECT_EQ(total, n);
    const auto p = sk::partition(v, out, sk::less_than<int>{2}, sk::rejected_order::original);
    EXPECT_TRUE(std::is_partitioned(out.begin(), out.end(), [](int x) { return x < 2; }));
    EXPECT_EQ(p, std::count_if(v.begin(), v.end(), [](int x) { return x < 2; }));
    std::vector<unsigned char> flags(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) flags[i] = static_cast<unsigned char>(i % 3 == 0);
    EXPECT_EQ(sk::select_flagged(v, flags, out), (n + 2) / 3);
    EXPECT_EQ(sk::select_indices(n, [](std::int64_t i) { return i % 5 == 0; }, idx), (n + 4) / 5);
  }
}

TEST(CompactRanges, InPlaceAndShortOutput) {
  auto v = random_small(100003);
  const auto expect = std::count_if(v.begin(), v.end(), [](int x) { return x != 0; });
  EXPECT_EQ(sk::select_if(v, v, sk::is_nonzero<int>{}), expect);
  std::array<int, 3> small{};
  EXPECT_THROW(sk::select_if(v, small, sk::is_nonzero<int>{}), sk::invalid_argument);
  std::vector<std::int64_t> idx(2);
  EXPECT_THROW(sk::nonzero(v, idx), sk::invalid_argument);
}

}  // namespace
