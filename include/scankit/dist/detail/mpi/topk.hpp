// Distributed top-k on CPU ranks: the k largest (or smallest) items of the global sequence
// and their global positions, sorted (ties by the smaller position), the same on every rank.
//
//   phase 1  local top-k: the rank's min(k, n) best items, sorted, with shard positions
//   phase 2  exchange: the call records (k, the direction and the shard size agree or throw),
//            then an all-gather of k candidate slots per rank
//   phase 3  every rank selects the k best of the candidates, in rank order
//
// The global top-k is among the ranks' own top-ks. The candidates stand in rank order and,
// within a rank, by (rank order of the key, position), so among equal keys a candidate's index
// orders it as its global position does: the local select's ties by index are the global ties
// by position.
#pragma once

#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "scankit/cpu/topk.hpp"
#include "scankit/dist/detail/mpi/exchange.hpp"
#include "scankit/dist/detail/mpi/reduce.hpp"  // check_shard
#include "scankit/dist/detail/signature.hpp"
#include "scankit/dist/mpi_communicator.hpp"

namespace scankit::dist::detail::mpi {

/// One candidate slot: a key and its shard position (-1: an empty slot).
template <class K>
struct topk_candidate {
  K key;
  std::int64_t position;
};

template <class K>
void topk(mpi_communicator& comm, const K* in, std::int64_t n, std::int64_t k,
          std::vector<K>& values, std::vector<std::int64_t>& indices,
          const cpu::topk_options& opts) {
  constexpr const char* where = "scankit::dist::topk";
  // ---- phase 1: local top-k ------------------------------------------------------------------
  std::vector<topk_candidate<K>> slots;
  const auto failed = capture([&] {
    check_shard(in, n, where);
    if (k < 0)
      throw invalid_argument(std::string(where) + ": k = " + std::to_string(k) + " must be >= 0");
    if (static_cast<double>(k) * sizeof(topk_candidate<K>) > static_cast<double>(INT_MAX))
      throw invalid_argument(std::string(where) + ": k = " + std::to_string(k) +
                             " candidates per rank exceed one MPI message");
    const std::int64_t mine = k < n ? k : n;
    std::vector<K> v(static_cast<std::size_t>(mine));
    std::vector<std::int64_t> p(static_cast<std::size_t>(mine));
    cpu::topk(in, n, mine, v.data(), p.data(), opts);
    slots.assign(static_cast<std::size_t>(k), topk_candidate<K>{K{}, -1});
    for (std::int64_t j = 0; j < mine; ++j)
      slots[static_cast<std::size_t>(j)] = {v[static_cast<std::size_t>(j)],
                                            p[static_cast<std::size_t>(j)]};
  });
  // ---- phase 2: exchange ------------------------------------------------------------------------
  signature sig("topk");
  sig.add_type<K>();
  sig.add_value(k);
  sig.add_value(opts.largest);
  const std::vector<std::int64_t> sizes = exchange(comm, sig.value(), n, failed, where);
  std::int64_t total = 0;
  for (std::int64_t s : sizes) total += s;
  // Every rank sees the same sizes and k, so every rank throws.
  if (k > total)
    throw invalid_argument(std::string(where) + ": k = " + std::to_string(k) + " exceeds the " +
                           std::to_string(total) + " items of the sequence");
  values.assign(static_cast<std::size_t>(k), K{});
  indices.assign(static_cast<std::size_t>(k), 0);
  if (k == 0) return;
  const std::vector<topk_candidate<K>> all = allgather(comm, slots.data(), slots.size(), where);
  // ---- phase 3: the k best candidates
  // -------------------------------------------------------------
  std::vector<K> keys;
  std::vector<std::int64_t> global;
  keys.reserve(all.size()), global.reserve(all.size());
  std::int64_t offset = 0;
  for (std::size_t q = 0; q < sizes.size(); ++q) {
    for (std::int64_t j = 0; j < k; ++j) {
      const topk_candidate<K>& c =
          all[q * static_cast<std::size_t>(k) + static_cast<std::size_t>(j)];
      if (c.position < 0) break;
      keys.push_back(c.key);
      global.push_back(offset + c.position);
    }
    offset += sizes[q];
  }
  std::vector<std::int64_t> picked(static_cast<std::size_t>(k));
  cpu::topk(keys.data(), static_cast<std::int64_t>(keys.size()), k, values.data(), picked.data(),
            opts);
  for (std::int64_t j = 0; j < k; ++j)
    indices[static_cast<std::size_t>(j)] =
        global[static_cast<std::size_t>(picked[static_cast<std::size_t>(j)])];
}

}  // namespace scankit::dist::detail::mpi
