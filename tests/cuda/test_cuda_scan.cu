// GoogleTest suite of the CUDA scans' API, element types and operators: every algorithm of
// scankit::cuda::all_scan_algorithms, through the public API only, against the serial reference
// (floats against a long double reference within test_util.hpp's float_tolerance): every
// element type and operator, a non-commutative operator of 4, 8 and 16 bytes, run-time block
// sizes, n == 0, the managed-workspace overload and the host containers. The other concerns
// have their own programs: test_cuda_scan_paths (each path forced, one-wave sizes),
// _determinism, _large (sizes past 2^21, more than 2^31 items) and _invalid (bad arguments).
//
// Each test is parametrised by the algorithm, so ctest lists (and can run) every algorithm's
// tests separately. Without a GPU every test skips.
//
// Environment:
//   SCANKIT_TEST_QUICK=1   sizes up to 2^17 and a representative subset of element types and
//                          operators.
//   SCANKIT_TEST_TIER=sanitize  the quick subset cut to one operator per element type, fewer
//                          sizes (test_util.hpp): for compute-sanitizer runs.
//   SCANKIT_TEST_SEED=N    replays a run (the seed is printed at start).
//   SCANKIT_TEST_VERBOSE=1 prints each case before it runs (to find one that hangs).
//
// The built-in monoids are instantiated by the library (declared extern in
// cuda_scan_test_util.hpp so this file does not compile their kernels again); the
// non-commutative test monoids are instantiated here, from scankit/cuda/scan.cuh, as a user's
// .cu file would.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/cuda_scan_test_util.hpp"
#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/device.hpp"

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
namespace skd = scankit::cuda::detail;
using namespace scankit::test;
using sk::scan_kind;

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

/// The subset of element types and operators that SCANKIT_TEST_QUICK keeps: every element
/// type, 4- and 8-byte, signed, unsigned and floating, and every kind of operator once. The
/// sanitize tier keeps one operator per element type (and/or, whose inputs differ only on the
/// host, are left out).
bool in_quick_subset(sk::dtype t, sk::op_kind o) {
  using sk::dtype;
  using sk::op_kind;
  const bool one_per_type = (t == dtype::i32 && o == op_kind::sum) || (t == dtype::u32 && o == op_kind::bit_xor) ||
                            (t == dtype::i64 && o == op_kind::max) || (t == dtype::u64 && o == op_kind::product) ||
                            (t == dtype::f32 && o == op_kind::sum) || (t == dtype::f64 && o == op_kind::min);
  if (sanitize_tier()) return one_per_type;
  return one_per_type || (t == dtype::u64 && o == op_kind::bit_and) || (t == dtype::i32 && o == op_kind::bit_or);
}

// Every element type and operator, sizes around every tile size (up to 2^21), both kinds,
// in place and out of place, with and without carry-in, default block size.
TEST_P(CudaScan, EveryTypeAndOperator) {
  const auto sizes = quick() ? sizes_between(0, 1 << 17, 1 << 17) : sizes_between(0, 1 << 21, 1 << 18);
  for (sk::dtype t : sk::all_dtypes)
    for (sk::op_kind o : sk::all_op_kinds) {
      if (!sk::supported(t, o) || (quick() && !in_quick_subset(t, o))) continue;
      SCOPED_TRACE(std::string(sk::name(t)) + " " + std::string(sk::name(o)));
      sk::visit(t, o, [&](auto op) { sweep(op, sizes, config()); });
    }
}

// Run-time block sizes 32, 128 and 1024 (the default is covered above).
TEST_P(CudaScan, BlockSizes) {
  const auto sizes = quick() ? sizes_between(0, 1 << 17, 1 << 17) : sizes_between(0, 1 << 20, 1 << 18);
  for (int block : {32, 128, 1024}) {
    SCOPED_TRACE("block " + std::to_string(block));
    // The sanitize tier: 4-byte items at blocks 32 and 1024, 8-byte at 128 and 1024.
    if (!sanitize_tier() || block != 128) sweep(sk::sum<std::int32_t>{}, sizes, config(block));
    if (!sanitize_tier() || block != 32) sweep(sk::bit_xor<std::uint64_t>{}, sizes, config(block));
    if (!quick()) sweep(sk::max<double>{}, sizes, config(block));
  }
}

// A non-commutative monoid (affine maps under composition), instantiated in this file.
TEST_P(CudaScan, NonCommutativeAffine) {
  const auto sizes = quick() ? sizes_between(0, 1 << 17, 1 << 17) : sizes_between(0, 1 << 20, 1 << 18);
  for (int block : {0, 32, 128, 1024}) {
    SCOPED_TRACE("block " + std::to_string(block));
    sweep(affine_compose{}, sizes, config(block));
    sweep(affine_compose16{}, sizes, config(block));
  }
  // 4-byte maps past 2^22, where the warp-specialized tile takes them by default.
  if (!quick()) sweep(affine_compose16{}, {(std::int64_t{1} << 22) + 9216 * 3 + 17}, config());
}

// 16-byte items, non-commutative: sizes around the tile edges, and (full run) sizes past 2^21,
// where the blocked tile takes them; block sizes 32 and 1024 as well.
TEST_P(CudaScan, SixteenByteItems) {
  std::vector<std::int64_t> sizes = sizes_between(0, quick() ? 1 << 15 : 1 << 18, 1 << 15);
  if (!quick()) sizes.insert(sizes.end(), {(std::int64_t{1} << 21) + 1, (std::int64_t{1} << 21) + 3072 * 7 - 1, 3000017});
  for (int block : {0, 32, 1024}) {
    SCOPED_TRACE("block " + std::to_string(block));
    sweep(affine_compose64{}, block == 0 ? sizes : sizes_between(0, 1 << 15, 1 << 15), config(block));
  }
}

// n == 0: nothing is read or written but the carry-out, which is the carry-in.
TEST_P(CudaScan, ZeroLengthWritesCarryOut) {
  const skc::scan_config cfg = config();
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
  skc::scan(data, data, n, sk::sum<std::int32_t>{}, scan_kind::exclusive, -5, ws, stream_, config(), total);
  ck(cudaStreamSynchronize(stream_));
  std::vector<std::int32_t> got(n);
  std::int32_t t = 0;
  ck(cudaMemcpy(got.data(), data, n * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
  ck(cudaMemcpy(&t, total, sizeof(t), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(sk::test::matches_reference(in, got, sk::sum<std::int32_t>{}, scan_kind::exclusive, -5, &t));
  EXPECT_GE(ws.size(), skc::scan_workspace_bytes(n, sizeof(std::int32_t), config()));
}

// Host containers: pageable and pinned, out of place and in place, with and without carry-in,
// and streamed in chunks under a small device-memory limit.
TEST_P(CudaScan, HostContainers) {
  using T = std::int32_t;
  const sk::sum<T> op;
  const std::int64_t n = quick() ? 100003 : 3000017;
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
    small.device_memory_limit = quick() ? std::size_t{256} << 10 : std::size_t{4} << 20;
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

INSTANTIATE_TEST_SUITE_P(Algorithms, CudaScan, ::testing::ValuesIn(skc::all_scan_algorithms),
                         sk::test::param_name<skc::scan_algorithm>);

// Outside the per-algorithm suite: the names and defaults of the public API.
// The description the tuning tables are read with: the facts come from the driver (a peak
// memory bandwidth of 0 would put every Hopper part in one class), and the class is the one
// the plans use.
TEST(CudaDevice, DescriptionComesFromTheDriver) {
  if (!scankit::test::have_gpu()) {
    EXPECT_THROW(skc::describe_current_device(), scankit::no_device_error);
    GTEST_SKIP() << "no CUDA device";
  }
  const skc::device_description d = skc::describe_current_device();
  int major = 0, minor = 0, sms = 0;
  int dev = 0;
  ASSERT_EQ(cudaGetDevice(&dev), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), cudaSuccess);
  EXPECT_EQ(d.arch, 10 * major + minor);
  EXPECT_EQ(d.sm_count, sms);
  EXPECT_GT(d.smem_per_sm, 0u);
  EXPECT_GT(d.l2_bytes, 0u);
  EXPECT_GT(d.memory_bus_bits, 0);
  EXPECT_GT(d.memory_clock_khz, 0);
  EXPECT_GT(d.memory_bytes_per_second, 1e11);
  EXPECT_EQ(d.tuning_class, skd::name_of(skd::class_of(skd::current_device_info())));
}

TEST(CudaScanApi, AlgorithmNamesRoundTrip) {
  for (auto a : skc::all_scan_algorithms) {
    const auto parsed = skc::parse_scan_algorithm(skc::name(a));
    ASSERT_TRUE(parsed.has_value()) << skc::name(a);
    EXPECT_EQ(*parsed, a);
  }
  EXPECT_FALSE(skc::parse_scan_algorithm("no-such-scan").has_value());
}

}  // namespace
