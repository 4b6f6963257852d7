// Moving a distributed array to another layout on CPU ranks, keeping its global order: the
// rebalancing of compaction results to equal shards, and the sort's final balancing step.
//
//   phase 1  exchange: all-gather of the call records carrying the shard sizes
//   phase 2  plan: the overlap of each current shard with each target shard (plan_transfer)
//   phase 3  all-to-all of the overlaps (MPI_Alltoallv); each rank receives its pieces in rank
//            order, which is the global order
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "scankit/dist/detail/mpi/exchange.hpp"
#include "scankit/dist/detail/plan.hpp"
#include "scankit/dist/detail/signature.hpp"
#include "scankit/dist/mpi_communicator.hpp"

namespace scankit::dist::detail::mpi {

/// Moves the shards (sizes `from` on every rank) to layout `to`; `out` must hold to[rank]
/// items and must not overlap `in`.
template <class T>
void move_layout(mpi_communicator& comm, const T* in, const std::vector<std::int64_t>& from,
                 const std::vector<std::int64_t>& to, T* out, const char* where) {
  const auto plan = plan_transfer(from, to, comm.rank());
  if (plan.identity) {
    std::copy(in, in + from[static_cast<std::size_t>(comm.rank())], out);
    return;
  }
  alltoallv(comm, in, plan.send, out, plan.recv, where);
}

template <class T>
std::vector<T> rebalance(mpi_communicator& comm, const T* in, std::int64_t n) {
  static_assert(std::is_trivially_copyable_v<T>, "rebalancing moves items as bytes");
  constexpr const char* where = "scankit::dist::rebalance";
  // ---- phase 1: exchange of the shard sizes ------------------------------------------------
  signature sig("rebalance");
  sig.add_type<T>();
  const auto failed = capture([&] {
    scankit::detail::check_size(n, where);
    scankit::detail::check_pointer(in, n, "input", where);
  });
  const auto sizes = exchange(comm, sig.value(), n, failed, where);
  // ---- phases 2 and 3: plan and all-to-all ---------------------------------------------------
  std::int64_t total = 0;
  for (auto s : sizes) total += s;
  const auto target = balanced_sizes(total, comm.size());
  std::vector<T> out(static_cast<std::size_t>(target[static_cast<std::size_t>(comm.rank())]));
  move_layout(comm, in, sizes, target, out.data(), where);
  return out;
}

}  // namespace scankit::dist::detail::mpi
