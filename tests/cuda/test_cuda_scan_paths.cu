// GoogleTest suite of decoupled-lookback's paths: each scan_path forced through scan_config, at
// small sizes around its own tile (n = 0, 1, 2, tile - 1, tile, tile + 1, a few tiles, primes),
// both kinds, in place and not, with and without carry-in, aligned and misaligned, with
// commutative and non-commutative operators of 4, 8 and 16 bytes, against the serial reference.
// The tuning overrides (load window, first delay, level 1 from the aggregates, one tile per SM)
// are forced the same way. Without a GPU every GPU test skips.
//
// Environment: SCANKIT_TEST_QUICK=1 (fewer sizes), SCANKIT_TEST_SEED=N (replay),
// SCANKIT_TEST_VERBOSE=1 (print each case).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "common/cuda_scan_test_util.hpp"
#include "common/cuda_test_util.hpp"
#include "common/test_util.hpp"
#include "scankit/cuda/scan.cuh"

namespace scankit::cuda {
// Names the path in gtest's messages (found by argument-dependent lookup).
inline void PrintTo(scan_path p, std::ostream* os) { *os << name(p); }
}  // namespace scankit::cuda

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
namespace dl = scankit::cuda::detail::decoupled_lookback;
using sk::scan_kind;
using sk::value_t;
using sk::test::ck;
using sk::test::device_buffer;
using sk::test::op_name;
using sk::test::quick_mode;
using sk::test::random_init;
using sk::test::random_input;
using sk::test::verbose;
using skc::scan_path;

constexpr scan_kind both_kinds[] = {scan_kind::inclusive, scan_kind::exclusive};

/// n = 0, 1, 2, 3, small primes, and the boundaries of the first tiles of `tile` items.
std::vector<std::int64_t> sizes_around(std::int64_t tile, int tiles = 5) {
  std::vector<std::int64_t> s{0, 1, 2, 3, 31, 97, 1009, tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile + 13};
  if (!quick_mode()) {
    for (int k = 3; k <= tiles; ++k) s.insert(s.end(), {k * tile - 7, k * tile, k * tile + 101});
    s.push_back(static_cast<std::int64_t>(tiles) * tile + 65537 % tile);
  }
  std::erase_if(s, [](std::int64_t n) { return n < 0; });
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

class CudaScanPaths : public ::testing::TestWithParam<scan_path> {
 protected:
  void SetUp() override {
    if (skc::device_count() == 0) GTEST_SKIP() << "no CUDA device";
    ck(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  void TearDown() override {
    if (stream_) cudaStreamDestroy(stream_);
  }

  skc::scan_config config(int block = 0) const {
    skc::scan_config c = base_;
    c.path = GetParam();
    c.block_size = block;
    return c;
  }

  /// The plan the library makes for n items of Op's type with `cfg` on this device.
  template <class Op>
  static dl::scan_plan plan(std::int64_t n, bool aligned, const skc::scan_config& cfg) {
    using T = value_t<Op>;
    const dl::scan_call call{n, sizeof(T), aligned, cfg.block_size == 0 ? dl::default_block_size : cfg.block_size};
    return dl::plan_scan(call, dl::device_facts<T, Op>(), cfg);
  }

  /// Items per tile of the forced path for Op's type (the striped tile's for one_launch).
  template <class Op>
  std::int64_t tile_of(int block = 0) const {
    return plan<Op>(std::int64_t{1} << 22, true, config(block)).tile_items;
  }

  /// Scans `in` (output, carry-out and workspace poisoned; pointers `shift` items past an
  /// aligned address) and compares with the serial reference.
  template <class Op>
  ::testing::AssertionResult check(const std::vector<value_t<Op>>& in, Op op, scan_kind kind, value_t<Op> init,
                                   bool in_place, int shift, const skc::scan_config& cfg) {
    using T = value_t<Op>;
    const auto n = static_cast<std::int64_t>(in.size());
    const std::size_t bytes = in.size() * sizeof(T);
    const dl::scan_plan p = plan<Op>(n, shift == 0, cfg);
    const std::string where = std::string(" [forced ") + std::string(skc::name(cfg.path)) + ", ran " +
                              (n == 0 ? std::string("none") : dl::describe(p)) + "; " + op_name<Op>() + ", " +
                              (kind == scan_kind::inclusive ? "inclusive" : "exclusive") + ", n=" + std::to_string(n) +
                              ", block=" + std::to_string(cfg.block_size) + (in_place ? ", in place" : "") +
                              (shift ? ", misaligned" : "") + "]";
    if (verbose()) std::printf(" %s\n", where.c_str()), std::fflush(stdout);
    din_.reserve(bytes + 2 * sizeof(T));
    dout_.reserve(bytes + 2 * sizeof(T));
    dtotal_.reserve(sizeof(T));
    T* din = din_.as<T>() + shift;
    T* out = in_place ? din : dout_.as<T>() + shift;
    ck(cudaMemcpyAsync(din, in.data(), bytes, cudaMemcpyHostToDevice, stream_), "copy in");
    if (!in_place) ck(cudaMemsetAsync(out, 0xAB, bytes, stream_), "poison output");
    ck(cudaMemsetAsync(dtotal_.p, 0xAB, sizeof(T), stream_), "poison total");
    const std::size_t need = skc::scan_workspace_bytes(n, sizeof(T), cfg);
    ws_.reserve(need);
    if (need > 0) ck(cudaMemsetAsync(ws_.data(), 0xCD, need, stream_), "poison workspace");
    skc::scan(din, out, n, op, kind, init, ws_.data(), need, stream_, cfg, dtotal_.as<T>());
    ck(cudaStreamSynchronize(stream_), "scan");
    std::vector<T> got(in.size());
    T total;
    ck(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost), "copy out");
    ck(cudaMemcpy(&total, dtotal_.p, sizeof(T), cudaMemcpyDeviceToHost), "copy total");
    return sk::test::matches_reference(in, got, op, kind, init, &total) << where;
  }

  /// Both kinds over `sizes` with `cfg`: in place on alternate cases, carry-in on two cases in
  /// three, misaligned on every fifth. Stops at the first failure.
  template <class Op>
  void sweep(Op op, const std::vector<std::int64_t>& sizes, const skc::scan_config& cfg) {
    int k = 0;
    for (std::int64_t n : sizes) {
      const auto in = random_input(n, op);
      const value_t<Op> init = k % 3 == 0 ? op.identity() : random_init(op);
      for (scan_kind kind : both_kinds) {
        const bool in_place = (k + (kind == scan_kind::exclusive)) % 2 == 1;
        const auto r = check(in, op, kind, init, in_place, k % 5 == 4 ? 1 : 0, cfg);
        EXPECT_TRUE(r);
        if (!r) return;
      }
      ++k;
    }
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
  cudaStream_t stream_{};
  device_buffer din_, dout_, dtotal_;
  skc::workspace ws_;
};

std::string param_name(const ::testing::TestParamInfo<scan_path>& info) {
  std::string s(skc::name(info.param));
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

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
      w.load_window_tiles = 2;
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
      if (!dl::device_facts<std::int32_t, sk::sum<std::int32_t>>().specialized_code)
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
      cfg.level1_from_aggregates = level1;
      cfg.first_delay_ns = delay;
      if (GetParam() == scan_path::windowed) cfg.load_window_tiles = 3;
      sweep(sk::sum<std::int64_t>{}, sizes64, cfg);
      sweep(sk::test::affine_compose{}, sizes64, cfg);
      sweep(sk::sum<std::int32_t>{}, sizes32, cfg);
      if (HasFailure()) return;
      if (quick_mode()) break;
    }
}

// Small load windows (the window the tile waits for is most of the launch).
TEST_P(CudaScanPaths, LoadWindows) {
  for (int window : {1, 2, 5}) {
    base_.load_window_tiles = window;
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
  if (quick_mode()) sizes64.resize(1), sizes32.resize(1);
  sweep(sk::sum<std::int64_t>{}, sizes64, config());
  sweep(sk::test::affine_compose{}, sizes64, config());
  sweep(sk::sum<std::int32_t>{}, sizes32, config());
  sweep(sk::test::affine_compose16{}, sizes32, config());
  base_.one_tile_per_sm_up_to_threads = 512;  // a limit below the tuned 768
  sweep(sk::sum<std::int64_t>{}, sizes64, config());
}

INSTANTIATE_TEST_SUITE_P(Paths, CudaScanPaths, ::testing::ValuesIn(skc::all_scan_paths), param_name);

TEST(CudaScanPathsApi, PathNamesRoundTrip) {
  for (auto p : skc::all_scan_paths) EXPECT_EQ(skc::parse_scan_path(skc::name(p)), p);
  EXPECT_FALSE(skc::parse_scan_path("fast").has_value());
}

// Out-of-range overrides throw before anything runs (scan_workspace_bytes checks them; no GPU
// needed).
TEST(CudaScanPathsApi, InvalidOverridesThrow) {
  auto throws = [](auto edit) {
    skc::scan_config cfg;
    edit(cfg);
    EXPECT_THROW((void)skc::scan_workspace_bytes(1000, 4, cfg), sk::invalid_argument);
  };
  throws([](skc::scan_config& c) { c.path = static_cast<scan_path>(99); });
  throws([](skc::scan_config& c) { c.blocked_from_items = -1; });
  throws([](skc::scan_config& c) { c.specialized_from_items = -5; });
  throws([](skc::scan_config& c) { c.first_delay_ns = 2000000u; });
  throws([](skc::scan_config& c) { c.one_tile_per_sm_up_to_threads = 2048; });
  throws([](skc::scan_config& c) { c.one_tile_per_sm_up_to_threads = -1; });
  throws([](skc::scan_config& c) { c.load_window_tiles = -1; });
  skc::scan_config ok;
  ok.path = scan_path::windowed;
  ok.load_window_tiles = 0;
  ok.first_delay_ns = 0u;
  EXPECT_NO_THROW((void)skc::scan_workspace_bytes(1000, 4, ok));
}

// The plan of the tuned defaults: small inputs take one launch, the tuning's named fields are
// printed. No GPU needed (the description assumes an H100 without one).
TEST(CudaScanPathsApi, DescriptionsNameThePlan) {
  const std::string d = skc::scan_tuning_description(4);
  EXPECT_NE(d.find("blocked_from_items="), std::string::npos) << d;
  EXPECT_NE(d.find("one-launch"), std::string::npos) << d;
  EXPECT_EQ(skc::scan_path_description(1000, 4, true).rfind("one-launch", 0), 0u);
  EXPECT_EQ(skc::scan_path_description(1000, 4, false).rfind("one-launch", 0), 0u);
  skc::scan_config striped;
  striped.path = scan_path::striped;
  EXPECT_EQ(skc::scan_path_description(1000, 8, true, striped).rfind("striped", 0), 0u);
  skc::scan_config blocked;
  blocked.path = scan_path::blocked;
  EXPECT_EQ(skc::scan_path_description(100000, 8, true, blocked).rfind("blocked", 0), 0u);
  EXPECT_EQ(skc::scan_path_description(100000, 12, true, blocked).rfind("blocked", 0), std::string::npos)
      << "12-byte items have no 16-byte vectors: blocked falls back";
}

struct print_seed : ::testing::Environment {
  void SetUp() override {
    std::printf("scankit CUDA scan path tests: SCANKIT_TEST_SEED=%llu%s\n",
                static_cast<unsigned long long>(sk::test::seed()), quick_mode() ? " (SCANKIT_TEST_QUICK)" : "");
  }
};
[[maybe_unused]] ::testing::Environment* const seed_env = ::testing::AddGlobalTestEnvironment(new print_seed);

}  // namespace
