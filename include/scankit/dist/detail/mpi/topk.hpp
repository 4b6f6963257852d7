// Distributed top-k on CPU ranks: the k largest (or smallest) items of the global sequence
// and their global positions, sorted (ties by the smaller position), the same on every rank.
//
//   phase 1  the call records (k and the direction agree or throw) carry the shard sizes, so
//            that a k past the sequence's length throws on every rank before any allocation
//   phase 2  local top-k: the rank's min(k, n) best items, sorted, with shard positions; a
//            second record exchange, so that a rank failing here fails every rank; then an
//            all-gather of every rank's candidates (the sizes say how many each sends)
//   phase 3  every rank selects the k best of the candidates, in rank order
//
// The global top-k is among the ranks' own top-ks. The candidates stand in rank order and,
// within a rank, by (rank order of the key, position), so among equal keys a candidate's index
// orders it as its global position does: the local select's ties by index are the global ties
// by position.
#pragma once

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "scankit/cpu/topk.hpp"
#include "scankit/dist/detail/mpi/exchange.hpp"
#include "scankit/dist/detail/mpi/reduce.hpp"  // check_shard
#include "scankit/dist/detail/signature.hpp"
#include "scankit/dist/mpi_communicator.hpp"

namespace scankit::dist::detail::mpi {

/// One candidate: a key and its shard position.
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
  using candidate = topk_candidate<K>;
  // ---- phase 1: the arguments, then the shard sizes (the first exchange) -----------------------
  const auto bad = capture([&] {
    check_shard(in, n, where);
    if (k < 0)
      throw invalid_argument(std::string(where) + ": k = " + std::to_string(k) + " must be >= 0");
  });
  signature sig("topk");
  sig.add_type<K>();
  sig.add_value(k);
  sig.add_value(opts.largest);
  const std::vector<std::int64_t> sizes = exchange(comm, sig.value(), n, bad, where);
  std::int64_t total = 0;
  for (std::int64_t s : sizes) total += s;
  // Every rank sees the same sizes and k, so every rank throws, before anything is allocated.
  if (k > total)
    throw invalid_argument(std::string(where) + ": k = " + std::to_string(k) + " exceeds the " +
                           std::to_string(total) + " items of the sequence");
  // Each rank's candidates: its min(k, shard) best.
  std::vector<std::int64_t> counts(sizes.size());
  std::int64_t candidates = 0;
  for (std::size_t q = 0; q < sizes.size(); ++q)
    candidates += counts[q] = sizes[q] < k ? sizes[q] : k;
  // ---- phase 2: local top-k, every allocation, then an agreement (the second exchange) ---------
  // A rank that fails here (memory) tells the others in the agreement, so that no rank enters
  // the candidates' exchange alone.
  std::vector<candidate> mine;
  const auto failed = capture([&] {
    const std::int64_t m = counts[static_cast<std::size_t>(comm.rank())];
    std::vector<K> v(static_cast<std::size_t>(m));
    std::vector<std::int64_t> p(static_cast<std::size_t>(m));
    cpu::topk(in, n, m, v.data(), p.data(), opts);
    mine.resize(static_cast<std::size_t>(m));
    std::memset(static_cast<void*>(mine.data()), 0,
                mine.size() * sizeof(candidate));  // no stray padding bytes
    for (std::size_t j = 0; j < mine.size(); ++j) mine[j].key = v[j], mine[j].position = p[j];
    values.assign(static_cast<std::size_t>(k), K{});
    indices.assign(static_cast<std::size_t>(k), 0);
    std::vector<candidate> room;
    room.reserve(static_cast<std::size_t>(candidates));  // the received candidates fit
  });
  signature agreed("topk candidates");
  agreed.add_value(k);
  exchange(comm, agreed.value(), std::uint64_t{0}, failed, where);
  if (k == 0) return;
  const std::vector<candidate> all = allgatherv(comm, mine.data(), counts, where);
  // ---- phase 3: the k best candidates
  // -------------------------------------------------------------
  std::vector<K> keys(all.size());
  std::vector<std::int64_t> global(all.size());
  std::int64_t offset = 0;
  std::size_t at = 0;
  for (std::size_t q = 0; q < sizes.size(); ++q) {
    for (std::int64_t j = 0; j < counts[q]; ++j, ++at)
      keys[at] = all[at].key, global[at] = offset + all[at].position;
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
