// Session 17 experiment (not part of the library build; prepared, not yet run on a GPU): where
// the scan's warp-specialized tile spends its time, as session17_compact_trace.cu found for the
// compaction's (docs/results/session17-round{1..4}.log). Built with
// tools/experiments/session17-scan-trace.patch applied to decoupled_lookback.cuh
// (SCANKIT_SCAN_TRACE: clock64 and globaltimer at each hand-over of a buffer), it runs an int32
// or int64 inclusive sum through the library's warp-specialized tile (its own sum functor, so
// the kernel instantiated here is this file's), checks it against CUB's InclusiveSum, and
// prints the intervals between events and what each tile's look-back waited for.
//
//   patch -p0 < tools/experiments/session17-scan-trace.patch
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//        -Itools/experiments -DSCANKIT_HAS_CUDA=1 -DSCANKIT_SCAN_TRACE \
//        tools/experiments/session17_scan_trace.cu build/release/libscankit.a -ltbb -o session17_scan_trace
//   patch -p0 -R < tools/experiments/session17-scan-trace.patch
//   ./session17_scan_trace LOG2N [i32|i64]
//
// Events (per block, per use j of the buffers): producer 0 start, 1 buffer free (previous
// tile stored), 2 tile id taken, 3 tile landed, 4 row totals done and aggregate published
// ("ready"); consumers 5 ready seen, 6 look-back done, 7 scanned. globaltimer: 16 id taken,
// 17 landed, 18 published, 19 look-back done; 20 the tile id.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "experiment_common.cuh"
#include "scankit/cuda/detail/decoupled_lookback.cuh"

namespace dl = scankit::cuda::detail::decoupled_lookback;

template <class T>
struct traced_sum {  // its own type, so the kernel instantiated here is this TU's (traced) one
  using value_type = T;
  static constexpr const char* name = "sum";
  __host__ __device__ static constexpr T identity() { return T(0); }
  __host__ __device__ constexpr T operator()(const T& a, const T& b) const { return a + b; }
};

template <class T>
__global__ void fill(T* a, std::int64_t n, unsigned salt) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    a[i] = static_cast<T>(hash32(i, salt) & 0xffff);
}

template <class T>
__global__ void count_mismatches(const T* a, const T* b, std::int64_t n, unsigned long long* bad) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    if (a[i] != b[i]) atomicAdd(bad, 1ull);
}

using trace_t = long long[dl::trace_uses][dl::trace_events];

static void quantiles(const char* name, std::vector<double> v) {
  if (v.empty()) return;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  std::printf("%-44s %8.3f %8.3f %8.3f %8.3f %8.3f  (n=%zu)\n", name, sum / v.size(), v[v.size() / 4], v[v.size() / 2],
              v[v.size() * 9 / 10], v[v.size() * 99 / 100], v.size());
}

template <class T>
int run(int log2n) {
  const std::int64_t n = std::int64_t{1} << log2n;
  T *in, *out, *ref;
  unsigned long long* bad;
  CK(cudaMalloc(&in, n * sizeof(T)));
  CK(cudaMalloc(&out, n * sizeof(T)));
  CK(cudaMalloc(&ref, n * sizeof(T)));
  CK(cudaMalloc(&bad, 8));
  fill<<<1024, 256>>>(in, n, 777u);
  CK(cudaGetLastError());
  const std::size_t ws_bytes = dl::workspace_bytes(n, sizeof(T), 256);
  void* ws_mem;
  CK(cudaMalloc(&ws_mem, ws_bytes));
  auto ours = [&] {
    scankit::cuda::detail::arena ws(ws_mem, ws_bytes);
    if (!dl::launch_specialized(in, out, n, traced_sum<T>{}, scankit::scan_kind::inclusive, T(0), static_cast<T*>(nullptr), ws,
                                nullptr)) {
      std::fprintf(stderr, "the warp-specialized tile did not launch\n");
      std::exit(1);
    }
  };
  std::size_t cub_bytes = 0;
  CK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, in, ref, n));
  void* cub_ws;
  CK(cudaMalloc(&cub_ws, cub_bytes));
  auto theirs = [&] { CK(cub::DeviceScan::InclusiveSum(cub_ws, cub_bytes, in, ref, n)); };
  auto copy = [&] { CK(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice)); };
  timer tm;
  const float copy_ms = tm.median_ms(copy, 9);
  const float cub_ms = tm.median_ms(theirs, 9);
  const float our_ms = tm.median_ms(ours, 9);  // the last run leaves the trace
  CK(cudaMemset(bad, 0, 8));
  count_mismatches<<<1024, 256>>>(out, ref, n, bad);
  unsigned long long mismatches = 0;
  CK(cudaMemcpy(&mismatches, bad, 8, cudaMemcpyDeviceToHost));
  std::printf("%s sum n=2^%d: ours %.4f ms, CUB %.4f ms (%.3fx), copy %.4f ms (%.1f%% of it) %s\n", sizeof(T) == 4 ? "int32" : "int64",
              log2n, our_ms, cub_ms, cub_ms / our_ms, copy_ms, 100.0 * copy_ms / our_ms, mismatches == 0 ? "PASS" : "FAIL");

  static long long tr[dl::trace_blocks][dl::trace_uses][dl::trace_events];
  CK(cudaMemcpyFromSymbol(tr, dl::scan_trace, sizeof(tr)));
  int blocks = 0;
  while (blocks < dl::trace_blocks && tr[blocks][0][0] != 0) ++blocks;
  int uses = dl::trace_uses;
  for (int b = 0; b < blocks; ++b) {
    int u = 0;
    while (u < dl::trace_uses && tr[b][u][4] != 0) ++u;
    uses = std::min(uses, u);
  }
  const int first = 8, last = uses - 8;
  if (last <= first + 8) {
    std::printf("too few uses per block to trace (%d)\n", uses);
    return mismatches == 0 ? 0 : 1;
  }
  double cycles = 0, ns = 0;
  for (int b = 0; b < blocks; ++b) {
    cycles += static_cast<double>(tr[b][last][2] - tr[b][first][2]);
    ns += static_cast<double>(tr[b][last][16] - tr[b][first][16]);
  }
  const double ghz = cycles / ns;
  std::printf("SM clock %.3f GHz; %d blocks, uses %d..%d; per use %.3f us\n", ghz, blocks, first, last,
              ns / blocks / (last - first) / 1000.0);
  struct gap {
    const char* name;
    int from, from_off, to, to_off;
  };
  const gap gaps[] = {
      {"producer: wait for the buffer (stored)", 0, 0, 1, 0},
      {"producer: tile-id atomic", 1, 0, 2, 0},
      {"producer: load (issued -> landed)", 2, 0, 3, 0},
      {"producer: row totals, publish", 3, 0, 4, 0},
      {"producer: ready -> next use start", 4, 0, 0, 1},
      {"consumers: ready -> seen", 4, 0, 5, 0},
      {"consumers: look-back", 5, 0, 6, 0},
      {"consumers: scan rows", 6, 0, 7, 0},
      {"consumers: scanned -> next ready seen", 7, 0, 5, 1},
      {"buffer: id taken -> scanned", 2, 0, 7, 0},
      {"producer period (start to start)", 0, 0, 0, 1},
  };
  std::printf("%-44s %8s %8s %8s %8s %8s   (us)\n", "interval", "mean", "p25", "p50", "p90", "p99");
  for (const gap& g : gaps) {
    std::vector<double> v;
    for (int b = 0; b < blocks; ++b)
      for (int j = first; j < last; ++j) {
        const long long a = tr[b][j + g.from_off][g.from], c = tr[b][j + g.to_off][g.to];
        if (a != 0 && c != 0) v.push_back(static_cast<double>(c - a) / ghz / 1000.0);
      }
    quantiles(g.name, v);
  }
  // What each look-back waited for (globaltimer, every traced tile by id).
  const std::int64_t tile_items = std::int64_t{dl::specialized_shape_for<sizeof(T)>().consumers} *
                                  dl::specialized_shape_for<sizeof(T)>().vectors_per_thread * (16 / sizeof(T));
  const std::int64_t tiles = (n + tile_items - 1) / tile_items;
  std::vector<long long> pub(tiles, 0), lbend(tiles, 0);
  for (int b = 0; b < blocks; ++b)
    for (int j = 0; j < dl::trace_uses; ++j) {
      const long long t = tr[b][j][20];
      if (tr[b][j][18] == 0 || t < 0 || t >= tiles) continue;
      pub[t] = tr[b][j][18], lbend[t] = tr[b][j][19];
    }
  std::vector<double> straggle, notice;
  long long best = 0;
  bool exact = true;
  for (std::int64_t t = 0; t < tiles; ++t) {
    if (pub[t] == 0) {
      exact = false;
      continue;
    }
    if (exact && t > tiles / 20 && t < tiles - tiles / 20 && lbend[t] != 0) {
      const long long until = std::max(best, pub[t]);
      straggle.push_back((until - pub[t]) / 1000.0);
      notice.push_back((lbend[t] - until) / 1000.0);
    }
    best = std::max(best, pub[t]);
  }
  quantiles("look-back: last predecessor - own publish", straggle);
  quantiles("look-back: its end - last publish", notice);
  return mismatches == 0 ? 0 : 1;
}

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  const std::string type = argc > 2 ? argv[2] : "i32";
  return type == "i64" ? run<long long>(log2n) : run<int>(log2n);
}
