// Session 22 experiment (not part of the library build): 8-byte scans at 2^19 .. 2^21, where the
// library's blocked tile runs at 0.98-1.02x CUB (2^20, 256 tiles of 4,096 items, all resident in
// one wave). Session 20 (session20_scan_cluster.cu) showed that the look-back costs 2.5-4.7 us
// there, and that it is not its round trips: a flat look-back ran within 1-3% of the tree. What
// it costs is the wait for the slowest earlier tile's load. Every tile's loads are in flight
// together and land in no particular order, so tile t can store only once nearly every load has
// landed: the stores come after the loads instead of overlapping them.
//
// The question of this binary: does a *load window* in tile order help? Tile t issues its loads
// only once t - W + 1 tiles have loaded theirs (a counter bumped by each tile after its loads
// land), so at most W tiles' loads are in flight and the early tiles' loads land first: their
// look-back finds its predecessors done and their stores overlap the later tiles' loads. W must
// stay large enough to keep HBM busy (about 2-3 MB in flight: 64-96 tiles of 32 KiB).
// Deadlock freedom: tiles below W never wait, and a tile waits only for tiles that took their
// ids before it (they are running), so the count always reaches t - W + 1.
//
// Rows (every one checked against CUB's output; "bound" rows skip the look-back and are WRONG on
// purpose: what the look-back costs):
//   library            dl::run
//   blocked            this kernel without a window: the library's blocked tile, re-written
//   blocked bound      the same without the look-back
//   window W           the load window of W tiles (counter of tiles whose loads landed)
//   window W entry     the same, waiting instead for tile t - W's published aggregate
//   ... pf             with the library's guess prefetch of tile blockIdx.x (which loads every
//                      tile into L2 at once, so it defeats the window; for scale)
// The landed counter is not cleared per launch: it only grows, by exactly `tiles` per launch,
// and the host passes each launch its starting value (what an epoch in a library would do).
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//        -Itools/experiments -DSCANKIT_HAS_CUDA=1 tools/experiments/session22_scan_window.cu \
//        build/release/libscankit.a -ltbb -o session22_scan_window
//   ./session22_scan_window [i64|f64] [min_log] [max_log] [round]
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "session18_harness.cuh"

namespace scankit::cuda::detail::decoupled_lookback {

__device__ __forceinline__ unsigned long long load_acquire(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

/// runs_before (decoupled_lookback.cuh) for up to MaxRuns runs of 32 before the tile's run
/// (the library's stops at 3: launches of at most 128 tiles).
template <int MaxRuns, class T, class Op>
__device__ __forceinline__ T runs_before_r(const level_status<T>& level0, std::int64_t t, Op op, unsigned backoff) {
  constexpr int W = level_status<T>::W;
  const int r = static_cast<int>(t >> 5), lane = threadIdx.x & 31;
  if (r == 0) return op.identity();
  const std::int64_t first = std::int64_t{lane} * r;
  unsigned long long w[MaxRuns][W];
  unsigned pending = (1u << r) - 1;
  while (pending != 0) {
#pragma unroll
    for (int i = 0; i < MaxRuns; ++i)
#pragma unroll
      for (int k = 0; k < W; ++k)
        if ((pending >> i) & 1) w[i][k] = load_relaxed(level0.words + (first + i) * W + k);
#pragma unroll
    for (int i = 0; i < MaxRuns; ++i) {
      bool ready = (pending >> i) & 1;
#pragma unroll
      for (int k = 0; k < W; ++k) ready = ready && (w[i][k] >> 32) != 0;
      if (ready) pending &= ~(1u << i);
    }
    if (pending != 0) __nanosleep(backoff);
  }
  T v = level_status<T>::value(w[0]);
#pragma unroll
  for (int i = 1; i < MaxRuns; ++i)
    if (i < r) v = op(v, level_status<T>::value(w[i]));
  return warp_reduce(v, op);
}

/// look_back with level 1 always from the aggregates (two levels, at most 32 * (MaxRuns + 1) tiles).
template <int MaxRuns, class T, class Op>
__device__ __forceinline__ void look_back_runs(const tree<T>& tr, std::int64_t t, T aggregate, Op op, unsigned backoff,
                                               T* level_sums) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (warp == 1 && tr.levels == 2) {
    const T before = runs_before_r<MaxRuns>(tr.level[0], t, op, backoff);
    if (lane == 0) level_sums[1] = before;
  } else if (warp == 0) {
    const T before = run_sum(tr.level[0], t, op, backoff);
    if (lane == 0) level_sums[0] = before;
  }
  (void)aggregate;
}

/// Mode 0: look back; 1: no look-back (bound). window 0: no window; by_entry: wait for tile
/// t - window's level-0 entry instead of the landed count.
template <int B, int KV, int MinBlocks, int MaxRuns, int Mode, class T, class Op>
__global__ void __launch_bounds__(B, MinBlocks)
    window_blocked_kernel(const T* in, T* out, std::int64_t n, Op op, const __grid_constant__ tree<T> tr,
                          unsigned long long* tile_counter, unsigned long long* landed, unsigned long long landed_base,
                          int window, bool by_entry, unsigned backoff, unsigned first_delay, bool prefetch) {
  using layout = blocked_layout<KV>;
  constexpr int V = tile::vector_items<T>();
  constexpr int K = KV * V;
  extern __shared__ uint4 segments[];
  __shared__ T warp_totals[32];
  __shared__ T level_sums[max_levels];
  __shared__ std::int64_t tile_id;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::int64_t tile_items = std::int64_t{blockDim.x} * K;
  prefetch_guessed_tile(prefetch, in, n, tile_items);
  wait_for_previous_grid();
  if (threadIdx.x == 0) {
    const std::int64_t id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
    if (window > 0 && id >= window) {
      if (by_entry) {
        T ignored;
        while (!tr.level[0].try_read(id - window, ignored)) __nanosleep(backoff);
      } else {
        const unsigned long long need = landed_base + static_cast<unsigned long long>(id - window + 1);
        while (load_acquire(landed) < need) __nanosleep(backoff);
      }
    }
    tile_id = id;
  }
  __syncthreads();
  const std::int64_t t = tile_id;
  const std::int64_t begin = t * tile_items;
  const std::int64_t seg_begin = begin + std::int64_t{warp} * 32 * K;
  const std::int64_t seg_valid = n - seg_begin;
  const bool seg_full = seg_valid >= 32 * K;
  uint4* seg = segments + warp * layout::segment_vectors;
  uint4* row = seg + lane * layout::row_vectors;

  if (seg_full) {
    const uint4* src = reinterpret_cast<const uint4*>(in + seg_begin) + lane;
    uint4 w[KV];
#pragma unroll
    for (int v = 0; v < KV; ++v) w[v] = __ldcs(src + v * 32);
#pragma unroll
    for (int v = 0; v < KV; ++v) seg[layout::slot(v * 32 + lane)] = w[v];
  } else {
#pragma unroll
    for (int v = 0; v < KV; ++v) {
      const int gv = v * 32 + lane;
      T a[V];
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const std::int64_t i = std::int64_t{gv} * V + j;
        a[j] = i < seg_valid ? in[seg_begin + i] : op.identity();
      }
      memcpy(&seg[layout::slot(gv)], a, sizeof(a));
    }
  }
  __syncwarp();

  T row_total;
  {
    T a[V];
    memcpy(a, &row[0], sizeof(a));
    row_total = a[0];
#pragma unroll
    for (int j = 1; j < V; ++j) row_total = op(row_total, a[j]);
#pragma unroll
    for (int c = 1; c < KV; ++c) {
      memcpy(a, &row[c], sizeof(a));
#pragma unroll
      for (int j = 0; j < V; ++j) row_total = op(row_total, a[j]);
    }
  }
  T aggregate;
  const T before_row = tile::block_exclusive_scan(row_total, op, warp_totals, aggregate);
  if (threadIdx.x == 0) {
    if (tr.levels > 0) tr.level[0].publish(t, aggregate);
    if (window > 0 && !by_entry) atomicAdd(landed, 1ull);  // every load of the tile has landed
  }

  T tile_prefix = op.identity();
  if constexpr (Mode == 0) {
    if (first_delay != 0 && warp < tr.levels) __nanosleep(first_delay);
    if constexpr (MaxRuns > 0) look_back_runs<MaxRuns>(tr, t, aggregate, op, backoff, level_sums);
    else look_back<true>(tr, t, aggregate, op, backoff, level_sums);
    __syncthreads();
    tile_prefix = tile_prefix_of(tr, level_sums, op.identity(), op);
  }

  scan_row_in_place<KV, V>(row, op(tile_prefix, before_row), false, op);
  __syncwarp();
  if (seg_full) {
    uint4* dst = reinterpret_cast<uint4*>(out + seg_begin) + lane;
#pragma unroll
    for (int v = 0; v < KV; ++v) __stcs(dst + v * 32, seg[layout::slot(v * 32 + lane)]);
  } else {
#pragma unroll
    for (int v = 0; v < KV; ++v) {
      const int gv = v * 32 + lane;
      T a[V];
      memcpy(a, &seg[layout::slot(gv)], sizeof(a));
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const std::int64_t i = std::int64_t{gv} * V + j;
        if (i < seg_valid) out[seg_begin + i] = a[j];
      }
    }
  }
}

}  // namespace scankit::cuda::detail::decoupled_lookback

unsigned long long* g_landed = nullptr;  // grows by `tiles` per launch, never cleared
unsigned long long g_landed_value = 0;

template <int B, int KV, int MinBlocks, int MaxRuns, int Mode, class T>
void shaped(context<T>& c, int window, bool by_entry = false, bool prefetch = false, unsigned first_delay = 1000) {
  using Op = scankit::sum<T>;
  constexpr int V = 16 / sizeof(T);
  const std::int64_t tile_items = std::int64_t{B} * KV * V;
  const std::int64_t tiles = sd::ceil_div(c.n, tile_items);
  if (window > 0 && window >= tiles) return;
  if (MaxRuns > 0 && (dl::levels_for(tiles) != 2 || tiles > 32 * (MaxRuns + 1))) return;
  auto* kernel = dl::window_blocked_kernel<B, KV, MinBlocks, MaxRuns, Mode, T, Op>;
  const int smem = dl::blocked_layout<KV>::bytes(B);
  dl::allow_shared_bytes(kernel, smem);
  char label[96];
  std::snprintf(label, sizeof label, "%s %dx%d W%d%s%s r%d d%u (%lld tiles)", Mode == 0 ? "blocked" : "bound", B, KV,
                window, by_entry ? " entry" : "", prefetch ? " pf" : "", MaxRuns, first_delay, static_cast<long long>(tiles));
  time_row(c, label, [&](sd::arena& a) {
    dl::tree<T> tr;
    unsigned long long* counter = dl::prepare_tree(tr, tiles, a, cudaStream_t{});
    tr.level1_from_aggregates = MaxRuns == 0 && dl::level1_from_aggregates(tr, tiles);
    sd::launch_after("window_blocked_kernel", kernel, static_cast<unsigned>(tiles), B, smem, cudaStream_t{},
                     static_cast<const T*>(c.in), c.out, c.n, Op{}, tr, counter, g_landed, g_landed_value, window,
                     by_entry, 32u, first_delay, prefetch && tiles <= 256);
    if (window > 0 && !by_entry) g_landed_value += static_cast<unsigned long long>(tiles);
  });
}

template <int KV, int Mode, class T>
void windowed(context<T>& c, int window, bool by_entry = false, bool prefetch = false, unsigned first_delay = 1000) {
  shaped<256, KV, 4, 0, Mode, T>(c, window, by_entry, prefetch, first_delay);
}

/// Level 1 from the aggregates where the launch has at most 192 tiles (up to 5 runs before).
template <int B, int KV, int MinBlocks, int Mode, class T>
void auto_runs(context<T>& c, int window = 0) {
  constexpr std::int64_t tile_items = std::int64_t{B} * KV * (16 / sizeof(T));
  if (sd::ceil_div(c.n, tile_items) <= 192) shaped<B, KV, MinBlocks, 5, Mode, T>(c, window, false, true);
  else shaped<B, KV, MinBlocks, 0, Mode, T>(c, window, false, true);
}

/// The one-launch path's kernel (tile::single_block_scan_kernel) at other shapes: R vectors per
/// thread, B threads (round 11b: is a shorter per-thread scan faster at 2^10-2^13?).
template <int R, class T>
void single_block(context<T>& c, int B) {
  using Op = scankit::sum<T>;
  constexpr int V = 16 / sizeof(T);
  char label[96];
  std::snprintf(label, sizeof label, "one launch %dx%d (%lld items per pass)", B, R, static_cast<long long>(B) * R * V);
  time_row(c, label, [&](sd::arena&) {
    scankit::cuda::detail::tile::single_block_scan_kernel<R, V, true><<<1, B>>>(c.in, c.out, c.n, Op{}, false, T(0),
                                                                                 static_cast<T*>(nullptr));
  });
}

int g_round = 1;

template <class T>
void variants(context<T>& c) {
  if (g_round == 6) return;  // round 4b: the library only
  if (g_round == 7) {
    single_block<8, T>(c, 256);
    single_block<4, T>(c, 256);
    single_block<2, T>(c, 256);
    single_block<4, T>(c, 512);
    single_block<2, T>(c, 1024);
    single_block<1, T>(c, 1024);
    return;
  }
  if (g_round == 5) {  // round 4: the tile size against the tile count per SM, and the window
    windowed<8, 1, T>(c, 0, false, true);  // the bound
    auto_runs<256, 8, 4, 0, T>(c);
    auto_runs<256, 10, 4, 0, T>(c);
    auto_runs<256, 12, 4, 0, T>(c);
    auto_runs<256, 14, 3, 0, T>(c);
    auto_runs<256, 16, 3, 0, T>(c);
    auto_runs<384, 8, 2, 0, T>(c);
    auto_runs<256, 8, 4, 0, T>(c, 256);
    auto_runs<256, 10, 4, 0, T>(c, 256);
    auto_runs<256, 12, 4, 0, T>(c, 224);
    return;
  }
  if (g_round == 4) {  // round 3: tiles of 8,192 items against windows over 4,096-item tiles
    windowed<8, 0, T>(c, 0, false, true);
    shaped<512, 8, 2, 7, 0, T>(c, 0, false, true);
    shaped<256, 16, 2, 7, 0, T>(c, 0, false, true);
    shaped<384, 8, 2, 7, 0, T>(c, 0, false, true);
    for (int w : {160, 192, 224, 256, 320}) windowed<8, 0, T>(c, w, false, true);
    for (int w : {192, 256}) windowed<8, 0, T>(c, w, false, false);
    for (int w : {96, 128, 160}) shaped<512, 8, 2, 0, 0, T>(c, w, false, true);
    windowed<8, 1, T>(c, 192, false, true);
    return;
  }
  if (g_round == 3) {  // round 3: bigger tiles, fewer of them, level 1 from the aggregates
    windowed<8, 0, T>(c, 0, false, true);  // the library's kernel
    shaped<256, 8, 4, 7, 0, T>(c, 0, false, true);
    shaped<256, 16, 2, 0, 0, T>(c, 0, false, true);
    shaped<256, 16, 2, 7, 0, T>(c, 0, false, true);
    shaped<256, 16, 2, 7, 0, T>(c, 0, false, true, 500);
    shaped<256, 16, 2, 7, 0, T>(c, 0, false, false);
    shaped<256, 16, 2, 7, 1, T>(c, 0, false, true);
    shaped<512, 8, 2, 0, 0, T>(c, 0, false, true);
    shaped<512, 8, 2, 7, 0, T>(c, 0, false, true);
    shaped<512, 8, 1, 7, 0, T>(c, 0, false, true);
    shaped<384, 8, 2, 7, 0, T>(c, 0, false, true);
    shaped<256, 12, 3, 7, 0, T>(c, 0, false, true);
    shaped<512, 12, 1, 7, 0, T>(c, 0, false, true);
    shaped<256, 10, 3, 7, 0, T>(c, 0, false, true);
    return;
  }
  windowed<8, 0, T>(c, 0, false, true);   // the library's kernel (prefetch where it has it)
  windowed<8, 1, T>(c, 0, false, true);   // its bound
  windowed<8, 0, T>(c, 0, false, false);  // no prefetch
  for (int w : {48, 64, 96, 128, 160, 192}) windowed<8, 0, T>(c, w);
  for (int w : {64, 96, 128}) windowed<8, 0, T>(c, w, true);
  windowed<8, 0, T>(c, 96, false, true);
  windowed<8, 0, T>(c, 96, false, false, 0);
  windowed<8, 1, T>(c, 96);
  if (g_round >= 2) {
    for (int w : {96, 128, 192, 256}) windowed<4, 0, T>(c, w);
    for (int w : {48, 64, 96}) windowed<12, 0, T>(c, w);
  }
}

int main(int argc, char** argv) {
  const std::string type = argc > 1 ? argv[1] : "i64";
  const int lo = argc > 2 ? std::atoi(argv[2]) : 19, hi = argc > 3 ? std::atoi(argv[3]) : 21;
  g_round = argc > 4 ? std::atoi(argv[4]) : 1;
  cudaDeviceProp p{};
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
  CK(cudaMalloc(&g_landed, 8));
  CK(cudaMemset(g_landed, 0, 8));
  if (g_round >= 4) {  // sizes 2^lo .. 2^hi in quarter (round 3) or eighth steps of the exponent
    const int steps = g_round == 4 ? 4 : 8;
    for (int q = steps * lo; q <= steps * hi; ++q) {
      const std::int64_t n = static_cast<std::int64_t>(std::llround(std::exp2(q / double(steps))));
      auto body = [&](auto& ctx) { variants(ctx); };
      if (type == "f64") run_size<double>(n, "double", body);
      else if (type == "i32") run_size<int>(n, "int32", body);
      else if (type == "f32") run_size<float>(n, "float", body);
      else run_size<long long>(n, "int64", body);
    }
    return 0;
  }
  for (int k = lo; k <= hi; ++k) {
    for (std::int64_t n : {std::int64_t{1} << k, (std::int64_t{3} << k) / 2}) {
      if (k == hi && n != (std::int64_t{1} << k)) continue;
      auto body = [&](auto& ctx) { variants(ctx); };
      if (type == "f64") run_size<double>(n, "double", body);
      else run_size<long long>(n, "int64", body);
    }
  }
  return 0;
}
