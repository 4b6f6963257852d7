// GoogleTest suite of the CPU top-k (scankit/cpu/topk.hpp): the serial reference against an
// independent check (every item left out ranks after the last one kept), then topk, its forced
// paths, segmented_topk and topk_rows against the reference, bit for bit: every key type, k
// from 1 to n, ties (few distinct keys), NaN and -0.0, both ends, the parallel select's chunk
// edges, and bad arguments (which throw and write nothing).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "common/segments_test_util.hpp"
#include "common/sort_test_util.hpp"
#include "scankit/cpu/topk.hpp"

namespace {

namespace skc = scankit::cpu;
using namespace scankit;
using namespace scankit::test;
using i64 = std::int64_t;

/// The k tried for an array of n: 1, 2, 8, a third, n - 1 and n (those that fit).
std::vector<i64> ks(i64 n) {
  std::set<i64> s;
  for (const i64 k : {i64{1}, i64{2}, i64{8}, n / 3, n - 1, n})
    if (k >= 1 && k <= n) s.insert(k);
  return {s.begin(), s.end()};
}

TEST(CpuTopk, SerialReferenceKeepsTheFirstKOfTheOrder) {
  for (const i64 n : {1, 2, 7, 300, 2000}) {
    for (const auto p : {key_pattern::random, key_pattern::few_distinct, key_pattern::special}) {
      const auto in = make_keys<float>(n, p);
      for (const bool largest : {true, false}) {
        for (const i64 k : ks(n)) {
          std::vector<float> v(static_cast<std::size_t>(k));
          std::vector<i64> idx(static_cast<std::size_t>(k));
          skc::topk_serial(in.data(), n, k, v.data(), idx.data(), skc::topk_options{largest});
          auto key = [&](i64 i) {
            return std::pair{scankit::detail::sort_rank_bits(in[static_cast<std::size_t>(i)], 0, 32, largest), i};
          };
          std::vector<bool> kept(static_cast<std::size_t>(n), false);
          for (i64 j = 0; j < k; ++j) {
            const i64 i = idx[static_cast<std::size_t>(j)];
            ASSERT_TRUE(i >= 0 && i < n);
            ASSERT_FALSE(kept[static_cast<std::size_t>(i)]) << "position kept twice";
            kept[static_cast<std::size_t>(i)] = true;
            ASSERT_EQ(std::memcmp(&v[static_cast<std::size_t>(j)], &in[static_cast<std::size_t>(i)], sizeof(float)), 0);
            if (j > 0) {
              ASSERT_LT(key(idx[static_cast<std::size_t>(j - 1)]), key(i)) << "not in order at " << j;
            }
          }
          const auto last = key(idx[static_cast<std::size_t>(k - 1)]);
          for (i64 i = 0; i < n; ++i) {
            if (!kept[static_cast<std::size_t>(i)]) {
              ASSERT_LT(last, key(i)) << "position " << i << " belongs in the top " << k;
            }
          }
        }
      }
    }
  }
}

template <class K>
class CpuTopkTyped : public ::testing::Test {};
using key_types = ::testing::Types<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, std::int8_t,
                                   std::int16_t, std::int32_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(CpuTopkTyped, key_types);

/// topk against the reference's whole order (its first k is the reference's top k).
template <class K>
void check_topk(const std::vector<K>& in, const std::vector<K>& order_v, const std::vector<i64>& order_i, i64 k,
                bool largest, const skc::topk_config& cfg) {
  const i64 n = static_cast<i64>(in.size());
  std::vector<K> got_v(static_cast<std::size_t>(k));
  std::vector<i64> got_i(static_cast<std::size_t>(k));
  skc::topk(in.data(), n, k, got_v.data(), got_i.data(), skc::topk_options{largest}, cfg);
  ASSERT_EQ(got_i, std::vector<i64>(order_i.begin(), order_i.begin() + k));
  ASSERT_TRUE(bitwise_equal(std::vector<K>(order_v.begin(), order_v.begin() + k), got_v));
}

TYPED_TEST(CpuTopkTyped, OneArrayEveryPathMatchesTheReference) {
  using K = TypeParam;
  const i64 c = skc::detail::topk::chunk_items;
  std::vector<i64> sizes{1, 2, 97, 1023, 1025, c - 1, c + 1};
  sizes.push_back(std::uniform_int_distribution<i64>(c, quick() ? 3 * c : 6 * c)(rng()));
  for (const i64 n : sizes) {
    for (const auto p : {key_pattern::random, key_pattern::few_distinct, key_pattern::special}) {
      const auto in = make_keys<K>(n, p);
      for (const bool largest : {true, false}) {
        std::vector<K> order_v(static_cast<std::size_t>(n));
        std::vector<i64> order_i(static_cast<std::size_t>(n));
        skc::topk_serial(in.data(), n, n, order_v.data(), order_i.data(), skc::topk_options{largest});
        for (const i64 k : ks(n)) {
          for (const auto path : {skc::topk_path::automatic, skc::topk_path::select, skc::topk_path::heap,
                                  skc::topk_path::radix}) {
            SCOPED_TRACE(::testing::Message() << "n = " << n << ", k = " << k << ", " << name(p)
                                              << (largest ? ", largest" : ", smallest") << ", path "
                                              << static_cast<int>(path));
            check_topk(in, order_v, order_i, k, largest, skc::topk_config{path});
            if (::testing::Test::HasFatalFailure()) return;
          }
        }
      }
    }
  }
}

TYPED_TEST(CpuTopkTyped, SegmentsAndRowsMatchTheReference) {
  using K = TypeParam;
  for (const i64 n : {i64{0}, i64{1}, i64{5000}, i64{70001}}) {
    for (const auto d : {segment_dist::uniform, segment_dist::powerlaw, segment_dist::single}) {
      // Segments of at least k items: the uniform lengths from 1, so k = 1 there.
      const auto off = make_offsets(d, n, 40.0, rng());
      const segment_bounds seg{segment_offsets{off.data(), static_cast<i64>(off.size()) - 1}};
      i64 shortest = n;
      for (std::size_t s = 0; s + 1 < off.size(); ++s) shortest = std::min(shortest, off[s + 1] - off[s]);
      const auto in = make_keys<K>(n, key_pattern::few_distinct);
      for (const i64 k : {i64{0}, i64{1}, shortest}) {
        if (k > shortest) continue;
        for (const bool largest : {true, false}) {
          const auto outs = static_cast<std::size_t>(seg.count * k);
          std::vector<K> want_v(outs), got_v(outs);
          std::vector<i64> want_i(outs), got_i(outs);
          skc::segmented_topk_serial(in.data(), n, seg, k, want_v.data(), want_i.data(), skc::topk_options{largest});
          skc::segmented_topk(in.data(), n, seg, k, got_v.data(), got_i.data(), skc::topk_options{largest});
          ASSERT_EQ(got_i, want_i) << name(d) << ", n = " << n << ", k = " << k;
          ASSERT_TRUE(bitwise_equal(want_v, got_v));
        }
      }
    }
  }
  for (const auto& [rows, cols] : std::vector<std::pair<i64, i64>>{{0, 5}, {1, 1}, {3, 1000}, {700, 37}, {64, 4096}}) {
    const auto in = make_keys<K>(rows * cols, key_pattern::random);
    std::vector<i64> off;
    for (i64 r = 0; r <= rows; ++r) off.push_back(r * cols);
    const segment_bounds seg{segment_offsets{off.data(), rows}};
    for (const i64 k : ks(cols)) {
      const auto outs = static_cast<std::size_t>(rows * k);
      std::vector<K> want_v(outs), got_v(outs);
      std::vector<i64> want_i(outs), got_i(outs);
      skc::segmented_topk_serial(in.data(), rows * cols, seg, k, want_v.data(), want_i.data());
      skc::topk_rows(in.data(), rows, cols, k, got_v.data(), got_i.data());
      ASSERT_EQ(got_i, want_i) << rows << " x " << cols << ", k = " << k;
      ASSERT_TRUE(bitwise_equal(want_v, got_v));
    }
  }
}

TEST(CpuTopk, BadArgumentsThrowAndWriteNothing) {
  const std::vector<float> in{3, 1, 2, 5, 4, 0};
  std::vector<float> v(8, -7.0f);
  std::vector<i64> idx(8, -7);
  const auto v0 = v;
  const auto i0 = idx;
  auto expect_throw = [&](auto&& f) {
    EXPECT_THROW(f(), scankit::invalid_argument);
    EXPECT_EQ(v, v0);
    EXPECT_EQ(idx, i0);
  };
  expect_throw([&] { skc::topk(in.data(), 6, 7, v.data(), idx.data()); });
  expect_throw([&] { skc::topk(in.data(), 6, -1, v.data(), idx.data()); });
  expect_throw([&] { skc::topk(in.data(), -1, 1, v.data(), idx.data()); });
  expect_throw([&] { skc::topk<float>(nullptr, 6, 1, v.data(), idx.data()); });
  expect_throw([&] { skc::topk<float>(in.data(), 6, 1, nullptr, idx.data()); });
  expect_throw([&] { skc::topk(in.data(), 6, 1, v.data(), nullptr); });
  expect_throw([&] { skc::topk(in.data(), 6, 1, v.data(), idx.data(), {}, skc::topk_config{static_cast<skc::topk_path>(7)}); });
  const std::vector<i64> short_seg{0, 1, 6}, decreasing{0, 4, 2, 6};
  expect_throw([&] { skc::segmented_topk(in.data(), 6, segment_offsets{short_seg.data(), 2}, 2, v.data(), idx.data()); });
  expect_throw([&] { skc::segmented_topk(in.data(), 6, segment_offsets{decreasing.data(), 3}, 1, v.data(), idx.data()); });
  expect_throw([&] { skc::topk_rows(in.data(), 2, 3, 4, v.data(), idx.data()); });
  expect_throw([&] { skc::topk_rows(in.data(), -2, 3, 1, v.data(), idx.data()); });
  expect_throw([&] { skc::topk_serial(in.data(), 6, 7, v.data(), idx.data()); });
}

}  // namespace
