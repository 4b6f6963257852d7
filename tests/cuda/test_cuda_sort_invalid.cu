// CUDA sorts: workspace sizes (host arithmetic, no GPU needed) and bad arguments, which throw
// before anything is launched and leave the inputs intact.
//
//   SCANKIT_TEST_QUICK=1  small sizes, no large-size test: for compute-sanitizer runs.
//   SCANKIT_TEST_SEED=N   replays a run.
#include "common/cuda_sort_test_util.hpp"

namespace {

using namespace scankit;
using namespace scankit::test;
using cuda::sort_algorithm;

// The workspace a size needs never shrinks as the size grows, so that a workspace sized once
// for the largest input serves every smaller one. Host arithmetic only: runs without a GPU.
// (The small tiles' bounds are where this is easiest to break.)
TEST(CudaSortWorkspace, BytesNeverShrinkAsSizeGrows) {
  std::vector<std::int64_t> sizes;
  for (std::size_t kb : {1, 2, 4, 8})
    for (std::size_t vb : {0, 4, 8, 16})
      if (const auto t = cuda::detail::radix::sort_tuning_for(kb, vb, 90); t.small.exists())
        for (std::int64_t d = -5000; d <= 5000; ++d) sizes.push_back(t.small_below + d);
  for (int k = 1; k <= 34; ++k)
    for (std::int64_t d : {-1, 0, 1}) sizes.push_back((std::int64_t{1} << k) + d);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  for (auto alg : cuda::all_sort_algorithms)
    for (std::size_t kb : {1, 2, 4, 8})
      for (std::size_t vb : {0, 4, 8, 16}) {
        std::size_t before = 0;
        std::int64_t before_n = 0;
        for (std::int64_t n : sizes) {
          const std::size_t w = cuda::sort_workspace_bytes(n, kb, vb, {alg});
          ASSERT_GE(w, before) << cuda::name(alg) << ", " << kb << "-byte keys, " << vb
                               << "-byte values: " << w << " bytes at n = " << n << " against "
                               << before << " at n = " << before_n;
          before = w;
          before_n = n;
        }
      }
}

TEST(CudaSortArgs, BadArgumentsThrowBeforeLaunching) {
  SKIP_WITHOUT_GPU();
  const std::vector<std::uint32_t> keys{5, 3, 9, 1};
  dmem in = upload(keys), out(16);
  const std::size_t wb = cuda::sort_workspace_bytes(1 << 20, 4, 0);
  dmem ws(wb);
  auto* k = in.as<std::uint32_t>();
  auto* o = out.as<std::uint32_t>();
  EXPECT_THROW(cuda::sort_keys(k, o, -1, ws.p, wb, nullptr), invalid_argument);
  EXPECT_THROW(cuda::sort_keys<std::uint32_t>(nullptr, o, 4, ws.p, wb, nullptr), invalid_argument);
  EXPECT_THROW(cuda::sort_keys<std::uint32_t>(k, nullptr, 4, ws.p, wb, nullptr), invalid_argument);
  EXPECT_THROW(cuda::sort_keys(k, o, 4, ws.p, wb, nullptr, {.begin_bit = 3, .end_bit = 2}),
               invalid_argument);
  EXPECT_THROW(cuda::sort_keys(k, o, 4, ws.p, wb, nullptr, {.end_bit = 40}), invalid_argument);
  // Too little workspace for a size that needs some (above the one-block path).
  const std::int64_t big = 1 << 20;
  dmem bk(big * 4), bo(big * 4);
  EXPECT_THROW(
      cuda::sort_keys(bk.as<std::uint32_t>(), bo.as<std::uint32_t>(), big, ws.p, wb - 1, nullptr),
      invalid_argument);
  EXPECT_THROW(
      cuda::sort_keys(bk.as<std::uint32_t>(), bo.as<std::uint32_t>(), big, nullptr, wb, nullptr),
      invalid_argument);
  EXPECT_THROW(
      (cuda::sort_pairs<std::uint32_t, std::uint32_t>(k, o, nullptr, o, 4, ws.p, wb, nullptr)),
      invalid_argument);
  EXPECT_THROW(cuda::sort_workspace_bytes(-5, 4), invalid_argument);
  EXPECT_THROW(cuda::sort_workspace_bytes(5, 3), invalid_argument);
  // 32-bit argsort positions hold at most 2^32 positions; nothing is read before the throw.
  EXPECT_THROW(cuda::argsort(k, o, reinterpret_cast<std::uint32_t*>(bo.p), (std::int64_t{1} << 32) + 1,
                             ws.p, wb, nullptr),
               invalid_argument);
  // argsort_without_keys still needs its scratch keys and its positions.
  EXPECT_THROW((cuda::argsort_without_keys<std::uint32_t>(k, nullptr, bo.as<std::int64_t>(), 4, ws.p, wb, nullptr)),
               invalid_argument);
  EXPECT_THROW((cuda::argsort_without_keys<std::uint32_t, std::int64_t>(k, o, nullptr, 4, ws.p, wb, nullptr)),
               invalid_argument);
  EXPECT_TRUE(bitwise_equal(keys, download<std::uint32_t>(in, 4)));
  cuda::sort_keys<std::uint32_t>(nullptr, nullptr, 0, nullptr, 0,
                                 nullptr);  // n == 0: nothing to do
}

}  // namespace
