// GoogleTest suite of the CUDA compactions at large sizes: every operation at random sizes
// between 2^24 and 2^25, and more than 2^31 one-byte items (64-bit offsets and counts); against
// the CPU serial loop. Every algorithm of scankit::cuda::all_compact_algorithms. Without a GPU
// every test skips; with SCANKIT_TEST_QUICK every test skips too (the sanitizer runs leave large
// sizes out), and the > 2^31-item test skips without enough free device memory.
//
// Environment: SCANKIT_TEST_SEED=N (replay), SCANKIT_TEST_VERBOSE=1 (print each case).
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "common/cuda_compact_test_util.hpp"

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
using namespace scankit::test;
using skc::compact_algorithm;

// Every operation at two random sizes between 2^24 and 2^25 (thousands of tiles of every
// kernel, and partial last tiles of any length), uint32 and uint64 items.
TEST_P(CudaCompact, EveryOpLargeSizes) {
  if (quick()) GTEST_SKIP() << "large sizes are skipped with SCANKIT_TEST_QUICK";
  std::uniform_int_distribution<std::int64_t> d(std::int64_t{1} << 24, std::int64_t{1} << 25);
  every_op<std::uint32_t>({d(sk::test::rng())}, {pattern::random4, pattern::runs});
  if (HasFailure()) return;
  every_op<std::uint64_t>({d(sk::test::rng())}, {pattern::random4});
}

TEST_P(CudaCompact, MoreThan2Pow31OneByteItems) {
  if (quick()) GTEST_SKIP() << "skipped with SCANKIT_TEST_QUICK";
  const std::int64_t n = (std::int64_t{1} << 31) + 4099;
  const auto c = cfg();
  const std::size_t need = skc::compact_workspace_bytes(n, 1, c);
  std::size_t free_b = 0, total_b = 0;
  ck(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  if (free_b < 2 * static_cast<std::size_t>(n) + need + (std::size_t{256} << 20))
    GTEST_SKIP() << "not enough free device memory";
  // Random items in 0..2 (zero about a third of the time), eight from each splitmix64 draw: the
  // standard distributions would take minutes for 2^31 items.
  std::vector<std::uint8_t> in(static_cast<std::size_t>(n));
  sk::test::splitmix64 g;
  for (std::int64_t i = 0; i < n; i += 8) {
    std::uint64_t z = g();
    for (std::int64_t b = i; b < std::min(n, i + 8); ++b, z >>= 8)
      in[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>((z & 0xFF) % 3);
  }
  in_.reserve(static_cast<std::size_t>(n)), out_.reserve(static_cast<std::size_t>(n)), count_.reserve(8);
  ws_.reserve(need);
  ck(cudaMemcpy(in_.p, in.data(), static_cast<std::size_t>(n), cudaMemcpyHostToDevice), "copy in");
  skc::remove_if(in_.as<std::uint8_t>(), out_.as<std::uint8_t>(), n, sk::is_nonzero<std::uint8_t>{},
                 count_.as<std::int64_t>(), ws_.p, need, stream_, c);  // keeps the zeros
  std::int64_t k = skc::read_count(count_.as<std::int64_t>(), stream_);
  const std::int64_t zeros = std::count(in.begin(), in.end(), std::uint8_t{0});
  ASSERT_EQ(k, zeros);
  skc::select_if(in_.as<std::uint8_t>(), out_.as<std::uint8_t>(), n, sk::is_nonzero<std::uint8_t>{},
                 count_.as<std::int64_t>(), ws_.p, need, stream_, c);
  k = skc::read_count(count_.as<std::int64_t>(), stream_);
  ASSERT_EQ(k, n - zeros);
  std::vector<std::uint8_t> got(static_cast<std::size_t>(k));
  ck(cudaMemcpy(got.data(), out_.p, got.size(), cudaMemcpyDeviceToHost), "copy out");
  std::vector<std::uint8_t> ref(static_cast<std::size_t>(n));
  const std::int64_t rk = sk::cpu::select_if(in.data(), ref.data(), n, sk::is_nonzero<std::uint8_t>{});
  ASSERT_EQ(rk, k);
  ASSERT_TRUE(std::equal(got.begin(), got.end(), ref.begin()));
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CudaCompact, ::testing::ValuesIn(skc::all_compact_algorithms),
                         sk::test::param_name<compact_algorithm>);

}  // namespace
