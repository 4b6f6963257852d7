// GoogleTest suite of the CUDA scans at large sizes: int32 sums past the sizes
// test_cuda_scan sweeps (up to 2^24 + 1, and one random size above 2^25), the warp-specialized
// tile from its threshold up, and more than 2^31 items (64-bit offsets). Every algorithm of
// scankit::cuda::all_scan_algorithms, through the public API, against the serial reference (the
// > 2^31-item input is generated and checked on the device). Without a GPU every test skips;
// with SCANKIT_TEST_QUICK every test skips too (the sanitizer runs leave large sizes out), and
// the > 2^31-item test skips without enough free device memory.
//
// Environment: SCANKIT_TEST_SEED=N (replay), SCANKIT_TEST_VERBOSE=1 (print each case).
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "common/cuda_scan_test_util.hpp"

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
using namespace scankit::test;
using sk::scan_kind;
using skc::scan_algorithm;

// int32 sum at the sizes test_cuda_scan's sweeps leave out (up to 2^24 + 1) and at one random
// size above 2^25.
TEST_P(CudaScan, Int32SumLargeSizes) {
  if (quick()) GTEST_SKIP() << "large sizes are skipped with SCANKIT_TEST_QUICK";
  std::vector<std::int64_t> sizes = sizes_between((1 << 21) + 1, (1 << 24) + 1, 1 << 24);
  std::uniform_int_distribution<std::int64_t> d(std::int64_t{1} << 25, (std::int64_t{1} << 25) + (1 << 24));
  sizes.push_back(d(sk::test::rng()));
  const sk::sum<std::int32_t> op;
  int k = 0;
  for (std::int64_t n : sizes) {
    const auto in = sk::test::fast_random_i32(n);
    const std::int32_t init = k % 2 ? 0 : 12345;
    for (scan_kind kind : both_kinds) {
      const auto r = check(in, op, kind, init, (k + (kind == scan_kind::exclusive)) % 2 == 1, config());
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
  if (quick()) GTEST_SKIP() << "large sizes are skipped with SCANKIT_TEST_QUICK";
  if (algo() != scan_algorithm::decoupled_lookback) GTEST_SKIP() << "the tile belongs to decoupled-lookback";
  namespace dl = scankit::cuda::detail::decoupled_lookback;
  auto sizes_from = [](std::int64_t from, std::int64_t tile) {
    std::uniform_int_distribution<std::int64_t> extra(1, 2 * from);
    const std::int64_t first_whole = (from + tile - 1) / tile * tile;
    return std::vector<std::int64_t>{first_whole, first_whole + 1, first_whole + tile - 1, 3 * first_whole + 7,
                                     from + extra(sk::test::rng())};
  };
  const auto sizes4 = sizes_from(dl::tuning_for<4>().specialized_from_items, sk::test::scan_tiles::specialized4);
  const auto sizes8 = sizes_from(dl::tuning_for<8>().specialized_from_items, sk::test::scan_tiles::specialized8);
  sweep(sk::sum<std::int32_t>{}, sizes4, config());
  sweep(sk::sum<float>{}, sizes4, config());
  sweep(sk::sum<std::int64_t>{}, sizes8, config());
  sweep(sk::test::affine_compose{}, sizes8, config());
}

// ---------------------------------------------------------------------------------------
// More than 2^31 items: 2^31 + 1000 uint32 of mostly ones, with a few random values at
// random positions (and near 2^31), generated and checked on the device.

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
  if (quick()) GTEST_SKIP() << "skipped with SCANKIT_TEST_QUICK";
  using T = std::uint32_t;
  const std::int64_t n = (std::int64_t{1} << 31) + 1000;
  const skc::scan_config cfg = config();
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

INSTANTIATE_TEST_SUITE_P(Algorithms, CudaScan, ::testing::ValuesIn(skc::all_scan_algorithms),
                         sk::test::param_name<scan_algorithm>);

}  // namespace
