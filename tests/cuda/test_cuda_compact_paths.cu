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

// select_flagged with the flags one to three bytes off the alignment of their word loads (the
// segmented tile's per-vector words, the warp-specialized producer's row masks): every tile
// must read them a byte at a time and still match, on full tiles and the partial last one.
TEST_P(CudaCompact, FlagsOffTheirWordAlignment) {
  const std::vector<std::int64_t> sizes{1, 1000, 13312 * 3 + 7, quick() ? 20011 : 300007};
  for (auto tile : {skc::compact_tile::medium, skc::compact_tile::segmented, skc::compact_tile::specialized})
    for (int shift : {1, 2, 3})
      for (std::int64_t n : sizes) {
        tile_ = tile;
        const skc::compact_config c = cfg();
        const auto in = pattern_input<std::uint32_t>(n, pattern::random4);
        std::vector<std::uint8_t> flags(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i) flags[static_cast<std::size_t>(i)] = in[static_cast<std::size_t>(i)] % 3 == 0 ? static_cast<std::uint8_t>(1 + i % 7) : 0;
        std::vector<std::uint32_t> want;
        for (std::int64_t i = 0; i < n; ++i)
          if (flags[static_cast<std::size_t>(i)] != 0) want.push_back(in[static_cast<std::size_t>(i)]);
        device_buffer d_in, d_out, d_flags, d_count, d_ws;
        d_in.reserve(static_cast<std::size_t>(n) * 4), d_out.reserve(static_cast<std::size_t>(n) * 4);
        d_flags.reserve(static_cast<std::size_t>(n) + 16), d_count.reserve(8);
        const std::size_t ws = skc::compact_workspace_bytes(n, sizeof(std::uint32_t), c);
        d_ws.reserve(ws);
        std::uint8_t* f = d_flags.as<std::uint8_t>() + shift;
        ck(cudaMemcpyAsync(d_in.p, in.data(), static_cast<std::size_t>(n) * 4, cudaMemcpyHostToDevice, stream_));
        ck(cudaMemcpyAsync(f, flags.data(), static_cast<std::size_t>(n), cudaMemcpyHostToDevice, stream_));
        skc::select_flagged(d_in.as<std::uint32_t>(), f, d_out.as<std::uint32_t>(), n, d_count.as<std::int64_t>(),
                            d_ws.p, ws, stream_, c);
        std::int64_t count = -1;
        std::vector<std::uint32_t> got(static_cast<std::size_t>(n));
        ck(cudaMemcpyAsync(&count, d_count.p, 8, cudaMemcpyDeviceToHost, stream_));
        ck(cudaMemcpyAsync(got.data(), d_out.p, static_cast<std::size_t>(n) * 4, cudaMemcpyDeviceToHost, stream_));
        ck(cudaStreamSynchronize(stream_));
        ASSERT_EQ(count, static_cast<std::int64_t>(want.size())) << " n=" << n << " shift=" << shift << " tile=" << skc::name(tile);
        got.resize(want.size());
        ASSERT_EQ(got, want) << " n=" << n << " shift=" << shift << " tile=" << skc::name(tile);
      }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CudaCompact, ::testing::ValuesIn(skc::all_compact_algorithms),
                         sk::test::param_name<compact_algorithm>);

}  // namespace
