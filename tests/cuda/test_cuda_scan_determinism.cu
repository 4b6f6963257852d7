// GoogleTest suite of the CUDA scans' independence from timing: floating-point results that are
// the same bits on every run, and many launches at random sizes, where a race in the look-back
// would give a wrong result now and then (or hang, into ctest's timeout). Every algorithm of
// scankit::cuda::all_scan_algorithms, through the public API. Without a GPU every test skips.
//
// Environment: SCANKIT_TEST_QUICK=1 (smaller sizes, fewer launches: for compute-sanitizer runs),
// SCANKIT_TEST_SEED=N (replay), SCANKIT_TEST_VERBOSE=1 (print each case).
#include <cstdint>

#include "common/cuda_scan_test_util.hpp"

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
using namespace scankit::test;
using skc::scan_algorithm;

// The single-pass scans under stress: many launches on random sizes (log-uniform from 1 to
// 2^22, so every path — one tile, a few tiles, several look-back levels — comes up often),
// alternating kinds, in place and carry-in. A wrong result fails; a hang runs into ctest's
// timeout.
TEST_P(CudaScan, StressRandomSizes) {
  if (algo() != scan_algorithm::decoupled_lookback && algo() != scan_algorithm::reduce_then_scan)
    GTEST_SKIP() << "stress runs for the single-pass and reduce-then-scan algorithms";
  stress_random_sizes<std::int32_t>(sanitize_tier() ? 12 : quick() ? 50 : 1000, 0.0, quick() ? 16 : 22, sk::test::fast_random_i32);
}

// Floating-point scans are bitwise deterministic: the same input gives the same bits on every
// run (the look-back combines a fixed tree of partial sums, whatever the timing).
TEST_P(CudaScan, FloatResultsAreBitwiseDeterministic) {
  using T = float;
  const std::int64_t n = quick() ? (1 << 16) + 3 : (1 << 24) + 3;
  expect_bitwise_same_runs(sk::test::random_input(n, sk::sum<T>{}));
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CudaScan, ::testing::ValuesIn(skc::all_scan_algorithms),
                         sk::test::param_name<scan_algorithm>);

}  // namespace
