// GoogleTest suite of the CUDA compactions (scankit/cuda/compact.hpp), every algorithm of
// scankit::cuda::all_compact_algorithms, through the public API only, against the CPU serial
// loop (scankit::cpu, algorithm serial_loop) as the reference.
//
// Environment: SCANKIT_TEST_QUICK=1 (small sizes, no > 2^31 test: for compute-sanitizer),
// SCANKIT_TEST_SEED=N (replay), SCANKIT_TEST_VERBOSE=1 (print each case).
//
// The built-in types and predicates come from the library; the struct item type and the
// index predicate are instantiated here from scankit/cuda/compact.cuh, as a user's .cu would.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cuda_test_util.hpp"
#include "common/test_util.hpp"
#include "scankit/cpu/compact.hpp"
#include "scankit/cuda/compact.cuh"

// The library instantiates the built-in forms (src/cuda/compact_*.cu).
SCANKIT_EXTERN_COMPACT(std::int32_t)
SCANKIT_EXTERN_COMPACT(std::uint32_t)
SCANKIT_EXTERN_COMPACT(std::int64_t)
SCANKIT_EXTERN_COMPACT(std::uint64_t)
SCANKIT_EXTERN_COMPACT(float)
SCANKIT_EXTERN_COMPACT(double)
SCANKIT_EXTERN_COMPACT(std::uint8_t)

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
using skc::compact_algorithm;

using sk::test::ck;
using sk::test::device_buffer;
using sk::test::quick_mode;
using sk::test::verbose;

/// A user item type: trivially copyable, 12 bytes (no vector loads), with its own predicate.
struct particle {
  float x, y;
  std::int32_t id;
};
struct fast_particle {
  __host__ __device__ bool operator()(const particle& p) const { return p.x * p.x + p.y * p.y > 0.5f; }
};
/// Equivalence on ids only: unique keeps the first of each run with the same id.
struct same_id {
  __host__ __device__ bool operator()(const particle& a, const particle& b) const { return a.id == b.id; }
};
/// An index predicate that looks stateful (a hash of the index) but is a pure function of it.
struct hashed_index {
  std::uint64_t salt;
  __host__ __device__ bool operator()(std::int64_t i) const {
    std::uint64_t z = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull ^ salt;
    z = (z ^ (z >> 29)) * 0xBF58476D1CE4E5B9ull;
    return ((z >> 32) % 5) < 2;
  }
};

enum class pattern { random4, all, none, alternating, runs };
const char* pattern_name(pattern p) {
  switch (p) {
    case pattern::random4: return "random 0..3";
    case pattern::all: return "all selected";
    case pattern::none: return "none selected";
    case pattern::alternating: return "alternating";
    case pattern::runs: return "random runs";
  }
  return "?";
}

/// Values for the built-in predicates (nonzero selects): random in 0..3, all nonzero, all
/// zero, alternating zero/nonzero, or runs of random length (for unique).
template <class T>
std::vector<T> make_input(std::int64_t n, pattern p) {
  std::vector<T> v(static_cast<std::size_t>(n));
  auto& g = sk::test::rng();
  std::uniform_int_distribution<int> d4(0, 3), len(1, 40);
  for (std::int64_t i = 0; i < n;) {
    int value = 0, run = 1;
    switch (p) {
      case pattern::random4: value = d4(g); break;
      case pattern::all: value = 1 + d4(g) % 3; break;
      case pattern::none: value = 0; break;
      case pattern::alternating: value = static_cast<int>(i % 2) * 3; break;
      case pattern::runs: value = d4(g), run = len(g); break;
    }
    for (int k = 0; k < run && i < n; ++k, ++i) v[static_cast<std::size_t>(i)] = static_cast<T>(value);
  }
  return v;
}

template <>
std::vector<particle> make_input<particle>(std::int64_t n, pattern p) {
  std::vector<particle> v(static_cast<std::size_t>(n));
  auto& g = sk::test::rng();
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::uniform_int_distribution<int> len(1, 6);
  std::int32_t id = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    if (len(g) == 1) ++id;
    float x = d(g), y = d(g);
    if (p == pattern::all) x = 1.0f;
    if (p == pattern::none) x = y = 0.1f;
    if (p == pattern::alternating) x = (i % 2) ? 1.0f : 0.0f, y = 0.0f;
    v[static_cast<std::size_t>(i)] = {x, y, id};
  }
  return v;
}

/// Operations under test.
enum class op { select_if, remove_if, select_flagged, partition_rev, partition_orig, unique, unique_count, nonzero };
constexpr op all_ops[] = {op::select_if,      op::remove_if, op::select_flagged, op::partition_rev,
                          op::partition_orig, op::unique,    op::unique_count,   op::nonzero};
const char* op_name(op o) {
  switch (o) {
    case op::select_if: return "select_if";
    case op::remove_if: return "remove_if";
    case op::select_flagged: return "select_flagged";
    case op::partition_rev: return "partition(reversed)";
    case op::partition_orig: return "partition(original)";
    case op::unique: return "unique";
    case op::unique_count: return "unique_count";
    case op::nonzero: return "nonzero";
  }
  return "?";
}

template <class T>
auto default_pred() {
  if constexpr (std::is_same_v<T, particle>) return fast_particle{};
  else return sk::is_nonzero<T>{};
}
template <class T>
auto default_eq() {
  if constexpr (std::is_same_v<T, particle>) return same_id{};
  else return sk::equal_to<T>{};
}

// Tiles of the small and medium kernels, the segmented kernel's tiles (12,288 four-byte,
// 6,144 eight-byte items) and warp segments (1,536 and 768 items), and the warp-specialized
// kernel's tiles (11,264 or 13,312 four-byte, 6,656 or 5,632 eight-byte items) and rows (44,
// 52, 26 and 22 items).
const std::vector<std::int64_t> tile_sizes{22,   26,   44,   52,    768,   1536,  2048,  4096,
                                           5632, 6144, 6656, 8192, 11264, 12288, 13312, 16384};

std::vector<std::int64_t> sizes_up_to(std::int64_t hi) {
  auto s = sk::test::test_sizes(tile_sizes, hi);
  std::erase_if(s, [&](std::int64_t n) { return n > hi; });
  return s;
}

class CudaCompact : public ::testing::TestWithParam<compact_algorithm> {
 protected:
  void SetUp() override {
    if (skc::device_count() == 0) GTEST_SKIP() << "no CUDA device";
    ck(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  void TearDown() override {
    if (stream_) cudaStreamDestroy(stream_);
  }
  skc::compact_config cfg(int block = 0) const {
    skc::compact_config c;
    c.algorithm = GetParam();
    c.block_size = block;
    c.tile = tile_;
    c.prefetch = prefetch_;
    c.specialized_shape = shape_;
    c.first_delay_ns = first_delay_;
    return c;
  }
  skc::compact_tile tile_ = skc::compact_tile::automatic;
  skc::compact_prefetch prefetch_ = skc::compact_prefetch::automatic;
  int shape_ = 0;
  std::optional<unsigned> first_delay_;

  /// Runs `o` on `in` on the device (outputs, count and workspace poisoned first; workspace of
  /// exactly the size asked for) and compares with the CPU serial loop. in_shift / out_shift
  /// move the input and output pointers that many items past an aligned address (the kernels
  /// take 16-byte vector paths only where both sides allow them).
  template <class T>
  ::testing::AssertionResult check(op o, const std::vector<T>& in, bool in_place, int block = 0, int in_shift = 0,
                                   int out_shift = 0) {
    const auto n = static_cast<std::int64_t>(in.size());
    const skc::compact_config c = cfg(block);
    if (verbose())
      std::printf("  %s %s n=%lld block=%d%s\n", std::string(skc::name(c.algorithm)).c_str(), op_name(o),
                  static_cast<long long>(n), block, in_place ? " in place" : ""), std::fflush(stdout);
    const std::size_t bytes = in.size() * sizeof(T);
    const std::size_t slack = 4 * sizeof(T);
    in_.reserve(bytes + slack), out_.reserve(bytes + slack), idx_.reserve(in.size() * 8), flags_.reserve(in.size()),
        count_.reserve(8);
    T* d_in = in_.as<T>() + in_shift;
    T* d_out = in_place ? d_in : out_.as<T>() + out_shift;
    ck(cudaMemcpyAsync(d_in, in.data(), bytes, cudaMemcpyHostToDevice, stream_), "copy in");
    if (!in_place) ck(cudaMemsetAsync(d_out, 0xA5, bytes, stream_), "poison out");
    ck(cudaMemsetAsync(idx_.p, 0xA5, in.size() * 8, stream_), "poison indices");
    ck(cudaMemsetAsync(count_.p, 0xA5, 8, stream_), "poison count");
    const std::size_t need = skc::compact_workspace_bytes(n, sizeof(T), c);
    ws_.reserve(need);
    if (need) ck(cudaMemsetAsync(ws_.p, 0xCD, need, stream_), "poison workspace");
    // Flags for select_flagged: nonzero where the predicate holds, in varied values.
    std::vector<std::uint8_t> flags(in.size());
    const auto pred = default_pred<T>();
    for (std::size_t i = 0; i < in.size(); ++i) flags[i] = pred(in[i]) ? static_cast<std::uint8_t>(1 + i % 200) : 0;
    if (o == op::select_flagged)
      ck(cudaMemcpyAsync(flags_.p, flags.data(), in.size(), cudaMemcpyHostToDevice, stream_), "copy flags");
    auto* d_idx = idx_.as<std::int64_t>();
    auto* d_count = count_.as<std::int64_t>();
    const auto eq = default_eq<T>();
    switch (o) {
      case op::select_if: skc::select_if(d_in, d_out, n, pred, d_count, ws_.p, need, stream_, c); break;
      case op::remove_if: skc::remove_if(d_in, d_out, n, pred, d_count, ws_.p, need, stream_, c); break;
      case op::select_flagged:
        skc::select_flagged(d_in, flags_.as<std::uint8_t>(), d_out, n, d_count, ws_.p, need, stream_, c);
        break;
      case op::partition_rev:
        skc::partition(d_in, d_out, n, pred, sk::rejected_order::reversed, d_count, ws_.p, need, stream_, c);
        break;
      case op::partition_orig:
        skc::partition(d_in, d_out, n, pred, sk::rejected_order::original, d_count, ws_.p, need, stream_, c);
        break;
      case op::unique: skc::unique(d_in, d_out, n, eq, d_count, ws_.p, need, stream_, c); break;
      case op::unique_count: skc::unique_count(d_in, d_out, d_idx, n, eq, d_count, ws_.p, need, stream_, c); break;
      case op::nonzero:
        if constexpr (!std::is_same_v<T, particle>) skc::nonzero(d_in, d_idx, n, d_count, ws_.p, need, stream_, c);
        break;
    }
    const std::int64_t got_count = skc::read_count(d_count, stream_);

    // Reference.
    sk::cpu::compact_config ref_cfg;
    ref_cfg.algorithm = sk::cpu::compact_algorithm::serial_loop;
    std::vector<T> ref(in.size());
    std::vector<std::int64_t> ref_idx(in.size());
    std::int64_t ref_count = 0;
    switch (o) {
      case op::select_if: ref_count = sk::cpu::select_if(in.data(), ref.data(), n, pred, ref_cfg); break;
      case op::remove_if: ref_count = sk::cpu::remove_if(in.data(), ref.data(), n, pred, ref_cfg); break;
      case op::select_flagged: ref_count = sk::cpu::select_flagged(in.data(), flags.data(), ref.data(), n, ref_cfg); break;
      case op::partition_rev:
        ref_count = sk::cpu::partition(in.data(), ref.data(), n, pred, sk::rejected_order::reversed, ref_cfg);
        break;
      case op::partition_orig:
        ref_count = sk::cpu::partition(in.data(), ref.data(), n, pred, sk::rejected_order::original, ref_cfg);
        break;
      case op::unique: ref_count = sk::cpu::unique(in.data(), ref.data(), n, eq, ref_cfg); break;
      case op::unique_count: ref_count = sk::cpu::unique_count(in.data(), ref.data(), ref_idx.data(), n, eq, ref_cfg); break;
      case op::nonzero:
        if constexpr (!std::is_same_v<T, particle>) ref_count = sk::cpu::nonzero(in.data(), ref_idx.data(), n, ref_cfg);
        break;
    }
    const std::string where = std::string(" [") + std::string(skc::name(c.algorithm)) + ", " + op_name(o) +
                              ", n=" + std::to_string(n) + ", block=" + std::to_string(block) +
                              (in_shift || out_shift ? ", shifted " + std::to_string(in_shift) + "/" + std::to_string(out_shift) : "") +
                              (in_place ? ", in place]" : "]");
    if (got_count != ref_count)
      return ::testing::AssertionFailure() << "count " << got_count << ", expected " << ref_count << where;
    const bool is_partition = o == op::partition_rev || o == op::partition_orig;
    const std::int64_t items = is_partition ? n : (o == op::nonzero ? 0 : ref_count);
    if (items > 0) {
      std::vector<T> got(static_cast<std::size_t>(items));
      ck(cudaMemcpy(got.data(), d_out, static_cast<std::size_t>(items) * sizeof(T), cudaMemcpyDeviceToHost), "copy out");
      for (std::int64_t i = 0; i < items; ++i)
        if (std::memcmp(&got[i], &ref[i], sizeof(T)) != 0)
          return ::testing::AssertionFailure() << "item " << i << " of " << items << " differs" << where;
    }
    if ((o == op::unique_count || o == op::nonzero) && ref_count > 0) {
      std::vector<std::int64_t> got(static_cast<std::size_t>(ref_count));
      ck(cudaMemcpy(got.data(), d_idx, got.size() * 8, cudaMemcpyDeviceToHost), "copy indices");
      for (std::int64_t i = 0; i < ref_count; ++i)
        if (got[i] != ref_idx[i])
          return ::testing::AssertionFailure() << (o == op::nonzero ? "index " : "run length ") << i << ": got "
                                               << got[i] << ", expected " << ref_idx[i] << where;
    }
    if (!in_place && !is_partition && items < n) {  // nothing written past the count
      std::vector<unsigned char> tail(static_cast<std::size_t>(n - items) * sizeof(T));
      ck(cudaMemcpy(tail.data(), d_out + items, tail.size(), cudaMemcpyDeviceToHost), "copy tail");
      if (o != op::nonzero && std::any_of(tail.begin(), tail.end(), [](unsigned char b) { return b != 0xA5; }))
        return ::testing::AssertionFailure() << "an item past the count was written" << where;
    }
    return ::testing::AssertionSuccess();
  }

  template <class T>
  void every_op(const std::vector<std::int64_t>& sizes, const std::vector<pattern>& patterns, int block = 0) {
    int k = 0;
    for (std::int64_t n : sizes)
      for (pattern p : patterns) {
        const auto in = make_input<T>(n, p);
        for (op o : all_ops) {
          if (std::is_same_v<T, particle> && o == op::nonzero) continue;
          const bool can_in_place = (o == op::select_if || o == op::remove_if || o == op::select_flagged) &&
                                    GetParam() == compact_algorithm::single_pass;
          const bool in_place = can_in_place && (k++ % 3 == 2);
          const auto r = check(o, in, in_place, block);
          EXPECT_TRUE(r) << " (" << pattern_name(p) << ")";
          if (!r) return;
        }
      }
  }

  cudaStream_t stream_{};
  device_buffer in_, out_, idx_, flags_, count_, ws_;
};

std::string param_name(const ::testing::TestParamInfo<compact_algorithm>& info) {
  std::string s(skc::name(info.param));
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

const std::vector<pattern> all_patterns{pattern::random4, pattern::all, pattern::none, pattern::alternating,
                                        pattern::runs};

TEST_P(CudaCompact, Uint32AllPatterns) {
  every_op<std::uint32_t>(sizes_up_to(quick_mode() ? 1 << 15 : 1 << 20), all_patterns);
}

// Inputs and outputs off the 16-byte alignment of the vector paths (each side alone, and both
// by different amounts): every operation must fall back to item-wise accesses and still match.
TEST_P(CudaCompact, MisalignedPointers) {
  const std::vector<std::int64_t> sizes{1, 1000, 3 * 8192 + 5, quick_mode() ? 20011 : 300007};
  for (auto [in_shift, out_shift] : {std::pair{1, 0}, std::pair{0, 3}, std::pair{3, 1}})
    for (std::int64_t n : sizes)
      for (pattern p : {pattern::random4, pattern::alternating}) {
        const auto in = make_input<std::uint32_t>(n, p);
        for (op o : all_ops) {
          const auto r = check(o, in, false, 0, in_shift, out_shift);
          ASSERT_TRUE(r) << " (" << pattern_name(p) << ")";
        }
      }
}

TEST_P(CudaCompact, EveryType) {
  const auto sizes = sizes_up_to(quick_mode() ? 1 << 14 : 1 << 18);
  const std::vector<pattern> pats{pattern::random4, pattern::runs};
  every_op<std::int32_t>(sizes, pats);
  every_op<std::int64_t>(sizes, pats);
  every_op<std::uint64_t>(sizes, pats);
  every_op<float>(sizes, pats);
  every_op<double>(sizes, pats);
  every_op<std::uint8_t>(sizes, pats);
}

TEST_P(CudaCompact, UserStruct) {
  every_op<particle>(sizes_up_to(quick_mode() ? 1 << 14 : 1 << 18), all_patterns);
}

TEST_P(CudaCompact, BlockSizes) {
  const auto sizes = sizes_up_to(quick_mode() ? 1 << 14 : 1 << 18);
  for (int block : {64, 128, 256}) {
    every_op<std::uint32_t>(sizes, {pattern::random4}, block);
    every_op<double>(sizes, {pattern::random4}, block);
  }
}

TEST_P(CudaCompact, TileSizes) {
  const auto sizes = sizes_up_to(quick_mode() ? 1 << 15 : 1 << 19);
  for (auto tile : {skc::compact_tile::small, skc::compact_tile::medium, skc::compact_tile::segmented,
                    skc::compact_tile::specialized}) {
    tile_ = tile;
    every_op<std::uint32_t>(sizes, {pattern::random4, pattern::alternating});
    every_op<std::uint64_t>(sizes, {pattern::runs});
    every_op<std::uint8_t>(sizes, {pattern::random4});
    every_op<float>(sizes, {pattern::all, pattern::none}, 128);
    every_op<particle>(sizes_up_to(1 << 14), {pattern::random4});
    if (HasFailure()) return;
  }
}

// Every tile with the guess prefetch forced on and off (a hint: the results must not change).
TEST_P(CudaCompact, PrefetchOnAndOff) {
  const auto sizes = sizes_up_to(quick_mode() ? 1 << 14 : 1 << 17);
  for (auto prefetch : {skc::compact_prefetch::on, skc::compact_prefetch::off})
    for (auto tile : {skc::compact_tile::small, skc::compact_tile::medium, skc::compact_tile::segmented,
                      skc::compact_tile::specialized}) {
      tile_ = tile;
      prefetch_ = prefetch;
      every_op<std::uint32_t>(sizes, {pattern::random4});
      every_op<std::uint64_t>(sizes, {pattern::runs});
      if (HasFailure()) return;
    }
}

// Both shapes of the warp-specialized tile (13 and 11 vectors per row), and the segmented tile
// with a first delay.
TEST_P(CudaCompact, SpecializedShapesAndFirstDelay) {
  const auto sizes = sizes_up_to(quick_mode() ? 1 << 15 : 1 << 18);
  tile_ = skc::compact_tile::specialized;
  for (int shape : {0, 1}) {
    shape_ = shape;
    every_op<std::uint32_t>(sizes, {pattern::random4, pattern::alternating});
    every_op<std::int64_t>(sizes, {pattern::runs});
    every_op<float>(sizes, {pattern::all, pattern::none});
    if (HasFailure()) return;
  }
  shape_ = 0;
  tile_ = skc::compact_tile::segmented;
  first_delay_ = 2000u;
  every_op<std::uint32_t>(sizes, {pattern::random4});
  every_op<double>(sizes, {pattern::runs});
}

// The medium tile over more tiles than fit on the GPU at once (8192-item uint32 tiles, 3
// blocks on each of 132 SMs), so tiles look back past blocks that have already exited and
// later blocks start on SMs they freed; every size ends in a partial tile.
// The segmented tile (12,288-item uint32 tiles, 4 blocks per SM) likewise; the persistent
// warp-specialized grid (2 blocks per SM) cycles each block's buffers through many tiles.
TEST_P(CudaCompact, ManyTilesPerBlock) {
  for (auto tile : {skc::compact_tile::medium, skc::compact_tile::segmented, skc::compact_tile::specialized}) {
    tile_ = tile;
    every_op<std::uint32_t>({5000011}, {pattern::random4, pattern::alternating});
    every_op<std::uint64_t>({3000017}, {pattern::runs});
    every_op<float>({(std::int64_t{1} << 23) + 1}, {pattern::random4});
    if (HasFailure()) return;
  }
}

TEST_P(CudaCompact, ThresholdPredicates) {
  const std::int64_t n = quick_mode() ? 50001 : 3000017;
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
  const auto sizes = sizes_up_to(quick_mode() ? 1 << 15 : 1 << 21);
  for (std::int64_t n : sizes) {
    const hashed_index pred{sk::test::rng()()};
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
  const std::int64_t n = quick_mode() ? 40009 : 2000003;
  const auto in = make_input<std::int64_t>(n, pattern::runs);
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
  const auto in = make_input<std::int32_t>(n, pattern::random4);
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

TEST_P(CudaCompact, InvalidArgumentsThrowAndLeaveInputIntact) {
  const std::int64_t n = 1000;
  const auto in = make_input<std::uint32_t>(n, pattern::random4);
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

TEST_P(CudaCompact, MoreThan2Pow31OneByteItems) {
  if (quick_mode()) GTEST_SKIP() << "skipped with SCANKIT_TEST_QUICK";
  const std::int64_t n = (std::int64_t{1} << 31) + 4099;
  const auto c = cfg();
  const std::size_t need = skc::compact_workspace_bytes(n, 1, c);
  std::size_t free_b = 0, total_b = 0;
  ck(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  if (free_b < 2 * static_cast<std::size_t>(n) + need + (std::size_t{256} << 20))
    GTEST_SKIP() << "not enough free device memory";
  // Item i is (i * 7 + i / 1000) % 3: zero a third of the time, in a pattern that shifts
  // across the 2^31 boundary.
  std::vector<std::uint8_t> in(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>((i * 7 + i / 1000) % 3);
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

INSTANTIATE_TEST_SUITE_P(Algorithms, CudaCompact, ::testing::ValuesIn(skc::all_compact_algorithms), param_name);

// Out-of-range single-pass settings throw before anything runs (no GPU needed).
TEST(CudaCompactApi, InvalidConfigThrows) {
  auto throws = [](auto edit) {
    skc::compact_config cfg;
    edit(cfg);
    EXPECT_THROW((void)skc::compact_workspace_bytes(1000, 4, cfg), sk::invalid_argument);
  };
  throws([](skc::compact_config& c) { c.specialized_shape = 2; });
  throws([](skc::compact_config& c) { c.specialized_shape = -1; });
  throws([](skc::compact_config& c) { c.specialized_from_bytes = -1; });
  throws([](skc::compact_config& c) { c.first_delay_ns = 2000000u; });
  throws([](skc::compact_config& c) { c.prefetch = static_cast<skc::compact_prefetch>(7); });
  throws([](skc::compact_config& c) { c.scan.load_window_tiles = -1; c.algorithm = compact_algorithm::scan_scatter; });
  skc::compact_config ok;
  ok.tile = skc::compact_tile::specialized;
  ok.prefetch = skc::compact_prefetch::on;
  ok.specialized_shape = 1;
  ok.specialized_from_bytes = 0;
  ok.first_delay_ns = 0u;
  EXPECT_NO_THROW((void)skc::compact_workspace_bytes(1000, 4, ok));
}

TEST(CudaCompactApi, AlgorithmNamesRoundTrip) {
  for (auto a : skc::all_compact_algorithms) EXPECT_EQ(skc::parse_compact_algorithm(skc::name(a)), a);
  EXPECT_FALSE(skc::parse_compact_algorithm("nope").has_value());
}

struct print_seed : ::testing::Environment {
  void SetUp() override {
    std::printf("scankit CUDA compact tests: SCANKIT_TEST_SEED=%llu%s\n",
                static_cast<unsigned long long>(sk::test::seed()), quick_mode() ? " (SCANKIT_TEST_QUICK)" : "");
  }
};
[[maybe_unused]] ::testing::Environment* const seed_env = ::testing::AddGlobalTestEnvironment(new print_seed);

}  // namespace
