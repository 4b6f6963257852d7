// Tests of scankit/cpu/sort.hpp and scankit/sort.hpp: the parallel radix sort against the
// serial reference (std::stable_sort), for every key type, every adversarial pattern, keys and
// pairs (4-, 8- and 16-byte values carrying their input position, so stability is checked),
// both directions, bit ranges, and argsort.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include <tbb/task_arena.h>

#include "common/sort_test_util.hpp"
#include "scankit/sort.hpp"

namespace {

using namespace scankit;
using namespace scankit::test;

std::vector<std::int64_t> sort_sizes() {
  // The parallel path starts at 2^16 items; chunk edges fall anywhere.
  return test_sizes({256, 1 << 16}, quick() ? 100000 : 250000, 1, quick() ? 150000 : 300000);
}

template <class K>
class CpuSort : public ::testing::Test {};
using key_types = ::testing::Types<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, std::int8_t,
                                   std::int16_t, std::int32_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(CpuSort, key_types);

template <class K, class V>
void check_pairs(std::int64_t n, key_pattern p, const sort_options& opts) {
  SCOPED_TRACE(::testing::Message() << "n = " << n << ", pattern " << name(p) << ", value bytes "
                                    << sizeof(V) << (opts.descending ? ", descending" : "")
                                    << ", bits [" << opts.begin_bit << ", " << opts.end_bit << ")");
  auto keys = make_keys<K>(n, p);
  auto vals = index_values<V>(n);
  auto want_k = keys;
  auto want_v = vals;
  cpu::sort_pairs_serial(want_k.data(), want_v.data(), n, opts);
  ASSERT_TRUE(is_sorted_by_rank(want_k, opts));
  sort_pairs(keys, vals, opts);
  ASSERT_TRUE(bitwise_equal(want_k, keys));
  ASSERT_TRUE(bitwise_equal(want_v, vals));
}

TYPED_TEST(CpuSort, KeysEveryPatternAndSize) {
  using K = TypeParam;
  for (auto n : sort_sizes())
    for (auto p : all_key_patterns)
      for (bool desc : {false, true}) {
        SCOPED_TRACE(::testing::Message() << "n = " << n << ", pattern " << name(p) << (desc ? ", descending" : ""));
        auto keys = make_keys<K>(n, p);
        auto want = keys;
        const sort_options opts{.descending = desc};
        cpu::sort_keys_serial(want.data(), n, opts);
        ASSERT_TRUE(is_sorted_by_rank(want, opts));
        sort_keys(keys, opts);
        ASSERT_TRUE(bitwise_equal(want, keys));
      }
}

TYPED_TEST(CpuSort, PairsAreStable) {
  using K = TypeParam;
  for (auto n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1000}, std::int64_t{65537},
                 std::int64_t{quick() ? 70001 : 100003}})
    for (auto p : {key_pattern::few_distinct, key_pattern::special, key_pattern::random, key_pattern::all_equal})
      for (bool desc : {false, true}) {
        check_pairs<K, std::uint32_t>(n, p, {.descending = desc});
        check_pairs<K, std::uint64_t>(n, p, {.descending = desc});
        check_pairs<K, value16>(n, p, {.descending = desc});
      }
}

TYPED_TEST(CpuSort, BitRanges) {
  using K = TypeParam;
  constexpr int bits = radix_traits<K>::bits;
  for (auto [b, e] : std::vector<std::pair<int, int>>{{0, bits}, {0, 1}, {3, std::min(11, bits)}, {bits - 5, bits},
                                                      {bits / 2, bits / 2}, {1, bits - 1}, {0, -1}})
    for (bool desc : {false, true}) check_pairs<K, std::uint32_t>(70001, key_pattern::random, {desc, b, e});
}

TYPED_TEST(CpuSort, ArgsortPermutes) {
  using K = TypeParam;
  const std::int64_t n = 100003;
  const auto keys = make_keys<K>(n, key_pattern::special);
  const auto perm = argsort(keys);
  auto want = keys;
  cpu::sort_keys_serial(want.data(), n);
  std::vector<K> got(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) got[static_cast<std::size_t>(i)] = keys[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])];
  ASSERT_TRUE(bitwise_equal(want, got));
  // Stable: equal keys appear in increasing index order.
  for (std::size_t i = 1; i < perm.size(); ++i)
    if (std::memcmp(&got[i], &got[i - 1], sizeof(K)) == 0) {
      ASSERT_LT(perm[i - 1], perm[i]) << "at " << i;
    }
}

/// detail::radix_sort out of place: from a separate, unchanged input into the output arrays,
/// pairs and keys only, against the serial reference `want` (the keys of `input` sorted, at
/// the same shift).
template <class K, class V>
void check_out_of_place(const std::vector<K>& input, const std::vector<K>& want, const sort_options& opts,
                        bool write_combining, int shift, const cpu::detail::hybrid_params& hp,
                        cpu::sort_workspace* ws = nullptr) {
  SCOPED_TRACE("out of place");
  const auto n = static_cast<std::int64_t>(input.size()) - shift;
  const auto in_k = input;
  const auto in_v = index_values<V>(n + shift);
  auto want_k = input;
  auto want_v = in_v;
  cpu::sort_pairs_serial(want_k.data() + shift, want_v.data() + shift, n, opts);
  ASSERT_TRUE(bitwise_equal(want, want_k));
  std::vector<K> out_k(static_cast<std::size_t>(n + shift), K{});
  auto out_v = index_values<V>(n + shift);
  std::fill(out_k.begin(), out_k.end(), input.empty() ? K{} : input.back());
  cpu::detail::radix_sort(in_k.data() + shift, in_v.data() + shift, out_k.data() + shift, out_v.data() + shift, n,
                          opts, "test", ws, write_combining, hp);
  ASSERT_TRUE(bitwise_equal(input, in_k));  // the input is only read
  ASSERT_TRUE(bitwise_equal(std::vector<K>(want_k.begin() + shift, want_k.end()),
                            std::vector<K>(out_k.begin() + shift, out_k.end())));
  ASSERT_TRUE(bitwise_equal(std::vector<V>(want_v.begin() + shift, want_v.end()),
                            std::vector<V>(out_v.begin() + shift, out_v.end())));
  // Keys only, the buckets by either algorithm (cpu::detail::bucket_sort).
  for (auto b : {cpu::detail::bucket_sort::radix, cpu::detail::bucket_sort::vqsort}) {
    auto hb = hp;
    hb.buckets = b;
    std::vector<K> only(static_cast<std::size_t>(n + shift), K{});
    cpu::detail::radix_sort(in_k.data() + shift, static_cast<const int*>(nullptr), only.data() + shift,
                            static_cast<int*>(nullptr), n, opts, "test", ws, write_combining, hb);
    ASSERT_TRUE(bitwise_equal(std::vector<K>(want_k.begin() + shift, want_k.end()),
                              std::vector<K>(only.begin() + shift, only.end())))
        << (b == cpu::detail::bucket_sort::radix ? "radix" : "vqsort") << " buckets";
  }
}

// Many chunks, whatever this machine's core count (13 and 16 workers), against the serial
// reference, with the scatter's write-combining on and off. The arrays start on an
// allocation or one item past it (`shift`), so the 64-byte output lines fall differently
// against the caller's array and the scratch buffer, and against each (chunk, digit) range.
template <class K, class V>
void check_chunked(std::int64_t n, key_pattern p, const sort_options& opts, bool write_combining, int shift) {
  SCOPED_TRACE(::testing::Message() << "n = " << n << ", pattern " << name(p) << ", value bytes " << sizeof(V)
                                    << (write_combining ? ", write-combining" : ", plain scatter")
                                    << ", shift " << shift);
  auto keys = make_keys<K>(n + shift, p);
  auto vals = index_values<V>(n + shift);
  auto want_k = keys;
  auto want_v = vals;
  cpu::sort_pairs_serial(want_k.data() + shift, want_v.data() + shift, n, opts);
  cpu::detail::radix_sort(keys.data() + shift, vals.data() + shift, n, opts, "test", nullptr, write_combining);
  ASSERT_TRUE(bitwise_equal(want_k, keys));
  ASSERT_TRUE(bitwise_equal(want_v, vals));
  // Keys only: the other scatter loop.
  auto only = make_keys<K>(n + shift, p);
  const auto only_in = only;
  auto want_only = only;
  cpu::sort_keys_serial(want_only.data() + shift, n, opts);
  cpu::detail::radix_sort(only.data() + shift, static_cast<int*>(nullptr), n, opts, "test", nullptr, write_combining);
  ASSERT_TRUE(bitwise_equal(want_only, only));
  check_out_of_place<K, V>(only_in, want_only, opts, write_combining, shift, {});
}

TEST(CpuSortChunks, ManyChunksWithAndWithoutWriteCombining) {
  for (int workers : {13, 16}) {
    tbb::task_arena arena(workers);
    arena.execute([&] {
      SCOPED_TRACE(::testing::Message() << workers << " workers");
      for (bool wc : {true, false})
        for (int shift : {0, 1})
          for (auto p : {key_pattern::random, key_pattern::few_distinct, key_pattern::sorted, key_pattern::special}) {
            check_chunked<std::uint32_t, std::uint32_t>(300007, p, {}, wc, shift);
            check_chunked<std::uint64_t, std::uint64_t>(200003, p, {.descending = true}, wc, shift);
            check_chunked<float, value16>(100003, p, {}, wc, shift);
            check_chunked<std::uint16_t, double>(70001, p, {}, wc, shift);
            // Narrow keys: only the low digits vary, the top passes are skipped.
            check_chunked<std::uint32_t, std::uint32_t>(150001, p, {.begin_bit = 0, .end_bit = 20}, wc, shift);
          }
    });
  }
}

// Values of 32 bytes (two per 64-byte line) go through the write-combining; 40-byte values
// do not tile a line and take the plain scatter while the keys still combine.
template <std::size_t Bytes>
struct wide_value {
  std::uint64_t index;
  unsigned char tag[Bytes - sizeof(std::uint64_t)];
  friend bool operator==(const wide_value&, const wide_value&) = default;
};

template <std::size_t Bytes>
void check_wide_values(std::int64_t n, const cpu::detail::hybrid_params& hp = {}) {
  SCOPED_TRACE(::testing::Message() << Bytes << "-byte values, n = " << n << ", hybrid from " << hp.min_bytes);
  auto keys = make_keys<std::uint32_t>(n, key_pattern::random);
  std::vector<wide_value<Bytes>> vals(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    auto& v = vals[static_cast<std::size_t>(i)];
    v.index = static_cast<std::uint64_t>(i);
    for (std::size_t b = 0; b < sizeof(v.tag); ++b) v.tag[b] = static_cast<unsigned char>(i * 31 + static_cast<std::int64_t>(b));
  }
  auto want_k = keys;
  auto want_v = vals;
  cpu::sort_pairs_serial(want_k.data(), want_v.data(), n, {});
  cpu::detail::radix_sort(keys.data(), vals.data(), n, {}, "test", nullptr, true, hp);
  ASSERT_TRUE(bitwise_equal(want_k, keys));
  ASSERT_TRUE(want_v == vals);
}

TEST(CpuSortChunks, WideValues) {
  tbb::task_arena arena(13);
  arena.execute([] {
    check_wide_values<32>(100003);
    check_wide_values<40>(100003);
    // The hybrid: its buckets' passes and last pass carry the wide values too.
    const cpu::detail::hybrid_params hybrid{.min_bytes = 0};
    check_wide_values<32>(100003, hybrid);
    check_wide_values<40>(100003, hybrid);
  });
}

// The MSD-first hybrid (sort.hpp's design notes). Its default threshold (16 MiB) is above
// most sizes here, so these tests lower it through detail::hybrid_params, and lower the bucket
// limit to force the recursion for big buckets, on inputs of a few hundred thousand items.

/// Keys whose bucket sizes are uneven at the top of the compared bits (ordered bits; so also
/// for floats and signed keys).
enum class skew {
  top_constant,   // every key has the same top digit: the MSD pass is the next digit down
  heavy_top,      // 90% share one top digit: that bucket is split again (recursion)
  heavy_two,      // 90% share the top two digits: recursion twice
  few_per_bucket,  // random top digit, 4 distinct lower parts: many equal keys in every bucket
  // One key in n makes a digit vary, which the survey's sample most likely misses, so the
  // first pass has to count its digit itself:
  outlier_high,  // keys below 2^16 but one with random high bits
  outlier_low    // the lowest byte the same in all keys but one
};

inline const char* name(skew s) {
  switch (s) {
    case skew::top_constant: return "top-constant";
    case skew::heavy_top: return "heavy-top";
    case skew::heavy_two: return "heavy-two";
    case skew::few_per_bucket: return "few-per-bucket";
    case skew::outlier_high: return "outlier-high";
    case skew::outlier_low: return "outlier-low";
  }
  return "?";
}

template <class K>
std::vector<K> skewed_keys(std::int64_t n, skew s) {
  using T = radix_traits<K>;
  using U = typename T::bits_t;
  constexpr int bits = T::bits;
  const U top1 = static_cast<U>(U(0xFF) << (bits - 8));
  const U top2 = bits >= 16 ? static_cast<U>(U(0xFFFF) << (bits - 16)) : top1;
  const U hot = T::ordered(random_key_bits<K>());
  U pool[4];
  for (auto& q : pool) q = static_cast<U>(T::ordered(random_key_bits<K>()) & ~top1);
  std::bernoulli_distribution coin(0.9);
  std::uniform_int_distribution<int> pick(0, 3);
  auto keys = make_keys<K>(n, key_pattern::random);
  const std::int64_t odd_one = std::uniform_int_distribution<std::int64_t>(0, std::max<std::int64_t>(n - 1, 0))(rng());
  const U low16 = bits > 16 ? static_cast<U>(0xFFFF) : static_cast<U>(~U{0});
  for (auto& k : keys) {
    U o = T::ordered(k);
    switch (s) {
      case skew::top_constant: o = static_cast<U>((o & ~top1) | (hot & top1)); break;
      case skew::heavy_top: if (coin(rng())) o = static_cast<U>((o & ~top1) | (hot & top1)); break;
      case skew::heavy_two: if (coin(rng())) o = static_cast<U>((o & ~top2) | (hot & top2)); break;
      case skew::few_per_bucket: o = static_cast<U>((o & top1) | pool[pick(rng())]); break;
      case skew::outlier_high: if (&k - keys.data() != odd_one) o = static_cast<U>(o & low16); break;
      case skew::outlier_low: if (&k - keys.data() != odd_one) o = static_cast<U>((o & ~U(0xFF)) | (hot & 0xFF)); break;
    }
    k = T::key_of(o);
  }
  return keys;
}

/// detail::radix_sort with the given hybrid parameters, pairs and keys only, against the
/// serial reference, at an offset of `shift` items into the arrays (as check_chunked).
template <class K, class V>
void check_hybrid(const std::vector<K>& input, const sort_options& opts, bool write_combining, int shift,
                  const cpu::detail::hybrid_params& hp, cpu::sort_workspace* ws = nullptr) {
  const auto n = static_cast<std::int64_t>(input.size()) - shift;
  SCOPED_TRACE(::testing::Message() << "n = " << n << ", key bytes " << sizeof(K) << ", value bytes " << sizeof(V)
                                    << (opts.descending ? ", descending" : "") << ", bits [" << opts.begin_bit
                                    << ", " << opts.end_bit << ")" << (write_combining ? "" : ", plain scatter")
                                    << ", shift " << shift << ", hybrid from " << hp.min_bytes << " B, buckets to "
                                    << hp.leaf_bytes << " B, split above " << hp.split_bytes << " B"
                                    << (ws != nullptr ? ", workspace" : ""));
  auto keys = input;
  auto vals = index_values<V>(n + shift);
  auto want_k = keys;
  auto want_v = vals;
  cpu::sort_pairs_serial(want_k.data() + shift, want_v.data() + shift, n, opts);
  cpu::detail::radix_sort(keys.data() + shift, vals.data() + shift, n, opts, "test", ws, write_combining, hp);
  ASSERT_TRUE(bitwise_equal(want_k, keys));
  ASSERT_TRUE(bitwise_equal(want_v, vals));
  for (auto b : {cpu::detail::bucket_sort::radix, cpu::detail::bucket_sort::vqsort}) {
    auto hb = hp;
    hb.buckets = b;
    auto only = input;
    cpu::detail::radix_sort(only.data() + shift, static_cast<int*>(nullptr), n, opts, "test", ws, write_combining, hb);
    ASSERT_TRUE(bitwise_equal(want_k, only)) << (b == cpu::detail::bucket_sort::radix ? "radix" : "vqsort") << " buckets";
  }
  check_out_of_place<K, V>(input, want_k, opts, write_combining, shift, hp, ws);
}

constexpr cpu::detail::hybrid_params always_hybrid{.min_bytes = 0, .leaf_bytes = std::int64_t{8} << 20};
// Buckets of over 2 KiB are split again, recursively, until a digit is left or they fit.
constexpr cpu::detail::hybrid_params small_buckets{.min_bytes = 0, .leaf_bytes = 2048};

// Buckets of over 256 bytes are split once more by their top digit (split_leaf), and pieces
// still over 256 bytes again.
constexpr cpu::detail::hybrid_params split_buckets{.min_bytes = 0, .leaf_bytes = std::int64_t{8} << 20, .split_bytes = 256};

template <class K, class V>
void check_hybrid_patterns(std::int64_t n, const sort_options& opts, bool wc, int shift,
                           const cpu::detail::hybrid_params& hp, cpu::sort_workspace* ws = nullptr) {
  for (auto p : {key_pattern::random, key_pattern::few_distinct, key_pattern::special, key_pattern::narrow,
                 key_pattern::sorted}) {
    SCOPED_TRACE(name(p));
    check_hybrid<K, V>(make_keys<K>(n + shift, p), opts, wc, shift, hp, ws);
  }
  for (auto s : {skew::top_constant, skew::heavy_top, skew::heavy_two, skew::few_per_bucket, skew::outlier_high,
                 skew::outlier_low}) {
    SCOPED_TRACE(name(s));
    check_hybrid<K, V>(skewed_keys<K>(n + shift, s), opts, wc, shift, hp, ws);
  }
}

TEST(CpuSortHybrid, EveryKeyTypeBothDirections) {
  const std::int64_t n = quick() ? 40001 : 100003;
  for (bool desc : {false, true}) {
    const sort_options o{.descending = desc};
    check_hybrid_patterns<std::uint8_t, std::uint32_t>(n, o, true, 0, always_hybrid);  // one digit: plain LSD
    check_hybrid_patterns<std::uint16_t, std::uint32_t>(n, o, true, 0, always_hybrid);
    check_hybrid_patterns<std::int16_t, std::uint64_t>(n, o, true, 0, always_hybrid);
    check_hybrid_patterns<std::uint32_t, std::uint32_t>(n, o, true, 0, always_hybrid);
    check_hybrid_patterns<std::int32_t, value16>(n, o, true, 1, always_hybrid);
    check_hybrid_patterns<std::uint64_t, std::uint64_t>(n, o, true, 0, always_hybrid);
    check_hybrid_patterns<std::int64_t, std::uint32_t>(n, o, true, 1, always_hybrid);
    check_hybrid_patterns<float, std::uint32_t>(n, o, true, 0, always_hybrid);
    check_hybrid_patterns<double, value16>(n, o, true, 0, always_hybrid);
  }
}

TEST(CpuSortHybrid, ManyWorkersShiftsAndPlainScatter) {
  // 90% of n / 2 in one bucket is over 2^16 items: more than one thread's share, recursing.
  const std::int64_t n = 150001;
  // Under the sanitizers (quick), fewer combinations: write-combining with aligned arrays,
  // the plain scatter with shifted ones.
  const std::vector<int> worker_counts = quick() ? std::vector<int>{1, 13} : std::vector<int>{1, 13, 16};
  const std::vector<std::pair<bool, int>> variants =
      quick() ? std::vector<std::pair<bool, int>>{{true, 0}, {false, 1}}
              : std::vector<std::pair<bool, int>>{{true, 0}, {true, 1}, {false, 0}, {false, 1}};
  for (int workers : worker_counts) {
    tbb::task_arena arena(workers);
    arena.execute([&] {
      SCOPED_TRACE(::testing::Message() << workers << " workers");
      for (auto [wc, shift] : variants) {
        check_hybrid_patterns<std::uint32_t, std::uint32_t>(n, {}, wc, shift, always_hybrid);
        check_hybrid_patterns<std::uint64_t, std::uint64_t>(n / 2, {.descending = true}, wc, shift, always_hybrid);
        check_hybrid_patterns<float, value16>(n / 2, {}, wc, shift, always_hybrid);
      }
    });
  }
}

TEST(CpuSortHybrid, RecursionIntoBigBuckets) {
  const std::int64_t n = quick() ? 70001 : 100003;
  for (int workers : {2, 13}) {
    tbb::task_arena arena(workers);
    arena.execute([&] {
      SCOPED_TRACE(::testing::Message() << workers << " workers");
      for (bool desc : {false, true}) {
        check_hybrid_patterns<std::uint32_t, std::uint32_t>(n, {.descending = desc}, true, 0, small_buckets);
        check_hybrid_patterns<std::uint64_t, std::uint32_t>(n / 2, {.descending = desc}, true, 1, small_buckets);
        check_hybrid_patterns<double, std::uint64_t>(n / 2, {.descending = desc}, false, 0, small_buckets);
        check_hybrid_patterns<std::int16_t, std::uint32_t>(n, {.descending = desc}, true, 0, small_buckets);
      }
    });
  }
}

// Buckets split again before their LSD passes (split_leaf), skewed pieces split once more;
// with and without a workspace kept across the calls.
TEST(CpuSortHybrid, SplitBuckets) {
  const std::int64_t n = quick() ? 40001 : 100003;
  for (int workers : {1, 13}) {
    tbb::task_arena arena(workers);
    arena.execute([&] {
      SCOPED_TRACE(::testing::Message() << workers << " workers");
      cpu::sort_workspace ws;
      for (cpu::sort_workspace* w : {static_cast<cpu::sort_workspace*>(nullptr), &ws})
        for (bool desc : {false, true}) {
          const sort_options o{.descending = desc};
          check_hybrid_patterns<std::uint32_t, std::uint32_t>(n, o, true, 0, split_buckets, w);
          check_hybrid_patterns<std::int32_t, value16>(n / 2, o, false, 1, split_buckets, w);
          check_hybrid_patterns<std::uint64_t, std::uint64_t>(n / 2, o, true, 1, split_buckets, w);
          check_hybrid_patterns<float, std::uint32_t>(n, o, true, 0, split_buckets, w);
          check_hybrid_patterns<double, std::uint64_t>(n / 2, o, true, 0, split_buckets, w);
        }
    });
  }
}

// One workspace through calls of growing, shrinking and mixed shapes: each result right, the
// memory grown only when a call needs more, and release() giving it all back.
TEST(CpuSortWorkspace, ReusedAcrossShapes) {
  cpu::sort_workspace ws;
  EXPECT_EQ(ws.bytes(), 0u);
  const std::int64_t big = quick() ? 60001 : 150001;
  check_hybrid_patterns<std::uint32_t, std::uint32_t>(big, {}, true, 0, always_hybrid, &ws);
  EXPECT_GE(ws.bytes(), static_cast<std::size_t>(big) * 8);  // keys and values of the scratch copy
  // The same input again needs nothing new (another random input of the same size may: the
  // bucket buffers follow its largest bucket).
  const auto again = make_keys<std::uint32_t>(big, key_pattern::random);
  check_hybrid<std::uint32_t, std::uint32_t>(again, {}, true, 0, always_hybrid, &ws);
  const std::size_t after_first = ws.bytes();
  check_hybrid<std::uint32_t, std::uint32_t>(again, {}, true, 0, always_hybrid, &ws);
  EXPECT_EQ(ws.bytes(), after_first);
  check_hybrid_patterns<std::uint16_t, std::uint32_t>(big / 3, {.descending = true}, true, 1, always_hybrid, &ws);
  check_hybrid_patterns<double, value16>(big, {}, true, 0, split_buckets, &ws);  // more than before
  EXPECT_GE(ws.bytes(), static_cast<std::size_t>(big) * 24);
  check_hybrid_patterns<std::int64_t, std::uint32_t>(big / 2, {}, false, 1, small_buckets, &ws);
  ws.release();
  EXPECT_EQ(ws.bytes(), 0u);
  check_hybrid_patterns<std::uint32_t, std::uint32_t>(1001, {}, true, 0, {}, &ws);  // the LSD passes
}

// The workspace overloads of the public calls, at the default parameters.
TEST(CpuSortWorkspace, PublicCalls) {
  cpu::sort_workspace ws;
  const std::int64_t n = (cpu::detail::hybrid_params{}.min_bytes / 4) + 12345;  // the hybrid
  for (int round = 0; round < 2; ++round) {
    auto k = make_keys<std::uint32_t>(n, key_pattern::random);
    auto want = k;
    cpu::sort_keys_serial(want.data(), n);
    sort_keys(k, ws);
    ASSERT_TRUE(bitwise_equal(want, k)) << "round " << round;
    auto fk = make_keys<float>(n / 3, key_pattern::special);
    auto fv = index_values<std::uint64_t>(n / 3);
    auto want_k = fk;
    auto want_v = fv;
    cpu::sort_pairs_serial(want_k.data(), want_v.data(), n / 3, {.descending = true});
    sort_pairs(fk, fv, ws, {.descending = true});
    ASSERT_TRUE(bitwise_equal(want_k, fk)) << "round " << round;
    ASSERT_TRUE(bitwise_equal(want_v, fv)) << "round " << round;
  }
  EXPECT_GT(ws.bytes(), 0u);
}

TEST(CpuSortHybrid, BitRanges) {
  const std::int64_t n = quick() ? 40001 : 100003;
  const auto ranges = quick() ? std::vector<std::pair<int, int>>{{0, 20}, {5, 17}}
                              : std::vector<std::pair<int, int>>{{0, 20}, {3, 29}, {8, 24}, {5, 17}, {0, 9}};
  for (const auto& hp : {always_hybrid, small_buckets, split_buckets})
    for (bool desc : {false, true})
      for (auto [b, e] : ranges) {
        check_hybrid_patterns<std::uint32_t, std::uint32_t>(n, {desc, b, e}, true, 0, hp);
        check_hybrid_patterns<std::int64_t, std::uint32_t>(n, {desc, 2 * b, 2 * e + 5}, true, 1, hp);
      }
}

// The LSD passes alone (the hybrid's threshold out of reach) on the skewed keys, the
// outliers above especially: the survey's guess of the first pass's digit misses.
TEST(CpuSortHybrid, LsdPassesOnSkewedKeys) {
  constexpr cpu::detail::hybrid_params never{.min_bytes = std::numeric_limits<std::int64_t>::max()};
  const std::int64_t n = quick() ? 70001 : 100003;
  for (bool desc : {false, true}) {
    check_hybrid_patterns<std::uint32_t, std::uint32_t>(n, {.descending = desc}, true, 0, never);
    check_hybrid_patterns<std::uint64_t, std::uint32_t>(n, {.descending = desc}, true, 1, never);
    check_hybrid_patterns<float, std::uint64_t>(n, {.descending = desc}, false, 0, never);
  }
}

// Right below and at the threshold (lowered to 1 MiB): the LSD path, then the hybrid.
TEST(CpuSortHybrid, AroundTheThreshold) {
  const cpu::detail::hybrid_params hp{.min_bytes = std::int64_t{1} << 20, .leaf_bytes = std::int64_t{8} << 20};
  const std::int64_t keys_only = hp.min_bytes / 4;  // uint32 keys
  const std::int64_t pairs = hp.min_bytes / 8;      // uint32 keys and values
  for (std::int64_t n : {keys_only - 1, keys_only, keys_only + 1}) {
    auto k = make_keys<std::uint32_t>(n, key_pattern::random);
    auto want = k;
    cpu::sort_keys_serial(want.data(), n);
    cpu::detail::radix_sort(k.data(), static_cast<int*>(nullptr), n, {}, "test", nullptr, true, hp);
    ASSERT_TRUE(bitwise_equal(want, k)) << "n = " << n;
  }
  for (std::int64_t n : {pairs - 1, pairs, pairs + 1})
    for (auto s : {skew::heavy_top, skew::few_per_bucket}) {
      SCOPED_TRACE(name(s));
      check_hybrid<std::uint32_t, std::uint32_t>(skewed_keys<std::uint32_t>(n, s), {}, true, 0, hp);
    }
}

// The library's own threshold, through the public calls: 2^22 uint32 keys (16 MiB) and
// 2^21 pairs of them sort by the hybrid, one key fewer by the LSD passes.
TEST(CpuSortHybrid, DefaultThresholdPublicCalls) {
  constexpr std::int64_t at = cpu::detail::hybrid_params{}.min_bytes / 4;
  for (std::int64_t n : {at - 1, at}) {
    auto k = make_keys<std::uint32_t>(n, key_pattern::random);
    auto want = k;
    cpu::sort_keys_serial(want.data(), n);
    sort_keys(k);
    ASSERT_TRUE(bitwise_equal(want, k)) << "n = " << n;
  }
  const std::int64_t n = at / 2;
  auto k = skewed_keys<std::uint32_t>(n, skew::few_per_bucket);
  auto v = index_values<std::uint32_t>(n);
  auto want_k = k;
  auto want_v = v;
  cpu::sort_pairs_serial(want_k.data(), want_v.data(), n, {.descending = true});
  sort_pairs(k, v, {.descending = true});
  ASSERT_TRUE(bitwise_equal(want_k, k));
  ASSERT_TRUE(bitwise_equal(want_v, v));
}

TEST(CpuSortOrder, FloatTotalOrderIsDocumentedOrder) {
  using L = std::numeric_limits<float>;
  std::vector<float> k{L::quiet_NaN(), 1.0f, -L::quiet_NaN(), 0.0f, -0.0f, L::infinity(), -L::infinity(), -1.0f};
  sort_keys(k);
  EXPECT_EQ(k[0], -L::infinity());
  EXPECT_EQ(k[1], -1.0f);
  EXPECT_TRUE(k[2] == 0.0f && std::signbit(k[2]));   // -0 before +0
  EXPECT_TRUE(k[3] == 0.0f && !std::signbit(k[3]));
  EXPECT_EQ(k[4], 1.0f);
  EXPECT_EQ(k[5], L::infinity());
  EXPECT_TRUE(std::isnan(k[6]) && !std::signbit(k[6]));  // NaNs last: +NaN, then -NaN
  EXPECT_TRUE(std::isnan(k[7]) && std::signbit(k[7]));
  sort_keys(k, {.descending = true});
  EXPECT_TRUE(std::isnan(k[0]) && std::isnan(k[1]));
  EXPECT_EQ(k[7], -L::infinity());
}

TEST(CpuSortOrder, SignedIntegers) {
  std::vector<std::int16_t> k{5, -3, 32767, -32768, 0, -1};
  sort_keys(k);
  EXPECT_EQ(k, (std::vector<std::int16_t>{-32768, -3, -1, 0, 5, 32767}));
}

// The public out-of-place calls at the usual sizes, around the hybrid's threshold included;
// in == out sorts in place.
TEST(CpuSortOutOfPlace, PublicCalls) {
  auto sizes = sort_sizes();
  const std::int64_t at = cpu::detail::hybrid_params{}.min_bytes / 4;
  for (std::int64_t n : {at - 1, at, at + 4099}) sizes.push_back(n);
  cpu::sort_workspace ws;
  for (auto n : sizes)
    for (bool desc : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "n = " << n << (desc ? ", descending" : ""));
      const sort_options opts{.descending = desc};
      const auto in = make_keys<std::int32_t>(n, key_pattern::random);
      auto want = in;
      auto want_v = index_values<std::int64_t>(n);
      cpu::sort_pairs_serial(want.data(), want_v.data(), n, opts);
      std::vector<std::int32_t> out(static_cast<std::size_t>(n), 7);
      cpu::sort_keys_parallel(in.data(), out.data(), n, opts);
      ASSERT_TRUE(bitwise_equal(want, out));
      std::fill(out.begin(), out.end(), 7);
      cpu::sort_keys_parallel(in.data(), out.data(), n, ws, opts);
      ASSERT_TRUE(bitwise_equal(want, out));
      const auto in_v = index_values<std::int64_t>(n);
      std::vector<std::int64_t> out_v(static_cast<std::size_t>(n), -1);
      std::fill(out.begin(), out.end(), 7);
      cpu::sort_pairs_parallel(in.data(), in_v.data(), out.data(), out_v.data(), n, opts);
      ASSERT_TRUE(bitwise_equal(want, out));
      ASSERT_TRUE(bitwise_equal(want_v, out_v));
      auto same = in;
      cpu::sort_keys_parallel(same.data(), same.data(), n, opts);
      ASSERT_TRUE(bitwise_equal(want, same));
    }
}

TEST(CpuSortOutOfPlace, OverlapThrowsBeforeWriting) {
  std::vector<std::uint32_t> k{5, 4, 3, 2, 1, 0};
  const auto copy = k;
  EXPECT_THROW(cpu::sort_keys_parallel(k.data(), k.data() + 1, 4), invalid_argument);
  std::vector<int> v{0, 1, 2, 3, 4, 5}, w(6);
  EXPECT_THROW(cpu::sort_pairs_parallel(k.data(), v.data(), k.data(), w.data(), 6), invalid_argument);
  EXPECT_THROW(cpu::sort_keys_parallel(static_cast<const std::uint32_t*>(nullptr), k.data(), 3), invalid_argument);
  EXPECT_EQ(k, copy);
}

TEST(CpuSortArgs, BadArgumentsThrowBeforeWriting) {
  std::vector<std::uint32_t> k{3, 1, 2};
  const auto copy = k;
  EXPECT_THROW(cpu::sort_keys_parallel(k.data(), -1), invalid_argument);
  EXPECT_THROW(cpu::sort_keys_parallel<std::uint32_t>(nullptr, 3), invalid_argument);
  EXPECT_THROW(sort_keys(k, {.begin_bit = 5, .end_bit = 4}), invalid_argument);
  EXPECT_THROW(sort_keys(k, {.begin_bit = 0, .end_bit = 33}), invalid_argument);
  EXPECT_THROW(sort_keys(k, {.begin_bit = -1}), invalid_argument);
  std::vector<int> v(2);
  EXPECT_THROW(sort_pairs(k, v), invalid_argument);
  EXPECT_THROW((cpu::sort_pairs_parallel<std::uint32_t, int>(k.data(), nullptr, 3)), invalid_argument);
  EXPECT_EQ(k, copy);
  cpu::sort_keys_parallel<std::uint32_t>(nullptr, 0);  // n == 0: null is fine
}

}  // namespace
