// CUDA sorts: every path of the onesweep sort forced through sort_config::tile (one-block,
// counting, small, main, large) at small sizes against the serial reference, every key type,
// keys, pairs, argsort, in place, both directions; and the plan's choice and fallback
// (plan_sort, host arithmetic, no GPU needed).
//
//   SCANKIT_TEST_QUICK=1  small sizes, no large-size test.
//   SCANKIT_TEST_TIER=sanitize  the quick sizes, one key pattern and direction per size (every
//                         forced tile and value size still runs): for compute-sanitizer runs.
//   SCANKIT_TEST_SEED=N   replays a run.
#include "common/cuda_sort_test_util.hpp"

namespace {

using namespace scankit;
using namespace scankit::test;
using cuda::sort_algorithm;

// ---------------------------------------------------------------------------------------
// Every path of the onesweep sort, forced through sort_config::tile at small sizes (a few
// tiles at most): 0, 1, 2, a prime, tile - 1, tile, tile + 1, a few tiles, against the serial
// reference, keys and pairs (4-, 8-, 16-byte values), argsort, in place, both directions.

/// Whether a forced tile exists for these sizes (sort_tile's documentation: otherwise the sort
/// falls back to the automatic choice).
bool tile_exists(cuda::sort_tile tile, std::size_t kb, std::size_t vb, std::int64_t n) {
  const auto t = cuda::detail::radix::sort_tuning_for(kb, vb, 90);
  switch (tile) {
    case cuda::sort_tile::automatic:
      return true;
    case cuda::sort_tile::one_block:
      return n <= t.one_block_limit();
    case cuda::sort_tile::counting:
      return kb == 1 && vb == 0;
    case cuda::sort_tile::small:
      return t.small.exists();
    case cuda::sort_tile::main:
      return true;
    case cuda::sort_tile::large:
      return t.large.exists();
  }
  return false;
}

/// The sizes a forced path is checked at.
template <class K>
std::vector<std::int64_t> forced_path_sizes(cuda::sort_tile tile, std::size_t vb) {
  const auto t = tuning<K>(vb);
  std::vector<std::int64_t> sizes{0, 1, 2, 3, 97};
  if (tile == cuda::sort_tile::one_block) {
    const int most = t.one_block_items, eight = std::min(8, most);
    for (std::int64_t b : {256, 512, 1024, 256 * eight, 256 * most, 512 * most, 1024 * most})
      for (std::int64_t k : {b - 1, b, b + 1})
        if (k <= t.one_block_limit()) sizes.push_back(k);
    return sizes;
  }
  std::int64_t tile_keys = 4096;  // counting: any size; a few of its 16-key vectors
  if (tile == cuda::sort_tile::small) tile_keys = t.small.tile();
  if (tile == cuda::sort_tile::main) tile_keys = t.main.tile();
  if (tile == cuda::sort_tile::large) tile_keys = t.large.tile();
  for (std::int64_t k :
       {tile_keys - 1, tile_keys, tile_keys + 1, 2 * tile_keys + 1, 3 * tile_keys - 1})
    sizes.push_back(k);
  sizes.push_back(quick() ? 10007 : 3 * tile_keys + 4099);
  return sizes;
}

template <class K>
void forced_path(cuda::sort_tile tile) {
  const cuda::sort_config cfg{.algorithm = sort_algorithm::onesweep, .tile = tile};
  // Where a tile exists the plan must name it on a GPU with the H100's shared memory (smaller
  // ones may fall back; the results are checked either way).
  const bool roomy = cuda::detail::radix::current_device_limits().shared_per_block >= 227 * 1024;
  for (std::size_t vb : {0, 4, 8, 16}) {
    if (!tile_exists(tile, sizeof(K), vb, 2)) continue;
    variant_turns turns(2 * 2);  // the sanitize tier: one direction and pattern per size
    for (std::int64_t n : forced_path_sizes<K>(tile, vb))
      for (bool desc : {false, true}) {
        const sort_options opts{.descending = desc};
        SCOPED_TRACE(::testing::Message() << cuda::name(tile) << ", n = " << n << ", value bytes "
                                          << vb << (desc ? ", descending" : ""));
        const auto plan = cuda::plan_sort(n, sizeof(K), vb, opts, cfg);
        if (roomy && n >= 2) ASSERT_EQ(plan.tile, tile) << plan.describe();
        for (auto p : {key_pattern::random, key_pattern::special}) {
          if (!turns.run()) continue;
          if (vb == 0) {
            const auto keys = make_keys<K>(n, p);
            auto want = keys;
            cpu::sort_keys_serial(want.data(), n, opts);
            ASSERT_TRUE(gpu_keys_match(keys, want, opts, cfg, false));
            ASSERT_TRUE(gpu_keys_match(keys, want, opts, cfg, true));
          } else if (vb == 4) {
            ASSERT_TRUE((gpu_pairs_match<K, std::uint32_t>(n, p, opts, cfg, false)));
            ASSERT_TRUE((gpu_argsort_match<K, std::uint32_t>(make_keys<K>(n, p), opts, cfg)));
          } else if (vb == 8) {
            ASSERT_TRUE((gpu_pairs_match<K, std::uint64_t>(n, p, opts, cfg, false)));
            ASSERT_TRUE((gpu_pairs_match<K, std::uint64_t>(n, p, opts, cfg, true)));
            ASSERT_TRUE(gpu_argsort_match(make_keys<K>(n, p), opts, cfg));
          } else {
            ASSERT_TRUE((gpu_pairs_match<K, value16>(n, p, opts, cfg, false)));
          }
        }
      }
  }
}

#define SORT_PATH_TESTS_FOR(K, NAME)            \
  TEST(CudaSortPaths, NAME##_OneBlock) {        \
    SKIP_WITHOUT_GPU();                         \
    forced_path<K>(cuda::sort_tile::one_block); \
  }                                             \
  TEST(CudaSortPaths, NAME##_Counting) {        \
    SKIP_WITHOUT_GPU();                         \
    forced_path<K>(cuda::sort_tile::counting);  \
  }                                             \
  TEST(CudaSortPaths, NAME##_Small) {           \
    SKIP_WITHOUT_GPU();                         \
    forced_path<K>(cuda::sort_tile::small);     \
  }                                             \
  TEST(CudaSortPaths, NAME##_Main) {            \
    SKIP_WITHOUT_GPU();                         \
    forced_path<K>(cuda::sort_tile::main);      \
  }                                             \
  TEST(CudaSortPaths, NAME##_Large) {           \
    SKIP_WITHOUT_GPU();                         \
    forced_path<K>(cuda::sort_tile::large);     \
  }

FOR_EACH_KEY_TYPE(SORT_PATH_TESTS_FOR)

// The plan: a forced path is taken where it exists, and otherwise the automatic choice is;
// the automatic choice follows the table's thresholds. Host arithmetic with the H100's limits
// when there is no GPU (skipped on GPUs with less shared memory, where tiles may not fit).
TEST(CudaSortPaths, ForcedPathsFallBackToTheAutomaticChoice) {
  if (cuda::detail::radix::current_device_limits().shared_per_block < 227 * 1024)
    GTEST_SKIP() << "smaller GPU";
  for (std::size_t kb : {1, 2, 4, 8})
    for (std::size_t vb : {0, 4, 8, 16})
      for (std::int64_t n :
           {std::int64_t{2}, std::int64_t{5000}, std::int64_t{100003}, std::int64_t{1} << 25}) {
        const auto automatic = cuda::plan_sort(n, kb, vb);
        for (auto tile : cuda::all_sort_tiles) {
          const auto forced = cuda::plan_sort(n, kb, vb, {}, {.tile = tile});
          SCOPED_TRACE(::testing::Message() << kb << "-byte keys, " << vb << "-byte values, n = "
                                            << n << ", " << cuda::name(tile));
          if (tile_exists(tile, kb, vb, n))
            EXPECT_EQ(forced.tile, tile == cuda::sort_tile::automatic ? automatic.tile : tile);
          else
            EXPECT_EQ(forced.tile, automatic.tile);
          EXPECT_EQ(forced.copy_only, false);
          EXPECT_FALSE(forced.describe().empty());
        }
        const auto t = cuda::detail::radix::sort_tuning_for(kb, vb, 90);
        if (n <= t.one_block_limit())
          EXPECT_EQ(automatic.tile, cuda::sort_tile::one_block);
        else if (kb == 1 && vb == 0)
          EXPECT_EQ(automatic.tile, cuda::sort_tile::counting);
        else if (t.large.exists() && n >= t.large_from)
          EXPECT_EQ(automatic.tile, cuda::sort_tile::large);
        else if (t.small.exists() && n < t.small_below)
          EXPECT_EQ(automatic.tile, cuda::sort_tile::small);
        else
          EXPECT_EQ(automatic.tile, cuda::sort_tile::main);
      }
  // One-byte keys over part of their bits are no counting sort; n <= 1 and empty ranges copy.
  EXPECT_EQ(
      cuda::plan_sort(100003, 1, 0, {.begin_bit = 1}, {.tile = cuda::sort_tile::counting}).tile,
      cuda::sort_tile::main);
  EXPECT_TRUE(cuda::plan_sort(1, 4, 0).copy_only);
  EXPECT_TRUE(cuda::plan_sort(100, 4, 0, {.begin_bit = 3, .end_bit = 3}).copy_only);
  EXPECT_EQ(
      cuda::plan_sort(100003, 4, 0, {}, {.algorithm = sort_algorithm::lsd_reduce_then_scan}).tile,
      cuda::sort_tile::automatic);
  EXPECT_THROW(cuda::plan_sort(10, 3, 0), invalid_argument);
  EXPECT_THROW(cuda::plan_sort(10, 4, 0, {.end_bit = 40}), invalid_argument);
  EXPECT_FALSE(cuda::sort_tuning_description(4, 4).empty());
}

// A forced path sizes its own workspace: the bytes for a forced tile serve the forced sort,
// and the one-block path needs none.
TEST(CudaSortPaths, WorkspaceFollowsTheForcedPath) {
  if (cuda::detail::radix::current_device_limits().shared_per_block < 227 * 1024)
    GTEST_SKIP() << "smaller GPU";
  for (std::size_t kb : {1, 2, 4, 8})
    for (std::size_t vb : {0, 4, 8, 16}) {
      EXPECT_EQ(cuda::sort_workspace_bytes(1000, kb, vb, {.tile = cuda::sort_tile::one_block}), 0u);
      EXPECT_GT(cuda::sort_workspace_bytes(1000, kb, vb, {.tile = cuda::sort_tile::main}), 0u);
      // The small tile forced above its bound takes more look-back words than the main tile.
      const auto t = cuda::detail::radix::sort_tuning_for(kb, vb, 90);
      if (t.small.exists())
        EXPECT_GT(
            cuda::sort_workspace_bytes(4 * t.small_below, kb, vb, {.tile = cuda::sort_tile::small}),
            cuda::sort_workspace_bytes(4 * t.small_below, kb, vb));
    }
}

}  // namespace
