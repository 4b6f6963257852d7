// GoogleTest suite of the CUDA compactions' argument checks: bad arguments (negative sizes, null
// pointers, short or missing workspace, overlapping ranges, in-place calls an algorithm does
// not take, block sizes the kernels do not take, host containers that do not fit) throw
// scankit::invalid_argument before anything runs and leave the input unchanged; out-of-range
// settings of compact_config throw (no GPU needed). Without a GPU the per-algorithm tests skip.
//
// Environment: SCANKIT_TEST_SEED=N (replay).
#include <cstdint>
#include <span>
#include <vector>

#include "common/cuda_compact_test_util.hpp"

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
using namespace scankit::test;
using skc::compact_algorithm;

TEST_P(CudaCompact, InvalidArgumentsThrowAndLeaveInputIntact) {
  const std::int64_t n = 1000;
  const auto in = pattern_input<std::uint32_t>(n, pattern::random4);
  const auto c = cfg();
  in_.reserve(n * 4), out_.reserve(n * 4), count_.reserve(8);
  ck(cudaMemcpy(in_.p, in.data(), n * 4, cudaMemcpyHostToDevice), "copy");
  const std::size_t need = skc::compact_workspace_bytes(n, 4, c);
  ws_.reserve(need);
  auto* d_in = in_.as<std::uint32_t>();
  auto* d_out = out_.as<std::uint32_t>();
  auto* d_count = count_.as<std::int64_t>();
  const sk::is_nonzero<std::uint32_t> p{};
  EXPECT_THROW(skc::select_if(d_in, d_out, -1, p, d_count, ws_.p, need, stream_, c), sk::invalid_argument);
  EXPECT_THROW(skc::select_if<std::uint32_t>(nullptr, d_out, n, p, d_count, ws_.p, need, stream_, c), sk::invalid_argument);
  EXPECT_THROW(skc::select_if<std::uint32_t>(d_in, nullptr, n, p, d_count, ws_.p, need, stream_, c), sk::invalid_argument);
  EXPECT_THROW(skc::select_if(d_in, d_out, n, p, nullptr, ws_.p, need, stream_, c), sk::invalid_argument);
  EXPECT_THROW(skc::select_if(d_in, d_out, n, p, d_count, ws_.p, need - 1, stream_, c), sk::invalid_argument);
  EXPECT_THROW(skc::select_if(d_in, d_out, n, p, d_count, nullptr, need, stream_, c), sk::invalid_argument);
  EXPECT_THROW(skc::select_if(d_in, d_in + 1, n, p, d_count, ws_.p, need, stream_, c), sk::invalid_argument);
  EXPECT_THROW(skc::partition(d_in, d_in, n, p, sk::rejected_order::reversed, d_count, ws_.p, need, stream_, c),
               sk::invalid_argument);
  skc::compact_config bad = c;
  bad.block_size = 100;
  EXPECT_THROW(skc::select_if(d_in, d_out, n, p, d_count, ws_.p, need, stream_, bad), sk::invalid_argument);
  EXPECT_THROW((void)skc::compact_workspace_bytes(n, 4, bad), sk::invalid_argument);
  bad.block_size = 512;
  EXPECT_THROW((void)skc::compact_workspace_bytes(n, 4, bad), sk::invalid_argument);
  if (GetParam() == compact_algorithm::scan_scatter)
    EXPECT_THROW(skc::select_if(d_in, d_in, n, p, d_count, ws_.p, need, stream_, c), sk::invalid_argument);
  EXPECT_THROW(skc::unique(d_in, d_in, n, sk::equal_to<std::uint32_t>{}, d_count, ws_.p, need, stream_, c),
               sk::invalid_argument);
  std::vector<std::uint32_t> small(10);
  EXPECT_THROW(skc::select_if(std::span<const std::uint32_t>(in), std::span<std::uint32_t>(small), p, c),
               sk::invalid_argument);
  std::vector<std::uint32_t> back(in.size());
  ck(cudaMemcpy(back.data(), d_in, n * 4, cudaMemcpyDeviceToHost), "copy back");
  EXPECT_EQ(back, in);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CudaCompact, ::testing::ValuesIn(skc::all_compact_algorithms),
                         sk::test::param_name<compact_algorithm>);

// Out-of-range single-pass settings throw before anything runs (no GPU needed).
TEST(CudaCompactApi, InvalidConfigThrows) {
  auto throws = [](auto edit) {
    skc::compact_config cfg;
    edit(cfg);
    EXPECT_THROW((void)skc::compact_workspace_bytes(1000, 4, cfg), sk::invalid_argument);
  };
  throws([](skc::compact_config& c) { c.tuning.specialized_shape = 2; });
  throws([](skc::compact_config& c) { c.tuning.specialized_shape = -1; });
  throws([](skc::compact_config& c) { c.tuning.specialized_from_bytes = -1; });
  throws([](skc::compact_config& c) { c.tuning.first_delay_ns = 2000000u; });
  throws([](skc::compact_config& c) { c.tuning.prefetch = static_cast<skc::compact_prefetch>(7); });
  throws([](skc::compact_config& c) { c.scan.tuning.load_window_tiles = -1; c.algorithm = compact_algorithm::scan_scatter; });
  skc::compact_config ok;
  ok.tile = skc::compact_tile::specialized;
  ok.tuning.prefetch = skc::compact_prefetch::on;
  ok.tuning.specialized_shape = 1;
  ok.tuning.specialized_from_bytes = 0;
  ok.tuning.first_delay_ns = 0u;
  EXPECT_NO_THROW((void)skc::compact_workspace_bytes(1000, 4, ok));
}

}  // namespace
