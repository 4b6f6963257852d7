// What the GPU segmented-operation tests compare with: segment layouts of every distribution
// they cover, the flags and keys of a layout, and checks of results segment by segment with
// the reductions' and the scans' checks against the serial reference.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "common/reduce_test_util.hpp"
#include "common/test_util.hpp"
#include "scankit/ops.hpp"
#include "scankit/segments.hpp"

namespace scankit::test {

/// How segment lengths are drawn.
enum class segment_dist { uniform, powerlaw, single, ones, with_empty, many_empty };

inline const char* dist_name(segment_dist d) {
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

/// CSR offsets (count + 1 entries, 0 to n) of a layout of n items with mean length `mean`.
///   uniform     lengths uniform in [0, 2 * mean]
///   powerlaw    Pareto-like lengths (alpha 1.2) with the given mean: many short, a few giant
///   single      one segment of everything; ones: n segments of one item
///   with_empty  uniform, with half the segments empty
///   many_empty  a run of 100,000 empty segments in the middle, uniform elsewhere
inline std::vector<std::int64_t> make_offsets(segment_dist d, std::int64_t n, double mean, std::mt19937_64& g) {
  std::vector<std::int64_t> off{0};
  if (d == segment_dist::single) {
    off.push_back(n);
    return off;
  }
  if (d == segment_dist::ones) {
    for (std::int64_t i = 1; i <= n; ++i) off.push_back(i);
    return off;
  }
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::int64_t at = 0;
  bool gap_done = false;
  while (at < n) {
    std::int64_t len;
    if (d == segment_dist::powerlaw) {
      const double alpha = 1.2, xm = mean * (alpha - 1) / alpha;
      len = static_cast<std::int64_t>(std::min(xm / std::pow(1.0 - u(g), 1.0 / alpha), 1e15));
    } else {
      len = static_cast<std::int64_t>(u(g) * 2 * mean + 0.5);
    }
    if (d == segment_dist::with_empty && u(g) < 0.5) len = 0;
    if (d == segment_dist::many_empty && !gap_done && at >= n / 2) {
      for (int k = 0; k < 100000; ++k) off.push_back(at);
      gap_done = true;
    }
    at = std::min(n, at + len);
    off.push_back(at);
  }
  return off;
}

/// Head flags (item 0 and every segment's first item) of covering offsets.
inline std::vector<std::uint8_t> flags_of(const std::vector<std::int64_t>& off, std::int64_t n) {
  std::vector<std::uint8_t> f(static_cast<std::size_t>(n), 0);
  std::uniform_int_distribution<int> v(1, 255);
  for (std::size_t s = 0; s + 1 < off.size(); ++s)
    if (off[s] < off[s + 1]) f[static_cast<std::size_t>(off[s])] = static_cast<std::uint8_t>(v(rng()));
  return f;
}

/// Keys whose runs are the segments of covering offsets (neighbouring segments differ).
template <class K>
std::vector<K> keys_of(const std::vector<std::int64_t>& off, std::int64_t n) {
  std::vector<K> k(static_cast<std::size_t>(n));
  std::uint64_t id = rng()() % 1000;
  for (std::size_t s = 0; s + 1 < off.size(); ++s) {
    if (off[s] == off[s + 1]) continue;
    ++id;
    for (std::int64_t i = off[s]; i < off[s + 1]; ++i) k[static_cast<std::size_t>(i)] = static_cast<K>(id);
  }
  return k;
}

// ---------------------------------------------------------------------------------------------
// Checks, segment by segment, with the checks of the reductions and the scans: exact for
// integers and custom monoids, within test_util.hpp's stated tolerance for float sums and
// products (against a long double reference of the segment).

template <class T>
std::vector<T> slice(const std::vector<T>& v, std::int64_t b, std::int64_t e) {
  return std::vector<T>(v.begin() + b, v.begin() + e);
}

/// got[s] against the reduction of segment s (empty segments: exactly `empty`).
template <class Op>
::testing::AssertionResult check_segmented_reduce(const std::vector<value_t<Op>>& in,
                                                  const std::vector<std::int64_t>& begin,
                                                  const std::vector<std::int64_t>& end,
                                                  const std::vector<value_t<Op>>& got, Op op, value_t<Op> empty) {
  if (got.size() != begin.size()) return ::testing::AssertionFailure() << "result count differs";
  for (std::size_t s = 0; s < begin.size(); ++s) {
    if (begin[s] == end[s]) {
      if (!(got[s] == empty)) return ::testing::AssertionFailure() << "empty segment " << s << " is not the empty value";
      continue;
    }
    auto r = matches_reduction(slice(in, begin[s], end[s]), got[s], op);
    if (!r) return r << " (segment " << s << " of " << begin.size() << ", [" << begin[s] << ", " << end[s] << "))";
  }
  return ::testing::AssertionSuccess();
}

/// got against a scan of every segment of covering offsets (or of the runs a head predicate marks).
template <class Op>
::testing::AssertionResult check_segmented_scan(const std::vector<value_t<Op>>& in,
                                                const std::vector<std::int64_t>& offsets,
                                                const std::vector<value_t<Op>>& got, Op op, scan_kind kind,
                                                value_t<Op> init) {
  if (got.size() != in.size()) return ::testing::AssertionFailure() << "result count differs";
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    if (offsets[s] == offsets[s + 1]) continue;
    auto r = matches_reference(slice(in, offsets[s], offsets[s + 1]), slice(got, offsets[s], offsets[s + 1]), op,
                               kind, init);
    if (!r) return r << " (segment " << s << ", [" << offsets[s] << ", " << offsets[s + 1] << "))";
  }
  return ::testing::AssertionSuccess();
}

/// The runs of keys (bitwise equal neighbours) as covering offsets.
template <class K>
std::vector<std::int64_t> runs_of(const std::vector<K>& keys) {
  std::vector<std::int64_t> off{0};
  for (std::size_t i = 1; i < keys.size(); ++i)
    if (!scankit::detail::same_key(keys[i], keys[i - 1])) off.push_back(static_cast<std::int64_t>(i));
  if (!keys.empty()) off.push_back(static_cast<std::int64_t>(keys.size()));
  return off;
}

}  // namespace scankit::test
