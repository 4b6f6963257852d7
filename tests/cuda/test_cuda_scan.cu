// GoogleTest suite of the CUDA scans: every algorithm of scankit::cuda::all_scan_algorithms,
// through the public API only.
//
// Each test is parametrised by the algorithm, so ctest lists (and can run) every algorithm's
// tests separately. Without a GPU every test skips.
//
// Environment:
//   SCANKIT_TEST_QUICK=1   sizes up to 2^17, a representative subset of element types and
//                          operators, no large-size tests (EightByteOneWaveSizes keeps three
//                          sizes up to 2^21): for compute-sanitizer runs.
//   SCANKIT_TEST_SEED=N    replays a run (the seed is printed at start).
//   SCANKIT_TEST_VERBOSE=1 prints each case before it runs (to find one that hangs).
//
// The built-in monoids are instantiated by the library (declared extern below so this file does
// not compile their kernels again); the non-commutative test monoid is instantiated here, from
// scankit/cuda/scan.cuh, as a user's .cu file would.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cuda_scan_test_util.hpp"
#include "common/cuda_test_util.hpp"
#include "common/test_util.hpp"
#include "scankit/cuda/scan.cuh"
#include "scankit/types.hpp"


namespace scankit::cuda {
// Names the algorithm in gtest's messages (found by argument-dependent lookup).
inline void PrintTo(scan_algorithm a, std::ostream* os) { *os << name(a); }
}  // namespace scankit::cuda

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
using sk::scan_kind;
using sk::value_t;
using skc::scan_algorithm;
using sk::test::affine;
using sk::test::affine_compose;
using sk::test::affine64;
using sk::test::affine_compose64;
using sk::test::affine16;
using sk::test::affine_compose16;
using sk::test::op_name;
using sk::test::random_init;
using sk::test::random_input;

constexpr scan_kind both_kinds[] = {scan_kind::inclusive, scan_kind::exclusive};

using sk::test::ck;
using sk::test::device_buffer;
using sk::test::quick_mode;
using sk::test::verbose;

const char* kind_name(scan_kind k) { return k == scan_kind::inclusive ? "inclusive" : "exclusive"; }

/// Pinned host memory.
template <class T>
struct pinned_array {
  T* p = nullptr;
  std::size_t n = 0;
  explicit pinned_array(std::size_t count) : n(count) {
    ck(cudaMallocHost(&p, std::max<std::size_t>(count, 1) * sizeof(T)), "cudaMallocHost");
  }
  pinned_array(const pinned_array&) = delete;
  pinned_array& operator=(const pinned_array&) = delete;
  ~pinned_array() {
    if (p) cudaFreeHost(p);
  }
  std::span<T> span() { return {p, n}; }
};

/// The tile sizes that scankit::test::test_sizes builds its boundaries around, the
/// warp-specialized tile's among them (9,216 four-byte and 2,816 eight-byte items); every path
/// forced at every size is test_cuda_scan_paths.
namespace scan_tiles {
namespace dl = scankit::cuda::detail::decoupled_lookback;
constexpr auto four = dl::specialized_shape_for<4>(), eight = dl::specialized_shape_for<8>();
constexpr std::int64_t specialized4 = std::int64_t{four.consumers} * four.vectors_per_thread * 4;
constexpr std::int64_t specialized8 = std::int64_t{eight.consumers} * eight.vectors_per_thread * 2;
}  // namespace scan_tiles
const std::vector<std::int64_t> tile_sizes{
    32, 64, 256, 512, 1024, 2048, 4096, 6144, 8192, 12288, scan_tiles::specialized4, scan_tiles::specialized8};

/// test_sizes() for every tile size, keeping those in [lo, hi].
std::vector<std::int64_t> sizes_between(std::int64_t lo, std::int64_t hi, std::int64_t max_random) {
  std::vector<std::int64_t> s = sk::test::test_sizes(tile_sizes, max_random);
  std::erase_if(s, [&](std::int64_t n) { return n < lo || n > hi; });
  return s;
}

/// Fast random int32 values in [-1000, 1000] (splitmix64) for the large inputs, where the
/// standard distributions would dominate the run time.
std::vector<std::int32_t> fast_random_i32(std::int64_t n) {
  std::vector<std::int32_t> v(static_cast<std::size_t>(n));
  std::uint64_t x = sk::test::rng()();
  for (auto& e : v) {
    x += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    e = static_cast<std::int32_t>(z % 2001) - 1000;
  }
  return v;
}

/// The subset of element types and operators that SCANKIT_TEST_QUICK keeps: every element
/// type, 4- and 8-byte, signed, unsigned and floating, and every kind of operator once.
bool in_quick_subset(sk::dtype t, sk::op_kind o) {
  using sk::dtype;
  using sk::op_kind;
  return (t == dtype::i32 && o == op_kind::sum) || (t == dtype::u32 && o == op_kind::bit_xor) ||
         (t == dtype::i64 && o == op_kind::max) || (t == dtype::u64 && o == op_kind::product) ||
         (t == dtype::f32 && o == op_kind::sum) || (t == dtype::f64 && o == op_kind::min) ||
         (t == dtype::u64 && o == op_kind::bit_and) || (t == dtype::i32 && o == op_kind::bit_or);
}

struct print_seed : ::testing::Environment {
  void SetUp() override {
    std::printf("scankit CUDA tests: SCANKIT_TEST_SEED=%llu%s\n",
                static_cast<unsigned long long>(sk::test::seed()),
                quick_mode() ? " (SCANKIT_TEST_QUICK)" : "");
  }
};
[[maybe_unused]] ::testing::Environment* const seed_env =
    ::testing::AddGlobalTestEnvironment(new print_seed);

// ---------------------------------------------------------------------------------------

class CudaScan : public ::testing::TestWithParam<scan_algorithm> {
 protected:
  void SetUp() override {
    if (skc::device_count() == 0) GTEST_SKIP() << "no CUDA device";
    ck(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  void TearDown() override {
    if (stream_) cudaStreamDestroy(stream_);
  }

  scan_algorithm algo() const { return GetParam(); }

  /// Scans `in` on the device (output and carry-out poisoned first, workspace of exactly the
  /// size the library asks for, filled with garbage) and compares with the serial reference.
  template <class Op>
  ::testing::AssertionResult check(const std::vector<value_t<Op>>& in, Op op, scan_kind kind,
                                   value_t<Op> init, bool in_place, int block = 0) {
    using T = value_t<Op>;
    const auto n = static_cast<std::int64_t>(in.size());
    const std::size_t bytes = in.size() * sizeof(T);
    const skc::scan_config cfg{algo(), block};
    if (verbose())
      std::printf("  %s %s %s n=%lld block=%d%s\n", std::string(skc::name(algo())).c_str(),
                  op_name<Op>(), kind_name(kind), static_cast<long long>(n), block,
                  in_place ? " in place" : ""), std::fflush(stdout);
    din_.reserve(bytes);
    dout_.reserve(bytes);
    dtotal_.reserve(sizeof(T));
    T* din = din_.as<T>();
    T* out = in_place ? din : dout_.as<T>();
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
    return sk::test::matches_reference(in, got, op, kind, init, &total)
           << " [" << skc::name(algo()) << ", " << op_name<Op>() << ", " << kind_name(kind)
           << ", n=" << n << ", block=" << block << (in_place ? ", in place" : "") << "]";
  }

  /// Scans `in` (inclusive sum) five times into a poisoned output; every run's bits must equal
  /// the first run's.
  template <class T>
  void expect_bitwise_same_runs(const std::vector<T>& in) {
    const auto n = static_cast<std::int64_t>(in.size());
    const skc::scan_config cfg{algo(), 0};
    const std::size_t bytes = n * sizeof(T);
    din_.reserve(bytes);
    dout_.reserve(bytes);
    const std::size_t need = skc::scan_workspace_bytes(n, sizeof(T), cfg);
    ws_.reserve(need);
    ck(cudaMemcpyAsync(din_.p, in.data(), bytes, cudaMemcpyHostToDevice, stream_), "copy in");
    std::vector<T> first(n), again(n);
    for (int run = 0; run < 5; ++run) {
      ck(cudaMemsetAsync(dout_.p, 0xAB, bytes, stream_), "poison output");
      skc::scan(din_.as<T>(), dout_.as<T>(), n, sk::sum<T>{}, scan_kind::inclusive, T(0), ws_.data(), need, stream_,
                cfg);
      ck(cudaStreamSynchronize(stream_), "scan");
      ck(cudaMemcpy(run == 0 ? first.data() : again.data(), dout_.p, bytes, cudaMemcpyDeviceToHost), "copy out");
      if (run > 0) ASSERT_EQ(std::memcmp(first.data(), again.data(), bytes), 0) << "run " << run;
    }
  }

  /// `runs` sums of sizes 2^x, x uniform in [min_log, max_log), inputs from make_input(n):
  /// both kinds in turn, carry-in 7 on two runs in three, in place on every fourth.
  template <class T, class MakeInput>
  void stress_random_sizes(int runs, double min_log, double max_log, MakeInput make_input) {
    std::uniform_real_distribution<double> log_size(min_log, max_log);
    const sk::sum<T> op;
    for (int i = 0; i < runs; ++i) {
      const auto n = static_cast<std::int64_t>(std::exp2(log_size(sk::test::rng())));
      const std::vector<T> in = make_input(n);
      const scan_kind kind = i % 2 ? scan_kind::exclusive : scan_kind::inclusive;
      const auto r = check(in, op, kind, i % 3 ? T(7) : T(0), i % 4 == 1);
      ASSERT_TRUE(r) << "run " << i << " of " << runs;
    }
  }

  /// Both kinds over `sizes`: in place on alternate cases, carry-in on two cases in three.
  /// Stops at the first failure.
  template <class Op>
  void sweep(Op op, const std::vector<std::int64_t>& sizes, int block = 0) {
    int k = 0;
    for (std::int64_t n : sizes) {
      const auto in = random_input(n, op);
      const value_t<Op> init = k % 3 == 0 ? op.identity() : random_init(op);
      for (scan_kind kind : both_kinds) {
        const bool in_place = (k + (kind == scan_kind::exclusive)) % 2 == 1;
        const auto r = check(in, op, kind, init, in_place, block);
        EXPECT_TRUE(r);
        if (!r) return;
      }
      ++k;
    }
  }

  cudaStream_t stream_{};
  device_buffer din_, dout_, dtotal_;
  skc::workspace ws_;
};

std::string param_name(const ::testing::TestParamInfo<scan_algorithm>& info) {
  std::string s(skc::name(info.param));
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

// Every element type and operator, sizes around every tile size (up to 2^21), both kinds,
// in place and out of place, with and without carry-in, default block size.
TEST_P(CudaScan, EveryTypeAndOperator) {
  const bool quick = quick_mode();
  const auto sizes = quick ? sizes_between(0, 1 << 17, 1 << 17) : sizes_between(0, 1 << 21, 1 << 18);
  for (sk::dtype t : sk::all_dtypes)
    for (sk::op_kind o : sk::all_op_kinds) {
      if (!sk::supported(t, o) || (quick && !in_quick_subset(t, o))) continue;
      SCOPED_TRACE(std::string(sk::name(t)) + " " + std::string(sk::name(o)));
      sk::visit(t, o, [&](auto op) { sweep(op, sizes); });
    }
}

// Run-time block sizes 32, 128 and 1024 (the default is covered above).
TEST_P(CudaScan, BlockSizes) {
  const bool quick = quick_mode();
  const auto sizes = quick ? sizes_between(0, 1 << 17, 1 << 17) : sizes_between(0, 1 << 20, 1 << 18);
  for (int block : {32, 128, 1024}) {
    SCOPED_TRACE("block " + std::to_string(block));
    sweep(sk::sum<std::int32_t>{}, sizes, block);
    sweep(sk::bit_xor<std::uint64_t>{}, sizes, block);
    if (!quick) sweep(sk::max<double>{}, sizes, block);
  }
}

// A non-commutative monoid (affine maps under composition), instantiated in this file.
TEST_P(CudaScan, NonCommutativeAffine) {
  const bool quick = quick_mode();
  const auto sizes = quick ? sizes_between(0, 1 << 17, 1 << 17) : sizes_between(0, 1 << 20, 1 << 18);
  for (int block : {0, 32, 128, 1024}) {
    SCOPED_TRACE("block " + std::to_string(block));
    sweep(affine_compose{}, sizes, block);
    sweep(affine_compose16{}, sizes, block);
  }
  // 4-byte maps past 2^22, where the warp-specialized tile takes them by default.
  if (!quick) sweep(affine_compose16{}, {(std::int64_t{1} << 22) + 9216 * 3 + 17}, 0);
}

// 16-byte items, non-commutative: sizes around the tile edges, and (full run) sizes past 2^21,
// where the blocked tile takes them; block sizes 32 and 1024 as well.
TEST_P(CudaScan, SixteenByteItems) {
  const bool quick = quick_mode();
  std::vector<std::int64_t> sizes = sizes_between(0, quick ? 1 << 15 : 1 << 18, 1 << 15);
  if (!quick) sizes.insert(sizes.end(), {(std::int64_t{1} << 21) + 1, (std::int64_t{1} << 21) + 3072 * 7 - 1, 3000017});
  for (int block : {0, 32, 1024}) {
    SCOPED_TRACE("block " + std::to_string(block));
    sweep(affine_compose64{}, block == 0 ? sizes : sizes_between(0, 1 << 15, 1 << 15), block);
  }
}

// int32 sum at the sizes the sweeps above leave out (up to 2^24 + 1) and at one random size
// above 2^25.
TEST_P(CudaScan, Int32SumLargeSizes) {
  if (quick_mode()) GTEST_SKIP() << "large sizes are skipped with SCANKIT_TEST_QUICK";
  std::vector<std::int64_t> sizes = sizes_between((1 << 21) + 1, (1 << 24) + 1, 1 << 24);
  std::uniform_int_distribution<std::int64_t> d(std::int64_t{1} << 25, (std::int64_t{1} << 25) + (1 << 24));
  sizes.push_back(d(sk::test::rng()));
  const sk::sum<std::int32_t> op;
  int k = 0;
  for (std::int64_t n : sizes) {
    const auto in = fast_random_i32(n);
    const std::int32_t init = k % 2 ? 0 : 12345;
    for (scan_kind kind : both_kinds) {
      const auto r = check(in, op, kind, init, (k + (kind == scan_kind::exclusive)) % 2 == 1);
      ASSERT_TRUE(r);
    }
    ++k;
  }
}

// The warp-specialized tile (Hopper, decoupled-lookback's default for large 4- and 8-byte
// inputs) at sizes from its threshold up: whole tiles, a partial last tile one item short of a
// tile or one past it, many tiles per resident block, several tree levels; int32, float and
// int64 sums and the 8-byte non-commutative affine maps, both kinds, in place and not.
TEST_P(CudaScan, SpecializedTileLargeSizes) {
  if (quick_mode()) GTEST_SKIP() << "large sizes are skipped with SCANKIT_TEST_QUICK";
  if (algo() != scan_algorithm::decoupled_lookback) GTEST_SKIP() << "the tile belongs to decoupled-lookback";
  namespace dl = scankit::cuda::detail::decoupled_lookback;
  auto sizes_from = [](std::int64_t from, std::int64_t tile) {
    std::uniform_int_distribution<std::int64_t> extra(1, 2 * from);
    const std::int64_t first_whole = (from + tile - 1) / tile * tile;
    return std::vector<std::int64_t>{first_whole, first_whole + 1, first_whole + tile - 1, 3 * first_whole + 7,
                                     from + extra(sk::test::rng())};
  };
  constexpr auto four = dl::specialized_shape_for<4>(), eight = dl::specialized_shape_for<8>();
  const auto sizes4 = sizes_from(dl::tuning_for<4>(90).specialized_from_items,
                                 std::int64_t{four.consumers} * four.vectors_per_thread * 4);
  const auto sizes8 = sizes_from(dl::tuning_for<8>(90).specialized_from_items,
                                 std::int64_t{eight.consumers} * eight.vectors_per_thread * 2);
  sweep(sk::sum<std::int32_t>{}, sizes4);
  sweep(sk::sum<float>{}, sizes4);
  sweep(sk::sum<std::int64_t>{}, sizes8);
  sweep(affine_compose{}, sizes8);
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
  namespace dl = scankit::cuda::detail::decoupled_lookback;
  constexpr auto tu = dl::tuning_for<8>(90);
  const bool quick = quick_mode();
  int sms = 0;
  ck(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SM count");
  const std::int64_t tuned_tile = std::int64_t{tu.block_size} * tu.blocked_vectors * 2;
  const std::int64_t one_per_sm = sms * tuned_tile;  // the last size the tuned block covers
  const std::int64_t widest = one_per_sm * tu.one_tile_per_sm_up_to_threads / tu.block_size;
  const std::int64_t last = std::int64_t{1} << 21;
  std::vector<std::int64_t> sizes{one_per_sm + 1, widest + 1, last - 3};
  if (!quick) {
    sizes.insert(sizes.end(), {one_per_sm - 1, one_per_sm, one_per_sm + 2 * 32 * 16 - 1, (one_per_sm * 3) / 2 + 7,
                               widest - 1, widest, widest + tuned_tile - 1, (last * 3) / 4 + 1, last - 1, last});
    // (On a GPU of more than 170 SMs, widest passes 2^21: no random size in between then.)
    if (widest + 1 < last) sizes.push_back(std::uniform_int_distribution<std::int64_t>(widest + 1, last)(sk::test::rng()));
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  }
  sweep(sk::sum<std::int64_t>{}, sizes);
  sweep(sk::sum<double>{}, sizes);
  sweep(affine_compose{}, sizes);

  stress_random_sizes<std::int64_t>(quick ? 10 : 200, 16.0, 21.0,
                                    [](std::int64_t n) { return random_input(n, sk::sum<std::int64_t>{}); });
  if (HasFatalFailure()) return;

  // n = 2^21 - 3: above widest on GPUs of up to 170 SMs, so in the load window.
  expect_bitwise_same_runs(random_input(last - 3, sk::sum<double>{}));
}

// n == 0: nothing is read or written but the carry-out, which is the carry-in.
TEST_P(CudaScan, ZeroLengthWritesCarryOut) {
  const skc::scan_config cfg{algo(), 0};
  const std::size_t need = skc::scan_workspace_bytes(0, sizeof(std::int32_t), cfg);
  ws_.reserve(need);
  dtotal_.reserve(sizeof(std::int32_t));
  for (scan_kind kind : both_kinds) {
    ck(cudaMemsetAsync(dtotal_.p, 0xAB, sizeof(std::int32_t), stream_));
    skc::scan<sk::sum<std::int32_t>>(nullptr, nullptr, 0, {}, kind, 42, ws_.data(), need, stream_,
                                     cfg, dtotal_.as<std::int32_t>());
    ck(cudaStreamSynchronize(stream_));
    std::int32_t total = 0;
    ck(cudaMemcpy(&total, dtotal_.p, sizeof(total), cudaMemcpyDeviceToHost));
    EXPECT_EQ(total, 42) << kind_name(kind);
    // Without d_total nothing at all happens.
    skc::scan<sk::sum<std::int32_t>>(nullptr, nullptr, 0, {}, kind, 42, ws_.data(), need, stream_, cfg);
    ck(cudaStreamSynchronize(stream_));
  }
  const std::vector<std::int32_t> empty;
  skc::host_scan_options opts;
  opts.config = cfg;
  EXPECT_EQ(skc::inclusive_scan<std::int32_t>(std::span<const std::int32_t>(empty),
                                              std::span<std::int32_t>(), {}, 7, opts),
            7);
}

// The library-managed workspace overload.
TEST_P(CudaScan, ManagedWorkspaceOverload) {
  const std::int64_t n = 100003;
  const auto in = fast_random_i32(n);
  device_buffer d;
  d.reserve(n * sizeof(std::int32_t) + 256);
  auto* data = d.as<std::int32_t>();
  auto* total = data + n;  // past the items, inside the same allocation
  ck(cudaMemcpy(data, in.data(), n * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  skc::workspace ws;
  skc::scan(data, data, n, sk::sum<std::int32_t>{}, scan_kind::exclusive, -5, ws, stream_,
            {algo(), 0}, total);
  ck(cudaStreamSynchronize(stream_));
  std::vector<std::int32_t> got(n);
  std::int32_t t = 0;
  ck(cudaMemcpy(got.data(), data, n * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
  ck(cudaMemcpy(&t, total, sizeof(t), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(sk::test::matches_reference(in, got, sk::sum<std::int32_t>{}, scan_kind::exclusive, -5, &t));
  EXPECT_GE(ws.size(), skc::scan_workspace_bytes(n, sizeof(std::int32_t), {algo(), 0}));
}

// Host containers: pageable and pinned, out of place and in place, with and without carry-in,
// and streamed in chunks under a small device-memory limit.
TEST_P(CudaScan, HostContainers) {
  using T = std::int32_t;
  const sk::sum<T> op;
  const std::int64_t n = quick_mode() ? 100003 : 3000017;
  skc::host_scan_options opts;
  opts.config.algorithm = algo();
  const auto in = fast_random_i32(n);
  const std::span<const T> cin(in);

  {  // pageable, out of place
    std::vector<T> out(n, -1);
    const T total = skc::inclusive_scan<T>(cin, std::span<T>(out), op, 11, opts);
    EXPECT_TRUE(sk::test::matches_reference(in, out, op, scan_kind::inclusive, 11, &total));
    const T total2 = skc::exclusive_scan<T>(cin, std::span<T>(out), op, std::nullopt, opts);
    EXPECT_TRUE(sk::test::matches_reference(in, out, op, scan_kind::exclusive, 0, &total2));
  }
  {  // pageable, in place
    std::vector<T> v = in;
    const T total = skc::exclusive_scan<T>(std::span<const T>(v), std::span<T>(v), op, -3, opts);
    EXPECT_TRUE(sk::test::matches_reference(in, v, op, scan_kind::exclusive, -3, &total));
  }
  {  // pinned, out of place and in place
    pinned_array<T> pin(n), pout(n);
    std::copy(in.begin(), in.end(), pin.p);
    std::fill(pout.p, pout.p + n, -1);
    T total = skc::inclusive_scan<T>(std::span<const T>(pin.span()), pout.span(), op, 5, opts);
    EXPECT_TRUE(sk::test::matches_reference(in, std::vector<T>(pout.p, pout.p + n), op,
                                            scan_kind::inclusive, 5, &total));
    total = skc::inclusive_scan<T>(std::span<const T>(pin.span()), pin.span(), op, 5, opts);
    EXPECT_TRUE(sk::test::matches_reference(in, std::vector<T>(pin.p, pin.p + n), op,
                                            scan_kind::inclusive, 5, &total));
  }
  {  // pinned input, pageable output
    pinned_array<T> pin(n);
    std::copy(in.begin(), in.end(), pin.p);
    std::vector<T> out(n, -1);
    const T total = skc::exclusive_scan<T>(std::span<const T>(pin.span()), std::span<T>(out), op, 9, opts);
    EXPECT_TRUE(sk::test::matches_reference(in, out, op, scan_kind::exclusive, 9, &total));
  }
  // The calls above reused this thread's cached streaming buffers; free them so the next
  // calls start from nothing again.
  skc::release_host_buffers();
  {  // a device-memory budget (4 MiB; 256 KiB when quick) below the array: streamed in chunks
    skc::host_scan_options small = opts;
    small.device_memory_limit = quick_mode() ? std::size_t{256} << 10 : std::size_t{4} << 20;
    ASSERT_GT(n * sizeof(T), small.device_memory_limit);
    std::vector<T> out(n, -1);
    T total = skc::inclusive_scan<T>(cin, std::span<T>(out), op, 77, small);
    EXPECT_TRUE(sk::test::matches_reference(in, out, op, scan_kind::inclusive, 77, &total));
    std::vector<T> v = in;
    total = skc::exclusive_scan<T>(std::span<const T>(v), std::span<T>(v), op, 77, small);
    EXPECT_TRUE(sk::test::matches_reference(in, v, op, scan_kind::exclusive, 77, &total));
  }
  {  // another element type and operator, and the non-commutative monoid
    const auto din = sk::test::random_values<double>(n / 3 + 1, "sum");
    std::vector<double> dout(din.size());
    const double total = skc::inclusive_scan<double>(std::span<const double>(din),
                                                     std::span<double>(dout), sk::sum<double>{},
                                                     0.5, opts);
    EXPECT_TRUE(sk::test::matches_reference(din, dout, sk::sum<double>{}, scan_kind::inclusive, 0.5, &total));
    const auto ain = sk::test::random_affine(n / 7 + 1);
    std::vector<affine> aout(ain.size());
    const affine init = sk::test::random_affine(1)[0];
    const affine atotal = skc::exclusive_scan<affine, affine_compose>(
        std::span<const affine>(ain), std::span<affine>(aout), {}, init, opts);
    EXPECT_TRUE(sk::test::matches_reference(ain, aout, affine_compose{}, scan_kind::exclusive, init, &atotal));
  }
}

// Bad arguments throw scankit::invalid_argument before anything runs, and leave the input
// (scanned in place, so any write would show) unchanged.
TEST_P(CudaScan, InvalidArgumentsThrowAndLeaveInputIntact) {
  using T = std::int32_t;
  const sk::sum<T> op;
  const std::int64_t n = 5000;
  const auto in = fast_random_i32(n);
  const skc::scan_config cfg{algo(), 0};
  const std::size_t need = skc::scan_workspace_bytes(n, sizeof(T), cfg);
  din_.reserve(n * sizeof(T));
  dtotal_.reserve(sizeof(T));
  ws_.reserve(need);
  T* d = din_.as<T>();
  T* tot = dtotal_.as<T>();
  ck(cudaMemcpy(d, in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  ck(cudaMemset(tot, 0xAB, sizeof(T)));
  void* ws = ws_.data();
  const auto inc = scan_kind::inclusive;

  EXPECT_THROW(skc::scan(d, d, -1, op, inc, 0, ws, need, stream_, cfg, tot), sk::invalid_argument);
  EXPECT_THROW(skc::scan(static_cast<const T*>(nullptr), d, n, op, inc, 0, ws, need, stream_, cfg, tot),
               sk::invalid_argument);
  EXPECT_THROW(skc::scan(d, static_cast<T*>(nullptr), n, op, inc, 0, ws, need, stream_, cfg, tot),
               sk::invalid_argument);
  if (need > 0) {
    EXPECT_THROW(skc::scan(d, d, n, op, inc, 0, ws, need - 1, stream_, cfg, tot), sk::invalid_argument);
    EXPECT_THROW(skc::scan(d, d, n, op, inc, 0, nullptr, need, stream_, cfg, tot), sk::invalid_argument);
  }
  for (int bad : {48, 2048, 16, 0 - 32, 1000, 1025}) {
    const skc::scan_config bad_cfg{algo(), bad};
    EXPECT_THROW(skc::scan(d, d, n, op, inc, 0, ws, need, stream_, bad_cfg, tot),
                 sk::invalid_argument)
        << "block size " << bad;
    EXPECT_THROW((void)skc::scan_workspace_bytes(n, sizeof(T), bad_cfg), sk::invalid_argument)
        << "block size " << bad;
  }
  EXPECT_THROW((void)skc::scan_workspace_bytes(-1, sizeof(T), cfg), sk::invalid_argument);

  ck(cudaDeviceSynchronize());
  std::vector<T> after(n);
  T total_after = 0;
  ck(cudaMemcpy(after.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  ck(cudaMemcpy(&total_after, tot, sizeof(T), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(after == in) << "a rejected call modified its input";
  T poison;
  std::memset(&poison, 0xAB, sizeof(poison));
  EXPECT_EQ(total_after, poison) << "a rejected call wrote the carry-out";

  // Host containers: a device-memory budget too small for any chunk, a short output.
  std::vector<T> host = in;
  skc::host_scan_options tiny;
  tiny.config = cfg;
  tiny.device_memory_limit = 64;
  EXPECT_THROW(skc::inclusive_scan<T>(std::span<const T>(host), std::span<T>(host), op, 0, tiny),
               sk::invalid_argument);
  std::vector<T> shorter(n - 1);
  EXPECT_THROW(skc::inclusive_scan<T>(std::span<const T>(host), std::span<T>(shorter), op, 0, {}),
               sk::invalid_argument);
  EXPECT_THROW(skc::scan_host(static_cast<const T*>(nullptr), host.data(), n, op, inc, 0, {}),
               sk::invalid_argument);
  EXPECT_TRUE(host == in) << "a rejected host call modified its input";
}

// ---------------------------------------------------------------------------------------
// More than 2^31 items: 2^31 + 1000 uint32 of mostly ones, with a few random values at
// random positions (and around 2^31), generated and checked on the device.

struct sparse_values {
  static constexpr int max_count = 16;
  int count = 0;
  std::int64_t pos[max_count];  // ascending
  std::uint32_t val[max_count];
};

__global__ void fill_ones_kernel(std::uint32_t* p, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    p[i] = 1u;
}

__global__ void set_values_kernel(std::uint32_t* p, sparse_values sv) {
  const int k = static_cast<int>(threadIdx.x);
  if (k < sv.count) p[sv.pos[k]] = sv.val[k];
}

/// Counts the items that differ from the expected scan; records the first one.
__global__ void check_ones_kernel(const std::uint32_t* p, std::int64_t n, sparse_values sv,
                                  std::uint32_t init, bool exclusive,
                                  unsigned long long* bad, unsigned long long* first_bad) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const std::int64_t counted = exclusive ? i : i + 1;  // items [0, counted) are summed
    std::uint32_t e = init + static_cast<std::uint32_t>(counted);
    for (int k = 0; k < sv.count; ++k)
      if (sv.pos[k] < counted) e += sv.val[k] - 1u;
    if (p[i] != e) {
      atomicAdd(bad, 1ull);
      atomicMin(first_bad, static_cast<unsigned long long>(i));
    }
  }
}

TEST_P(CudaScan, MoreThan2Pow31Items) {
  if (quick_mode()) GTEST_SKIP() << "skipped with SCANKIT_TEST_QUICK";
  using T = std::uint32_t;
  const std::int64_t n = (std::int64_t{1} << 31) + 1000;
  const skc::scan_config cfg{algo(), 0};
  const std::size_t need = skc::scan_workspace_bytes(n, sizeof(T), cfg);
  std::size_t free_bytes = 0, total_bytes = 0;
  ck(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t want = n * sizeof(T) + need + (std::size_t{512} << 20);
  if (free_bytes < want)
    GTEST_SKIP() << "needs " << (want >> 20) << " MiB of free device memory, "
                 << (free_bytes >> 20) << " MiB free";

  device_buffer data, counters;
  data.reserve(n * sizeof(T));
  counters.reserve(4 * sizeof(unsigned long long));
  ws_.reserve(need);
  T* d = data.as<T>();
  auto* bad = counters.as<unsigned long long>();
  auto* first_bad = bad + 1;
  T* d_total = reinterpret_cast<T*>(bad + 2);

  sparse_values sv;
  {
    std::vector<std::int64_t> pos{0, 1, (std::int64_t{1} << 31) - 1, std::int64_t{1} << 31,
                                  (std::int64_t{1} << 31) + 1, n - 1};
    std::uniform_int_distribution<std::int64_t> dp(0, n - 1);
    while (static_cast<int>(pos.size()) < sparse_values::max_count) pos.push_back(dp(sk::test::rng()));
    std::sort(pos.begin(), pos.end());
    pos.erase(std::unique(pos.begin(), pos.end()), pos.end());
    std::uniform_int_distribution<std::uint32_t> dv;
    sv.count = static_cast<int>(pos.size());
    for (int k = 0; k < sv.count; ++k) {
      sv.pos[k] = pos[k];
      sv.val[k] = dv(sk::test::rng());
    }
  }
  const T init = std::uniform_int_distribution<std::uint32_t>()(sk::test::rng());
  T expected_total = init + static_cast<T>(n);
  for (int k = 0; k < sv.count; ++k) expected_total += sv.val[k] - 1u;

  for (scan_kind kind : both_kinds) {
    SCOPED_TRACE(kind_name(kind));
    fill_ones_kernel<<<4096, 256, 0, stream_>>>(d, n);
    ck(cudaGetLastError());
    set_values_kernel<<<1, sparse_values::max_count, 0, stream_>>>(d, sv);
    ck(cudaGetLastError());
    ck(cudaMemsetAsync(bad, 0, sizeof(unsigned long long), stream_));
    ck(cudaMemsetAsync(first_bad, 0xFF, sizeof(unsigned long long), stream_));
    ck(cudaMemsetAsync(d_total, 0xAB, sizeof(T), stream_));
    skc::scan(d, d, n, sk::sum<T>{}, kind, init, ws_.data(), need, stream_, cfg, d_total);
    check_ones_kernel<<<4096, 256, 0, stream_>>>(d, n, sv, init, kind == scan_kind::exclusive,
                                                 bad, first_bad);
    ck(cudaGetLastError());
    ck(cudaStreamSynchronize(stream_), "scan of 2^31 + 1000 items");
    unsigned long long h[2];
    T total = 0;
    ck(cudaMemcpy(h, bad, sizeof(h), cudaMemcpyDeviceToHost));
    ck(cudaMemcpy(&total, d_total, sizeof(T), cudaMemcpyDeviceToHost));
    EXPECT_EQ(h[0], 0ull) << "wrong items; the first at index " << h[1];
    EXPECT_EQ(total, expected_total);
  }
}

// The single-pass scans under stress: many launches on random sizes (log-uniform from 1 to
// 2^22, so every path — one tile, a few tiles, several look-back levels — comes up often),
// alternating kinds, in place and carry-in. A wrong result fails; a hang runs into ctest's
// timeout.
TEST_P(CudaScan, StressRandomSizes) {
  if (algo() != scan_algorithm::decoupled_lookback && algo() != scan_algorithm::reduce_then_scan)
    GTEST_SKIP() << "stress runs for the single-pass and reduce-then-scan algorithms";
  stress_random_sizes<std::int32_t>(quick_mode() ? 50 : 1000, 0.0, quick_mode() ? 16 : 22, fast_random_i32);
}

// Floating-point scans are bitwise deterministic: the same input gives the same bits on every
// run (the look-back combines a fixed tree of partial sums, whatever the timing).
TEST_P(CudaScan, FloatResultsAreBitwiseDeterministic) {
  using T = float;
  const std::int64_t n = quick_mode() ? (1 << 16) + 3 : (1 << 24) + 3;
  expect_bitwise_same_runs(random_input(n, sk::sum<T>{}));
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CudaScan, ::testing::ValuesIn(skc::all_scan_algorithms),
                         param_name);

// Outside the per-algorithm suite: the names and defaults of the public API.
TEST(CudaScanApi, AlgorithmNamesRoundTrip) {
  for (auto a : skc::all_scan_algorithms) {
    const auto parsed = skc::parse_scan_algorithm(skc::name(a));
    ASSERT_TRUE(parsed.has_value()) << skc::name(a);
    EXPECT_EQ(*parsed, a);
  }
  EXPECT_FALSE(skc::parse_scan_algorithm("no-such-scan").has_value());
}

}  // namespace
