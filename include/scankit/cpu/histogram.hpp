// CPU histograms: the serial reference loop and the parallel oneTBB histogram (per-thread
// private histograms merged at the end). Bins follow scankit/histogram_bins.hpp, so these
// agree bit for bit with the CUDA kernels.
//
//   std::vector<std::uint32_t> counts(256);
//   scankit::cpu::histogram_even_parallel(bytes.data(), n, counts.data(), 256, 0, 256);
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <vector>

#include "scankit/cpu/scan.hpp"  // detail::fenced_region
#include "scankit/error.hpp"
#include "scankit/histogram_bins.hpp"

namespace scankit::cpu {

namespace detail {

template <class T, class C>
void check_histogram_args(const T* samples, std::int64_t n, const C* counts, const char* where) {
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(samples, n, "samples", where);
  if (counts == nullptr) throw invalid_argument(std::string(where) + ": counts is a null pointer");
}

/// The serial loop: one increment per counted sample. The reference everything is tested
/// against.
template <class T, class C, class Bins>
void count_serial(const T* samples, std::int64_t n, C* counts, const Bins& bins) {
  for (std::int64_t i = 0; i < n; ++i) {
    const int b = bins(samples[i]);
    if (b >= 0) ++counts[b];
  }
}

/// Counts samples[0, n) into `local` (64-bit: a thread may count more than 2^32 samples).
/// Four interleaved sub-histograms for small bin counts, so that runs of equal bins do not
/// serialise on one counter's store-to-load forwarding.
template <class T, class Bins>
void count_local(const T* samples, std::int64_t n, std::uint64_t* local, int num_bins, int copies,
                 const Bins& bins_ref) {
  // A copy of the bins on the stack: through the reference, the compiler must assume that the
  // counter increments (64-bit stores) may change the bins, and reloads every field of them
  // from memory for every sample.
  const Bins bins = bins_ref;
  std::int64_t i = 0;
  if (copies == 4) {
    std::uint64_t* c1 = local + num_bins;
    std::uint64_t* c2 = c1 + num_bins;
    std::uint64_t* c3 = c2 + num_bins;
    for (; i + 4 <= n; i += 4) {
      int b0, b1, b2, b3;
      // Bins with a four-sample path (fast4: the bins of four samples at once in SIMD, or
      // false when one of them needs the scalar path) take it: the per-sample binning, not the
      // increments, sets the pace of this loop for float bins.
      if constexpr (requires(const T* p, int* o) {
                      { bins.fast4(p, o) } -> std::convertible_to<bool>;
                    }) {
        int b4[4];
        if (bins.fast4(samples + i, b4)) {
          b0 = b4[0], b1 = b4[1], b2 = b4[2], b3 = b4[3];
        } else {
          b0 = bins(samples[i]), b1 = bins(samples[i + 1]);
          b2 = bins(samples[i + 2]), b3 = bins(samples[i + 3]);
        }
      } else {
        b0 = bins(samples[i]), b1 = bins(samples[i + 1]);
        b2 = bins(samples[i + 2]), b3 = bins(samples[i + 3]);
      }
      if (b0 >= 0) ++local[b0];
      if (b1 >= 0) ++c1[b1];
      if (b2 >= 0) ++c2[b2];
      if (b3 >= 0) ++c3[b3];
    }
  }
  for (; i < n; ++i) {
    const int b = bins(samples[i]);
    if (b >= 0) ++local[b];
  }
}

/// Per-thread private histograms (`copies` sub-histograms each) over chunks of the input,
/// then a parallel merge over the bins.
template <class T, class C, class Bins>
void count_parallel(const T* samples, std::int64_t n, C* counts, int num_bins, const Bins& bins) {
  const int copies = num_bins <= 4096 ? 4 : 1;
  const std::size_t local_size = static_cast<std::size_t>(num_bins) * copies;
  tbb::enumerable_thread_specific<std::vector<std::uint64_t>> locals(
      [&] { return std::vector<std::uint64_t>(local_size, 0); });
  // Chunks of at least 64 Ki samples and at least 16 bins' worth, so that zeroing and merging
  // a private histogram stays small next to the counting.
  const std::int64_t grain = std::max<std::int64_t>(std::int64_t{1} << 16, 16 * std::int64_t{num_bins});
  auto count = [&](const tbb::blocked_range<std::int64_t>& r) {
    auto& local = locals.local();
    count_local(samples + r.begin(), r.end() - r.begin(), local.data(), num_bins, copies, bins);
  };
  auto merge = [&](const tbb::blocked_range<int>& r) {
    for (const auto& local : locals)
      for (int c = 0; c < copies; ++c) {
        const std::uint64_t* l = local.data() + static_cast<std::size_t>(c) * num_bins;
        for (int b = r.begin(); b < r.end(); ++b) counts[b] = static_cast<C>(counts[b] + l[b]);
      }
  };
  // Through scan.hpp's fenced regions: the private histograms are made in worker threads and
  // read in others, ordered by TBB's joins, which a race detector cannot see in an
  // uninstrumented libtbb; the fence restates that order with release/acquire operations.
  fenced_region<decltype(count), decltype(merge)> region(count, merge);
  {
    typename fenced_region<decltype(count), decltype(merge)>::scope open(region);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n, grain), region.template get_body<0>());
  }
  {
    typename fenced_region<decltype(count), decltype(merge)>::scope open(region);
    tbb::parallel_for(tbb::blocked_range<int>(0, num_bins, 1024), region.template get_body<1>());
  }
}

template <class T, class C>
void zero_unless(bool accumulate, C* counts, std::int64_t num_bins) {
  if (!accumulate) std::fill(counts, counts + num_bins, C{0});
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

}  // namespace detail

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
