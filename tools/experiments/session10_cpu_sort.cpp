// Session 10 experiment: where the CPU radix sort's time goes on the 16-core host.
// Times, for n uint32 keys (default 2^27): std::sort(par), the library's sort_keys_parallel,
// its survey alone, the sort with a scratch buffer allocated and touched before the clock
// starts (reused across runs), a fresh 4n-byte allocation touched in parallel, and a parallel
// copy of the same bytes.
// Build: g++ -O3 -DNDEBUG -std=c++20 -Iinclude tools/experiments/session10_cpu_sort.cpp -ltbb
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <execution>
#include <numeric>
#include <vector>

#include <tbb/parallel_for.h>

#include "scankit/cpu/sort.hpp"

namespace {
using clk = std::chrono::steady_clock;
double ms_since(clk::time_point t0) { return std::chrono::duration<double, std::milli>(clk::now() - t0).count(); }

std::uint32_t hash32(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return static_cast<std::uint32_t>(x);
}

template <class F>
double median_ms(int reps, const std::vector<std::uint32_t>& src, std::vector<std::uint32_t>& k, F&& f) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    k = src;
    const auto t0 = clk::now();
    f();
    t.push_back(ms_since(t0));
  }
  std::sort(t.begin(), t.end());
  std::printf("   samples:");
  for (double x : t) std::printf(" %.1f", x);
  std::printf("\n");
  return t[t.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  const int log_n = argc > 1 ? std::atoi(argv[1]) : 27;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::int64_t n = std::int64_t{1} << log_n;
  std::vector<std::uint32_t> src(static_cast<std::size_t>(n)), k;
  tbb::parallel_for(std::int64_t{0}, n, [&](std::int64_t i) { src[static_cast<std::size_t>(i)] = hash32(static_cast<std::uint64_t>(i) + 1); });
  std::vector<std::uint32_t> ref = src;
  std::sort(std::execution::par, ref.begin(), ref.end());
  std::printf("n = 2^%d uint32, %d reps, workers %d\n", log_n, reps, tbb::this_task_arena::max_concurrency());

  const double t_std = median_ms(std::max(1, reps / 2), src, k, [&] { std::sort(std::execution::par, k.begin(), k.end()); });
  std::printf("std::sort(par)            %9.1f ms\n", t_std);

  const double t_lib = median_ms(reps, src, k, [&] { scankit::cpu::sort_keys_parallel(k.data(), n); });
  std::printf("sort_keys_parallel        %9.1f ms   (%.2fx std::sort(par))  %s\n", t_lib, t_std / t_lib,
              k == ref ? "ok" : "WRONG");

  using sorter_t = scankit::cpu::detail::radix_sorter<std::uint32_t, int>;
  const scankit::cpu::detail::digit_fn<std::uint32_t> digit{0u, 0, 32};
  const std::vector<int> all{0, 1, 2, 3};
  for (std::int64_t split_kib : {std::int64_t{1} << 40, std::int64_t{1024}, std::int64_t{256}, std::int64_t{64}}) {
    scankit::cpu::detail::hybrid_params hp;
    hp.split_bytes = split_kib << 10;
    const long long leaf_kib = split_kib;
    const sorter_t sorter(digit, false, true, hp);
    const double t_survey = median_ms(reps, src, k, [&] { (void)sorter.survey(k.data(), n, all); });
    std::printf("survey                    %9.1f ms\n", t_survey);
    scankit::cpu::detail::raw_buffer<std::uint32_t> tmp(n);
    std::memset(tmp.get(), 1, static_cast<std::size_t>(n) * 4);
    const double t_pre = median_ms(reps, src, k, [&] {
      const auto t = sorter.survey(k.data(), n, all);
      sorter.sort({k.data(), nullptr}, {tmp.get(), nullptr}, n, t, true);
    });
    std::printf("split above %lld KiB: survey + sort, scratch touched before: %9.1f ms (%.2fx std::sort(par)) %s\n",
                leaf_kib, t_pre, t_std / t_pre, k == ref ? "ok" : "WRONG");
  }

  std::vector<double> ta;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = clk::now();
    scankit::cpu::detail::raw_buffer<std::uint32_t> fresh(n);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n, 1 << 16), [&](const tbb::blocked_range<std::int64_t>& r) {
      std::memset(fresh.get() + r.begin(), 0, static_cast<std::size_t>(r.size()) * 4);
    });
    ta.push_back(ms_since(t0));
  }
  std::sort(ta.begin(), ta.end());
  std::printf("fresh 4n-byte buffer, allocated and touched in parallel: %.1f ms (min %.1f)\n", ta[ta.size() / 2], ta[0]);

  std::vector<std::uint32_t> dst(static_cast<std::size_t>(n));
  const double t_copy = median_ms(reps, src, k, [&] {
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n, 1 << 16), [&](const tbb::blocked_range<std::int64_t>& r) {
      std::memcpy(dst.data() + r.begin(), k.data() + r.begin(), static_cast<std::size_t>(r.size()) * 4);
    });
  });
  std::printf("parallel copy of 4n bytes %9.1f ms (%.1f GB/s counting reads and writes)\n", t_copy,
              8.0 * static_cast<double>(n) / t_copy / 1e6);
  return 0;
}
