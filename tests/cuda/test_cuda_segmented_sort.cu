// GoogleTest suite of the CUDA segmented sorts (scankit/cuda/segmented_sort.hpp) against the CPU
// serial reference, bit for bit: every key type, keys alone and with values of 4, 8 and 16
// bytes, every segment-length distribution of common/segments_test_util.hpp with and without
// gaps between segments (which must keep their keys), both directions, a bit range, in place
// and out of place, long segments by radix passes (forced down to single keys), a CUDA graph
// capture and replays, and bad arguments (which throw and leave
// the outputs as they were).
// Without a GPU every test skips.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "common/cuda_test_util.hpp"
#include "common/segments_test_util.hpp"
#include "common/sort_test_util.hpp"
#include "scankit/cpu/segmented_sort.hpp"
#include "scankit/cuda/segmented_sort.hpp"

namespace {

namespace skc = scankit::cuda;
namespace cpu = scankit::cpu;
using namespace scankit;
using namespace scankit::test;
using i64 = std::int64_t;

struct alignas(8) v16 {
  std::uint64_t a, b;
  bool operator==(const v16&) const = default;
};

template <class K>
class CudaSegmentedSort : public ::testing::Test {
 protected:
  void SetUp() override { SKIP_WITHOUT_GPU(); }
};
using key_types = ::testing::Types<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, std::int8_t,
                                   std::int16_t, std::int32_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(CudaSegmentedSort, key_types);

// Around the merge path's piece (2,048 keys) and bin (4,096) edges, and long enough for several
// merge rounds.
std::vector<i64> sizes() {
  std::vector<i64> s{0, 1, 2, 97, 2047, 2049, 4097};
  if (!sanitize_tier()) s.insert(s.end(), {4096, 8191, 65537, std::uniform_int_distribution<i64>(1, i64{1} << 18)(rng())});
  return s;
}

constexpr skc::segmented_sort_path paths[] = {skc::segmented_sort_path::merge, skc::segmented_sort_path::two_sort};

/// Sorts keys (and values) of n with the device-pointer call, in place or out of place (the
/// values the other way where `values_flip`).
template <class K, class V>
void device_sort(std::vector<K>& keys, std::vector<V>* values, const segment_bounds& host_seg, const sort_options& o,
                 bool in_place, skc::segmented_sort_config cfg = {}, bool values_flip = false) {
  const i64 n = static_cast<i64>(keys.size());
  const std::size_t vb = values ? sizeof(V) : 0;
  device_buffer kin, kout, vin, vout, b, e, ws;
  kin.reserve(keys.size() * sizeof(K)), kout.reserve(keys.size() * sizeof(K));
  vin.reserve(keys.size() * sizeof(V)), vout.reserve(keys.size() * sizeof(V));
  b.reserve(static_cast<std::size_t>(host_seg.count) * 8), e.reserve(static_cast<std::size_t>(host_seg.count) * 8);
  const std::size_t wb = skc::segmented_sort_workspace_bytes(n, host_seg.count, sizeof(K), vb, cfg);
  ws.reserve(wb);
  ck(cudaMemcpy(kin.p, keys.data(), keys.size() * sizeof(K), cudaMemcpyHostToDevice));
  if (values) ck(cudaMemcpy(vin.p, values->data(), keys.size() * sizeof(V), cudaMemcpyHostToDevice));
  ck(cudaMemcpy(b.p, host_seg.begin, static_cast<std::size_t>(host_seg.count) * 8, cudaMemcpyHostToDevice));
  ck(cudaMemcpy(e.p, host_seg.end, static_cast<std::size_t>(host_seg.count) * 8, cudaMemcpyHostToDevice));
  const segment_bounds seg(b.as<i64>(), e.as<i64>(), host_seg.count);
  K* ko = in_place ? kin.as<K>() : kout.as<K>();
  V* vo = in_place != values_flip ? vin.as<V>() : vout.as<V>();
  if (values)
    skc::segmented_sort_pairs(kin.as<K>(), ko, vin.as<V>(), vo, n, seg, ws.p, wb, nullptr, o, cfg);
  else
    skc::segmented_sort_keys(kin.as<K>(), ko, n, seg, ws.p, wb, nullptr, o, cfg);
  ck(cudaMemcpy(keys.data(), ko, keys.size() * sizeof(K), cudaMemcpyDeviceToHost));
  if (values) ck(cudaMemcpy(values->data(), vo, keys.size() * sizeof(V), cudaMemcpyDeviceToHost));
}

TYPED_TEST(CudaSegmentedSort, MatchesTheReference) {
  using K = TypeParam;
  for (const i64 n : sizes()) {
    for (const auto d : all_segment_dists) {
      // Short segments (mean 24) and ones longer than a piece (mean 3,000: merge rounds).
      for (const double mean : {24.0, 3000.0}) {
        if (mean > 24.0 && (n < 4096 || d == segment_dist::single || d == segment_dist::ones)) continue;
        const auto off = make_offsets(d, n, mean, rng());
        const auto gaps = gapped_bounds(off, rng());
        for (const bool gapped : {false, true}) {
          const segment_bounds seg = gapped ? segment_bounds(gaps.begin.data(), gaps.end.data(), static_cast<i64>(gaps.begin.size()))
                                            : segment_bounds(segment_offsets{off.data(), static_cast<i64>(off.size()) - 1});
          const auto in = make_keys<K>(n, gapped ? key_pattern::random : key_pattern::few_distinct);
          for (const bool desc : {false, true}) {
            const sort_options o{desc};
            // Keys alone, out of place; pairs with 4-byte positions in place.
            auto want = in;
            cpu::segmented_sort_keys_serial(want.data(), n, seg, o);
            std::vector<std::uint32_t> pos(static_cast<std::size_t>(n));
            std::iota(pos.begin(), pos.end(), 0u);
            auto want_k = in;
            auto want_v = pos;
            cpu::segmented_sort_pairs_serial(want_k.data(), want_v.data(), n, seg, o);
            for (const auto path : paths) {
              SCOPED_TRACE(::testing::Message() << "n = " << n << ", " << name(d) << " mean " << mean
                                                << (gapped ? " gapped" : "") << (desc ? ", descending" : "") << ", "
                                                << skc::name(path));
              auto got = in;
              device_sort<K, std::uint32_t>(got, nullptr, seg, o, false, {path});
              ASSERT_TRUE(bitwise_equal(want, got));
              auto got_k = in;
              auto got_v = pos;
              device_sort(got_k, &got_v, seg, o, true, {path});
              ASSERT_TRUE(bitwise_equal(want_k, got_k));
              ASSERT_EQ(want_v, got_v);
            }
          }
        }
      }
    }
  }
}

// The merge path's long segments by radix passes (radix_long.cuh), forced down to short
// segments and single keys: partial tiles, many segments per launch, segments among gaps and
// among merged and piece-sorted ones; keys alone, 4- and 8-byte values, in place (keys and
// values, or keys alone: merge rounds instead), both directions, bit ranges of an even number of digits (radix passes) and of an odd one (merge
// rounds instead).
TYPED_TEST(CudaSegmentedSort, LongSegmentsByRadixPasses) {
  using K = TypeParam;
  constexpr int bits = static_cast<int>(sizeof(K) * 8);
  // The sanitize tier: one case of each kind of call (a sanitized launch is slow).
  const bool few = sanitize_tier();
  const std::vector<i64> ns = few ? std::vector<i64>{6007} : std::vector<i64>{4097, 20011, 100003};
  const std::vector<i64> froms = few ? std::vector<i64>{777} : std::vector<i64>{1, 777, 5000};
  const std::vector<segment_dist> dists = few ? std::vector<segment_dist>{segment_dist::powerlaw}
                                              : std::vector<segment_dist>{segment_dist::powerlaw, segment_dist::uniform,
                                                                          segment_dist::single};
  for (const i64 n : ns) {
    for (const i64 from : froms) {
      for (const auto d : dists) {
        const auto off = make_offsets(d, n, 300.0, rng());
        const auto gaps = gapped_bounds(off, rng());
        for (const bool gapped : {false, true}) {
          if (few && !gapped) continue;
          const segment_bounds seg = gapped ? segment_bounds(gaps.begin.data(), gaps.end.data(), static_cast<i64>(gaps.begin.size()))
                                            : segment_bounds(segment_offsets{off.data(), static_cast<i64>(off.size()) - 1});
          const auto in = make_keys<K>(n, gapped ? key_pattern::random : key_pattern::few_distinct);
          const sort_options two_digits = bits == 16 ? sort_options{false, 2, 14} : sort_options{false, 4, 20};
          std::vector<sort_options> opts{sort_options{false}};
          if (!few) opts.push_back(sort_options{true});
          if (bits >= 16) opts.push_back(two_digits);
          if (bits >= 32 && !few) opts.push_back(sort_options{true, 0, 20});  // three digits: merge rounds
          const skc::segmented_sort_config cfg{skc::segmented_sort_path::merge, from};
          for (const auto& o : opts) {
            SCOPED_TRACE(::testing::Message() << "n = " << n << ", radix from " << from << ", " << name(d)
                                              << (gapped ? " gapped" : "") << (o.descending ? ", descending" : "")
                                              << ", bits [" << o.begin_bit << ", " << o.end_bit << ")");
            auto want = in;
            cpu::segmented_sort_keys_serial(want.data(), n, seg, o);
            auto got = in;
            device_sort<K, std::uint32_t>(got, nullptr, seg, o, false, cfg);
            ASSERT_TRUE(bitwise_equal(want, got));
            // Pairs against the serial reference: keys and values in place or not, or keys in
            // place and values not (`flip`: the merge rounds then take every segment).
            const auto check_pairs = [&](const auto& values, bool in_place, bool flip) {
              auto want_k = in, got_k = in;
              auto want_v = values, got_v = values;
              cpu::segmented_sort_pairs_serial(want_k.data(), want_v.data(), n, seg, o);
              device_sort(got_k, &got_v, seg, o, in_place, cfg, flip);
              ASSERT_TRUE(bitwise_equal(want_k, got_k));
              ASSERT_EQ(want_v, got_v);
            };
            std::vector<std::uint32_t> pos(static_cast<std::size_t>(n));
            std::iota(pos.begin(), pos.end(), 0u);
            std::vector<std::uint64_t> wide(static_cast<std::size_t>(n));
            for (i64 i = 0; i < n; ++i) wide[static_cast<std::size_t>(i)] = ~std::uint64_t(i) * 7;
            ASSERT_NO_FATAL_FAILURE(check_pairs(pos, true, false));
            ASSERT_NO_FATAL_FAILURE(check_pairs(wide, false, false));
            ASSERT_NO_FATAL_FAILURE(check_pairs(pos, true, true));
          }
        }
      }
    }
  }
}

TEST(CudaSegmentedSortApi, WideValuesBitRangesAndHostContainers) {
  SKIP_WITHOUT_GPU();
  const i64 n = 20011;
  const auto off = make_offsets(segment_dist::powerlaw, n, 300.0, rng());
  const segment_bounds seg{segment_offsets{off.data(), static_cast<i64>(off.size()) - 1}};
  const auto in = make_keys<std::uint32_t>(n, key_pattern::random);
  std::vector<v16> v16s(static_cast<std::size_t>(n));
  std::vector<std::uint64_t> v8s(static_cast<std::size_t>(n));
  for (i64 i = 0; i < n; ++i) v16s[static_cast<std::size_t>(i)] = {std::uint64_t(i), ~std::uint64_t(i)}, v8s[static_cast<std::size_t>(i)] = std::uint64_t(i) * 3;
  const sort_options range{false, 4, 20};
  for (const auto path : paths) {
    SCOPED_TRACE(skc::name(path));
    auto wk = in, gk = in;
    auto wv = v16s, gv = v16s;
    cpu::segmented_sort_pairs_serial(wk.data(), wv.data(), n, seg, range);
    device_sort(gk, &gv, seg, range, false, {path});
    EXPECT_EQ(wk, gk);
    EXPECT_EQ(wv, gv);
    auto wk8 = in, gk8 = in;
    auto wv8 = v8s, gv8 = v8s;
    cpu::segmented_sort_pairs_serial(wk8.data(), wv8.data(), n, seg, sort_options{true});
    device_sort(gk8, &gv8, seg, sort_options{true}, true, {path});
    EXPECT_EQ(wk8, gk8);
    EXPECT_EQ(wv8, gv8);
  }
  {
    auto wk = in, gk = in;
    auto wv = v8s, gv = v8s;
    cpu::segmented_sort_pairs_serial(wk.data(), wv.data(), n, seg, sort_options{true});
    skc::segmented_sort_pairs(std::span<std::uint32_t>(gk), std::span<std::uint64_t>(gv), seg, sort_options{true});
    EXPECT_EQ(wk, gk);
    EXPECT_EQ(wv, gv);
    auto hk = in;
    auto wk2 = in;
    cpu::segmented_sort_keys_serial(wk2.data(), n, seg);
    skc::segmented_sort_keys(std::span<std::uint32_t>(hk), seg);
    EXPECT_EQ(wk2, hk);
  }
}

// No call copies to the host or allocates: a captured sort replays to the same result.
TEST(CudaSegmentedSortApi, CapturesInACudaGraphAndReplays) {
  SKIP_WITHOUT_GPU();
  const i64 n = 300007;
  const auto off = make_offsets(segment_dist::powerlaw, n, 50.0, rng());
  const i64 count = static_cast<i64>(off.size()) - 1;
  const auto in = make_keys<std::uint32_t>(n, key_pattern::random);
  auto want = in;
  cpu::segmented_sort_keys_serial(want.data(), n, segment_offsets{off.data(), count});
  cudaStream_t s{};
  ck(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  device_buffer k_in, k_out, d_off, ws;
  k_in.reserve(in.size() * 4), k_out.reserve(in.size() * 4), d_off.reserve(off.size() * 8);
  const std::size_t wb = skc::segmented_sort_workspace_bytes(n, count, 4);
  ws.reserve(wb);
  ck(cudaMemcpy(k_in.p, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
  ck(cudaMemcpy(d_off.p, off.data(), off.size() * 8, cudaMemcpyHostToDevice));
  const segment_bounds seg{segment_offsets{d_off.as<i64>(), count}};
  auto call = [&] { skc::segmented_sort_keys(k_in.as<std::uint32_t>(), k_out.as<std::uint32_t>(), n, seg, ws.p, wb, s); };
  call();
  ck(cudaStreamSynchronize(s));
  cudaGraph_t g{};
  cudaGraphExec_t ge{};
  ck(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  call();
  ck(cudaStreamEndCapture(s, &g));
  ck(cudaGraphInstantiate(&ge, g, 0));
  for (int replay = 0; replay < 2; ++replay) {
    ck(cudaMemsetAsync(k_out.p, 0, in.size() * 4, s));
    ck(cudaGraphLaunch(ge, s));
    ck(cudaStreamSynchronize(s));
    std::vector<std::uint32_t> got(in.size());
    ck(cudaMemcpy(got.data(), k_out.p, got.size() * 4, cudaMemcpyDeviceToHost));
    EXPECT_EQ(got, want) << "replay " << replay;
  }
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
}

TEST(CudaSegmentedSortApi, BadArgumentsThrowAndWriteNothing) {
  SKIP_WITHOUT_GPU();
  std::vector<float> keys{3, 1, 2, 5, 4, 0};
  const auto before = keys;
  const std::vector<i64> short_seg{0, 1, 7}, decreasing{0, 4, 2, 6};
  EXPECT_THROW(skc::segmented_sort_keys(std::span<float>(keys), segment_offsets{short_seg.data(), 2}),
               scankit::invalid_argument);
  EXPECT_THROW(skc::segmented_sort_keys(std::span<float>(keys), segment_offsets{decreasing.data(), 3}),
               scankit::invalid_argument);
  EXPECT_THROW(skc::segmented_sort_keys(std::span<float>(keys), segment_offsets{short_seg.data(), 1},
                                        sort_options{false, 0, 40}),
               scankit::invalid_argument);
  std::vector<std::uint32_t> few(3);
  EXPECT_THROW(skc::segmented_sort_pairs(std::span<float>(keys), std::span<std::uint32_t>(few),
                                         segment_offsets{short_seg.data(), 1}),
               scankit::invalid_argument);
  EXPECT_EQ(keys, before);
  device_buffer k, ws;
  k.reserve(64), ws.reserve(64);
  const std::vector<i64> ok{0, 6};
  device_buffer b;
  b.reserve(16);
  ck(cudaMemcpy(b.p, ok.data(), 16, cudaMemcpyHostToDevice));
  const segment_bounds seg{segment_offsets{b.as<i64>(), 1}};
  const std::size_t need = skc::segmented_sort_workspace_bytes(6, 1, 4);
  EXPECT_THROW(skc::segmented_sort_keys(k.as<float>(), k.as<float>(), 6, seg, ws.p, need - 1, nullptr),
               scankit::invalid_argument);
  EXPECT_THROW(skc::segmented_sort_keys(k.as<float>(), k.as<float>(), -1, seg, ws.p, need, nullptr),
               scankit::invalid_argument);
  EXPECT_THROW(skc::segmented_sort_keys<float>(nullptr, k.as<float>(), 6, seg, ws.p, need, nullptr),
               scankit::invalid_argument);
  EXPECT_THROW(skc::segmented_sort_keys(k.as<float>(), k.as<float>(), 6, seg, nullptr, need, nullptr),
               scankit::invalid_argument);
  EXPECT_THROW(skc::segmented_sort_workspace_bytes(6, 1, 3), scankit::invalid_argument);
}

}  // namespace
