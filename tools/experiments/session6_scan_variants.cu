// Session 6 experiment (not part of the library build): the single-pass scan with its
// per-vector prefixes kept in shared memory instead of registers.
//
// With CUDA 13.0 and the 64-register cap of __launch_bounds__(1024), the library's int32 sum
// kernel (8 register + 4 staged vectors) spills 84 bytes per thread and the float one 32 bytes
// (ptxas -v), which would explain why int32 ran at 80% of the copy and float at 84% with the
// same code. The prefixes (one per vector) are live across the look-back; parking them in
// shared memory frees 12 registers there, and also makes bigger staged parts affordable.
//
// Each variant is timed against CUB and a device-to-device copy in the same process and its
// output compared with CUB's (integers exactly, floats to a relative 1e-5).
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -Iinclude \
//        tools/experiments/session6_scan_variants.cu -o session6_scan_variants
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "scankit/cuda/detail/decoupled_lookback.cuh"

namespace dl = scankit::cuda::detail::decoupled_lookback;
namespace tile = scankit::cuda::detail::tile;
using scankit::cuda::detail::ceil_div;
using scankit::cuda::detail::shfl_up;
using scankit::cuda::detail::warp_inclusive_scan;

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(e_));                 \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

// The block scan of the per-vector totals by raking through shared memory: every thread
// writes its RT totals where they lie in the tile's memory order (sub-tile major), each thread
// then scans a contiguous run of RT of them serially, one warp scan and the warp totals join
// the runs, and the exclusive prefixes go back the same way. Against one warp scan per vector
// (tile::scan_tile: RT x 5 shuffle steps) it costs 4 x RT shared-memory accesses, 2 x RT
// operator calls, one warp scan and three barriers. Works for any monoid (order is kept).
__device__ __forceinline__ int raking_slot(int i) { return i + (i >> 5); }  // one spare per 32
template <int RT, class T, class Op>
__device__ __forceinline__ T raking_scan_tile(const T (&total)[RT], T (&prefix)[RT], Op op, T* buf,
                                              T* warp_sums) {
  const int tid = threadIdx.x, B = blockDim.x, lane = tid & 31, warp = tid >> 5, warps = B >> 5;
#pragma unroll
  for (int r = 0; r < RT; ++r) buf[raking_slot(r * B + tid)] = total[r];
  __syncthreads();
  T seg[RT];
#pragma unroll
  for (int k = 0; k < RT; ++k) seg[k] = buf[raking_slot(tid * RT + k)];
  T run = seg[0];
#pragma unroll
  for (int k = 1; k < RT; ++k) run = op(run, seg[k]);
  const T inclusive = warp_inclusive_scan(run, op);
  const T shifted = shfl_up(inclusive, 1);
  if (lane == 31) warp_sums[warp] = inclusive;
  __syncthreads();
  T before = op.identity(), aggregate = op.identity();
  for (int w = 0; w < warps; ++w) {
    const T v = warp_sums[w];
    if (w < warp) before = op(before, v);
    aggregate = op(aggregate, v);
  }
  T p = lane == 0 ? before : op(before, shifted);
#pragma unroll
  for (int k = 0; k < RT; ++k) {
    buf[raking_slot(tid * RT + k)] = p;
    p = op(p, seg[k]);
  }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < RT; ++r) prefix[r] = buf[raking_slot(r * B + tid)];
  return aggregate;
}

// The library kernel's steps, with three knobs: prefixes in shared memory, tile ids from the
// atomic counter or from blockIdx (to measure what the counter's round trip costs), and the
// launch bounds (max threads, min blocks per SM) that set ptxas's register budget.
template <int R, int S, int V, bool PrefixSmem, bool Atomic, int MaxThreads, int MinBlocks, bool Persistent,
          int BT, bool Raking, class T, class Op>
__global__ void __launch_bounds__(MaxThreads, MinBlocks)
    variant_kernel(const T* in, T* out, std::int64_t n, Op op, bool exclusive, T init,
                   const __grid_constant__ dl::tree<T> tr, unsigned long long* tile_counter,
                   unsigned backoff) {
  constexpr int RT = R + S;
  extern __shared__ uint4 dyn[];
  const std::int64_t tid = threadIdx.x, B = BT ? BT : blockDim.x;
  uint4* staged = dyn;                          // S * B vectors
  T* parked = reinterpret_cast<T*>(dyn + S * B);  // RT * B prefixes (PrefixSmem), or the raking buffer
  __shared__ T warp_sums[32];
  __shared__ tile::scan_storage<T, RT> smem;
  __shared__ T level_sums[dl::max_levels];
  __shared__ std::int64_t tile_id;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if constexpr (Atomic) {
    if (threadIdx.x == 0) tile_id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
    __syncthreads();
  }
  std::int64_t t = Atomic ? tile_id : static_cast<std::int64_t>(blockIdx.x);
  const std::int64_t tile_items = RT * B * V;
  const std::int64_t tiles = (n + tile_items - 1) / tile_items;
  while (t < tiles) {
  const std::int64_t begin = t * tile_items;
  const std::int64_t valid = n - begin < tile_items ? n - begin : tile_items;
  const bool full = valid == tile_items;
#pragma unroll
  for (int s = 0; s < S; ++s) {
    const std::int64_t first = ((R + s) * B + tid) * V;
    if (full) {
      dl::copy_async_16(&staged[s * B + tid], in + begin + first);
    } else {
      T a[V];
#pragma unroll
      for (int j = 0; j < V; ++j) a[j] = first + j < valid ? in[begin + first + j] : op.identity();
      memcpy(&staged[s * B + tid], a, sizeof(a));
    }
  }
  const std::int64_t register_items = R * B * V;
  const std::int64_t register_valid = valid < register_items ? valid : register_items;
  T x[R][V];
  if (BT && full) {
    const uint4* src = reinterpret_cast<const uint4*>(in + begin) + tid;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      uint4 w = __ldcs(src + r * B);
      memcpy(&x[r][0], &w, sizeof(w));
    }
  } else {
    tile::load<R, V, true>(in, begin, register_valid, x, op.identity());
  }
  T totals[RT][1], prefix[RT];
#pragma unroll
  for (int r = 0; r < R; ++r) {
#pragma unroll
    for (int j = 1; j < V; ++j) x[r][j] = op(x[r][j - 1], x[r][j]);
    totals[r][0] = x[r][V - 1];
  }
  if constexpr (S > 0) asm volatile("cp.async.wait_all;" ::: "memory");
#pragma unroll
  for (int s = 0; s < S; ++s) {
    T a[V];
    memcpy(a, &staged[s * B + tid], sizeof(a));
    T v = a[0];
#pragma unroll
    for (int j = 1; j < V; ++j) v = op(v, a[j]);
    totals[R + s][0] = v;
  }
  T aggregate;
  if constexpr (Raking) {
    T flat[RT];
#pragma unroll
    for (int r = 0; r < RT; ++r) flat[r] = totals[r][0];
    aggregate = raking_scan_tile(flat, prefix, op, parked, warp_sums);
  } else {
    aggregate = tile::scan_tile(totals, prefix, op, smem);
  }
  if (threadIdx.x == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);
  if constexpr (PrefixSmem) {
#pragma unroll
    for (int r = 0; r < RT; ++r) parked[r * B + tid] = prefix[r];
  }
  for (int k = warp; k < tr.levels; k += blockDim.x >> 5) {
    const T before = dl::run_sum(tr.level[k], t >> (5 * k), op, backoff);
    if (lane == 0) level_sums[k] = before;
    if (k == 0) {
      T v = op(before, aggregate);
      for (int up = 1; up < tr.levels && ((t >> (5 * (up - 1))) & 31) == 31; ++up) {
        if (lane == 0) tr.level[up].publish(t >> (5 * up), v);
        if (up + 1 < tr.levels && ((t >> (5 * up)) & 31) == 31)
          v = op(dl::run_sum(tr.level[up], t >> (5 * up), op, backoff), v);
      }
    }
  }
  __syncthreads();
  T tile_prefix = init;
  for (int k = tr.levels - 1; k >= 0; --k) tile_prefix = op(tile_prefix, level_sums[k]);
  // Persistent: the next tile id is asked for now, so its round trip overlaps the stores.
  if (Persistent && threadIdx.x == 0) tile_id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const T p = op(tile_prefix, PrefixSmem ? parked[r * B + tid] : prefix[r]);
    if (exclusive) {
#pragma unroll
      for (int j = V - 1; j > 0; --j) x[r][j] = op(p, x[r][j - 1]);
      x[r][0] = p;
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j) x[r][j] = op(p, x[r][j]);
    }
  }
  if (BT && full) {
    uint4* dst = reinterpret_cast<uint4*>(out + begin) + tid;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      uint4 w;
      memcpy(&w, &x[r][0], sizeof(w));
      __stcs(dst + r * B, w);
    }
  } else {
    tile::store<R, V, true>(out, begin, register_valid, x);
  }
#pragma unroll
  for (int s = 0; s < S; ++s) {
    T a[V];
    memcpy(a, &staged[s * B + tid], sizeof(a));
    T running = op(tile_prefix, PrefixSmem ? parked[(R + s) * B + tid] : prefix[R + s]);
#pragma unroll
    for (int j = 0; j < V; ++j) {
      const T item = a[j];
      if (exclusive) {
        a[j] = running;
        running = op(running, item);
      } else {
        running = op(running, item);
        a[j] = running;
      }
    }
    const std::int64_t first = ((R + s) * B + tid) * V;
    if (full) {
      uint4 w;
      memcpy(&w, a, sizeof(w));
      __stcs(reinterpret_cast<uint4*>(out + begin + first), w);
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j)
        if (first + j < valid) out[begin + first + j] = a[j];
    }
  }
  if constexpr (!Persistent) break;
  __syncthreads();
  t = tile_id;
  }
}

template <class U>
__global__ void count_mismatch(const U* a, const U* b, std::int64_t n, unsigned long long* bad) {
  unsigned long long local = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    if constexpr (std::is_floating_point_v<U>) {
      const double x = a[i], y = b[i];
      local += !(std::fabs(x - y) <= 1e-5 * std::fabs(y) + 1e-3);
    } else {
      local += a[i] != b[i];
    }
  }
  if (local) atomicAdd(bad, local);
}

template <class U>
__global__ void fill_random(U* a, std::int64_t n, unsigned seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    unsigned x = static_cast<unsigned>(i) * 2654435761u ^ seed;
    x ^= x >> 13; x *= 0x5bd1e995u; x ^= x >> 15;
    a[i] = static_cast<U>(static_cast<int>(x % 201) - 100);
  }
}

struct timer {
  cudaEvent_t a, b;
  char* flush = nullptr;  // 128 MiB written before each timed run: the L2 starts cold
  timer() {
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaMalloc(&flush, 128 << 20));
  }
  template <class F>
  float median_ms(F f, int reps) {
    f();
    CK(cudaDeviceSynchronize());
    std::vector<float> v;
    for (int i = 0; i < reps; ++i) {
      CK(cudaMemsetAsync(flush, i, 128 << 20));
      CK(cudaEventRecord(a));
      f();
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms;
      CK(cudaEventElapsedTime(&ms, a, b));
      v.push_back(ms);
    }
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }
};

template <class T, class Op>
struct context {
  std::int64_t n;
  T *in, *out, *ref;
  char* ws;
  unsigned long long* bad;
  float copy_ms, cub_ms;
  timer tm;
  const char* type;
  const char* opname;
};

struct cub_max {
  template <class T>
  __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};

template <int B, int R, int S, bool PrefixSmem, bool Atomic, int MaxThreads, int MinBlocks, class T, class Op,
          bool Persistent = false, bool StaticB = false, bool Raking = false>
void run_variant(context<T, Op>& c, const char* label, int reps) {
  Op op;
  constexpr int V = 16 / sizeof(T);
  const std::int64_t tile_items = std::int64_t{B} * (R + S) * V;
  const std::int64_t tiles = ceil_div(c.n, tile_items);
  dl::tree<T> tr{};
  tr.levels = dl::levels_for(tiles);
  char* p = c.ws;
  auto* counter = reinterpret_cast<unsigned long long*>(p);
  p += 256;
  for (int k = 0; k < tr.levels; ++k) {
    tr.level[k].words = reinterpret_cast<unsigned long long*>(p);
    p += (dl::level_entries(tiles, k) * 8 * dl::level_status<T>::W + 255) / 256 * 256;
  }
  const std::size_t bytes = static_cast<std::size_t>(p - c.ws);
  const int smem = S * B * 16 + (PrefixSmem ? (R + S) * B * static_cast<int>(sizeof(T)) : 0) +
                   (Raking ? ((R + S) * B + (R + S) * B / 32 + 1) * static_cast<int>(sizeof(T)) : 0);
  auto kern = variant_kernel<R, S, V, PrefixSmem, Atomic, MaxThreads, MinBlocks, Persistent, StaticB ? B : 0, Raking, T, Op>;
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, B, smem));
  cudaFuncAttributes fa{};
  CK(cudaFuncGetAttributes(&fa, kern));
  auto launch = [&] {
    CK(cudaMemsetAsync(c.ws, 0, bytes));
    const std::int64_t grid = Persistent ? std::min<std::int64_t>(tiles, std::int64_t{per_sm} * 132) : tiles;
    kern<<<static_cast<unsigned>(grid), B, smem>>>(c.in, c.out, c.n, op, false, op.identity(), tr, counter, 32);
    CK(cudaGetLastError());
  };
  CK(cudaMemset(c.out, 0, c.n * sizeof(T)));
  const float ms = c.tm.median_ms(launch, reps);
  CK(cudaMemset(c.bad, 0, 8));
  count_mismatch<<<1024, 256>>>(c.out, c.ref, c.n, c.bad);
  unsigned long long bad = 0;
  CK(cudaMemcpy(&bad, c.bad, 8, cudaMemcpyDeviceToHost));
  std::printf("  %-40s %3d regs %4d B local %d/SM %8.4f ms  %5.1f%% of copy  %5.3fx CUB  %s\n", label,
              fa.numRegs, static_cast<int>(fa.localSizeBytes), per_sm, ms, 100.0 * c.copy_ms / ms,
              c.cub_ms / ms, bad ? "WRONG" : "ok");
  std::fflush(stdout);
}

template <class T, class Op, class F>
void with_context(std::int64_t n, const char* type, const char* opname, F body) {
  context<T, Op> c;
  c.n = n;
  c.type = type;
  c.opname = opname;
  const int reps = n >= (std::int64_t{1} << 28) ? 9 : 25;
  CK(cudaMalloc(&c.in, n * sizeof(T)));
  CK(cudaMalloc(&c.out, n * sizeof(T)));
  CK(cudaMalloc(&c.ref, n * sizeof(T)));
  CK(cudaMalloc(&c.ws, 64 << 20));
  CK(cudaMalloc(&c.bad, 8));
  fill_random<<<1024, 256>>>(c.in, n, 12345u);
  CK(cudaGetLastError());
  c.copy_ms = c.tm.median_ms([&] { CK(cudaMemcpyAsync(c.out, c.in, n * sizeof(T), cudaMemcpyDeviceToDevice)); }, reps);
  std::size_t cub_bytes = 0;
  void* cub_ws = nullptr;
  const bool is_max = std::string(opname) == "max";
  auto cub_call = [&](void* w) {
    if (is_max) CK(cub::DeviceScan::InclusiveScan(w, cub_bytes, c.in, c.ref, cub_max{}, n));
    else CK(cub::DeviceScan::InclusiveSum(w, cub_bytes, c.in, c.ref, n));
  };
  cub_call(nullptr);
  CK(cudaMalloc(&cub_ws, cub_bytes));
  c.cub_ms = c.tm.median_ms([&] { cub_call(cub_ws); }, reps);
  std::printf("\nn = 2^%.2f %s %s: copy %.4f ms, CUB %.4f ms (%.1f%% of copy)\n", std::log2(double(n)), type,
              opname, c.copy_ms, c.cub_ms, 100.0 * c.copy_ms / c.cub_ms);
  body(c, reps);
  CK(cudaFree(cub_ws));
  CK(cudaFree(c.in)); CK(cudaFree(c.out)); CK(cudaFree(c.ref)); CK(cudaFree(c.ws)); CK(cudaFree(c.bad));
  CK(cudaFree(c.tm.flush));
}

// Variant tables. Label: R register vectors + S staged; P = prefixes parked in shared memory;
// blockIdx = tile ids without the atomic counter (measurement only); lb = launch bounds.
template <class T, class Op>
void large_4byte(context<T, Op>& c, int reps) {
  run_variant<256, 6, 6, false, true, 256, 4, T, Op>(c, "R6+S6 lb(256,4) (library now)", reps);
  run_variant<256, 6, 6, false, true, 256, 4, T, Op, false, false, true>(c, "raking R6+S6 lb(256,4)", reps);
  run_variant<256, 8, 4, false, true, 256, 4, T, Op, false, false, true>(c, "raking R8+S4 lb(256,4)", reps);
  run_variant<256, 6, 10, false, true, 256, 3, T, Op, false, false, true>(c, "raking R6+S10 lb(256,3)", reps);
  run_variant<256, 8, 8, false, true, 256, 3, T, Op, false, false, true>(c, "raking R8+S8 lb(256,3)", reps);
  run_variant<256, 4, 8, false, true, 256, 4, T, Op, false, false, true>(c, "raking R4+S8 lb(256,4)", reps);
}

template <class T, class Op>
void large_8byte(context<T, Op>& c, int reps) {
  run_variant<256, 4, 8, false, true, 256, 4, T, Op>(c, "R4+S8 lb(256,4) (library now)", reps);
  run_variant<256, 4, 8, false, true, 256, 3, T, Op, false, false, true>(c, "raking R4+S8 lb(256,3)", reps);
  run_variant<256, 4, 6, false, true, 256, 4, T, Op, false, false, true>(c, "raking R4+S6 lb(256,4)", reps);
  run_variant<256, 4, 4, false, true, 256, 4, T, Op, false, false, true>(c, "raking R4+S4 lb(256,4)", reps);
  run_variant<256, 6, 6, false, true, 256, 3, T, Op, false, false, true>(c, "raking R6+S6 lb(256,3)", reps);
  run_variant<256, 2, 8, false, true, 256, 4, T, Op, false, false, true>(c, "raking R2+S8 lb(256,4)", reps);
}

template <class T, class Op>
void middle_4byte(context<T, Op>& c, int reps) {
  run_variant<256, 8, 0, false, true, 256, 4, T, Op>(c, "R8 lb(256,4) (library now)", reps);
  run_variant<256, 8, 0, false, true, 256, 4, T, Op, false, false, true>(c, "raking R8 lb(256,4)", reps);
  run_variant<256, 6, 6, false, true, 256, 4, T, Op, false, false, true>(c, "raking R6+S6 lb(256,4)", reps);
}

template <class T, class Op>
void middle_8byte(context<T, Op>& c, int reps) {
  run_variant<256, 4, 0, false, true, 256, 4, T, Op>(c, "R4 lb(256,4) (library now below 2^23)", reps);
  run_variant<256, 4, 8, false, true, 256, 4, T, Op>(c, "R4+S8 lb(256,4) (library now from 2^23)", reps);
  run_variant<256, 4, 0, false, true, 256, 4, T, Op, false, false, true>(c, "raking R4 lb(256,4)", reps);
  run_variant<256, 6, 0, false, true, 256, 4, T, Op, false, false, true>(c, "raking R6 lb(256,4)", reps);
  run_variant<256, 4, 4, false, true, 256, 4, T, Op, false, false, true>(c, "raking R4+S4 lb(256,4)", reps);
  run_variant<256, 4, 6, false, true, 256, 4, T, Op, false, false, true>(c, "raking R4+S6 lb(256,4)", reps);
}

int main(int argc, char** argv) {
  const std::string only = argc > 1 ? argv[1] : "all";
  auto want = [&](const char* k) { return only == "all" || only == k; };
  using i32 = int;
  using i64 = long long;
  if (want("i32")) {
    with_context<i32, scankit::sum<i32>>(std::int64_t{1} << 28, "int32", "sum", [](auto& c, int r) { large_4byte(c, r); });
    with_context<i32, scankit::sum<i32>>(std::int64_t{1} << 30, "int32", "sum", [](auto& c, int r) { large_4byte(c, r); });
  }
  if (want("f32"))
    with_context<float, scankit::sum<float>>(std::int64_t{1} << 28, "float", "sum", [](auto& c, int r) { large_4byte(c, r); });
  if (want("i64"))
    with_context<i64, scankit::sum<i64>>(std::int64_t{1} << 28, "int64", "sum", [](auto& c, int r) { large_8byte(c, r); });
  if (want("i64mid")) {
    for (int lg : {18, 20, 22, 24, 26})
      with_context<i64, scankit::sum<i64>>(std::int64_t{1} << lg, "int64", "sum", [](auto& c, int r) { middle_8byte(c, r); });
  }
  if (want("mid")) {
    for (int lg : {16, 20, 22, 24})
      with_context<i32, scankit::sum<i32>>(std::int64_t{1} << lg, "int32", "sum", [](auto& c, int r) { middle_4byte(c, r); });
    with_context<i32, scankit::max<i32>>(std::int64_t{1} << 24, "int32", "max", [](auto& c, int r) { middle_4byte(c, r); });
  }
  return 0;
}
