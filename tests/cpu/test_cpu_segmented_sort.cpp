// GoogleTest suite of the CPU segmented sorts (scankit/cpu/segmented_sort.hpp): the serial
// reference against an independent check (each segment ordered, equal keys in input order, the
// same items), then the library's sorts against the reference for every key type, every
// segment-length distribution of common/segments_test_util.hpp (with gaps between segments,
// which must stay untouched), keys and pairs, both directions, bit ranges, every sorter and
// path forced, giant segments, and bad arguments (which throw and write nothing).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "common/segments_test_util.hpp"
#include "common/sort_test_util.hpp"
#include "scankit/cpu/segmented_sort.hpp"

namespace {

namespace skc = scankit::cpu;
using namespace scankit;
using namespace scankit::test;
using i64 = std::int64_t;

/// The sizes tried: 0, 1, 2, the insertion sort's edge, a prime, 2^k +- 1, the task size's
/// edges and a random size.
std::vector<i64> sizes() {
  const i64 c = skc::detail::segmented_sort::chunk_work;
  std::vector<i64> s{0, 1, 2, skc::detail::segmented_sort::insertion_max_items + 1, 97, 1023, 1025, c - 1, c, c + 1};
  s.push_back(std::uniform_int_distribution<i64>(1, quick() ? i64{1} << 17 : i64{1} << 19)(rng()));
  return s;
}

// ---------------------------------------------------------------------------------------------
// The reference, checked without a sort: rank order within each segment, stability by the
// carried input positions, the same items, and the gaps unchanged.
TEST(CpuSegmentedSort, SerialReferenceIsASortOfEachSegment) {
  for (const i64 n : {0, 1, 5, 300, 5000}) {
    for (const auto d : all_segment_dists) {
      const auto off = make_offsets(d, n, 6.0, rng());
      const auto b = gapped_bounds(off, rng());
      const segment_bounds seg{b.begin.data(), b.end.data(), static_cast<i64>(b.begin.size())};
      auto keys = make_keys<std::int32_t>(n, key_pattern::few_distinct);
      const auto in = keys;
      std::vector<i64> pos(static_cast<std::size_t>(n));
      std::iota(pos.begin(), pos.end(), i64{0});
      for (const bool desc : {false, true}) {
        auto k = in;
        auto v = pos;
        skc::segmented_sort_pairs_serial(k.data(), v.data(), n, seg, sort_options{desc});
        std::vector<bool> inside(static_cast<std::size_t>(n), false);
        for (std::size_t s = 0; s < b.begin.size(); ++s) {
          for (i64 i = b.begin[s]; i < b.end[s]; ++i) {
            inside[static_cast<std::size_t>(i)] = true;
            const i64 src = v[static_cast<std::size_t>(i)];
            ASSERT_TRUE(src >= b.begin[s] && src < b.end[s]) << "an item left its segment";
            ASSERT_EQ(k[static_cast<std::size_t>(i)], in[static_cast<std::size_t>(src)]);
            if (i == b.begin[s]) continue;
            const auto x = k[static_cast<std::size_t>(i - 1)], y = k[static_cast<std::size_t>(i)];
            ASSERT_FALSE(desc ? x < y : y < x) << "out of order at " << i;
            if (x == y) {
              ASSERT_LT(v[static_cast<std::size_t>(i - 1)], v[static_cast<std::size_t>(i)]) << "unstable at " << i;
            }
          }
          std::vector<i64> srcs(v.begin() + b.begin[s], v.begin() + b.end[s]);
          std::sort(srcs.begin(), srcs.end());
          for (std::size_t j = 0; j < srcs.size(); ++j) ASSERT_EQ(srcs[j], b.begin[s] + static_cast<i64>(j));
        }
        for (i64 i = 0; i < n; ++i) {
          if (!inside[static_cast<std::size_t>(i)]) {
            ASSERT_EQ(k[static_cast<std::size_t>(i)], in[static_cast<std::size_t>(i)]);
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The library's sorts against the reference.
template <class K>
class CpuSegmentedSortTyped : public ::testing::Test {};
using key_types = ::testing::Types<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, std::int8_t,
                                   std::int16_t, std::int32_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(CpuSegmentedSortTyped, key_types);

template <class K>
void check_against_reference(i64 n, const segment_bounds& seg, key_pattern p, const sort_options& opts,
                             const skc::segmented_sort_config& cfg) {
  const auto in = make_keys<K>(n, p);
  auto want = in;
  skc::segmented_sort_keys_serial(want.data(), n, seg, opts);
  auto got = in;
  skc::segmented_sort_keys(got.data(), n, seg, opts, cfg);
  ASSERT_TRUE(bitwise_equal(want, got)) << "keys";
  // Pairs: the values are the input positions, so stability is checked too.
  auto want_k = in;
  auto want_v = index_values<std::int64_t>(n);
  skc::segmented_sort_pairs_serial(want_k.data(), want_v.data(), n, seg, opts);
  auto got_k = in;
  auto got_v = index_values<std::int64_t>(n);
  skc::segmented_sort_pairs(got_k.data(), got_v.data(), n, seg, opts, cfg);
  ASSERT_TRUE(bitwise_equal(want_k, got_k)) << "pair keys";
  ASSERT_EQ(got_v, want_v) << "pair values";
}

TYPED_TEST(CpuSegmentedSortTyped, EveryDistributionMatchesTheReference) {
  using K = TypeParam;
  for (const i64 n : sizes()) {
    for (const auto d : all_segment_dists) {
      // Every mean on small inputs; one drawn at random on large ones (single and ones have none).
      const int mean_draw = std::uniform_int_distribution<int>(0, 2)(rng());
      for (int mi = 0; mi < 3; ++mi) {
        const double mean = mi == 0 ? 4.0 : mi == 1 ? 40.0 : 700.0;
        if ((d == segment_dist::single || d == segment_dist::ones) && mi != 0) continue;
        if (n > 1025 && d != segment_dist::single && d != segment_dist::ones && mi != mean_draw) continue;
        const auto off = make_offsets(d, n, mean, rng());
        const auto b = gapped_bounds(off, rng());
        for (const bool gaps : {false, true}) {
          const segment_bounds seg = gaps ? segment_bounds{b.begin.data(), b.end.data(), static_cast<i64>(b.begin.size())}
                                          : segment_bounds{segment_offsets{off.data(), static_cast<i64>(off.size()) - 1}};
          // Every pattern and direction on small inputs; one drawn at random on large ones.
          const bool all = n <= 1025;
          const int draw = std::uniform_int_distribution<int>(0, 5)(rng());
          for (int c = 0; c < 6; ++c) {
            if (!all && c != draw) continue;
            const key_pattern p = c / 2 == 0 ? key_pattern::random : c / 2 == 1 ? key_pattern::few_distinct : key_pattern::special;
            const bool desc = c % 2 == 1;
            {
              SCOPED_TRACE(::testing::Message() << "n = " << n << ", " << name(d) << ", mean " << mean
                                                << (gaps ? ", gaps" : "") << ", " << name(p)
                                                << (desc ? ", descending" : ""));
              check_against_reference<K>(n, seg, p, sort_options{desc}, {});
              if (::testing::Test::HasFatalFailure()) return;
            }
          }
        }
      }
    }
  }
}

TYPED_TEST(CpuSegmentedSortTyped, EverySorterAndPathForced) {
  using K = TypeParam;
  // Small enough for the insertion sort forced on the power law's giant segments.
  const i64 n = quick() ? 8000 : 20000;
  for (const auto d : {segment_dist::uniform, segment_dist::powerlaw, segment_dist::many_empty}) {
    const auto off = make_offsets(d, n, 64.0, rng());
    const segment_bounds seg{segment_offsets{off.data(), static_cast<i64>(off.size()) - 1}};
    for (const auto how : {skc::segment_sorter::insertion, skc::segment_sorter::comparison, skc::segment_sorter::radix,
                             skc::segment_sorter::parallel}) {
      for (const bool parallel : {false, true}) {
        SCOPED_TRACE(::testing::Message() << name(d) << ", sorter " << static_cast<int>(how)
                                          << (parallel ? ", pool" : ", calling thread"));
        check_against_reference<K>(n, seg, key_pattern::random, {}, skc::segmented_sort_config{how, parallel});
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST(CpuSegmentedSort, BitRanges) {
  const i64 n = 20000;
  const auto off = make_offsets(segment_dist::uniform, n, 50.0, rng());
  const segment_bounds seg{segment_offsets{off.data(), static_cast<i64>(off.size()) - 1}};
  for (const auto& [b, e] : std::vector<std::pair<int, int>>{{0, 8}, {4, 20}, {16, 32}, {0, 0}, {31, 32}}) {
    for (const bool desc : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "bits [" << b << ", " << e << ")" << (desc ? ", descending" : ""));
      check_against_reference<std::uint32_t>(n, seg, key_pattern::random, sort_options{desc, b, e}, {});
    }
  }
}

// Segments long enough for the whole pool (the parallel radix sort on each), among many small
// ones and beside each other.
TEST(CpuSegmentedSort, GiantSegmentsAmongSmallOnes) {
  const i64 giant = skc::detail::segmented_sort::parallel_min_items;
  std::vector<i64> off{0};
  auto add = [&](i64 len) { off.push_back(off.back() + len); };
  for (int i = 0; i < 1000; ++i) add(1 + i % 37);
  add(giant + 17);
  add(3);
  add(giant);
  for (int i = 0; i < 1000; ++i) add(i % 5);
  const i64 n = off.back();
  const segment_bounds seg{segment_offsets{off.data(), static_cast<i64>(off.size()) - 1}};
  check_against_reference<float>(n, seg, key_pattern::special, {}, {});
  check_against_reference<std::uint64_t>(n, seg, key_pattern::random, sort_options{true}, {});
}

TEST(CpuSegmentedSort, SpanOverloads) {
  std::vector<float> keys{3, 1, 2, -1, 5, 4, 0};
  std::vector<std::int32_t> vals{0, 1, 2, 3, 4, 5, 6};
  const std::vector<i64> off{0, 3, 3, 6, 7};
  skc::segmented_sort(std::span<float>(keys), std::span<std::int32_t>(vals), std::span<const i64>(off));
  EXPECT_EQ(keys, (std::vector<float>{1, 2, 3, -1, 4, 5, 0}));
  EXPECT_EQ(vals, (std::vector<std::int32_t>{1, 2, 0, 3, 5, 4, 6}));
  skc::segmented_sort(std::span<float>(keys), std::span<const i64>(off), sort_options{true});
  EXPECT_EQ(keys, (std::vector<float>{3, 2, 1, 5, 4, -1, 0}));
}

TEST(CpuSegmentedSort, BadArgumentsThrowAndWriteNothing) {
  std::vector<std::int32_t> keys{5, 4, 3, 2, 1, 0};
  const auto before = keys;
  std::vector<std::int32_t> vals{0, 1, 2, 3, 4, 5};
  const i64 n = 6;
  auto expect_throw = [&](auto&& f) {
    EXPECT_THROW(f(), scankit::invalid_argument);
    EXPECT_EQ(keys, before);
  };
  const std::vector<i64> decreasing{0, 4, 2, 6}, past{0, 3, 7}, negative{-1, 3, 6}, good{0, 3, 6};
  auto seg = [](const std::vector<i64>& o) { return segment_offsets{o.data(), static_cast<i64>(o.size()) - 1}; };
  expect_throw([&] { skc::segmented_sort_keys(keys.data(), n, seg(decreasing)); });
  expect_throw([&] { skc::segmented_sort_keys(keys.data(), n, seg(past)); });
  expect_throw([&] { skc::segmented_sort_keys(keys.data(), n, seg(negative)); });
  expect_throw([&] { skc::segmented_sort_keys(keys.data(), -1, seg(good)); });
  expect_throw([&] { skc::segmented_sort_keys<std::int32_t>(nullptr, n, seg(good)); });
  expect_throw([&] { skc::segmented_sort_keys(keys.data(), n, segment_bounds{nullptr, nullptr, 2}); });
  expect_throw([&] { skc::segmented_sort_keys(keys.data(), n, seg(good), sort_options{false, 0, 33}); });
  expect_throw([&] { skc::segmented_sort_pairs<std::int32_t, std::int32_t>(keys.data(), nullptr, n, seg(good)); });
  expect_throw([&] {
    skc::segmented_sort_keys(keys.data(), n, seg(good), {}, skc::segmented_sort_config{static_cast<skc::segment_sorter>(9)});
  });
  expect_throw([&] { skc::segmented_sort(std::span<std::int32_t>(keys), std::span<const i64>()); });
  expect_throw([&] {
    skc::segmented_sort(std::span<std::int32_t>(keys), std::span<std::int32_t>(vals.data(), 5), std::span<const i64>(good));
  });
  expect_throw([&] { skc::segmented_sort_keys_serial(keys.data(), n, seg(decreasing)); });
}

}  // namespace
