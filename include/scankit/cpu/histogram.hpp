// CPU histograms: the serial reference loop and the parallel oneTBB histogram (per-thread
// private histograms merged at the end). Bins follow scankit/histogram_bins.hpp, so these
// agree bit for bit with the CUDA kernels.
//
//   std::vector<std::uint32_t> counts(256);
//   scankit::cpu::histogram_even_parallel(bytes.data(), n, counts.data(), 256, 0, 256);
//
// The parallel count: detail/histogram/privatized.hpp; its plan (bins, copies, grain):
// detail/histogram/plan.hpp; its sizes: detail/histogram/tuning.hpp.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <vector>

#include "scankit/cpu/detail/histogram/args.hpp"
#include "scankit/cpu/detail/histogram/plan.hpp"
#include "scankit/cpu/detail/histogram/privatized.hpp"
#include "scankit/cpu/detail/histogram/serial.hpp"
#include "scankit/cpu/scan.hpp"
#include "scankit/error.hpp"
#include "scankit/histogram_bins.hpp"

namespace scankit::cpu {


// ---- serial reference -------------------------------------------------------------------

/// counts[bin(x)] += 1 for every sample x in [lower, upper) (bins: scankit/histogram_bins.hpp);
/// samples outside the range and NaN are ignored. Without `accumulate`, counts are zeroed
/// first. counts has num_bins entries.
template <histogram_sample T, histogram_counter C>
void histogram_even_serial(const T* samples, std::int64_t n, C* counts, std::int64_t num_bins,
                           histogram_level_t<T> lower, histogram_level_t<T> upper,
                           bool accumulate = false) {
  const char* where = "scankit::cpu::histogram_even_serial";
  detail::check_histogram_args(samples, n, counts, where);
  const auto e = even_bins<T>::make(num_bins, lower, upper, where);
  detail::zero_unless<T>(accumulate, counts, num_bins);
  detail::count_serial(samples, n, counts, e);
}

/// Bins between num_edges sorted edges (num_edges - 1 bins); counts has num_edges - 1 entries.
template <histogram_sample T, histogram_counter C>
void histogram_range_serial(const T* samples, std::int64_t n, C* counts,
                            const histogram_level_t<T>* edges, std::int64_t num_edges,
                            bool accumulate = false) {
  const char* where = "scankit::cpu::histogram_range_serial";
  detail::check_histogram_args(samples, n, counts, where);
  const auto r = range_bins<T>::make(edges, num_edges, true, where);
  detail::zero_unless<T>(accumulate, counts, num_edges - 1);
  detail::count_serial(samples, n, counts, r);
}

/// counts[k] += 1 for every key k in [0, num_bins); other keys are ignored.
template <histogram_sample T, histogram_counter C>
  requires std::is_integral_v<T>
void bincount_serial(const T* keys, std::int64_t n, C* counts, std::int64_t num_bins,
                     bool accumulate = false) {
  histogram_even_serial(keys, n, counts, num_bins, 0, num_bins, accumulate);
}

// ---- parallel (oneTBB) --------------------------------------------------------------------

template <histogram_sample T, histogram_counter C>
void histogram_even_parallel(const T* samples, std::int64_t n, C* counts, std::int64_t num_bins,
                             histogram_level_t<T> lower, histogram_level_t<T> upper,
                             bool accumulate = false) {
  const char* where = "scankit::cpu::histogram_even_parallel";
  detail::check_histogram_args(samples, n, counts, where);
  const auto e = even_bins<T>::make(num_bins, lower, upper, where);
  detail::zero_unless<T>(accumulate, counts, num_bins);
  if (n == 0) return;
  detail::with_even_bins(e, [&](const auto& bins) {
    detail::count_parallel(samples, n, counts, static_cast<int>(num_bins), bins);
  });
}

template <histogram_sample T, histogram_counter C>
void histogram_range_parallel(const T* samples, std::int64_t n, C* counts,
                              const histogram_level_t<T>* edges, std::int64_t num_edges,
                              bool accumulate = false) {
  const char* where = "scankit::cpu::histogram_range_parallel";
  detail::check_histogram_args(samples, n, counts, where);
  const auto r = range_bins<T>::make(edges, num_edges, true, where);
  detail::zero_unless<T>(accumulate, counts, num_edges - 1);
  if (n == 0) return;
  detail::count_parallel(samples, n, counts, r.num_bins, r);
}

template <histogram_sample T, histogram_counter C>
  requires std::is_integral_v<T>
void bincount_parallel(const T* keys, std::int64_t n, C* counts, std::int64_t num_bins,
                       bool accumulate = false) {
  histogram_even_parallel(keys, n, counts, num_bins, 0, num_bins, accumulate);
}

}  // namespace scankit::cpu
