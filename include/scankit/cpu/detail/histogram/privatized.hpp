// The parallel histogram on oneTBB: per-thread private histograms over chunks of the input,
// then a parallel merge over the bins.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "scankit/cpu/detail/histogram/plan.hpp"
#include "scankit/cpu/detail/parallel.hpp"

namespace scankit::cpu::detail {

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
  const histogram_plan plan = plan_histogram(num_bins);
  const int copies = plan.copies;
  const std::size_t local_size = static_cast<std::size_t>(num_bins) * copies;
  tbb::enumerable_thread_specific<std::vector<std::uint64_t>> locals(
      [&] { return std::vector<std::uint64_t>(local_size, 0); });
  const std::int64_t grain = plan.grain;
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
  // Through detail/parallel.hpp's fenced regions: the private histograms are made in worker threads
  // and read in others, ordered by TBB's joins, which a race detector cannot see in an
  // uninstrumented libtbb; the fence restates that order with release/acquire operations.
  fenced_region<decltype(count), decltype(merge)> region(count, merge);
  {
    typename fenced_region<decltype(count), decltype(merge)>::scope open(region);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n, grain), region.template get_body<0>());
  }
  {
    typename fenced_region<decltype(count), decltype(merge)>::scope open(region);
    tbb::parallel_for(tbb::blocked_range<int>(0, num_bins, plan.merge_grain), region.template get_body<1>());
  }
}

}  // namespace scankit::cpu::detail
