// The serial histogram loop.
#pragma once

#include <cstdint>

namespace scankit::cpu::detail {

/// The serial loop: one increment per counted sample. The reference everything is tested
/// against.
template <class T, class C, class Bins>
void count_serial(const T* samples, std::int64_t n, C* counts, const Bins& bins) {
  for (std::int64_t i = 0; i < n; ++i) {
    const int b = bins(samples[i]);
    if (b >= 0) ++counts[b];
  }
}

}  // namespace scankit::cpu::detail
