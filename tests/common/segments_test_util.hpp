// Segment layouts for the segmented-operation tests of both backends: CSR offsets of many
// shapes for n items, and the same segments as begin/end bounds with gaps, head flags and key
// runs. Header-only; every generator draws from the rng it is given (test_util.hpp's rng()
// in the suites, so a run replays from its printed seed).
//
//   std::mt19937_64& g = scankit::test::rng();
//   auto off = make_offsets(segment_dist::powerlaw, n, 32.0, g);  // off.front() == 0, off.back() == n
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace scankit::test {

/// How the n items are spread over the segments (`mean` is a mean segment length):
///   uniform     lengths uniform in [1, 2 * mean - 1]
///   powerlaw    Pareto lengths (alpha 1.1, heavy tail, some empty) of the given mean, plus a
///               few giant segments of about n / 5 items each when n is large enough
///   single      one segment of all n items
///   ones        n segments of one item each
///   with_empty  uniform lengths with about a third of the segments empty, one empty segment
///               first and one last
///   many_empty  uniform lengths with runs of empty segments, 2 * n + 16 of them in all: at
///               the start, at the end and at two random places in between
enum class segment_dist { uniform, powerlaw, single, ones, with_empty, many_empty };

inline constexpr segment_dist all_segment_dists[] = {segment_dist::uniform,    segment_dist::powerlaw,
                                                     segment_dist::single,     segment_dist::ones,
                                                     segment_dist::with_empty, segment_dist::many_empty};

inline std::string name(segment_dist d) {
  switch (d) {
    case segment_dist::uniform: return "uniform";
    case segment_dist::powerlaw: return "powerlaw";
    case segment_dist::single: return "single";
    case segment_dist::ones: return "ones";
    case segment_dist::with_empty: return "with_empty";
    case segment_dist::many_empty: return "many_empty";
  }
  return "?";
}

/// CSR offsets of segments of the shape d covering n items: offsets[0] == 0, offsets.back()
/// == n, non-decreasing. At least one segment when n > 0; none ({0}) for n == 0 except where
/// the shape asks for empty segments.
inline std::vector<std::int64_t> make_offsets(segment_dist d, std::int64_t n, double mean, std::mt19937_64& rng) {
  mean = std::max(mean, 1.0);
  std::vector<std::int64_t> off{0};
  auto uniform_len = [&] {
    const auto hi = std::max<std::int64_t>(1, static_cast<std::int64_t>(2 * mean) - 1);
    return std::uniform_int_distribution<std::int64_t>(1, hi)(rng);
  };
  auto fill = [&](auto next_len) {
    for (std::int64_t pos = 0; pos < n;) {
      pos = std::min(n, pos + next_len());
      off.push_back(pos);
    }
  };
  switch (d) {
    case segment_dist::single:
      if (n > 0) off.push_back(n);
      break;
    case segment_dist::ones:
      for (std::int64_t i = 1; i <= n; ++i) off.push_back(i);
      break;
    case segment_dist::uniform: fill(uniform_len); break;
    case segment_dist::powerlaw: {
      constexpr double alpha = 1.1;
      const double xm = mean * (alpha - 1) / alpha;
      std::uniform_real_distribution<double> u(0.0, 1.0);
      std::uniform_int_distribution<int> giant(0, 999);
      const bool giants = n >= 1000;
      fill([&] {
        if (giants && giant(rng) == 0) return std::max<std::int64_t>(1, n / 5);
        const double x = xm * std::pow(1.0 - u(rng), -1.0 / alpha);
        return static_cast<std::int64_t>(std::min(x, static_cast<double>(n)));
      });
      if (giants && n / 5 > 0) {  // at least one giant: the longest run of segments becomes one
        const std::int64_t at = std::uniform_int_distribution<std::int64_t>(0, n - n / 5)(rng);
        std::vector<std::int64_t> merged;
        for (std::int64_t o : off)
          if (o <= at || o >= at + n / 5) merged.push_back(o);
        if (merged.back() != n) merged.push_back(n);
        off = std::move(merged);
        off.insert(std::upper_bound(off.begin(), off.end(), at), at);
      }
      break;
    }
    case segment_dist::with_empty: {
      std::bernoulli_distribution empty(1.0 / 3);
      off.push_back(0);
      fill([&] { return empty(rng) ? std::int64_t{0} : uniform_len(); });
      off.push_back(n);
      break;
    }
    case segment_dist::many_empty: {
      fill(uniform_len);
      const std::int64_t total = 2 * n + 16;
      std::vector<std::int64_t> at{0, n, std::uniform_int_distribution<std::int64_t>(0, n)(rng),
                                   std::uniform_int_distribution<std::int64_t>(0, n)(rng)};
      for (std::int64_t k = 0; k < 4; ++k) off.insert(off.end(), total / 4 + (k < total % 4 ? 1 : 0), at[static_cast<std::size_t>(k)]);
      std::sort(off.begin(), off.end());
      break;
    }
  }
  if (off.size() < 2 && d != segment_dist::single && n > 0) off.push_back(n);
  return off;
}

/// The segments of covering offsets as begin/end bounds with gaps: each non-empty segment
/// loses a random number of items at either end (sometimes all of them), so some items lie
/// between segments.
struct bounds_arrays {
  std::vector<std::int64_t> begin, end;
};

inline bounds_arrays gapped_bounds(const std::vector<std::int64_t>& off, std::mt19937_64& rng) {
  bounds_arrays b;
  std::uniform_int_distribution<int> pick(0, 3);
  for (std::size_t s = 0; s + 1 < off.size(); ++s) {
    std::int64_t lo = off[s], hi = off[s + 1];
    if (hi > lo && pick(rng) == 0) lo += std::uniform_int_distribution<std::int64_t>(0, hi - lo)(rng);
    if (hi > lo && pick(rng) == 0) hi -= std::uniform_int_distribution<std::int64_t>(0, hi - lo)(rng);
    b.begin.push_back(lo);
    b.end.push_back(hi);
  }
  return b;
}

/// Head flags of covering offsets: a random non-zero byte at every non-empty segment's first
/// item, zero elsewhere (item 0's flag random: item 0 is a head either way).
inline std::vector<std::uint8_t> flags_from_offsets(const std::vector<std::int64_t>& off, std::int64_t n,
                                                    std::mt19937_64& rng) {
  std::vector<std::uint8_t> f(static_cast<std::size_t>(n), 0);
  std::uniform_int_distribution<int> byte(1, 255);
  for (std::int64_t o : off)
    if (o < n) f[static_cast<std::size_t>(o)] = static_cast<std::uint8_t>(byte(rng));
  if (n > 0) f[0] = static_cast<std::uint8_t>(byte(rng) & 1 ? byte(rng) : 0);
  return f;
}

/// Keys whose runs are the non-empty segments of covering offsets: each run's key differs from
/// the previous run's (a small random step, so keys also repeat non-adjacently).
template <class K>
std::vector<K> keys_from_offsets(const std::vector<std::int64_t>& off, std::int64_t n, std::mt19937_64& rng) {
  std::vector<K> k(static_cast<std::size_t>(n));
  std::uniform_int_distribution<int> step(1, 3), sign(0, 1);
  std::int64_t v = 0;
  for (std::size_t s = 0; s + 1 < off.size(); ++s) {
    if (off[s] == off[s + 1]) continue;
    v += sign(rng) ? step(rng) : -step(rng);
    for (std::int64_t i = off[s]; i < off[s + 1]; ++i) k[static_cast<std::size_t>(i)] = static_cast<K>(v);
  }
  return k;
}

}  // namespace scankit::test
