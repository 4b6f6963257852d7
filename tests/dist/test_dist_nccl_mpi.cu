// The distributed primitives on GPU ranks, one process per GPU under mpirun, the NCCL
// communicator bootstrapped through MPI (scankit/dist/nccl_mpi.hpp). Every test skips unless
// each process has a GPU of its own. Run it also with NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1
// for the path NCCL takes between hosts.
#include <chrono>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "dist/mpi_test_main.hpp"
#include "dist/nccl_test_cases.cuh"
#include "scankit/dist/mpi.hpp"
#include "scankit/dist/nccl_mpi.hpp"

namespace {

using namespace scankit;
using namespace scankit::dist;

mpi_communicator* mpi = nullptr;
nccl_communicator* gpus = nullptr;

#define NEED_GPUS() \
  if (!gpus) GTEST_SKIP() << "needs one GPU per process"

TEST(DistNcclMpi, Scan) {
  NEED_GPUS();
  test::scan_cases(*gpus);
}

TEST(DistNcclMpi, Compaction) {
  NEED_GPUS();
  test::compaction_cases(*gpus);
}

TEST(DistNcclMpi, Histogram) {
  NEED_GPUS();
  test::histogram_cases(*gpus);
}

TEST(DistNcclMpi, Sort) {
  NEED_GPUS();
  test::sort_cases(*gpus);
}

TEST(DistNcclMpi, MismatchedCallsThrowOnEveryRank) {
  NEED_GPUS();
  if (gpus->size() < 2) GTEST_SKIP() << "needs two ranks";
  const int me = gpus->local(0).rank;
  test::device_array<int> in(gpus->local(0), std::vector<int>(100, 1)), out(gpus->local(0), 100);
  if (me == 0) EXPECT_THROW(inclusive_scan(*gpus, in.get(), out.get(), 100, scankit::sum<int>{}), mismatch_error);
  else EXPECT_THROW(inclusive_scan(*gpus, in.get(), out.get(), 100, scankit::max<int>{}), mismatch_error);
  if (me == 0) EXPECT_THROW(inclusive_scan(*gpus, in.get(), out.get(), 100), mismatch_error);
  else EXPECT_THROW(select_if(*gpus, in.get(), 100, out.get(), is_nonzero<int>{}), mismatch_error);
  EXPECT_EQ(inclusive_scan(*gpus, in.get(), out.get(), 100), 100 * gpus->size());
  gpus->synchronize();
}

TEST(DistNcclMpi, ALocalFailureReachesEveryRank) {
  NEED_GPUS();
  const int me = gpus->local(0).rank;
  test::device_array<int> in(gpus->local(0), std::vector<int>(100, 1)), out(gpus->local(0), 100);
  std::vector<device_shard<const int>> i = {{in.get(), 100}};
  std::vector<device_shard<int>> o = {{out.get(), me == 0 ? 50 : 100}};
  if (me == 0) EXPECT_THROW(inclusive_scan<int>(*gpus, i, o), invalid_argument);
  else EXPECT_THROW(inclusive_scan<int>(*gpus, i, o), remote_error);
  EXPECT_EQ(inclusive_scan(*gpus, in.get(), out.get(), 100), 100 * gpus->size());
  gpus->synchronize();
}

}  // namespace

int main(int argc, char** argv) {
  return test::run_mpi_tests(
      argc, argv,
      [] {
        mpi = new mpi_communicator(MPI_COMM_WORLD, std::chrono::seconds(120));
        int devices = 0;
        if (cudaGetDeviceCount(&devices) != cudaSuccess) devices = 0;
        // Every process needs a GPU of its own; all ranks agree before any of them starts NCCL.
        int local_rank = 0, local_size = 1;
        MPI_Comm node;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        MPI_Comm_rank(node, &local_rank);
        MPI_Comm_size(node, &local_size);
        MPI_Comm_free(&node);
        int ok = devices >= local_size ? 1 : 0, all_ok = 0;
        MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (all_ok) gpus = new nccl_communicator(nccl_from_mpi(*mpi, local_rank));
      },
      [] {
        delete gpus;
        delete mpi;
      });
}
