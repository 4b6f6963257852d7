// CPU histograms (scankit/cpu/histogram.hpp, scankit/histogram.hpp): the serial loop and the
// parallel oneTBB histogram against an independent reference (exact 128-bit bins for
// integers, the documented double formula for floats), for every sample type and bin-count
// class, with edge values; plus argument checks.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "common/histogram_test_util.hpp"
#include "common/test_util.hpp"
#include "scankit/histogram.hpp"

namespace {

using namespace scankit;
using scankit::test::quick;

template <class T>
class CpuHistogram : public ::testing::Test {};
TYPED_TEST_SUITE(CpuHistogram, scankit::test::histogram_sample_types);

std::vector<std::int64_t> sizes() {
  return scankit::test::test_sizes({256, 4096}, quick() ? 20000 : 300000, 2,
                                   quick() ? 70000 : 1100000);
}

/// The bin function itself on the edge values and on random samples of every variant.
TYPED_TEST(CpuHistogram, BinsMatchTheDocumentedFormula) {
  using T = TypeParam;
  for (std::int64_t bins : scankit::test::bin_classes())
    for (int variant = 0; variant < 5; ++variant) {
      const auto c = scankit::test::pick_range<T>(bins, variant);
      const auto e = even_bins<T>::make(bins, c.lower, c.upper);
      const auto v = scankit::test::random_samples<T>(5000, c.lower, c.upper);
      for (T x : v) {
        const int want = scankit::test::expected_bin(x, bins, c.lower, c.upper);
        ASSERT_EQ(e(x), want) << "x=" << +x << " bins=" << bins << " [" << c.lower << ", " << c.upper << ")";
        // The specialised paths the GPU kernels and the parallel loop compile for.
        if (e.fast_path()) {
          ASSERT_EQ(e.narrow_shift_bin(x), want) << "fast path, x=" << +x;
        }
        if (e.full_range()) {
          ASSERT_EQ(e.full_range_bin(x), want) << "full-range path, x=" << +x;
        }
        if (e.identity()) {
          ASSERT_EQ(even_bins_identity<T>{}(x), want) << "identity path, x=" << +x;
        }
      }
    }
}

TYPED_TEST(CpuHistogram, FastPathsAreTaken) {
  using T = TypeParam;
  if constexpr (std::is_integral_v<T> && sizeof(T) <= 4) {
    const auto c = scankit::test::pick_range<T>(256, 4);
    EXPECT_TRUE((even_bins<T>::make(256, c.lower, c.upper).full_range()));
    if constexpr (std::is_unsigned_v<T> && sizeof(T) <= 2) {
      EXPECT_TRUE((even_bins<T>::make(std::int64_t{1} << (8 * sizeof(T)), c.lower, c.upper).identity()));
    }
    EXPECT_TRUE((even_bins<T>::make(16, 0, 64).fast_path()));
    EXPECT_FALSE((even_bins<T>::make(16, 0, 64).full_range()));
    EXPECT_FALSE((even_bins<T>::make(16, 0, 60).fast_path()));
  } else {
    EXPECT_FALSE((even_bins<T>::make(256, 0, 1024).fast_path()));
  }
}

TYPED_TEST(CpuHistogram, EdgeValues) {
  using T = TypeParam;
  for (std::int64_t bins : {std::int64_t{1}, std::int64_t{10}, std::int64_t{256}}) {
    const auto c = scankit::test::pick_range<T>(bins, 0);
    const auto e = even_bins<T>::make(bins, c.lower, c.upper);
    EXPECT_EQ(e(static_cast<T>(c.lower)), 0);
    if constexpr (std::is_floating_point_v<T>) {
      EXPECT_EQ(e(std::nextafter(c.upper, c.lower)), bins - 1);
      EXPECT_EQ(e(c.upper), -1);
      EXPECT_EQ(e(std::nextafter(c.lower, c.lower - 1)), -1);
      EXPECT_EQ(e(std::numeric_limits<T>::quiet_NaN()), -1);
      EXPECT_EQ(e(std::numeric_limits<T>::infinity()), -1);
      EXPECT_EQ(e(-std::numeric_limits<T>::infinity()), -1);
    } else {
      EXPECT_EQ(e(static_cast<T>(c.upper - 1)), bins - 1);
      if (c.upper <= static_cast<std::int64_t>(std::numeric_limits<T>::max())) {
        EXPECT_EQ(e(static_cast<T>(c.upper)), -1);
      }
      if (c.lower > static_cast<std::int64_t>(std::numeric_limits<T>::min())) {
        EXPECT_EQ(e(static_cast<T>(c.lower - 1)), -1);
      }
    }
  }
}

TYPED_TEST(CpuHistogram, EvenSerialAndParallelMatchReference) {
  using T = TypeParam;
  int variant = 0;
  for (std::int64_t bins : scankit::test::bin_classes()) {
    for (std::int64_t n : sizes()) {
      if (bins > 4096 && n > 70000 && n != 65537) continue;  // keep the big-bin cases few
      const auto c = scankit::test::pick_range<T>(bins, variant++);
      const auto v = scankit::test::random_samples<T>(n, c.lower, c.upper);
      std::int64_t in_range = 0;
      const auto want = scankit::test::expected_counts<T, std::uint32_t>(v, bins, c.lower, c.upper, &in_range);
      std::vector<std::uint32_t> got(static_cast<std::size_t>(bins), 7u);
      cpu::histogram_even_serial(v.data(), n, got.data(), bins, c.lower, c.upper);
      ASSERT_EQ(got, want) << "serial n=" << n << " bins=" << bins;
      std::vector<std::uint64_t> got64(static_cast<std::size_t>(bins), 7u);
      cpu::histogram_even_parallel(v.data(), n, got64.data(), bins, c.lower, c.upper);
      ASSERT_TRUE(std::equal(want.begin(), want.end(), got64.begin())) << "parallel n=" << n << " bins=" << bins;
      EXPECT_EQ(std::accumulate(got64.begin(), got64.end(), std::uint64_t{0}),
                static_cast<std::uint64_t>(in_range));
    }
  }
}

TYPED_TEST(CpuHistogram, RangeMatchesBinarySearchReference) {
  using T = TypeParam;
  for (std::int64_t bins : scankit::test::bin_classes()) {
    if constexpr (sizeof(T) <= 2) bins = std::min<std::int64_t>(bins, std::numeric_limits<T>::max() / 2);
    const auto e = scankit::test::random_edges<T>(bins);
    for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1000}, std::int64_t{100003}}) {
      const auto v = scankit::test::samples_for_edges<T>(n, e);
      const auto want = scankit::test::expected_range_counts<T, std::uint32_t>(v, e);
      std::vector<std::uint32_t> got(want.size(), 3u), got_p(want.size(), 3u);
      cpu::histogram_range_serial(v.data(), n, got.data(), e.data(), static_cast<std::int64_t>(e.size()));
      ASSERT_EQ(got, want) << "serial n=" << n << " bins=" << bins;
      histogram_range(v, got_p, e);
      ASSERT_EQ(got_p, want) << "parallel n=" << n << " bins=" << bins;
    }
  }
}

TYPED_TEST(CpuHistogram, AccumulateAddsOnto) {
  using T = TypeParam;
  const auto c = scankit::test::pick_range<T>(100, 1);
  const auto a = scankit::test::random_samples<T>(30011, c.lower, c.upper);
  const auto b = scankit::test::random_samples<T>(1009, c.lower, c.upper);
  auto want = scankit::test::expected_counts<T, std::uint64_t>(a, 100, c.lower, c.upper);
  const auto wb = scankit::test::expected_counts<T, std::uint64_t>(b, 100, c.lower, c.upper);
  for (std::size_t i = 0; i < want.size(); ++i) want[i] += wb[i];
  std::vector<std::uint64_t> got(100);
  histogram_even(a, got, c.lower, c.upper);
  histogram_even(b, got, c.lower, c.upper, true);
  EXPECT_EQ(got, want);
  std::vector<std::uint64_t> got_s(100, 1);
  cpu::histogram_even_serial(a.data(), 30011, got_s.data(), 100, c.lower, c.upper);
  cpu::histogram_even_serial(b.data(), 1009, got_s.data(), 100, c.lower, c.upper, true);
  EXPECT_EQ(got_s, want);
}

TYPED_TEST(CpuHistogram, BadArgumentsThrowBeforeWriting) {
  using T = TypeParam;
  std::vector<T> v(10, T(1));
  std::vector<std::uint32_t> c(4, 9u);
  const std::vector<std::uint32_t> untouched = c;
  EXPECT_THROW(cpu::histogram_even_serial(v.data(), -1, c.data(), 4, 0, 4), invalid_argument);
  EXPECT_THROW((cpu::histogram_even_serial<T, std::uint32_t>(nullptr, 3, c.data(), 4, 0, 4)), invalid_argument);
  EXPECT_THROW((cpu::histogram_even_parallel<T, std::uint32_t>(v.data(), 3, nullptr, 4, 0, 4)), invalid_argument);
  EXPECT_THROW(cpu::histogram_even_parallel(v.data(), 10, c.data(), 0, 0, 4), invalid_argument);
  EXPECT_THROW(cpu::histogram_even_parallel(v.data(), 10, c.data(), max_histogram_bins + 1, 0, 4), invalid_argument);
  EXPECT_THROW(cpu::histogram_even_parallel(v.data(), 10, c.data(), 4, 4, 4), invalid_argument);
  EXPECT_THROW(cpu::histogram_even_parallel(v.data(), 10, c.data(), 4, 5, 4), invalid_argument);
  if constexpr (std::is_floating_point_v<T>) {
    EXPECT_THROW((cpu::histogram_even_parallel(v.data(), 10, c.data(), 4, std::numeric_limits<T>::quiet_NaN(), T(4))), invalid_argument);
    EXPECT_THROW((cpu::histogram_even_parallel(v.data(), 10, c.data(), 4, T(0), std::numeric_limits<T>::infinity())), invalid_argument);
  }
  using L = histogram_level_t<T>;
  const std::vector<L> unsorted{L(0), L(2), L(1), L(3), L(4)}, repeated{L(0), L(1), L(1), L(3), L(4)};
  EXPECT_THROW((cpu::histogram_range_parallel(v.data(), 10, c.data(), unsorted.data(), 5)), invalid_argument);
  EXPECT_THROW((cpu::histogram_range_serial(v.data(), 10, c.data(), repeated.data(), 5)), invalid_argument);
  EXPECT_THROW((cpu::histogram_range_serial(v.data(), 10, c.data(), unsorted.data(), 1)), invalid_argument);
  std::vector<std::uint32_t> three(3);
  EXPECT_THROW(histogram_range(v, three, unsorted), invalid_argument);
  EXPECT_EQ(c, untouched);
}

TEST(CpuBincount, CountsKeysAndIgnoresOthers) {
  std::vector<std::int32_t> keys{-1, 0, 1, 1, 5, 6, 1000, 5, std::numeric_limits<std::int32_t>::min()};
  std::vector<std::uint32_t> counts(6);
  bincount(keys, counts);
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{1, 2, 0, 0, 0, 2}));
  std::vector<std::uint8_t> bytes(100000);
  auto& g = scankit::test::rng();
  for (auto& b : bytes) b = static_cast<std::uint8_t>(g());
  std::vector<std::uint64_t> c256(256), s256(256), c100(100);
  bincount(bytes, c256);
  cpu::bincount_serial(bytes.data(), 100000, s256.data(), 256);
  EXPECT_EQ(c256, s256);
  EXPECT_EQ(std::accumulate(c256.begin(), c256.end(), std::uint64_t{0}), 100000u);
  bincount(bytes, c100);  // keys >= 100 ignored
  EXPECT_TRUE(std::equal(c100.begin(), c100.end(), c256.begin()));
}

/// A skewed input (every sample in one bin) through the parallel path's interleaved copies.
TEST(CpuHistogram, AllSamplesInOneBin) {
  std::vector<std::uint16_t> v(1 << 20, 4242);
  std::vector<std::uint32_t> c(65536);
  histogram_even(v, c, 0, 65536);
  EXPECT_EQ(c[4242], 1u << 20);
  EXPECT_EQ(std::accumulate(c.begin(), c.end(), std::uint64_t{0}), 1u << 20);
}

}  // namespace
