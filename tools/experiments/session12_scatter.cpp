// Session 12 experiment: one stable scatter pass of the CPU radix sort (8-bit digit), in
// nanoseconds per key, for a few ways to write its loop, on buffers of L1, L2 and beyond-L2
// size. Every thread of the host runs the same variant at once on buffers of its own.
//   u64 offsets      to[off[d]++] = k with 64-bit offsets (the library's scatter_run)
//   u32 offsets      the same with 32-bit offsets
//   2 streams        the input's two halves scattered in one loop, each with its own offsets
//                    (the second half's start after the first's in every digit): two
//                    independent chains of offset loads and stores per iteration
//   4 streams        four quarters likewise
// Build: g++ -O3 -DNDEBUG -std=c++20 tools/experiments/session12_scatter.cpp -ltbb
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace {
using clk = std::chrono::steady_clock;

std::uint32_t hash32(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return static_cast<std::uint32_t>(x);
}

// Offsets of `streams` equal slices of in[0, m) by digit (k >> shift) & 255, in (digit, slice)
// order, so that slice j's items of digit d follow slice j-1's: a stable scatter.
template <class O>
void offsets(const std::uint32_t* in, std::uint32_t m, int shift, int streams, O* off /* [streams][256] */) {
  std::vector<O> h(static_cast<std::size_t>(streams) * 256, 0);
  for (int j = 0; j < streams; ++j)
    for (std::uint32_t i = m / streams * j, e = j == streams - 1 ? m : m / streams * (j + 1); i < e; ++i)
      ++h[static_cast<std::size_t>(j) * 256 + ((in[i] >> shift) & 255u)];
  O run = 0;
  for (int d = 0; d < 256; ++d)
    for (int j = 0; j < streams; ++j) {
      off[j * 256 + d] = run;
      run += h[static_cast<std::size_t>(j) * 256 + d];
    }
}

template <class O>
void scatter1(const std::uint32_t* in, std::uint32_t* out, std::uint32_t m, int shift, O* off) {
  for (std::uint32_t i = 0; i < m; ++i) {
    const std::uint32_t k = in[i];
    out[off[(k >> shift) & 255u]++] = k;
  }
}

void scatter2(const std::uint32_t* in, std::uint32_t* out, std::uint32_t m, int shift, std::uint32_t* off) {
  std::uint32_t* o0 = off;
  std::uint32_t* o1 = off + 256;
  const std::uint32_t half = m / 2;
  const std::uint32_t* a = in;
  const std::uint32_t* b = in + half;
  for (std::uint32_t i = 0; i < half; ++i) {
    const std::uint32_t x = a[i], y = b[i];
    out[o0[(x >> shift) & 255u]++] = x;
    out[o1[(y >> shift) & 255u]++] = y;
  }
  for (std::uint32_t i = 2 * half; i < m; ++i) out[o1[(in[i] >> shift) & 255u]++] = in[i];
}

void scatter4(const std::uint32_t* in, std::uint32_t* out, std::uint32_t m, int shift, std::uint32_t* off) {
  const std::uint32_t q = m / 4;
  for (std::uint32_t i = 0; i < q; ++i) {
    const std::uint32_t x0 = in[i], x1 = in[q + i], x2 = in[2 * q + i], x3 = in[3 * q + i];
    out[off[((x0 >> shift) & 255u)]++] = x0;
    out[off[256 + ((x1 >> shift) & 255u)]++] = x1;
    out[off[512 + ((x2 >> shift) & 255u)]++] = x2;
    out[off[768 + ((x3 >> shift) & 255u)]++] = x3;
  }
  for (std::uint32_t i = 4 * q; i < m; ++i) out[off[768 + ((in[i] >> shift) & 255u)]++] = in[i];
}
}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  const int threads = tbb::this_task_arena::max_concurrency();
  std::printf("one 8-bit scatter pass of uint32 keys, %d threads each on its own buffers, %d reps\n", threads, reps);
  for (int log_m : {11, 14, 16, 19, 21}) {
    const std::uint32_t m = 1u << log_m;
    const int rounds = std::max(1, (1 << 24) >> log_m);  // ~16M keys per thread per rep
    struct bufs {
      std::vector<std::uint32_t> in, out;
    };
    std::vector<bufs> b(static_cast<std::size_t>(threads));
    tbb::parallel_for(0, threads, [&](int t) {
      b[static_cast<std::size_t>(t)].in.resize(m);
      b[static_cast<std::size_t>(t)].out.resize(m);
      for (std::uint32_t i = 0; i < m; ++i) b[static_cast<std::size_t>(t)].in[i] = hash32(i * 7919ull + static_cast<std::uint64_t>(t));
    });
    for (const std::string v : {"u64 offsets", "u32 offsets", "2 streams", "4 streams"}) {
      std::vector<double> med;
      bool ok = true;
      for (int r = 0; r < reps; ++r) {
        std::vector<double> ns(static_cast<std::size_t>(threads));
        tbb::parallel_for(tbb::blocked_range<int>(0, threads, 1), [&](const tbb::blocked_range<int>& rg) {
          for (int t = rg.begin(); t != rg.end(); ++t) {
            auto& x = b[static_cast<std::size_t>(t)];
            const int streams = v == "2 streams" ? 2 : v == "4 streams" ? 4 : 1;
            std::vector<std::uint64_t> o64(256);
            std::vector<std::uint32_t> o32(static_cast<std::size_t>(streams) * 256);
            std::vector<std::uint32_t> base32(o32.size());
            std::vector<std::uint64_t> base64(256);
            offsets(x.in.data(), m, 8, streams, base32.data());
            offsets(x.in.data(), m, 8, 1, base64.data());
            double total = 0;
            for (int k = 0; k < rounds; ++k) {
              const auto t0 = clk::now();
              if (v == "u64 offsets") {
                std::copy(base64.begin(), base64.end(), o64.begin());
                scatter1(x.in.data(), x.out.data(), m, 8, o64.data());
              } else {
                std::copy(base32.begin(), base32.end(), o32.begin());
                if (streams == 1) scatter1(x.in.data(), x.out.data(), m, 8, o32.data());
                else if (streams == 2) scatter2(x.in.data(), x.out.data(), m, 8, o32.data());
                else scatter4(x.in.data(), x.out.data(), m, 8, o32.data());
              }
              total += std::chrono::duration<double, std::nano>(clk::now() - t0).count();
            }
            ns[static_cast<std::size_t>(t)] = total / (static_cast<double>(rounds) * m);
          }
        }, tbb::simple_partitioner());
        std::sort(ns.begin(), ns.end());
        med.push_back(ns[ns.size() / 2]);
        if (r == 0) {  // output of thread 0: sorted by bits 8-15, stable (input order within a digit)
          const auto& x = b[0];
          std::vector<std::uint32_t> want = x.in;
          std::stable_sort(want.begin(), want.end(), [](std::uint32_t p, std::uint32_t q) { return ((p >> 8) & 255u) < ((q >> 8) & 255u); });
          ok = want == x.out;
        }
      }
      std::sort(med.begin(), med.end());
      std::printf("2^%-2d keys (%5u KiB)  %-12s %5.2f ns/key (median thread, median rep; reps %.2f-%.2f)  %s\n", log_m,
                  m / 256, v.c_str(), med[med.size() / 2], med.front(), med.back(), ok ? "ok" : "WRONG");
    }
  }
  return 0;
}
