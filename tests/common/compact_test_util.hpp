// Helpers shared by the CPU and CUDA compaction tests: the selection patterns of the inputs and
// an index predicate.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "common/test_util.hpp"
#include "scankit/ops.hpp"  // SCANKIT_HD

namespace scankit::test {

/// How an input's items select under the built-in predicates (nonzero selects).
enum class pattern { random4, all, none, alternating, runs };
inline const std::vector<pattern> all_patterns{pattern::random4, pattern::all, pattern::none,
                                               pattern::alternating, pattern::runs};

inline const char* pattern_name(pattern p) {
  switch (p) {
    case pattern::random4: return "random 0..3";
    case pattern::all: return "all selected";
    case pattern::none: return "none selected";
    case pattern::alternating: return "alternating";
    case pattern::runs: return "random runs";
  }
  return "?";
}

/// Random values in 0..3, all nonzero, all zero, alternating zero and nonzero, or runs of
/// random length (1 to 40, for unique).
template <class T>
std::vector<T> pattern_input(std::int64_t n, pattern p) {
  std::vector<T> v(static_cast<std::size_t>(n));
  auto& g = rng();
  std::uniform_int_distribution<int> d4(0, 3), len(1, 40);
  for (std::int64_t i = 0; i < n;) {
    int value = 0, run = 1;
    switch (p) {
      case pattern::random4: value = d4(g); break;
      case pattern::all: value = 1 + d4(g) % 3; break;
      case pattern::none: value = 0; break;
      case pattern::alternating: value = static_cast<int>(i % 2) * 3; break;
      case pattern::runs: value = d4(g), run = len(g); break;
    }
    for (int k = 0; k < run && i < n; ++k, ++i) v[static_cast<std::size_t>(i)] = static_cast<T>(value);
  }
  return v;
}

/// An index predicate that looks stateful (a hash of the index) but is a pure function of it;
/// selects about two items in five.
struct hashed_index {
  std::uint64_t salt;
  SCANKIT_HD bool operator()(std::int64_t i) const {
    std::uint64_t z = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull ^ salt;
    z = (z ^ (z >> 29)) * 0xBF58476D1CE4E5B9ull;
    return ((z >> 32) % 5) < 2;
  }
};

}  // namespace scankit::test
