// Helpers shared by the CPU and CUDA histogram tests: sample generators that mix in the edge
// values (exactly lower, just below upper, upper, NaN, +-inf, below lower), the bin counts of
// every class, and the bin of a sample computed independently of scankit/histogram_bins.hpp
// (exact 128-bit integer arithmetic; for floats the documented double formula spelled out).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "common/test_util.hpp"
#include "scankit/histogram_bins.hpp"

namespace scankit::test {

/// Every sample type the histograms take.
using histogram_sample_types =
    ::testing::Types<std::uint8_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t, float, double>;

/// A bin count of each class the implementations treat differently: 1, tiny, per-warp
/// shared, a block's 32-bit shared histogram, 16-bit counters, global memory.
inline std::vector<std::int64_t> bin_classes() {
  if (quick()) return {1, 7, 256, 3000, 65536, std::int64_t{1} << 17};
  return {1, 2, 7, 256, 1000, 4096, 20000, 65536, 100000, std::int64_t{1} << 20};
}

template <class T>
struct even_case {
  histogram_level_t<T> lower, upper;
};

/// A range for `bins` bins of T that exercises the exact path (width not a power of two) or
/// the shift path, within T's range or (integers) reaching past it.
template <class T>
even_case<T> pick_range(std::int64_t bins, int variant) {
  if constexpr (std::is_floating_point_v<T>) {
    if (variant % 2 == 0) return {T(-1.5), T(2.25)};
    return {T(0), T(1)};
  } else {
    using L = std::int64_t;
    const L lo = static_cast<L>(std::numeric_limits<T>::min());
    const L hi = static_cast<L>(std::numeric_limits<T>::max());
    if constexpr (sizeof(T) <= 4)
      if (variant % 5 == 4) return {lo, hi + 1};  // every value: the full-range path
    switch (variant % 5 % 4) {
      case 0: {  // power-of-two width inside the type: the fast path when narrow
        L w = 1;
        while (bins * w * 2 <= std::min<L>(hi - std::max<L>(lo, 0), L{1} << 40)) w *= 2;
        const L base = std::max<L>(lo, 0);
        return {base, base + bins * w};
      }
      case 1: {  // odd width: exact division
        const L base = lo < 0 ? -1000 : 3;
        return {base, base + bins * 3 + 1};
      }
      case 2:  // the whole type (and past it for small types)
        if constexpr (sizeof(T) == 8) return {lo / 2, hi / 2 + 7};
        else return {lo - 5, hi + 1};
      default:  // a narrow slice: most samples out of range
        return {lo < 0 ? -7 : 0, (lo < 0 ? -7 : 0) + std::max<L>(bins, 1) + bins / 3};
    }
  }
}

/// The bin of x by the documented formula, computed without scankit's code.
template <class T>
int expected_bin(T x, std::int64_t bins, histogram_level_t<T> lower, histogram_level_t<T> upper) {
  if constexpr (std::is_floating_point_v<T>) {
    if (!(x >= lower && x < upper)) return -1;
    const double scale = static_cast<double>(bins) / (static_cast<double>(upper) - static_cast<double>(lower));
    const auto b = static_cast<std::int64_t>((static_cast<double>(x) - static_cast<double>(lower)) * scale);
    return static_cast<int>(std::min<std::int64_t>(b, bins - 1));
  } else {
    __extension__ typedef __int128 int128;
    const int128 v = static_cast<int128>(x), lo = lower, hi = upper;
    if (v < lo || v >= hi) return -1;
    return static_cast<int>((v - lo) * bins / (hi - lo));
  }
}

/// Random samples: mostly spread over [lower - 10%, upper + 10%], a run of equal values, and
/// the edge values, shuffled in.
template <class T>
std::vector<T> random_samples(std::int64_t n, histogram_level_t<T> lower, histogram_level_t<T> upper) {
  std::vector<T> v(static_cast<std::size_t>(n));
  auto& g = rng();
  std::vector<T> specials;
  if constexpr (std::is_floating_point_v<T>) {
    const double span = static_cast<double>(upper) - static_cast<double>(lower);
    std::uniform_real_distribution<double> d(static_cast<double>(lower) - 0.1 * span,
                                             static_cast<double>(upper) + 0.1 * span);
    for (auto& x : v) x = static_cast<T>(d(g));
    specials = {lower, std::nextafter(upper, lower), upper, std::nextafter(lower, upper),
                std::nextafter(lower, lower - 1), std::numeric_limits<T>::quiet_NaN(),
                std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
                T(-0.0), T(0.0)};
  } else {
    const long double lo = std::max<long double>(lower, std::numeric_limits<T>::min());
    const long double hi = std::min<long double>(static_cast<long double>(upper) - 1, std::numeric_limits<T>::max());
    const long double span = hi - lo;
    std::uniform_real_distribution<long double> d(lo - 0.1L * span, hi + 0.1L * span);
    for (auto& x : v) {
      long double r = std::floor(d(g));
      r = std::clamp<long double>(r, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
      x = static_cast<T>(static_cast<std::int64_t>(r));
    }
    auto add = [&](long double c) {
      if (c >= std::numeric_limits<T>::min() && c <= std::numeric_limits<T>::max())
        specials.push_back(static_cast<T>(static_cast<std::int64_t>(c)));
    };
    add(lower); add(static_cast<long double>(lower) - 1); add(static_cast<long double>(upper) - 1);
    add(upper); add(std::numeric_limits<T>::min()); add(std::numeric_limits<T>::max());
  }
  if (n > 0) {
    std::uniform_int_distribution<std::int64_t> pos(0, n - 1);
    for (std::size_t k = 0; k < specials.size() * 3 && k < v.size(); ++k)
      v[static_cast<std::size_t>(pos(g))] = specials[k % specials.size()];
    // A run of one value (aggregation paths) somewhere in the middle.
    const std::int64_t start = pos(g), len = std::min<std::int64_t>(n - start, 1 + n / 8);
    std::fill(v.begin() + start, v.begin() + start + len, v[static_cast<std::size_t>(start)]);
  }
  return v;
}

/// counts by expected_bin (the independent reference), and the number of counted samples.
template <class T, class C>
std::vector<C> expected_counts(const std::vector<T>& v, std::int64_t bins, histogram_level_t<T> lower,
                               histogram_level_t<T> upper, std::int64_t* in_range = nullptr) {
  std::vector<C> c(static_cast<std::size_t>(bins), 0);
  std::int64_t k = 0;
  for (T x : v) {
    const int b = expected_bin(x, bins, lower, upper);
    if (b >= 0) ++c[static_cast<std::size_t>(b)], ++k;
  }
  if (in_range) *in_range = k;
  return c;
}

/// Sorted distinct edges spanning most of T's values around the samples.
template <class T>
std::vector<histogram_level_t<T>> random_edges(std::int64_t bins) {
  using L = histogram_level_t<T>;
  std::vector<L> e;
  auto& g = rng();
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    while (static_cast<std::int64_t>(e.size()) < bins + 1) {
      e.push_back(static_cast<L>(d(g)));
      if (static_cast<std::int64_t>(e.size()) == bins + 1) {
        std::sort(e.begin(), e.end());
        e.erase(std::unique(e.begin(), e.end()), e.end());
      }
    }
  } else {
    const long double lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    const long double span = std::min<long double>(hi - lo, 1e15L);
    std::uniform_real_distribution<long double> d(std::max<long double>(lo, -span / 2), std::max<long double>(lo, -span / 2) + span);
    while (static_cast<std::int64_t>(e.size()) < bins + 1) {
      e.push_back(static_cast<L>(d(g)));
      if (static_cast<std::int64_t>(e.size()) == bins + 1) {
        std::sort(e.begin(), e.end());
        e.erase(std::unique(e.begin(), e.end()), e.end());
      }
    }
  }
  return e;
}

/// Samples for range bins: values between and at the edges, outside them, and specials.
template <class T>
std::vector<T> samples_for_edges(std::int64_t n, const std::vector<histogram_level_t<T>>& e) {
  std::vector<T> v(static_cast<std::size_t>(n));
  auto& g = rng();
  std::uniform_int_distribution<std::size_t> pick(0, e.size() - 1);
  std::uniform_int_distribution<int> what(0, 9);
  for (auto& x : v) {
    const auto edge = e[pick(g)];
    const int w = what(g);
    if (w == 0) {
      x = static_cast<T>(edge);
    } else if (w == 1) {
      if constexpr (std::is_floating_point_v<T>) x = std::nextafter(static_cast<T>(edge), T(-1e30));
      else x = static_cast<T>(edge > std::numeric_limits<T>::min() ? edge - 1 : edge);
    } else {
      const std::size_t i = pick(g) % (e.size() - 1);
      if constexpr (std::is_floating_point_v<T>) {
        std::uniform_real_distribution<double> d(e[i] - 0.1, e[i + 1] + 0.1);
        x = static_cast<T>(d(g));
        if (w == 9) x = std::numeric_limits<T>::quiet_NaN();
      } else {
        std::uniform_real_distribution<long double> d(e[i], e[i + 1]);
        x = static_cast<T>(static_cast<std::int64_t>(d(g)));
      }
    }
  }
  return v;
}

template <class T, class C>
std::vector<C> expected_range_counts(const std::vector<T>& v, const std::vector<histogram_level_t<T>>& e) {
  std::vector<C> c(e.size() - 1, 0);
  for (T x : v) {
    const auto lv = static_cast<histogram_level_t<T>>(x);
    if (!(lv >= e.front() && lv < e.back())) continue;
    const auto it = std::upper_bound(e.begin(), e.end(), lv);
    ++c[static_cast<std::size_t>(it - e.begin() - 1)];
  }
  return c;
}

}  // namespace scankit::test
