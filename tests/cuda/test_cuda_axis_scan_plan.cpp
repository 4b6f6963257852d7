// plan_axis_scan (scankit/cuda/detail/axis_scan/plan.hpp) on the host: a pure function of the
// shape, the item size and the device description, so it is checked here without a GPU.
// Pinned plans guard the launch shapes; random shapes check the invariants
// the kernels rely on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>

#include "common/test_util.hpp"
#include "scankit/cuda/detail/axis_scan/plan.hpp"

namespace {

using scankit::cuda::axis_scan_plan;
using scankit::cuda::plan_axis_scan;
using scankit::cuda::detail::device_info;
namespace tu = scankit::cuda::detail::axis_scan;

device_info with_sms(int sms) {
  device_info d;
  d.arch = 90;
  d.sm_count = sms;
  return d;
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

axis_scan_plan make(bool wide, std::int64_t planes, std::int64_t rows, std::int64_t chunks,
                    std::int64_t groups, std::int64_t items, std::int64_t ws) {
  axis_scan_plan p;
  p.wide = wide;
  p.planes = planes;
  p.rows = rows;
  p.chunks = chunks;
  p.groups = groups;
  p.items = items;
  p.workspace_bytes = ws;
  return p;
}

TEST(AxisScanPlan, EmptyShapesPlanNothing) {
  for (auto [o, l, i] : {std::tuple{0, 5, 5}, {5, 0, 5}, {5, 5, 0}, {0, 0, 0}})
    EXPECT_EQ(plan_axis_scan(o, l, i, 4, with_sms(132)), axis_scan_plan{}) << o << " " << l << " " << i;
}

// Plans of typical shapes, as the kernels were tuned with them: a change here changes the
// launches of the Python axis scans.
TEST(AxisScanPlan, PinnedPlans) {
  // One long line: chunks with carry-ins through the workspace.
  EXPECT_EQ(plan_axis_scan(1, std::int64_t{1} << 28, 1, 4, with_sms(132)),
            make(false, 0, 15888, 16896, 1, 16896, 16896 * 4));
  // Many rows of 1,024: whole planes, 16 to a work item.
  EXPECT_EQ(plan_axis_scan(std::int64_t{1} << 18, 1024, 1, 4, with_sms(132)),
            make(false, 16, 1024, 1, 1, 16384, 0));
  // Short lines of 5 interleaved columns.
  EXPECT_EQ(plan_axis_scan(1000, 3, 5, 8, with_sms(132)), make(false, 69, 3, 1, 1, 15, 0));
  // Wide: 100 columns, 4 groups of 32, long lines.
  EXPECT_EQ(plan_axis_scan(4, 100000, 100, 8, with_sms(132)),
            make(true, 0, 95, 1053, 4, 16848, std::int64_t{4} * 1053 * 100 * 8));
  // Chunks of narrow lines of 3 columns on another SM count.
  EXPECT_EQ(plan_axis_scan(7, 5000, 3, 4, with_sms(108)), make(false, 0, 358, 14, 1, 98, 7 * 14 * 3 * 4));
}

TEST(AxisScanPlan, DependsOnTheSmCountOnly) {
  device_info a = with_sms(132), b = with_sms(132);
  b.arch = 80;
  b.l2_bytes = 40u << 20;
  b.smem_per_block_optin = 163u << 10;
  EXPECT_EQ(plan_axis_scan(3, 100000, 7, 4, a), plan_axis_scan(3, 100000, 7, 4, b));
  // No SMs described: planned as one.
  EXPECT_EQ(plan_axis_scan(3, 100000, 7, 4, with_sms(0)), plan_axis_scan(3, 100000, 7, 4, with_sms(1)));
}

// What the kernels assume of every plan: the work items cover the array exactly once, chunks
// are non-empty, the workspace holds a carry per (plane, chunk, column) where there are chunks,
// and there are no more items than the device's waves need.
void check_invariants(std::int64_t outer, std::int64_t len, std::int64_t inner, std::size_t item, int sms) {
  SCOPED_TRACE(::testing::Message() << "shape [" << outer << "][" << len << "][" << inner << "] item "
                                    << item << " sms " << sms);
  const axis_scan_plan p = plan_axis_scan(outer, len, inner, item, with_sms(sms));
  ASSERT_GT(p.items, 0);
  EXPECT_EQ(p.wide, inner >= tu::wide_from_inner);
  const std::int64_t target = std::int64_t{std::max(sms, 1)} * tu::items_per_sm;
  if (p.planes > 0) {
    EXPECT_FALSE(p.wide);
    EXPECT_GT(outer, 1);
    EXPECT_LE(len * inner, tu::whole_planes_up_to);
    EXPECT_LE(p.planes, outer);
    EXPECT_EQ(p.items, ceil_div(outer, p.planes));
    EXPECT_EQ(p.rows, len);
    EXPECT_EQ(p.chunks, 1);
    EXPECT_EQ(p.workspace_bytes, 0);
    EXPECT_LE(p.items, target);
    // Items of at least min_item_elements, unless the whole array is one item.
    if (p.items > 1) {
      EXPECT_GE(p.planes * len * inner, tu::min_item_elements);
    }
    return;
  }
  ASSERT_GE(p.chunks, 1);
  ASSERT_GE(p.rows, 1);
  EXPECT_GE(p.rows * p.chunks, len);         // the chunks cover the line
  EXPECT_LT((p.chunks - 1) * p.rows, len);   // and none is empty
  EXPECT_EQ(p.groups, p.wide ? ceil_div(inner, 32) : 1);
  EXPECT_EQ(p.items, outer * p.chunks * p.groups);
  EXPECT_EQ(p.workspace_bytes, p.chunks > 1 ? outer * p.chunks * inner * static_cast<std::int64_t>(item) : 0);
  if (p.chunks > 1) {
    EXPECT_GE(p.rows, p.wide ? tu::wide_min_rows : ceil_div(tu::min_item_elements, inner));
    EXPECT_LE(p.chunks, ceil_div(target, outer * p.groups));
  }
}

TEST(AxisScanPlan, InvariantsOverShapes) {
  const std::int64_t inners[] = {1, 2, 3, 4, 31, 32, 33, 100, 1000};
  const std::int64_t lens[] = {1, 2, 7, 1023, 1024, 1025, 2048, 65537, 1 << 20};
  const std::int64_t outers[] = {1, 2, 3, 100, 4097, 1 << 16};
  for (int sms : {1, 16, 108, 132})
    for (std::int64_t inner : inners)
      for (std::int64_t len : lens)
        for (std::int64_t outer : outers)
          if (outer * len * inner <= (std::int64_t{1} << 34))
            for (std::size_t item : {4u, 8u}) check_invariants(outer, len, inner, item, sms);
}

TEST(AxisScanPlan, InvariantsOverRandomShapes) {
  auto& g = scankit::test::rng();
  std::uniform_int_distribution<int> bits(0, 20);
  const int runs = scankit::test::quick() ? 2000 : 20000;
  for (int r = 0; r < runs; ++r) {
    auto draw = [&] { return std::uniform_int_distribution<std::int64_t>(1, std::int64_t{1} << bits(g))(g); };
    const std::int64_t outer = draw(), len = draw(), inner = draw();
    if (outer * len * inner > (std::int64_t{1} << 40)) continue;
    check_invariants(outer, len, inner, r % 2 ? 8 : 4, std::uniform_int_distribution<int>(1, 200)(g));
    if (::testing::Test::HasFailure()) break;
  }
}

}  // namespace
