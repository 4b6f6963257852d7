// GoogleTest suite of the CUDA compactions' independence from timing: many launches at random
// sizes, where a race in the look-back between tiles would give a wrong count or item now and
// then (or hang, into ctest's timeout); every operation against the CPU serial loop. Every
// algorithm of scankit::cuda::all_compact_algorithms. Without a GPU every test skips.
//
// Environment: SCANKIT_TEST_QUICK=1 (smaller sizes, fewer launches: for compute-sanitizer runs),
// SCANKIT_TEST_SEED=N (replay), SCANKIT_TEST_VERBOSE=1 (print each case).
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <random>

#include "common/cuda_compact_test_util.hpp"

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
using namespace scankit::test;
using skc::compact_algorithm;

// Sizes log-uniform from 1 to 2^22, so that one tile, a few tiles and many look-back steps all
// come up often. Each operation in turn on uint32 items (uint64 on every third run); every
// eight runs the next of the tiles with a look-back, the segmented one with a first delay on
// alternate turns; in place on alternate runs of 32 where the operation and algorithm take it.
TEST_P(CudaCompact, StressRandomSizes) {
  const int runs = quick() ? 64 : 640;
  std::uniform_real_distribution<double> log_size(0.0, quick() ? 16.0 : 22.0);
  constexpr skc::compact_tile tiles[] = {skc::compact_tile::automatic, skc::compact_tile::medium,
                                         skc::compact_tile::segmented, skc::compact_tile::specialized};
  for (int i = 0; i < runs; ++i) {
    const auto n = static_cast<std::int64_t>(std::exp2(log_size(sk::test::rng())));
    const compact_op o = all_compact_ops[i % std::size(all_compact_ops)];
    tile_ = tiles[i / 8 % std::size(tiles)];
    first_delay_ = tile_ == skc::compact_tile::segmented && i / 32 % 2 == 1 ? std::optional<unsigned>(1000u)
                                                                            : std::nullopt;
    const bool in_place = (o == compact_op::select_if || o == compact_op::remove_if || o == compact_op::select_flagged) &&
                          GetParam() == compact_algorithm::single_pass && i / 32 % 2 == 0;
    const auto r = i % 3 == 2 ? check(o, pattern_input<std::uint64_t>(n, pattern::runs), in_place)
                              : check(o, pattern_input<std::uint32_t>(n, pattern::random4), in_place);
    ASSERT_TRUE(r) << "run " << i << " of " << runs;
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CudaCompact, ::testing::ValuesIn(skc::all_compact_algorithms),
                         sk::test::param_name<compact_algorithm>);

}  // namespace
