// Histograms over ranges, on the CPU (the parallel oneTBB histogram). For the GPU see
// scankit/cuda/histogram.hpp; for the serial reference, scankit::cpu::histogram_*_serial;
// for how a sample finds its bin (NaN and out-of-range samples are ignored),
// scankit/histogram_bins.hpp.
//
//   std::vector<std::uint8_t> bytes = ...;
//   std::vector<std::uint64_t> counts(256);
//   scankit::histogram_even(bytes, counts, 0, 256);             // num_bins = counts.size()
//   scankit::histogram_range(samples, counts, edges);            // counts.size() == edges.size() - 1
//   scankit::bincount(keys, counts);                             // counts[k] = #{i : keys[i] == k}
//   scankit::histogram_even(more, counts, 0, 256, true);         // accumulate onto counts
#pragma once

#include <cstdint>
#include <ranges>

#include "scankit/cpu/histogram.hpp"
#include "scankit/error.hpp"
#include "scankit/histogram_bins.hpp"

namespace scankit {

/// Even bins over [lower, upper); num_bins = size of counts.
template <std::ranges::contiguous_range In, std::ranges::contiguous_range Out>
  requires histogram_sample<std::ranges::range_value_t<In>> &&
           histogram_counter<std::ranges::range_value_t<Out>>
void histogram_even(const In& samples, Out&& counts,
                    histogram_level_t<std::ranges::range_value_t<In>> lower,
                    histogram_level_t<std::ranges::range_value_t<In>> upper,
                    bool accumulate = false) {
  cpu::histogram_even_parallel(std::ranges::data(samples),
                               static_cast<std::int64_t>(std::ranges::size(samples)),
                               std::ranges::data(counts),
                               static_cast<std::int64_t>(std::ranges::size(counts)), lower, upper,
                               accumulate);
}

/// Bins between sorted edges; counts must have edges.size() - 1 entries.
template <std::ranges::contiguous_range In, std::ranges::contiguous_range Out,
          std::ranges::contiguous_range Edges>
  requires histogram_sample<std::ranges::range_value_t<In>> &&
           histogram_counter<std::ranges::range_value_t<Out>>
void histogram_range(const In& samples, Out&& counts, const Edges& edges, bool accumulate = false) {
  const auto num_edges = static_cast<std::int64_t>(std::ranges::size(edges));
  if (static_cast<std::int64_t>(std::ranges::size(counts)) != num_edges - 1)
    throw invalid_argument("scankit::histogram_range: counts must have edges.size() - 1 entries");
  cpu::histogram_range_parallel(std::ranges::data(samples),
                                static_cast<std::int64_t>(std::ranges::size(samples)),
                                std::ranges::data(counts), std::ranges::data(edges), num_edges,
                                accumulate);
}

/// counts[k] = number of keys equal to k, for k < counts.size(); other keys are ignored.
template <std::ranges::contiguous_range In, std::ranges::contiguous_range Out>
  requires histogram_sample<std::ranges::range_value_t<In>> &&
           std::is_integral_v<std::ranges::range_value_t<In>> &&
           histogram_counter<std::ranges::range_value_t<Out>>
void bincount(const In& keys, Out&& counts, bool accumulate = false) {
  cpu::bincount_parallel(std::ranges::data(keys), static_cast<std::int64_t>(std::ranges::size(keys)),
                         std::ranges::data(counts),
                         static_cast<std::int64_t>(std::ranges::size(counts)), accumulate);
}

}  // namespace scankit
