// The CPU histogram's plan: which bins a call counts with (with_even_bins: the same choice the
// CUDA kernels make) and how the parallel count splits its work (plan_histogram).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "scankit/cpu/detail/histogram/tuning.hpp"
#include "scankit/histogram_bins.hpp"

namespace scankit::cpu::detail {

struct histogram_plan {
  int copies;                // sub-histograms per thread: 4 (interleaved, see count_local) or 1
  std::int64_t grain;        // samples per counting task, at least
  int merge_grain;           // bins per merging task
};

/// How count_parallel counts into num_bins bins.
inline histogram_plan plan_histogram(int num_bins) {
  return {num_bins <= histogram_interleave_max_bins ? 4 : 1,
          std::max<std::int64_t>(histogram_min_grain, histogram_grain_per_bin * std::int64_t{num_bins}),
          histogram_merge_grain};
}

/// Calls f(bins) with even_bins_fast when its fast path applies, else with the general bins:
/// the same choice the CUDA kernels make.
template <class T, class F>
void with_even_bins(const even_bins<T>& e, F&& f) {
  if constexpr (!std::is_floating_point_v<T>) {
    if (e.full_range()) return f(even_bins_full<T>{e});
    if (e.fast_path()) return f(even_bins_fast<T>{e});
  }
  f(e);
}

}  // namespace scankit::cpu::detail
