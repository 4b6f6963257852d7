// GoogleTest suite of decoupled-lookback's paths: each scan_path forced through scan_config, at
// small sizes around its own tile (n = 0, 1, 2, tile - 1, tile, tile + 1, a few tiles, primes),
// both kinds, in place and not, with and without carry-in, aligned and misaligned, with
// commutative and non-commutative operators of 4, 8 and 16 bytes, against the serial reference.
// The tuning overrides (load window, first delay, level 1 from the aggregates, one tile per SM)
// are forced the same way. decoupled-lookback's automatic choice at the sizes that fit the GPU in
// one wave is here too (CudaScan.EightByteOneWaveSizes). Without a GPU every GPU test skips. The
// out-of-range overrides are test_cuda_scan_invalid's.
//
// Environment: SCANKIT_TEST_QUICK=1 (fewer sizes; EightByteOneWaveSizes keeps three sizes up to
// 2^21, for the sanitizers to check both of its paths), SCANKIT_TEST_SEED=N (replay),
// SCANKIT_TEST_VERBOSE=1 (print each case).
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/cuda_scan_test_util.hpp"

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
namespace dl = scankit::cuda::detail::decoupled_lookback;
using namespace scankit::test;
using sk::value_t;
using skc::scan_algorithm;
using skc::scan_path;

/// n = 0, 1, 2, 3, small primes, and the boundaries of the first tiles of `tile` items (the
/// sanitize tier: 0, 1, 2, 97, tile-1, tile, tile+1 and 2 tiles + 13, a look-back across tiles).
std::vector<std::int64_t> sizes_around(std::int64_t tile, int tiles = 5) {
  std::vector<std::int64_t> s =
      sanitize_tier() ? std::vector<std::int64_t>{0, 1, 2, 97, tile - 1, tile, tile + 1, 2 * tile + 13}
                      : std::vector<std::int64_t>{0, 1, 2, 3, 31, 97, 1009, tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile + 13};
  if (!quick()) {
    for (int k = 3; k <= tiles; ++k) s.insert(s.end(), {k * tile - 7, k * tile, k * tile + 101});
    s.push_back(static_cast<std::int64_t>(tiles) * tile + 65537 % tile);
  }
  std::erase_if(s, [](std::int64_t n) { return n < 0; });
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

/// Misaligned pointers on every fifth case of a sweep: a forced path must fall back where it
/// needs aligned vectors.
class CudaScanPaths : public sk::test::cuda_scan_fixture<CudaScanPaths, scan_path> {
 public:
  CudaScanPaths() { misalign_every_fifth_ = true; }

  template <class Op>
  std::string describe(const skc::scan_config& cfg, std::int64_t n, bool aligned) const {
    return "forced " + std::string(skc::name(cfg.tuning.path)) + ", ran " +
           (n == 0 ? std::string("none") : dl::describe(plan<Op>(n, aligned, cfg)));
  }

 protected:
  skc::scan_config config(int block = 0) const {
    skc::scan_config c = base_;
    c.tuning.path = GetParam();
    c.block_size = block;
    return c;
  }

  /// The plan the library makes for n items of Op's type with `cfg` on this device.
  template <class Op>
  static dl::scan_plan plan(std::int64_t n, bool aligned, const skc::scan_config& cfg) {
    using T = value_t<Op>;
    const dl::scan_facts& facts = dl::device_facts<T, Op>();
    const dl::scan_request req{n, sizeof(T), aligned, cfg.block_size == 0 ? dl::default_block_size : cfg.block_size,
                               facts.kernels, cfg.tuning};
    return dl::plan_scan(req, *facts.device);
  }

  /// Items per tile of the forced path for Op's type (the striped tile's for one_launch).
  template <class Op>
  std::int64_t tile_of(int block = 0) const {
    return plan<Op>(std::int64_t{1} << 22, true, config(block)).tile_items;
  }

  /// sweep() around the forced path's own tile.
  template <class Op>
  void sweep_tiles(Op op, int block = 0, int tiles = 5) {
    sweep(op, sizes_around(tile_of<Op>(block), tiles), config(block));
  }

  /// Expects the forced path where it applies: aligned pointers, more than `min_tiles` tiles.
  template <class Op>
  void expect_path(std::int64_t n, scan_path want, const skc::scan_config& cfg) {
    const dl::scan_plan p = plan<Op>(n, true, cfg);
    EXPECT_EQ(skc::name(p.path), skc::name(want)) << op_name<Op>() << ", n=" << n << ": " << dl::describe(p);
  }

  skc::scan_config base_{};
};

// Every path at small sizes: 4-byte (int32, uint32, float, affine16), 8-byte (int64, double,
// affine) and 16-byte (affine64) items. A forced path that does not apply (16-byte items and the
// warp-specialized tile, misaligned pointers and the blocked tiles) runs the automatic choice.
TEST_P(CudaScanPaths, SmallSizesEveryItemSize) {
  sweep_tiles(sk::sum<std::int32_t>{});
  sweep_tiles(sk::bit_xor<std::uint32_t>{});
  sweep_tiles(sk::sum<float>{});
  sweep_tiles(sk::test::affine_compose16{});
  sweep_tiles(sk::max<std::int64_t>{});
  sweep_tiles(sk::sum<double>{});
  sweep_tiles(sk::test::affine_compose{});
  sweep_tiles(sk::test::affine_compose64{}, 0, 3);
}

// The kernels compiled for any block size (a block other than the tuned 256).
TEST_P(CudaScanPaths, OtherBlockSizes) {
  for (int block : {64, 128, 512}) {
    sweep_tiles(sk::sum<std::int32_t>{}, block, 3);
    sweep_tiles(sk::test::affine_compose{}, block, 3);
    if (HasFailure()) return;
  }
}

// The forced path is the one that runs wherever it applies.
TEST_P(CudaScanPaths, ForcedPathIsTaken) {
  const scan_path want = GetParam();
  const skc::scan_config cfg = config();
  const std::int64_t n32 = 3 * tile_of<sk::sum<std::int32_t>>() + 5, n64 = 3 * tile_of<sk::sum<std::int64_t>>() + 5;
  switch (want) {
    case scan_path::automatic: return;
    case scan_path::one_launch:
    case scan_path::striped:
    case scan_path::blocked:
      expect_path<sk::sum<std::int32_t>>(n32, want, cfg);
      expect_path<sk::sum<std::int64_t>>(n64, want, cfg);
      expect_path<sk::test::affine_compose64>(3 * tile_of<sk::test::affine_compose64>() + 5, want, cfg);
      return;
    case scan_path::windowed: {
      skc::scan_config w = cfg;
      w.tuning.load_window_tiles = 2;
      expect_path<sk::sum<std::int32_t>>(n32, want, w);
      expect_path<sk::sum<std::int64_t>>(n64, want, w);
      return;
    }
    case scan_path::one_tile_per_sm: {
      int sms = 0;
      ck(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SM count");
      expect_path<sk::sum<std::int64_t>>(std::int64_t{sms} * tile_of<sk::sum<std::int64_t>>() + 1, want, cfg);
      return;
    }
    case scan_path::specialized:
      if (!dl::device_facts<std::int32_t, sk::sum<std::int32_t>>().kernels.specialized_code)
        GTEST_SKIP() << "the warp-specialized kernels carry no Hopper code for this device";
      expect_path<sk::sum<std::int32_t>>(n32, want, cfg);
      expect_path<sk::sum<std::int64_t>>(n64, want, cfg);
      expect_path<sk::test::affine_compose16>(n32, want, cfg);
      return;
  }
}

// Two tree levels (33 to 160 tiles), where the blocked tile may read level 1 from the
// aggregates: both ways, with and without the first delay, and under a load window of 3.
TEST_P(CudaScanPaths, TwoLevelLaunches) {
  const std::int64_t tile64 = tile_of<sk::sum<std::int64_t>>(), tile32 = tile_of<sk::sum<std::int32_t>>();
  const std::vector<std::int64_t> sizes64{33 * tile64 + 1, 40 * tile64 + 3, 97 * tile64 - 1};
  const std::vector<std::int64_t> sizes32{33 * tile32 + 7, 41 * tile32 - 5};
  for (bool level1 : {true, false})
    for (unsigned delay : {0u, 3000u}) {
      skc::scan_config cfg = config();
      cfg.tuning.level1_from_aggregates = level1;
      cfg.tuning.first_delay_ns = delay;
      if (GetParam() == scan_path::windowed) cfg.tuning.load_window_tiles = 3;
      sweep(sk::sum<std::int64_t>{}, sizes64, cfg);
      sweep(sk::test::affine_compose{}, sizes64, cfg);
      sweep(sk::sum<std::int32_t>{}, sizes32, cfg);
      if (HasFailure()) return;
      if (quick()) break;
    }
}

// Small load windows (the window the tile waits for is most of the launch).
TEST_P(CudaScanPaths, LoadWindows) {
  for (int window : {1, 2, 5}) {
    base_.tuning.load_window_tiles = window;
    sweep_tiles(sk::sum<std::int64_t>{}, 0, 7);
    sweep_tiles(sk::test::affine_compose16{}, 0, 7);
    if (HasFailure()) return;
  }
}

// One tile per SM: sizes just past what the tuned block covers in one wave, where the blocks
// widen (and, forced, at every item size with 16-byte vectors).
TEST_P(CudaScanPaths, OneTilePerSmSizes) {
  int sms = 0;
  ck(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SM count");
  const std::int64_t one_wave64 = std::int64_t{sms} * 4096, one_wave32 = std::int64_t{sms} * 12288;
  std::vector<std::int64_t> sizes64{one_wave64 + 1, one_wave64 * 3 / 2 + 7, 3 * one_wave64 - 1};
  std::vector<std::int64_t> sizes32{one_wave32 + 1, one_wave32 * 2 + 3};
  if (quick()) sizes64.resize(1), sizes32.resize(1);
  sweep(sk::sum<std::int64_t>{}, sizes64, config());
  sweep(sk::test::affine_compose{}, sizes64, config());
  sweep(sk::sum<std::int32_t>{}, sizes32, config());
  sweep(sk::test::affine_compose16{}, sizes32, config());
  base_.tuning.one_tile_per_sm_up_to_threads = 512;  // a limit below the tuned 768
  sweep(sk::sum<std::int64_t>{}, sizes64, config());
}

INSTANTIATE_TEST_SUITE_P(Paths, CudaScanPaths, ::testing::ValuesIn(skc::all_scan_paths),
                         sk::test::param_name<scan_path>);

TEST(CudaScanPathsApi, PathNamesRoundTrip) {
  for (auto p : skc::all_scan_paths) EXPECT_EQ(skc::parse_scan_path(skc::name(p)), p);
  EXPECT_FALSE(skc::parse_scan_path("fast").has_value());
}

// The plan of the tuned defaults: small inputs take one launch, the tuning's named fields are
// printed. No GPU needed (the description assumes a compute capability 9.0 device without one).
TEST(CudaScanPathsApi, DescriptionsNameThePlan) {
  const std::string d = skc::scan_tuning_description(4);
  EXPECT_NE(d.find("blocked_from_items="), std::string::npos) << d;
  EXPECT_NE(d.find("one-launch"), std::string::npos) << d;
  EXPECT_EQ(skc::scan_path_description(1000, 4, true).rfind("one-launch", 0), 0u);
  EXPECT_EQ(skc::scan_path_description(1000, 4, false).rfind("one-launch", 0), 0u);
  skc::scan_config striped;
  striped.tuning.path = scan_path::striped;
  EXPECT_EQ(skc::scan_path_description(1000, 8, true, striped).rfind("striped", 0), 0u);
  skc::scan_config blocked;
  blocked.tuning.path = scan_path::blocked;
  EXPECT_EQ(skc::scan_path_description(100000, 8, true, blocked).rfind("blocked", 0), 0u);
  EXPECT_EQ(skc::scan_path_description(100000, 12, true, blocked).rfind("blocked", 0), std::string::npos)
      << "12-byte items have no 16-byte vectors: blocked falls back";
}

// 8-byte items in launches that fit the GPU in one wave: the blocked tile with
// more than the tuned 256 threads, so that it makes one tile per SM (from SMs x 4,096 + 1
// items up to SMs x 12,288 with the 768-thread limit), then the load window (more than 256
// tiles, up to 2^21 items); int64 and double sums and the 8-byte non-commutative affine maps,
// both kinds, in place and not; then random sizes in [2^16, 2^21] (int64), and a double sum
// in the window whose bits must not change from run to run. Sizes reach 2^21 in quick mode too
// (three of them): the sanitizer runs take this test to check both paths.
TEST_P(CudaScan, EightByteOneWaveSizes) {
  if (algo() != scan_algorithm::decoupled_lookback) GTEST_SKIP() << "the tile belongs to decoupled-lookback";
  constexpr auto tu = dl::tuning_for<8>();
  int sms = 0;
  ck(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SM count");
  const std::int64_t tuned_tile = std::int64_t{tu.block_size} * tu.blocked_vectors * 2;
  const std::int64_t one_per_sm = sms * tuned_tile;  // the last size the tuned block covers
  const std::int64_t widest = one_per_sm * tu.one_tile_per_sm_up_to_threads / tu.block_size;
  const std::int64_t last = std::int64_t{1} << 21;
  std::vector<std::int64_t> sizes{one_per_sm + 1, widest + 1, last - 3};
  if (!quick()) {
    sizes.insert(sizes.end(), {one_per_sm - 1, one_per_sm, one_per_sm + 2 * 32 * 16 - 1, (one_per_sm * 3) / 2 + 7,
                               widest - 1, widest, widest + tuned_tile - 1, (last * 3) / 4 + 1, last - 1, last});
    // (On a GPU of more than 170 SMs, widest passes 2^21: no random size in between then.)
    if (widest + 1 < last) sizes.push_back(std::uniform_int_distribution<std::int64_t>(widest + 1, last)(sk::test::rng()));
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  }
  sweep(sk::sum<std::int64_t>{}, sizes, config());
  sweep(sk::sum<double>{}, sizes, config());
  sweep(sk::test::affine_compose{}, sizes, config());

  stress_random_sizes<std::int64_t>(sanitize_tier() ? 3 : quick() ? 10 : 200, 16.0, 21.0,
                                    [](std::int64_t n) { return random_input(n, sk::sum<std::int64_t>{}); });
  if (HasFatalFailure()) return;

  // n = 2^21 - 3: above widest on GPUs of up to 170 SMs, so in the load window.
  expect_bitwise_same_runs(random_input(last - 3, sk::sum<double>{}));
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CudaScan, ::testing::ValuesIn(skc::all_scan_algorithms),
                         sk::test::param_name<scan_algorithm>);

}  // namespace
