// Host-only tests of the GPU top-k's plan (scankit/cuda/detail/topk/plan.hpp): a pure function
// of the call and a device description, checked for every described device without a GPU (this
// program makes no CUDA call, so it runs in CI).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "common/described_devices.hpp"
#include "scankit/cuda/detail/topk/plan.hpp"

namespace {

namespace skc = scankit::cuda;
namespace dt = scankit::cuda::detail::topk;

const std::int64_t sizes[] = {0, 1, 2, 31, 32, 33, 1023, 1024, 1025, 65537, (std::int64_t{1} << 20) - 1,
                              std::int64_t{1} << 20, 1000003, (std::int64_t{1} << 28) + 3, (std::int64_t{1} << 31) + 1};

std::string trace(const char* dev, std::size_t bytes, std::int64_t n, std::int64_t k, skc::topk_path forced) {
  return std::string(dev) + " bytes " + std::to_string(bytes) + " n " + std::to_string(n) + " k " + std::to_string(k) +
         " forced " + std::string(skc::name(forced));
}

// One array: every forced path is taken as forced where it fits, automatic runs a small array
// as one row (warp or block) and a larger one by the grid-wide paths, and the sample's runs and
// the candidate buffer lie inside the array.
TEST(CudaTopkPlan, OneArrayPlansStayInsideTheArray) {
  for (const auto& dev : scankit::test::described_devices())
    for (std::size_t bytes : {1u, 2u, 4u, 8u})
      for (std::int64_t n : sizes)
        for (std::int64_t k : {std::int64_t{1}, std::int64_t{8}, std::int64_t{1024}, n / 2, n})
          for (skc::topk_path forced : {skc::topk_path::automatic, skc::topk_path::radix, skc::topk_path::sampled,
                                        skc::topk_path::block, skc::topk_path::warp}) {
            if (k < 1 || k > n) continue;
            SCOPED_TRACE(trace(dev.name, bytes, n, k, forced));
            const dt::plan p = dt::make_plan(n, k, bytes, n, false, skc::topk_config{forced}, dev.info);
            const bool warp_fits = k <= dt::warp_max_k && n <= std::int64_t{dt::warp_max_items} * 32;
            const bool block_fits = k <= skc::topk_block_max_k && n < (std::int64_t{1} << 32);
            const bool small = n <= dt::tuning_for(dev.info).block_shared_keys;
            const bool row_forced = forced == skc::topk_path::warp || forced == skc::topk_path::block;
            // Automatic: a larger array is one row where it splits into chunks whose winners one
            // block holds, up to chunked_max_n keys.
            const std::int64_t held =
                k <= skc::topk_block_max_k ? dt::block_shape_for(k, -1, bytes, dev.info).shared_keys : 0;
            const std::int64_t c = dt::chunk_for(n, k, held);
            const bool split = c > 0 && n <= dt::tuning_for(dev.info).chunked_max_n && (n + c - 1) / c * k <= held;
            const bool as_row = forced == skc::topk_path::automatic ? small || split : row_forced;
            if (as_row && !small && block_fits && !(warp_fits && forced != skc::topk_path::block)) EXPECT_EQ(p.chunk, c);
            if (forced == skc::topk_path::radix || forced == skc::topk_path::sampled) EXPECT_EQ(p.path, forced);
            if (as_row && warp_fits && forced != skc::topk_path::block) EXPECT_EQ(p.path, skc::topk_path::warp);
            else if (as_row && block_fits) EXPECT_EQ(p.path, skc::topk_path::block);
            else EXPECT_TRUE(p.path == skc::topk_path::radix || p.path == skc::topk_path::sampled);
            if (p.chunk > 0) EXPECT_EQ(p.path, skc::topk_path::block);
            if (p.path == skc::topk_path::warp || p.path == skc::topk_path::block) continue;  // one row: no sample
            EXPECT_GE(std::int64_t{1} << p.position_bits, n);
            EXPECT_EQ(p.rank_bits, static_cast<int>(bytes * 8));
            EXPECT_GE(p.pass_grid, 1);
            EXPECT_LE(p.capacity, n);
            EXPECT_GE(p.capacity, std::min<std::int64_t>(n, std::int64_t{1} << 16));
            if (p.path == skc::topk_path::sampled) {
              EXPECT_GE(p.group, 1);
              EXPECT_GE(p.groups, 1);
              EXPECT_GE(p.stride, p.group);  // runs never overlap
              EXPECT_LE((p.groups - 1) * p.stride + p.group, n);
              EXPECT_GE(p.sample_k, 1);
              EXPECT_LE(p.sample_k, p.groups * p.group);
            }
          }
}

// An empty array plans without sizing a sample, whatever path is forced.
TEST(CudaTopkPlan, EmptyArrayPlansForEveryPath) {
  for (const auto& dev : scankit::test::described_devices())
    for (skc::topk_path forced : skc::all_topk_paths)
      for (bool segmented : {false, true}) {
        SCOPED_TRACE(trace(dev.name, 4, 0, 0, forced));
        const dt::plan p = dt::make_plan(0, 0, 4, 0, segmented, skc::topk_config{forced}, dev.info);
        EXPECT_EQ(p.capacity, 0);
        EXPECT_EQ(p.groups, 0);
      }
}

// Segments: the warp path only where a row fits one warp's registers and k one winner per lane,
// the block path where k fits its shared memory, else the sort; a forced path is kept where it fits.
TEST(CudaTopkPlan, SegmentPathsFitTheirLimits) {
  const std::int64_t warp_items = std::int64_t{dt::warp_max_items} * 32;
  for (const auto& dev : scankit::test::described_devices())
    for (std::int64_t longest : {std::int64_t{1}, std::int64_t{32}, warp_items, warp_items + 1, std::int64_t{1} << 20})
      for (std::int64_t k : {std::int64_t{1}, std::int64_t{dt::warp_max_k}, std::int64_t{dt::warp_max_k} + 1,
                             skc::topk_block_max_k, skc::topk_block_max_k + 1})
        for (skc::topk_path forced : {skc::topk_path::automatic, skc::topk_path::warp, skc::topk_path::block,
                                      skc::topk_path::sort}) {
          if (k > longest) continue;
          SCOPED_TRACE(trace(dev.name, 4, longest, k, forced));
          const std::int64_t n = longest * 100;
          const dt::plan p = dt::make_plan(n, k, 4, longest, true, skc::topk_config{forced}, dev.info);
          const bool warp_fits = k <= dt::warp_max_k && longest <= warp_items;
          const bool block_fits = k <= skc::topk_block_max_k;
          if (p.path == skc::topk_path::warp) EXPECT_TRUE(warp_fits);
          if (p.path == skc::topk_path::block) EXPECT_TRUE(block_fits);
          if (forced == skc::topk_path::sort) EXPECT_EQ(p.path, skc::topk_path::sort);
          if (forced == skc::topk_path::block && block_fits) EXPECT_EQ(p.path, skc::topk_path::block);
          if (forced == skc::topk_path::warp && warp_fits) EXPECT_EQ(p.path, skc::topk_path::warp);
          if (forced == skc::topk_path::automatic)
            EXPECT_EQ(p.path, warp_fits ? skc::topk_path::warp : block_fits ? skc::topk_path::block : skc::topk_path::sort);
        }
}

// Split rows: chunks no longer than the block holds, of at least 2k keys (each level at least
// halves a row) with a last one of at least k, and the first level's winners counted for all
// rows; rows that fit the block, rows enough to fill the GPU one block each, and segments of
// unknown lengths are not split; topk_config::split forces the choice either way.
TEST(CudaTopkPlan, SplitRowsHaveChunksOfAtLeastTwiceK) {
  for (const auto& dev : scankit::test::described_devices())
    for (std::size_t bytes : {1u, 4u, 8u})
      for (std::int64_t cols : {std::int64_t{1000}, std::int64_t{8193}, std::int64_t{20000}, std::int64_t{131072},
                                std::int64_t{1} << 20, (std::int64_t{1} << 20) + 7})
        for (std::int64_t k : {std::int64_t{1}, std::int64_t{50}, std::int64_t{1024}, cols / 3})
          for (std::int64_t rows : {std::int64_t{1}, std::int64_t{3}, std::int64_t{4096}})
            for (skc::topk_path forced : {skc::topk_path::automatic, skc::topk_path::block, skc::topk_path::warp})
              for (skc::topk_split split : skc::all_topk_splits) {
                SCOPED_TRACE(trace(dev.name, bytes, cols, k, forced) + " rows " + std::to_string(rows) + " split " +
                             std::string(name(split)));
                const std::int64_t n = rows * cols;
                const skc::topk_config cfg{forced, split};
                const dt::plan p = dt::make_plan(n, k, bytes, cols, true, cfg, dev.info, true);
                const std::int64_t held = k <= skc::topk_block_max_k ? dt::block_shape_for(k, -1, bytes, dev.info).shared_keys : 0;
                const bool few = rows < std::int64_t{dev.info.sm_count} * dt::tuning_for(dev.info).split_rows_per_sm;
                const bool splits = split == skc::topk_split::always || (split == skc::topk_split::automatic && few);
                EXPECT_EQ(p.chunk, dt::chunk_for(cols, k, held) * (p.path == skc::topk_path::block && splits));
                if (p.chunk > 0) {
                  const std::int64_t per_row = (cols + p.chunk - 1) / p.chunk;
                  EXPECT_GT(cols, held);
                  EXPECT_LE(p.chunk, held);
                  EXPECT_GE(p.chunk, 2 * k);
                  EXPECT_GE(cols - (per_row - 1) * p.chunk, k);
                  EXPECT_EQ(p.chunk_winners, rows * per_row * k);
                  // Every later level writes fewer winners than the one before: the two buffers hold them.
                  for (std::int64_t cols_l = per_row * k, w = p.chunk_winners, level = 2;; ++level) {
                    const std::int64_t c = dt::chunk_for(cols_l, k, held);
                    if (c == 0) break;
                    const std::int64_t next = rows * ((cols_l + c - 1) / c) * k;
                    EXPECT_LT(next, w);
                    if (level == 2) EXPECT_EQ(next, p.next_winners);
                    w = next, cols_l = next / rows;
                  }
                  EXPECT_GE(dt::chunk_workspace_bytes(p, bytes), static_cast<std::size_t>(p.chunk_winners) * (bytes + 8));
                }
                // The same segments with unknown lengths are never split.
                EXPECT_EQ(dt::make_plan(n, k, bytes, n, true, cfg, dev.info).chunk, 0);
              }
}

}  // namespace
