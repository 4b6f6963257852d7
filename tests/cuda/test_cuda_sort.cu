// GoogleTest suite of the CUDA sorts (scankit/cuda/sort.hpp), through the public API only:
// every algorithm, every key type, the adversarial key patterns, keys and pairs (values of 4,
// 8 and 16 bytes that carry their input position, so stability is checked), both directions,
// bit ranges, argsort, in-place sorts, the host-container API, bad arguments, and (not in
// quick mode) an input above 2^30 keys. The reference is the CPU's std::stable_sort on the
// same ordered bits (scankit::cpu::sort_*_serial). Without a GPU every test skips.
//
//   SCANKIT_TEST_QUICK=1  small sizes, no large-size test: for compute-sanitizer runs.
//   SCANKIT_TEST_SEED=N   replays a run.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "common/sort_test_util.hpp"
#include "scankit/cuda/detail/sort_kernels.cuh"
#include "scankit/cuda/sort.hpp"

namespace scankit::cuda {
inline void PrintTo(sort_algorithm a, std::ostream* os) { *os << name(a); }
}  // namespace scankit::cuda

namespace {

using namespace scankit;
using namespace scankit::test;
using cuda::sort_algorithm;

[[maybe_unused]] auto* const seed_env =
    ::testing::AddGlobalTestEnvironment(new scankit::test::seed_environment);

bool have_gpu() { return cuda::device_count() > 0; }

#define SKIP_WITHOUT_GPU() \
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device"

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

/// Device memory for a test, freed on scope exit.
struct dmem {
  void* p = nullptr;
  std::size_t bytes = 0;
  explicit dmem(std::size_t b) : bytes(b) {
    if (b) check(cudaMalloc(&p, b), "cudaMalloc");
  }
  ~dmem() {
    if (p) cudaFree(p);
  }
  dmem(const dmem&) = delete;
  dmem(dmem&& o) noexcept : p(o.p), bytes(o.bytes) { o.p = nullptr, o.bytes = 0; }
  template <class T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

template <class T>
dmem upload(const std::vector<T>& v, std::size_t extra = 0) {
  dmem d(v.size() * sizeof(T) + extra);
  if (!v.empty()) check(cudaMemcpy(d.p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
  return d;
}

template <class T>
std::vector<T> download(const dmem& d, std::size_t n) {
  std::vector<T> v(n);
  if (n) check(cudaMemcpy(v.data(), d.p, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
  return v;
}

/// Fills memory with a pattern, so that a sort that leaves an output slot unwritten fails.
void poison(const dmem& d) {
  if (d.bytes) check(cudaMemset(d.p, 0xA5, d.bytes), "cudaMemset");
}

/// onesweep's tile for keys of K and values of `value_bytes` (0: keys only).
template <class K>
std::int64_t onesweep_tile(std::size_t value_bytes) {
  return cuda::detail::radix::onesweep_shape_for(sizeof(K), value_bytes, radix_traits<K>::kind).tile();
}

/// onesweep's tile for large inputs with values of `value_bytes` (session 19; onesweep_tile's
/// where there is none). SCANKIT_ONESWEEP_LARGE_FROM=0 makes every size take it.
template <class K>
std::int64_t onesweep_large_tile(std::size_t value_bytes) {
  const auto large = cuda::detail::radix::onesweep_large_shape_for(sizeof(K), value_bytes);
  return large.shape.block > 0 ? large.shape.tile() : onesweep_tile<K>(value_bytes);
}

template <class K>
std::vector<std::int64_t> sizes_for() {
  // The other kernels' tiles are 2048 (16-byte values) or 4096 keys; onesweep's single-block
  // path takes n up to small_sort_limit (tiles of 2048 and more keys), and onesweep's tile
  // depends on the key and value sizes.
  return test_sizes({2048, 4096, cuda::detail::radix::small_sort_limit(sizeof(K), 0),
                     cuda::detail::radix::small_sort_limit(sizeof(K), 8), onesweep_tile<K>(0), onesweep_tile<K>(4),
                     onesweep_tile<K>(8), onesweep_tile<K>(16), onesweep_large_tile<K>(4), onesweep_large_tile<K>(8),
                     onesweep_large_tile<K>(16)},
                    quick() ? 40000 : 1000000,
                    quick() ? 1 : 2, quick() ? 70000 : 1100000);
}

/// GPU keys-only sort with `alg` against the reference; in_place sorts d_in onto itself.
template <class K>
::testing::AssertionResult gpu_keys_match(const std::vector<K>& keys, const std::vector<K>& want,
                                          const sort_options& opts, sort_algorithm alg, bool in_place) {
  const auto n = static_cast<std::int64_t>(keys.size());
  const cuda::sort_config cfg{alg};
  dmem in = upload(keys);
  dmem out(in_place ? 0 : keys.size() * sizeof(K));
  poison(out);
  const std::size_t wb = cuda::sort_workspace_bytes(n, sizeof(K), 0, cfg);
  dmem ws(wb);
  poison(ws);
  K* dst = in_place ? in.as<K>() : out.as<K>();
  cuda::sort_keys(in.as<K>(), dst, n, ws.p, wb, nullptr, opts, cfg);
  check(cudaDeviceSynchronize(), "sort_keys");
  auto r = bitwise_equal(want, download<K>(in_place ? in : out, keys.size()));
  if (r && !in_place && !bitwise_equal(keys, download<K>(in, keys.size())))
    return ::testing::AssertionFailure() << "the input keys were modified";
  return r;
}

template <class K, class V>
::testing::AssertionResult gpu_pairs_match(std::int64_t n, key_pattern p, const sort_options& opts,
                                           sort_algorithm alg, bool in_place) {
  auto keys = make_keys<K>(n, p);
  auto vals = index_values<V>(n);
  auto want_k = keys;
  auto want_v = vals;
  cpu::sort_pairs_serial(want_k.data(), want_v.data(), n, opts);
  const cuda::sort_config cfg{alg};
  dmem kin = upload(keys), vin = upload(vals);
  dmem kout(in_place ? 0 : keys.size() * sizeof(K)), vout(in_place ? 0 : vals.size() * sizeof(V));
  poison(kout);
  poison(vout);
  const std::size_t wb = cuda::sort_workspace_bytes(n, sizeof(K), sizeof(V), cfg);
  dmem ws(wb);
  const dmem& ko = in_place ? kin : kout;
  const dmem& vo = in_place ? vin : vout;
  cuda::sort_pairs(kin.as<K>(), ko.as<K>(), vin.as<V>(), vo.as<V>(), n, ws.p, wb, nullptr, opts, cfg);
  check(cudaDeviceSynchronize(), "sort_pairs");
  auto rk = bitwise_equal(want_k, download<K>(ko, keys.size()));
  if (!rk) return rk << " (keys, n = " << n << ", pattern " << name(p) << ", value bytes " << sizeof(V) << ")";
  auto rv = bitwise_equal(want_v, download<V>(vo, vals.size()));
  if (!rv) return rv << " (values: stability, n = " << n << ", pattern " << name(p) << ", value bytes " << sizeof(V) << ")";
  return ::testing::AssertionSuccess();
}

template <class K>
class CudaSort : public ::testing::TestWithParam<sort_algorithm> {};

/// Every pattern and size, both directions, every algorithm (the reference is computed once
/// per input and shared by the three algorithms).
template <class K>
void keys_every_pattern() {
  for (auto n : sizes_for<K>())
    for (auto p : all_key_patterns)
      for (bool desc : {false, true}) {
        SCOPED_TRACE(::testing::Message() << "n = " << n << ", pattern " << name(p) << (desc ? ", descending" : ""));
        const auto keys = make_keys<K>(n, p);
        auto want = keys;
        const sort_options opts{.descending = desc};
        cpu::sort_keys_serial(want.data(), n, opts);
        for (auto alg : cuda::all_sort_algorithms) {
          // split-1bit makes one pass per bit: only the smaller sizes.
          if (alg == sort_algorithm::split_1bit && n > 300000) continue;
          SCOPED_TRACE(std::string(cuda::name(alg)));
          ASSERT_TRUE(gpu_keys_match(keys, want, opts, alg, false));
        }
      }
}

template <class K>
void pairs_stable(sort_algorithm alg) {
  std::vector<std::int64_t> sizes{1, 2, 33, 2047, 2048, 2049, 4095, 4096, 4097, quick() ? 10007 : 100003};
  for (std::size_t vb : {0, 4, 8, 16})  // the single-block sort's shapes (256, 512, 1024 threads) with each value size
    for (std::int64_t t = cuda::detail::radix::small_sort_limit(sizeof(K), vb); std::int64_t k : {t / 4, t / 4 + 1, t / 2, t / 2 + 1, t, t + 1})
      sizes.push_back(k);
  for (std::size_t vb : {4, 8, 16}) {  // onesweep's tile edges with each value size
    // (3t +- 1: a small tile below the single-block limit, 1- and 2-byte keys' 4,096, still
    // ends a multi-block sort's last tile there.)
    for (std::int64_t t = onesweep_tile<K>(vb); std::int64_t k : {t - 1, t, t + 1, 2 * t + 1, 3 * t - 1, 3 * t + 1})
      sizes.push_back(k);
    // The large tiles' edges (taken at these sizes with SCANKIT_ONESWEEP_LARGE_FROM=0).
    for (std::int64_t t = onesweep_large_tile<K>(vb); std::int64_t k : {t - 1, t + 1, 2 * t + 1}) sizes.push_back(k);
    // The small inputs' tile (session 21: one-byte keys with 8- and 16-byte values) over several tiles
    // above the single-block limit, and the usual tile just above the small tile's bound.
    const auto small = cuda::detail::radix::onesweep_small_shape_for(sizeof(K), vb);
    if (small.shape.block > 0) {
      for (std::int64_t ts = small.shape.tile(); std::int64_t k : {5 * ts - 1, 5 * ts + 1, 17 * ts + 1}) sizes.push_back(k);
      const std::int64_t t = onesweep_tile<K>(vb), m = small.below_items / t + 1;
      for (std::int64_t k : {m * t - 1, m * t + 1}) sizes.push_back(k);
      // Its last size (the most look-back state it takes) and the first size past it.
      for (std::int64_t k : {small.below_items - 1, small.below_items}) sizes.push_back(k);
    }
  }
  if (!quick()) sizes.push_back(alg == sort_algorithm::split_1bit ? 300007 : 1234567);
  for (auto n : sizes)
    for (auto p : {key_pattern::few_distinct, key_pattern::special, key_pattern::middle_digits, key_pattern::random})
      for (bool desc : {false, true}) {
        const sort_options opts{.descending = desc};
        ASSERT_TRUE((gpu_pairs_match<K, std::uint32_t>(n, p, opts, alg, false)));
        ASSERT_TRUE((gpu_pairs_match<K, std::uint64_t>(n, p, opts, alg, false)));
        ASSERT_TRUE((gpu_pairs_match<K, value16>(n, p, opts, alg, false)));
      }
}

template <class K>
void bit_ranges(sort_algorithm alg) {
  constexpr int bits = radix_traits<K>::bits;
  // 3,000 keys take the single block; the larger size every algorithm's multi-block path.
  // [5, 26) and [2, 50): 3 digit passes of 32-bit keys and 6 of 64-bit ones, whose histograms
  // take exactly 48 KiB of dynamic shared memory (their launch failed until session 11).
  for (std::int64_t n : {std::int64_t{3000}, std::int64_t{quick() ? 20001 : 70001}})
    for (auto [b, e] : std::vector<std::pair<int, int>>{{0, 1}, {3, std::min(11, bits)}, {bits - 5, bits},
                                                        {bits / 2, bits / 2}, {1, bits - 1},
                                                        {5, std::min(26, bits)}, {2, std::min(50, bits)}})
      for (bool desc : {false, true}) {
        SCOPED_TRACE(::testing::Message() << "bits [" << b << ", " << e << ")");
        ASSERT_TRUE((gpu_pairs_match<K, std::uint32_t>(n, key_pattern::random, {desc, b, e}, alg, false)));
        // 16-byte values too: their tiles (one-byte keys: 256 x 4 below 2^17) over bit ranges.
        ASSERT_TRUE((gpu_pairs_match<K, value16>(n, key_pattern::random, {desc, b, e}, alg, false)));
      }
}

template <class K>
void in_place_and_argsort(sort_algorithm alg) {
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{4000}, std::int64_t{50001}, std::int64_t{quick() ? 9000 : 300007}})
    for (auto p : {key_pattern::random, key_pattern::narrow, key_pattern::all_equal}) {
      SCOPED_TRACE(::testing::Message() << "n = " << n << ", pattern " << name(p));
      const auto keys = make_keys<K>(n, p);
      auto want = keys;
      cpu::sort_keys_serial(want.data(), n);
      ASSERT_TRUE(gpu_keys_match(keys, want, {}, alg, true));
      ASSERT_TRUE((gpu_pairs_match<K, std::uint64_t>(n, p, {}, alg, true)));
      // 4-byte values too, descending: the 1- and 2-byte keys' tiles of session 20 (256 x 16,
      // 512 x 24) in place, ending in the alternate buffer and the final copy.
      ASSERT_TRUE((gpu_pairs_match<K, std::uint32_t>(n, p, {.descending = true}, alg, true)));
      // And 16-byte values (session 21: 256 x 4 and 512 x 16 for 1- and 2-byte keys) in place.
      ASSERT_TRUE((gpu_pairs_match<K, value16>(n, p, {}, alg, true)));
      // argsort, device API: the indices equal the stable reference's positions.
      const cuda::sort_config cfg{alg};
      dmem in = upload(keys), kout(keys.size() * sizeof(K)), idx(keys.size() * 8);
      const std::size_t wb = cuda::sort_workspace_bytes(n, sizeof(K), 8, cfg);
      dmem ws(wb);
      cuda::argsort(in.as<K>(), kout.as<K>(), idx.as<std::int64_t>(), n, ws.p, wb, nullptr, {}, cfg);
      check(cudaDeviceSynchronize(), "argsort");
      auto want_idx = index_values<std::uint64_t>(n);
      auto k2 = keys;
      cpu::sort_pairs_serial(k2.data(), want_idx.data(), n);
      auto got = download<std::uint64_t>(idx, keys.size());
      ASSERT_TRUE(bitwise_equal(want_idx, got));
      ASSERT_TRUE(bitwise_equal(want, download<K>(kout, keys.size())));
    }
}

template <class K>
void host_api(sort_algorithm alg) {
  const std::int64_t n = 77777;
  auto keys = make_keys<K>(n, key_pattern::special);
  auto vals = index_values<std::uint32_t>(n);
  auto want_k = keys;
  auto want_v = vals;
  cpu::sort_pairs_serial(want_k.data(), want_v.data(), n, {.descending = true});
  const auto perm = cuda::argsort<K>(std::span<const K>(keys), {.descending = true}, {alg});
  cuda::sort_pairs<K, std::uint32_t>(std::span<K>(keys), std::span<std::uint32_t>(vals), {.descending = true}, {alg});
  ASSERT_TRUE(bitwise_equal(want_k, keys));
  ASSERT_TRUE(bitwise_equal(want_v, vals));
  std::vector<std::uint32_t> p32(perm.begin(), perm.end());
  ASSERT_TRUE(bitwise_equal(want_v, p32));
}

#define SORT_TESTS_FOR(K, NAME)                                                              \
  class CudaSort_##NAME : public ::testing::TestWithParam<sort_algorithm> {};               \
  TEST(CudaSortKeys, NAME##_EveryPatternSizeAndAlgorithm) {                                \
    SKIP_WITHOUT_GPU();                                                                     \
    keys_every_pattern<K>();                                                                \
  }                                                                                         \
  TEST_P(CudaSort_##NAME, PairsAreStable) {                                                 \
    SKIP_WITHOUT_GPU();                                                                     \
    pairs_stable<K>(GetParam());                                                            \
  }                                                                                         \
  TEST_P(CudaSort_##NAME, BitRanges) {                                                      \
    SKIP_WITHOUT_GPU();                                                                     \
    bit_ranges<K>(GetParam());                                                              \
  }                                                                                         \
  TEST_P(CudaSort_##NAME, InPlaceAndArgsort) {                                              \
    SKIP_WITHOUT_GPU();                                                                     \
    in_place_and_argsort<K>(GetParam());                                                    \
  }                                                                                         \
  TEST_P(CudaSort_##NAME, HostContainers) {                                                 \
    SKIP_WITHOUT_GPU();                                                                     \
    host_api<K>(GetParam());                                                                \
  }                                                                                         \
  INSTANTIATE_TEST_SUITE_P(All, CudaSort_##NAME, ::testing::ValuesIn(cuda::all_sort_algorithms), \
                           [](const auto& info) {                                           \
                             std::string s(cuda::name(info.param));                         \
                             std::replace(s.begin(), s.end(), '-', '_');                    \
                             return s;                                                      \
                           });

SORT_TESTS_FOR(std::uint8_t, u8)
SORT_TESTS_FOR(std::uint16_t, u16)
SORT_TESTS_FOR(std::uint32_t, u32)
SORT_TESTS_FOR(std::uint64_t, u64)
SORT_TESTS_FOR(std::int8_t, i8)
SORT_TESTS_FOR(std::int16_t, i16)
SORT_TESTS_FOR(std::int32_t, i32)
SORT_TESTS_FOR(std::int64_t, i64)
SORT_TESTS_FOR(float, f32)
SORT_TESTS_FOR(double, f64)

// The workspace a size needs never shrinks as the size grows, so that a workspace sized once
// for the largest input serves every smaller one. Host arithmetic only: runs without a GPU.
// (Session 21's small tiles first broke this just below their bounds.)
TEST(CudaSortWorkspace, BytesNeverShrinkAsSizeGrows) {
  std::vector<std::int64_t> sizes;
  for (std::size_t kb : {1, 2, 4, 8})
    for (std::size_t vb : {0, 4, 8, 16})
      if (const auto small = cuda::detail::radix::onesweep_small_shape_for(kb, vb); small.shape.block > 0)
        for (std::int64_t d = -5000; d <= 5000; ++d) sizes.push_back(small.below_items + d);
  for (int k = 1; k <= 34; ++k)
    for (std::int64_t d : {-1, 0, 1}) sizes.push_back((std::int64_t{1} << k) + d);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  for (auto alg : cuda::all_sort_algorithms)
    for (std::size_t kb : {1, 2, 4, 8})
      for (std::size_t vb : {0, 4, 8, 16}) {
        std::size_t before = 0;
        std::int64_t before_n = 0;
        for (std::int64_t n : sizes) {
          const std::size_t w = cuda::sort_workspace_bytes(n, kb, vb, {alg});
          ASSERT_GE(w, before) << cuda::name(alg) << ", " << kb << "-byte keys, " << vb << "-byte values: " << w
                               << " bytes at n = " << n << " against " << before << " at n = " << before_n;
          before = w;
          before_n = n;
        }
      }
}

TEST(CudaSortArgs, BadArgumentsThrowBeforeLaunching) {
  SKIP_WITHOUT_GPU();
  const std::vector<std::uint32_t> keys{5, 3, 9, 1};
  dmem in = upload(keys), out(16);
  const std::size_t wb = cuda::sort_workspace_bytes(1 << 20, 4, 0);
  dmem ws(wb);
  auto* k = in.as<std::uint32_t>();
  auto* o = out.as<std::uint32_t>();
  EXPECT_THROW(cuda::sort_keys(k, o, -1, ws.p, wb, nullptr), invalid_argument);
  EXPECT_THROW(cuda::sort_keys<std::uint32_t>(nullptr, o, 4, ws.p, wb, nullptr), invalid_argument);
  EXPECT_THROW(cuda::sort_keys<std::uint32_t>(k, nullptr, 4, ws.p, wb, nullptr), invalid_argument);
  EXPECT_THROW(cuda::sort_keys(k, o, 4, ws.p, wb, nullptr, {.begin_bit = 3, .end_bit = 2}), invalid_argument);
  EXPECT_THROW(cuda::sort_keys(k, o, 4, ws.p, wb, nullptr, {.end_bit = 40}), invalid_argument);
  // Too little workspace for a size that needs some (above the one-block path).
  const std::int64_t big = 1 << 20;
  dmem bk(big * 4), bo(big * 4);
  EXPECT_THROW(cuda::sort_keys(bk.as<std::uint32_t>(), bo.as<std::uint32_t>(), big, ws.p, wb - 1, nullptr),
               invalid_argument);
  EXPECT_THROW(cuda::sort_keys(bk.as<std::uint32_t>(), bo.as<std::uint32_t>(), big, nullptr, wb, nullptr),
               invalid_argument);
  EXPECT_THROW((cuda::sort_pairs<std::uint32_t, std::uint32_t>(k, o, nullptr, o, 4, ws.p, wb, nullptr)),
               invalid_argument);
  EXPECT_THROW(cuda::sort_workspace_bytes(-5, 4), invalid_argument);
  EXPECT_THROW(cuda::sort_workspace_bytes(5, 3), invalid_argument);
  EXPECT_TRUE(bitwise_equal(keys, download<std::uint32_t>(in, 4)));
  cuda::sort_keys<std::uint32_t>(nullptr, nullptr, 0, nullptr, 0, nullptr);  // n == 0: nothing to do
}

TEST(CudaSortOrder, FloatTotalOrderMatchesCpu) {
  SKIP_WITHOUT_GPU();
  using L = std::numeric_limits<double>;
  std::vector<double> k{L::quiet_NaN(), 1.0, -L::quiet_NaN(), 0.0, -0.0, L::infinity(), -L::infinity(), -1.0};
  auto want = k;
  cpu::sort_keys_serial(want.data(), static_cast<std::int64_t>(want.size()));
  cuda::sort_keys<double>(std::span<double>(k));
  EXPECT_TRUE(bitwise_equal(want, k));
  EXPECT_TRUE(std::isnan(k[6]) && std::isnan(k[7]));
  EXPECT_EQ(k[0], -L::infinity());
}

/// Above 2^30 keys: portions of the look-back, 64-bit offsets. Keys drawn from 2^20 values,
/// values = input positions; checked without a CPU sort: sorted, stable, and a permutation
/// that carries every key with its value.
TEST(CudaSortLarge, AboveTwoToThirtyPairs) {
  SKIP_WITHOUT_GPU();
  if (quick()) GTEST_SKIP() << "quick mode";
  const std::int64_t n = (std::int64_t{1} << 30) + 4099;
  std::size_t free_b = 0, total_b = 0;
  check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  for (auto alg : {sort_algorithm::onesweep, sort_algorithm::lsd_reduce_then_scan}) {
    const cuda::sort_config cfg{alg};
    const std::size_t wb = cuda::sort_workspace_bytes(n, 4, 4, cfg);
    if (free_b < wb + 16ull * n + (1ull << 30)) GTEST_SKIP() << "not enough GPU memory";
    SCOPED_TRACE(std::string(cuda::name(alg)));
    std::vector<std::uint32_t> keys(static_cast<std::size_t>(n)), vals(static_cast<std::size_t>(n));
    std::uint64_t x = seed();
    for (auto& k : keys) {  // splitmix64: fast enough for 2^30 keys
      x += 0x9E3779B97F4A7C15ull;
      std::uint64_t z = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      k = static_cast<std::uint32_t>(z ^ (z >> 31)) & 0xFFFFFu;
    }
    std::iota(vals.begin(), vals.end(), 0u);
    dmem kin = upload(keys), vin = upload(vals), kout(4 * n), vout(4 * n), ws(wb);
    cuda::sort_pairs(kin.as<std::uint32_t>(), kout.as<std::uint32_t>(), vin.as<std::uint32_t>(),
                     vout.as<std::uint32_t>(), n, ws.p, wb, nullptr, {}, cfg);
    check(cudaDeviceSynchronize(), "sort_pairs");
    auto ks = download<std::uint32_t>(kout, keys.size());
    auto vs = download<std::uint32_t>(vout, vals.size());
    // Plain checks in the loop (a gtest assertion per item would dominate the run time).
    std::vector<bool> seen(static_cast<std::size_t>(n), false);
    std::int64_t bad = -1;
    const char* why = "";
    for (std::int64_t i = 0; i < n && bad < 0; ++i) {
      const std::uint32_t v = vs[static_cast<std::size_t>(i)];
      const std::uint32_t k = ks[static_cast<std::size_t>(i)];
      if (v >= static_cast<std::uint64_t>(n) || seen[v]) bad = i, why = "values are not a permutation";
      else if (k != keys[v]) bad = i, why = "a key lost its value";
      else if (i > 0 && (ks[static_cast<std::size_t>(i - 1)] > k ||
                         (ks[static_cast<std::size_t>(i - 1)] == k && vs[static_cast<std::size_t>(i - 1)] > v)))
        bad = i, why = "out of order or unstable";
      else seen[v] = true;
    }
    EXPECT_EQ(bad, -1) << why;
  }
}

}  // namespace
