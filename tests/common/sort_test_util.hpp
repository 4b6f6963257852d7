// Inputs for the sort tests (CPU and CUDA): random keys of every type plus the adversarial
// patterns a radix sort gets wrong first (all equal, sorted, reversed, few distinct values,
// +-0, NaNs of both signs, +-inf, denormals, min/max, keys that differ only in a few bits),
// values that carry their input position (so a stability bug shows), and the checks.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/test_util.hpp"
#include "scankit/cpu/sort.hpp"

namespace scankit::test {

enum class key_pattern { random, all_equal, sorted, reversed, few_distinct, special, narrow, middle_digits };
inline constexpr key_pattern all_key_patterns[] = {
    key_pattern::random,       key_pattern::all_equal, key_pattern::sorted, key_pattern::reversed,
    key_pattern::few_distinct, key_pattern::special,   key_pattern::narrow, key_pattern::middle_digits};

inline const char* name(key_pattern p) {
  switch (p) {
    case key_pattern::random: return "random";
    case key_pattern::all_equal: return "all-equal";
    case key_pattern::sorted: return "sorted";
    case key_pattern::reversed: return "reversed";
    case key_pattern::few_distinct: return "few-distinct";
    case key_pattern::special: return "special";
    case key_pattern::narrow: return "narrow";
    case key_pattern::middle_digits: return "middle-digits";
  }
  return "?";
}

/// Keys whose bits are uniformly random (for floats: every bit pattern, NaNs included).
template <class K>
K random_key_bits() {
  using U = typename radix_traits<K>::bits_t;
  std::uniform_int_distribution<std::uint64_t> d;
  const U b = static_cast<U>(d(rng()));
  K k;
  std::memcpy(&k, &b, sizeof(K));
  return k;
}

/// The values a sort must place exactly: extremes, zeros of both signs, infinities, NaNs.
template <class K>
std::vector<K> special_keys() {
  using L = std::numeric_limits<K>;
  std::vector<K> s{L::min(), L::max(), L::lowest(), K(0), K(1)};
  if constexpr (std::is_signed_v<K>) s.push_back(K(-1));
  if constexpr (std::is_floating_point_v<K>) {
    s.insert(s.end(), {K(-0.0), L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN(),
                       L::denorm_min(), -L::denorm_min(), K(-1.5), K(2.5)});
    using U = typename radix_traits<K>::bits_t;
    const U payload_nan = static_cast<U>(~U{0} >> 1);  // +NaN with every mantissa bit set
    K k;
    std::memcpy(&k, &payload_nan, sizeof(K));
    s.push_back(k);
    const U neg_nan = static_cast<U>(~U{0});  // -NaN, all bits set
    std::memcpy(&k, &neg_nan, sizeof(K));
    s.push_back(k);
  }
  return s;
}

template <class K>
std::vector<K> make_keys(std::int64_t n, key_pattern p) {
  std::vector<K> v(static_cast<std::size_t>(n));
  auto& g = rng();
  switch (p) {
    case key_pattern::random:
      for (auto& x : v) x = random_key_bits<K>();
      break;
    case key_pattern::all_equal: {
      const K k = random_key_bits<K>();
      std::fill(v.begin(), v.end(), k);
      break;
    }
    case key_pattern::sorted:
    case key_pattern::reversed:
      for (auto& x : v) x = random_key_bits<K>();
      cpu::sort_keys_serial(v.data(), n, {.descending = p == key_pattern::reversed});
      break;
    case key_pattern::few_distinct: {
      const K pool[3] = {random_key_bits<K>(), random_key_bits<K>(), random_key_bits<K>()};
      std::uniform_int_distribution<int> d(0, 2);
      for (auto& x : v) x = pool[d(g)];
      break;
    }
    case key_pattern::special: {
      const auto s = special_keys<K>();
      std::uniform_int_distribution<std::size_t> d(0, s.size() + 1);
      for (auto& x : v) {
        const std::size_t i = d(g);
        x = i < s.size() ? s[i] : random_key_bits<K>();
      }
      break;
    }
    case key_pattern::narrow: {
      // Only bits 4..11 and the top bit vary: most digits are constant (the skip path) and
      // the ones that vary straddle a digit boundary.
      using U = typename radix_traits<K>::bits_t;
      const U base = static_cast<U>(random_key_bits<std::uint64_t>());
      const U top = static_cast<U>(U{1} << (sizeof(U) * 8 - 1));
      std::uniform_int_distribution<std::uint64_t> d(0, 255);
      std::bernoulli_distribution coin(0.5);
      for (auto& x : v) {
        U b = static_cast<U>((base & ~static_cast<U>(0xFF0u)) | static_cast<U>(d(g) << 4));
        if (coin(g)) b = static_cast<U>(b ^ top);
        std::memcpy(&x, &b, sizeof(K));
      }
      break;
    }
    case key_pattern::middle_digits: {
      // Only bits 8..23 (16-bit keys: 8..15) of the keys' sortable bits vary, so a radix sort
      // skips its first digit pass (and, for 4- and 8-byte keys, its last): a pass other than
      // the first reads the caller's keys, one other than the last writes the result. For
      // floats this is what integer-valued data looks like (low mantissa bits zero).
      using U = typename radix_traits<K>::bits_t;
      constexpr int lo = sizeof(U) == 1 ? 0 : 8;
      constexpr int width = sizeof(U) == 1 ? 8 : sizeof(U) == 2 ? 8 : 16;
      const U mask = static_cast<U>(((std::uint64_t{1} << width) - 1) << lo);
      const U base = static_cast<U>(random_key_bits<std::uint64_t>());
      std::uniform_int_distribution<std::uint64_t> d(0, (std::uint64_t{1} << width) - 1);
      for (auto& x : v) {
        const U sortable = static_cast<U>((base & static_cast<U>(~mask)) | static_cast<U>(d(g) << lo));
        const U b = radix_traits<K>::map::from(sortable);
        std::memcpy(&x, &b, sizeof(K));
      }
      break;
    }
  }
  return v;
}

/// A 16-byte value: the input position and a tag derived from it.
struct value16 {
  std::uint64_t index, tag;
  friend bool operator==(const value16&, const value16&) = default;
};

/// Values that name their input position, as V.
template <class V>
std::vector<V> index_values(std::int64_t n) {
  std::vector<V> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<V, value16>)
      v[static_cast<std::size_t>(i)] = {static_cast<std::uint64_t>(i), ~static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull};
    else
      v[static_cast<std::size_t>(i)] = static_cast<V>(i);
  }
  return v;
}

/// Bitwise equality (NaN keys compare by their bits), with the first difference reported.
template <class T>
::testing::AssertionResult bitwise_equal(const std::vector<T>& want, const std::vector<T>& got) {
  if (want.size() != got.size())
    return ::testing::AssertionFailure() << "size " << got.size() << ", want " << want.size();
  for (std::size_t i = 0; i < want.size(); ++i)
    if (std::memcmp(&want[i], &got[i], sizeof(T)) != 0) {
      auto f = ::testing::AssertionFailure() << "first difference at index " << i << " of " << want.size();
      if constexpr (std::is_arithmetic_v<T>)
        f << ": got " << +got[i] << ", want " << +want[i];
      return f;
    }
  return ::testing::AssertionSuccess();
}

/// Whether keys are in the order of `opts` (checked on the ordered bits, independently of
/// the reference sort): a second check that catches a wrong reference.
template <class K>
::testing::AssertionResult is_sorted_by_rank(const std::vector<K>& k, const sort_options& opts) {
  const auto [b, e] = scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, "test");
  for (std::size_t i = 1; i < k.size(); ++i)
    if (scankit::detail::sort_rank_bits(k[i], b, e, opts.descending) <
        scankit::detail::sort_rank_bits(k[i - 1], b, e, opts.descending))
      return ::testing::AssertionFailure() << "out of order at index " << i;
  return ::testing::AssertionSuccess();
}

}  // namespace scankit::test
