// The histogram benchmarks' inputs: sample type names and dispatch, the bench range of each
// type, and deterministic random samples (uniform, all in one bin, or normal-like) generated
// in parallel from a seed (sample i depends only on the seed and i).
#pragma once

#include "common/parallel.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "scankit/error.hpp"
#include "scankit/histogram_bins.hpp"

namespace scankit::tools {

enum class htype { u8, u16, i32, u32, i64, f32, f64 };
inline constexpr std::array all_htypes{htype::u8,  htype::u16, htype::i32, htype::u32,
                                       htype::i64, htype::f32, htype::f64};

constexpr std::string_view name(htype t) {
  switch (t) {
    case htype::u8: return "u8";
    case htype::u16: return "u16";
    case htype::i32: return "i32";
    case htype::u32: return "u32";
    case htype::i64: return "i64";
    case htype::f32: return "f32";
    case htype::f64: return "f64";
  }
  return "?";
}

inline std::optional<htype> parse_htype(std::string_view s) {
  for (auto t : all_htypes)
    if (name(t) == s) return t;
  if (s == "uint8") return htype::u8;
  if (s == "uint16") return htype::u16;
  if (s == "int32") return htype::i32;
  if (s == "uint32") return htype::u32;
  if (s == "int64") return htype::i64;
  if (s == "float") return htype::f32;
  if (s == "double") return htype::f64;
  return std::nullopt;
}

constexpr std::size_t size_of(htype t) {
  switch (t) {
    case htype::u8: return 1;
    case htype::u16: return 2;
    case htype::i32:
    case htype::u32:
    case htype::f32: return 4;
    default: return 8;
  }
}

template <class T>
struct type_tag {
  using type = T;
};

/// f(type_tag<T>{}) for the sample type t.
template <class F>
decltype(auto) dispatch(htype t, F&& f) {
  switch (t) {
    case htype::u8: return f(type_tag<std::uint8_t>{});
    case htype::u16: return f(type_tag<std::uint16_t>{});
    case htype::i32: return f(type_tag<std::int32_t>{});
    case htype::u32: return f(type_tag<std::uint32_t>{});
    case htype::i64: return f(type_tag<std::int64_t>{});
    case htype::f32: return f(type_tag<float>{});
    case htype::f64: return f(type_tag<double>{});
  }
  throw error("unknown sample type");
}

template <class T>
struct level_range {
  histogram_level_t<T> lower, upper;
};

/// The range the benchmarks bin over: every value of uint8 and uint16, [0, 2^30) of int32,
/// [0, 2^31) of uint32 (levels CUB can take as int / unsigned), [0, 2^40) of int64, [0, 1)
/// of float and double.
template <class T>
level_range<T> bench_range() {
  if constexpr (std::is_same_v<T, std::uint8_t>) return {0, 256};
  else if constexpr (std::is_same_v<T, std::uint16_t>) return {0, 65536};
  else if constexpr (std::is_same_v<T, std::int32_t>) return {0, std::int64_t{1} << 30};
  else if constexpr (std::is_same_v<T, std::uint32_t>) return {0, std::int64_t{1} << 31};
  else if constexpr (std::is_same_v<T, std::int64_t>) return {0, std::int64_t{1} << 40};
  else return {T(0), T(1)};
}

inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Samples over [lower, upper): "uniform"; "one-bin" (every sample in the middle bin of
/// `bins`); "normal" (mean at the middle, standard deviation a sixteenth of the range,
/// clamped into the range: a smooth, peaked, image-like distribution).
template <class T>
std::vector<T> make_samples(std::int64_t n, const std::string& dist, std::int64_t bins,
                            level_range<T> r, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(n));
  const long double lo = static_cast<long double>(r.lower), hi = static_cast<long double>(r.upper);
  const long double span = hi - lo;
  auto clamp_to_range = [&](long double x) -> T {
    if constexpr (std::is_floating_point_v<T>) {
      T t = static_cast<T>(x);
      if (!(t >= r.lower)) t = r.lower;
      if (!(t < r.upper)) t = std::nextafter(r.upper, r.lower);
      return t;
    } else {
      x = std::floor(x);
      if (x < lo) x = lo;
      if (x > hi - 1) x = hi - 1;
      return static_cast<T>(static_cast<std::int64_t>(x));
    }
  };
  const int kind = dist == "uniform" ? 0 : dist == "one-bin" ? 1 : 2;
  const T one = clamp_to_range(lo + span * (static_cast<long double>(bins / 2) + 0.5L) / static_cast<long double>(bins));
  parallel_chunks(n, 1 << 16, [&](const index_range& br) {
    for (std::int64_t i = br.begin(); i < br.end(); ++i) {
      const std::uint64_t h = splitmix64(seed ^ (static_cast<std::uint64_t>(i) * 0xD1B54A32D192ED03ull));
      T x;
      if (kind == 1) {
        x = one;
      } else if (kind == 0) {
        if constexpr (std::is_floating_point_v<T>) {
          x = clamp_to_range(lo + span * static_cast<long double>(h >> 11) * 0x1p-53L);
        } else {
          const auto range = static_cast<std::uint64_t>(r.upper - r.lower);
          x = static_cast<T>(r.lower + static_cast<std::int64_t>(h % range));
        }
      } else {
        // Irwin-Hall: the sum of four 16-bit uniforms is close to normal (variance 1/3).
        long double s = 0;
        for (int k = 0; k < 4; ++k) s += static_cast<long double>((h >> (16 * k)) & 0xFFFF) / 65536.0L;
        x = clamp_to_range(lo + span / 2 + (s - 2.0L) * 1.7320508075688772L * span / 16);
      }
      v[static_cast<std::size_t>(i)] = x;
    }
  });
  return v;
}

/// bins + 1 evenly spread distinct edges over [lower, upper) (throws when the integer range
/// has fewer values than bins).
template <class T>
std::vector<histogram_level_t<T>> make_edges(std::int64_t bins, level_range<T> r) {
  std::vector<histogram_level_t<T>> e(static_cast<std::size_t>(bins + 1));
  if constexpr (std::is_floating_point_v<T>) {
    for (std::int64_t i = 0; i <= bins; ++i)
      e[static_cast<std::size_t>(i)] = static_cast<T>(static_cast<double>(r.lower) +
          (static_cast<double>(r.upper) - static_cast<double>(r.lower)) * static_cast<double>(i) / static_cast<double>(bins));
  } else {
    const auto range = r.upper - r.lower;
    if (range < bins) throw invalid_argument("range bins: more bins than values in the range");
    for (std::int64_t i = 0; i <= bins; ++i)
      e[static_cast<std::size_t>(i)] = r.lower + static_cast<std::int64_t>(static_cast<long double>(range) * i / bins);
  }
  return e;
}

}  // namespace scankit::tools
