// What the GPU segmented-operation tests compare with: checks of results segment by segment,
// with the reductions' and the scans' checks against the serial reference (the layouts, flags
// and keys come from segments_test_util.hpp).
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
#include "common/segments_test_util.hpp"
#include "common/test_util.hpp"
#include "scankit/ops.hpp"
#include "scankit/segments.hpp"

namespace scankit::test {

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
