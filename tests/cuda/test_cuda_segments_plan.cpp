// Host-only tests of the GPU segmented operations' plan (scankit/cuda/detail/segments/plan.hpp):
// a pure function of the call and a device description, checked for every described device
// without a GPU (this program makes no CUDA call, so it runs in CI).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "common/described_devices.hpp"
#include "scankit/cuda/detail/segments/plan.hpp"

namespace {

namespace skc = scankit::cuda;
namespace ds = scankit::cuda::detail::segments;

const std::int64_t sizes[] = {0, 1, 2, 4095, 4096, 4097, 1000003, (std::int64_t{1} << 31) + 1, std::int64_t{1} << 36};
const ds::operation operations[] = {ds::operation::reduce, ds::operation::scan_offsets, ds::operation::scan_heads,
                                    ds::operation::reduce_by_key};

TEST(CudaSegmentsPlan, TilesCoverTheWorkAndTheWorkspaceHoldsThem) {
  for (const auto& dev : scankit::test::described_devices())
    for (std::size_t bytes : {4u, 8u, 16u, 24u})
      for (ds::operation what : operations)
        for (std::int64_t n : sizes)
          for (std::int64_t segments : {std::int64_t{0}, std::int64_t{1}, n / 7 + 1, n + 5}) {
            SCOPED_TRACE(std::string(dev.name) + " bytes " + std::to_string(bytes) + " op " +
                         std::to_string(static_cast<int>(what)) + " n " + std::to_string(n) + " segments " +
                         std::to_string(segments));
            const ds::plan p = ds::make_plan(what, n, segments, bytes, {}, dev.info);
            EXPECT_FALSE(p.block_per_segment);
            EXPECT_EQ(p.two_pass, what == ds::operation::reduce);  // the reduction's default
            // Tiles by bounds hold a vector more than their work (their items may start up to a
            // vector into the tile's memory; a vector is one item where T does not tile 16 bytes).
            const std::int64_t vector = 16 % bytes == 0 ? static_cast<std::int64_t>(16 / bytes) : 1;
            const bool bounds = what == ds::operation::reduce || what == ds::operation::scan_offsets;
            EXPECT_EQ(p.tile_work, std::int64_t{ds::block_threads} * ds::row_items_for(bytes) - (bounds ? vector : 0));
            EXPECT_EQ(p.row_items * static_cast<int>(bytes) <= ds::row_bytes || p.row_items == 1, true);
            EXPECT_EQ(p.partition, bounds);
            const std::int64_t work = n + (bounds ? segments : 0);
            EXPECT_GE(p.tiles * p.tile_work, work);
            if (p.tiles > 0) EXPECT_LT((p.tiles - 1) * p.tile_work, work);
            // The public workspace query covers every operation's plan, with either reduction.
            EXPECT_LE(p.workspace, ds::workspace_for_any(n, bounds ? segments : 0, bytes, dev.info));
            for (auto algo : {skc::segments_algorithm::merge_path, skc::segments_algorithm::two_pass})
              EXPECT_LE(ds::make_plan(ds::operation::reduce, n, segments, bytes, skc::segments_config{algo}, dev.info).workspace,
                        ds::workspace_for_any(n, segments, bytes, dev.info));
            EXPECT_GT(p.workspace, 0u);
          }
}

TEST(CudaSegmentsPlan, ForcedAlgorithmsAndBadRequests) {
  const auto& d = scankit::test::described_device_named("sm90_132sms").info;
  const skc::segments_config classic{skc::segments_algorithm::block_per_segment};
  EXPECT_TRUE(ds::make_plan(ds::operation::reduce, 1000, 10, 4, classic, d).block_per_segment);
  const skc::segments_config look_back{skc::segments_algorithm::merge_path};
  const skc::segments_config two_pass{skc::segments_algorithm::two_pass};
  EXPECT_FALSE(ds::make_plan(ds::operation::reduce, 1000, 10, 4, look_back, d).two_pass);
  EXPECT_TRUE(ds::make_plan(ds::operation::reduce, 1000, 10, 4, two_pass, d).two_pass);
  for (ds::operation what : {ds::operation::scan_offsets, ds::operation::scan_heads, ds::operation::reduce_by_key}) {
    EXPECT_THROW(ds::make_plan(what, 1000, 10, 4, classic, d), scankit::invalid_argument);
    EXPECT_THROW(ds::make_plan(what, 1000, 10, 4, two_pass, d), scankit::invalid_argument);
  }
  EXPECT_THROW(ds::make_plan(ds::operation::reduce, -1, 0, 4, {}, d), scankit::invalid_argument);
  EXPECT_THROW(ds::make_plan(ds::operation::reduce, 10, -1, 4, {}, d), scankit::invalid_argument);
  EXPECT_THROW(ds::make_plan(ds::operation::reduce, 10, 1, 0, {}, d), scankit::invalid_argument);
}

TEST(CudaSegmentsPlan, TuningTableNamesEveryClass) {
  for (const auto& dev : scankit::test::described_devices()) {
    const ds::tuning t = ds::tuning_for(dev.info);
    EXPECT_GT(t.backoff_ns, 0u) << dev.name;
    EXPECT_GT(t.partition_threads, 0) << dev.name;
    EXPECT_EQ(t.partition_threads % 32, 0) << dev.name;
  }
}

}  // namespace
