// Distributed histograms on CPU ranks: even bins, bins between edges, bincount.
//
//   phase 1  local counts (scankit's CPU histogram)
//   phase 2  exchange: all-gather of the call records (the signature covers the sample and
//            counter types, the bin count and the levels, so ranks that would reduce arrays of
//            different lengths fail instead of corrupting each other's counts)
//   phase 3  all-reduce of the counts (or a reduce to the root)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scankit/cpu/histogram.hpp"
#include "scankit/dist/detail/mpi/exchange.hpp"
#include "scankit/dist/detail/signature.hpp"
#include "scankit/dist/mpi_communicator.hpp"
#include "scankit/dist/types.hpp"

namespace scankit::dist::detail::mpi {

/// Runs count_local(C* counts) (which overwrites its argument with this rank's counts) and
/// combines the ranks' counts into `counts` as cfg says.
template <class C, class Count>
void histogram(mpi_communicator& comm, C* counts, std::int64_t num_bins, const histogram_config& cfg,
               signature sig, Count count_local, const char* where) {
  // ---- phase 1: local counts -------------------------------------------------------------
  // Straight into `counts` when they are overwritten on every rank; through a scratch array
  // when they accumulate or when only the root receives them.
  const bool direct = cfg.root < 0 && !cfg.accumulate;
  std::vector<C> local;
  C* mine = counts;
  const auto failed = capture([&] {
    if (cfg.root < -1 || cfg.root >= comm.size())
      throw invalid_argument(std::string(where) + ": root " + std::to_string(cfg.root) + " is not -1 or a rank");
    if (num_bins < 1 || num_bins > max_histogram_bins)
      throw invalid_argument(std::string(where) + ": " + std::to_string(num_bins) + " bins is outside [1, 2^24]");
    scankit::detail::check_pointer(counts, num_bins, "counts", where);
    if (!direct) local.resize(static_cast<std::size_t>(num_bins)), mine = local.data();
    count_local(mine);
  });
  // ---- phase 2: exchange of the call records ---------------------------------------------
  sig.add_type<C>();
  sig.add_value(num_bins);
  sig.add_value(cfg.root);
  sig.add_value(cfg.accumulate);
  exchange_records(comm, make_record(sig.value(), num_bins, failed != nullptr), failed, where);
  // ---- phase 3: all-reduce or reduce -------------------------------------------------------
  if (cfg.root < 0) {
    allreduce_sum(comm, mine, num_bins, where);
    if (cfg.accumulate)
      for (std::int64_t i = 0; i < num_bins; ++i) counts[i] = static_cast<C>(counts[i] + mine[i]);
    return;
  }
  std::vector<C> sum(comm.rank() == cfg.root ? static_cast<std::size_t>(num_bins) : 0);
  reduce_sum(comm, mine, sum.data(), num_bins, cfg.root, where);
  if (comm.rank() != cfg.root) return;
  for (std::int64_t i = 0; i < num_bins; ++i)
    counts[i] = cfg.accumulate ? static_cast<C>(counts[i] + sum[static_cast<std::size_t>(i)]) : sum[static_cast<std::size_t>(i)];
}

template <histogram_sample T, histogram_counter C>
void histogram_even(mpi_communicator& comm, const T* samples, std::int64_t n, C* counts, std::int64_t num_bins,
                    histogram_level_t<T> lower, histogram_level_t<T> upper, const histogram_config& cfg) {
  signature sig("histogram_even");
  sig.add_type<T>();
  sig.add_value(lower);
  sig.add_value(upper);
  histogram(comm, counts, num_bins, cfg, sig, [&](C* mine) {
    cpu::histogram_even_parallel(samples, n, mine, num_bins, lower, upper, false);
  }, "scankit::dist::histogram_even");
}

/// counts: num_counts counters, which must be num_edges - 1.
template <histogram_sample T, histogram_counter C>
void histogram_range(mpi_communicator& comm, const T* samples, std::int64_t n, C* counts, std::int64_t num_counts,
                     const histogram_level_t<T>* edges, std::int64_t num_edges, const histogram_config& cfg) {
  constexpr const char* where = "scankit::dist::histogram_range";
  signature sig("histogram_range");
  sig.add_type<T>();
  if (edges != nullptr && num_edges > 0) sig.add_bytes(edges, static_cast<std::size_t>(num_edges) * sizeof(*edges));
  histogram(comm, counts, num_counts, cfg, sig, [&](C* mine) {
    if (num_counts != num_edges - 1)
      throw invalid_argument(std::string(where) + ": counts must have one entry less than the edges");
    cpu::histogram_range_parallel(samples, n, mine, edges, num_edges, false);
  }, where);
}

template <histogram_sample T, histogram_counter C>
void bincount(mpi_communicator& comm, const T* keys, std::int64_t n, C* counts, std::int64_t num_bins,
              const histogram_config& cfg) {
  signature sig("bincount");
  sig.add_type<T>();
  histogram(comm, counts, num_bins, cfg, sig, [&](C* mine) {
    cpu::bincount_parallel(keys, n, mine, num_bins, false);
  }, "scankit::dist::bincount");
}

}  // namespace scankit::dist::detail::mpi
