// GoogleTest suite of the scans along an axis (scankit/cuda/axis_scan.hpp) against a serial
// scan of every line: shapes [outer][len][inner] with inner 1, 2, 3, 4, 32 and 100 (the row
// kernel, with aligned and misaligned arrays, the narrow and the wide kernels), lines of 1, a
// few, 1023, 1024, 1025 and many items (whole planes, one chunk, chunks with carry-ins), one and
// many lines; inclusive and exclusive with a carry-in; int32, int64, float and double sums,
// other built-in operators, and non-commutative monoids of 4 and 8 bytes (instantiated here
// from axis_scan.cuh, as a user's .cu file would). Sums of float items use small integers, so
// that every order of addition gives the same, exact result. Without a GPU every test skips.
//
// Environment: SCANKIT_TEST_QUICK=1 (shorter long lines, fewer shapes), SCANKIT_TEST_SEED=N.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "common/cuda_test_util.hpp"
#include "common/test_util.hpp"
#include "scankit/cuda/axis_scan.cuh"

// The built-in operators are instantiated by the library: not again here.
#define EXTERN_AXIS_SCAN(...)                                                                  \
  extern template void scankit::cuda::axis_scan<__VA_ARGS__>(                                 \
      const scankit::value_t<__VA_ARGS__>*, scankit::value_t<__VA_ARGS__>*, std::int64_t,      \
      std::int64_t, std::int64_t, __VA_ARGS__, scankit::scan_kind,                             \
      scankit::value_t<__VA_ARGS__>, const scankit::cuda::axis_scan_plan&, void*, cudaStream_t); \
  extern template void scankit::cuda::axis_scan<__VA_ARGS__>(                                 \
      const scankit::value_t<__VA_ARGS__>*, scankit::value_t<__VA_ARGS__>*, std::int64_t,      \
      std::int64_t, std::int64_t, __VA_ARGS__, scankit::scan_kind,                             \
      scankit::value_t<__VA_ARGS__>, void*, std::size_t, cudaStream_t);
EXTERN_AXIS_SCAN(scankit::sum<std::int32_t>)
EXTERN_AXIS_SCAN(scankit::sum<std::int64_t>)
EXTERN_AXIS_SCAN(scankit::sum<float>)
EXTERN_AXIS_SCAN(scankit::sum<double>)
EXTERN_AXIS_SCAN(scankit::max<std::int32_t>)
EXTERN_AXIS_SCAN(scankit::min<double>)
EXTERN_AXIS_SCAN(scankit::bit_xor<std::uint64_t>)
EXTERN_AXIS_SCAN(scankit::product<std::uint32_t>)

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
using namespace scankit::test;

/// x -> a*x + b modulo 2^16: a non-commutative monoid of 4-byte items (inner 4 takes the row
/// kernel with four of them to an element).
struct affine16 {
  std::uint16_t a, b;
  friend bool operator==(const affine16&, const affine16&) = default;
};
struct affine16_compose {
  using value_type = affine16;
  SCANKIT_HD static constexpr affine16 identity() { return {1u, 0u}; }
  SCANKIT_HD constexpr affine16 operator()(const affine16& f, const affine16& g) const {
    return {static_cast<std::uint16_t>(g.a * f.a), static_cast<std::uint16_t>(g.a * f.b + g.b)};
  }
};
[[maybe_unused]] void PrintTo(const affine16& f, std::ostream* os) { *os << "{" << f.a << "," << f.b << "}"; }

template <class Op>
std::vector<sk::value_t<Op>> inputs(std::int64_t n) {
  using T = sk::value_t<Op>;
  if constexpr (std::is_same_v<Op, affine_compose>) {
    return random_affine(n);
  } else if constexpr (std::is_same_v<Op, affine16_compose>) {
    std::vector<T> v(static_cast<std::size_t>(n));
    std::uniform_int_distribution<unsigned> d(0, 0xffff);
    for (auto& x : v) x = {static_cast<std::uint16_t>(d(rng()) | 1u), static_cast<std::uint16_t>(d(rng()))};
    return v;
  } else if constexpr (std::is_floating_point_v<T> && std::is_same_v<Op, sk::sum<T>>) {
    std::vector<T> v(static_cast<std::size_t>(n));
    std::uniform_int_distribution<int> d(-8, 8);
    for (auto& x : v) x = static_cast<T>(d(rng()));
    return v;
  } else {
    return random_values<T>(n, Op::name);
  }
}

template <class Op>
sk::value_t<Op> carry_in() {
  return inputs<Op>(1)[0];
}

/// The serial scan of every line of [outer][len][inner].
template <class Op>
std::vector<sk::value_t<Op>> reference(const std::vector<sk::value_t<Op>>& in, std::int64_t outer, std::int64_t len,
                                       std::int64_t inner, sk::scan_kind kind, sk::value_t<Op> init) {
  const Op op{};
  std::vector<sk::value_t<Op>> out(in.size());
  for (std::int64_t a = 0; a < outer; ++a)
    for (std::int64_t c = 0; c < inner; ++c) {
      auto acc = init;
      for (std::int64_t r = 0; r < len; ++r) {
        const auto i = static_cast<std::size_t>((a * len + r) * inner + c);
        const auto next = op(acc, in[i]);
        out[i] = kind == sk::scan_kind::inclusive ? next : acc;
        acc = next;
      }
    }
  return out;
}

class CudaAxisScan : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    ck(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  void TearDown() override {
    if (stream_) cudaStreamDestroy(stream_);
  }

  /// One shape: inclusive and exclusive, each with a carry-in; `offset` items into the buffers
  /// (1: arrays not aligned to a row of 2 or 4 items, so inner 2 and 4 take the narrow kernel);
  /// in_place: the output over the input.
  template <class Op>
  void check(std::int64_t outer, std::int64_t len, std::int64_t inner, std::int64_t offset = 0,
             bool in_place = false) {
    using T = sk::value_t<Op>;
    const std::int64_t n = outer * len * inner;
    SCOPED_TRACE(::testing::Message() << "[" << outer << "][" << len << "][" << inner << "] offset " << offset
                                      << (in_place ? " in place" : ""));
    if (verbose()) std::printf("axis scan [%lld][%lld][%lld]\n", (long long)outer, (long long)len, (long long)inner);
    const auto in = inputs<Op>(n);
    const std::size_t bytes = static_cast<std::size_t>(n + offset) * sizeof(T);
    d_in_.reserve(bytes);
    d_out_.reserve(bytes);
    const std::size_t ws_bytes = skc::axis_scan_workspace_bytes(outer, len, inner, sizeof(T));
    d_ws_.reserve(ws_bytes);
    T* x = d_in_.as<T>() + offset;
    T* y = in_place ? x : d_out_.as<T>() + offset;
    for (const auto kind : {sk::scan_kind::inclusive, sk::scan_kind::exclusive}) {
      SCOPED_TRACE(kind_name(kind));
      const T init = carry_in<Op>();
      ck(cudaMemcpyAsync(x, in.data(), static_cast<std::size_t>(n) * sizeof(T), cudaMemcpyHostToDevice, stream_));
      skc::axis_scan(x, y, outer, len, inner, Op{}, kind, init, d_ws_.p, ws_bytes, stream_);
      std::vector<T> got(static_cast<std::size_t>(n));
      ck(cudaMemcpyAsync(got.data(), y, static_cast<std::size_t>(n) * sizeof(T), cudaMemcpyDeviceToHost, stream_));
      ck(cudaStreamSynchronize(stream_));
      const auto want = reference<Op>(in, outer, len, inner, kind, init);
      for (std::size_t i = 0; i < got.size(); ++i)
        if (!(got[i] == want[i])) {
          const std::int64_t k = static_cast<std::int64_t>(i);
          FAIL() << "item " << i << " (plane " << k / (len * inner) << ", row " << k / inner % len
                 << ", column " << k % inner << "): " << ::testing::PrintToString(got[i]) << ", want "
                 << ::testing::PrintToString(want[i]);
        }
    }
  }

  /// Every shape of the sweep for Op.
  template <class Op>
  void sweep() {
    const std::int64_t long_len = quick() ? (1 << 16) + 3 : (1 << 20) + 3;
    const std::int64_t budget = std::int64_t{1} << (quick() ? 20 : 23);  // items per shape, at most
    for (const std::int64_t inner : {1, 2, 4, 3, 32, 100})
      for (const std::int64_t len : {std::int64_t{1}, std::int64_t{7}, std::int64_t{1023}, std::int64_t{1024},
                                     std::int64_t{1025}, long_len})
        for (const bool many : {false, true}) {
          const std::int64_t line = len * inner;
          if (line > budget) continue;
          const std::int64_t outer = many ? std::max<std::int64_t>(2, std::min<std::int64_t>(1000, budget / line)) : 1;
          check<Op>(outer, len, inner);
          if (HasFatalFailure()) return;
          if (inner == 2 || inner == 4) check<Op>(outer, len, inner, 1);  // misaligned: the narrow kernel
          if (HasFatalFailure()) return;
        }
  }

  cudaStream_t stream_{};
  device_buffer d_in_, d_out_, d_ws_;
};

TEST_F(CudaAxisScan, SumInt32) { sweep<sk::sum<std::int32_t>>(); }
TEST_F(CudaAxisScan, SumInt64) { sweep<sk::sum<std::int64_t>>(); }
TEST_F(CudaAxisScan, SumFloat) { sweep<sk::sum<float>>(); }
TEST_F(CudaAxisScan, SumDouble) { sweep<sk::sum<double>>(); }
TEST_F(CudaAxisScan, NonCommutative8Bytes) { sweep<affine_compose>(); }
TEST_F(CudaAxisScan, NonCommutative4Bytes) { sweep<affine16_compose>(); }

// The other built-in operators, on shapes that reach every kernel.
TEST_F(CudaAxisScan, OtherOperators) {
  for (const auto [outer, len, inner] : {std::tuple{1, 100003, 1}, {37, 1025, 2}, {5, 20000, 3}, {3, 5000, 40}}) {
    check<sk::max<std::int32_t>>(outer, len, inner);
    check<sk::min<double>>(outer, len, inner);
    check<sk::bit_xor<std::uint64_t>>(outer, len, inner);
    check<sk::product<std::uint32_t>>(outer, len, inner);
  }
}

// In place, on each kernel and with chunks (the carry-ins read the input before it is written).
TEST_F(CudaAxisScan, InPlace) {
  for (const auto [outer, len, inner] :
       {std::tuple{1, 300001, 1}, {1000, 100, 1}, {2, 70001, 2}, {4, 50000, 3}, {2, 30000, 100}, {500, 3, 5}})
    check<affine_compose>(outer, len, inner, 0, true);
}

// The caller's plan gives the results of the library's own.
TEST_F(CudaAxisScan, CallersPlan) {
  using Op = sk::sum<std::int64_t>;
  const std::int64_t outer = 3, len = 100000, inner = 5, n = outer * len * inner;
  const auto plan = skc::plan_axis_scan(outer, len, inner, sizeof(std::int64_t));
  ASSERT_GT(plan.chunks, 1);
  const auto in = inputs<Op>(n);
  d_in_.reserve(n * 8);
  d_out_.reserve(n * 8);
  d_ws_.reserve(static_cast<std::size_t>(plan.workspace_bytes));
  ck(cudaMemcpy(d_in_.p, in.data(), n * 8, cudaMemcpyHostToDevice));
  skc::axis_scan(d_in_.as<std::int64_t>(), d_out_.as<std::int64_t>(), outer, len, inner, Op{},
                 sk::scan_kind::inclusive, std::int64_t{5}, plan, d_ws_.p, stream_);
  std::vector<std::int64_t> got(n);
  ck(cudaMemcpyAsync(got.data(), d_out_.p, n * 8, cudaMemcpyDeviceToHost, stream_));
  ck(cudaStreamSynchronize(stream_));
  EXPECT_EQ(got, reference<Op>(in, outer, len, inner, sk::scan_kind::inclusive, 5));
}

TEST_F(CudaAxisScan, InvalidArguments) {
  using Op = sk::sum<std::int32_t>;
  d_in_.reserve(1024);
  auto* p = d_in_.as<std::int32_t>();
  auto call = [&](std::int64_t o, std::int64_t l, std::int64_t i, std::int32_t* in, std::int32_t* out,
                  void* ws, std::size_t ws_bytes) {
    skc::axis_scan(in, out, o, l, i, Op{}, sk::scan_kind::inclusive, 0, ws, ws_bytes, stream_);
  };
  EXPECT_THROW(call(-1, 4, 4, p, p, nullptr, 0), sk::invalid_argument);
  EXPECT_THROW(call(4, 4, -1, p, p, nullptr, 0), sk::invalid_argument);
  EXPECT_THROW(call(std::int64_t{1} << 40, std::int64_t{1} << 40, 1, p, p, nullptr, 0), sk::invalid_argument);
  EXPECT_THROW(call(4, 4, 4, nullptr, p, nullptr, 0), sk::invalid_argument);
  EXPECT_THROW(call(4, 4, 4, p, nullptr, nullptr, 0), sk::invalid_argument);
  // A long line needs a workspace for its chunks' carry-ins.
  const std::size_t need = skc::axis_scan_workspace_bytes(1, 1 << 20, 1, 4);
  ASSERT_GT(need, 0u);
  EXPECT_THROW(call(1, 1 << 20, 1, p, p, p, need - 1), sk::invalid_argument);
  EXPECT_THROW(call(1, 1 << 20, 1, p, p, nullptr, need), sk::invalid_argument);
  // Empty shapes launch nothing and need nothing.
  EXPECT_NO_THROW(call(0, 5, 5, nullptr, nullptr, nullptr, 0));
  EXPECT_NO_THROW(call(5, 5, 0, nullptr, nullptr, nullptr, 0));
}

}  // namespace
