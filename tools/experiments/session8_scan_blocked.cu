// Session 8 experiment (not part of the library build): a look-back scan whose tile lives in
// shared memory in a *blocked* arrangement, against the library's striped tile.
//
// The library's tile is striped: thread t owns vector r at ((r * B) + t) * V, so a thread's
// items are not contiguous in the sequence and the block scan needs one combination per vector
// (per-vector warp scans, or the raking pass through shared memory). For 8-byte items that is
// most of the kernel's instructions (Nsight Compute, session 6: 139 M warp instructions against
// CUB's 51 M at 2^26 int64), and the raking buffer for 12 vectors of 8-byte totals costs 24 KiB
// of shared memory per block, which drops the kernel to 3 blocks per SM.
//
// Here each warp owns a contiguous segment of 32 * K items. It copies the segment into shared
// memory with coalesced 16-byte cp.async (no registers), so lane l's row of the segment holds
// the K consecutive items l * K ... l * K + K - 1; rows are padded by 16 bytes so that eight
// lanes reading vector c of their rows hit eight different bank groups. Each lane reduces its
// row (one total per thread), one warp scan and the warp totals give the block scan, then the
// look-back (the library's deterministic radix-32 tree), then each lane scans its row again
// from its prefix, writes it back in place, and the warp streams the segment out with
// coalesced 16-byte stores. Only __syncwarp between a warp's copy and its rows; two
// __syncthreads per tile (warp totals, look-back).
//
// Rounds 1-4 ran with the library header of commit 6b26b6e plus an `EvictFirstStaging` template
// knob on its lookback_scan_kernel (the staged cp.async under a createpolicy evict_first L2
// policy). The library has since replaced the staged tile with this blocked one, so
// run_library no longer compiles against the current header: this file is the record of
// what ran (docs/results/session8-round{1,2,3,4}.log).
//
// Each variant is timed against CUB and a device-to-device copy in the same process (median of
// runs, L2 flushed before each) and its output compared with CUB's.
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -Iinclude \
//        tools/experiments/session8_scan_blocked.cu -o session8_scan_blocked
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "experiment_common.cuh"
#include "scankit/cuda/detail/decoupled_lookback.cuh"

namespace dl = scankit::cuda::detail::decoupled_lookback;
namespace tile = scankit::cuda::detail::tile;
using scankit::cuda::detail::ceil_div;
using scankit::cuda::detail::shfl_idx;
using scankit::cuda::detail::shfl_up;
using scankit::cuda::detail::warp_inclusive_scan;

/// Shared-memory bytes of one blocked tile: B/32 warp segments of 32 rows of K items, each row
/// padded by one 16-byte vector.
template <class T>
constexpr int blocked_smem_bytes(int B, int K) {
  return B * (K * static_cast<int>(sizeof(T)) + 16);
}

/// Knobs of the blocked kernel beyond its shape (round 3 diagnostics).
struct knobs {
  bool lookback = true;   // false: no tile status at all (wrong output; measures the streaming alone)
  bool cp_async = true;   // false: ld.global.v4 into registers, then st.shared
  bool streaming = true;  // stores with the evict-first hint (__stcs), else plain stores
  bool evict_first = false;  // cp.async under an L2 evict-first policy
};

template <int B, int K, int MinBlocks, bool KeepRow, class T, class Op, knobs Kn = knobs{}>
__global__ void __launch_bounds__(B, MinBlocks)
    blocked_kernel(const T* in, T* out, std::int64_t n, Op op, bool exclusive, T init,
                   const __grid_constant__ dl::tree<T> tr, unsigned long long* tile_counter,
                   unsigned backoff, unsigned first_delay) {
  constexpr int V = 16 / sizeof(T);  // items per vector
  constexpr int KV = K / V;          // vectors per row
  constexpr int ROW = KV + 1;        // vectors per padded row
  static_assert(K % V == 0 && KV % 2 == 0, "padding spreads the banks only for an even row length");
  extern __shared__ uint4 seg_smem[];
  __shared__ T warp_totals[B / 32];
  __shared__ T level_sums[dl::max_levels];
  __shared__ std::int64_t tile_id;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (threadIdx.x == 0) tile_id = Kn.lookback ? static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull)) : blockIdx.x;
  __syncthreads();
  const std::int64_t t = tile_id;
  constexpr std::int64_t tile_items = std::int64_t{B} * K;
  const std::int64_t begin = t * tile_items;
  const std::int64_t seg_begin = begin + std::int64_t{warp} * 32 * K;
  const std::int64_t valid = n - seg_begin;  // items of this warp's segment that exist (may be <= 0)
  uint4* seg = seg_smem + warp * 32 * ROW;
  uint4* row = seg + lane * ROW;

  // 1. Copy the segment in: vector g of the segment goes to row g / KV, column g % KV.
  if (valid >= 32 * K && Kn.cp_async) {
    const unsigned long long policy = Kn.evict_first ? dl::l2_evict_first_policy() : 0;
#pragma unroll
    for (int v = 0; v < KV; ++v) {
      const int g = v * 32 + lane;
      if constexpr (Kn.evict_first)
        dl::copy_async_16(seg + (g / KV) * ROW + g % KV, in + seg_begin + std::int64_t{g} * V, policy);
      else
        dl::copy_async_16(seg + (g / KV) * ROW + g % KV, in + seg_begin + std::int64_t{g} * V);
    }
    asm volatile("cp.async.wait_all;" ::: "memory");
  } else if (valid >= 32 * K) {
    uint4 w[KV];
#pragma unroll
    for (int v = 0; v < KV; ++v)
      w[v] = __ldcs(reinterpret_cast<const uint4*>(in + seg_begin + std::int64_t{v * 32 + lane} * V));
#pragma unroll
    for (int v = 0; v < KV; ++v) {
      const int g = v * 32 + lane;
      seg[(g / KV) * ROW + g % KV] = w[v];
    }
  } else {
#pragma unroll
    for (int v = 0; v < KV; ++v) {
      const int g = v * 32 + lane;
      T a[V];
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const std::int64_t i = std::int64_t{g} * V + j;
        a[j] = i < valid ? in[seg_begin + i] : op.identity();
      }
      memcpy(seg + (g / KV) * ROW + g % KV, a, sizeof(a));
    }
  }
  __syncwarp();

  // 2. Each lane totals its row; a warp scan and the warp totals make the block scan.
  T x[KeepRow ? K : 1];
  T total;
  {
    T a[V];
    memcpy(a, row, sizeof(a));
    total = a[0];
    if constexpr (KeepRow) x[0] = a[0];
#pragma unroll
    for (int j = 1; j < V; ++j) {
      total = op(total, a[j]);
      if constexpr (KeepRow) x[j] = total;
    }
#pragma unroll
    for (int c = 1; c < KV; ++c) {
      memcpy(a, row + c, sizeof(a));
#pragma unroll
      for (int j = 0; j < V; ++j) {
        total = op(total, a[j]);
        if constexpr (KeepRow) x[c * V + j] = total;
      }
    }
  }
  const T inclusive = warp_inclusive_scan(total, op);
  const T before_in_warp = shfl_up(inclusive, 1);
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  constexpr int warps = B / 32;
  const T of_warp = lane < warps ? warp_totals[lane] : op.identity();
  const T upto_warp = warp_inclusive_scan(of_warp, op);
  const T shifted = shfl_up(upto_warp, 1);
  const T aggregate = shfl_idx(upto_warp, warps - 1);
  const T warp_before = shfl_idx(lane == 0 ? op.identity() : shifted, warp);
  const T thread_before = lane == 0 ? warp_before : op(warp_before, before_in_warp);
  if (Kn.lookback && threadIdx.x == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);

  // 3. Look back (the library's tree, one warp per level). first_delay: a pause before the first
  //    status read (CUB waits ~1.3 us there), so fewer reads find entries not yet published.
  if (first_delay && warp < tr.levels) __nanosleep(first_delay);
  for (int k = warp; Kn.lookback && k < tr.levels; k += warps) {
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
  for (int k = tr.levels - 1; Kn.lookback && k >= 0; --k) tile_prefix = op(tile_prefix, level_sums[k]);

  // 4. Scan the row from the thread's prefix, in place, then stream the segment out.
  const T p = op(tile_prefix, thread_before);
  {
    T running = p;
#pragma unroll
    for (int c = 0; c < KV; ++c) {
      T a[V];
      if constexpr (KeepRow) {
#pragma unroll
        for (int j = 0; j < V; ++j) {
          const int i = c * V + j;
          a[j] = exclusive ? (i == 0 ? p : op(p, x[i - 1])) : op(p, x[i]);
        }
      } else {
        memcpy(a, row + c, sizeof(a));
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
      }
      memcpy(row + c, a, sizeof(a));
    }
  }
  __syncwarp();
  if (valid >= 32 * K) {
#pragma unroll
    for (int v = 0; v < KV; ++v) {
      const int g = v * 32 + lane;
      uint4* dst = reinterpret_cast<uint4*>(out + seg_begin + std::int64_t{g} * V);
      if constexpr (Kn.streaming) __stcs(dst, seg[(g / KV) * ROW + g % KV]);
      else *dst = seg[(g / KV) * ROW + g % KV];
    }
  } else {
#pragma unroll
    for (int v = 0; v < KV; ++v) {
      const int g = v * 32 + lane;
      T a[V];
      memcpy(a, seg + (g / KV) * ROW + g % KV, sizeof(a));
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const std::int64_t i = std::int64_t{g} * V + j;
        if (i < valid) out[seg_begin + i] = a[j];
      }
    }
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
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    a[i] = static_cast<U>(static_cast<int>(x % 201) - 100);
  }
}

template <class T>
struct context {
  std::int64_t n;
  T *in, *out, *ref;
  char* ws;
  unsigned long long* bad;
  float copy_ms, cub_ms;
  timer tm;
};

/// Lays the counter and tree for `tiles` tiles out in c.ws; returns the bytes to clear.
template <class T>
std::size_t make_tree(context<T>& c, std::int64_t tiles, dl::tree<T>& tr, unsigned long long*& counter) {
  tr = dl::tree<T>{};
  tr.levels = dl::levels_for(tiles);
  char* p = c.ws;
  counter = reinterpret_cast<unsigned long long*>(p);
  p += 256;
  for (int k = 0; k < tr.levels; ++k) {
    tr.level[k].words = reinterpret_cast<unsigned long long*>(p);
    p += (dl::level_entries(tiles, k) * 8 * dl::level_status<T>::W + 255) / 256 * 256;
  }
  return static_cast<std::size_t>(p - c.ws);
}

template <class T>
void report(context<T>& c, const char* label, int regs, int local, int per_sm, float ms) {
  CK(cudaMemset(c.bad, 0, 8));
  count_mismatch<<<1024, 256>>>(c.out, c.ref, c.n, c.bad);
  CK(cudaGetLastError());
  unsigned long long bad = 0;
  CK(cudaMemcpy(&bad, c.bad, 8, cudaMemcpyDeviceToHost));
  std::printf("  %-34s %3d regs %4d B local %d/SM %9.4f ms  %5.1f%% of copy  %5.3fx CUB  %s\n", label, regs,
              local, per_sm, ms, 100.0 * c.copy_ms / ms, c.cub_ms / ms, bad ? "WRONG" : "ok");
  std::fflush(stdout);
}

template <int B, int K, int MinBlocks, bool KeepRow, class T, class Op, knobs Kn = knobs{}>
void run_blocked(context<T>& c, const char* label, int reps, unsigned backoff = 32, unsigned first_delay = 0) {
  Op op;
  const std::int64_t tiles = ceil_div(c.n, std::int64_t{B} * K);
  dl::tree<T> tr;
  unsigned long long* counter;
  const std::size_t bytes = make_tree(c, tiles, tr, counter);
  const int smem = blocked_smem_bytes<T>(B, K);
  auto kern = blocked_kernel<B, K, MinBlocks, KeepRow, T, Op, Kn>;
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, B, smem));
  cudaFuncAttributes fa{};
  CK(cudaFuncGetAttributes(&fa, kern));
  CK(cudaMemset(c.out, 0, c.n * sizeof(T)));
  const float ms = c.tm.median_ms(
      [&] {
        CK(cudaMemsetAsync(c.ws, 0, bytes));
        kern<<<static_cast<unsigned>(tiles), B, smem>>>(c.in, c.out, c.n, op, false, op.identity(), tr, counter,
                                                         backoff, first_delay);
        CK(cudaGetLastError());
      },
      reps);
  char full[96];
  std::snprintf(full, sizeof full, "%s b%u d%u", label, backoff, first_delay);
  report(c, full, fa.numRegs, static_cast<int>(fa.localSizeBytes), per_sm, ms);
}

/// The library's kernel as the library launches it for the tuned block size.
template <int R, int S, bool Raking, class T, class Op, bool EvictFirst = false>
void run_library(context<T>& c, const char* label, int reps) {
  Op op;
  constexpr int B = 256, V = 16 / sizeof(T);
  const std::int64_t tiles = ceil_div(c.n, std::int64_t{B} * (R + S) * V);
  dl::tree<T> tr;
  unsigned long long* counter;
  const std::size_t bytes = make_tree(c, tiles, tr, counter);
  const int smem = S * B * 16 + (Raking ? static_cast<int>(tile::raking_entries(R + S, B) * sizeof(T)) : 0);
  auto kern = dl::lookback_scan_kernel<R, S, V, true, Raking, 256, 4, T, Op, EvictFirst>;
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, B, smem));
  cudaFuncAttributes fa{};
  CK(cudaFuncGetAttributes(&fa, kern));
  CK(cudaMemset(c.out, 0, c.n * sizeof(T)));
  const float ms = c.tm.median_ms(
      [&] {
        CK(cudaMemsetAsync(c.ws, 0, bytes));
        kern<<<static_cast<unsigned>(tiles), B, smem>>>(c.in, c.out, c.n, op, false, op.identity(), nullptr, tr,
                                                         counter, 32);
        CK(cudaGetLastError());
      },
      reps);
  report(c, label, fa.numRegs, static_cast<int>(fa.localSizeBytes), per_sm, ms);
}

struct cub_max {
  template <class T>
  __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};

template <class T, class Op, class F>
void with_context(std::int64_t n, const char* type, const char* opname, F body) {
  context<T> c;
  c.n = n;
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
  std::printf("\nn = 2^%.2f %s %s: copy %.4f ms, CUB %.4f ms (%.1f%% of copy)\n", std::log2(double(n)), type, opname,
              c.copy_ms, c.cub_ms, 100.0 * c.copy_ms / c.cub_ms);
  body(c, reps);
  CK(cudaFree(cub_ws));
  CK(cudaFree(c.in));
  CK(cudaFree(c.out));
  CK(cudaFree(c.ref));
  CK(cudaFree(c.ws));
  CK(cudaFree(c.bad));
  CK(cudaFree(c.tm.flush));
}

// Variant tables. "blocked KxB lb(B,M)": K items per thread, B threads, launch bounds; "regs":
// the row's running scan also kept in registers across the look-back.
template <class T, class Op>
void variants_8byte(context<T>& c, int reps, bool large) {
  if (large) run_library<4, 8, false, T, Op>(c, "library R4+S8 (now, from 2^23)", reps);
  else run_library<4, 0, false, T, Op>(c, "library R4 (now, below 2^23)", reps);
  run_blocked<256, 16, 4, false, T, Op>(c, "blocked 16x256 lb(256,4)", reps);
  run_blocked<256, 16, 6, false, T, Op>(c, "blocked 16x256 lb(256,6)", reps);
  run_blocked<256, 16, 4, true, T, Op>(c, "blocked 16x256 lb(256,4) regs", reps);
  run_blocked<256, 24, 4, false, T, Op>(c, "blocked 24x256 lb(256,4)", reps);
  run_blocked<128, 24, 8, false, T, Op>(c, "blocked 24x128 lb(128,8)", reps);
  run_blocked<256, 8, 8, false, T, Op>(c, "blocked 8x256 lb(256,8)", reps);
  run_blocked<256, 12, 6, false, T, Op>(c, "blocked 12x256 lb(256,6)", reps);
}

template <class T, class Op>
void variants_4byte(context<T>& c, int reps, bool large) {
  if (large) run_library<6, 6, true, T, Op>(c, "library R6+S6 raking (now, from 2^24)", reps);
  else run_library<8, 0, true, T, Op>(c, "library R8 raking (now, below 2^24)", reps);
  run_blocked<256, 32, 4, false, T, Op>(c, "blocked 32x256 lb(256,4)", reps);
  run_blocked<256, 32, 6, false, T, Op>(c, "blocked 32x256 lb(256,6)", reps);
  run_blocked<256, 48, 4, false, T, Op>(c, "blocked 48x256 lb(256,4)", reps);
  run_blocked<256, 24, 6, false, T, Op>(c, "blocked 24x256 lb(256,6)", reps);
  run_blocked<128, 48, 8, false, T, Op>(c, "blocked 48x128 lb(128,8)", reps);
}

// Round 2: repeated contexts, the two best blocked shapes per item size, back-off and a first
// delay before the look-back; the library's kernel first and last in each context (drift).
template <class T, class Op>
void round2_8byte(context<T>& c, int reps, bool large) {
  auto lib = [&] {
    if (large) run_library<4, 8, false, T, Op>(c, "library R4+S8", reps);
    else run_library<4, 0, false, T, Op>(c, "library R4", reps);
  };
  lib();
  run_blocked<256, 24, 4, false, T, Op>(c, "blocked 24x256 lb(256,4)", reps);
  run_blocked<256, 16, 6, false, T, Op>(c, "blocked 16x256 lb(256,6)", reps);
  run_blocked<256, 24, 4, false, T, Op>(c, "blocked 24x256 lb(256,4)", reps, 256, 0);
  run_blocked<256, 24, 4, false, T, Op>(c, "blocked 24x256 lb(256,4)", reps, 32, 1000);
  run_blocked<256, 24, 4, false, T, Op>(c, "blocked 24x256 lb(256,4)", reps, 600, 1300);
  run_blocked<256, 16, 6, false, T, Op>(c, "blocked 16x256 lb(256,6)", reps, 600, 1300);
  run_blocked<224, 24, 5, false, T, Op>(c, "blocked 24x224 lb(224,5)", reps);
  run_blocked<224, 24, 5, false, T, Op>(c, "blocked 24x224 lb(224,5)", reps, 600, 1300);
  lib();
}

template <class T, class Op>
void round2_4byte(context<T>& c, int reps, bool large) {
  auto lib = [&] {
    if (large) run_library<6, 6, true, T, Op>(c, "library R6+S6 raking", reps);
    else run_library<8, 0, true, T, Op>(c, "library R8 raking", reps);
  };
  lib();
  run_blocked<256, 32, 6, false, T, Op>(c, "blocked 32x256 lb(256,6)", reps);
  run_blocked<256, 48, 4, false, T, Op>(c, "blocked 48x256 lb(256,4)", reps);
  run_blocked<256, 32, 6, false, T, Op>(c, "blocked 32x256 lb(256,6)", reps, 256, 0);
  run_blocked<256, 32, 6, false, T, Op>(c, "blocked 32x256 lb(256,6)", reps, 32, 1000);
  run_blocked<256, 32, 6, false, T, Op>(c, "blocked 32x256 lb(256,6)", reps, 600, 1300);
  run_blocked<256, 48, 4, false, T, Op>(c, "blocked 48x256 lb(256,4)", reps, 600, 1300);
  run_blocked<128, 24, 12, false, T, Op>(c, "blocked 24x128 lb(128,12)", reps);
  lib();
}

// Round 3: where the 8-byte time goes. Without the look-back (wrong output, marked WRONG) the
// kernel only streams; loads through registers instead of cp.async; plain stores.
template <class T, class Op>
void round3(context<T>& c, int reps) {
  constexpr bool eight = sizeof(T) == 8;
  constexpr int K = eight ? 24 : 48;
  constexpr knobs none{false, true, true}, ld{true, false, true}, st{true, true, false}, ld_none{false, false, true},
      ld_st{true, false, false};
  if constexpr (eight) run_library<4, 8, false, T, Op>(c, "library R4+S8", reps);
  else run_library<6, 6, true, T, Op>(c, "library R6+S6 raking", reps);
  run_blocked<256, K, 4, false, T, Op>(c, "blocked", reps, 32, 1000);
  run_blocked<256, K, 4, false, T, Op, none>(c, "blocked, no look-back", reps);
  run_blocked<256, K, 4, false, T, Op, ld_none>(c, "blocked ld, no look-back", reps);
  run_blocked<256, K, 4, false, T, Op, ld>(c, "blocked ld", reps, 32, 1000);
  run_blocked<256, K, 4, false, T, Op, st>(c, "blocked plain st", reps, 32, 1000);
  run_blocked<256, K, 4, false, T, Op, ld_st>(c, "blocked ld + plain st", reps, 32, 1000);
  if constexpr (eight) {
    run_blocked<256, 16, 6, false, T, Op, none>(c, "blocked 16x256 lb6, no look-back", reps);
    run_blocked<256, 16, 6, false, T, Op, ld>(c, "blocked 16x256 lb6 ld", reps, 32, 1000);
  }
}

// Round 4: the L2 policy of the input. Register loads (__ldcs, evict-first) beat cp.async
// (normal policy) once the look-back runs; is it the policy? And the first delay, with them.
template <class T, class Op>
void round4(context<T>& c, int reps) {
  constexpr bool eight = sizeof(T) == 8;
  constexpr int K = eight ? 24 : 48;
  constexpr knobs ld{true, false, true}, ef{true, true, true, true};
  if constexpr (eight) {
    run_library<4, 8, false, T, Op>(c, "library R4+S8", reps);
    run_library<4, 8, false, T, Op, true>(c, "library R4+S8 evict-first", reps);
  } else {
    run_library<6, 6, true, T, Op>(c, "library R6+S6 raking", reps);
    run_library<6, 6, true, T, Op, true>(c, "library R6+S6 raking evict-first", reps);
  }
  run_blocked<256, K, 4, false, T, Op, ef>(c, "blocked cp.async evict-first", reps, 32, 1000);
  run_blocked<256, K, 4, false, T, Op, ef>(c, "blocked cp.async evict-first", reps, 32, 0);
  for (unsigned d : {0u, 500u, 1000u, 2000u}) run_blocked<256, K, 4, false, T, Op, ld>(c, "blocked ld", reps, 32, d);
  run_blocked<256, K, 4, false, T, Op, ld>(c, "blocked ld", reps, 200, 1000);
  if constexpr (eight) {
    run_blocked<256, 16, 6, false, T, Op, ld>(c, "blocked 16x256 lb6 ld", reps, 32, 0);
    run_blocked<256, 16, 6, false, T, Op, ef>(c, "blocked 16x256 lb6 evict-first", reps, 32, 0);
  } else {
    run_blocked<256, 32, 6, false, T, Op, ld>(c, "blocked 32x256 lb6 ld", reps, 32, 0);
    run_blocked<256, 32, 6, false, T, Op, ef>(c, "blocked 32x256 lb6 evict-first", reps, 32, 0);
  }
  if constexpr (eight) run_library<4, 8, false, T, Op, true>(c, "library R4+S8 evict-first", reps);
  else run_library<6, 6, true, T, Op, true>(c, "library R6+S6 raking evict-first", reps);
}

int main(int argc, char** argv) {
  const std::string only = argc > 1 ? argv[1] : "all";
  auto want = [&](const char* k) { return only == "all" || only == k; };
  using i64 = long long;
  if (want("i64")) {
    for (int lg : {28, 26, 24, 22, 20})
      with_context<i64, scankit::sum<i64>>(std::int64_t{1} << lg, "int64", "sum",
                                           [&](auto& c, int r) { variants_8byte<i64, scankit::sum<i64>>(c, r, lg >= 23); });
  }
  if (want("f64"))
    with_context<double, scankit::sum<double>>(std::int64_t{1} << 28, "double", "sum", [](auto& c, int r) {
      variants_8byte<double, scankit::sum<double>>(c, r, true);
    });
  if (want("r4")) {
    for (int lg : {28, 26, 24, 22})
      with_context<i64, scankit::sum<i64>>(std::int64_t{1} << lg, "int64", "sum", [](auto& c, int r) { round4<i64, scankit::sum<i64>>(c, r); });
    for (int lg : {28, 30, 24})
      with_context<int, scankit::sum<int>>(std::int64_t{1} << lg, "int32", "sum", [](auto& c, int r) { round4<int, scankit::sum<int>>(c, r); });
    with_context<double, scankit::sum<double>>(std::int64_t{1} << 28, "double", "sum", [](auto& c, int r) { round4<double, scankit::sum<double>>(c, r); });
  }
  if (want("r3")) {
    with_context<i64, scankit::sum<i64>>(std::int64_t{1} << 28, "int64", "sum", [](auto& c, int r) { round3<i64, scankit::sum<i64>>(c, r); });
    with_context<int, scankit::sum<int>>(std::int64_t{1} << 28, "int32", "sum", [](auto& c, int r) { round3<int, scankit::sum<int>>(c, r); });
    with_context<i64, scankit::sum<i64>>(std::int64_t{1} << 26, "int64", "sum", [](auto& c, int r) { round3<i64, scankit::sum<i64>>(c, r); });
  }
  if (want("r2i32")) {
    for (int lg : {28, 30, 29, 28, 30, 27, 24})
      with_context<int, scankit::sum<int>>(std::int64_t{1} << lg, "int32", "sum",
                                           [&](auto& c, int r) { round2_4byte<int, scankit::sum<int>>(c, r, lg >= 24); });
  }
  if (want("r2i64")) {
    for (int lg : {28, 27, 28, 26, 24, 22})
      with_context<i64, scankit::sum<i64>>(std::int64_t{1} << lg, "int64", "sum",
                                           [&](auto& c, int r) { round2_8byte<i64, scankit::sum<i64>>(c, r, lg >= 23); });
  }
  if (want("i32")) {
    for (int lg : {30, 28, 24, 22, 20})
      with_context<int, scankit::sum<int>>(std::int64_t{1} << lg, "int32", "sum",
                                           [&](auto& c, int r) { variants_4byte<int, scankit::sum<int>>(c, r, lg >= 24); });
    with_context<int, scankit::max<int>>(std::int64_t{1} << 28, "int32", "max",
                                         [](auto& c, int r) { variants_4byte<int, scankit::max<int>>(c, r, true); });
  }
  return 0;
}
