// Session 18 experiment (not part of the library build): 8-byte scans at 2^16 .. 2^23, where
// the library ran at 0.91-0.98x CUB (session 15 sweeps, docs/results/s15-final-sweep-i64.csv).
// The same sizes in bytes of int32 ran at 1.06-1.14x, on tiles of twice the bytes. CUB's sm90
// tuning for 8-byte sums is 224 threads x 24 items (43 KiB tiles), against our striped 256 x 4
// vectors (16 KiB) and blocked 256 x 12 vectors (48 KiB, with a 2 us first delay).
// This binary times, in one process with CUB's InclusiveSum and a device-to-device copy, the
// library's dispatch and the library's own kernels at other shapes, launched as the library
// launches them (the tree cleared by clear_kernel, the scan its programmatic dependent). Every
// row is checked against CUB's output.
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//        -Itools/experiments -DSCANKIT_HAS_CUDA=1 tools/experiments/session18_scan_mid.cu \
//        build/release/libscankit.a -ltbb -o session18_scan_mid
//   ./session18_scan_mid [i64|f64] [min_log] [max_log] [mid|small|large|large4|mid8|prefetch|level1]
// (round 1: mid, 2^16 .. 2^23; round 2: small, 2^10 .. 2^16, and large, 2^23 .. 2^28;
// round 3: large4 (int32, float) 2^22 .. 2^30, mid8 2^20 .. 2^23; round 6: prefetch; round 8: level1)
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "session18_harness.cuh"

namespace scankit::cuda::detail::decoupled_lookback {
// Round 6: the library's blocked and striped kernels with an L2 prefetch of tile blockIdx.x
// (the likely tile id) before (Prefetch 1) or after (2) waiting for the tree's clearing.
template <int KV, int MaxThreads, int MinBlocks, int Prefetch, class T, class Op>
__global__ void __launch_bounds__(MaxThreads, MinBlocks)
    blocked_pf_kernel(const T* in, T* out, std::int64_t n, Op op, bool exclusive, T init, T* total,
                   const __grid_constant__ tree<T> tr, unsigned long long* tile_counter,
                   unsigned backoff, unsigned first_delay) {
  using layout = blocked_layout<KV>;
  constexpr int V = tile::vector_items<T>();
  constexpr int K = KV * V;  // items per lane row
  static_assert(V * sizeof(T) == 16, "the blocked tile needs 16-byte vectors");
  extern __shared__ uint4 segments[];
  __shared__ T warp_totals[32];
  __shared__ T level_sums[max_levels];
  __shared__ std::int64_t tile_id;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (Prefetch == 1 && threadIdx.x == 0) {  // the guess: tile blockIdx.x, before the clearing ends
    const std::int64_t first = blockIdx.x * std::int64_t{blockDim.x} * K;
    if (first < n) prefetch_l2(in + first, static_cast<std::size_t>(n - first < std::int64_t{blockDim.x} * K ? n - first : std::int64_t{blockDim.x} * K) * sizeof(T));
  }
  wait_for_previous_grid();  // the tree's clearing (this kernel follows it as a dependent)
  if (Prefetch == 2 && threadIdx.x == 0) {  // the same guess after it
    const std::int64_t first = blockIdx.x * std::int64_t{blockDim.x} * K;
    if (first < n) prefetch_l2(in + first, static_cast<std::size_t>(n - first < std::int64_t{blockDim.x} * K ? n - first : std::int64_t{blockDim.x} * K) * sizeof(T));
  }
  if (threadIdx.x == 0) tile_id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
  __syncthreads();
  const std::int64_t t = tile_id;
  const std::int64_t tile_items = std::int64_t{blockDim.x} * K;
  const std::int64_t begin = t * tile_items;
  const std::int64_t seg_begin = begin + std::int64_t{warp} * 32 * K;
  const std::int64_t seg_valid = n - seg_begin;  // items of the segment that exist (may be <= 0)
  const bool seg_full = seg_valid >= 32 * K;
  uint4* seg = segments + warp * layout::segment_vectors;
  uint4* row = seg + lane * layout::row_vectors;

  // 1. Load the segment (items past the end are the identity).
  if (seg_full) {
    const uint4* src = reinterpret_cast<const uint4*>(in + seg_begin) + lane;
    uint4 w[KV];
#pragma unroll
    for (int v = 0; v < KV; ++v) w[v] = __ldcs(src + v * 32);  // read once: evict-first
#pragma unroll
    for (int v = 0; v < KV; ++v) seg[layout::slot(v * 32 + lane)] = w[v];
  } else {
#pragma unroll
    for (int v = 0; v < KV; ++v) {
      const int g = v * 32 + lane;
      T a[V];
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const std::int64_t i = std::int64_t{g} * V + j;
        a[j] = i < seg_valid ? in[seg_begin + i] : op.identity();
      }
      memcpy(&seg[layout::slot(g)], a, sizeof(a));
    }
  }
  __syncwarp();

  // 2. Row totals; the block scan of the rows; publish the aggregate.
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
  if (threadIdx.x == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);

  // 3. Look back.
  if (first_delay != 0 && warp < tr.levels) __nanosleep(first_delay);
  // look_back<true>: runs_before where the tree says so. In round 8 this line still read
  // look_back(...) (copied before runs_before existed), so its "level1" rows took the waiting
  // path too; the library's rows (dl::run) were the ones with runs_before.
  look_back<true>(tr, t, aggregate, op, backoff, level_sums);
  __syncthreads();
  const T tile_prefix = tile_prefix_of(tr, level_sums, init, op);
  if (threadIdx.x == 0 && total && begin + tile_items >= n) *total = op(tile_prefix, aggregate);

  // 4. Scan the row from its prefix, in place, and stream the segment out.
  scan_row_in_place<KV, V>(row, op(tile_prefix, before_row), exclusive, op);
  __syncwarp();
  if (seg_full) {
    uint4* dst = reinterpret_cast<uint4*>(out + seg_begin) + lane;
#pragma unroll
    for (int v = 0; v < KV; ++v) __stcs(dst + v * 32, seg[layout::slot(v * 32 + lane)]);
  } else {
#pragma unroll
    for (int v = 0; v < KV; ++v) {
      const int g = v * 32 + lane;
      T a[V];
      memcpy(a, &seg[layout::slot(g)], sizeof(a));
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const std::int64_t i = std::int64_t{g} * V + j;
        if (i < seg_valid) out[seg_begin + i] = a[j];
      }
    }
  }
}

template <int R, int V, bool Vec, bool Raking, int MaxThreads, int MinBlocks, int Prefetch, class T, class Op>
__global__ void __launch_bounds__(MaxThreads, MinBlocks)
    striped_pf_kernel(const T* in, T* out, std::int64_t n, Op op, bool exclusive, T init,
                         T* total, const __grid_constant__ tree<T> tr,
                         unsigned long long* tile_counter, unsigned backoff) {
  extern __shared__ uint4 raking_buffer[];
  __shared__ tile::scan_storage<T, Raking ? 1 : R> smem;
  __shared__ T warp_sums[Raking ? 32 : 1];
  __shared__ T level_sums[max_levels];
  __shared__ std::int64_t tile_id;
  const std::int64_t B = blockDim.x;
  if (Prefetch == 1 && threadIdx.x == 0) {  // the guess: tile blockIdx.x, before the clearing ends
    const std::int64_t first = blockIdx.x * std::int64_t{blockDim.x} * R * V;
    if (first < n) prefetch_l2(in + first, static_cast<std::size_t>(n - first < std::int64_t{blockDim.x} * R * V ? n - first : std::int64_t{blockDim.x} * R * V) * sizeof(T));
  }
  wait_for_previous_grid();  // the tree's clearing (this kernel follows it as a dependent)
  if (Prefetch == 2 && threadIdx.x == 0) {  // the same guess after it
    const std::int64_t first = blockIdx.x * std::int64_t{blockDim.x} * R * V;
    if (first < n) prefetch_l2(in + first, static_cast<std::size_t>(n - first < std::int64_t{blockDim.x} * R * V ? n - first : std::int64_t{blockDim.x} * R * V) * sizeof(T));
  }
  if (threadIdx.x == 0) tile_id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
  __syncthreads();
  const std::int64_t t = tile_id;
  const std::int64_t tile_items = R * B * V;
  const std::int64_t begin = t * tile_items;
  const std::int64_t valid = n - begin < tile_items ? n - begin : tile_items;

  // 1. Load the tile (items past the end are the identity).
  T x[R][V];
  tile::load<R, V, Vec>(in, begin, valid, x, op.identity());

  // 2. Scan the tile: each thread scans its vectors in place, the block scans the vector
  //    totals (tile_scan.cuh); publish the aggregate at once.
  T totals[R][1], prefix[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
#pragma unroll
    for (int j = 1; j < V; ++j) x[r][j] = op(x[r][j - 1], x[r][j]);
    totals[r][0] = x[r][V - 1];
  }
  T aggregate;
  if constexpr (Raking) {
    T flat[R];
#pragma unroll
    for (int r = 0; r < R; ++r) flat[r] = totals[r][0];
    aggregate = tile::raking_scan_tile(flat, prefix, op, reinterpret_cast<T*>(raking_buffer), warp_sums);
  } else {
    aggregate = tile::scan_tile(totals, prefix, op, smem);
  }
  if (threadIdx.x == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);

  // 3-4. Look back; the tile's prefix.
  look_back(tr, t, aggregate, op, backoff, level_sums);
  __syncthreads();
  const T tile_prefix = tile_prefix_of(tr, level_sums, init, op);
  if (threadIdx.x == 0 && total && begin + valid == n) *total = op(tile_prefix, aggregate);

  // 5. Finish (the vectors are already scanned in place) and store.
  tile::finish(x, prefix, tile_prefix, exclusive, op);
  tile::store<R, V, Vec>(out, begin, valid, x);
}

}  // namespace scankit::cuda::detail::decoupled_lookback

/// The striped register kernel: Block threads x R 16-byte vectors.
template <int Block, int R, bool Raking, int MinBlocks, class T>
void striped(context<T>& c) {
  using Op = scankit::sum<T>;
  constexpr int V = 16 / sizeof(T);
  const std::int64_t tile_items = std::int64_t{R} * Block * V;
  const std::int64_t tiles = sd::ceil_div(c.n, tile_items);
  if (tiles <= 1) return;
  const int smem = Raking ? static_cast<int>(scankit::cuda::detail::tile::raking_entries(R, Block) * sizeof(T)) : 0;
  auto* kernel = dl::lookback_scan_kernel<R, V, true, Raking, Block, MinBlocks, T, Op>;
  dl::allow_shared_bytes(kernel, smem);
  char label[96];
  std::snprintf(label, sizeof label, "striped %dx%d%s mb%d (%lld tiles)", Block, R, Raking ? " raking" : "", MinBlocks,
                static_cast<long long>(tiles));
  time_row(c, label, [&](sd::arena& a) {
    dl::tree<T> tr;
    unsigned long long* counter = dl::prepare_tree(tr, tiles, a, cudaStream_t{});
    sd::launch_after("striped", kernel, static_cast<unsigned>(tiles), Block, smem, cudaStream_t{}, c.in, c.out, c.n, Op{},
                     false, T(0), static_cast<T*>(nullptr), tr, counter, 32u, false);
  });
}

/// The blocked kernel: Block threads x KV 16-byte vectors in shared memory, first delay D ns.
template <int Block, int KV, int MinBlocks, class T>
void blocked(context<T>& c, unsigned delay) {
  using Op = scankit::sum<T>;
  constexpr int V = 16 / sizeof(T);
  const std::int64_t tile_items = std::int64_t{KV} * Block * V;
  const std::int64_t tiles = sd::ceil_div(c.n, tile_items);
  if (tiles <= 1) return;
  const int smem = dl::blocked_layout<KV>::bytes(Block);
  auto* kernel = dl::blocked_kernel<KV, Block, MinBlocks, T, Op>;
  dl::allow_shared_bytes(kernel, smem);
  char label[96];
  std::snprintf(label, sizeof label, "blocked %dx%d mb%d d%u (%lld tiles)", Block, KV, MinBlocks, delay,
                static_cast<long long>(tiles));
  time_row(c, label, [&](sd::arena& a) {
    dl::tree<T> tr;
    unsigned long long* counter = dl::prepare_tree(tr, tiles, a, cudaStream_t{});
    sd::launch_after("blocked", kernel, static_cast<unsigned>(tiles), Block, smem, cudaStream_t{}, c.in, c.out, c.n,
                     Op{}, false, T(0), static_cast<T*>(nullptr), tr, counter, 32u, delay, false);
  });
}

static bool g_level1 = false;  // round 8: level 1 read from the aggregates (runs_before)

template <int KV, int Prefetch, class T>
void blocked_pf(context<T>& c) {
  using Op = scankit::sum<T>;
  constexpr int Block = 256, V = 16 / sizeof(T);
  const std::int64_t tile_items = std::int64_t{KV} * Block * V;
  const std::int64_t tiles = sd::ceil_div(c.n, tile_items);
  if (tiles <= 1) return;
  const int smem = dl::blocked_layout<KV>::bytes(Block);
  auto* kernel = dl::blocked_pf_kernel<KV, Block, 4, Prefetch, T, Op>;
  dl::allow_shared_bytes(kernel, smem);
  char label[96];
  std::snprintf(label, sizeof label, "blocked %dx%d d1000 prefetch%d%s (%lld tiles)", Block, KV, Prefetch,
                g_level1 ? " level1" : "", static_cast<long long>(tiles));
  time_row(c, label, [&](sd::arena& a) {
    dl::tree<T> tr;
    unsigned long long* counter = dl::prepare_tree(tr, tiles, a, cudaStream_t{});
    tr.level1_from_aggregates = g_level1 && tr.levels == 2 && tiles <= dl::runs_before_max_tiles;
    sd::launch_after("blocked", kernel, static_cast<unsigned>(tiles), Block, smem, cudaStream_t{}, c.in, c.out, c.n,
                     Op{}, false, T(0), static_cast<T*>(nullptr), tr, counter, 32u, 1000u);
  });
}

template <int R, int Prefetch, class T, bool Raking = false>
void striped_pf(context<T>& c) {
  using Op = scankit::sum<T>;
  constexpr int Block = 256, V = 16 / sizeof(T);
  const std::int64_t tile_items = std::int64_t{R} * Block * V;
  const std::int64_t tiles = sd::ceil_div(c.n, tile_items);
  if (tiles <= 1) return;
  auto* kernel = dl::striped_pf_kernel<R, V, true, Raking, Block, 4, Prefetch, T, Op>;
  const int smem = Raking ? static_cast<int>(scankit::cuda::detail::tile::raking_entries(R, Block) * sizeof(T)) : 0;
  dl::allow_shared_bytes(kernel, smem);
  char label[96];
  std::snprintf(label, sizeof label, "striped %dx%d%s prefetch%d%s (%lld tiles)", Block, R, Raking ? " raking" : "", Prefetch,
                g_level1 ? " level1" : "", static_cast<long long>(tiles));
  time_row(c, label, [&](sd::arena& a) {
    dl::tree<T> tr;
    unsigned long long* counter = dl::prepare_tree(tr, tiles, a, cudaStream_t{});
    tr.level1_from_aggregates = g_level1 && tr.levels == 2 && tiles <= dl::runs_before_max_tiles;
    sd::launch_after("striped", kernel, static_cast<unsigned>(tiles), Block, smem, cudaStream_t{}, c.in, c.out, c.n, Op{},
                     false, T(0), static_cast<T*>(nullptr), tr, counter, 32u);
  });
}

enum class mode { mid, small, large, large4, mid8, prefetch, level1 };

template <class T>
void variants(context<T>& c, mode m) {
  if (m == mode::mid) {
    striped<256, 4, false, 4>(c);  // the library's striped tile
    striped<256, 6, false, 4>(c);
    striped<256, 8, false, 4>(c);
    striped<256, 8, true, 4>(c);
    striped<256, 12, false, 2>(c);
    striped<128, 8, false, 8>(c);
    striped<128, 12, false, 6>(c);
    striped<512, 4, false, 2>(c);
    striped<512, 6, false, 2>(c);
    blocked<256, 12, 4, T>(c, 2000);  // the library's blocked tile
    blocked<256, 12, 4, T>(c, 0);
    blocked<256, 12, 4, T>(c, 500);
    blocked<256, 8, 4, T>(c, 0);
    blocked<256, 8, 4, T>(c, 1000);
    blocked<256, 6, 4, T>(c, 0);
    blocked<128, 12, 8, T>(c, 0);
    blocked<128, 12, 8, T>(c, 1000);
    blocked<512, 6, 2, T>(c, 0);
    specialized<256, 13, 2, 2, T>(c);  // the library's warp-specialized tile
    specialized<256, 7, 3, 2, T>(c);
    specialized<128, 13, 3, 3, T>(c);
    specialized<128, 7, 4, 4, T>(c);
  } else if (m == mode::small) {  // round 2: where the blocked tile can start
    striped<256, 4, false, 4>(c);
    striped<256, 8, true, 4>(c);
    blocked<256, 8, 4, T>(c, 1000);
    blocked<256, 8, 4, T>(c, 0);
    blocked<256, 6, 4, T>(c, 0);
    blocked<256, 4, 4, T>(c, 0);
    blocked<128, 8, 8, T>(c, 0);
  } else if (m == mode::large4) {  // round 3: 4-byte items, the warp-specialized shapes
    if constexpr (sizeof(T) == 4) {
      specialized<256, 9, 3, 2, T>(c);  // the library's
      specialized<128, 11, 3, 3, T>(c);
      specialized<128, 9, 3, 3, T>(c);
      specialized<128, 7, 4, 3, T>(c);
      specialized<96, 13, 3, 3, T>(c);
      specialized<96, 11, 3, 4, T>(c);
      specialized<128, 11, 2, 4, T>(c);
      specialized<160, 11, 3, 2, T>(c);
      specialized<128, 13, 3, 2, T>(c);
    }
  } else if (m == mode::prefetch) {  // round 6: the guess prefetch (8-byte items)
    if constexpr (sizeof(T) == 8) {
      striped_pf<4, 0, T>(c);
      striped_pf<4, 1, T>(c);
      blocked_pf<8, 0, T>(c);
      blocked_pf<8, 1, T>(c);
      blocked_pf<8, 2, T>(c);
      blocked_pf<8, 1, T>(c);
      blocked_pf<8, 0, T>(c);
    }
  } else if (m == mode::level1) {  // round 8: level 1 from the aggregates, blocked tiles
    for (int rep = 0; rep < 2; ++rep)
      for (bool l1 : {false, true}) {
        g_level1 = l1;
        blocked_pf<8, sizeof(T) == 8 ? 1 : 0, T>(c);
      }
    g_level1 = false;
  } else if (m == mode::mid8) {  // round 3: 8-byte items where the blocked tile ends
    blocked<256, 8, 4, T>(c, 1000);
    specialized<256, 13, 2, 2, T>(c);
    specialized<128, 13, 3, 3, T>(c);
    specialized<128, 11, 3, 3, T>(c);
    specialized<96, 11, 3, 4, T>(c);
    specialized<128, 11, 2, 4, T>(c);
  } else {  // round 2: the warp-specialized shapes at large sizes
    specialized<256, 13, 2, 2, T>(c);
    specialized<128, 13, 3, 3, T>(c);
    specialized<128, 11, 3, 3, T>(c);
    specialized<128, 7, 4, 4, T>(c);
    specialized<160, 13, 3, 2, T>(c);
    specialized<96, 13, 3, 3, T>(c);
    specialized<192, 11, 3, 2, T>(c);
  }
}

template <class T>
void one_size(std::int64_t n, const char* type, mode m) {
  run_size<T>(n, type, [&](context<T>& c) { variants(c, m); });
}

int main(int argc, char** argv) {
  const std::string type = argc > 1 ? argv[1] : "i64";
  const int lo = argc > 2 ? std::atoi(argv[2]) : 16, hi = argc > 3 ? std::atoi(argv[3]) : 23;
  const std::string which = argc > 4 ? argv[4] : "mid";
  const mode m = which == "small"    ? mode::small
                 : which == "large"  ? mode::large
                 : which == "large4" ? mode::large4
                 : which == "mid8"   ? mode::mid8
                 : which == "prefetch" ? mode::prefetch
                 : which == "level1" ? mode::level1
                                     : mode::mid;
  cudaDeviceProp p{};
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
  for (int k = lo; k <= hi; ++k) {
    for (std::int64_t n : {std::int64_t{1} << k, (std::int64_t{3} << k) / 2}) {
      if ((k == hi || m == mode::large || m == mode::large4) && n != (std::int64_t{1} << k)) continue;
      if (type == "f64") one_size<double>(n, "double", m);
      else if (type == "i32") one_size<int>(n, "int32", m);
      else if (type == "f32") one_size<float>(n, "float", m);
      else one_size<long long>(n, "int64", m);
    }
  }
  return 0;
}
