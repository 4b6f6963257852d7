// The inputs of the sort benches (flat and segmented, sort/bench.cpp and
// sort/segmented_bench.cpp): the key and value types named on the command line, random keys
// that are the same for a seed whatever the thread count, values that number the items (so
// that a pairs check also checks stability), and the bitwise comparison of the results.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "common/key_types.hpp"
#include "common/parallel.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::tools::sort_input {

struct value16 {
  std::uint64_t a, b;
};

using tools::with_key_type;

/// Calls f(K{}, V{}) with the key type named `t` and the value type of `vb` bytes (char for none).
template <class F>
auto with_types(const std::string& t, int vb, F&& f) {
  return with_key_type(t, [&](auto k) {
    switch (vb) {
      case 4: return f(k, std::uint32_t{});
      case 8: return f(k, std::uint64_t{});
      case 16: return f(k, value16{});
      default: return f(k, char{});  // keys only
    }
  });
}

inline std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Random keys (in parallel): every bit random, or the low `bits` ordered bits; floats
/// without NaNs or -0.0 (CUB orders NaNs differently and ties -0.0 with +0.0; the tests cover
/// both).
template <class K>
std::vector<K> random_keys(std::int64_t n, std::uint64_t seed, int bits) {
  using U = typename radix_traits<K>::bits_t;
  std::vector<K> v(static_cast<std::size_t>(n));
  parallel_chunks(n, 1 << 16, [&](const index_range& r) {
    for (std::int64_t i = r.begin(); i < r.end(); ++i) {
      U o = static_cast<U>(splitmix(seed * 0x100000001B3ull + static_cast<std::uint64_t>(i)));
      if (bits > 0 && bits < static_cast<int>(sizeof(U) * 8)) o = static_cast<U>(o & ((U{1} << bits) - 1));
      K k = radix_traits<K>::key_of(o);
      if constexpr (std::is_floating_point_v<K>) {
        if (k != k) k = static_cast<K>(i % 1000) - 500;
        if (k == 0) k = K{0};  // -0.0 becomes +0.0
      }
      v[static_cast<std::size_t>(i)] = k;
    }
  });
  return v;
}

/// Values that number the items (the low bytes of the index).
template <class V>
std::vector<V> index_vals(std::int64_t n) {
  std::vector<V> v(static_cast<std::size_t>(n));
  parallel_chunks(n, 1 << 16, [&](const index_range& r) {
    for (std::int64_t i = r.begin(); i < r.end(); ++i) {
      V x{};
      std::memcpy(&x, &i, std::min(sizeof(V), sizeof(i)));
      v[static_cast<std::size_t>(i)] = x;
    }
  });
  return v;
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace scankit::tools::sort_input
