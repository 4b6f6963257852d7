// Inputs of the distributed tests, the same on every rank and on both backends: every rank
// generates the whole global array from the seed and takes its own shard, so each rank can
// check its part of the result against the serial reference of the whole array without any
// communication in the test itself.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace scankit::dist::test {

inline std::uint64_t mix(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0) {
  std::uint64_t x = seed ^ (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full);
  x ^= x >> 33, x *= 0xff51afd7ed558ccdull, x ^= x >> 33, x *= 0xc4ceb9fe1a85ec53ull, x ^= x >> 33;
  return x;
}

/// How the global array is cut into shards.
enum class layout {
  equal,        // as equal as possible
  uneven,       // random lengths
  first_empty,  // rank 0 has nothing, the others share the items
  one_rank,     // every item on the last rank
  one_item,     // one item in total, on the middle rank
  empty,        // no items at all
};

inline constexpr layout all_layouts[] = {layout::equal, layout::uneven, layout::first_empty,
                                         layout::one_rank, layout::one_item, layout::empty};

inline const char* name(layout l) {
  switch (l) {
    case layout::equal: return "equal";
    case layout::uneven: return "uneven";
    case layout::first_empty: return "first_empty";
    case layout::one_rank: return "one_rank";
    case layout::one_item: return "one_item";
    case layout::empty: return "empty";
  }
  return "?";
}

/// Shard lengths of `total` items over p ranks (one_item and empty ignore `total`).
inline std::vector<std::int64_t> shard_sizes(layout l, std::int64_t total, int p, std::uint64_t seed) {
  std::vector<std::int64_t> s(static_cast<std::size_t>(p), 0);
  switch (l) {
    case layout::equal:
      for (int r = 0; r < p; ++r) s[static_cast<std::size_t>(r)] = total / p + (r < total % p ? 1 : 0);
      break;
    case layout::uneven: {
      std::vector<std::uint64_t> w(static_cast<std::size_t>(p));
      std::uint64_t sum = 0;
      for (int r = 0; r < p; ++r) sum += (w[static_cast<std::size_t>(r)] = 1 + mix(seed, 77, static_cast<std::uint64_t>(r)) % 1000);
      std::int64_t left = total;
      for (int r = 0; r + 1 < p; ++r) {
        const auto take = static_cast<std::int64_t>(static_cast<double>(total) * static_cast<double>(w[static_cast<std::size_t>(r)]) / static_cast<double>(sum));
        s[static_cast<std::size_t>(r)] = std::min(take, left);
        left -= s[static_cast<std::size_t>(r)];
      }
      s[static_cast<std::size_t>(p - 1)] = left;
      break;
    }
    case layout::first_empty:
      for (int r = 1; r < p; ++r) s[static_cast<std::size_t>(r)] = total / std::max(1, p - 1) + (r - 1 < total % std::max(1, p - 1) ? 1 : 0);
      if (p == 1) s[0] = total;
      break;
    case layout::one_rank: s[static_cast<std::size_t>(p - 1)] = total; break;
    case layout::one_item: s[static_cast<std::size_t>(p / 2)] = 1; break;
    case layout::empty: break;
  }
  return s;
}

inline std::int64_t offset_of(const std::vector<std::int64_t>& sizes, int rank) {
  std::int64_t o = 0;
  for (int r = 0; r < rank; ++r) o += sizes[static_cast<std::size_t>(r)];
  return o;
}

inline std::int64_t total_of(const std::vector<std::int64_t>& sizes) { return offset_of(sizes, static_cast<int>(sizes.size())); }

/// Key distributions of the sort and compaction tests.
enum class distribution {
  uniform,      // every bit pattern of the type (floats: finite values, with -0, +-inf and NaN mixed in)
  all_equal,    // one key
  zipf,         // Zipf(1.2) over 1,000 values: a few keys hold most items
  sorted,       // already in order
  reversed,     // in reverse order
  few,          // 3 distinct keys
  runs,         // long runs of equal keys (crossing shard boundaries)
};

inline constexpr distribution all_distributions[] = {distribution::uniform, distribution::all_equal, distribution::zipf,
                                                     distribution::sorted, distribution::reversed, distribution::few,
                                                     distribution::runs};

inline const char* name(distribution d) {
  switch (d) {
    case distribution::uniform: return "uniform";
    case distribution::all_equal: return "all_equal";
    case distribution::zipf: return "zipf";
    case distribution::sorted: return "sorted";
    case distribution::reversed: return "reversed";
    case distribution::few: return "few";
    case distribution::runs: return "runs";
  }
  return "?";
}

/// A value of T from a small integer (exact in every type).
template <class T>
T from_small(std::int64_t v) {
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(v);
  else return static_cast<T>(static_cast<std::make_unsigned_t<T>>(v));
}

template <class T>
T uniform_value(std::uint64_t bits, std::uint64_t salt) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (salt % 64) {
      case 0: return std::numeric_limits<T>::quiet_NaN();
      case 1: return -std::numeric_limits<T>::quiet_NaN();
      case 2: return std::numeric_limits<T>::infinity();
      case 3: return -std::numeric_limits<T>::infinity();
      case 4: return T(-0.0);
      case 5: return T(0.0);
      default: break;
    }
    const double u = static_cast<double>(bits >> 11) * 0x1.0p-53;
    return static_cast<T>((u - 0.5) * 2e6);
  } else {
    T t;
    std::memcpy(&t, &bits, sizeof(T));
    return t;
  }
}

/// The whole global array of `total` keys of distribution d.
template <class T>
std::vector<T> make_keys(distribution d, std::int64_t total, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(total));
  std::vector<double> zipf_cdf;
  if (d == distribution::zipf) {
    zipf_cdf.resize(1000);
    double s = 0;
    for (int k = 0; k < 1000; ++k) zipf_cdf[static_cast<std::size_t>(k)] = (s += 1.0 / std::pow(k + 1, 1.2));
    for (auto& c : zipf_cdf) c /= s;
  }
  const std::int64_t run = std::max<std::int64_t>(1, total / 7 + 3);
  for (std::int64_t i = 0; i < total; ++i) {
    const std::uint64_t h = mix(seed, static_cast<std::uint64_t>(i));
    T& x = v[static_cast<std::size_t>(i)];
    switch (d) {
      case distribution::uniform: x = uniform_value<T>(h, mix(seed, 5, static_cast<std::uint64_t>(i))); break;
      case distribution::all_equal: x = from_small<T>(42); break;
      case distribution::zipf: {
        const double u = static_cast<double>(h >> 11) * 0x1.0p-53;
        x = from_small<T>(std::lower_bound(zipf_cdf.begin(), zipf_cdf.end(), u) - zipf_cdf.begin());
        break;
      }
      case distribution::sorted: x = from_small<T>(i % 100); break;  // sorted within runs of 100 values, then below
      case distribution::reversed: x = from_small<T>(99 - i % 100); break;
      case distribution::few: x = from_small<T>(static_cast<std::int64_t>(h % 3) * 10); break;
      case distribution::runs: x = from_small<T>((i / run) % 5); break;
    }
  }
  if (d == distribution::sorted) std::sort(v.begin(), v.end(), [](T a, T b) { return a < b; });
  if (d == distribution::reversed) std::sort(v.begin(), v.end(), [](T a, T b) { return b < a; });
  return v;
}

/// Small integer values in [-range, range] (exact sums in every type for the sizes tested).
template <class T>
std::vector<T> make_values(std::int64_t total, std::uint64_t seed, std::int64_t range = 8) {
  std::vector<T> v(static_cast<std::size_t>(total));
  for (std::int64_t i = 0; i < total; ++i) {
    const auto r = static_cast<std::int64_t>(mix(seed, static_cast<std::uint64_t>(i)) % static_cast<std::uint64_t>(2 * range + 1)) - range;
    v[static_cast<std::size_t>(i)] = std::is_signed_v<T> ? from_small<T>(r) : from_small<T>(r + range);
  }
  return v;
}

/// Bitwise equality (NaNs and -0 compare by their bits).
template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// An affine map x -> a * x + b over uint32 (wrapping); composition does not commute.
struct affine {
  std::uint32_t a, b;
  friend bool operator==(const affine&, const affine&) = default;
};

struct compose {
  using value_type = affine;
#if defined(__CUDACC__)
  __host__ __device__
#endif
  static affine identity() { return {1, 0}; }
#if defined(__CUDACC__)
  __host__ __device__
#endif
  affine operator()(affine f, affine g) const { return {g.a * f.a, g.a * f.b + g.b}; }
};

inline std::vector<affine> make_affine(std::int64_t total, std::uint64_t seed) {
  std::vector<affine> v(static_cast<std::size_t>(total));
  for (std::int64_t i = 0; i < total; ++i) {
    const std::uint64_t h = mix(seed, static_cast<std::uint64_t>(i));
    v[static_cast<std::size_t>(i)] = {static_cast<std::uint32_t>(h) | 1u, static_cast<std::uint32_t>(h >> 32)};
  }
  return v;
}

}  // namespace scankit::dist::test
