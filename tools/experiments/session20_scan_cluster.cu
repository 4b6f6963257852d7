// Session 20 experiment (not part of the library build): 8-byte scans at 2^19 .. 2^22, where the
// library's blocked tile runs at 0.98-1.04x CUB (2^20 and 1.5 x 2^20 the lowest; session 18 round
// 1 timed 22 shapes there, all 0.79-1.02x). Every tile there is resident in one wave, and the
// scan is about 4.5 us slower than a copy of the same bytes at every size from 2^16 to 2^21: a
// fixed latency, of which the look-back's chain (aggregate, level-1 entry published by the
// run's last tile, level-1 read) is one candidate.
//
// The question of this binary: does a thread-block *cluster* (Hopper) shorten it? C blocks of a
// cluster take C consecutive tiles under one id from the counter (rank 0 takes it and the others
// read it from rank 0's shared memory), exchange their tile aggregates through distributed
// shared memory behind one cluster barrier, and the tree is built over clusters instead of
// tiles: 8 times fewer entries, one level instead of two at 2^20. Each block combines the
// cluster's aggregates in rank order (a fixed expression, so floats stay deterministic).
// Deadlock freedom is the counter's: a cluster waits only for clusters that took their id
// before it, and a cluster's blocks are co-scheduled by the hardware.
//
// Rows (every one checked against CUB's output; "bound" rows skip the look-back and are WRONG
// past the first cluster on purpose: what the look-back costs):
//   library           dl::run (the blocked tile of 256 x 8 vectors here)
//   cl C=1            this kernel without a cluster: the library's blocked tile, re-written
//   cl C=1 bound      the same without the look-back
//   cl C=2/4/8        clusters of 2, 4, 8 blocks
//   cl C=8 bound      clusters without the look-back
// Round 1 found the clusters slower (their bound too: launching clusters costs more than the
// look-back they shorten) and the look-back worth 2.5-4.7 us of the blocked tile's 11-21 us at
// 128-768 tiles. Round 2 (argument 4 = 2) times the flat look-back (flat_look_back below):
//   cl C=1 ... flat   every aggregate before the tile read directly, one round trip
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//        -Itools/experiments -DSCANKIT_HAS_CUDA=1 tools/experiments/session20_scan_cluster.cu \
//        build/release/libscankit.a -ltbb -o session20_scan_cluster
//   ./session20_scan_cluster [i64|f64|i32] [min_log] [max_log] [round: 1 clusters, 2 flat look-back]
#include <cooperative_groups.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "session18_harness.cuh"

namespace cg = cooperative_groups;

namespace scankit::cuda::detail::decoupled_lookback {

__device__ __forceinline__ void cluster_arrive_release() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
}
__device__ __forceinline__ void cluster_wait_acquire() {
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

/// look_back over the clusters' tree, where every block of a cluster reads and only the
/// publisher (rank 0) publishes the higher levels' entries.
template <class T, class Op>
__device__ __forceinline__ void group_look_back(const tree<T>& tr, std::int64_t g, T aggregate, Op op,
                                                unsigned backoff, T* level_sums, bool publisher) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int stride = static_cast<int>(blockDim.x >> 5);
  for (int k = warp; k < tr.levels; k += stride) {
    const T before = run_sum(tr.level[k], g >> (5 * k), op, backoff);
    if (lane == 0) level_sums[k] = before;
    if (k == 0 && publisher) {
      T v = op(before, aggregate);
      for (int up = 1; up < tr.levels && ((g >> (5 * (up - 1))) & 31) == 31; ++up) {
        if (lane == 0) tr.level[up].publish(g >> (5 * up), v);
        if (up + 1 < tr.levels && ((g >> (5 * up)) & 31) == 31)
          v = op(run_sum(tr.level[up], g >> (5 * up), op, backoff), v);
      }
    }
  }
}

/// The blocked tile (blocked_kernel), C tiles to a cluster.
/// Round 2: the flat look-back (Mode 2) of a launch of at most 1,024 tiles: no tree above level 0.
/// Warp w reads runs w, w + 8, ... of 32 entries, lane l entry 32 * run + l (coalesced: a warp's
/// load touches 4 lines, where runs_before's lanes, r entries apart, touched 4r), all of a lane's
/// reads in flight together; each run is reduced in lane order, then warp 0 combines the runs in
/// order. One round trip after the last aggregate, where the tree's level 1 takes three (the
/// run's last tile reads its run, publishes, the reader reads).
template <class T, class Op>
__device__ __forceinline__ T flat_look_back(const level_status<T>& level0, std::int64_t t, Op op, unsigned backoff,
                                            T* run_totals) {
  constexpr int max_k = 4;  // runs per warp: 8 warps x 4 runs x 32 = 1,024 tiles
  constexpr int W = level_status<T>::W;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = static_cast<int>(blockDim.x >> 5);
  const int runs = static_cast<int>((t + 31) >> 5);
  unsigned long long w[max_k][W];
  unsigned pending = 0;
#pragma unroll
  for (int k = 0; k < max_k; ++k) {
    const std::int64_t i = std::int64_t{warp + k * warps} * 32 + lane;
    if (i < t) pending |= 1u << k;
  }
  while (pending != 0) {
#pragma unroll
    for (int k = 0; k < max_k; ++k)
#pragma unroll
      for (int q = 0; q < W; ++q)
        if ((pending >> k) & 1) w[k][q] = load_relaxed(level0.words + (std::int64_t{warp + k * warps} * 32 + lane) * W + q);
#pragma unroll
    for (int k = 0; k < max_k; ++k) {
      bool ready = (pending >> k) & 1;
#pragma unroll
      for (int q = 0; q < W; ++q) ready = ready && (w[k][q] >> 32) != 0;
      if (ready) pending &= ~(1u << k);
    }
    if (pending != 0) __nanosleep(backoff);
  }
#pragma unroll
  for (int k = 0; k < max_k; ++k) {
    const int r = warp + k * warps;
    if (r < runs) {  // warp-uniform
      const std::int64_t i = std::int64_t{r} * 32 + lane;
      const T v = i < t ? level_status<T>::value(w[k]) : op.identity();
      const T s = warp_reduce(v, op);
      if (lane == 0) run_totals[r] = s;
    }
  }
  __syncthreads();
  T p = op.identity();
  if (warp == 0) p = warp_reduce(lane < runs ? run_totals[lane] : op.identity(), op);
  return p;  // (warp 0 only)
}

template <int KV, int C, int Mode, class T, class Op>
__global__ void __launch_bounds__(256, 4)
    cluster_blocked_kernel(const T* in, T* out, std::int64_t n, Op op, const __grid_constant__ tree<T> tr,
                           unsigned long long* counter, unsigned backoff, unsigned first_delay, bool prefetch) {
  using layout = blocked_layout<KV>;
  constexpr int V = tile::vector_items<T>();
  constexpr int K = KV * V;
  extern __shared__ uint4 segments[];
  __shared__ T warp_totals[32];
  __shared__ T level_sums[max_levels];
  __shared__ std::int64_t group_slot;
  __shared__ T block_aggregate;
  __shared__ T run_totals[32];
  constexpr bool Lookback = Mode == 0;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::int64_t tile_items = std::int64_t{blockDim.x} * K;
  int rank = 0;
  if constexpr (C > 1) rank = static_cast<int>(cg::this_cluster().block_rank());
  prefetch_guessed_tile(prefetch, in, n, tile_items);
  wait_for_previous_grid();
  if (rank == 0 && threadIdx.x == 0) group_slot = static_cast<std::int64_t>(atomicAdd(counter, 1ull));
  std::int64_t g;
  if constexpr (C > 1) {
    cluster_arrive_release();
    cluster_wait_acquire();
    g = *cg::this_cluster().map_shared_rank(&group_slot, 0);
  } else {
    __syncthreads();
    g = group_slot;
  }
  const std::int64_t t = g * C + rank;
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
  T group_total = aggregate, before_tile = op.identity();
  if constexpr (C > 1) {
    if (threadIdx.x == 0) block_aggregate = aggregate;
    cluster_arrive_release();
    cluster_wait_acquire();
    // Lane r of every warp reads rank r's aggregate; the warp folds them in rank order.
    T a = op.identity();
    if (lane < C) a = *cg::this_cluster().map_shared_rank(&block_aggregate, lane);
    T tot = op.identity(), bef = op.identity();
#pragma unroll
    for (int r = 0; r < C; ++r) {
      const T x = shfl_idx(a, r);
      if (r < rank) bef = op(bef, x);
      tot = op(tot, x);
    }
    group_total = tot;
    before_tile = bef;
    cluster_arrive_release();  // done with the others' shared memory (waited for before exit)
  }
  if (threadIdx.x == 0 && rank == 0 && tr.levels > 0) tr.level[0].publish(g, group_total);

  T tile_prefix = op.identity();
  if constexpr (Lookback) {
    if (first_delay != 0 && warp < tr.levels) __nanosleep(first_delay);
    group_look_back(tr, g, group_total, op, backoff, level_sums, rank == 0);
    __syncthreads();
    tile_prefix = tile_prefix_of(tr, level_sums, op.identity(), op);
  }
  if constexpr (Mode == 2) {
    static_assert(C == 1, "the flat look-back is over tiles");
    if (first_delay != 0) __nanosleep(first_delay);
    const T p = flat_look_back(tr.level[0], t, op, backoff, run_totals);
    if (threadIdx.x == 0) level_sums[0] = p;
    __syncthreads();
    tile_prefix = level_sums[0];
  }
  tile_prefix = op(tile_prefix, before_tile);

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
  if constexpr (C > 1) cluster_wait_acquire();
}

}  // namespace scankit::cuda::detail::decoupled_lookback

template <int KV, int C, int Mode, class T>
void clustered(context<T>& c, unsigned first_delay = 1000) {
  using Op = scankit::sum<T>;
  constexpr int B = 256, V = 16 / sizeof(T);
  const std::int64_t tile_items = std::int64_t{B} * KV * V;
  const std::int64_t tiles = sd::ceil_div(c.n, tile_items);
  const std::int64_t groups = sd::ceil_div(tiles, C);
  if (Mode == 2 && tiles > 1024) return;
  auto* kernel = dl::cluster_blocked_kernel<KV, C, Mode, T, Op>;
  const int smem = dl::blocked_layout<KV>::bytes(B);
  dl::allow_shared_bytes(kernel, smem);
  char label[96];
  std::snprintf(label, sizeof label, "cl C=%d 256x%d d%u%s (%lld tiles)", C, KV, first_delay, Mode == 0 ? "" : Mode == 1 ? " bound" : " flat",
                static_cast<long long>(tiles));
  const bool prefetch = tiles <= 256;
  time_row(c, label, [&](sd::arena& a) {
    dl::tree<T> tr;
    unsigned long long* counter = dl::prepare_tree(tr, groups, a, cudaStream_t{});
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(static_cast<unsigned>(groups * C));
    cfg.blockDim = dim3(B);
    cfg.dynamicSmemBytes = static_cast<std::size_t>(smem);
    cfg.stream = cudaStream_t{};
    cudaLaunchAttribute attr[2];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    attr[1].id = cudaLaunchAttributeClusterDimension;
    attr[1].val.clusterDim.x = C;
    attr[1].val.clusterDim.y = 1;
    attr[1].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = C > 1 ? 2 : 1;
    CK(cudaLaunchKernelEx(&cfg, kernel, static_cast<const T*>(c.in), c.out, c.n, Op{}, tr, counter, 32u, first_delay,
                          prefetch));
  });
}

int g_round = 2;

template <class T>
void variants(context<T>& c) {
  if constexpr (sizeof(T) == 8) {
    if (g_round == 1) {
      clustered<8, 1, 0, T>(c);
      clustered<8, 1, 1, T>(c);
      clustered<8, 2, 0, T>(c);
      clustered<8, 4, 0, T>(c);
      clustered<8, 8, 0, T>(c);
      clustered<8, 8, 0, T>(c, 0);
      clustered<8, 8, 1, T>(c);
      clustered<6, 8, 0, T>(c);
      clustered<4, 8, 0, T>(c);
      clustered<12, 4, 0, T>(c);
    } else {  // round 2: the flat look-back
      clustered<8, 1, 0, T>(c);
      clustered<8, 1, 1, T>(c);
      clustered<8, 1, 2, T>(c);
      clustered<8, 1, 2, T>(c, 0);
      clustered<8, 1, 2, T>(c, 500);
      clustered<6, 1, 2, T>(c, 500);
      clustered<4, 1, 2, T>(c, 500);
      clustered<12, 1, 2, T>(c, 500);
      clustered<8, 1, 2, T>(c, 500);
    }
  } else {
    if (g_round == 1) {
      clustered<12, 1, 0, T>(c);
      clustered<12, 1, 1, T>(c);
      clustered<12, 8, 0, T>(c);
      clustered<8, 8, 0, T>(c);
    } else {
      clustered<12, 1, 0, T>(c);
      clustered<12, 1, 2, T>(c, 500);
      clustered<8, 1, 2, T>(c, 500);
    }
  }
}

int main(int argc, char** argv) {
  const std::string type = argc > 1 ? argv[1] : "i64";
  const int lo = argc > 2 ? std::atoi(argv[2]) : 19, hi = argc > 3 ? std::atoi(argv[3]) : 22;
  g_round = argc > 4 ? std::atoi(argv[4]) : 2;
  cudaDeviceProp p{};
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
  for (int k = lo; k <= hi; ++k) {
    for (std::int64_t n : {std::int64_t{1} << k, (std::int64_t{3} << k) / 2}) {
      if (k == hi && n != (std::int64_t{1} << k)) continue;
      auto body = [&](auto& ctx) { variants(ctx); };
      if (type == "f64") run_size<double>(n, "double", body);
      else if (type == "i32") run_size<int>(n, "int32", body);
      else run_size<long long>(n, "int64", body);
    }
  }
  return 0;
}
