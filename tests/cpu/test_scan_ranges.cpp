// scankit/scan.hpp: inclusive_scan / exclusive_scan over contiguous ranges (which run
// cpu::scan_parallel).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "common/test_util.hpp"
#include "scankit/scan.hpp"
#include "scankit/scankit.hpp"

namespace {

using namespace scankit;

TEST(ScanRanges, VectorsWithDefaultSum) {
  const std::vector<int> in{5, -2, 7, 0, 1};
  std::vector<int> out(in.size());
  EXPECT_EQ(scankit::inclusive_scan(in, out), 11);
  EXPECT_EQ(out, (std::vector<int>{5, 3, 10, 10, 11}));
  EXPECT_EQ(scankit::exclusive_scan(in, out), 11);
  EXPECT_EQ(out, (std::vector<int>{0, 5, 3, 10, 10}));
}

TEST(ScanRanges, OperatorAndCarryIn) {
  const std::vector<std::int64_t> in{4, 9, 2, 11, 3};
  std::vector<std::int64_t> out(in.size());
  EXPECT_EQ(scankit::exclusive_scan(in, out, scankit::max<std::int64_t>{}), 11);
  EXPECT_EQ(out, (std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::lowest(), 4, 9, 9, 11}));
  EXPECT_EQ(scankit::inclusive_scan(in, out, scankit::sum<std::int64_t>{}, 100), 129);
  EXPECT_EQ(out, (std::vector<std::int64_t>{104, 113, 115, 126, 129}));
  EXPECT_EQ(scankit::exclusive_scan(in, out, scankit::product<std::int64_t>{}, 2), 2 * 4 * 9 * 2 * 11 * 3);
  EXPECT_EQ(out, (std::vector<std::int64_t>{2, 8, 72, 144, 1584}));
  EXPECT_EQ(scankit::inclusive_scan(in, out, scankit::min<std::int64_t>{}, 3), 2);
  EXPECT_EQ(out, (std::vector<std::int64_t>{3, 3, 2, 2, 2}));
}

TEST(ScanRanges, StdArrayAndSpan) {
  const std::array<double, 4> in{0.5, 0.25, 2.0, -1.0};
  std::array<double, 4> out{};
  EXPECT_EQ(scankit::inclusive_scan(in, out), 1.75);
  EXPECT_EQ(out, (std::array<double, 4>{0.5, 0.75, 2.75, 1.75}));
  std::vector<double> v(6, -9.0);
  std::span<double> middle(v.data() + 1, 4);
  EXPECT_EQ(scankit::exclusive_scan(in, middle, scankit::sum<double>{}, 1.0), 2.75);
  EXPECT_EQ(v, (std::vector<double>{-9.0, 1.0, 1.5, 1.75, 3.75, -9.0}));
  std::array<std::uint32_t, 3> bits{0b1100u, 0b1010u, 0b0110u};
  std::array<std::uint32_t, 3> r{};
  EXPECT_EQ(scankit::inclusive_scan(bits, r, scankit::bit_xor<std::uint32_t>{}), 0b0000u);
  EXPECT_EQ(r, (std::array<std::uint32_t, 3>{0b1100u, 0b0110u, 0b0000u}));
}

TEST(ScanRanges, InPlace) {
  std::vector<int> v{1, 2, 3, 4};
  EXPECT_EQ(scankit::inclusive_scan(v, v, scankit::sum<int>{}, 10), 20);
  EXPECT_EQ(v, (std::vector<int>{11, 13, 16, 20}));
  EXPECT_EQ(scankit::exclusive_scan(v, v), 60);
  EXPECT_EQ(v, (std::vector<int>{0, 11, 24, 40}));
}

TEST(ScanRanges, LargeInputsTakeTheParallelPath) {
  SCOPED_TRACE(testing::Message() << "SCANKIT_TEST_SEED=" << test::seed());
  // Past the serial cut-off, with a size that is not a whole number of blocks.
  for (std::int64_t n : {cpu::default_serial_cutoff + 1, std::int64_t{1'000'003}}) {
    const auto in = test::random_values<std::int32_t>(n, "sum");
    std::vector<std::int32_t> out(in.size());
    const std::int32_t total = scankit::exclusive_scan(in, out, scankit::sum<std::int32_t>{}, -7);
    EXPECT_TRUE(test::matches_reference(in, out, scankit::sum<std::int32_t>{}, scan_kind::exclusive, -7, &total));
    auto buf = in;
    const std::int32_t total2 = scankit::inclusive_scan(buf, buf);
    EXPECT_TRUE(test::matches_reference(in, buf, scankit::sum<std::int32_t>{}, scan_kind::inclusive, 0, &total2));

    const auto f = test::random_values<double>(n, "sum");
    std::vector<double> fo(f.size());
    const double ft = scankit::inclusive_scan(f, fo);
    EXPECT_TRUE(test::matches_reference(f, fo, scankit::sum<double>{}, scan_kind::inclusive, 0.0, &ft));
  }
}

TEST(ScanRanges, UserMonoid) {
  SCOPED_TRACE(testing::Message() << "SCANKIT_TEST_SEED=" << test::seed());
  const auto in = test::random_affine(200'001);
  std::vector<test::affine> out(in.size());
  const test::affine init{5, 1};
  const auto total = scankit::inclusive_scan(in, out, test::affine_compose{}, init);
  EXPECT_TRUE(test::matches_reference(in, out, test::affine_compose{}, scan_kind::inclusive, init, &total));
  // make_monoid through the range API: running maximum of |x|.
  const std::vector<int> v{-3, 1, -8, 2, 5};
  std::vector<int> r(v.size());
  auto absmax = scankit::make_monoid<int>([](int a, int b) { return std::max(a < 0 ? -a : a, b < 0 ? -b : b); }, 0);
  EXPECT_EQ(scankit::inclusive_scan(v, r, absmax), 8);
  EXPECT_EQ(r, (std::vector<int>{3, 3, 8, 8, 8}));
}

TEST(ScanRanges, OutputMayBeLongerButNotShorter) {
  const std::vector<int> in{1, 2, 3};
  std::vector<int> longer(5, -1);
  EXPECT_EQ(scankit::inclusive_scan(in, longer), 6);
  EXPECT_EQ(longer, (std::vector<int>{1, 3, 6, -1, -1}));

  std::vector<int> shorter(2, -1);
  try {
    scankit::inclusive_scan(in, shorter);
    ADD_FAILURE() << "no exception for a short output";
  } catch (const scankit::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("inclusive_scan"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("shorter"), std::string::npos) << e.what();
  }
  EXPECT_EQ(shorter, (std::vector<int>{-1, -1}));  // untouched
  EXPECT_THROW(scankit::exclusive_scan(in, shorter), scankit::invalid_argument);
  std::vector<int> empty;
  EXPECT_THROW(scankit::exclusive_scan(in, empty), scankit::invalid_argument);
  // And the error type is part of the scankit::error hierarchy.
  EXPECT_THROW(scankit::exclusive_scan(in, empty), scankit::error);
}

TEST(ScanRanges, EmptyInputReturnsTheCarryIn) {
  const std::vector<float> in;
  std::vector<float> out;
  EXPECT_EQ(scankit::inclusive_scan(in, out), 0.0f);
  EXPECT_EQ(scankit::exclusive_scan(in, out, scankit::sum<float>{}, 2.5f), 2.5f);
  EXPECT_EQ(scankit::inclusive_scan(in, out, scankit::min<float>{}), std::numeric_limits<float>::infinity());
}

TEST(ScanRanges, UmbrellaHeader) {
  EXPECT_EQ(scankit::version(), SCANKIT_VERSION_STRING);
#ifdef SCANKIT_HAS_CUDA
  EXPECT_TRUE(scankit::built_with_cuda());
#else
  EXPECT_FALSE(scankit::built_with_cuda());
#endif
}

}  // namespace
