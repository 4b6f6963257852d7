// One process per GPU, started by mpirun: the NCCL communicator bootstrapped through MPI (rank
// 0 creates the NCCL id, MPI broadcasts it, every rank joins with its MPI rank). Link both
// scankit::dist_nccl and scankit::dist_mpi.
//
//   scankit::dist::mpi_communicator mpi(MPI_COMM_WORLD);
//   int local = ...;  // e.g. the rank within the node, modulo the GPUs per node
//   auto comm = scankit::dist::nccl_from_mpi(mpi, local);
#pragma once

#include <mpi.h>
#include <nccl.h>

#include <chrono>
#include <memory>
#include <string>

#include "scankit/dist/detail/mpi/exchange.hpp"
#include "scankit/dist/mpi_communicator.hpp"
#include "scankit/dist/nccl_communicator.hpp"

namespace scankit::dist {

/// A communicator of mpi.size() ranks, this process being rank mpi.rank() on GPU `device`.
/// Collective over `mpi`; every wait is bounded by mpi.timeout() (the NCCL communicator's
/// timeout is set to the same).
inline nccl_communicator nccl_from_mpi(mpi_communicator& mpi, int device) {
  constexpr const char* where = "scankit::dist::nccl_from_mpi";
  mpi.check_usable(where);
  // Heap memory: after a timed-out broadcast MPI may still write it, and the communicator keeps it.
  auto id = std::make_shared<ncclUniqueId>();
  if (mpi.rank() == 0) detail::check_nccl(ncclGetUniqueId(id.get()), nullptr, "ncclGetUniqueId", where);
  MPI_Request req = MPI_REQUEST_NULL;
  mpi.check(MPI_Ibcast(id.get(), sizeof(ncclUniqueId), MPI_BYTE, 0, mpi.get(), &req), "MPI_Ibcast", where);
  detail::mpi::wait_one(mpi, req, {id}, "MPI_Ibcast", where);
  return nccl_communicator::from_unique_id(*id, mpi.size(), mpi.rank(), device, mpi.timeout());
}

}  // namespace scankit::dist
