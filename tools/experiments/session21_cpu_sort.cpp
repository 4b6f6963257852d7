// Session 21: times scankit::cpu::sort_keys_parallel (u32 keys, with a kept workspace) on random
// keys, median of R runs, for tuning the CPU radix sort on a host without the CLI's other rows.
//   session21_cpu_sort [log2 n = 27] [reps = 9] [threads = all]
#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "scankit/cpu/sort.hpp"

int main(int argc, char** argv) {
  const int lg = argc > 1 ? std::atoi(argv[1]) : 27;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 9;
  const int threads = argc > 3 ? std::atoi(argv[3]) : 0;
  std::unique_ptr<tbb::global_control> gc;
  if (threads > 0) gc = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);
  const std::int64_t n = std::int64_t{1} << lg;
  std::vector<std::uint32_t> master(static_cast<std::size_t>(n)), keys(master.size());
  std::mt19937_64 rng(1);
  for (auto& k : master) k = static_cast<std::uint32_t>(rng());
  scankit::cpu::sort_workspace ws;
  std::vector<double> ms;
  for (int r = 0; r <= reps; ++r) {
    std::copy(master.begin(), master.end(), keys.begin());
    const auto t0 = std::chrono::steady_clock::now();
    scankit::cpu::sort_keys_parallel(keys.data(), n, ws);
    const auto t1 = std::chrono::steady_clock::now();
    if (r > 0) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  if (!std::is_sorted(keys.begin(), keys.end())) {
    std::puts("NOT SORTED");
    return 1;
  }
  std::sort(ms.begin(), ms.end());
  std::printf("2^%d u32: median %.1f ms, min %.1f, max %.1f\n", lg, ms[ms.size() / 2], ms.front(), ms.back());
}
