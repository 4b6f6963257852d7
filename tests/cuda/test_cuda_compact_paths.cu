// GoogleTest suite of the CUDA compactions' kernel paths: each tile (small, medium, segmented,
// warp-specialized) forced through compact_config, with the guess prefetch on and off, both
// warp-specialized shapes, a first delay, more tiles than fit the GPU at once, and pointers off
// the vector paths' alignment; every operation against the CPU serial loop. Every algorithm of
// scankit::cuda::all_compact_algorithms. Without a GPU every test skips.
//
// Environment: SCANKIT_TEST_QUICK=1 (small sizes: for compute-sanitizer runs),
// SCANKIT_TEST_SEED=N (replay), SCANKIT_TEST_VERBOSE=1 (print each case).
#include <cstdint>
#include <utility>
#include <vector>

#include "common/cuda_compact_test_util.hpp"

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
using namespace scankit::test;
using skc::compact_algorithm;

// Inputs and outputs off the 16-byte alignment of the vector paths (each side alone, and both
// by different amounts): every operation must fall back to item-wise accesses and still match.
TEST_P(CudaCompact, MisalignedPointers) {
  const std::vector<std::int64_t> sizes{1, 1000, 3 * 8192 + 5, quick() ? 20011 : 300007};
  for (auto [in_shift, out_shift] : {std::pair{1, 0}, std::pair{0, 3}, std::pair{3, 1}})
    for (std::int64_t n : sizes)
      for (pattern p : {pattern::random4, pattern::alternating}) {
        const auto in = pattern_input<std::uint32_t>(n, p);
        for (compact_op o : all_compact_ops) {
          const auto r = check(o, in, false, 0, in_shift, out_shift);
          ASSERT_TRUE(r) << " (" << pattern_name(p) << ")";
        }
      }
}

TEST_P(CudaCompact, TileSizes) {
  const auto sizes = sizes_up_to(quick() ? 1 << 15 : 1 << 19);
  for (auto tile : {skc::compact_tile::small, skc::compact_tile::medium, skc::compact_tile::segmented,
                    skc::compact_tile::specialized}) {
    tile_ = tile;
    every_op<std::uint32_t>(sizes, {pattern::random4, pattern::alternating});
    every_op<std::uint64_t>(sizes, {pattern::runs});
    every_op<std::uint8_t>(sizes, {pattern::random4});
    every_op<float>(sizes, {pattern::all, pattern::none}, 128);
    every_op<particle>(sizes_up_to(1 << 14), {pattern::random4});
    if (HasFailure()) return;
  }
}

// Every tile with the guess prefetch forced on and off (a hint: the results must not change).
TEST_P(CudaCompact, PrefetchOnAndOff) {
  const auto sizes = sizes_up_to(quick() ? 1 << 14 : 1 << 17);
  for (auto prefetch : {skc::compact_prefetch::on, skc::compact_prefetch::off})
    for (auto tile : {skc::compact_tile::small, skc::compact_tile::medium, skc::compact_tile::segmented,
                      skc::compact_tile::specialized}) {
      tile_ = tile;
      prefetch_ = prefetch;
      every_op<std::uint32_t>(sizes, {pattern::random4});
      every_op<std::uint64_t>(sizes, {pattern::runs});
      if (HasFailure()) return;
    }
}

// Both shapes of the warp-specialized tile (13 and 11 vectors per row), and the segmented tile
// with a first delay.
TEST_P(CudaCompact, SpecializedShapesAndFirstDelay) {
  const auto sizes = sizes_up_to(quick() ? 1 << 15 : 1 << 18);
  tile_ = skc::compact_tile::specialized;
  for (int shape : {0, 1}) {
    shape_ = shape;
    every_op<std::uint32_t>(sizes, {pattern::random4, pattern::alternating});
    every_op<std::int64_t>(sizes, {pattern::runs});
    every_op<float>(sizes, {pattern::all, pattern::none});
    if (HasFailure()) return;
  }
  shape_ = 0;
  tile_ = skc::compact_tile::segmented;
  first_delay_ = 2000u;
  every_op<std::uint32_t>(sizes, {pattern::random4});
  every_op<double>(sizes, {pattern::runs});
}

// The medium tile over more tiles than fit on the GPU at once (8192-item uint32 tiles, 3
// blocks on each of 132 SMs), so tiles look back past blocks that have already exited and
// later blocks start on SMs they freed; every size ends in a partial tile.
// The segmented tile (12,288-item uint32 tiles, 4 blocks per SM) likewise; the persistent
// warp-specialized grid (2 blocks per SM) cycles each block's buffers through many tiles.
TEST_P(CudaCompact, ManyTilesPerBlock) {
  for (auto tile : {skc::compact_tile::medium, skc::compact_tile::segmented, skc::compact_tile::specialized}) {
    tile_ = tile;
    every_op<std::uint32_t>({5000011}, {pattern::random4, pattern::alternating});
    every_op<std::uint64_t>({3000017}, {pattern::runs});
    every_op<float>({(std::int64_t{1} << 23) + 1}, {pattern::random4});
    if (HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CudaCompact, ::testing::ValuesIn(skc::all_compact_algorithms),
                         sk::test::param_name<compact_algorithm>);

}  // namespace
