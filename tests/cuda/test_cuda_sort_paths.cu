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
  // Where a tile exists the plan must name it on a GPU with 227 KiB of shared memory per block
  // (smaller ones may fall back; the results are checked either way).
  const bool roomy = cuda::detail::radix::sort_device_info().smem_per_block_optin >= 227 * 1024;
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

// ---------------------------------------------------------------------------------------
// argsort with int64 positions (sort_config::positions): 32-bit positions between passes with
// the int64 write in the last pass (narrow), 64 bits throughout (wide, what n > 2^32 takes),
// and the automatic choice, on every onesweep tile, out of place (keys kept) and in place (the
// final copy widens), and argsort_without_keys (the last pass skips the keys' stores), against
// the serial stable reference. The workspace is exactly argsort_workspace_bytes, and the output
// is poisoned first, so an unwritten or half-written position fails.

/// argsort of `keys` with `cfg`, in place or not, against the stable serial reference; with
/// without_keys, argsort_without_keys (only the positions are compared).
template <class K>
::testing::AssertionResult argsort_positions_match(const std::vector<K>& keys, const sort_options& opts,
                                                   const cuda::sort_config& cfg, bool in_place,
                                                   bool without_keys = false) {
  const auto n = static_cast<std::int64_t>(keys.size());
  dmem in = upload(keys), kout(keys.size() * sizeof(K)), idx(keys.size() * sizeof(std::int64_t));
  poison(kout);
  poison(idx);
  const std::size_t wb = cuda::argsort_workspace_bytes(n, sizeof(K), 8, cfg);
  if (wb > cuda::sort_workspace_bytes(n, sizeof(K), 8, cfg))
    return ::testing::AssertionFailure() << "argsort_workspace_bytes above sort_workspace_bytes(8), n = " << n;
  dmem ws(wb);
  K* out = in_place ? in.as<K>() : kout.as<K>();
  if (without_keys) cuda::argsort_without_keys(in.as<K>(), out, idx.as<std::int64_t>(), n, ws.p, wb, nullptr, opts, cfg);
  else cuda::argsort(in.as<K>(), out, idx.as<std::int64_t>(), n, ws.p, wb, nullptr, opts, cfg);
  check(cudaDeviceSynchronize(), "argsort");
  auto want_idx = index_values<std::uint64_t>(n);
  auto want = keys;
  cpu::sort_pairs_serial(want.data(), want_idx.data(), n, opts);
  auto r = bitwise_equal(want_idx, download<std::uint64_t>(idx, keys.size()));
  if (!r)
    return r << " (int64 argsort positions, n = " << n << (in_place ? ", in place" : "")
             << (without_keys ? ", without keys)" : ")");
  if (without_keys) {
    if (!in_place && !bitwise_equal(keys, download<K>(in, keys.size())))
      return ::testing::AssertionFailure() << "argsort_without_keys wrote its input, n = " << n;
    return r;
  }
  r = bitwise_equal(want, download<K>(in_place ? in : kout, keys.size()));
  if (r && !in_place && !bitwise_equal(keys, download<K>(in, keys.size())))
    return ::testing::AssertionFailure() << "argsort wrote its input, n = " << n;
  return r;
}

template <class K>
void argsort_positions() {
  const auto t4 = tuning<K>(4);
  std::vector<std::int64_t> sizes{0, 1, 2, 3, 97, 10007, 65535, 65537, 100003};
  for (std::int64_t tile : {t4.main.tile(), t4.large.exists() ? t4.large.tile() : t4.main.tile()})
    for (std::int64_t k : {tile - 1, tile, tile + 1, 2 * tile + 1, 3 * tile - 1}) sizes.push_back(k);
  if (!quick()) {
    sizes.push_back((std::int64_t{1} << 20) - 1);
    sizes.push_back((std::int64_t{1} << 20) + 1);
    sizes.push_back(1234567);
  }
  // The sanitize tier runs one (positions, tile, direction) per size, in turn.
  variant_turns turns(3 * 3 * 2);
  for (auto n : sizes)
    for (auto positions : {cuda::sort_positions::narrow, cuda::sort_positions::wide, cuda::sort_positions::automatic})
      for (auto tile : {cuda::sort_tile::automatic, cuda::sort_tile::main, cuda::sort_tile::large})
        for (bool desc : {false, true}) {
          if (!turns.run()) continue;
          const cuda::sort_config cfg{.tile = tile, .positions = positions};
          const sort_options opts{.descending = desc};
          SCOPED_TRACE(::testing::Message() << "n = " << n << ", positions " << cuda::name(positions) << ", "
                                            << cuda::name(tile) << (desc ? ", descending" : "") << ": "
                                            << cuda::plan_argsort(n, sizeof(K), 8, opts, cfg).describe());
          // (The largest sizes on the automatic tile only; in place, where the final copy
          // widens, with narrow positions only.)
          if (n > 200000 && tile != cuda::sort_tile::automatic) continue;
          for (auto p : {key_pattern::random, key_pattern::special}) {
            const auto keys = make_keys<K>(n, p);
            ASSERT_TRUE(argsort_positions_match(keys, opts, cfg, false));
            ASSERT_TRUE(argsort_positions_match(keys, opts, cfg, false, true));
            if (positions == cuda::sort_positions::narrow) {
              ASSERT_TRUE(argsort_positions_match(keys, opts, cfg, true));
              ASSERT_TRUE(argsort_positions_match(keys, opts, cfg, true, true));
            }
          }
        }
  // A bit range of one digit (one active pass: the first pass is also the last) and of three.
  for (std::int64_t n : {std::int64_t{10007}, onesweep_large_tile<K>(4) + 1}) {
    const cuda::sort_config cfg{.tile = cuda::sort_tile::large, .positions = cuda::sort_positions::narrow};
    for (sort_options opts : {sort_options{.begin_bit = 0, .end_bit = 8}, sort_options{.begin_bit = 3, .end_bit = 7},
                              sort_options{.descending = true, .begin_bit = 1, .end_bit = 21}})
      if (opts.end_bit <= static_cast<int>(8 * sizeof(K)))
        for (bool without_keys : {false, true})
          ASSERT_TRUE(argsort_positions_match(make_keys<K>(n, key_pattern::random), opts, cfg, false, without_keys));
  }
}

#define ARGSORT_POSITIONS_TEST_FOR(K, NAME) \
  TEST(CudaSortPaths, NAME##_ArgsortPositions) { \
    SKIP_WITHOUT_GPU();                          \
    argsort_positions<K>();                      \
  }

FOR_EACH_KEY_TYPE(ARGSORT_POSITIONS_TEST_FOR)

// Which argsorts carry 32-bit positions (host arithmetic, no GPU needed): automatic from the
// tuning's size on a onesweep tile, narrow wherever a onesweep tile runs and n <= 2^32, never
// wide, beyond 2^32 keys, on the one-block sort or with the other algorithms; and the
// workspace that follows.
TEST(CudaSortPaths, ArgsortPositionsPlan) {
  if (cuda::detail::radix::sort_device_info().smem_per_block_optin < 227 * 1024)
    GTEST_SKIP() << "smaller GPU";
  using cuda::sort_positions;
  const std::int64_t big = std::int64_t{1} << 28, over = (std::int64_t{1} << 32) + 1;
  for (std::size_t kb : {1, 2, 4, 8}) {
    SCOPED_TRACE(::testing::Message() << kb << "-byte keys");
    const auto t = cuda::detail::radix::sort_tuning_for(kb, 4, 90);
    const bool auto_narrow = t.narrow_positions_from > 0;
    EXPECT_EQ(cuda::plan_argsort(big, kb).narrow_positions, auto_narrow);
    if (auto_narrow) {
      EXPECT_TRUE(cuda::plan_argsort(t.narrow_positions_from, kb).narrow_positions);
      EXPECT_FALSE(cuda::plan_argsort(t.narrow_positions_from - 1, kb).narrow_positions);
    }
    // Narrow runs on the tile of 4-byte values.
    const auto narrow = cuda::plan_argsort(big, kb, 8, {}, {.positions = sort_positions::narrow});
    EXPECT_TRUE(narrow.narrow_positions);
    EXPECT_EQ(narrow.tile, cuda::plan_sort(big, kb, 4).tile);
    EXPECT_EQ(narrow.items, cuda::plan_sort(big, kb, 4).items);
    EXPECT_NE(narrow.describe().find("int64 positions"), std::string::npos);
    EXPECT_TRUE(
        cuda::plan_argsort(100003, kb, 8, {}, {.tile = cuda::sort_tile::main, .positions = sort_positions::narrow})
            .narrow_positions);
    // Wide: the 8-byte values' plan.
    const auto wide = cuda::plan_argsort(big, kb, 8, {}, {.positions = sort_positions::wide});
    EXPECT_FALSE(wide.narrow_positions);
    EXPECT_EQ(wide.items, cuda::plan_sort(big, kb, 8).items);
    // Beyond 2^32 keys positions need 64 bits, whatever the config.
    EXPECT_FALSE(cuda::plan_argsort(over, kb, 8, {}, {.positions = sort_positions::narrow}).narrow_positions);
    EXPECT_FALSE(cuda::plan_argsort(over, kb).narrow_positions);
    EXPECT_TRUE(cuda::plan_argsort(std::int64_t{1} << 32, kb, 8, {}, {.positions = sort_positions::narrow})
                    .narrow_positions);
    // The one-block sort, the other algorithms, 32-bit outputs, nothing to sort.
    EXPECT_FALSE(cuda::plan_argsort(1000, kb, 8, {}, {.positions = sort_positions::narrow}).narrow_positions);
    EXPECT_FALSE(cuda::plan_argsort(big, kb, 8, {},
                                    {.algorithm = sort_algorithm::lsd_reduce_then_scan,
                                     .positions = sort_positions::narrow})
                     .narrow_positions);
    EXPECT_FALSE(cuda::plan_argsort(big, kb, 4, {}, {.positions = sort_positions::narrow}).narrow_positions);
    EXPECT_FALSE(cuda::plan_argsort(1, kb, 8, {}, {.positions = sort_positions::narrow}).narrow_positions);
    EXPECT_FALSE(
        cuda::plan_argsort(big, kb, 8, {.begin_bit = 2, .end_bit = 2}, {.positions = sort_positions::narrow})
            .narrow_positions);
    // Workspace: narrow has an alternate buffer of 4-byte positions, n * 4 bytes below wide,
    // and sort_workspace_bytes with 8-byte values covers both.
    for (std::int64_t n : {std::int64_t{2}, std::int64_t{100003}, big}) {
      for (auto tile : cuda::all_sort_tiles)
        for (auto positions : {sort_positions::automatic, sort_positions::narrow, sort_positions::wide}) {
          const cuda::sort_config cfg{.tile = tile, .positions = positions};
          EXPECT_LE(cuda::argsort_workspace_bytes(n, kb, 8, cfg), cuda::sort_workspace_bytes(n, kb, 8, cfg));
        }
      if (n == big) {
        const auto nb = cuda::argsort_workspace_bytes(n, kb, 8, {.positions = sort_positions::narrow});
        const auto wb = cuda::argsort_workspace_bytes(n, kb, 8, {.positions = sort_positions::wide});
        EXPECT_EQ(nb, cuda::sort_workspace_bytes(n, kb, 4));
        EXPECT_EQ(wb, cuda::sort_workspace_bytes(n, kb, 8));
        EXPECT_LT(nb + static_cast<std::size_t>(n) * 3, wb);
      }
    }
    EXPECT_EQ(cuda::argsort_workspace_bytes(100003, kb, 4), cuda::sort_workspace_bytes(100003, kb, 4));
  }
  EXPECT_THROW(cuda::plan_argsort(10, 4, 2), invalid_argument);
  EXPECT_THROW(cuda::argsort_workspace_bytes(10, 4, 16), invalid_argument);
  EXPECT_EQ(cuda::name(cuda::sort_positions::narrow), "narrow");
}

// The plan: a forced path is taken where it exists, and otherwise the automatic choice is;
// the automatic choice follows the table's thresholds. Host arithmetic with reference_device_info's limits
// when there is no GPU (skipped on GPUs with less shared memory, where tiles may not fit).
TEST(CudaSortPaths, ForcedPathsFallBackToTheAutomaticChoice) {
  if (cuda::detail::radix::sort_device_info().smem_per_block_optin < 227 * 1024)
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
  if (cuda::detail::radix::sort_device_info().smem_per_block_optin < 227 * 1024)
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
