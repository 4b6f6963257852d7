// GoogleTest suite of the CUDA sorts (scankit/cuda/sort.hpp), through the public API: every
// algorithm, every key type, the adversarial key patterns, keys and pairs (values of 4, 8 and
// 16 bytes that carry their input position, so stability is checked), both directions, bit
// ranges, argsort, in-place sorts, the host-container API. The reference is the CPU's
// std::stable_sort on the same ordered bits (scankit::cpu::sort_*_serial). Without a GPU every
// test skips. The forced paths, bad arguments and the input above 2^30 keys have their own
// programs (test_cuda_sort_paths, _invalid, _large).
//
//   SCANKIT_TEST_QUICK=1  small sizes, no large-size test.
//   SCANKIT_TEST_TIER=sanitize  tile edges only, one key pattern and direction per size, every
//                         value size and algorithm (test_util.hpp): for compute-sanitizer runs.
//   SCANKIT_TEST_SEED=N   replays a run.
#include "common/cuda_sort_test_util.hpp"

namespace {

using namespace scankit;
using namespace scankit::test;
using cuda::sort_algorithm;

template <class K>
std::vector<std::int64_t> sizes_for() {
  // The other kernels' tiles are 2048 (16-byte values) or 4096 keys; onesweep's one-block
  // path takes n up to one_block_limit (tiles of 2048 and more keys), and onesweep's tile
  // depends on the key and value sizes.
  return test_sizes({2048, 4096, one_block_limit<K>(0), one_block_limit<K>(8), onesweep_tile<K>(0), onesweep_tile<K>(4),
                     onesweep_tile<K>(8), onesweep_tile<K>(16), onesweep_large_tile<K>(4), onesweep_large_tile<K>(8),
                     onesweep_large_tile<K>(16)},
                    quick() ? 40000 : 1000000,
                    quick() ? 1 : 2, quick() ? 70000 : 1100000);
}

template <class K>
class CudaSort : public ::testing::TestWithParam<sort_algorithm> {};

/// Every pattern and size, both directions, every algorithm (the reference is computed once
/// per input and shared by the three algorithms).
template <class K>
void keys_every_pattern() {
  variant_turns turns(std::size(all_key_patterns) * 2);  // the sanitize tier: one per size
  for (auto n : sizes_for<K>())
    for (auto p : all_key_patterns)
      for (bool desc : {false, true}) {
        if (!turns.run()) continue;
        SCOPED_TRACE(::testing::Message() << "n = " << n << ", pattern " << name(p) << (desc ? ", descending" : ""));
        const auto keys = make_keys<K>(n, p);
        auto want = keys;
        const sort_options opts{.descending = desc};
        cpu::sort_keys_serial(want.data(), n, opts);
        for (auto alg : cuda::all_sort_algorithms) {
          // split-1bit makes one pass per bit: only the smaller sizes, and at the sanitize tier
          // only the edges of its own tiles (2048 and 4096 keys; the onesweep tiles' edges mean
          // nothing to it), where its 32 or 64 passes per sort made one key type's test take
          // most of racecheck's time limit.
          if (alg == sort_algorithm::split_1bit && n > (sanitize_tier() ? 4097 : 300000)) continue;
          SCOPED_TRACE(std::string(cuda::name(alg)));
          ASSERT_TRUE(gpu_keys_match(keys, want, opts, alg, false));
        }
      }
}

template <class K>
void pairs_stable(sort_algorithm alg) {
  // Each size with the value sizes (bit i: 4 << i bytes) whose tile it is an edge
  // of. The other tiers run every value size at every size; the sanitize tier runs a size with
  // its own value sizes only, and split-1bit, whose tile is the same for every value size, at
  // the common sizes only (its 32 or 64 passes per sort made the sort suite outlast racecheck's
  // time limit).
  constexpr unsigned v4 = 1, v8 = 2, v16 = 4, every = v4 | v8 | v16;
  const auto bit_of = [](std::size_t vb) { return vb == 4 ? v4 : vb == 8 ? v8 : vb == 16 ? v16 : every; };
  std::vector<std::pair<std::int64_t, unsigned>> sizes;
  for (std::int64_t k : {1, 2, 33, 2047, 2048, 2049, 4095, 4096, 4097, quick() ? 10007 : 100003}) sizes.push_back({k, every});
  std::vector<std::pair<std::int64_t, unsigned>> edges;
  for (std::size_t vb : {0, 4, 8, 16})  // the one-block sort's shapes (256, 512, 1024 threads) with each value size
    for (std::int64_t t = one_block_limit<K>(vb); std::int64_t k : {t / 4, t / 4 + 1, t / 2, t / 2 + 1, t, t + 1})
      edges.push_back({k, bit_of(vb)});
  for (std::size_t vb : {4, 8, 16}) {  // onesweep's tile edges with each value size
    // (3t +- 1: a small tile below the single-block limit, 1- and 2-byte keys' 4,096, still
    // ends a multi-block sort's last tile there.)
    for (std::int64_t t = onesweep_tile<K>(vb); std::int64_t k : {t - 1, t, t + 1, 2 * t + 1, 3 * t - 1, 3 * t + 1})
      edges.push_back({k, bit_of(vb)});
    // The large tiles' edges (the forced-path tests below take them at every size).
    for (std::int64_t t = onesweep_large_tile<K>(vb); std::int64_t k : {t - 1, t + 1, 2 * t + 1})
      edges.push_back({k, bit_of(vb)});
    // The small inputs' tile (one-byte keys with 8- and 16-byte values) over several tiles
    // above the one-block limit, and the main tile just above the small tile's bound.
    const auto t = tuning<K>(vb);
    if (t.small.exists()) {
      for (std::int64_t ts = t.small.tile(); std::int64_t k : {5 * ts - 1, 5 * ts + 1, 17 * ts + 1})
        edges.push_back({k, bit_of(vb)});
      const std::int64_t tm = t.main.tile(), m = t.small_below / tm + 1;
      for (std::int64_t k : {m * tm - 1, m * tm + 1}) edges.push_back({k, bit_of(vb)});
      // Its last size (the most look-back state it takes) and the first size past it.
      for (std::int64_t k : {t.small_below - 1, t.small_below}) edges.push_back({k, bit_of(vb)});
    }
  }
  if (!(sanitize_tier() && alg == sort_algorithm::split_1bit))
    for (auto [k, bits] : edges) sizes.push_back({k, sanitize_tier() ? bits : every});
  if (!quick()) sizes.push_back({alg == sort_algorithm::split_1bit ? 300007 : 1234567, every});
  variant_turns turns(4 * 2);  // the sanitize tier: one pattern and direction per size
  for (auto [n, values] : sizes)
    for (auto p : {key_pattern::few_distinct, key_pattern::special, key_pattern::middle_digits, key_pattern::random})
      for (bool desc : {false, true}) {
        if (!turns.run()) continue;
        const sort_options opts{.descending = desc};
        if (values & v4) ASSERT_TRUE((gpu_pairs_match<K, std::uint32_t>(n, p, opts, alg, false)));
        if (values & v8) ASSERT_TRUE((gpu_pairs_match<K, std::uint64_t>(n, p, opts, alg, false)));
        if (values & v16) ASSERT_TRUE((gpu_pairs_match<K, value16>(n, p, opts, alg, false)));
      }
}

template <class K>
void bit_ranges(sort_algorithm alg) {
  constexpr int bits = radix_traits<K>::bits;
  // 3,000 keys take the single block; the larger size every algorithm's multi-block path.
  // [5, 26) and [2, 50): 3 digit passes of 32-bit keys and 6 of 64-bit ones, whose histograms
  // take exactly 48 KiB of dynamic shared memory (the launch must opt in to it).
  variant_turns turns(2);  // the sanitize tier: one direction per (size, range), in turn
  for (std::int64_t n : {std::int64_t{3000}, std::int64_t{quick() ? 20001 : 70001}})
    for (auto [b, e] : std::vector<std::pair<int, int>>{{0, 1}, {3, std::min(11, bits)}, {bits - 5, bits},
                                                        {bits / 2, bits / 2}, {1, bits - 1},
                                                        {5, std::min(26, bits)}, {2, std::min(50, bits)}})
      for (bool desc : {false, true}) {
        if (!turns.run()) continue;
        SCOPED_TRACE(::testing::Message() << "bits [" << b << ", " << e << ")");
        ASSERT_TRUE((gpu_pairs_match<K, std::uint32_t>(n, key_pattern::random, {desc, b, e}, alg, false)));
        // 16-byte values too: their tiles (one-byte keys: 256 x 4 below 2^17) over bit ranges.
        ASSERT_TRUE((gpu_pairs_match<K, value16>(n, key_pattern::random, {desc, b, e}, alg, false)));
      }
}

template <class K>
void in_place_and_argsort(sort_algorithm alg) {
  variant_turns turns(3);  // the sanitize tier: one pattern per size
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{4000}, std::int64_t{50001}, std::int64_t{quick() ? 9000 : 300007}})
    for (auto p : {key_pattern::random, key_pattern::narrow, key_pattern::all_equal}) {
      if (!turns.run()) continue;
      SCOPED_TRACE(::testing::Message() << "n = " << n << ", pattern " << name(p));
      const auto keys = make_keys<K>(n, p);
      auto want = keys;
      cpu::sort_keys_serial(want.data(), n);
      ASSERT_TRUE(gpu_keys_match(keys, want, {}, alg, true));
      ASSERT_TRUE((gpu_pairs_match<K, std::uint64_t>(n, p, {}, alg, true)));
      // 4-byte values too, descending: the 1- and 2-byte keys' tiles (256 x 16, 512 x 24) in
      // place, ending in the alternate buffer and the final copy.
      ASSERT_TRUE((gpu_pairs_match<K, std::uint32_t>(n, p, {.descending = true}, alg, true)));
      // And 16-byte values (256 x 4 and 512 x 16 for 1- and 2-byte keys) in place.
      ASSERT_TRUE((gpu_pairs_match<K, value16>(n, p, {}, alg, true)));
      // argsort, device API: the indices equal the stable reference's positions.
      ASSERT_TRUE(gpu_argsort_match(keys, {}, {.algorithm = alg}));
      // And 32-bit positions, descending (every pass moves 4-byte values made by the first).
      ASSERT_TRUE((gpu_argsort_match<K, std::uint32_t>(keys, {.descending = true}, {.algorithm = alg})));
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

FOR_EACH_KEY_TYPE(SORT_TESTS_FOR)

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

}  // namespace
