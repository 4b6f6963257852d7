// Session 12 experiment: where the CPU radix sort's time goes, phase by phase, on the 16-core
// host, and how evenly the threads share each phase.
// For n uint32 keys (default 2^27) it times std::sort(par) once, the library's sort (with a
// workspace kept across calls, as the bench does), and then the hybrid's three phases run one
// after the other: the survey, the MSD pass and the bucket sorts, each with the busy time of
// every thread (the longest thread sets the phase's time; the mean is what it would take if
// the work were shared evenly).
// It reaches into radix_sorter's private steps (the #define below); an experiment only.
// Build: g++ -O3 -DNDEBUG -std=c++20 -Iinclude tools/experiments/session12_cpu_sort_phases.cpp -ltbb
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <execution>
#include <mutex>
#include <numeric>
#include <vector>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#define private public
#include "scankit/cpu/sort.hpp"
#undef private

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

using sorter_t = scankit::cpu::detail::radix_sorter<std::uint32_t, int>;
using span_t = sorter_t::span;

struct phase_times {
  double survey = 0, msd = 0, leaves = 0, total = 0;
  double leaf_busy_max = 0, leaf_busy_mean = 0, leaf_start_max = 0;
};

// The hybrid's steps as sorter_t::msd runs them (keys only, no skewed buckets: random keys),
// with a clock between them and each bucket-sorting thread's busy time.
phase_times run_phases(const sorter_t& s, std::uint32_t* keys, std::uint32_t* tmp, std::int64_t n,
                       scankit::cpu::sort_workspace& ws) {
  phase_times pt;
  const std::vector<int> all{0, 1, 2, 3};
  const auto t0 = clk::now();
  const auto t = s.survey(keys, n, all);
  pt.survey = ms_since(t0);

  const auto t1 = clk::now();
  const span_t x{keys, nullptr}, y{tmp, nullptr};
  const int top = t.active.back();
  const std::vector<int> rest(t.active.begin(), t.active.end() - 1);
  std::vector<std::int64_t> hist(static_cast<std::size_t>(t.chunks * 256));
  s.histogram(t, true, x.k, n, top, hist);
  std::array<std::int64_t, 257> first{};
  for (int d = 0; d < 256; ++d) {
    first[d + 1] = first[d];
    for (std::int64_t c = 0; c < t.chunks; ++c) first[d + 1] += hist[static_cast<std::size_t>(c * 256 + d)];
  }
  s.scan_hist(hist, t.chunks);
  s.scatter(x, y, n, t.chunks, top, hist);
  pt.msd = ms_since(t1);

  const auto t2 = clk::now();
  std::vector<int> leaves;
  std::int64_t cap = 0;
  for (int d = 0; d < 256; ++d)
    if (first[d + 1] > first[d]) leaves.push_back(d), cap = std::max(cap, first[d + 1] - first[d]);
  std::stable_sort(leaves.begin(), leaves.end(),
                   [&](int a, int b) { return first[a + 1] - first[a] > first[b + 1] - first[b]; });
  const std::int64_t pool = std::min<std::int64_t>(s.workers_, static_cast<std::int64_t>(leaves.size()));
  std::vector<sorter_t::leaf_buffers> buffers(static_cast<std::size_t>(pool));
  ws.prepare_leaves(buffers.size());
  for (std::size_t i = 0; i < buffers.size(); ++i) buffers[i].ws = &ws, buffers[i].slot = i;
  std::atomic<std::size_t> next{0};
  std::vector<double> busy(static_cast<std::size_t>(pool)), start(static_cast<std::size_t>(pool));
  s.for_chunks(pool, [&](std::int64_t c) {
    start[static_cast<std::size_t>(c)] = ms_since(t2);
    const auto tb = clk::now();
    auto& lb = buffers[static_cast<std::size_t>(c)];
    lb.reserve(cap, false);
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < leaves.size();) {
      const int d = leaves[i];
      const std::int64_t m = first[d + 1] - first[d];
      if (rest.size() >= 3 && m * 4 > s.hp_.split_bytes)
        s.split_leaf(y.at(first[d]), x.at(first[d]), m, rest, lb, cap);
      else
        s.leaf(y.at(first[d]), x.at(first[d]), m, rest, lb.a(), lb.b(), s.leaf_out(m));
    }
    scankit::cpu::detail::store_fence();
    busy[static_cast<std::size_t>(c)] = ms_since(tb);
  });
  pt.leaves = ms_since(t2);
  pt.total = ms_since(t0);
  pt.leaf_busy_max = *std::max_element(busy.begin(), busy.end());
  pt.leaf_busy_mean = std::accumulate(busy.begin(), busy.end(), 0.0) / static_cast<double>(busy.size());
  pt.leaf_start_max = *std::max_element(start.begin(), start.end());
  return pt;
}

// Busy time per thread of the survey's loop alone (the per-chunk work of one read), to see
// whether one slow thread sets the phase's time.
void survey_spread(const std::uint32_t* keys, std::int64_t n, int chunks) {
  std::vector<double> busy(static_cast<std::size_t>(chunks));
  std::vector<std::uint64_t> sink(static_cast<std::size_t>(chunks));
  const auto t0 = clk::now();
  tbb::parallel_for(tbb::blocked_range<int>(0, chunks, 1), [&](const tbb::blocked_range<int>& r) {
    for (int c = r.begin(); c != r.end(); ++c) {
      const auto tb = clk::now();
      std::array<std::int64_t, 256> h{};
      std::uint32_t o_or = 0, o_and = ~0u;
      for (std::int64_t i = n * c / chunks, e = n * (c + 1) / chunks; i < e; ++i) {
        o_or |= keys[i];
        o_and &= keys[i];
        ++h[keys[i] >> 24];
      }
      sink[static_cast<std::size_t>(c)] = o_or ^ o_and ^ static_cast<std::uint64_t>(h[7]);
      busy[static_cast<std::size_t>(c)] = ms_since(tb);
    }
  }, tbb::simple_partitioner());
  const double wall = ms_since(t0);
  std::sort(busy.begin(), busy.end());
  std::printf("  count-read, %2d chunks: wall %6.1f ms, chunk busy min %.1f / median %.1f / max %.1f ms (sink %llu)\n",
              chunks, wall, busy.front(), busy[busy.size() / 2], busy.back(),
              static_cast<unsigned long long>(sink[0] & 1));
}
}  // namespace

int main(int argc, char** argv) {
  const int log_n = argc > 1 ? std::atoi(argv[1]) : 27;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::int64_t n = std::int64_t{1} << log_n;
  std::vector<std::uint32_t> src(static_cast<std::size_t>(n)), k(static_cast<std::size_t>(n));
  tbb::parallel_for(std::int64_t{0}, n, [&](std::int64_t i) { src[static_cast<std::size_t>(i)] = hash32(static_cast<std::uint64_t>(i) + 1); });
  std::vector<std::uint32_t> ref = src;
  const auto ts = clk::now();
  std::sort(std::execution::par, ref.begin(), ref.end());
  const double t_std = ms_since(ts);
  const int workers = tbb::this_task_arena::max_concurrency();
  std::printf("n = 2^%d uint32, %d reps, workers %d; std::sort(par) %.1f ms (once)\n", log_n, reps, workers, t_std);

  scankit::cpu::sort_workspace ws;
  std::vector<double> lib;
  for (int r = 0; r < reps + 1; ++r) {
    k = src;
    const auto t0 = clk::now();
    scankit::cpu::sort_keys_parallel(k.data(), n, ws);
    if (r > 0) lib.push_back(ms_since(t0));
  }
  std::sort(lib.begin(), lib.end());
  std::printf("sort_keys_parallel (workspace): median %.1f ms, min %.1f, max %.1f  %s  (%.2fx std::sort(par))\n",
              lib[lib.size() / 2], lib.front(), lib.back(), k == ref ? "ok" : "WRONG", t_std / lib[lib.size() / 2]);

  const scankit::cpu::detail::digit_fn<std::uint32_t> digit{0u, 0, 32};
  auto* tmp = reinterpret_cast<std::uint32_t*>(ws.scratch(static_cast<std::size_t>(n) * 4));
  for (const std::int64_t per_worker : {1, 4, 8}) {
    scankit::cpu::detail::hybrid_params hp;
    hp.chunks_per_worker = per_worker;
    const sorter_t sorter(digit, false, true, hp);
    std::printf("chunks per worker <= %lld (%lld chunks):\n", static_cast<long long>(per_worker),
                static_cast<long long>(sorter.chunks_for(n)));
    std::vector<double> whole;
    for (int r = 0; r < reps; ++r) {
      k = src;
      const auto tw = clk::now();
      const auto t = sorter.survey(k.data(), n, {0, 1, 2, 3});
      sorter.sort({k.data(), nullptr}, {tmp, nullptr}, n, t, true);
      whole.push_back(ms_since(tw));
      if (k != ref) std::printf("  WRONG\n");
    }
    std::sort(whole.begin(), whole.end());
    std::printf("  whole sort (scratch from the workspace): median %.1f ms, min %.1f, max %.1f\n", whole[whole.size() / 2],
                whole.front(), whole.back());
    for (int r = 0; r < reps; ++r) {
      k = src;
      const phase_times p = run_phases(sorter, k.data(), tmp, n, ws);
      std::printf("  phases: survey %5.1f  msd %5.1f  leaves %6.1f (thread busy max %.1f, mean %.1f; last start %.1f)  total %6.1f ms %s\n",
                  p.survey, p.msd, p.leaves, p.leaf_busy_max, p.leaf_busy_mean, p.leaf_start_max, p.total,
                  k == ref ? "ok" : "WRONG");
    }
  }
  for (int c : {workers, 2 * workers, 8 * workers}) survey_spread(src.data(), n, c);

  // A local partition instead of the survey and the MSD pass: every chunk of `chunk_keys` keys
  // (handed out dynamically) counts its top digits and scatters its keys by them into its own
  // range of the scratch array, so the second read comes from the cache and no global count
  // is needed first (the buckets are then spread over the chunks).
  const sorter_t plain(digit, false, true, scankit::cpu::detail::hybrid_params{});
  const auto top = digit.pass(3);
  for (const std::int64_t chunk_keys : {std::int64_t{1} << 16, std::int64_t{1} << 18, std::int64_t{1} << 20}) {
    const std::int64_t chunks = (n + chunk_keys - 1) / chunk_keys;
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
      k = src;
      const auto t0 = clk::now();
      tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, chunks, 1), [&](const tbb::blocked_range<std::int64_t>& rg) {
        for (std::int64_t c = rg.begin(); c != rg.end(); ++c) {
          const std::int64_t b = c * chunk_keys, e = std::min(n, b + chunk_keys);
          std::array<std::int64_t, 256> h{};
          for (std::int64_t i = b; i < e; ++i) ++h[top(k[static_cast<std::size_t>(i)])];
          std::int64_t run = b;
          for (auto& x : h) {
            const std::int64_t cnt = x;
            x = run;
            run += cnt;
          }
          sorter_t::scatter_run(k.data(), nullptr, b, e, tmp, nullptr, h, top, true);
        }
      });
      t.push_back(ms_since(t0));
    }
    std::sort(t.begin(), t.end());
    std::printf("local partition, chunks of 2^%d keys: median %.1f ms (min %.1f, max %.1f)\n",
                static_cast<int>(std::log2(static_cast<double>(chunk_keys))), t[t.size() / 2], t.front(), t.back());
  }
  (void)plain;
  return 0;
}
