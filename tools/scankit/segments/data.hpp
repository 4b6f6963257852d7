// The inputs of `bench|sweep|verify segments` and their serial reference: segment layouts
// drawn from a length distribution, values, the keys and head flags derived from the offsets,
// and the checks of every operation's output against a serial loop over the same data.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace scankit::tools::segments_data {

/// CSR offsets (count + 1 of them, from 0 to n) and what the tables print about them.
struct layout {
  std::vector<std::int64_t> offsets{0};
  std::int64_t count() const { return static_cast<std::int64_t>(offsets.size()) - 1; }
  std::int64_t n() const { return offsets.back(); }
  /// Segments with at least one item: the runs of the keys, the segments of the flags.
  std::int64_t non_empty() const {
    std::int64_t r = 0;
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s) r += offsets[s + 1] > offsets[s];
    return r;
  }
};

/// Segments of n items whose lengths follow `dist` with mean `mean` (the mean is ignored by
/// single and ones). uniform: 1..2*mean-1; empty: each segment empty with probability 1/2, else
/// 1..4*mean-1 (the mean over all of them is `mean`); powerlaw: n / mean segments whose lengths
/// are proportional to Pareto draws (alpha 1.1: most short, a few giant), rounded so they add
/// up to n. The last segment of uniform and empty is cut at n.
inline layout make_layout(const std::string& dist, std::int64_t n, std::int64_t mean, std::uint64_t seed) {
  layout l;
  std::mt19937_64 g(seed ^ 0x5e6d5e6dULL);
  mean = std::max<std::int64_t>(mean, 1);
  if (dist == "single") {
    if (n > 0) l.offsets.push_back(n);
    return l;
  }
  if (dist == "ones") {
    l.offsets.resize(static_cast<std::size_t>(n) + 1);
    for (std::int64_t i = 0; i <= n; ++i) l.offsets[static_cast<std::size_t>(i)] = i;
    return l;
  }
  if (dist == "powerlaw") {
    const std::int64_t count = std::max<std::int64_t>(1, n / mean);
    // Two passes over the same draws: their sum, then the rounded running sums.
    auto draw = [](std::mt19937_64& r) {
      const double u = (static_cast<double>(r() >> 11) + 0.5) * 0x1.0p-53;
      return std::pow(u, -1.0 / 1.1);
    };
    std::mt19937_64 g1 = g;
    double total = 0;
    for (std::int64_t s = 0; s < count; ++s) total += draw(g1);
    l.offsets.reserve(static_cast<std::size_t>(count) + 1);
    double run = 0;
    for (std::int64_t s = 0; s + 1 < count; ++s) {
      run += draw(g);
      l.offsets.push_back(std::min<std::int64_t>(n, std::llround(run / total * static_cast<double>(n))));
    }
    l.offsets.push_back(n);
    return l;
  }
  const bool with_empty = dist == "empty";
  const std::int64_t hi = with_empty ? 4 * mean - 1 : 2 * mean - 1;
  l.offsets.reserve(static_cast<std::size_t>(n / std::max<std::int64_t>(mean, 1)) + 16);
  std::int64_t at = 0;
  while (at < n) {
    std::int64_t len = 1 + static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(hi));
    if (with_empty && (g() & 1)) len = 0;
    at = std::min(n, at + len);
    l.offsets.push_back(at);
  }
  return l;
}

/// Small integers (-1000..1000, wrapping for unsigned types) or floats in [-1, 1].
template <class T>
std::vector<T> make_values(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    for (auto& x : v) x = static_cast<T>(d(g));
  } else {
    for (auto& x : v) x = static_cast<T>(static_cast<std::int64_t>(g() % 2001) - 1000);
  }
  return v;
}

/// keys[i]: the index of i's segment (u32: consecutive non-empty segments always differ).
inline std::vector<std::uint32_t> make_keys(const layout& l) {
  std::vector<std::uint32_t> k(static_cast<std::size_t>(l.n()));
  for (std::int64_t s = 0; s < l.count(); ++s)
    std::fill(k.begin() + l.offsets[s], k.begin() + l.offsets[s + 1], static_cast<std::uint32_t>(s));
  return k;
}

/// flags[i] = 1 where a non-empty segment starts.
inline std::vector<std::uint8_t> make_flags(const layout& l) {
  std::vector<std::uint8_t> f(static_cast<std::size_t>(l.n()), 0);
  for (std::int64_t s = 0; s < l.count(); ++s)
    if (l.offsets[s] < l.offsets[s + 1]) f[static_cast<std::size_t>(l.offsets[s])] = 1;
  return f;
}

/// A running sum as the serial loop computes it: integers wrap (in the unsigned type of T, so
/// that a signed overflow is defined), floats in long double with the sum of |x| beside it.
template <class T>
struct wide_of {
  using type = long double;
};
template <class T>
  requires std::is_integral_v<T>
struct wide_of<T> {
  using type = std::make_unsigned_t<T>;
};

template <class T>
struct serial_sum {
  using wide = typename wide_of<T>::type;
  wide sum = 0;
  long double abs_sum = 0;
  void add(T x) {
    if constexpr (std::is_floating_point_v<T>) {
      sum += x;
      abs_sum += std::abs(static_cast<long double>(x));
    } else {
      sum = static_cast<wide>(sum + static_cast<wide>(x));
    }
  }
  /// "" when got matches, else why not. len: the items summed (for the float tolerance).
  std::string compare(T got, std::int64_t len) const {
    if constexpr (std::is_floating_point_v<T>) {
      const double eps = std::numeric_limits<T>::epsilon();
      const double tol = 8 * eps * static_cast<double>(abs_sum) * std::log2(static_cast<double>(len) + 2) +
                         std::numeric_limits<T>::denorm_min();
      if (std::abs(static_cast<long double>(got) - sum) <= tol) return "";
      return fmt::format("{} instead of {} (tolerance {:.3g})", static_cast<double>(got), static_cast<double>(sum), tol);
    } else {
      if (static_cast<T>(sum) == got) return "";
      return fmt::format("{} instead of {}", got, static_cast<T>(sum));
    }
  }
};

/// The segmented reduce: out[s] = the sum of segment s (0 when empty).
template <class T>
std::string check_reduce(const std::vector<T>& in, const layout& l, const T* out) {
  for (std::int64_t s = 0; s < l.count(); ++s) {
    serial_sum<T> acc;
    for (std::int64_t i = l.offsets[s]; i < l.offsets[s + 1]; ++i) acc.add(in[static_cast<std::size_t>(i)]);
    if (auto e = acc.compare(out[s], l.offsets[s + 1] - l.offsets[s]); !e.empty())
      return fmt::format("segment {} of {} (items {}..{}): {}", s, l.count(), l.offsets[s], l.offsets[s + 1], e);
  }
  return "";
}

/// The inclusive segmented scan (every scan op: flags and keys give the same segments, empty
/// ones aside).
template <class T>
std::string check_scan(const std::vector<T>& in, const layout& l, const T* out) {
  for (std::int64_t s = 0; s < l.count(); ++s) {
    serial_sum<T> acc;
    for (std::int64_t i = l.offsets[s]; i < l.offsets[s + 1]; ++i) {
      acc.add(in[static_cast<std::size_t>(i)]);
      if (auto e = acc.compare(out[i], i - l.offsets[s] + 1); !e.empty())
        return fmt::format("item {} (segment {}, items {}..{}): {}", i, s, l.offsets[s], l.offsets[s + 1], e);
    }
  }
  return "";
}

/// reduce_by_key over the segment ids: one run per non-empty segment, in order.
template <class T>
std::string check_reduce_by_key(const std::vector<T>& in, const layout& l, const std::uint32_t* keys, const T* aggs,
                                std::int64_t runs) {
  const std::int64_t want = l.non_empty();
  if (runs != want) return fmt::format("{} runs instead of {}", runs, want);
  std::int64_t r = 0;
  for (std::int64_t s = 0; s < l.count(); ++s) {
    if (l.offsets[s] == l.offsets[s + 1]) continue;
    serial_sum<T> acc;
    for (std::int64_t i = l.offsets[s]; i < l.offsets[s + 1]; ++i) acc.add(in[static_cast<std::size_t>(i)]);
    if (keys[r] != static_cast<std::uint32_t>(s)) return fmt::format("run {}: key {} instead of {}", r, keys[r], s);
    if (auto e = acc.compare(aggs[r], l.offsets[s + 1] - l.offsets[s]); !e.empty())
      return fmt::format("run {} (key {}, {} items): {}", r, s, l.offsets[s + 1] - l.offsets[s], e);
    ++r;
  }
  return "";
}

}  // namespace scankit::tools::segments_data
