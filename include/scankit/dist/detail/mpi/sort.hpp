// Distributed sort on CPU ranks (sample sort with exact balance).
//
//   phase 1  exchange: all-gather of the call records carrying the shard sizes
//   phase 2  local sort of the shard (scankit's parallel radix sort; stable)
//   phase 3  samples: S regular samples of the sorted shard, all-gathered; every rank computes
//            the same p - 1 splitters from them (detail/splitters.hpp)
//   phase 4  cuts: binary searches for the splitters in the sorted shard give the piece for each
//            rank; all-gather of the piece sizes, so every rank knows what it receives
//   phase 5  all-to-all of the pieces (keys, then values; MPI_Alltoallv)
//   phase 6  merge of the received pieces: they arrive back to back in source-rank order, each
//            sorted, so rounds of stable pairwise merges (detail/mpi/merge.hpp), earlier runs
//            first among equal keys, give the stable sort of the bucket (equal keys in rank
//            order, the global input order): ceil(log2 p) rounds of one read and one write,
//            the last writing the part of the bucket that stays on the rank straight into
//            its place in the output. sort_config::merge_received = false: a full local sort
//            instead.
//   phase 7  balance: the ranges the splitters cut are within about n/S + p items of the
//            balanced ones; moving that difference between neighbouring ranks leaves exactly
//            balanced_size(n, r, p) items on rank r (nothing moves when the cuts were exact;
//            after the merge, only the items that leave the rank move)
//
// Ties between equal keys are broken by (rank, position), so the result is a stable sort of the
// global sequence, and runs of equal keys split across ranks like any other keys.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "scankit/cpu/sort.hpp"
#include "scankit/dist/detail/mpi/exchange.hpp"
#include "scankit/dist/detail/mpi/merge.hpp"
#include "scankit/dist/detail/plan.hpp"
#include "scankit/dist/detail/signature.hpp"
#include "scankit/dist/detail/splitters.hpp"
#include "scankit/dist/mpi_communicator.hpp"
#include "scankit/dist/types.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::dist::detail::mpi {

/// Sorts the distributed keys (and values, when `values` is not null); every rank's vectors are
/// replaced by its balanced share of the sorted sequence.
template <class K, class V>
void sort(mpi_communicator& comm, std::vector<K>& keys, std::vector<V>* values, const sort_options& opts,
          const sort_config& cfg) {
  static_assert(is_sort_key_v<K>, "scankit sorts 8..64-bit integers, float and double");
  static_assert(std::is_trivially_copyable_v<V>, "sort values must be trivially copyable");
  const char* where = values ? "scankit::dist::sort_pairs" : "scankit::dist::sort_keys";
  const int p = comm.size(), me = comm.rank();
  const auto n = static_cast<std::int64_t>(keys.size());
  const std::int64_t per_rank = cfg.samples_per_rank > 0 ? cfg.samples_per_rank : default_samples_per_rank;

  // ---- phase 1: exchange of the shard sizes ------------------------------------------------
  int begin = 0, end = 0;
  const auto failed = capture([&] {
    std::tie(begin, end) = scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, where);
    if (values && values->size() != keys.size())
      throw invalid_argument(std::string(where) + ": " + std::to_string(values->size()) + " values for " +
                             std::to_string(keys.size()) + " keys");
    if (cfg.samples_per_rank < 0) throw invalid_argument(std::string(where) + ": negative samples_per_rank");
  });
  signature sig(values ? "sort_pairs" : "sort_keys");
  sig.add_type<K>();
  sig.add_value(opts.descending);
  sig.add_value(opts.begin_bit);
  sig.add_value(opts.end_bit);
  sig.add_value(per_rank);
  if (values) sig.add_type<V>();
  const auto sizes = exchange(comm, sig.value(), n, failed, where);
  std::int64_t total = 0;
  for (auto s : sizes) total += s;

  // ---- phase 2: local sort -------------------------------------------------------------------
  if (values) cpu::sort_pairs_parallel(keys.data(), values->data(), n, opts);
  else cpu::sort_keys_parallel(keys.data(), n, opts);
  const auto bits = [&](const K& k) {
    return static_cast<std::uint64_t>(scankit::detail::sort_rank_bits(k, begin, end, opts.descending));
  };

  // ---- phase 3: samples and splitters ------------------------------------------------------
  std::vector<sample> mine(static_cast<std::size_t>(per_rank));
  const std::int64_t m = sample_count(n, per_rank);
  for (std::int64_t j = 0; j < m; ++j) {
    const std::int64_t pos = sample_position(j, n, m);
    mine[static_cast<std::size_t>(j)] = {bits(keys[static_cast<std::size_t>(pos)]), me, pos};
  }
  const auto all = allgather(comm, mine.data(), mine.size(), where);
  const auto split = choose_splitters(all, sizes, per_rank);

  // ---- phase 4: cuts and piece sizes ---------------------------------------------------------
  auto first_where = [&](auto pred) {
    return static_cast<std::int64_t>(std::partition_point(keys.begin(), keys.end(), pred) - keys.begin());
  };
  const auto lower = [&](std::uint64_t b) { return first_where([&](const K& k) { return bits(k) < b; }); };
  const auto upper = [&](std::uint64_t b) { return first_where([&](const K& k) { return bits(k) <= b; }); };
  std::vector<std::int64_t> cut(static_cast<std::size_t>(p) + 1, 0);
  cut[static_cast<std::size_t>(p)] = n;
  for (int k = 1; k < p; ++k) cut[static_cast<std::size_t>(k)] = local_cut(split[static_cast<std::size_t>(k - 1)], me, n, lower, upper);
  std::vector<std::int64_t> piece_sizes(static_cast<std::size_t>(p));
  for (int k = 0; k < p; ++k)
    piece_sizes[static_cast<std::size_t>(k)] = cut[static_cast<std::size_t>(k) + 1] - cut[static_cast<std::size_t>(k)];
  const auto matrix = allgather(comm, piece_sizes.data(), piece_sizes.size(), where);  // [from][to]

  // ---- phase 5: all-to-all ------------------------------------------------------------------
  const auto plan = plan_all_to_all(matrix, p, me);  // my pieces start at cut[q]
  const auto& sends = plan.send;
  const auto& recvs = plan.recv;
  const std::vector<std::int64_t> bucket = received_counts(matrix, p);  // items each rank receives
  const std::int64_t received = bucket[static_cast<std::size_t>(me)];
  std::vector<K> rkeys(static_cast<std::size_t>(received));
  alltoallv(comm, keys.data(), sends, rkeys.data(), recvs, where);
  std::vector<V> rvalues(values ? static_cast<std::size_t>(received) : 0);
  if (values) alltoallv(comm, values->data(), sends, rvalues.data(), recvs, where);

  // ---- phase 6: merge of the received pieces ---------------------------------------------------
  // Phase 7 moves the buckets to the balanced shares; the piece of that move this rank keeps,
  // the merge writes straight into the rank's output (the keys vector, free once its pieces are
  // sent), so phase 7 sends only what leaves the rank.
  const auto target = balanced_sizes(total, p);
  const bool balanced = bucket == target;
  auto moves = plan_transfer(bucket, target, me);
  const auto self = static_cast<std::size_t>(me);
  if (cfg.merge_received) {
    std::vector<std::int64_t> runs(static_cast<std::size_t>(p) + 1, 0);
    for (int q = 0; q < p; ++q)
      runs[static_cast<std::size_t>(q) + 1] = recvs[static_cast<std::size_t>(q)].offset + recvs[static_cast<std::size_t>(q)].count;
    placed_window<K, V> window;
    if (!balanced) {
      const piece kept = moves.send[self];
      const std::int64_t at_out = moves.recv[self].offset;
      window.begin = kept.offset;
      window.end = kept.offset + kept.count;
      keys.resize(static_cast<std::size_t>(target[self]));
      window.keys = keys.data() + at_out;
      if (values) {
        values->resize(keys.size());
        window.values = values->data() + at_out;
      }
    }
    merge_runs(rkeys, values ? &rvalues : nullptr, std::span<const std::int64_t>(runs),
               scankit::detail::sort_key_less<K>{begin, end, opts.descending}, window);
  } else if (values) {
    cpu::sort_pairs_parallel(rkeys.data(), rvalues.data(), received, opts);
  } else {
    cpu::sort_keys_parallel(rkeys.data(), received, opts);
  }

  // ---- phase 7: exact balance ------------------------------------------------------------------
  if (balanced) {
    keys = std::move(rkeys);
    if (values) *values = std::move(rvalues);
    return;
  }
  if (cfg.merge_received) {
    moves.send[self] = moves.recv[self] = piece{};  // the merge wrote it in place
  } else {
    keys.resize(static_cast<std::size_t>(target[self]));
    if (values) values->resize(keys.size());
  }
  alltoallv(comm, rkeys.data(), moves.send, keys.data(), moves.recv, where);
  if (values) alltoallv(comm, rvalues.data(), moves.send, values->data(), moves.recv, where);
}

}  // namespace scankit::dist::detail::mpi
