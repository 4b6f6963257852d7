// Distributed scan, reductions, compaction, histogram, sort and top-k on CPU ranks over MPI
// (host memory; the local work runs on scankit's CPU backend). Link scankit::dist_mpi.
//
// A distributed array is one shard per rank, each a contiguous range of host memory; rank
// order defines the global sequence. Shards may have any length, including zero. Every call
// is collective: each rank of the communicator makes the same call (same operation, element
// type, operator type and parameters) with its own shard. What the ranks agree on is checked
// in the call's first exchange: a mismatch throws dist::mismatch_error on every rank, and a
// rank whose local work fails before the exchange (a bad argument, a throwing predicate)
// throws its own error while the others throw dist::remote_error. Waits are bounded by the
// communicator's timeout (dist::timeout_error).
//
//   scankit::dist::mpi_communicator comm(MPI_COMM_WORLD);
//   std::vector<int> shard = ..., out(shard.size());
//   int total = scankit::dist::inclusive_scan(comm, shard, out);   // out: this rank's part
//   auto c = scankit::dist::select_if(comm, shard, out, scankit::greater_than<int>{0});
//   // out[0, c.count) holds the kept items, at global positions c.offset, c.offset + 1, ...
//   std::vector<int> even = scankit::dist::rebalance(comm, std::span(out).first(c.count));
//   scankit::dist::histogram_even(comm, shard, counts, 0, 1000);   // global counts everywhere
//   scankit::dist::sort_keys(comm, shard);   // shard: this rank's balanced share, sorted
//   double sum = scankit::dist::reduce(comm, shard);                // the same on every rank
//   std::int64_t where = scankit::dist::argmax(comm, shard);        // a global position
//   scankit::dist::topk(comm, shard, 10, values, indices);          // global top-10 everywhere
#pragma once

#include <cstdint>
#include <optional>
#include <ranges>
#include <span>
#include <vector>

#include "scankit/concepts.hpp"
#include "scankit/dist/detail/mpi/compact.hpp"
#include "scankit/dist/detail/mpi/histogram.hpp"
#include "scankit/dist/detail/mpi/rebalance.hpp"
#include "scankit/dist/detail/mpi/reduce.hpp"
#include "scankit/dist/detail/mpi/scan.hpp"
#include "scankit/dist/detail/mpi/sort.hpp"
#include "scankit/dist/detail/mpi/topk.hpp"
#include "scankit/dist/error.hpp"
#include "scankit/dist/mpi_communicator.hpp"
#include "scankit/dist/types.hpp"
#include "scankit/histogram_bins.hpp"
#include "scankit/ops.hpp"
#include "scankit/predicates.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::dist {

namespace detail {
template <class R>
std::int64_t ssize_of(const R& r) {
  return static_cast<std::int64_t>(std::ranges::size(r));
}
}  // namespace detail

// ---- scan -----------------------------------------------------------------------------------
// Each rank's `out` receives its part of the scan of the global sequence: position i of rank r
// gets init . (every item of ranks 0..r-1) . in[0] . ... . in[i] (exclusive: up to in[i-1]).
// `init` is the carry-in of the global sequence and must be the same on every rank. Returns
// the global carry-out, on every rank. `out` may be `in`. The operator need not commute.

template <std::ranges::contiguous_range In, class Out, monoid Op = sum<std::ranges::range_value_t<In>>>
  requires contiguous_range_of<In, value_t<Op>> && writable_range_of<Out, value_t<Op>>
value_t<Op> inclusive_scan(mpi_communicator& comm, const In& in, Out&& out, Op op = {},
                           std::optional<value_t<Op>> init = std::nullopt) {
  return detail::mpi::scan(comm, std::ranges::data(in), detail::ssize_of(in), std::ranges::data(out),
                           detail::ssize_of(out), op, scan_kind::inclusive, init ? *init : op.identity());
}

template <std::ranges::contiguous_range In, class Out, monoid Op = sum<std::ranges::range_value_t<In>>>
  requires contiguous_range_of<In, value_t<Op>> && writable_range_of<Out, value_t<Op>>
value_t<Op> exclusive_scan(mpi_communicator& comm, const In& in, Out&& out, Op op = {},
                           std::optional<value_t<Op>> init = std::nullopt) {
  return detail::mpi::scan(comm, std::ranges::data(in), detail::ssize_of(in), std::ranges::data(out),
                           detail::ssize_of(out), op, scan_kind::exclusive, init ? *init : op.identity());
}

// ---- reductions ------------------------------------------------------------------------------------
// The result over the global sequence, returned on every rank (the same bits on every rank:
// the ranks' own results are combined in rank order, so the operator need not commute). The
// positions of argmin and argmax are global (rank order, then shard order): the first of the
// smallest or largest item, a NaN where there is one, as numpy.argmin and numpy.argmax; both
// throw on every rank when the sequence is empty.

template <std::ranges::contiguous_range In, monoid Op = sum<std::ranges::range_value_t<In>>>
  requires contiguous_range_of<In, value_t<Op>>
value_t<Op> reduce(mpi_communicator& comm, const In& in, Op op = {}) {
  return detail::mpi::reduce(comm, std::ranges::data(in), detail::ssize_of(in), op);
}

template <std::ranges::contiguous_range In>
std::int64_t argmin(mpi_communicator& comm, const In& in) {
  using T = std::ranges::range_value_t<In>;
  return detail::mpi::arg_reduce<argmin_op<T>>(comm, std::ranges::data(in), detail::ssize_of(in), "scankit::dist::argmin",
                                               "minimum");
}

template <std::ranges::contiguous_range In>
std::int64_t argmax(mpi_communicator& comm, const In& in) {
  using T = std::ranges::range_value_t<In>;
  return detail::mpi::arg_reduce<argmax_op<T>>(comm, std::ranges::data(in), detail::ssize_of(in), "scankit::dist::argmax",
                                               "maximum");
}

/// Both extremes (NaN if any item is NaN; the identities' extremes for an empty sequence).
template <std::ranges::contiguous_range In>
min_max_value<std::ranges::range_value_t<In>> min_max(mpi_communicator& comm, const In& in) {
  return detail::mpi::min_max(comm, std::ranges::data(in), detail::ssize_of(in));
}

// ---- compaction -------------------------------------------------------------------------------
// The local compaction is scankit's (stable; `out` holds at least as many items as `in`); each
// rank learns where its kept items sit in the global result and how many there are in all.
// rebalance() then spreads the result evenly, if wanted.

template <std::ranges::contiguous_range In, class Out, class Pred>
  requires writable_range_of<Out, std::ranges::range_value_t<In>> && predicate_on<Pred, std::ranges::range_value_t<In>>
compaction_result select_if(mpi_communicator& comm, const In& in, Out&& out, Pred pred) {
  return detail::mpi::select(comm, std::ranges::data(in), detail::ssize_of(in), std::ranges::data(out),
                             detail::ssize_of(out), pred, true);
}

template <std::ranges::contiguous_range In, class Out, class Pred>
  requires writable_range_of<Out, std::ranges::range_value_t<In>> && predicate_on<Pred, std::ranges::range_value_t<In>>
compaction_result remove_if(mpi_communicator& comm, const In& in, Out&& out, Pred pred) {
  return detail::mpi::select(comm, std::ranges::data(in), detail::ssize_of(in), std::ranges::data(out),
                             detail::ssize_of(out), pred, false);
}

/// Each rank's selected items first, then its rejected ones (in `order`); the result says where
/// both sit in the global partition (all selected items of all ranks, then all rejected ones).
template <std::ranges::contiguous_range In, class Out, class Pred>
  requires writable_range_of<Out, std::ranges::range_value_t<In>> && predicate_on<Pred, std::ranges::range_value_t<In>>
partition_result partition(mpi_communicator& comm, const In& in, Out&& out, Pred pred,
                           rejected_order order = rejected_order::reversed) {
  return detail::mpi::partition(comm, std::ranges::data(in), detail::ssize_of(in), std::ranges::data(out),
                                detail::ssize_of(out), pred, order);
}

/// The first item of every run of equivalent items of the global sequence; runs may span
/// ranks (a rank's first item is dropped when it continues the run of the nearest earlier rank
/// with items). `out` may be `in`. The equality is also called on the host with items of
/// neighbouring ranks.
template <std::ranges::contiguous_range In, class Out, class Eq = equal_to<std::ranges::range_value_t<In>>>
  requires writable_range_of<Out, std::ranges::range_value_t<In>> && equality_on<Eq, std::ranges::range_value_t<In>>
compaction_result unique(mpi_communicator& comm, const In& in, Out&& out, Eq eq = {}) {
  return detail::mpi::unique(comm, std::ranges::data(in), detail::ssize_of(in), std::ranges::data(out),
                             detail::ssize_of(out), eq);
}

/// The distributed array moved to the balanced layout (rank r ends with
/// balanced_size(total, r, p) items), global order kept. Returns this rank's new shard.
template <std::ranges::contiguous_range In>
std::vector<std::ranges::range_value_t<In>> rebalance(mpi_communicator& comm, const In& shard) {
  return detail::mpi::rebalance(comm, std::ranges::data(shard), detail::ssize_of(shard));
}

// ---- histograms ---------------------------------------------------------------------------------
// Bins as scankit's histograms (scankit/histogram_bins.hpp); counts.size() bins. The global
// counts go to every rank (cfg.root = -1) or to cfg.root only.

template <std::ranges::contiguous_range In, std::ranges::contiguous_range Out>
  requires histogram_sample<std::ranges::range_value_t<In>> && histogram_counter<std::ranges::range_value_t<Out>>
void histogram_even(mpi_communicator& comm, const In& samples, Out&& counts,
                    histogram_level_t<std::ranges::range_value_t<In>> lower,
                    histogram_level_t<std::ranges::range_value_t<In>> upper, const histogram_config& cfg = {}) {
  detail::mpi::histogram_even(comm, std::ranges::data(samples), detail::ssize_of(samples), std::ranges::data(counts),
                              detail::ssize_of(counts), lower, upper, cfg);
}

/// counts.size() must be edges.size() - 1.
template <std::ranges::contiguous_range In, std::ranges::contiguous_range Out, std::ranges::contiguous_range Edges>
  requires histogram_sample<std::ranges::range_value_t<In>> && histogram_counter<std::ranges::range_value_t<Out>>
void histogram_range(mpi_communicator& comm, const In& samples, Out&& counts, const Edges& edges,
                     const histogram_config& cfg = {}) {
  detail::mpi::histogram_range(comm, std::ranges::data(samples), detail::ssize_of(samples), std::ranges::data(counts),
                               detail::ssize_of(counts), std::ranges::data(edges), detail::ssize_of(edges), cfg);
}

template <std::ranges::contiguous_range In, std::ranges::contiguous_range Out>
  requires histogram_sample<std::ranges::range_value_t<In>> && std::is_integral_v<std::ranges::range_value_t<In>> &&
           histogram_counter<std::ranges::range_value_t<Out>>
void bincount(mpi_communicator& comm, const In& keys, Out&& counts, const histogram_config& cfg = {}) {
  detail::mpi::bincount(comm, std::ranges::data(keys), detail::ssize_of(keys), std::ranges::data(counts),
                        detail::ssize_of(counts), cfg);
}

// ---- sort ------------------------------------------------------------------------------------------
// Key order, stability and bit ranges as scankit's sorts (scankit/sort_traits.hpp). Afterwards
// the concatenation of the ranks' vectors is the stable sort of the global sequence, and rank r
// holds exactly balanced_size(n, r, p) items (n: items over all ranks), whatever the input
// layout and key distribution.

template <sort_key K>
void sort_keys(mpi_communicator& comm, std::vector<K>& keys, const sort_options& opts = {}, const sort_config& cfg = {}) {
  detail::mpi::sort<K, std::byte>(comm, keys, nullptr, opts, cfg);
}

/// Values move with their keys; `values` must be as long as `keys`.
template <sort_key K, class V>
void sort_pairs(mpi_communicator& comm, std::vector<K>& keys, std::vector<V>& values, const sort_options& opts = {},
                const sort_config& cfg = {}) {
  detail::mpi::sort<K, V>(comm, keys, &values, opts, cfg);
}

// ---- top-k ---------------------------------------------------------------------------------------
// The k largest (or smallest) items of the global sequence and their global positions, sorted
// as scankit's top-k sorts them (scankit/cpu/topk.hpp: the largest descending, ties by the
// smaller position), into `values` and `indices` (resized to k) on every rank. Throws on every
// rank where k exceeds the sequence's length; every rank passes the same k and direction.

template <std::ranges::contiguous_range In>
  requires sort_key<std::ranges::range_value_t<In>>
void topk(mpi_communicator& comm, const In& in, std::int64_t k, std::vector<std::ranges::range_value_t<In>>& values,
          std::vector<std::int64_t>& indices, const cpu::topk_options& opts = {}) {
  detail::mpi::topk(comm, std::ranges::data(in), detail::ssize_of(in), k, values, indices, opts);
}

}  // namespace scankit::dist
