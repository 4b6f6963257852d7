// Host-only tests of the GPU segmented sort's plan (scankit/cuda/detail/segmented_sort/plan.hpp):
// which segments take radix passes, and how many of them the workspace must hold (this program
// makes no CUDA call, so it runs in CI).
#include <gtest/gtest.h>

#include <cstdint>

#include "scankit/cuda/detail/segmented_sort/plan.hpp"

namespace {

namespace skc = scankit::cuda;
namespace ss = scankit::cuda::detail::segmented_sort;
using i64 = std::int64_t;

TEST(CudaSegmentedSortPlan, RadixPassesTakeLongSegmentsWhereTheyApply) {
  const i64 n = i64{1} << 26;
  const skc::segmented_sort_config tuned{};
  const ss::radix_rule r = ss::plan_radix(n, 4, 0, 0, 32, tuned);
  ASSERT_TRUE(r.enabled());
  EXPECT_EQ(r.from, ss::radix_from_length(4));
  EXPECT_FALSE(r(ss::radix_from_length(4) - 1));
  EXPECT_TRUE(r(ss::radix_from_length(4)));
  // Longer segments for more digits: each costs a pass.
  EXPECT_LT(ss::plan_radix(n, 2, 0, 0, 16, tuned).from, r.from);
  EXPECT_GT(ss::plan_radix(n, 8, 0, 0, 64, tuned).from, r.from);
  EXPECT_TRUE(r(ss::most_radix_keys));
  EXPECT_FALSE(r(ss::most_radix_keys + 1));  // the look-back counts 30 bits
  // Forced lengths, and off.
  EXPECT_EQ(ss::plan_radix(n, 4, 0, 0, 32, {skc::segmented_sort_path::merge, 1}).from, 1);
  EXPECT_FALSE(ss::plan_radix(n, 4, 0, 0, 32, {skc::segmented_sort_path::merge, -1}).enabled());
  // Not for 1-byte keys, 16-byte values, an odd number of digits, or inputs shorter than the rule.
  EXPECT_FALSE(ss::plan_radix(n, 1, 0, 0, 8, tuned).enabled());
  EXPECT_FALSE(ss::plan_radix(n, 4, 16, 0, 32, tuned).enabled());
  EXPECT_FALSE(ss::plan_radix(n, 4, 4, 0, 20, tuned).enabled());
  EXPECT_TRUE(ss::plan_radix(n, 4, 4, 4, 20, tuned).enabled());
  EXPECT_TRUE(ss::plan_radix(n, 8, 8, 0, 64, tuned).enabled());
  EXPECT_TRUE(ss::plan_radix(n, 2, 4, 0, 16, tuned).enabled());
  EXPECT_FALSE(ss::plan_radix(ss::radix_from_length(4) - 1, 4, 0, 0, 32, tuned).enabled());
  EXPECT_EQ(ss::radix_passes(0, 32), 4);
  EXPECT_EQ(ss::radix_passes(4, 20), 2);
  EXPECT_EQ(ss::radix_passes(0, 20), 3);
}

TEST(CudaSegmentedSortPlan, TheWorkspaceHoldsEveryListedSegment) {
  // At most n / from segments are that long, and never more than there are segments.
  for (i64 n : {i64{1}, i64{5000}, i64{1} << 20, (i64{1} << 31) + 7})
    for (i64 count : {i64{1}, i64{3}, n / 2 + 1, n})
      for (i64 from : {i64{1}, i64{777}, i64{16384}}) {
        const i64 most = ss::max_radix_segments(n, count, from);
        if (from > n) {
          EXPECT_EQ(most, 0);
          continue;
        }
        EXPECT_LE(most, count);
        EXPECT_LE(most * from, n);
        EXPECT_TRUE(most == count || (most + 1) * from > n);
      }
}

}  // namespace
