// The argument check of the CPU histograms, and the zeroing of the counts a call makes first.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "scankit/error.hpp"

namespace scankit::cpu::detail {

template <class T, class C>
void check_histogram_args(const T* samples, std::int64_t n, const C* counts, const char* where) {
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(samples, n, "samples", where);
  if (counts == nullptr) throw invalid_argument(std::string(where) + ": counts is a null pointer");
}

template <class T, class C>
void zero_unless(bool accumulate, C* counts, std::int64_t num_bins) {
  if (!accumulate) std::fill(counts, counts + num_bins, C{0});
}

}  // namespace scankit::cpu::detail
