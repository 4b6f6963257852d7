// Session 17 experiment (not part of the library build): where the warp-specialized compaction
// tile spends its time. Built with tools/experiments/session17-trace.patch applied to
// compact_single_pass.cuh (SCANKIT_COMPACT_TRACE: clock64 at each hand-over of a buffer, for
// the first 32 blocks and 160 uses), it runs uint32 select_if (x < p * 2^32 on hashed values)
// through the library's dispatch with the tile forced, checks the count against CUB, and prints
// the mean and quartiles of every interval between events over the steady-state uses.
//
//   patch -p0 < tools/experiments/session17-trace.patch
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//        -Itools/experiments -DSCANKIT_HAS_CUDA=1 -DSCANKIT_COMPACT_TRACE \
//        tools/experiments/session17_compact_trace.cu build/release/libscankit.a -ltbb \
//        -o build/release/session17_compact_trace
//   patch -p0 -R < tools/experiments/session17-trace.patch
//   ./session17_compact_trace LOG2N SELECTIVITY SHAPE   (shapes 0-4 below)
// (The patch now applies to the final kernel; rounds 1-4 ran it on the kernel of their time.)
#include <cub/device/device_select.cuh>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "experiment_common.cuh"
#include "scankit/cuda/compact.cuh"

namespace sc = scankit::cuda::detail::compact;

struct below {  // its own type, so the kernel instantiated here is this TU's (traced) one
  unsigned limit;
  __host__ __device__ bool operator()(unsigned x) const { return x < limit; }
};

__global__ void fill(unsigned* a, std::int64_t n, unsigned salt) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    a[i] = hash32(i, salt);
}

using trace_t = long long[sc::trace_uses][sc::trace_events];

static void quantiles(const char* name, std::vector<double> v) {
  if (v.empty()) return;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  std::printf("%-40s %8.3f %8.3f %8.3f %8.3f %8.3f  (n=%zu)\n", name, sum / v.size(), v[v.size() / 4], v[v.size() / 2],
              v[v.size() * 9 / 10], v[v.size() * 99 / 100], v.size());
}

/// What each tile's look-back waited for, from globaltimer stamps of every traced tile (events
/// 16 issued, 17 landed, 18 published, 19 look-back done, 20 tile id): the wait for the last
/// predecessor to publish (straggle) and the time from then to the look-back's end (notice).
static void global_analysis(const trace_t* tr, int blocks, std::int64_t tiles) {
  std::vector<long long> issue(tiles, 0), landed(tiles, 0), pub(tiles, 0), lbend(tiles, 0);
  std::int64_t traced = 0;
  for (int b = 0; b < blocks; ++b)
    for (int j = 0; j < sc::trace_uses; ++j) {
      if (tr[b][j][16] == 0 || tr[b][j][18] == 0) continue;
      const long long t = tr[b][j][20];
      if (t < 0 || t >= tiles) continue;
      issue[t] = tr[b][j][16], landed[t] = tr[b][j][17], pub[t] = tr[b][j][18], lbend[t] = tr[b][j][19];
      ++traced;
    }
  std::vector<long long> sorted(pub);
  std::sort(sorted.begin(), sorted.end());
  long long tick = 0;
  for (std::size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i - 1] != 0 && sorted[i] > sorted[i - 1] && (tick == 0 || sorted[i] - sorted[i - 1] < tick)) tick = sorted[i] - sorted[i - 1];
  std::printf("global: %lld of %lld tiles traced, %d blocks; globaltimer tick %lld ns\n", static_cast<long long>(traced),
              static_cast<long long>(tiles), blocks, tick);
  std::vector<double> straggle, notice, s_issue, s_load, s_count, own_load, gap_ids;
  long long best = 0;
  std::int64_t best_t = -1;
  for (std::int64_t t = 0; t < tiles; ++t) {
    if (pub[t] == 0) {  // untraced: the prefix maximum stops being exact
      best = 0, best_t = -1;
      continue;
    }
    if (best_t >= 0 && lbend[t] != 0 && t > tiles / 20 && t < tiles - tiles / 20) {
      const long long wait_until = std::max(best, pub[t]);
      straggle.push_back((wait_until - pub[t]) / 1000.0);
      notice.push_back((lbend[t] - wait_until) / 1000.0);
      if (best > pub[t]) {
        s_issue.push_back((issue[best_t] - issue[t]) / 1000.0);
        s_load.push_back((landed[best_t] - issue[best_t]) / 1000.0);
        s_count.push_back((pub[best_t] - landed[best_t]) / 1000.0);
        own_load.push_back((landed[t] - issue[t]) / 1000.0);
        gap_ids.push_back(static_cast<double>(t - best_t));
      }
    }
    if (pub[t] > best) best = pub[t], best_t = t;
  }
  std::printf("%-40s %8s %8s %8s %8s %8s   (us)\n", "look-back waits", "mean", "p25", "p50", "p90", "p99");
  quantiles("straggle: last predecessor - own publish", straggle);
  quantiles("notice: look-back end - last publish", notice);
  quantiles("straggler issued (vs own issue)", s_issue);
  quantiles("straggler load (issued -> landed)", s_load);
  quantiles("straggler count (landed -> published)", s_count);
  quantiles("own load (issued -> landed)", own_load);
  quantiles("straggler: tiles before own", gap_ids);
}

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  const double p = argc > 2 ? std::atof(argv[2]) : 0.5;
  const std::int64_t n = std::int64_t{1} << log2n;
  const below pred{static_cast<unsigned>(p * 4294967296.0 >= 4294967295.0 ? 4294967295.0 : p * 4294967296.0)};
  unsigned *in, *out;
  std::int64_t* d_count;
  int* d_cub_count;
  CK(cudaMalloc(&in, n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMalloc(&d_count, 8));
  CK(cudaMalloc(&d_cub_count, 4));
  fill<<<1024, 256>>>(in, n, 12345u);
  CK(cudaGetLastError());

  const std::size_t ws_bytes = sc::single_pass::workspace_bytes(n, 4, 256, scankit::cuda::compact_tile::specialized);
  void* ws_mem;
  CK(cudaMalloc(&ws_mem, ws_bytes));
  using Sel = sc::pred_selector<unsigned, below, true>;
  const Sel sel{pred};
  sc::outputs<unsigned> o;
  o.items = out;
  o.count = d_count;
  constexpr sc::specialized_shape shapes[] = {
      {256, 11, 2, 2, 1}, {256, 11, 2, 2, 2}, {256, 11, 2, 2, 4}, {256, 13, 2, 2, 2}, {256, 13, 2, 2, 4}};
  const int shape = argc > 3 ? std::atoi(argv[3]) : 0;
  auto ours = [&] {
    scankit::cuda::detail::arena ws(ws_mem, ws_bytes);
    constexpr std::int64_t V = 4;
    const std::int64_t tile = std::int64_t{shapes[shape].consumers} * shapes[shape].vectors_per_thread * V;
    const std::int64_t tiles = (n + tile - 1) / tile;
    bool ok = false;
    switch (shape) {
      case 0: ok = sc::single_pass::launch_specialized_shape<shapes[0], Sel>(in, n, sel, o, ws, tiles, nullptr); break;
      case 1: ok = sc::single_pass::launch_specialized_shape<shapes[1], Sel>(in, n, sel, o, ws, tiles, nullptr); break;
      case 2: ok = sc::single_pass::launch_specialized_shape<shapes[2], Sel>(in, n, sel, o, ws, tiles, nullptr); break;
      case 3: ok = sc::single_pass::launch_specialized_shape<shapes[3], Sel>(in, n, sel, o, ws, tiles, nullptr); break;
      default: ok = sc::single_pass::launch_specialized_shape<shapes[4], Sel>(in, n, sel, o, ws, tiles, nullptr); break;
    }
    if (!ok) {
      std::fprintf(stderr, "shape %d did not launch\n", shape);
      std::exit(1);
    }
  };
  std::size_t cub_bytes = 0;
  CK(cub::DeviceSelect::If(nullptr, cub_bytes, in, out, d_cub_count, n, pred));
  void* cub_ws;
  CK(cudaMalloc(&cub_ws, cub_bytes));
  auto theirs = [&] { CK(cub::DeviceSelect::If(cub_ws, cub_bytes, in, out, d_cub_count, static_cast<int>(n), pred)); };

  timer tm;
  const float cub_ms = tm.median_ms(theirs, 9);
  int cub_count = 0;
  CK(cudaMemcpy(&cub_count, d_cub_count, 4, cudaMemcpyDeviceToHost));
  const float our_ms = tm.median_ms(ours, 9);  // the last run leaves the trace
  std::int64_t count = 0;
  CK(cudaMemcpy(&count, d_count, 8, cudaMemcpyDeviceToHost));
  std::printf("shape %d (%d x %d x %d, %d/SM, %d counting warps) ", shape, shapes[shape].consumers,
              shapes[shape].vectors_per_thread, shapes[shape].stages, shapes[shape].min_blocks_per_sm,
              shapes[shape].count_warps);
  std::printf("n=2^%d p=%.2f ours %.4f ms cub %.4f ms (%.3fx) count %lld cub %d %s\n", log2n, p, our_ms, cub_ms,
              cub_ms / our_ms, static_cast<long long>(count), cub_count, count == cub_count ? "PASS" : "FAIL");

  static long long tr[sc::trace_blocks][sc::trace_uses][sc::trace_events];
  CK(cudaMemcpyFromSymbol(tr, sc::compact_trace, sizeof(tr)));
  // Blocks that ran: the grid is 2 per SM (trace_blocks covers it on the H100).
  int blocks = 0;
  while (blocks < sc::trace_blocks && tr[blocks][0][0] != 0) ++blocks;
  global_analysis(tr, blocks, (n + std::int64_t{shapes[shape].consumers} * shapes[shape].vectors_per_thread * 4 - 1) /
                                  (std::int64_t{shapes[shape].consumers} * shapes[shape].vectors_per_thread * 4));
  // Clock rate from the producer's first and last traced uses (clock64 and globaltimer).
  double cycles = 0, ns = 0;
  // Steady state: from use 8 to 8 before the fewest uses any traced block made.
  int uses = sc::trace_uses;
  for (int b = 0; b < blocks; ++b) {
    int u = 0;
    while (u < sc::trace_uses && tr[b][u][0] != 0) ++u;
    uses = std::min(uses, u);
  }
  const int first = 8, last = uses - 8;
  if (last <= first + 8) {
    std::printf("too few uses per block to trace (%d)\n", uses);
    return count == cub_count ? 0 : 1;
  }
  for (int b = 0; b < blocks; ++b) {
    cycles += static_cast<double>(tr[b][last][0] - tr[b][first][0]);
    ns += static_cast<double>(tr[b][last][14] - tr[b][first][14]);
  }
  const double ghz = cycles / ns;
  std::printf("SM clock %.3f GHz; per use (mean over %d blocks x %d uses): %.3f us\n", ghz, blocks, last - first,
              ns / blocks / (last - first) / 1000.0);
  struct gap {
    const char* name;
    int from, from_off, to, to_off;  // event `to` of use j + to_off minus event `from` of use j + from_off
  };
  // Events: 12 before the tile-id atomic, 4 load issued (both by use issued); producer 0 start,
  // 1 landed, 2 ready; 3 the previous buffer written (refill); look-back 5 start, 6 done;
  // consumers 7 ready seen, 8 rows in registers, 9 staged, 10 prefixed seen, 11 written.
  const gap gaps[] = {
      {"issue: tile-id atomic + load issue", 12, 0, 4, 0},
      {"load: issued -> landed (wait done)", 4, 0, 1, 0},
      {"producer: start -> landed (waiting)", 0, 0, 1, 0},
      {"producer: count (landed -> ready)", 1, 0, 2, 0},
      {"producer: ready -> previous written", 2, 0, 3, 0},
      {"producer: written -> next use start", 3, 0, 0, 1},
      {"look-back: ready -> start", 2, 0, 5, 0},
      {"look-back: duration", 5, 0, 6, 0},
      {"consumers: ready -> seen", 2, 0, 7, 0},
      {"consumers: select (rows in regs)", 7, 0, 8, 0},
      {"consumers: stage", 8, 0, 9, 0},
      {"consumers: wait prefix", 9, 0, 10, 0},
      {"consumers: write", 10, 0, 11, 0},
      {"consumers: written -> next ready seen", 11, 0, 7, 1},
      {"buffer cycle: load issued -> written", 4, 0, 11, 0},
      {"tile period (producer start to start)", 0, 0, 0, 1},
  };
  std::printf("%-40s %8s %8s %8s %8s   (us)\n", "interval", "mean", "p25", "p50", "p90");
  for (const gap& g : gaps) {
    std::vector<double> v;
    for (int b = 0; b < blocks; ++b)
      for (int j = first; j < last; ++j) {
        const long long a = tr[b][j + g.from_off][g.from], c = tr[b][j + g.to_off][g.to];
        if (a != 0 && c != 0) v.push_back(static_cast<double>(c - a) / ghz / 1000.0);
      }
    if (v.empty()) continue;
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (double x : v) sum += x;
    std::printf("%-40s %8.3f %8.3f %8.3f %8.3f\n", g.name, sum / v.size(), v[v.size() / 4], v[v.size() / 2],
                v[v.size() * 9 / 10]);
  }
  return count == cub_count ? 0 : 1;
}
