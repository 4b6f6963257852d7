// GoogleTest suite of the CUDA compactions' API, item types and operations
// (scankit/cuda/compact.hpp): every algorithm of scankit::cuda::all_compact_algorithms, through
// the public API only, against the CPU serial loop (scankit::cpu, algorithm serial_loop): every
// operation on every item type, a user struct with its own predicate and equivalence, the
// selection patterns, block sizes, threshold and index predicates, host containers and
// stream-ordered counts. The other concerns have their own programs: test_cuda_compact_paths
// (forced tiles, prefetch, misaligned pointers), _determinism, _large and _invalid.
//
// Each test is parametrised by the algorithm. Without a GPU every test skips.
//
// Environment: SCANKIT_TEST_QUICK=1 (small sizes), SCANKIT_TEST_TIER=sanitize (fewer sizes,
// patterns and operations per size, test_util.hpp: for compute-sanitizer runs),
// SCANKIT_TEST_SEED=N (replay), SCANKIT_TEST_VERBOSE=1 (print each case).
//
// The built-in types and predicates come from the library; the struct item type and the
// index predicate are instantiated here from scankit/cuda/compact.cuh, as a user's .cu would.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "common/cuda_compact_test_util.hpp"

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
using namespace scankit::test;
using skc::compact_algorithm;

// Every operation at every size (the sanitize tier too: this is where each operation meets
// every tile's edges), the patterns in turn at that tier.
TEST_P(CudaCompact, Uint32AllPatterns) {
  every_op<std::uint32_t>(sizes_up_to(quick() ? 1 << 15 : 1 << 20), all_patterns, 0, /*all_ops=*/true);
}

TEST_P(CudaCompact, EveryType) {
  const auto sizes = sizes_up_to(quick() ? 1 << 14 : 1 << 18);
  const std::vector<pattern> pats{pattern::random4, pattern::runs};
  every_op<std::int32_t>(sizes, pats);
  every_op<std::int64_t>(sizes, pats);
  every_op<std::uint64_t>(sizes, pats);
  every_op<float>(sizes, pats);
  every_op<double>(sizes, pats);
  every_op<std::uint8_t>(sizes, pats);
}

TEST_P(CudaCompact, UserStruct) {
  every_op<particle>(sizes_up_to(quick() ? 1 << 14 : 1 << 18), all_patterns);
}

TEST_P(CudaCompact, BlockSizes) {
  const auto sizes = sizes_up_to(quick() ? 1 << 14 : 1 << 18);
  for (int block : {64, 128, 256}) {
    every_op<std::uint32_t>(sizes, {pattern::random4}, block);
    every_op<double>(sizes, {pattern::random4}, block);
  }
}

TEST_P(CudaCompact, ThresholdPredicates) {
  const std::int64_t n = quick() ? 50001 : 3000017;
  const auto in = sk::test::random_values<float>(n);
  std::vector<float> out(in.size()), ref(in.size());
  const auto c = cfg();
  sk::cpu::compact_config rc;
  rc.algorithm = sk::cpu::compact_algorithm::serial_loop;
  for (float th : {-0.5f, 0.0f, 0.9f}) {
    auto k = skc::select_if(std::span<const float>(in), std::span<float>(out), sk::less_than<float>{th}, c);
    auto rk = sk::cpu::select_if(in.data(), ref.data(), n, sk::less_than<float>{th}, rc);
    ASSERT_EQ(k, rk);
    ASSERT_TRUE(std::equal(out.begin(), out.begin() + k, ref.begin()));
    k = skc::partition(std::span<const float>(in), std::span<float>(out), sk::greater_than<float>{th},
                       sk::rejected_order::original, c);
    rk = sk::cpu::partition(in.data(), ref.data(), n, sk::greater_than<float>{th}, sk::rejected_order::original, rc);
    ASSERT_EQ(k, rk);
    ASSERT_EQ(out, ref);
  }
}

TEST_P(CudaCompact, SelectIndicesWithIndexPredicate) {
  const auto sizes = sizes_up_to(quick() ? 1 << 15 : 1 << 21);
  for (std::int64_t n : sizes) {
    const sk::test::hashed_index pred{sk::test::rng()()};
    const auto c = cfg();
    idx_.reserve(static_cast<std::size_t>(n) * 8), count_.reserve(8);
    const std::size_t need = skc::compact_workspace_bytes(n, 0, c);
    ws_.reserve(need);
    ck(cudaMemsetAsync(idx_.p, 0xA5, static_cast<std::size_t>(n) * 8, stream_), "poison");
    skc::select_indices(n, pred, idx_.as<std::int64_t>(), count_.as<std::int64_t>(), ws_.p, need, stream_, c);
    const std::int64_t k = skc::read_count(count_.as<std::int64_t>(), stream_);
    std::vector<std::int64_t> ref(static_cast<std::size_t>(n));
    const std::int64_t rk = sk::cpu::select_indices(n, pred, ref.data(), {sk::cpu::compact_algorithm::serial_loop});
    ASSERT_EQ(k, rk) << "n=" << n;
    std::vector<std::int64_t> got(static_cast<std::size_t>(k));
    ck(cudaMemcpy(got.data(), idx_.p, got.size() * 8, cudaMemcpyDeviceToHost), "copy");
    ASSERT_TRUE(std::equal(got.begin(), got.end(), ref.begin())) << "n=" << n;
  }
}

TEST_P(CudaCompact, HostContainers) {
  const std::int64_t n = quick() ? 40009 : 2000003;
  const auto in = pattern_input<std::int64_t>(n, pattern::runs);
  std::vector<std::int64_t> out(in.size()), ref(in.size()), counts(in.size()), ref_counts(in.size());
  const auto c = cfg();
  sk::cpu::compact_config rc;
  rc.algorithm = sk::cpu::compact_algorithm::serial_loop;
  std::span<const std::int64_t> s(in);
  auto k = skc::remove_if(s, std::span<std::int64_t>(out), sk::is_nonzero<std::int64_t>{}, c);
  auto rk = sk::cpu::remove_if(in.data(), ref.data(), n, sk::is_nonzero<std::int64_t>{}, rc);
  ASSERT_EQ(k, rk);
  ASSERT_TRUE(std::equal(out.begin(), out.begin() + k, ref.begin()));
  k = skc::unique_count(s, std::span<std::int64_t>(out), std::span<std::int64_t>(counts), sk::equal_to<std::int64_t>{}, c);
  rk = sk::cpu::unique_count(in.data(), ref.data(), ref_counts.data(), n, sk::equal_to<std::int64_t>{}, rc);
  ASSERT_EQ(k, rk);
  ASSERT_TRUE(std::equal(out.begin(), out.begin() + k, ref.begin()));
  ASSERT_TRUE(std::equal(counts.begin(), counts.begin() + k, ref_counts.begin()));
  k = skc::nonzero(s, std::span<std::int64_t>(counts), c);
  rk = sk::cpu::nonzero(in.data(), ref_counts.data(), n, rc);
  ASSERT_EQ(k, rk);
  ASSERT_TRUE(std::equal(counts.begin(), counts.begin() + k, ref_counts.begin()));
  std::vector<std::uint8_t> flags(in.size());
  for (std::size_t i = 0; i < flags.size(); ++i) flags[i] = static_cast<std::uint8_t>(in[i] & 1);
  k = skc::select_flagged(s, std::span<const std::uint8_t>(flags), std::span<std::int64_t>(out), c);
  rk = sk::cpu::select_flagged(in.data(), flags.data(), ref.data(), n, rc);
  ASSERT_EQ(k, rk);
  ASSERT_TRUE(std::equal(out.begin(), out.begin() + k, ref.begin()));
  // Empty input.
  std::vector<std::int64_t> empty;
  EXPECT_EQ(skc::unique(std::span<const std::int64_t>(empty), std::span<std::int64_t>(empty), sk::equal_to<std::int64_t>{}, c), 0);
}

TEST_P(CudaCompact, CountStaysOnDeviceForStreamOrderedUse) {
  // Two compactions back to back on one stream with no synchronisation between them; the
  // second one's count is checked, and the first's count is still in its own slot.
  const std::int64_t n = 100003;
  const auto in = pattern_input<std::int32_t>(n, pattern::random4);
  const auto c = cfg();
  in_.reserve(n * 4), out_.reserve(n * 4), count_.reserve(16);
  ck(cudaMemcpyAsync(in_.p, in.data(), n * 4, cudaMemcpyHostToDevice, stream_), "copy");
  const std::size_t need = skc::compact_workspace_bytes(n, 4, c);
  ws_.reserve(need);
  auto* counts = count_.as<std::int64_t>();
  skc::remove_if(in_.as<std::int32_t>(), out_.as<std::int32_t>(), n, sk::is_nonzero<std::int32_t>{}, counts, ws_.p,
                 need, stream_, c);
  skc::select_if(in_.as<std::int32_t>(), out_.as<std::int32_t>(), n, sk::greater_than<std::int32_t>{1}, counts + 1,
                 ws_.p, need, stream_, c);
  const std::int64_t second = skc::read_count(counts + 1, stream_);
  const std::int64_t first = skc::read_count(counts, stream_);
  EXPECT_EQ(first, std::count(in.begin(), in.end(), 0));
  EXPECT_EQ(second, std::count_if(in.begin(), in.end(), [](int x) { return x > 1; }));
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CudaCompact, ::testing::ValuesIn(skc::all_compact_algorithms),
                         sk::test::param_name<compact_algorithm>);

TEST(CudaCompactApi, AlgorithmNamesRoundTrip) {
  for (auto a : skc::all_compact_algorithms) EXPECT_EQ(skc::parse_compact_algorithm(skc::name(a)), a);
  EXPECT_FALSE(skc::parse_compact_algorithm("nope").has_value());
}

}  // namespace
