// Session 12 experiment: the CPU radix sort's bucket sorts, one thread, in nanoseconds per key.
// A bucket is what the MSD pass leaves for one thread at 2^27 uint32 keys: 2^19 keys that
// share their top byte. Each variant sorts it by the low 24 bits from the bucket's buffer into
// a destination array; every thread of the host runs the same variant at once on buckets of its
// own (as in the sort), so that the shared caches and memory see the sort's load.
//   library        radix_sorter::split_leaf (one pass by bits 16-23 into L2-sized pieces, then
//                  each piece's two passes in L1), as the sort runs it
//   lsd8           three plain LSD passes of 8 bits over the whole bucket (one counting read)
//   lsd12          two LSD passes of 12 bits over the whole bucket
//   split8+lsd8-u32  split_leaf's plan written tight: 32-bit counters, no per-piece setup
//                  beyond the histograms
// Build: g++ -O3 -DNDEBUG -std=c++20 -Iinclude tools/experiments/session12_leaf_sort.cpp -ltbb
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <tbb/parallel_for.h>
#include <emmintrin.h>

#define private public
#include "scankit/cpu/sort.hpp"
#undef private

namespace {
using clk = std::chrono::steady_clock;
double ns_since(clk::time_point t0) { return std::chrono::duration<double, std::nano>(clk::now() - t0).count(); }

std::uint32_t hash32(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return static_cast<std::uint32_t>(x);
}

// Stable LSD passes of `bits`-bit digits over bits [0, 24) of m keys, from s to d (s and d
// distinct; a and b: scratch of m keys). One read counts every digit.
template <int Bits>
void lsd(const std::uint32_t* s, std::uint32_t* d, std::uint32_t* a, std::uint32_t* b, std::uint32_t m) {
  constexpr int passes = (24 + Bits - 1) / Bits;
  constexpr std::uint32_t radix = 1u << Bits, mask = radix - 1;
  static thread_local std::vector<std::uint32_t> hv(passes * radix);
  std::uint32_t* h = hv.data();
  std::fill(h, h + passes * radix, 0u);
  for (std::uint32_t i = 0; i < m; ++i) {
    const std::uint32_t k = s[i];
    for (int p = 0; p < passes; ++p) ++h[p * radix + ((k >> (p * Bits)) & mask)];
  }
  for (int p = 0; p < passes; ++p) {
    std::uint32_t run = 0;
    for (std::uint32_t q = 0; q < radix; ++q) {
      const std::uint32_t c = h[p * radix + q];
      h[p * radix + q] = run;
      run += c;
    }
  }
  const std::uint32_t* from = s;
  for (int p = 0; p < passes; ++p) {
    std::uint32_t* to = p == passes - 1 ? d : ((passes - 1 - p) % 2 == 1 ? a : b);
    std::uint32_t* off = h + p * radix;
    const int shift = p * Bits;
    for (std::uint32_t i = 0; i < m; ++i) {
      const std::uint32_t k = from[i];
      to[off[(k >> shift) & mask]++] = k;
    }
    from = to;
  }
}

// split_leaf's plan, tight: one pass by bits 16-23 from s into a, then each of the 256 pieces
// sorted by bits 0-15 with two 8-bit passes, a -> b -> d.
// Step times of split_tight, per thread (ns): count, split pass, piece counts, piece pass 1,
// piece pass 2 (into the destination).
thread_local std::array<double, 5> step_ns{};
bool time_steps = false;

// split_leaf's plan, tight: one pass by bits 16-23 from s into a, then each of the 256 pieces
// sorted by bits 0-15 with two 8-bit passes, a -> b -> d. Options: `staged` writes the last
// pass into c (in L1) and copies each piece to d with streaming stores (no read of d's lines
// for ownership); `two_streams` scatters the first piece pass as two interleaved halves.
void split_tight(const std::uint32_t* s, std::uint32_t* d, std::uint32_t* a, std::uint32_t* b, std::uint32_t* c,
                 std::uint32_t m, bool staged, bool two_streams) {
  auto tick = clk::now();
  auto lap = [&](int i) {
    if (!time_steps) return;
    const auto now = clk::now();
    step_ns[static_cast<std::size_t>(i)] += std::chrono::duration<double, std::nano>(now - tick).count();
    tick = now;
  };
  std::array<std::uint32_t, 257> first{};
  for (std::uint32_t i = 0; i < m; ++i) ++first[((s[i] >> 16) & 255u) + 1];
  for (int q = 0; q < 256; ++q) first[q + 1] += first[q];
  lap(0);
  std::array<std::uint32_t, 256> off;
  std::copy_n(first.begin(), 256, off.begin());
  for (std::uint32_t i = 0; i < m; ++i) {
    const std::uint32_t k = s[i];
    a[off[(k >> 16) & 255u]++] = k;
  }
  lap(1);
  for (int q = 0; q < 256; ++q) {
    const std::uint32_t lo = first[q], len = first[q + 1] - lo;
    if (len == 0) continue;
    alignas(64) std::array<std::uint32_t, 768> h{};  // digit 0 of each half, digit 1
    const std::uint32_t* x = a + lo;
    const std::uint32_t half = two_streams ? len / 2 : len;
    for (std::uint32_t i = 0; i < half; ++i) {
      ++h[x[i] & 255u];
      ++h[512 + ((x[i] >> 8) & 255u)];
    }
    for (std::uint32_t i = half; i < len; ++i) {
      ++h[256 + (x[i] & 255u)];
      ++h[512 + ((x[i] >> 8) & 255u)];
    }
    std::uint32_t r0 = 0, r1 = 0;
    for (int j = 0; j < 256; ++j) {
      const std::uint32_t c0 = h[j], c0b = h[256 + j], c1 = h[512 + j];
      h[j] = r0, h[256 + j] = r0 + c0, h[512 + j] = r1;
      r0 += c0 + c0b, r1 += c1;
    }
    lap(2);
    std::uint32_t* y = b + lo;
    if (two_streams) {
      std::uint32_t* h0 = h.data();
      std::uint32_t* h1 = h.data() + 256;
      const std::uint32_t* x1 = x + half;
      for (std::uint32_t i = 0; i < half; ++i) {
        const std::uint32_t u = x[i], v = x1[i];
        y[h0[u & 255u]++] = u;
        y[h1[v & 255u]++] = v;
      }
      if (len & 1u) y[h1[x[len - 1] & 255u]++] = x[len - 1];
    } else {
      for (std::uint32_t i = 0; i < len; ++i) y[h[x[i] & 255u]++] = x[i];
    }
    lap(3);
    std::uint32_t* z = staged ? c : d + lo;
    for (std::uint32_t i = 0; i < len; ++i) z[h[512 + ((y[i] >> 8) & 255u)]++] = y[i];
    if (staged) {
      // d + lo is not line-aligned in general: plain stores up to the first line, streaming
      // whole lines, plain stores after the last.
      std::uint32_t* out = d + lo;
      std::uint32_t i = 0;
      while (i < len && (reinterpret_cast<std::uintptr_t>(out + i) & 63u) != 0) out[i] = c[i], ++i;
      for (; i + 16 <= len; i += 16) {
        __m128i* o = reinterpret_cast<__m128i*>(out + i);
        const __m128i* f = reinterpret_cast<const __m128i*>(c + i);
        _mm_stream_si128(o, _mm_loadu_si128(f));
        _mm_stream_si128(o + 1, _mm_loadu_si128(f + 1));
        _mm_stream_si128(o + 2, _mm_loadu_si128(f + 2));
        _mm_stream_si128(o + 3, _mm_loadu_si128(f + 3));
      }
      for (; i < len; ++i) out[i] = c[i];
    }
    lap(4);
  }
  if (staged) _mm_sfence();
}
}  // namespace

int main(int argc, char** argv) {
  const int log_m = argc > 1 ? std::atoi(argv[1]) : 19;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::string only = argc > 3 ? argv[3] : "";  // run only the variants whose name contains this
  const int threads = tbb::this_task_arena::max_concurrency();
  const std::uint32_t m = 1u << log_m;
  std::printf("bucket of 2^%d uint32 keys (top byte constant), %d threads each on buckets of its own, %d reps\n",
              log_m, threads, reps);
  using sorter_t = scankit::cpu::detail::radix_sorter<std::uint32_t, int>;
  const scankit::cpu::detail::digit_fn<std::uint32_t> digit{0u, 0, 32};
  const sorter_t sorter(digit, false, true, scankit::cpu::detail::hybrid_params{});
  const std::vector<int> rest{0, 1, 2};

  // Per thread: 8 buckets in a row (a thread sorts ~16 of them at 2^27), each in its own
  // slice of a big "scratch" array and written to a slice of a big "output" array, as in the
  // sort; buffers a, b, c reused.
  constexpr int buckets = 8;
  struct per_thread {
    std::vector<std::uint32_t> src, scratch, out, a, b, c;
  };
  std::vector<per_thread> pt(static_cast<std::size_t>(threads));
  tbb::parallel_for(0, threads, [&](int t) {
    auto& p = pt[static_cast<std::size_t>(t)];
    p.src.resize(std::size_t{buckets} * m);
    for (std::size_t i = 0; i < p.src.size(); ++i)
      p.src[i] = (hash32(i * 131 + static_cast<std::uint64_t>(t)) & 0xffffffu) | 0x5a000000u;
    p.scratch.resize(p.src.size());
    p.out.resize(p.src.size());
    p.a.resize(m), p.b.resize(m), p.c.resize(m);
  });

  using fn = std::function<void(per_thread&, int)>;
  const std::vector<std::pair<std::string, fn>> variants{
      {"library split_leaf", [&](per_thread& p, int i) {
         sorter_t::leaf_buffers lb;
         lb.bufs[0] = {p.a.data(), nullptr}, lb.bufs[1] = {p.b.data(), nullptr}, lb.bufs[2] = {p.c.data(), nullptr};
         sorter.split_leaf({p.scratch.data() + std::size_t{m} * i, nullptr}, {p.out.data() + std::size_t{m} * i, nullptr}, m,
                           rest, lb, m);
       }},
      {"library leaf (no split)", [&](per_thread& p, int i) {
         sorter.leaf({p.scratch.data() + std::size_t{m} * i, nullptr}, {p.out.data() + std::size_t{m} * i, nullptr}, m, rest,
                     {p.a.data(), nullptr}, {p.b.data(), nullptr}, sorter_t::out_mode::combine);
       }},
      {"lsd8", [&](per_thread& p, int i) {
         lsd<8>(p.scratch.data() + std::size_t{m} * i, p.out.data() + std::size_t{m} * i, p.a.data(), p.b.data(), m);
       }},
      {"lsd12", [&](per_thread& p, int i) {
         lsd<12>(p.scratch.data() + std::size_t{m} * i, p.out.data() + std::size_t{m} * i, p.a.data(), p.b.data(), m);
       }},
      {"split8+lsd8 tight", [&](per_thread& p, int i) {
         split_tight(p.scratch.data() + std::size_t{m} * i, p.out.data() + std::size_t{m} * i, p.a.data(), p.b.data(),
                     p.c.data(), m, false, false);
       }},
      {"split8+lsd8 tight staged", [&](per_thread& p, int i) {
         split_tight(p.scratch.data() + std::size_t{m} * i, p.out.data() + std::size_t{m} * i, p.a.data(), p.b.data(),
                     p.c.data(), m, true, false);
       }},
      {"split8+lsd8 tight 2-stream", [&](per_thread& p, int i) {
         split_tight(p.scratch.data() + std::size_t{m} * i, p.out.data() + std::size_t{m} * i, p.a.data(), p.b.data(),
                     p.c.data(), m, false, true);
       }},
      {"split8+lsd8 tight staged 2-stream", [&](per_thread& p, int i) {
         split_tight(p.scratch.data() + std::size_t{m} * i, p.out.data() + std::size_t{m} * i, p.a.data(), p.b.data(),
                     p.c.data(), m, true, true);
       }},
  };
  for (const auto& [name, f] : variants) {
    if (name.find(only) == std::string::npos) continue;
    std::vector<double> per_key;
    bool ok = true;
    for (int r = 0; r < reps; ++r) {
      std::vector<double> ns(static_cast<std::size_t>(threads));
      tbb::parallel_for(tbb::blocked_range<int>(0, threads, 1), [&](const tbb::blocked_range<int>& rg) {
        for (int t = rg.begin(); t != rg.end(); ++t) {
          auto& p = pt[static_cast<std::size_t>(t)];
          std::memcpy(p.scratch.data(), p.src.data(), p.src.size() * 4);  // untimed, evicts the caches
          const auto t0 = clk::now();
          for (int i = 0; i < buckets; ++i) f(p, i);
          ns[static_cast<std::size_t>(t)] = ns_since(t0);
        }
      }, tbb::simple_partitioner());
      std::sort(ns.begin(), ns.end());
      per_key.push_back(ns[ns.size() / 2] / (double(buckets) * m));
      for (int t = 0; t < (r == 0 ? threads : 0) && ok; ++t) {  // the first rep's output, every thread
        const auto& p = pt[static_cast<std::size_t>(t)];
        for (int i = 0; i < buckets && ok; i += buckets - 1) {  // first and last bucket
          std::vector<std::uint32_t> want(p.src.begin() + std::ptrdiff_t{m} * i, p.src.begin() + std::ptrdiff_t{m} * (i + 1));
          std::sort(want.begin(), want.end());
          ok = std::equal(want.begin(), want.end(), p.out.begin() + std::ptrdiff_t{m} * i);
        }
      }
    }
    std::sort(per_key.begin(), per_key.end());
    std::printf("%-26s %6.2f ns/key (median thread; reps min %.2f max %.2f)  %s\n", name.c_str(),
                per_key[per_key.size() / 2], per_key.front(), per_key.back(), ok ? "ok" : "WRONG");
  }
  // split_tight again with its steps timed (every thread; the median thread's steps shown).
  time_steps = true;
  const bool staged_steps = argc > 4 && std::string(argv[4]) == "staged";
  std::vector<std::array<double, 5>> steps(static_cast<std::size_t>(threads));
  tbb::parallel_for(tbb::blocked_range<int>(0, threads, 1), [&](const tbb::blocked_range<int>& rg) {
    for (int t = rg.begin(); t != rg.end(); ++t) {
      auto& p = pt[static_cast<std::size_t>(t)];
      std::memcpy(p.scratch.data(), p.src.data(), p.src.size() * 4);
      step_ns = {};
      for (int i = 0; i < buckets; ++i)
        split_tight(p.scratch.data() + std::size_t{m} * i, p.out.data() + std::size_t{m} * i, p.a.data(), p.b.data(),
                    p.c.data(), m, staged_steps, false);
      steps[static_cast<std::size_t>(t)] = step_ns;
    }
  }, tbb::simple_partitioner());
  const char* names[5] = {"count", "split pass", "piece counts", "piece pass 1", "piece pass 2 (to dest)"};
  for (int j = 0; j < 5; ++j) {
    std::vector<double> v;
    for (const auto& st : steps) v.push_back(st[static_cast<std::size_t>(j)] / (double(buckets) * m));
    std::sort(v.begin(), v.end());
    std::printf("  split8+lsd8 tight step %-24s %5.2f ns/key (threads %.2f-%.2f)\n", names[j], v[v.size() / 2], v.front(), v.back());
  }
  return 0;
}
