// Distributed scan, compaction, histogram and sort on GPU ranks over NCCL (device memory; the
// local work runs on scankit's CUDA backend). Include from a .cu file and link
// scankit::dist_nccl. For your own monoids, predicates or item types, include the matching
// scankit/cuda/*.cuh first (as for the one-GPU calls).
//
// A distributed array is one shard per rank in that rank's device memory; rank order defines
// the global sequence; shards may have any length, including zero. Every call is collective
// over the communicator's ranks. A process that drives several GPUs passes one shard per local
// rank (in local-rank order, as spans of device_shard); a process with one GPU may pass
// pointers. The calls enqueue their device work on each rank's stream; scan, compaction,
// rebalance and sort wait (bounded) for their small exchanges, which carry the call records
// that detect mismatched calls and local failures (as on CPU ranks, scankit/dist/mpi.hpp), and
// return with their outputs still being written: call comm.synchronize() (a bounded wait) or
// order later work on the same streams. Histograms do not wait at all.
//
//   auto comm = scankit::dist::nccl_communicator::all_devices();       // every GPU of the host
//   std::vector<scankit::dist::device_shard<const int>> in = {{d_a, na}, {d_b, nb}};
//   std::vector<scankit::dist::device_shard<int>> out = {{d_x, na}, {d_y, nb}};
//   int total = scankit::dist::inclusive_scan<int>(comm, in, out);
//   comm.synchronize();
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "scankit/cuda/compact.hpp"
#include "scankit/cuda/histogram.hpp"
#include "scankit/cuda/scan.hpp"
#include "scankit/cuda/sort.hpp"
#include "scankit/dist/detail/nccl/compact.cuh"
#include "scankit/dist/detail/nccl/histogram.cuh"
#include "scankit/dist/detail/nccl/rebalance.cuh"
#include "scankit/dist/detail/nccl/scan.cuh"
#include "scankit/dist/detail/nccl/sort.cuh"
#include "scankit/dist/error.hpp"
#include "scankit/dist/nccl_communicator.hpp"
#include "scankit/dist/types.hpp"
#include "scankit/ops.hpp"
#include "scankit/predicates.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::dist {

template <class T>
using shards = std::span<const device_shard<T>>;

namespace detail {
template <class T>
std::span<const device_shard<T>> one(const device_shard<T>& s) {
  return std::span<const device_shard<T>>(&s, 1);
}
}  // namespace detail

// ---- scan ---------------------------------------------------------------------------------------
// As on CPU ranks: each rank's output is its part of the global scan from `init` (the same on
// every rank); returns the global carry-out. Outputs may be the inputs.

template <class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
T inclusive_scan(nccl_communicator& comm, shards<const T> in, shards<T> out, Op op = {}, std::optional<T> init = std::nullopt,
                 const cuda::scan_config& cfg = {}) {
  return detail::nccl::scan(comm, in, out, op, scan_kind::inclusive, init ? *init : op.identity(), cfg);
}

template <class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
T exclusive_scan(nccl_communicator& comm, shards<const T> in, shards<T> out, Op op = {}, std::optional<T> init = std::nullopt,
                 const cuda::scan_config& cfg = {}) {
  return detail::nccl::scan(comm, in, out, op, scan_kind::exclusive, init ? *init : op.identity(), cfg);
}

/// One GPU per process: d_in and d_out hold n items.
template <class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
T inclusive_scan(nccl_communicator& comm, const T* d_in, T* d_out, std::int64_t n, Op op = {},
                 std::optional<T> init = std::nullopt, const cuda::scan_config& cfg = {}) {
  return inclusive_scan<T, Op>(comm, detail::one(device_shard<const T>{d_in, n}), detail::one(device_shard<T>{d_out, n}), op,
                               init, cfg);
}

template <class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
T exclusive_scan(nccl_communicator& comm, const T* d_in, T* d_out, std::int64_t n, Op op = {},
                 std::optional<T> init = std::nullopt, const cuda::scan_config& cfg = {}) {
  return exclusive_scan<T, Op>(comm, detail::one(device_shard<const T>{d_in, n}), detail::one(device_shard<T>{d_out, n}), op,
                               init, cfg);
}

// ---- compaction ------------------------------------------------------------------------------------
// One result per local rank. Output shards hold at least as many items as their inputs (as
// scankit::cuda's compaction, which runs locally: unique is not in place on the GPU).

template <class T, class Pred>
std::vector<compaction_result> select_if(nccl_communicator& comm, shards<const T> in, shards<T> out, Pred pred,
                                         const cuda::compact_config& cfg = {}) {
  return detail::nccl::select(comm, in, out, pred, true, cfg);
}

template <class T, class Pred>
std::vector<compaction_result> remove_if(nccl_communicator& comm, shards<const T> in, shards<T> out, Pred pred,
                                         const cuda::compact_config& cfg = {}) {
  return detail::nccl::select(comm, in, out, pred, false, cfg);
}

template <class T, class Pred>
std::vector<partition_result> partition(nccl_communicator& comm, shards<const T> in, shards<T> out, Pred pred,
                                        rejected_order order = rejected_order::reversed, const cuda::compact_config& cfg = {}) {
  return detail::nccl::partition(comm, in, out, pred, order, cfg);
}

/// The equality must also be callable on the host (scankit's predicates are).
template <class T, class Eq = equal_to<T>>
std::vector<compaction_result> unique(nccl_communicator& comm, shards<const T> in, shards<T> out, Eq eq = {},
                                      const cuda::compact_config& cfg = {}) {
  return detail::nccl::unique(comm, in, out, eq, cfg);
}

template <class T, class Pred>
compaction_result select_if(nccl_communicator& comm, const T* d_in, std::int64_t n, T* d_out, Pred pred,
                            const cuda::compact_config& cfg = {}) {
  return select_if<T>(comm, detail::one(device_shard<const T>{d_in, n}), detail::one(device_shard<T>{d_out, n}), pred, cfg)[0];
}

template <class T, class Pred>
compaction_result remove_if(nccl_communicator& comm, const T* d_in, std::int64_t n, T* d_out, Pred pred,
                            const cuda::compact_config& cfg = {}) {
  return remove_if<T>(comm, detail::one(device_shard<const T>{d_in, n}), detail::one(device_shard<T>{d_out, n}), pred, cfg)[0];
}

template <class T, class Pred>
partition_result partition(nccl_communicator& comm, const T* d_in, std::int64_t n, T* d_out, Pred pred,
                           rejected_order order = rejected_order::reversed, const cuda::compact_config& cfg = {}) {
  return partition<T>(comm, detail::one(device_shard<const T>{d_in, n}), detail::one(device_shard<T>{d_out, n}), pred, order,
                      cfg)[0];
}

template <class T, class Eq = equal_to<T>>
compaction_result unique(nccl_communicator& comm, const T* d_in, std::int64_t n, T* d_out, Eq eq = {},
                         const cuda::compact_config& cfg = {}) {
  return unique<T>(comm, detail::one(device_shard<const T>{d_in, n}), detail::one(device_shard<T>{d_out, n}), eq, cfg)[0];
}

/// Moves the distributed array to the balanced layout (global order kept). Each output
/// shard's size is its capacity; every rank fails if one is too small for its share
/// (balanced_size of the global count). Returns the local ranks' new sizes. Outputs must not
/// overlap inputs.
template <class T>
std::vector<std::int64_t> rebalance(nccl_communicator& comm, shards<const T> in, shards<T> out) {
  return detail::nccl::rebalance(comm, in, out);
}

// ---- histograms ------------------------------------------------------------------------------------
// One device count array per local rank, all of the same size; cfg as on CPU ranks. The levels
// and edges are host values (edges: one device copy per local rank, d_edges[i]).

template <histogram_sample T, histogram_counter C>
void histogram_even(nccl_communicator& comm, shards<const T> samples, shards<C> counts, histogram_level_t<T> lower,
                    histogram_level_t<T> upper, const histogram_config& cfg = {}, const cuda::histogram_options& local = {}) {
  detail::nccl::check_shard_count(comm, samples.size(), "sample shards", "scankit::dist::histogram");
  detail::nccl::histogram(comm, counts, cfg, [&](nccl_local_rank& l, int i, C* into) {
    auto o = local;
    o.accumulate = false;
    const auto s = samples[static_cast<std::size_t>(i)];
    cuda::histogram_even(s.data, s.size, into, counts[static_cast<std::size_t>(i)].size, lower, upper, l.stream, o);
  }, "scankit::dist::histogram_even");
}

template <histogram_sample T, histogram_counter C>
void histogram_range(nccl_communicator& comm, shards<const T> samples, shards<C> counts,
                     std::span<const histogram_level_t<T>* const> d_edges, const histogram_config& cfg = {},
                     const cuda::histogram_options& local = {}) {
  detail::nccl::check_shard_count(comm, samples.size(), "sample shards", "scankit::dist::histogram");
  detail::nccl::check_shard_count(comm, d_edges.size(), "edge arrays", "scankit::dist::histogram_range");
  detail::nccl::histogram(comm, counts, cfg, [&](nccl_local_rank& l, int i, C* into) {
    auto o = local;
    o.accumulate = false;
    const auto s = samples[static_cast<std::size_t>(i)];
    const std::int64_t bins = counts[static_cast<std::size_t>(i)].size;
    cuda::histogram_range(s.data, s.size, into, d_edges[static_cast<std::size_t>(i)], bins + 1, l.stream, o);
  }, "scankit::dist::histogram_range");
}

template <histogram_sample T, histogram_counter C>
  requires std::is_integral_v<T>
void bincount(nccl_communicator& comm, shards<const T> keys, shards<C> counts, const histogram_config& cfg = {},
              const cuda::histogram_options& local = {}) {
  detail::nccl::check_shard_count(comm, keys.size(), "key shards", "scankit::dist::bincount");
  detail::nccl::histogram(comm, counts, cfg, [&](nccl_local_rank& l, int i, C* into) {
    auto o = local;
    o.accumulate = false;
    const auto s = keys[static_cast<std::size_t>(i)];
    cuda::bincount(s.data, s.size, into, counts[static_cast<std::size_t>(i)].size, l.stream, o);
  }, "scankit::dist::bincount");
}

// ---- sort --------------------------------------------------------------------------------------------
// As on CPU ranks: afterwards rank r holds exactly balanced_size(n, r, p) items, the r-th range
// of the stable sort of the global sequence. Each output shard's size is its capacity (every
// rank fails if one is too small); outputs may be the inputs. Values of 4, 8 or 16 bytes.
// Returns the local ranks' new sizes.

template <sort_key K>
std::vector<std::int64_t> sort_keys(nccl_communicator& comm, shards<const K> in, shards<K> out, const sort_options& opts = {},
                                    const sort_config& cfg = {}, const cuda::sort_config& local = {}) {
  return detail::nccl::sort<K, void>(comm, in, out, {}, {}, opts, cfg, local);
}

template <sort_key K, class V>
std::vector<std::int64_t> sort_pairs(nccl_communicator& comm, shards<const K> keys_in, shards<K> keys_out,
                                     shards<const V> values_in, shards<V> values_out, const sort_options& opts = {},
                                     const sort_config& cfg = {}, const cuda::sort_config& local = {}) {
  return detail::nccl::sort<K, V>(comm, keys_in, keys_out, values_in, values_out, opts, cfg, local);
}

/// One GPU per process: n keys in, room for `capacity` out; returns the new count.
template <sort_key K>
std::int64_t sort_keys(nccl_communicator& comm, const K* d_in, std::int64_t n, K* d_out, std::int64_t capacity,
                       const sort_options& opts = {}, const sort_config& cfg = {}, const cuda::sort_config& local = {}) {
  return sort_keys<K>(comm, detail::one(device_shard<const K>{d_in, n}), detail::one(device_shard<K>{d_out, capacity}), opts,
                      cfg, local)[0];
}

template <sort_key K, class V>
std::int64_t sort_pairs(nccl_communicator& comm, const K* d_keys_in, const V* d_values_in, std::int64_t n, K* d_keys_out,
                        V* d_values_out, std::int64_t capacity, const sort_options& opts = {}, const sort_config& cfg = {},
                        const cuda::sort_config& local = {}) {
  return sort_pairs<K, V>(comm, detail::one(device_shard<const K>{d_keys_in, n}), detail::one(device_shard<K>{d_keys_out, capacity}),
                          detail::one(device_shard<const V>{d_values_in, n}),
                          detail::one(device_shard<V>{d_values_out, capacity}), opts, cfg, local)[0];
}

}  // namespace scankit::dist
