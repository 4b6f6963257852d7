// GoogleTest suite of the CUDA top-k (scankit/cuda/topk.hpp) against the CPU serial reference,
// bit for bit: every key type, one array on every path (sampled, radix) at sizes around the
// sample's and the candidate buffer's edges, k from 1 to n, ties (few distinct keys, all equal),
// sorted and reversed inputs (where a strided sample misjudges), NaN and -0.0, both ends;
// a CUDA graph capture and replays;
// segments of every shape (gaps between them included) and rows on the block and the sort
// paths; the same result run to run; bad arguments (which throw and leave the outputs as they
// were). Without a GPU every test skips.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <vector>

#include "common/cuda_test_util.hpp"
#include "common/segments_test_util.hpp"
#include "common/sort_test_util.hpp"
#include "scankit/cpu/topk.hpp"
#include "scankit/cuda/topk.hpp"

namespace {

namespace skc = scankit::cuda;
namespace cpu = scankit::cpu;
using namespace scankit;
using namespace scankit::test;
using i64 = std::int64_t;

/// The k tried for n keys (fewer under the sanitizers, which run every launch far slower).
std::vector<i64> ks(i64 n) {
  std::set<i64> s;
  const std::vector<i64> all{1, 2, 8, 32, 1024, n / 3, n - 1, n}, few{1, 8, n / 3, n};
  for (const i64 k : sanitize_tier() ? few : all)
    if (k >= 1 && k <= n) s.insert(k);
  return {s.begin(), s.end()};
}

template <class K>
class CudaTopk : public ::testing::Test {
 protected:
  void SetUp() override { SKIP_WITHOUT_GPU(); }
};
using key_types = ::testing::Types<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, std::int8_t,
                                   std::int16_t, std::int32_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(CudaTopk, key_types);

TYPED_TEST(CudaTopk, OneArrayEveryPathMatchesTheReference) {
  using K = TypeParam;
  std::vector<i64> sizes{1, 97, 1025, 65537};
  if (!sanitize_tier()) sizes.insert(sizes.end(), {2, 1023, 8192, 8193, (i64{1} << 20) + 3});  // + the automatic sampled path
  if (!quick()) sizes.push_back(std::uniform_int_distribution<i64>(i64{1} << 20, i64{1} << 22)(rng()));
  for (const i64 n : sizes) {
    const bool big = n > 100000;
    for (const auto p : {key_pattern::random, key_pattern::few_distinct, key_pattern::special, key_pattern::sorted,
                         key_pattern::reversed, key_pattern::all_equal}) {
      if ((big || sanitize_tier()) && (p == key_pattern::special || p == key_pattern::reversed)) continue;
      const auto in = make_keys<K>(n, p);
      for (const bool largest : {true, false}) {
        std::vector<K> order_v(static_cast<std::size_t>(n));
        std::vector<i64> order_i(static_cast<std::size_t>(n));
        cpu::topk_serial(in.data(), n, n, order_v.data(), order_i.data(), cpu::topk_options{largest});
        for (const i64 k : ks(n)) {
          for (const auto path : {skc::topk_path::automatic, skc::topk_path::sampled, skc::topk_path::radix,
                                  skc::topk_path::block, skc::topk_path::warp}) {
            SCOPED_TRACE(::testing::Message() << "n = " << n << ", k = " << k << ", " << name(p)
                                              << (largest ? ", largest" : ", smallest") << ", path " << name(path));
            std::vector<K> got_v;
            std::vector<i64> got_i;
            skc::topk(std::span<const K>(in), k, got_v, got_i, skc::topk_options{largest}, skc::topk_config{path});
            ASSERT_EQ(got_i, std::vector<i64>(order_i.begin(), order_i.begin() + k));
            ASSERT_TRUE(bitwise_equal(std::vector<K>(order_v.begin(), order_v.begin() + k), got_v));
          }
        }
      }
    }
  }
}

TYPED_TEST(CudaTopk, SegmentsAndRowsMatchTheReference) {
  using K = TypeParam;
  for (const i64 n : {i64{1}, i64{1000}, i64{5000}, i64{70001}}) {
    for (const auto d : {segment_dist::uniform, segment_dist::powerlaw, segment_dist::single}) {
      const auto off = make_offsets(d, n, 40.0, rng());
      const auto gaps = gapped_bounds(off, rng());
      for (const bool gapped : {false, true}) {
        const segment_bounds seg = gapped ? segment_bounds(gaps.begin.data(), gaps.end.data(), static_cast<i64>(gaps.begin.size()))
                                          : segment_bounds(segment_offsets{off.data(), static_cast<i64>(off.size()) - 1});
        i64 shortest = n;
        for (i64 s = 0; s < seg.count; ++s) shortest = std::min(shortest, seg.end[s] - seg.begin[s]);
        const auto in = make_keys<K>(n, key_pattern::few_distinct);
        for (const i64 k : {i64{1}, std::min<i64>(shortest, 3), shortest}) {
          if (k < 1 || k > shortest) continue;
          for (const auto path : {skc::topk_path::automatic, skc::topk_path::block, skc::topk_path::warp,
                                  skc::topk_path::sort}) {
            for (const bool largest : {true, false}) {
              const auto outs = static_cast<std::size_t>(seg.count * k);
              std::vector<K> want_v(outs), got_v;
              std::vector<i64> want_i(outs), got_i;
              cpu::segmented_topk_serial(in.data(), n, seg, k, want_v.data(), want_i.data(), cpu::topk_options{largest});
              skc::segmented_topk(std::span<const K>(in), seg, k, got_v, got_i, skc::topk_options{largest},
                                  skc::topk_config{path});
              ASSERT_EQ(got_i, want_i) << name(d) << (gapped ? " gapped" : "") << ", n = " << n << ", k = " << k
                                       << ", path " << name(path);
              ASSERT_TRUE(bitwise_equal(want_v, got_v));
            }
          }
        }
      }
    }
  }
  // Rows: the warp path (up to 256 and up to 1,024 keys), the block path (segments held in
  // shared memory or read per digit) and, for k above topk_block_max_k, the sort path.
  std::vector<std::pair<i64, i64>> shapes{{1, 1}, {700, 37}, {2, 20000}, {40, 256}};
  // Rows longer than a block holds are split into chunks: one level at 20,000 keys, two for
  // k = 1,024 at 70,001.
  if (!sanitize_tier()) shapes.insert(shapes.end(), {{3, 1000}, {5, 3000}, {9, 1024}, {4, 1025}, {2, 70001}});
  for (const auto& [rows, cols] : shapes) {
    for (const auto p : {key_pattern::random, key_pattern::few_distinct}) {
      const auto in = make_keys<K>(rows * cols, p);
      std::vector<i64> off;
      for (i64 r = 0; r <= rows; ++r) off.push_back(r * cols);
      const segment_bounds seg{segment_offsets{off.data(), rows}};
      for (const i64 k : ks(cols)) {
        for (const bool largest : {true, false}) {
          const auto outs = static_cast<std::size_t>(rows * k);
          std::vector<K> want_v(outs), got_v;
          std::vector<i64> want_i(outs), got_i;
          cpu::segmented_topk_serial(in.data(), rows * cols, seg, k, want_v.data(), want_i.data(),
                                     cpu::topk_options{largest});
          // The block path also with the split forced each way (automatic splits only few rows).
          for (const auto& cfg : {skc::topk_config{skc::topk_path::automatic}, skc::topk_config{skc::topk_path::warp},
                                  skc::topk_config{skc::topk_path::block},
                                  skc::topk_config{skc::topk_path::block, skc::topk_split::always},
                                  skc::topk_config{skc::topk_path::block, skc::topk_split::never}}) {
            skc::topk_rows(std::span<const K>(in), rows, cols, k, got_v, got_i, skc::topk_options{largest}, cfg);
            ASSERT_EQ(got_i, want_i) << rows << " x " << cols << ", k = " << k << ", path " << name(cfg.path)
                                     << ", split " << name(cfg.split);
            ASSERT_TRUE(bitwise_equal(want_v, got_v));
          }
        }
      }
    }
  }
}

TEST(CudaTopkApi, SameResultRunToRunAndPlans) {
  SKIP_WITHOUT_GPU();
  const auto in = make_keys<float>((i64{1} << 20) + 7, key_pattern::few_distinct);
  std::vector<float> v1, v2;
  std::vector<i64> i1, i2;
  skc::topk(std::span<const float>(in), 1000, v1, i1);
  skc::topk(std::span<const float>(in), 1000, v2, i2);
  EXPECT_EQ(i1, i2);
  EXPECT_TRUE(bitwise_equal(v1, v2));
  EXPECT_EQ(skc::plan_topk(i64{1} << 24, 8, 4), skc::topk_path::sampled);
  EXPECT_EQ(skc::plan_topk(1000, 8, 4), skc::topk_path::warp);  // a small array is one row
  EXPECT_EQ(skc::plan_topk(4000, 8, 4), skc::topk_path::block);
  EXPECT_EQ(skc::plan_topk(100000, 8, 4), skc::topk_path::block);  // one row in chunks
  EXPECT_GT(skc::topk_workspace_bytes(100000, 8, 4), 0u);            // their winners
  EXPECT_EQ(skc::segmented_topk_workspace_bytes(100000, 1, 8, 4), 0u);  // bounds are never split
  EXPECT_GT(skc::topk_rows_workspace_bytes(2, 50000, 8, 4), 0u);
  EXPECT_EQ(skc::plan_topk_rows(65536, 256, 8, 4), skc::topk_path::warp);  // the row length, not n
  EXPECT_EQ(skc::plan_topk_rows(4, 16384, 1024, 4), skc::topk_path::block);
  EXPECT_THROW(skc::plan_topk_rows(-1, 4, 1, 4), scankit::invalid_argument);
  EXPECT_EQ(skc::plan_topk(100000, 2000, 4), skc::topk_path::radix);
  EXPECT_EQ(skc::plan_topk(i64{1} << 24, i64{1} << 23, 4), skc::topk_path::radix);
  EXPECT_EQ(skc::plan_topk(1 << 20, 8, 4, 4096), skc::topk_path::block);
  EXPECT_EQ(skc::plan_topk(1 << 20, 2000, 4, 64), skc::topk_path::sort);
  EXPECT_EQ(skc::plan_topk(1000, 8, 4, 10), skc::topk_path::warp);
  EXPECT_EQ(skc::plan_topk(1000, 33, 4, 10), skc::topk_path::block);
}

// The sampled path's filter reads 16-byte vectors: an input that starts off their boundary has
// keys before the first and after the last whole vector, each taken once. The largest key
// stands at the first and the last position (and at one in between), so that those keys are
// among the winners (all of them for the wider keys, whose largest value is otherwise rare).
TEST(CudaTopkApi, MisalignedInputOnTheSampledPath) {
  SKIP_WITHOUT_GPU();
  auto check = [](auto key) {
    using K = decltype(key);
    const i64 n = (i64{1} << 20) + 13;
    auto in = make_keys<K>(n + 16, key_pattern::random);
    device_buffer d_in, v, ix, ws;
    d_in.reserve(in.size() * sizeof(K)), v.reserve(1024 * sizeof(K)), ix.reserve(1024 * 8);
    ck(cudaMemcpy(d_in.p, in.data(), in.size() * sizeof(K), cudaMemcpyHostToDevice));
    const skc::topk_config sampled{skc::topk_path::sampled};
    for (const i64 offset : {i64{1}, i64{3}, static_cast<i64>(16 / sizeof(K)) - 1})
      for (const i64 k : {i64{1}, i64{8}, i64{1000}}) {
        const K top = std::numeric_limits<K>::max();
        for (const i64 at : {offset, offset + n / 2, offset + n - 1}) in[static_cast<std::size_t>(at)] = top;
        ck(cudaMemcpy(d_in.p, in.data(), in.size() * sizeof(K), cudaMemcpyHostToDevice));
        std::vector<K> want_v(k), got_v(k);
        std::vector<i64> want_i(k), got_i(k);
        cpu::topk_serial(in.data() + offset, n, k, want_v.data(), want_i.data());
        const std::size_t b = skc::topk_workspace_bytes(n, k, sizeof(K), sampled);
        ws.reserve(b);
        skc::topk(d_in.as<K>() + offset, n, k, v.as<K>(), ix.as<i64>(), ws.p, b, nullptr, {}, sampled);
        ck(cudaMemcpy(got_v.data(), v.p, k * sizeof(K), cudaMemcpyDeviceToHost));
        ck(cudaMemcpy(got_i.data(), ix.p, k * 8, cudaMemcpyDeviceToHost));
        EXPECT_EQ(got_i, want_i) << sizeof(K) << "-byte keys, offset " << offset << ", k = " << k;
        EXPECT_TRUE(bitwise_equal(want_v, got_v));
      }
  };
  check(std::uint8_t{}), check(std::int16_t{}), check(float{}), check(double{});
}

// No call copies to the host or allocates, so a stream capture of one array's top-k (the
// sampled path and its device-side fallback decisions) and of a rows top-k replays correctly.
TEST(CudaTopkApi, CapturesInACudaGraphAndReplays) {
  SKIP_WITHOUT_GPU();
  const i64 n = (i64{3} << 20) + 11, k = 100, rows = 512, cols = 3000, kr = 20, ns = 100003;  // ns: one split row
  const auto in = make_keys<float>(n, key_pattern::random);
  std::vector<float> want_v(k), want_rv(static_cast<std::size_t>(rows * kr));
  std::vector<i64> want_i(k), want_ri(static_cast<std::size_t>(rows * kr)), want_si(k);
  std::vector<float> want_sv(k);
  cpu::topk_serial(in.data(), n, k, want_v.data(), want_i.data());
  cpu::topk_serial(in.data(), ns, k, want_sv.data(), want_si.data());
  cpu::topk_rows(in.data(), rows, cols, kr, want_rv.data(), want_ri.data());
  cudaStream_t s{};
  ck(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  device_buffer d_in, v, ix, rv, rix, ws1, ws2, sv, six, ws3;
  d_in.reserve(in.size() * 4), v.reserve(k * 4), ix.reserve(k * 8), rv.reserve(want_rv.size() * 4);
  rix.reserve(want_ri.size() * 8);
  const std::size_t b1 = skc::topk_workspace_bytes(n, k, 4), b2 = skc::topk_rows_workspace_bytes(rows, cols, kr, 4);
  const std::size_t b3 = skc::topk_workspace_bytes(ns, k, 4);
  ws1.reserve(b1), ws2.reserve(b2), ws3.reserve(b3), sv.reserve(k * 4), six.reserve(k * 8);
  ck(cudaMemcpy(d_in.p, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
  auto calls = [&] {
    skc::topk(d_in.as<float>(), n, k, v.as<float>(), ix.as<i64>(), ws1.p, b1, s);
    skc::topk_rows(d_in.as<float>(), rows, cols, kr, rv.as<float>(), rix.as<i64>(), ws2.p, b2, s);
    skc::topk(d_in.as<float>(), ns, k, sv.as<float>(), six.as<i64>(), ws3.p, b3, s);
  };
  calls();  // the first call queries the device; the captured ones find it known
  ck(cudaStreamSynchronize(s));
  cudaGraph_t g{};
  cudaGraphExec_t ge{};
  ck(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  calls();
  ck(cudaStreamEndCapture(s, &g));
  ck(cudaGraphInstantiate(&ge, g, 0));
  for (int replay = 0; replay < 2; ++replay) {
    ck(cudaMemsetAsync(ix.p, 0xff, k * 8, s)), ck(cudaMemsetAsync(rix.p, 0xff, want_ri.size() * 8, s));
    ck(cudaMemsetAsync(six.p, 0xff, k * 8, s));
    ck(cudaGraphLaunch(ge, s));
    ck(cudaStreamSynchronize(s));
    std::vector<i64> got_i(k), got_ri(want_ri.size()), got_si(k);
    ck(cudaMemcpy(got_si.data(), six.p, k * 8, cudaMemcpyDeviceToHost));
    ck(cudaMemcpy(got_i.data(), ix.p, k * 8, cudaMemcpyDeviceToHost));
    ck(cudaMemcpy(got_ri.data(), rix.p, got_ri.size() * 8, cudaMemcpyDeviceToHost));
    EXPECT_EQ(got_i, want_i) << "replay " << replay;
    EXPECT_EQ(got_ri, want_ri) << "replay " << replay;
    EXPECT_EQ(got_si, want_si) << "replay " << replay;
  }
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
}

TEST(CudaTopkApi, BadArgumentsThrowAndWriteNothing) {
  SKIP_WITHOUT_GPU();
  const std::vector<float> host{3, 1, 2, 5, 4, 0};
  device_buffer in, vals, idx, ws;
  in.reserve(64), vals.reserve(64), idx.reserve(64);
  // The workspace checks need a path that takes workspace: six keys alone run as one row.
  const skc::topk_config radix{skc::topk_path::radix};
  const std::size_t wsb = skc::topk_workspace_bytes(6, 6, 4, radix);
  ASSERT_GT(wsb, 16u);
  ASSERT_EQ(skc::topk_workspace_bytes(6, 6, 4), 0u);
  ws.reserve(wsb + 16);  // room for a misaligned workspace of wsb bytes
  ck(cudaMemcpy(in.p, host.data(), 24, cudaMemcpyHostToDevice));
  ck(cudaMemset(vals.p, 0x5a, 64)), ck(cudaMemset(idx.p, 0x5a, 64));
  const float* d_in = in.as<float>();
  float* d_v = vals.as<float>();
  i64* d_i = idx.as<i64>();
  auto untouched = [&] {
    std::vector<unsigned char> a(64), b(64);
    ck(cudaMemcpy(a.data(), vals.p, 64, cudaMemcpyDeviceToHost));
    ck(cudaMemcpy(b.data(), idx.p, 64, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; ++i) {
      ASSERT_EQ(a[i], 0x5a);
      ASSERT_EQ(b[i], 0x5a);
    }
  };
  auto expect_throw = [&](auto&& f) {
    EXPECT_THROW(f(), scankit::invalid_argument);
    untouched();
  };
  expect_throw([&] { skc::topk(d_in, 6, 7, d_v, d_i, ws.p, wsb, nullptr); });
  expect_throw([&] { skc::topk(d_in, 6, -1, d_v, d_i, ws.p, wsb, nullptr); });
  expect_throw([&] { skc::topk(d_in, -1, 1, d_v, d_i, ws.p, wsb, nullptr); });
  expect_throw([&] { skc::topk<float>(nullptr, 6, 1, d_v, d_i, ws.p, wsb, nullptr); });
  expect_throw([&] { skc::topk<float>(d_in, 6, 1, nullptr, d_i, ws.p, wsb, nullptr); });
  expect_throw([&] { skc::topk(d_in, 6, 1, d_v, nullptr, ws.p, wsb, nullptr); });
  expect_throw([&] { skc::topk(d_in, 6, 6, d_v, d_i, ws.p, 16, nullptr, {}, radix); });
  expect_throw([&] { skc::topk(d_in, 6, 6, d_v, d_i, nullptr, wsb, nullptr, {}, radix); });
  expect_throw([&] { skc::topk(d_in, 6, 6, d_v, d_i, static_cast<char*>(ws.p) + 4, wsb, nullptr, {}, radix); });
  expect_throw([&] { skc::topk_rows(d_in, 2, 3, 4, d_v, d_i, ws.p, wsb, nullptr); });
  expect_throw([&] { skc::topk_rows(d_in, -2, 3, 1, d_v, d_i, ws.p, wsb, nullptr); });
  skc::topk_rows(d_in, 0, 3, 2, d_v, d_i, ws.p, wsb, nullptr);  // no rows: nothing to write
  untouched();
  expect_throw([&] {
    skc::topk(d_in, 6, 1, d_v, d_i, ws.p, wsb, nullptr, {}, skc::topk_config{static_cast<skc::topk_path>(9)});
  });
  expect_throw([&] {
    skc::topk_rows(d_in, 2, 3, 1, d_v, d_i, ws.p, wsb, nullptr, {},
                   skc::topk_config{skc::topk_path::block, static_cast<skc::topk_split>(7)});
  });
  // Host containers: bad segments and k above the shortest segment.
  std::vector<float> v;
  std::vector<i64> ix;
  const std::vector<i64> short_seg{0, 1, 6}, decreasing{0, 4, 2, 6};
  EXPECT_THROW(skc::segmented_topk(std::span<const float>(host), segment_offsets{short_seg.data(), 2}, 2, v, ix),
               scankit::invalid_argument);
  EXPECT_THROW(skc::segmented_topk(std::span<const float>(host), segment_offsets{decreasing.data(), 3}, 1, v, ix),
               scankit::invalid_argument);
  EXPECT_THROW(skc::topk(std::span<const float>(host), 7, v, ix), scankit::invalid_argument);
  // No segments or no rows: nothing to select, whatever k (as on the CPU).
  v.assign(3, 1.0f), ix.assign(3, 1);
  skc::segmented_topk(std::span<const float>(host), segment_bounds{}, 7, v, ix);
  EXPECT_TRUE(v.empty() && ix.empty());
  skc::topk_rows(std::span<const float>(), 0, 4, 2, v, ix);
  EXPECT_TRUE(v.empty() && ix.empty());
  EXPECT_THROW(skc::topk_rows(std::span<const float>(host), 2, 2, 1, v, ix), scankit::invalid_argument);
}

}  // namespace
