// Session 17 experiment (not part of the library build): the CPU parallel select_if's block
// size on the device host. uint32, 2^28 items, half selected (x odd, hashed values), against
// cpu::parallel_copy of the input in the same process; median of 7 runs per block size.
//
//   g++ -O3 -std=c++20 -Iinclude tools/experiments/session17_cpu_compact.cpp -ltbb -o session17_cpu_compact
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "scankit/cpu/compact.hpp"
#include "scankit/cpu/scan.hpp"

template <class F>
double median_ms(F f, int reps) {
  std::vector<double> v;
  f();
  for (int i = 0; i < reps; ++i) {
    const auto a = std::chrono::steady_clock::now();
    f();
    v.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  const std::int64_t n = std::int64_t{1} << 28;
  std::vector<std::uint32_t> in(n), out(n);
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint32_t x = static_cast<std::uint32_t>(i) * 2654435761u;
    x ^= x >> 15;
    x *= 0x5bd1e995u;
    in[i] = x ^ (x >> 13);
  }
  const double copy_ms = median_ms([&] { scankit::cpu::parallel_copy(out.data(), in.data(), n * 4); }, 7);
  std::printf("parallel_copy %.3f ms = %.1f GB/s\n", copy_ms, 2.0 * n * 4 / copy_ms / 1e6);
  for (std::int64_t kib : {64, 128, 256, 512, 1024, 2048}) {
    scankit::cpu::compact_config cfg;
    cfg.block_bytes = kib << 10;
    std::int64_t count = 0;
    const double ms = median_ms([&] { count = scankit::cpu::select_if(in.data(), out.data(), n, [](std::uint32_t x) { return (x & 1u) != 0; }, cfg); }, 7);
    const double bytes = n * 4.0 + count * 4.0;
    std::printf("block %5lld KiB: %.3f ms = %.1f GB/s = %.1f%% of the copy (count %lld)\n", static_cast<long long>(kib), ms,
                bytes / ms / 1e6, 100.0 * (bytes / ms) / (2.0 * n * 4 / copy_ms), static_cast<long long>(count));
  }
  const double again = median_ms([&] { scankit::cpu::parallel_copy(out.data(), in.data(), n * 4); }, 7);
  std::printf("parallel_copy again %.3f ms = %.1f GB/s\n", again, 2.0 * n * 4 / again / 1e6);
}
