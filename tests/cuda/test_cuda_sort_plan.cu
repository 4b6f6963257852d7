// CUDA sorts: the plan (detail/sort/plan.cuh) and its workspace, on the host only. plan_for is a
// pure function of the request and a device_info, so these tests describe devices instead of
// asking the driver: they never call the CUDA runtime and run without a GPU.
//
// For each described device, key and value size, bit range, algorithm and forced path, over
// sizes around the one-block limit and the tiles and past 2^30 and 2^31: the chosen path runs on
// that device (its shared memory fits), tiles cover n in portions whose counts fit the look-back
// words, the workspace holds the alternate buffers and never shrinks as n grows, a forced path
// is taken wherever it applies, and the same inputs give the same plan.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/described_devices.hpp"
#include "scankit/cuda/detail/sort/launch.cuh"

namespace {

using namespace scankit;
using namespace scankit::cuda;
using cuda::detail::device_info;
namespace radix = cuda::detail::radix;

using described = scankit::test::described_device;
const std::vector<described>& devices() { return scankit::test::described_devices(); }
const described& by_name(const char* name) { return scankit::test::described_device_named(name); }

constexpr std::size_t key_sizes[] = {1, 2, 4, 8};
constexpr std::size_t value_sizes[] = {0, 4, 8, 16};

/// The sizes around every boundary of one key and value size: 0, 1, small, the one-block limit,
/// each tile and its thresholds (+-1), and past 2^30 and 2^31.
std::vector<std::int64_t> sizes_for(std::size_t kb, std::size_t vb, const device_info& dev) {
  const radix::sort_tuning t = radix::sort_tuning_for(kb, vb, dev.arch);
  std::vector<std::int64_t> n = {0, 1, 2, 100, 4096};
  const auto around = [&](std::int64_t x) {
    if (x <= 0) return;
    for (std::int64_t d : {-1, 0, 1})
      if (x + d >= 0) n.push_back(x + d);
  };
  around(t.one_block_limit());
  for (const radix::onesweep_shape& s : {t.main, t.small, t.large, t.reduced})
    if (s.exists()) around(s.tile()), around(2 * s.tile());
  around(t.small_below);
  around(t.large_from);
  around(t.narrow_positions_from);
  n.push_back((std::int64_t{1} << 30) + 1);
  n.push_back((std::int64_t{1} << 31) + 1);
  return n;
}

struct bits {
  int begin, end;
};
std::vector<bits> ranges_for(std::size_t kb) {
  const int all = static_cast<int>(8 * kb);
  return {{0, all}, {0, all / 2}, {3, 3}, {all - 1, all}, {1, all - 1}};
}

bool same(const sort_plan& a, const sort_plan& b) {
  return a.algorithm == b.algorithm && a.copy_only == b.copy_only && a.tile == b.tile && a.reduced == b.reduced &&
         a.block == b.block && a.items == b.items && a.min_blocks == b.min_blocks && a.stage_early == b.stage_early &&
         a.shared_bytes == b.shared_bytes && a.tuning_arch == b.tuning_arch &&
         a.narrow_positions == b.narrow_positions;
}

bool is_onesweep_tile(sort_tile t) { return t == sort_tile::small || t == sort_tile::main || t == sort_tile::large; }

/// The shape the plan names, from the tuning table.
radix::onesweep_shape shape_of(const sort_plan& p, const radix::sort_tuning& t) {
  switch (p.tile) {
    case sort_tile::small: return t.small;
    case sort_tile::large: return t.large;
    case sort_tile::main: return p.reduced ? t.reduced : t.main;
    default: return {};
  }
}

std::string where(const described& d, std::int64_t n, std::size_t kb, std::size_t vb, bits r, const sort_config& c) {
  return std::string(d.name) + " n=" + std::to_string(n) + " keys " + std::to_string(kb) + "B values " +
         std::to_string(vb) + "B bits [" + std::to_string(r.begin) + "," + std::to_string(r.end) + ") " +
         std::string(name(c.algorithm)) + " tile " + std::string(name(c.tile));
}

TEST(CudaSortPlan, EveryPathRunsOnItsDeviceAndForcedPathsAreHonoured) {
  for (const described& d : devices())
    for (std::size_t kb : key_sizes)
      for (std::size_t vb : value_sizes) {
        const radix::sort_tuning t = radix::sort_tuning_for(kb, vb, d.info.arch);
        for (std::int64_t n : sizes_for(kb, vb, d.info))
          for (bits r : ranges_for(kb))
            for (sort_algorithm a : all_sort_algorithms)
              for (sort_tile forced : all_sort_tiles) {
                const sort_config cfg{.algorithm = a, .tile = forced};
                SCOPED_TRACE(where(d, n, kb, vb, r, cfg));
                const sort_plan p = radix::plan_for(n, kb, vb, r.begin, r.end, cfg, d.info);
                ASSERT_TRUE(same(p, radix::plan_for(n, kb, vb, r.begin, r.end, cfg, d.info)));
                EXPECT_EQ(p.algorithm, a);
                EXPECT_EQ(p.copy_only, n <= 1 || r.begin == r.end);
                EXPECT_EQ(p.tuning_arch, d.info.arch >= 90 ? 90 : 80);
                if (p.copy_only || a != sort_algorithm::onesweep) {
                  EXPECT_EQ(p.tile, sort_tile::automatic);
                  continue;
                }
                ASSERT_NE(p.tile, sort_tile::automatic);
                // The path can run here: its shared memory (and the static reserve) fits.
                EXPECT_LE(p.shared_bytes + radix::static_shared_reserve, d.info.smem_per_block_optin);
                const bool full = r.begin == 0 && r.end == static_cast<int>(8 * kb);
                switch (p.tile) {
                  case sort_tile::one_block:
                    EXPECT_LE(n, t.one_block_limit());
                    EXPECT_GE(std::int64_t{p.block} * p.items, n);  // one tile covers n
                    break;
                  case sort_tile::counting:
                    EXPECT_TRUE(kb == 1 && vb == 0 && full);
                    break;
                  default: {
                    ASSERT_TRUE(is_onesweep_tile(p.tile));
                    const radix::onesweep_shape s = shape_of(p, t);
                    ASSERT_TRUE(s.exists());
                    EXPECT_EQ(p.block, s.block);
                    EXPECT_EQ(p.items, s.items);
                    EXPECT_EQ(p.min_blocks, s.min_blocks);
                    EXPECT_EQ(p.stage_early, s.stage_early);
                    EXPECT_EQ(p.reduced, p.tile == sort_tile::main && !(s == t.main));
                    // Tiles cover n, a portion at a time, each portion's counts within 30 bits.
                    const std::int64_t tile = s.tile();
                    const std::int64_t portion = radix::portion_tiles(tile) * tile;
                    EXPECT_LT(portion, std::int64_t{1} << 30);
                    EXPECT_GE(cuda::detail::ceil_div(n, portion) * portion, n);
                    EXPECT_GE(cuda::detail::ceil_div(n, tile) * tile, n);
                    EXPECT_LT((cuda::detail::ceil_div(n, tile) - 1) * tile, n);
                  }
                }
                // A forced path is taken wherever it applies, else the automatic choice stands.
                const auto fits = [&](std::size_t bytes) {
                  return bytes + radix::static_shared_reserve <= d.info.smem_per_block_optin;
                };
                const radix::path_shared_bytes bytes = radix::shared_bytes_for(
                    kb, vb, radix::one_block_shape_for(std::min(n, t.one_block_limit()), t.one_block_items));
                bool applies = true;
                switch (forced) {
                  case sort_tile::automatic: break;
                  case sort_tile::main: break;
                  case sort_tile::one_block: applies = n <= t.one_block_limit() && fits(bytes.one_block); break;
                  case sort_tile::counting: applies = kb == 1 && vb == 0 && full; break;
                  case sort_tile::small: applies = t.small.exists() && fits(bytes.small); break;
                  case sort_tile::large: applies = t.large.exists() && fits(bytes.large); break;
                }
                if (forced != sort_tile::automatic && applies) {
                  EXPECT_EQ(p.tile, forced);
                } else {
                  EXPECT_TRUE(same(p, radix::plan_for(n, kb, vb, r.begin, r.end, {.algorithm = a}, d.info)));
                }
              }
      }
}

TEST(CudaSortPlan, WorkspaceHoldsTheBuffersAndNeverShrinks) {
  for (const described& d : devices())
    for (std::size_t kb : key_sizes)
      for (std::size_t vb : value_sizes) {
        const int all = static_cast<int>(8 * kb);
        std::size_t last = 0;
        std::int64_t last_n = 0;
        std::vector<std::int64_t> ns = sizes_for(kb, vb, d.info);
        std::sort(ns.begin(), ns.end());
        for (std::int64_t n : ns) {
          SCOPED_TRACE(std::string(d.name) + " n=" + std::to_string(n) + " keys " + std::to_string(kb) + " values " +
                       std::to_string(vb));
          const sort_plan p = radix::plan_for(n, kb, vb, 0, all, {}, d.info);
          const std::size_t bytes = radix::workspace_bytes(n, kb, vb, p);
          if (p.copy_only || p.tile == sort_tile::one_block) {
            EXPECT_EQ(bytes, 0u);
          } else {
            EXPECT_GE(bytes, static_cast<std::size_t>(n) * (kb + vb));
            EXPECT_GE(bytes, last) << "smaller than for n=" << last_n;
          }
          last = std::max(last, bytes), last_n = n;
        }
      }
}

TEST(CudaSortPlan, NarrowPositions) {
  for (const described& d : devices())
    for (std::size_t kb : key_sizes) {
      const int all = static_cast<int>(8 * kb);
      const radix::sort_tuning t = radix::sort_tuning_for(kb, 4, d.info.arch);
      for (std::int64_t n : {std::int64_t{2}, t.narrow_positions_from, std::int64_t{1} << 32,
                             (std::int64_t{1} << 32) + 1}) {
        SCOPED_TRACE(std::string(d.name) + " n=" + std::to_string(n) + " keys " + std::to_string(kb));
        EXPECT_FALSE(radix::narrow_positions(n, kb, 0, all, {.positions = sort_positions::wide}, d.info));
        const bool narrow = radix::narrow_positions(n, kb, 0, all, {.positions = sort_positions::narrow}, d.info);
        const sort_plan p = radix::plan_for(n, kb, 4, 0, all, {}, d.info);
        EXPECT_EQ(narrow, n <= (std::int64_t{1} << 32) && !p.copy_only && is_onesweep_tile(p.tile));
        const bool automatic = radix::narrow_positions(n, kb, 0, all, {}, d.info);
        if (automatic) EXPECT_TRUE(narrow && t.narrow_positions_from > 0 && n >= t.narrow_positions_from);
        EXPECT_EQ(automatic, radix::narrow_positions(n, kb, 0, all, {}, d.info));
      }
    }
}

TEST(CudaSortPlan, ChoicesForDescribedDevices) {
  // The automatic choices the tuning table makes on each described device (a change to the
  // table or the plan shows here first).
  struct row {
    const char* device;
    std::size_t kb, vb;
    std::int64_t n;
    sort_tile tile;
    bool reduced;
    int block, items;
  };
  constexpr std::int64_t M = std::int64_t{1} << 20;
  const row rows[] = {
      {"sm90_132sms", 4, 0, 256 * M, sort_tile::main, false, 512, 22},
      {"sm90_132sms", 4, 4, 256 * M, sort_tile::large, false, 512, 40},
      {"sm90_132sms", 4, 4, 16 * M - 1, sort_tile::main, false, 384, 28},
      {"sm90_132sms", 4, 0, 4096, sort_tile::one_block, false, 256, 16},
      {"sm90_132sms", 1, 0, M, sort_tile::counting, false, 0, 0},
      {"sm90_132sms", 1, 8, 100000, sort_tile::small, false, 256, 8},
      {"sm90_132sms", 8, 16, 256 * M, sort_tile::large, false, 384, 16},
      {"sm80_108sms", 4, 4, 256 * M, sort_tile::main, false, 384, 28},  // the large tile needs more shared memory
      {"sm80_108sms", 8, 16, 256 * M, sort_tile::large, false, 384, 16},
      {"sm120_46sms", 4, 4, M, sort_tile::main, true, 384, 12},  // main's reduced stand-in
      {"sm120_46sms", 8, 16, 256 * M, sort_tile::main, false, 256, 8},
  };
  for (const row& r : rows) {
    const described& d = by_name(r.device);
    SCOPED_TRACE(std::string(d.name) + " n=" + std::to_string(r.n) + " keys " + std::to_string(r.kb) + " values " +
                 std::to_string(r.vb));
    const sort_plan p = radix::plan_for(r.n, r.kb, r.vb, 0, static_cast<int>(8 * r.kb), {}, d.info);
    EXPECT_EQ(p.tile, r.tile);
    EXPECT_EQ(p.reduced, r.reduced);
    EXPECT_EQ(p.block, r.block);
    EXPECT_EQ(p.items, r.items);
  }
}

}  // namespace
