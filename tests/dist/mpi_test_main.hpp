// main() of the distributed test programs that run under mpiexec: every rank runs every test;
// rank 0 prints the usual GoogleTest output, the other ranks print only their failures
// (prefixed with the rank); the exit status is the worst over all ranks.
#pragma once

#include <mpi.h>

#include <cstdio>

#include <gtest/gtest.h>

namespace scankit::dist::test {

class rank_failure_printer : public ::testing::EmptyTestEventListener {
 public:
  explicit rank_failure_printer(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (!r.failed()) return;
    std::fprintf(stderr, "[rank %d] %s:%d: failure\n%s\n", rank_, r.file_name() ? r.file_name() : "?", r.line_number(),
                 r.summary());
  }

 private:
  int rank_;
};

/// Runs the tests between `setup` and `teardown` (which create and destroy what needs MPI).
template <class Setup, class Teardown>
int run_mpi_tests(int argc, char** argv, Setup setup, Teardown teardown) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ::testing::InitGoogleTest(&argc, argv);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new rank_failure_printer(rank));
  }
  setup();
  int rc = RUN_ALL_TESTS();
  teardown();
  int worst = rc;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}

}  // namespace scankit::dist::test
