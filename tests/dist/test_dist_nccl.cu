// The distributed primitives on GPU ranks in one process: driving 1 and then 2 GPUs
// (ncclCommInitAll), and as two ranks of one GPU each on two threads, each with its own
// non-blocking communicator (from_unique_id: the set-up of one process per GPU, without MPI).
// Each case skips on a machine with fewer GPUs.
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "dist/nccl_test_cases.cuh"

namespace {

using scankit::dist::nccl_communicator;

/// 100 ones and room for 100 results on one GPU.
struct test_arrays {
  explicit test_arrays(const scankit::dist::nccl_local_rank& l) : in(l, std::vector<int>(100, 1)), out(l, 100) {}
  scankit::dist::test::device_array<int> in, out;
};

/// A communicator over the first `gpus` GPUs, or null (and the test skipped) without them.
bool make(int gpus, std::unique_ptr<nccl_communicator>& c) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) n = 0;
  if (n < gpus) return false;
  std::vector<int> devices;
  for (int d = 0; d < gpus; ++d) devices.push_back(d);
  c = std::make_unique<nccl_communicator>(nccl_communicator::all_devices(devices, std::chrono::seconds(120)));
  return true;
}

#define GPU_TESTS(gpus)                                                                              \
  TEST(DistNccl##gpus##Gpu, Scan) {                                                                  \
    std::unique_ptr<nccl_communicator> c;                                                            \
    if (!make(gpus, c)) GTEST_SKIP() << "needs " << gpus << " GPUs";                                 \
    scankit::dist::test::scan_cases(*c);                                                             \
  }                                                                                                  \
  TEST(DistNccl##gpus##Gpu, Compaction) {                                                            \
    std::unique_ptr<nccl_communicator> c;                                                            \
    if (!make(gpus, c)) GTEST_SKIP() << "needs " << gpus << " GPUs";                                 \
    scankit::dist::test::compaction_cases(*c);                                                       \
  }                                                                                                  \
  TEST(DistNccl##gpus##Gpu, Histogram) {                                                             \
    std::unique_ptr<nccl_communicator> c;                                                            \
    if (!make(gpus, c)) GTEST_SKIP() << "needs " << gpus << " GPUs";                                 \
    scankit::dist::test::histogram_cases(*c);                                                        \
  }                                                                                                  \
  TEST(DistNccl##gpus##Gpu, Sort) {                                                                  \
    std::unique_ptr<nccl_communicator> c;                                                            \
    if (!make(gpus, c)) GTEST_SKIP() << "needs " << gpus << " GPUs";                                 \
    scankit::dist::test::sort_cases(*c);                                                             \
  }

GPU_TESTS(1)
GPU_TESTS(2)
GPU_TESTS(4)
GPU_TESTS(8)

/// Runs f(communicator, rank) on two threads, rank r on GPU r, each with its own communicator.
template <class F>
bool on_two_threads(F f) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n < 2) return false;
  ncclUniqueId id;
  EXPECT_EQ(ncclGetUniqueId(&id), ncclSuccess);
  std::exception_ptr error[2];
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r)
    threads.emplace_back([&, r] {
      try {
        auto c = nccl_communicator::from_unique_id(id, 2, r, r, std::chrono::seconds(120));
        f(c, r);
        c.synchronize();
      } catch (...) {
        error[r] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (int r = 0; r < 2; ++r)
    if (error[r]) {
      try {
        std::rethrow_exception(error[r]);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "rank " << r << ": " << e.what();
      }
    }
  return true;
}

#define THREAD_TEST(name, body)                                                                      \
  TEST(DistNcclThreads, name) {                                                                      \
    if (!on_two_threads([](nccl_communicator& c, int rank) { (void)rank; body; }))                   \
      GTEST_SKIP() << "needs 2 GPUs";                                                                \
  }

THREAD_TEST(Scan, scankit::dist::test::scan_cases(c))
THREAD_TEST(Compaction, scankit::dist::test::compaction_cases(c))
THREAD_TEST(Histogram, scankit::dist::test::histogram_cases(c))
THREAD_TEST(Sort, scankit::dist::test::sort_cases(c))

TEST(DistNcclThreads, MismatchedCallsAndLocalFailuresReachBothRanks) {
  const bool ran = on_two_threads([](nccl_communicator& c, int rank) {
    using namespace scankit;
    test_arrays a(c.local(0));
    if (rank == 0) EXPECT_THROW(dist::inclusive_scan(c, a.in.get(), a.out.get(), 100, scankit::sum<int>{}), dist::mismatch_error);
    else EXPECT_THROW(dist::inclusive_scan(c, a.in.get(), a.out.get(), 100, scankit::max<int>{}), dist::mismatch_error);
    if (rank == 0) EXPECT_THROW(dist::inclusive_scan(c, a.in.get(), a.out.get(), 100), dist::mismatch_error);
    else EXPECT_THROW(dist::select_if(c, a.in.get(), 100, a.out.get(), is_nonzero<int>{}), dist::mismatch_error);
    std::vector<dist::device_shard<const int>> in = {{a.in.get(), 100}};
    std::vector<dist::device_shard<int>> out = {{a.out.get(), rank == 0 ? 50 : 100}};
    if (rank == 0) EXPECT_THROW(dist::inclusive_scan<int>(c, in, out), invalid_argument);
    else EXPECT_THROW(dist::inclusive_scan<int>(c, in, out), dist::remote_error);
    // Sorts that would take different paths or exchange layouts.
    std::vector<dist::device_shard<int>> sorted = {{a.out.get(), 100}};
    EXPECT_THROW(dist::sort_keys<int>(c, in, sorted, {}, {.exchange_parts = rank == 0 ? 1 : 2}), dist::mismatch_error);
    EXPECT_THROW(dist::sort_keys<int>(c, in, sorted, {},
                                      {.split = rank == 0 ? dist::sort_config::split_kind::radix
                                                          : dist::sort_config::split_kind::samples}),
                 dist::mismatch_error);
    EXPECT_EQ(dist::inclusive_scan(c, a.in.get(), a.out.get(), 100), 200);
  });
  if (!ran) GTEST_SKIP() << "needs 2 GPUs";
}

TEST(DistNccl2Gpu, ShardCountMismatchIsRejected) {
  std::unique_ptr<nccl_communicator> c;
  if (!make(2, c)) GTEST_SKIP() << "needs 2 GPUs";
  std::vector<scankit::dist::device_shard<const int>> in(1);
  std::vector<scankit::dist::device_shard<int>> out(1);
  EXPECT_THROW(scankit::dist::inclusive_scan<int>(*c, in, out), scankit::invalid_argument);
}

}  // namespace
