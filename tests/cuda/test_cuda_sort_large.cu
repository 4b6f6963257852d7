// CUDA sorts above 2^30 keys (look-back portions, 64-bit offsets); skipped in quick mode and
// without enough GPU memory.
//
//   SCANKIT_TEST_QUICK=1  small sizes, no large-size test: for compute-sanitizer runs.
//   SCANKIT_TEST_SEED=N   replays a run.
#include "common/cuda_sort_test_util.hpp"

namespace {

using namespace scankit;
using namespace scankit::test;
using cuda::sort_algorithm;

/// Above 2^30 keys: portions of the look-back, 64-bit offsets. Keys drawn from 2^20 values,
/// values = input positions; checked without a CPU sort: sorted, stable, and a permutation
/// that carries every key with its value.
TEST(CudaSortLarge, AboveTwoToThirtyPairs) {
  SKIP_WITHOUT_GPU();
  if (quick()) GTEST_SKIP() << "quick mode";
  const std::int64_t n = (std::int64_t{1} << 30) + 4099;
  std::size_t free_b = 0, total_b = 0;
  check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  for (auto alg : {sort_algorithm::onesweep, sort_algorithm::lsd_reduce_then_scan}) {
    const cuda::sort_config cfg{alg};
    const std::size_t wb = cuda::sort_workspace_bytes(n, 4, 4, cfg);
    if (free_b < wb + 16ull * n + (1ull << 30)) GTEST_SKIP() << "not enough GPU memory";
    SCOPED_TRACE(std::string(cuda::name(alg)));
    std::vector<std::uint32_t> keys(static_cast<std::size_t>(n)), vals(static_cast<std::size_t>(n));
    splitmix64 g;  // fast enough for 2^30 keys
    for (auto& k : keys) k = static_cast<std::uint32_t>(g()) & 0xFFFFFu;
    std::iota(vals.begin(), vals.end(), 0u);
    dmem kin = upload(keys), vin = upload(vals), kout(4 * n), vout(4 * n), ws(wb);
    cuda::sort_pairs(kin.as<std::uint32_t>(), kout.as<std::uint32_t>(), vin.as<std::uint32_t>(),
                     vout.as<std::uint32_t>(), n, ws.p, wb, nullptr, {}, cfg);
    check(cudaDeviceSynchronize(), "sort_pairs");
    auto ks = download<std::uint32_t>(kout, keys.size());
    auto vs = download<std::uint32_t>(vout, vals.size());
    // Plain checks in the loop (a gtest assertion per item would dominate the run time).
    std::vector<bool> seen(static_cast<std::size_t>(n), false);
    std::int64_t bad = -1;
    const char* why = "";
    for (std::int64_t i = 0; i < n && bad < 0; ++i) {
      const std::uint32_t v = vs[static_cast<std::size_t>(i)];
      const std::uint32_t k = ks[static_cast<std::size_t>(i)];
      if (v >= static_cast<std::uint64_t>(n) || seen[v])
        bad = i, why = "values are not a permutation";
      else if (k != keys[v])
        bad = i, why = "a key lost its value";
      else if (i > 0 && (ks[static_cast<std::size_t>(i - 1)] > k ||
                         (ks[static_cast<std::size_t>(i - 1)] == k &&
                          vs[static_cast<std::size_t>(i - 1)] > v)))
        bad = i, why = "out of order or unstable";
      else
        seen[v] = true;
    }
    EXPECT_EQ(bad, -1) << why;
  }
}

}  // namespace
