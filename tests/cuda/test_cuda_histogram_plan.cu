// CUDA histograms: the plan (detail/histogram/plan.hpp), on the host only. plan_histogram_for is a
// pure function of the request and a device_info, so these tests describe devices instead of
// asking the driver: they never call the CUDA runtime and run without a GPU.
//
// For each described device, sample size, bin count, algorithm, forced layout and block size:
// the chosen layout runs on that device (its counters fit the shared memory a block may have),
// the counters hold every bin, a forced layout is taken wherever it fits, a block size asked
// for is kept, bad requests throw, and the same inputs give the same plan.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/described_devices.hpp"
#include "scankit/cuda/detail/histogram/plan.hpp"

namespace {

using namespace scankit;
using namespace scankit::cuda;
using cuda::detail::device_info;
namespace hist = cuda::detail::hist;
using strategy = histogram_plan::strategy;

using described = scankit::test::described_device;
const std::vector<described>& devices() { return scankit::test::described_devices(); }
const described& by_name(const char* name) { return scankit::test::described_device_named(name); }

/// Bin counts around every layout's limit on this device and the tuning's thresholds.
std::vector<std::int64_t> bins_for(std::size_t sample_bytes, const device_info& dev) {
  const hist::histogram_tuning t = hist::histogram_tuning_for(sample_bytes, dev);
  const auto optin = static_cast<std::int64_t>(dev.smem_per_block_optin);
  std::vector<std::int64_t> b = {1, 2, 64, 256, 1000, 4096, std::int64_t{1} << 16, std::int64_t{1} << 20,
                                 std::int64_t{1} << 24};
  const auto around = [&](std::int64_t x) {
    for (std::int64_t d : {-1, 0, 1})
      if (x + d >= 1) b.push_back(x + d);
  };
  around(static_cast<std::int64_t>(t.lanes_max_bytes) / 4 / 32 - 1);  // the last bin count per lane
  around(static_cast<std::int64_t>(t.warps_max_bytes) / 4 / 2 - 1);   // ... with two warp copies
  around(static_cast<std::int64_t>(t.large_bytes) / 4 - 1);
  around(optin / 4 - 1);      // 32-bit counters
  around(optin / 4 * 2 - 2);  // 16-bit counters
  return b;
}

bool same(const histogram_plan& a, const histogram_plan& b) {
  return a.kind == b.kind && a.aggregate == b.aggregate && a.copies == b.copies && a.block_size == b.block_size &&
         a.shared_bytes == b.shared_bytes;
}

TEST(CudaHistogramPlan, EveryLayoutRunsOnItsDevice) {
  for (const described& d : devices())
    for (std::size_t sb : {1, 2, 4, 8})
      for (std::int64_t bins : bins_for(sb, d.info))
        for (histogram_algorithm a : all_histogram_algorithms)
          for (histogram_layout l : all_histogram_layouts)
            for (int block : {0, 64, 256, 1024}) {
              const histogram_options opts{.algorithm = a, .block_size = block, .layout = l};
              SCOPED_TRACE(std::string(d.name) + " samples " + std::to_string(sb) + "B bins " + std::to_string(bins) +
                           " " + std::string(name(a)) + " layout " + std::string(name(l)) + " block " +
                           std::to_string(block));
              const auto bytes32 = static_cast<std::size_t>(bins + 1) * 4;
              const bool privatized =
                  a == histogram_algorithm::shared_privatized || a == histogram_algorithm::shared_aggregated;
              if (privatized && bytes32 > d.info.smem_per_block_optin) {
                EXPECT_THROW(hist::plan_histogram_for(bins, sb, opts, d.info), invalid_argument);
                continue;
              }
              const histogram_plan p = hist::plan_histogram_for(bins, sb, opts, d.info);
              ASSERT_TRUE(same(p, hist::plan_histogram_for(bins, sb, opts, d.info)));
              // Runs here: the counters fit a block's shared memory, and hold every bin.
              EXPECT_LE(p.shared_bytes, d.info.smem_per_block_optin);
              EXPECT_GE(p.block_size, 64);
              EXPECT_LE(p.block_size, 1024);
              EXPECT_EQ(p.block_size % 32, 0);
              if (block) EXPECT_EQ(p.block_size, block);
              EXPECT_GE(p.copies, 1);
              switch (p.kind) {
                case strategy::global_blocked:
                case strategy::global_strided: EXPECT_EQ(p.shared_bytes, 0u); break;
                case strategy::shared32:
                  EXPECT_EQ(p.shared_bytes, bytes32 * static_cast<std::size_t>(p.copies));
                  EXPECT_LE(p.copies, p.block_size / 32);  // at most one copy per warp
                  EXPECT_EQ(p.copies & (p.copies - 1), 0);
                  break;
                case strategy::shared32_lanes: EXPECT_EQ(p.shared_bytes, bytes32 * 32); break;
                case strategy::shared16:
                  EXPECT_EQ(p.shared_bytes, static_cast<std::size_t>((bins + 2) / 2) * 4);
                  break;
              }
              // The algorithms other than adaptive name their strategy themselves.
              switch (a) {
                case histogram_algorithm::global_atomic_blocked: EXPECT_EQ(p.kind, strategy::global_blocked); break;
                case histogram_algorithm::global_atomic_interleaved: EXPECT_EQ(p.kind, strategy::global_strided); break;
                case histogram_algorithm::shared_privatized:
                case histogram_algorithm::shared_aggregated: EXPECT_EQ(p.kind, strategy::shared32); break;
                case histogram_algorithm::adaptive: break;
              }
              if (a != histogram_algorithm::adaptive) continue;
              // A forced layout is taken where its counters fit, else the automatic choice stands.
              const std::size_t optin = d.info.smem_per_block_optin;
              const int shared_block = block ? block : hist::histogram_tuning_for(sb, d.info).shared_block;
              bool taken = false;
              switch (l) {
                case histogram_layout::automatic: continue;
                case histogram_layout::lanes: taken = bytes32 * 32 <= optin; break;
                case histogram_layout::warps: taken = bytes32 * 2 <= optin && shared_block >= 64; break;
                case histogram_layout::block: taken = bytes32 <= optin; break;
                case histogram_layout::narrow16: taken = static_cast<std::size_t>((bins + 2) / 2) * 4 <= optin; break;
                case histogram_layout::global: taken = true; break;
              }
              if (!taken) {
                histogram_options automatic = opts;
                automatic.layout = histogram_layout::automatic;
                EXPECT_TRUE(same(p, hist::plan_histogram_for(bins, sb, automatic, d.info)));
                continue;
              }
              switch (l) {
                case histogram_layout::lanes: EXPECT_EQ(p.kind, strategy::shared32_lanes); break;
                case histogram_layout::warps: EXPECT_EQ(p.kind, strategy::shared32); break;
                case histogram_layout::block:
                  EXPECT_EQ(p.kind, strategy::shared32);
                  EXPECT_EQ(p.copies, 1);
                  break;
                case histogram_layout::narrow16: EXPECT_EQ(p.kind, strategy::shared16); break;
                case histogram_layout::global: EXPECT_EQ(p.kind, strategy::global_strided); break;
                case histogram_layout::automatic: break;
              }
            }
}

TEST(CudaHistogramPlan, BadRequestsThrow) {
  const device_info& dev = devices().front().info;
  EXPECT_THROW(hist::plan_histogram_for(0, 4, {}, dev), invalid_argument);
  EXPECT_THROW(hist::plan_histogram_for(-1, 4, {}, dev), invalid_argument);
  for (int block : {-64, 32, 96, 2048})
    EXPECT_THROW(hist::plan_histogram_for(256, 4, {.block_size = block}, dev), invalid_argument) << block;
}

TEST(CudaHistogramPlan, ChoicesForDescribedDevices) {
  // adaptive's automatic choices on each described device (a change to the table or the plan
  // shows here first).
  struct row {
    const char* device;
    std::size_t sample_bytes;
    std::int64_t bins;
    strategy kind;
    int copies, block;
  };
  const row rows[] = {
      {"sm90_132sms", 1, 256, strategy::shared32_lanes, 32, 512},   {"sm90_132sms", 4, 64, strategy::shared32, 16, 512},
      {"sm90_132sms", 4, 4096, strategy::shared32, 1, 512},         {"sm90_132sms", 4, 100000, strategy::shared16, 1, 1024},
      {"sm90_132sms", 2, std::int64_t{1} << 20, strategy::global_strided, 1, 256},
      {"sm120_46sms", 4, 25345, strategy::shared16, 1, 1024},  // 32-bit counters no longer fit
  };
  for (const row& r : rows) {
    const described& d = by_name(r.device);
    SCOPED_TRACE(std::string(d.name) + " samples " + std::to_string(r.sample_bytes) + " bins " +
                 std::to_string(r.bins));
    const histogram_plan p = hist::plan_histogram_for(r.bins, r.sample_bytes, {}, d.info);
    EXPECT_EQ(p.kind, r.kind);
    EXPECT_EQ(p.copies, r.copies);
    EXPECT_EQ(p.block_size, r.block);
  }
}

}  // namespace
