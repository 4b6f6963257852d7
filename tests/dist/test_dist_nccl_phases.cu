// Phase timing of the NCCL primitives (nccl_communicator::record_phases): off, a call leaves no
// phases; on, each primitive reports its named phases, and the sort's all-to-all the bytes it
// sends to the other ranks. On 1 and 2 GPUs of one process; each case skips with fewer GPUs.
#include <algorithm>
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scankit/dist/nccl.cuh"

namespace {

namespace sd = scankit::dist;

void ok(cudaError_t e) { ASSERT_EQ(e, cudaSuccess) << cudaGetErrorString(e); }

bool make(int gpus, std::unique_ptr<sd::nccl_communicator>& c) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) n = 0;
  if (n < gpus) return false;
  std::vector<int> devices(static_cast<std::size_t>(gpus));
  std::iota(devices.begin(), devices.end(), 0);
  c = std::make_unique<sd::nccl_communicator>(sd::nccl_communicator::all_devices(devices, std::chrono::seconds(120)));
  return true;
}

/// Per local rank: `n` items of T, filled from `host` (the same on every rank) when given.
template <class T>
struct arrays {
  std::vector<T*> p;
  sd::nccl_communicator& c;
  arrays(sd::nccl_communicator& comm, std::int64_t n, const std::vector<T>& host = {}) : c(comm) {
    for (int i = 0; i < c.local_count(); ++i) {
      sd::detail::device_guard g(c.local(i).device);
      T* d = nullptr;
      ok(cudaMalloc(&d, static_cast<std::size_t>(n) * sizeof(T)));
      if (!host.empty()) ok(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
      p.push_back(d);
    }
  }
  ~arrays() {
    for (int i = 0; i < c.local_count(); ++i) {
      sd::detail::device_guard g(c.local(i).device);
      cudaFree(p[static_cast<std::size_t>(i)]);
    }
  }
  template <class S>
  std::vector<sd::device_shard<S>> shards(std::int64_t n) const {
    std::vector<sd::device_shard<S>> s;
    for (auto* x : p) s.push_back({x, n});
    return s;
  }
};

std::vector<std::string> names(const std::vector<sd::phase_time>& phases) {
  std::vector<std::string> v;
  for (const auto& ph : phases) {
    EXPECT_GE(ph.ms, 0.0) << ph.name;
    v.push_back(ph.name);
  }
  return v;
}

void phase_cases(sd::nccl_communicator& c) {
  constexpr std::int64_t n = 1 << 20;
  std::vector<std::uint32_t> keys(n);
  std::uint64_t x = 12345;
  for (auto& k : keys) x = x * 6364136223846793005ull + 1442695040888963407ull, k = static_cast<std::uint32_t>(x >> 32);
  arrays<std::uint32_t> in(c, n, keys), out(c, n);
  arrays<std::int32_t> sin(c, n, std::vector<std::int32_t>(n, 1)), sout(c, n);
  arrays<std::uint32_t> counts(c, 256);
  std::vector<std::uint8_t> bytes(n, 7);
  arrays<std::uint8_t> samples(c, n, bytes);

  // Off: no phases.
  sd::inclusive_scan<std::int32_t>(c, sin.shards<const std::int32_t>(n), sout.shards<std::int32_t>(n));
  c.synchronize();
  EXPECT_FALSE(c.recording_phases());
  EXPECT_TRUE(c.last_phases().empty());

  c.record_phases(true);
  sd::inclusive_scan<std::int32_t>(c, sin.shards<const std::int32_t>(n), sout.shards<std::int32_t>(n));
  EXPECT_EQ(names(c.last_phases()), (std::vector<std::string>{"local reduce", "exchange", "local scan"}));

  sd::select_if<std::uint32_t>(c, in.shards<const std::uint32_t>(n), out.shards<std::uint32_t>(n),
                               scankit::less_than<std::uint32_t>{1u << 31});
  EXPECT_EQ(names(c.last_phases()), (std::vector<std::string>{"local compaction", "exchange"}));

  sd::histogram_even<std::uint8_t, std::uint32_t>(c, samples.shards<const std::uint8_t>(n), counts.shards<std::uint32_t>(256), 0,
                                                  256);
  EXPECT_EQ(names(c.last_phases()), (std::vector<std::string>{"local counts", "all-reduce"}));

  // Both sorts: the radix sort (uniform keys take it by default) and the sample sort.
  const auto check_sort = [&](sd::sort_config::split_kind split, const std::vector<std::string>& expect) {
    SCOPED_TRACE(expect.size() == 6 ? "radix sort" : "sample sort");
    sd::sort_keys<std::uint32_t>(c, in.shards<const std::uint32_t>(n), out.shards<std::uint32_t>(n), {}, {.split = split});
    const auto phases = c.last_phases();
    ASSERT_EQ(names(phases), expect);
    const auto a2a = static_cast<std::size_t>(std::find(expect.begin(), expect.end(), "all-to-all") - expect.begin());
    // Every rank holds the same random keys: about half of them go to the other rank.
    if (c.size() == 1) EXPECT_EQ(phases[a2a].sent_bytes, 0);
    else EXPECT_GT(phases[a2a].sent_bytes, n);  // about 2n: half of the rank's 4n bytes
    for (std::size_t k = 0; k < phases.size(); ++k)
      if (k != a2a) EXPECT_EQ(phases[k].sent_bytes, 0) << phases[k].name;
  };
  check_sort(sd::sort_config::split_kind::automatic,
             {"records", "histogram", "partition", "all-to-all", "local sort", "balance"});
  check_sort(sd::sort_config::split_kind::samples,
             {"records", "local sort", "samples", "pieces", "all-to-all", "merge", "balance"});

  c.record_phases(false);
  sd::inclusive_scan<std::int32_t>(c, sin.shards<const std::int32_t>(n), sout.shards<std::int32_t>(n));
  c.synchronize();
  EXPECT_TRUE(c.last_phases().empty());
}

TEST(DistNcclPhases, OneGpu) {
  std::unique_ptr<sd::nccl_communicator> c;
  if (!make(1, c)) GTEST_SKIP() << "needs a GPU";
  phase_cases(*c);
}

TEST(DistNcclPhases, TwoGpus) {
  std::unique_ptr<sd::nccl_communicator> c;
  if (!make(2, c)) GTEST_SKIP() << "needs 2 GPUs";
  phase_cases(*c);
}

}  // namespace
