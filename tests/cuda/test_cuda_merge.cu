// The merge-path merge of sorted runs (cuda/detail/merge/merge_path.cuh, the distributed sort's
// phase 6) against the standard library: two runs against std::merge for lengths around the
// tile (0, 1, tile - 1, tile, tile + 1, primes, large), with few distinct keys so that equal
// keys cross the runs and values (input positions) show stability; every key type, both
// orders, bit ranges and floats with -0, +0, infinities and NaNs of both signs; many runs
// merged in rounds against a stable sort of their concatenation (the same sequence), with
// empty runs, keys only and values of 4, 8 and 16 bytes; outputs split into a window and a
// side buffer (the distributed sort's last pass), the window empty, a prefix, a suffix, inside
// or everything; more than 2^31 items.
//
//   SCANKIT_TEST_QUICK=1  small sizes, no large-size test: for compute-sanitizer runs.
//   SCANKIT_TEST_SEED=N   replays a run.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "common/cuda_test_util.hpp"
#include "scankit/cuda/detail/merge/merge_path.cuh"
#include "scankit/sort_traits.hpp"

namespace {

using namespace scankit;
using namespace scankit::test;
namespace mp = scankit::cuda::detail::merge;

constexpr std::int64_t tile = mp::merge_tile;

struct alignas(8) value16 {
  std::int64_t position;
  std::int64_t check;
  friend bool operator==(const value16&, const value16&) = default;
};

/// A value that records input position i.
template <class V>
V value_of(std::int64_t i) {
  if constexpr (std::is_same_v<V, value16>) return {i, ~i};
  else return static_cast<V>(i);
}

template <class T>
T* to_device(device_buffer& b, const std::vector<T>& v) {
  b.reserve(v.size() * sizeof(T));
  if (!v.empty()) ck(cudaMemcpy(b.p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  return b.as<T>();
}

template <class T>
std::vector<T> to_host(const device_buffer& b, std::size_t n) {
  std::vector<T> v(n);
  if (n) ck(cudaMemcpy(v.data(), b.p, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return v;
}

/// A random key of `distinct` values at most; floats also draw the special values.
template <class K>
K random_key(splitmix64& g, std::uint64_t distinct) {
  const std::uint64_t r = g();
  if constexpr (std::is_floating_point_v<K>) {
    switch (r % 16) {
      case 0: return std::numeric_limits<K>::quiet_NaN();
      case 1: return -std::numeric_limits<K>::quiet_NaN();
      case 2: return std::numeric_limits<K>::infinity();
      case 3: return -std::numeric_limits<K>::infinity();
      case 4: return K(-0.0);
      case 5: return K(0.0);
      default: {
        const std::uint64_t d = distinct == 0 ? std::uint64_t{1} << 24 : distinct;
        return static_cast<K>(static_cast<double>((r >> 8) % d) - static_cast<double>(d / 2));
      }
    }
  } else {
    const std::uint64_t x = distinct == 0 ? r : r % distinct;
    K k;
    std::memcpy(&k, &x, sizeof(K));  // little-endian: the low bytes
    return k;
  }
}

/// Positions [begin, end) of the output through a split_output's window (begin < 0: a plain
/// output pointer).
struct window {
  std::int64_t begin = -1, end = -1;
};

/// Merges runs of the given lengths (each sorted; keys from `distinct` values) on the GPU and
/// compares keys (bit for bit) and values with the reference: std::merge for two runs, a
/// stable sort of the concatenation for any number.
template <class K, class V>
::testing::AssertionResult check_merge(const std::vector<std::int64_t>& lengths, std::uint64_t distinct, const sort_options& opts,
                                       bool with_values, window w = {}) {
  const auto [begin, end] = scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, "test");
  const scankit::detail::sort_key_less<K> less{begin, end, opts.descending};
  splitmix64 g;
  std::vector<K> keys;
  std::vector<std::int64_t> offsets{0};
  for (std::int64_t len : lengths) {
    const auto first = keys.size();
    for (std::int64_t i = 0; i < len; ++i) keys.push_back(random_key<K>(g, distinct));
    std::stable_sort(keys.begin() + static_cast<std::ptrdiff_t>(first), keys.end(), less);
    offsets.push_back(static_cast<std::int64_t>(keys.size()));
  }
  const auto n = static_cast<std::int64_t>(keys.size());
  const auto runs = static_cast<std::int64_t>(lengths.size());

  // The reference: the input positions in merged order.
  std::vector<std::int64_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::int64_t{0});
  auto by_key = [&](std::int64_t x, std::int64_t y) { return less(keys[static_cast<std::size_t>(x)], keys[static_cast<std::size_t>(y)]); };
  if (runs == 2) {
    std::vector<std::int64_t> merged(order.size());
    const auto mid = order.begin() + static_cast<std::ptrdiff_t>(offsets[1]);
    std::merge(order.begin(), mid, mid, order.end(), merged.begin(), by_key);
    order = merged;
  } else {
    std::stable_sort(order.begin(), order.end(), by_key);
  }

  std::vector<V> values(keys.size());
  for (std::int64_t i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = value_of<V>(i);
  device_buffer kin, vin, kalt, valt, kout, vout, off, splits, kwin, vwin;
  K* dk = to_device(kin, keys);
  V* dv = with_values ? to_device(vin, values) : nullptr;
  const std::int64_t* doff = to_device(off, offsets);
  const bool alt = mp::merge_needs_alternate(runs);
  kalt.reserve(keys.size() * sizeof(K));
  valt.reserve(values.size() * sizeof(V));
  kout.reserve(keys.size() * sizeof(K));
  vout.reserve(values.size() * sizeof(V));
  splits.reserve(static_cast<std::size_t>(mp::merge_split_count(n)) * sizeof(std::int64_t));
  ck(cudaMemset(kout.p, 0xA5, kout.bytes), "cudaMemset");
  const bool split = w.begin >= 0;
  const std::int64_t wn = split ? w.end - w.begin : 0;
  kwin.reserve(static_cast<std::size_t>(wn) * sizeof(K));
  vwin.reserve(static_cast<std::size_t>(wn) * sizeof(V));
  if (split) {
    // Window to kwin/vwin, the rest (and the passes' scratch) to kout/vout.
    const mp::split_output<K> ko{kwin.as<K>(), kout.as<K>(), w.begin, w.end};
    const mp::split_output<V> vo{vwin.as<V>(), vout.as<V>(), w.begin, w.end};
    if (with_values)
      mp::merge_runs(dk, dv, alt ? kalt.as<K>() : nullptr, alt ? valt.as<V>() : nullptr, ko, vo, n, doff, runs, less,
                     splits.as<std::int64_t>(), nullptr);
    else
      mp::merge_runs<K, void>(dk, nullptr, alt ? kalt.as<K>() : nullptr, nullptr, ko, nullptr, n, doff, runs, less,
                              splits.as<std::int64_t>(), nullptr);
  } else if (with_values) {
    mp::merge_runs(dk, dv, alt ? kalt.as<K>() : nullptr, alt ? valt.as<V>() : nullptr, kout.as<K>(), vout.as<V>(), n, doff,
                   runs, less, splits.as<std::int64_t>(), nullptr);
  } else {
    mp::merge_runs<K, void>(dk, nullptr, alt ? kalt.as<K>() : nullptr, nullptr, kout.as<K>(), nullptr, n, doff, runs, less,
                            splits.as<std::int64_t>(), nullptr);
  }
  ck(cudaDeviceSynchronize(), "merge_runs");
  // The whole output: the window's positions from the window's buffer.
  auto gather = [&]<class T>(const device_buffer& out, const device_buffer& win) {
    auto all = to_host<T>(out, keys.size());
    const auto part = to_host<T>(win, static_cast<std::size_t>(wn));
    std::copy(part.begin(), part.end(), all.begin() + (split ? w.begin : 0));
    return all;
  };
  const auto got_k = gather.template operator()<K>(kout, kwin);
  for (std::int64_t i = 0; i < n; ++i) {
    const K want = keys[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
    if (std::memcmp(&want, &got_k[static_cast<std::size_t>(i)], sizeof(K)) != 0)
      return ::testing::AssertionFailure() << "key " << i << " of " << n << " differs";
  }
  if (with_values) {
    const auto got_v = gather.template operator()<V>(vout, vwin);
    for (std::int64_t i = 0; i < n; ++i)
      if (!(got_v[static_cast<std::size_t>(i)] == value_of<V>(order[static_cast<std::size_t>(i)])))
        return ::testing::AssertionFailure() << "value " << i << " of " << n << " differs (stability or a lost value)";
  }
  return ::testing::AssertionSuccess();
}

std::vector<std::int64_t> size_classes() {
  std::vector<std::int64_t> s{0, 1, 2, tile - 1, tile, tile + 1, 2 * tile + 1, 97, 1009, 65537};
  if (!quick()) s.push_back((std::int64_t{1} << 20) + 3);
  return s;
}

TEST(CudaMerge, TwoRunsEverySizeClassAgainstStdMerge) {
  SKIP_WITHOUT_GPU();
  for (std::int64_t na : size_classes())
    for (std::int64_t nb : size_classes())
      for (std::uint64_t distinct : {std::uint64_t{3}, std::uint64_t{0}}) {
        SCOPED_TRACE(::testing::Message() << "na " << na << " nb " << nb << " distinct " << distinct);
        EXPECT_TRUE((check_merge<std::uint32_t, std::uint32_t>({na, nb}, distinct, {}, true)));
      }
  for (std::int64_t na : {std::int64_t{0}, tile, 3 * tile + 7, std::int64_t{100003}})
    EXPECT_TRUE((check_merge<std::uint64_t, std::int64_t>({na, 2 * tile - 5}, 5, {}, false))) << "keys only, na " << na;
}

TEST(CudaMerge, EveryKeyTypeBothOrdersAndBitRanges) {
  SKIP_WITHOUT_GPU();
  const std::vector<std::int64_t> two{3 * tile + 7, 2 * tile - 5};
  auto each = [&]<class K>() {
    SCOPED_TRACE(typeid(K).name());
    const int bits = radix_traits<K>::bits;
    for (const sort_options& o : {sort_options{}, sort_options{.descending = true}, sort_options{.begin_bit = 1, .end_bit = bits - 1},
                                  sort_options{.descending = true, .begin_bit = bits / 2}, sort_options{.begin_bit = 3, .end_bit = 3}}) {
      SCOPED_TRACE(::testing::Message() << (o.descending ? "descending" : "ascending") << " bits [" << o.begin_bit << ", "
                                        << o.end_bit << ")");
      EXPECT_TRUE((check_merge<K, std::uint32_t>(two, 9, o, true)));
      EXPECT_TRUE((check_merge<K, std::uint32_t>(two, 0, o, true)));
      EXPECT_TRUE((check_merge<K, std::uint32_t>({5, 0, 1000, 3, 7 * tile}, 4, o, true)));
    }
  };
  each.template operator()<std::uint8_t>();
  each.template operator()<std::uint16_t>();
  each.template operator()<std::uint32_t>();
  each.template operator()<std::uint64_t>();
  each.template operator()<std::int8_t>();
  each.template operator()<std::int16_t>();
  each.template operator()<std::int32_t>();
  each.template operator()<std::int64_t>();
  each.template operator()<float>();
  each.template operator()<double>();
}

TEST(CudaMerge, ManyRunsInRounds) {
  SKIP_WITHOUT_GPU();
  splitmix64 g;
  for (std::int64_t runs : {1, 2, 3, 4, 5, 7, 8, 9, 16, 33, 100}) {
    for (std::int64_t scale : {std::int64_t{3}, tile, 20 * tile}) {
      std::vector<std::int64_t> lengths;
      for (std::int64_t r = 0; r < runs; ++r) lengths.push_back(g() % 4 == 0 ? 0 : static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(scale + 1)));
      SCOPED_TRACE(::testing::Message() << "runs " << runs << " scale " << scale);
      EXPECT_TRUE((check_merge<std::int32_t, std::uint32_t>(lengths, 6, {}, true)));
      EXPECT_TRUE((check_merge<float, std::int64_t>(lengths, 6, {.descending = true}, true)));
      EXPECT_TRUE((check_merge<double, value16>(lengths, 0, {}, true)));
      EXPECT_TRUE((check_merge<std::uint16_t, std::uint32_t>(lengths, 10, {}, false)));
    }
  }
}

TEST(CudaMerge, SplitOutputWindows) {
  SKIP_WITHOUT_GPU();
  splitmix64 g;
  for (std::int64_t runs : {1, 2, 3, 4, 5, 8, 9}) {
    std::vector<std::int64_t> lengths;
    for (std::int64_t r = 0; r < runs; ++r) lengths.push_back(static_cast<std::int64_t>(g() % (3 * tile)) + (r == 1 ? tile : 0));
    const std::int64_t n = std::accumulate(lengths.begin(), lengths.end(), std::int64_t{0});
    const std::int64_t mid = n / 3 + 1;
    for (const window w : {window{0, n}, window{0, 0}, window{n, n}, window{0, mid}, window{mid, n}, window{mid, 2 * mid + 5},
                           window{tile - 1, tile + 1}}) {
      if (w.end > n) continue;  // a window past a short output
      SCOPED_TRACE(::testing::Message() << "runs " << runs << " n " << n << " window [" << w.begin << ", " << w.end << ")");
      EXPECT_TRUE((check_merge<std::uint32_t, std::uint32_t>(lengths, 7, {}, true, w)));
      EXPECT_TRUE((check_merge<double, value16>(lengths, 0, {.descending = true}, true, w)));
      EXPECT_TRUE((check_merge<std::int64_t, std::uint32_t>(lengths, 5, {}, false, w)));
    }
  }
}

/// More than 2^31 items (64-bit positions in every kernel): two runs of one-byte keys, key v
/// on a contiguous range of each run, values the input positions modulo 2^32. The expected
/// output is known without a reference merge: for each key, its range of the first run, then
/// its range of the second.
TEST(CudaMerge, MoreThan2Pow31Items) {
  SKIP_WITHOUT_GPU();
  if (quick()) GTEST_SKIP() << "quick mode";
  const std::int64_t na = (std::int64_t{1} << 30) + 12345, nb = (std::int64_t{1} << 30) + (std::int64_t{1} << 29) + 777;
  const std::int64_t n = na + nb;
  std::size_t free_b = 0, total_b = 0;
  ck(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  const std::size_t need = static_cast<std::size_t>(n) * 2 * (1 + 4) + static_cast<std::size_t>(mp::merge_split_count(n)) * 8;
  if (free_b < need + (std::size_t{1} << 30)) GTEST_SKIP() << "not enough GPU memory";
  auto key_at = [](std::int64_t i, std::int64_t len) { return static_cast<std::uint8_t>((i * 256) / len); };
  std::vector<std::uint8_t> keys(static_cast<std::size_t>(n));
  std::vector<std::uint32_t> values(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    keys[static_cast<std::size_t>(i)] = i < na ? key_at(i, na) : key_at(i - na, nb);
    values[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(i);
  }
  const std::vector<std::int64_t> offsets{0, na, n};
  device_buffer kin, vin, kout, vout, off, splits;
  std::uint8_t* dk = to_device(kin, keys);
  std::uint32_t* dv = to_device(vin, values);
  kout.reserve(static_cast<std::size_t>(n));
  vout.reserve(static_cast<std::size_t>(n) * 4);
  splits.reserve(static_cast<std::size_t>(mp::merge_split_count(n)) * 8);
  const scankit::detail::sort_key_less<std::uint8_t> less{};
  mp::merge_runs(dk, dv, static_cast<std::uint8_t*>(nullptr), static_cast<std::uint32_t*>(nullptr), kout.as<std::uint8_t>(),
                 vout.as<std::uint32_t>(), n, to_device(off, offsets), 2, less, splits.as<std::int64_t>(), nullptr);
  ck(cudaDeviceSynchronize(), "merge_runs");
  keys = to_host<std::uint8_t>(kout, keys.size());
  values = to_host<std::uint32_t>(vout, values.size());
  // Key v covers [first(v, len), first(v + 1, len)) of a run of len items: the i with i * 256 / len == v.
  auto first = [](std::int64_t v, std::int64_t len) { return (v * len + 255) / 256; };
  std::int64_t at = 0, bad = -1;
  for (std::int64_t v = 0; v < 256 && bad < 0; ++v) {
    for (std::int64_t i = first(v, na); i < first(v + 1, na) && bad < 0; ++i, ++at)
      if (keys[static_cast<std::size_t>(at)] != v || values[static_cast<std::size_t>(at)] != static_cast<std::uint32_t>(i)) bad = at;
    for (std::int64_t i = first(v, nb); i < first(v + 1, nb) && bad < 0; ++i, ++at)
      if (keys[static_cast<std::size_t>(at)] != v || values[static_cast<std::size_t>(at)] != static_cast<std::uint32_t>(na + i))
        bad = at;
  }
  EXPECT_EQ(bad, -1) << "first wrong output";
  EXPECT_EQ(at, n);
}

}  // namespace
