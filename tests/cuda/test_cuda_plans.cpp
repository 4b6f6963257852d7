// Host-only GoogleTest suite of the CUDA plan functions (plan_scan, plan_compact): pure functions
// of (request, device_info), checked here for described devices without a GPU. This program
// never calls the CUDA runtime (it includes the plan headers only), so it runs in CI.
//
// Invariants checked for every device, item size, input size and forced path: the plan names a
// path (never automatic), its tile shape is valid, its tiles cover n, the workspace counts at
// least its tiles, a forced path is honoured wherever it applies, and equal inputs give equal
// plans. The devices' choices are pinned where the tuning says what they are.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/described_devices.hpp"
#include "scankit/cuda/detail/compact/plan.cuh"
#include "scankit/cuda/detail/launch_checks.hpp"
#include "scankit/cuda/detail/scan/plan.cuh"

namespace {

namespace skc = scankit::cuda;
namespace skd = scankit::cuda::detail;
namespace dl = scankit::cuda::detail::decoupled_lookback;
namespace dc = scankit::cuda::detail::compact;
using skc::compact_tile;
using skc::scan_path;

constexpr std::size_t KiB = 1024;

/// The device classes whose tables run the warp-specialized tiles (Hopper's bulk copies).
bool is_hopper_class(const skd::device_info& d) {
  const skd::device_class c = skd::class_of(d);
  return c == skd::device_class::hopper || c == skd::device_class::hopper_fast_memory;
}

/// A described device, with what the library's kernels can do there.
struct described {
  std::string name;
  skd::device_info info;
  bool hopper_code;         // the kernels carry sm_90 code for it
  int blocked_max_threads;  // the widest blocked-tile block whose shared memory fits
};

/// The shared descriptions (tests/common/described_devices.hpp), with what the kernels can do
/// on each: sm_90 code runs from compute capability 9.0 on; the widest blocked tile whose
/// shared memory fits is 1,024 threads from 163 KiB a block, 512 below.
std::vector<described> devices() {
  std::vector<described> v;
  for (const auto& d : scankit::test::described_devices())
    v.push_back({d.name, d.info, d.info.arch >= 90, d.info.smem_per_block_optin >= 163 * KiB ? 1024 : 512});
  return v;
}

/// Sizes around a tile of `tile` items, plus the edges every plan must handle.
std::vector<std::int64_t> sizes_around(std::int64_t tile) {
  return {1, 2, tile - 1, tile, tile + 1, 3 * tile + 7, std::int64_t{1} << 20, (std::int64_t{1} << 24) + 1,
          (std::int64_t{1} << 28) - 3, (std::int64_t{1} << 31) + 1};
}

// ---------------------------------------------------------------------------------------------
// plan_scan

constexpr std::size_t scan_item_sizes[] = {1, 2, 4, 8, 12, 16};

dl::scan_request scan_request_for(std::int64_t n, std::size_t item_bytes, bool aligned, int block,
                                  const described& d, const skd::scan_tuning_override& o = {}) {
  dl::scan_kernels k;
  k.specialized_code = d.hopper_code && (item_bytes == 4 || item_bytes == 8);
  k.blocked_max_threads = d.blocked_max_threads;
  return {n, item_bytes, aligned, block, k, o};
}

bool blocked_applies(std::size_t item_bytes, bool aligned) {
  return aligned && item_bytes <= 16 && 16 % item_bytes == 0;
}

/// The invariants of one scan plan.
void check_scan_plan(const dl::scan_plan& p, const dl::scan_request& r, const std::string& what) {
  SCOPED_TRACE(what + ": " + dl::describe(p));
  EXPECT_NE(p.path, scan_path::automatic);
  EXPECT_GE(p.block, 32);
  EXPECT_LE(p.block, 1024);
  EXPECT_EQ(p.block % 32, 0);
  EXPECT_GE(p.vectors, 1);
  EXPECT_GE(p.vector_items, 1);
  EXPECT_EQ(p.vector_items * static_cast<std::int64_t>(r.item_bytes) <= 16 || p.vector_items == 1, true);
  EXPECT_EQ(p.tile_items, std::int64_t{p.block} * p.vectors * p.vector_items);
  EXPECT_EQ(p.tiles, skd::ceil_div(r.n, p.tile_items));
  EXPECT_GE(p.tiles * p.tile_items, r.n) << "the tiles cover n";
  EXPECT_LT((p.tiles - 1) * p.tile_items, r.n) << "no empty tile";
  if (p.path != scan_path::one_launch) { EXPECT_LE(p.tiles, skd::max_launch_tiles) << "one launch's grid"; }
  // The workspace counts tiles of block x min_tile_items_per_thread items: never fewer than the plan's.
  EXPECT_LE(p.tiles, skd::ceil_div(r.n, std::int64_t{r.block} * dl::min_tile_items_per_thread));
  EXPECT_GE(dl::workspace_bytes(r.n, r.item_bytes, r.block), skd::align_up(16));
  if (p.vector_items > 1) { EXPECT_TRUE(r.aligned) << "vectors need aligned pointers"; }
  switch (p.path) {
    case scan_path::blocked:
    case scan_path::one_tile_per_sm:
    case scan_path::windowed:
      EXPECT_TRUE(blocked_applies(r.item_bytes, r.aligned));
      EXPECT_LE(p.block, std::max(r.block, r.kernels.blocked_max_threads));
      break;
    case scan_path::specialized:
      EXPECT_TRUE(r.kernels.specialized_code);
      EXPECT_GT(p.tiles, 1);
      break;
    default: break;
  }
  if (p.path == scan_path::windowed) { EXPECT_GT(p.tiles, p.load_window); }
  if (p.path != scan_path::windowed) { EXPECT_EQ(p.load_window, 0); }
}

TEST(CudaDeviceClass, EachDescribedDeviceFallsInItsClass) {
  using skd::device_class;
  auto class_named = [](const char* name) { return skd::class_of(scankit::test::described_device_named(name).info); };
  EXPECT_EQ(class_named("sm90_132sms"), device_class::hopper);                            // H100-like
  EXPECT_EQ(class_named("sm90_132sms_faster_memory"), device_class::hopper_fast_memory);  // H200-like
  EXPECT_EQ(class_named("sm80_108sms"), device_class::ampere);                            // A100-like
  EXPECT_EQ(class_named("sm89_46sms"), device_class::ampere);
  EXPECT_EQ(class_named("sm120_46sms"), device_class::ampere);  // newer, but Ampere-sized shared memory
  skd::device_info newer = scankit::test::described_device_named("sm90_132sms_faster_memory").info;
  newer.arch = 100;
  EXPECT_EQ(skd::class_of(newer), device_class::hopper_fast_memory);
  skd::device_info older = scankit::test::described_device_named("sm80_108sms").info;
  older.arch = 75;
  EXPECT_EQ(skd::class_of(older), device_class::portable);
  EXPECT_EQ(skd::class_of(skd::device_info{}), device_class::portable);  // nothing known
  for (const auto& d : scankit::test::described_devices()) EXPECT_STRNE(skd::name_of(skd::class_of(d.info)), "?");
}

TEST(CudaScanPlan, InvariantsOnEveryDevice) {
  for (const described& d : devices())
    for (std::size_t ib : scan_item_sizes)
      for (int block : {dl::default_block_size, 64, 1024})
        for (bool aligned : {true, false})
          for (scan_path path : skc::all_scan_paths) {
            const dl::scan_tuning tu = dl::tuning_for_size(ib, d.info);
            const int V = ib <= 16 && 16 % ib == 0 ? static_cast<int>(16 / ib) : 1;
            const std::int64_t tile = std::int64_t{tu.block_size} * tu.blocked_vectors * V;
            for (std::int64_t n : sizes_around(tile)) {
              skd::scan_tuning_override o;
              o.path = path;
              const dl::scan_request r = scan_request_for(n, ib, aligned, block, d, o);
              const dl::scan_plan p = dl::plan_scan(r, d.info);
              const std::string what = d.name + ", " + std::to_string(ib) + "-byte items, n=" + std::to_string(n) +
                                       ", block " + std::to_string(block) + (aligned ? "" : ", misaligned") +
                                       ", forced " + std::string(skc::name(path));
              check_scan_plan(p, r, what);
              EXPECT_EQ(p, dl::plan_scan(r, d.info)) << what << ": equal inputs, equal plans";
              if (HasFailure()) return;
            }
          }
}

// Each forced path is taken wherever it applies.
TEST(CudaScanPlan, ForcedPathsAreHonoured) {
  for (const described& d : devices())
    for (std::size_t ib : scan_item_sizes) {
      const dl::scan_tuning tu = dl::tuning_for_size(ib, d.info);
      const std::int64_t n = std::int64_t{1} << 22;
      auto plan = [&](scan_path path, int block, bool aligned, skd::scan_tuning_override o = {}) {
        o.path = path;
        return dl::plan_scan(scan_request_for(n, ib, aligned, block, d, o), d.info);
      };
      const std::string what = d.name + ", " + std::to_string(ib) + "-byte items";
      EXPECT_EQ(plan(scan_path::one_launch, 256, true).path, scan_path::one_launch) << what;
      EXPECT_EQ(plan(scan_path::striped, 256, false).path, scan_path::striped) << what;
      EXPECT_EQ(plan(scan_path::striped, 128, true).path, scan_path::striped) << what;
      if (blocked_applies(ib, true)) {
        EXPECT_EQ(plan(scan_path::blocked, 128, true).path, scan_path::blocked) << what;
        skd::scan_tuning_override w;
        w.load_window_tiles = 2;
        EXPECT_EQ(plan(scan_path::windowed, tu.block_size, true, w).path, scan_path::windowed) << what;
        EXPECT_EQ(plan(scan_path::windowed, tu.block_size, true, w).load_window, 2) << what;
      } else {
        EXPECT_NE(plan(scan_path::blocked, 256, true).path, scan_path::blocked) << what << ": does not apply";
      }
      EXPECT_NE(plan(scan_path::blocked, 256, false).path, scan_path::blocked) << what << ": misaligned";
      const bool specialized = (ib == 4 || ib == 8) && d.hopper_code;
      EXPECT_EQ(plan(scan_path::specialized, tu.block_size, true).path == scan_path::specialized, specialized) << what;
    }
}

// The forced one-tile-per-SM path widens the block to make at most one tile per SM.
TEST(CudaScanPlan, OneTilePerSmWidensTheBlock) {
  for (const described& d : devices()) {
    const dl::scan_tuning tu = dl::tuning_for_size(8, d.info);
    const std::int64_t n = std::int64_t{d.info.sm_count} * tu.block_size * tu.blocked_vectors * 2 + 1;
    skd::scan_tuning_override o;
    o.path = scan_path::one_tile_per_sm;
    const dl::scan_plan p = dl::plan_scan(scan_request_for(n, 8, true, tu.block_size, d, o), d.info);
    EXPECT_EQ(p.path, scan_path::one_tile_per_sm) << d.name << ": " << dl::describe(p);
    EXPECT_LE(p.tiles, d.info.sm_count) << d.name << ": " << dl::describe(p);
    EXPECT_GT(p.block, tu.block_size) << d.name;
  }
}

// The automatic choices the tuning tables state, for the tuned block and aligned pointers.
TEST(CudaScanPlan, AutomaticChoicesFollowTheTuning) {
  for (const described& d : devices()) {
    auto path = [&](std::int64_t n, std::size_t ib) {
      return dl::plan_scan(scan_request_for(n, ib, true, dl::default_block_size, d), d.info).path;
    };
    const bool hopper = d.hopper_code && is_hopper_class(d.info);  // the classes with bulk copies
    const std::string what = d.name;
    EXPECT_EQ(path(1000, 4), scan_path::one_launch) << what;
    EXPECT_EQ(path(8192, 4), scan_path::one_launch) << what;
    EXPECT_EQ(path(4096, 8), scan_path::one_launch) << what;
    EXPECT_EQ(path(std::int64_t{1} << 20, 4), scan_path::striped) << what;
    EXPECT_EQ(path(std::int64_t{1} << 22, 4), scan_path::striped) << what;
    EXPECT_EQ(path((std::int64_t{1} << 22) + 1, 4), hopper ? scan_path::specialized : scan_path::striped) << what;
    EXPECT_EQ(path(std::int64_t{1} << 24, 4), hopper ? scan_path::specialized : scan_path::blocked) << what;
    EXPECT_EQ(path((std::int64_t{1} << 21) + 1, 8), hopper ? scan_path::specialized : scan_path::windowed) << what;
    EXPECT_EQ(path(std::int64_t{1} << 16, 16), scan_path::blocked) << what;
    EXPECT_EQ(path(std::int64_t{1} << 20, 12), scan_path::striped) << what << ": no vectors";
  }
}

// The plan reads the architecture and SM count only: the memory system's fields change nothing.
TEST(CudaScanPlan, SameArchitectureAndSmsSamePlans) {
  const auto ds = devices();
  const described &a = ds[0], &b = ds[1];
  for (std::size_t ib : scan_item_sizes)
    for (std::int64_t n : sizes_around(12288))
      for (scan_path path : skc::all_scan_paths) {
        skd::scan_tuning_override o;
        o.path = path;
        EXPECT_EQ(dl::plan_scan(scan_request_for(n, ib, true, 256, a, o), a.info),
                  dl::plan_scan(scan_request_for(n, ib, true, 256, b, o), b.info));
      }
}

// ---------------------------------------------------------------------------------------------
// plan_compact

/// The selectors a compaction may run: predicates and run starts (items), flags, indices only.
struct selector_kind {
  const char* name;
  bool reads_items, flag_words, items_out, indices_out;
};
constexpr selector_kind selector_kinds[] = {{"select_if", true, false, true, false},
                                            {"select_flagged", true, true, true, false},
                                            {"nonzero", true, false, false, true},
                                            {"select_indices", false, false, false, true}};

dc::compact_request compact_request_for(std::int64_t n, std::size_t item_bytes, const selector_kind& k, bool aligned,
                                        int block, const described& d, compact_tile tile = compact_tile::automatic,
                                        const skd::compact_tuning_override& o = {}) {
  dc::compact_request r{.n = n,
                        .item_bytes = item_bytes,
                        .reads_items = k.reads_items,
                        .flag_words = k.flag_words,
                        .items_out = k.items_out,
                        .indices_out = k.indices_out,
                        .aligned = aligned && k.items_out,
                        .block = block,
                        .prefetch_pays = item_bytes == 4 && !k.flag_words,
                        .segmented_prefetch_pays = (item_bytes == 4 || item_bytes == 8) && !k.flag_words,
                        .tile = tile,
                        .kernels = {},
                        .tuning = o};
  r.kernels.specialized_code = d.hopper_code && (item_bytes == 4 || item_bytes == 8);
  return r;
}

/// Items per tile of the kernel the plan runs.
std::int64_t compact_tile_items(const dc::compact_plan& p, const dc::compact_request& r) {
  const std::size_t ib = r.reads_items ? r.item_bytes : sizeof(unsigned);
  const std::int64_t V = ib <= 16 && 16 % ib == 0 ? static_cast<std::int64_t>(16 / ib) : 1;
  switch (p.tile) {
    case compact_tile::segmented: return std::int64_t{dc::segmented_vectors_per_thread} * r.block * V;
    case compact_tile::specialized: {
      const auto shapes = ib == 4 ? dc::specialized_shapes<4>() : dc::specialized_shapes<8>();
      const auto& sh = shapes[static_cast<std::size_t>(p.specialized_shape)];
      return std::int64_t{sh.consumers} * sh.vectors_per_thread * V;
    }
    default: return std::int64_t{dc::vectors_per_thread_for(ib, p.tile)} * r.block * V;
  }
}

void check_compact_plan(const dc::compact_plan& p, const dc::compact_request& r, const std::string& what) {
  SCOPED_TRACE(what + ": tile " + std::string(skc::name(p.tile)));
  EXPECT_NE(p.tile, compact_tile::automatic);
  const bool vector_tiles = r.reads_items && (r.item_bytes == 4 || r.item_bytes == 8) && r.items_out &&
                            !r.indices_out && r.block == 256 && r.aligned;
  if (p.tile == compact_tile::segmented) { EXPECT_TRUE(vector_tiles); }
  if (p.tile == compact_tile::specialized) { EXPECT_TRUE(vector_tiles && r.kernels.specialized_code); }
  if (p.tile != compact_tile::segmented) { EXPECT_EQ(p.first_delay_ns, 0u); }
  if (p.tile == compact_tile::specialized) { EXPECT_FALSE(p.prefetch); }
  const std::int64_t tile = compact_tile_items(p, r);
  ASSERT_GT(tile, 0);
  const std::int64_t tiles = skd::ceil_div(r.n, tile);
  EXPECT_GE(tiles * tile, r.n);
  EXPECT_LE(tiles, skd::max_launch_tiles);
  if (p.tile == compact_tile::specialized) { EXPECT_GT(tiles, 1); }
  // The workspace counts tiles of tile_items_for items: never fewer than the plan's.
  const std::size_t ib = r.reads_items ? r.item_bytes : 0;
  EXPECT_LE(tiles, skd::ceil_div(r.n, dc::tile_items_for(r.n, ib, r.block, r.tile)));
}

TEST(CudaCompactPlan, InvariantsOnEveryDevice) {
  for (const described& d : devices())
    for (std::size_t ib : {std::size_t{1}, std::size_t{4}, std::size_t{8}, std::size_t{16}})
      for (const selector_kind& k : selector_kinds)
        for (int block : {dc::default_block_size, 64})
          for (bool aligned : {true, false})
            for (compact_tile tile : skc::all_compact_tiles)
              for (skc::compact_prefetch pf : skc::all_compact_prefetches)
                for (int shape : {0, 1})
                  for (std::int64_t n : sizes_around(8192)) {
                    skd::compact_tuning_override o;
                    o.prefetch = pf;
                    o.specialized_shape = shape;
                    const dc::compact_request r = compact_request_for(n, ib, k, aligned, block, d, tile, o);
                    const dc::compact_plan p = dc::plan_compact(r, d.info);
                    const std::string what = d.name + ", " + k.name + ", " + std::to_string(ib) + "-byte items, n=" +
                                             std::to_string(n) + ", block " + std::to_string(block) +
                                             (aligned ? "" : ", misaligned") + ", forced " +
                                             std::string(skc::name(tile)) + ", prefetch " +
                                             std::string(skc::name(pf)) + ", shape " + std::to_string(shape);
                    check_compact_plan(p, r, what);
                    EXPECT_EQ(p, dc::plan_compact(r, d.info)) << what << ": equal inputs, equal plans";
                    if (pf == skc::compact_prefetch::on && p.tile != compact_tile::specialized) {
                      EXPECT_TRUE(p.prefetch) << what;
                    }
                    if (pf == skc::compact_prefetch::off) { EXPECT_FALSE(p.prefetch) << what; }
                    if (HasFailure()) return;
                  }
}

// Each forced tile is taken wherever it applies.
TEST(CudaCompactPlan, ForcedTilesAreHonoured) {
  const selector_kind& select_if = selector_kinds[0];
  for (const described& d : devices())
    for (std::size_t ib : {std::size_t{4}, std::size_t{8}})
      for (std::int64_t n : {std::int64_t{100000}, std::int64_t{1} << 26}) {
        auto tile = [&](compact_tile t, int block = 256) {
          return dc::plan_compact(compact_request_for(n, ib, select_if, true, block, d, t), d.info).tile;
        };
        const std::string what = d.name + ", " + std::to_string(ib) + "-byte items, n=" + std::to_string(n);
        EXPECT_EQ(tile(compact_tile::small), compact_tile::small) << what;
        EXPECT_EQ(tile(compact_tile::medium), compact_tile::medium) << what;
        EXPECT_EQ(tile(compact_tile::segmented), compact_tile::segmented) << what;
        EXPECT_NE(tile(compact_tile::segmented, 128), compact_tile::segmented) << what << ": 256 threads only";
        EXPECT_EQ(tile(compact_tile::specialized) == compact_tile::specialized, d.hopper_code) << what;
      }
}

// The automatic choices the tuning tables state (select_if, aligned, 256 threads).
TEST(CudaCompactPlan, AutomaticChoicesFollowTheTuning) {
  const selector_kind &select_if = selector_kinds[0], &flagged = selector_kinds[1];
  for (const described& d : devices()) {
    auto tile = [&](std::int64_t n, std::size_t ib, const selector_kind& k) {
      return dc::plan_compact(compact_request_for(n, ib, k, true, 256, d), d.info).tile;
    };
    const bool hopper = d.hopper_code && is_hopper_class(d.info);  // the classes with bulk copies
    const std::string what = d.name;
    EXPECT_EQ(tile(1000, 4, select_if), compact_tile::small) << what;
    EXPECT_EQ(tile(std::int64_t{1} << 22, 4, select_if), compact_tile::small) << what;
    EXPECT_EQ(tile(std::int64_t{1} << 23, 4, select_if), hopper ? compact_tile::specialized : compact_tile::medium)
        << what;
    EXPECT_EQ(tile(std::int64_t{1} << 27, 4, select_if), hopper ? compact_tile::specialized : compact_tile::segmented)
        << what;
    EXPECT_EQ(tile(std::int64_t{1} << 22, 4, flagged), compact_tile::segmented) << what;
    EXPECT_EQ(tile(std::int64_t{1} << 26, 4, flagged), hopper ? compact_tile::specialized : compact_tile::segmented)
        << what;
    EXPECT_EQ(tile(std::int64_t{1} << 24, 8, select_if), hopper ? compact_tile::specialized : compact_tile::segmented)
        << what;
  }
}

TEST(CudaCompactPlan, SameArchitectureSamePlans) {
  const auto ds = devices();
  for (std::size_t ib : {std::size_t{4}, std::size_t{8}})
    for (const selector_kind& k : selector_kinds)
      for (std::int64_t n : sizes_around(8192))
        for (compact_tile t : skc::all_compact_tiles)
          EXPECT_EQ(dc::plan_compact(compact_request_for(n, ib, k, true, 256, ds[0], t), ds[0].info),
                    dc::plan_compact(compact_request_for(n, ib, k, true, 256, ds[1], t), ds[1].info));
}

}  // namespace
