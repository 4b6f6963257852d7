// Tuning experiment for the decoupled look-back scan (not part of the library build).
//
// Times variants of the single-pass scan kernel against CUB and a device-to-device copy in one
// process, and checks each variant's output against CUB's. Knobs: threads per block, 16-byte
// vectors per thread, the look-back scheme (the library's deterministic radix-32 tree, or the
// classic "stop at the nearest inclusive prefix", which is deterministic for integers), and
// cache hints on loads and stores.
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -Iinclude \
//        tools/experiments/lookback_tuning.cu -o lookback_tuning && ./lookback_tuning
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <string>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "scankit/cuda/detail/decoupled_lookback.cuh"

namespace dl = scankit::cuda::detail::decoupled_lookback;
namespace tile = scankit::cuda::detail::tile;
using scankit::cuda::detail::ceil_div;

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(e_));                 \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

enum hint { h_cs = 0, h_plain = 1, h_nc = 2 };

__device__ unsigned long long* g_times;  // probe: 4 timestamps per tile (Scheme 5)
__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

template <int R, int V, int LoadHint, class T>
__device__ __forceinline__ void load_full(const T* in, std::int64_t begin, T (&x)[R][V]) {
  const std::int64_t t = threadIdx.x, B = blockDim.x;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const uint4* p = reinterpret_cast<const uint4*>(in + begin + (r * B + t) * V);
    uint4 w;
    if constexpr (LoadHint == h_cs) w = __ldcs(p);
    else if constexpr (LoadHint == h_nc) {
      asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
                   : "=r"(w.x), "=r"(w.y), "=r"(w.z), "=r"(w.w) : "l"(p));
    } else w = *p;
    memcpy(&x[r][0], &w, sizeof(w));
  }
}

template <int R, int V, int StoreHint, class T>
__device__ __forceinline__ void store_full(T* out, std::int64_t begin, const T (&y)[R][V]) {
  const std::int64_t t = threadIdx.x, B = blockDim.x;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    uint4 w;
    memcpy(&w, &y[r][0], sizeof(w));
    uint4* p = reinterpret_cast<uint4*>(out + begin + (r * B + t) * V);
    if constexpr (StoreHint == h_cs) __stcs(p, w);
    else *p = w;
  }
}

// Classic status word for 4-byte items: bits 32..33 the state (0 none, 1 aggregate,
// 2 inclusive), low 32 bits the value.
template <class T, class Op>
__device__ T classic_lookback(unsigned long long* status, std::int64_t t, T aggregate, Op op,
                              unsigned backoff) {
  const int lane = threadIdx.x & 31;
  T exclusive = op.identity();
  std::int64_t window_end = t;  // look at tiles [window_end - 32, window_end)
  while (true) {
    const std::int64_t j = window_end - 1 - lane;  // lane 0 = nearest predecessor
    unsigned long long w = 0;
    if (j >= 0) {
      do {
        w = dl::load_relaxed(status + j);
        if ((w >> 32) == 0) __nanosleep(backoff);
      } while ((w >> 32) == 0);
    } else {
      w = (2ull << 32);  // before tile 0: an inclusive identity (value bits of identity)
      unsigned bits;
      T id = op.identity();
      memcpy(&bits, &id, 4);
      w |= bits;
    }
    const unsigned inclusive_mask = __ballot_sync(0xffffffffu, (w >> 32) == 2);
    unsigned bits = static_cast<unsigned>(w);
    T v;
    memcpy(&v, &bits, 4);
    // Lanes past the nearest inclusive one contribute the identity.
    const int stop = inclusive_mask ? __ffs(inclusive_mask) - 1 : 31;
    if (lane > stop) v = op.identity();
    // Combine in memory order: lane 31 is the earliest tile. Reverse-order reduction.
    // sum = v[stop] op ... op v[0]
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const T other = __shfl_down_sync(0xffffffffu, v, d);
      if (lane + d < 32) v = op(other, v);  // higher lanes are earlier tiles: on the left
    }
    const T window = __shfl_sync(0xffffffffu, v, 0);
    exclusive = op(window, exclusive);
    if (inclusive_mask) break;
    window_end -= 32;
  }
  return exclusive;
}

template <int R, int V, int Scheme, int LoadHint, int StoreHint, class T, class Op>
__global__ void __launch_bounds__(1024)
    variant_kernel(const T* in, T* out, std::int64_t n, Op op, const __grid_constant__ dl::tree<T> tr,
                   unsigned long long* status, unsigned long long* tile_counter, unsigned backoff) {
  __shared__ tile::scan_storage<T, R> smem;
  __shared__ T level_sums[dl::max_levels];
  __shared__ std::int64_t tile_id;
  __shared__ T tile_prefix_s;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned long long t_start = now_ns();
  if (threadIdx.x == 0) tile_id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
  __syncthreads();
  const std::int64_t t = tile_id;
  const std::int64_t tile_items = static_cast<std::int64_t>(R) * blockDim.x * V;
  const std::int64_t begin = t * tile_items;
  const std::int64_t valid = n - begin < tile_items ? n - begin : tile_items;
  T x[R][V], prefix[R];
  if (valid == tile_items) load_full<R, V, LoadHint>(in, begin, x);
  else tile::load<R, V, true>(in, begin, valid, x, op.identity());
  if constexpr (Scheme == 3 || Scheme == 4) {  // timing probes: no scan at all
    if constexpr (Scheme == 3) __syncthreads();
    if (valid == tile_items) store_full<R, V, StoreHint>(out, begin, x);
    else tile::store<R, V, true>(out, begin, valid, x);
    return;
  }
  const T aggregate = tile::scan_tile(x, prefix, op, smem);
  T tile_prefix = op.identity();
  const unsigned long long t_published = now_ns();
  if constexpr (Scheme == 2) {  // timing probe: the tile scan without any look-back
  } else if constexpr (Scheme >= 10) {
    // Tree look-back in which the M runs of 32 tiles just before this tile's run are summed
    // here from their aggregates (the same expression their last tile publishes one level up),
    // instead of waiting for that publication: one round trip less for most tiles.
    constexpr int M = Scheme - 10;
    __shared__ T lvl1_vals[32];
    const std::int64_t run = t >> 5;
    const std::int64_t group_first = run & ~std::int64_t{31};
    if (threadIdx.x == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);
    const int warps = blockDim.x >> 5;
    if (warp == 0) {
      const T before = dl::run_sum(tr.level[0], t, op, backoff);
      if (lane == 0) level_sums[0] = before;
      T v = op(before, aggregate);
      for (int up = 1; up < tr.levels && ((t >> (5 * (up - 1))) & 31) == 31; ++up) {
        if (lane == 0) tr.level[up].publish(t >> (5 * up), v);
        if (up + 1 < tr.levels && ((t >> (5 * up)) & 31) == 31)
          v = op(dl::run_sum(tr.level[up], t >> (5 * up), op, backoff), v);
      }
    } else if (warp <= M) {
      const std::int64_t r = run - warp;  // a previous run, recomputed from its aggregates
      if (tr.levels > 1 && r >= group_first) {
        const std::int64_t last = r * 32 + 31;
        const T v = op(dl::run_sum(tr.level[0], last, op, backoff), dl::wait_for(tr.level[0], last, backoff));
        if (lane == 0) lvl1_vals[r & 31] = v;
      }
    } else if (warp == M + 1) {
      if (tr.levels > 1) {
        const std::int64_t r = group_first + lane;
        if (r < run - M) lvl1_vals[lane] = dl::wait_for(tr.level[1], r, backoff);
        else if (r >= run) lvl1_vals[lane] = op.identity();
      }
    }
    for (int k = 2 + (warp - (M + 2)); warp >= M + 2 && k < tr.levels; k += warps - (M + 2)) {
      const T before = dl::run_sum(tr.level[k], t >> (5 * k), op, backoff);
      if (lane == 0) level_sums[k] = before;
    }
    __syncthreads();
    if (warp == 0 && tr.levels > 1) {
      const T l1 = scankit::cuda::detail::warp_reduce(lvl1_vals[lane], op);
      if (lane == 0) level_sums[1] = l1;
    }
    __syncthreads();
    for (int k = tr.levels - 1; k >= 0; --k) tile_prefix = op(tile_prefix, level_sums[k]);
  } else if constexpr (Scheme == 0 || Scheme == 5) {
    if (threadIdx.x == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);
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
    for (int k = tr.levels - 1; k >= 0; --k) tile_prefix = op(tile_prefix, level_sums[k]);
  } else {
    if (warp == 0) {
      unsigned bits;
      if (t == 0) {
        memcpy(&bits, &aggregate, 4);
        if (lane == 0) dl::store_relaxed(status, (2ull << 32) | bits);
      } else {
        memcpy(&bits, &aggregate, 4);
        if (lane == 0) dl::store_relaxed(status + t, (1ull << 32) | bits);
        const T ex = classic_lookback(status, t, aggregate, op, backoff);
        const T inc = op(ex, aggregate);
        memcpy(&bits, &inc, 4);
        if (lane == 0) {
          dl::store_relaxed(status + t, (2ull << 32) | bits);
          tile_prefix_s = ex;
        }
      }
    }
    __syncthreads();
    if (t > 0) tile_prefix = tile_prefix_s;
  }
  const unsigned long long t_prefix = now_ns();
  tile::finish(x, prefix, tile_prefix, false, op);
  if (valid == tile_items) store_full<R, V, StoreHint>(out, begin, x);
  else tile::store<R, V, true>(out, begin, valid, x);
  if constexpr (Scheme == 5 || Scheme >= 10) {
    if (threadIdx.x == 0 && g_times) {
      g_times[4 * t] = t_start; g_times[4 * t + 1] = t_published; g_times[4 * t + 2] = t_prefix;
      g_times[4 * t + 3] = now_ns();
    }
  }
}


// ---------------------------------------------------------------------------------------
// Bulk-copy (TMA engine) variant: the tile travels global -> shared -> global with
// cp.async.bulk, and each thread keeps only its vector totals in registers, so more blocks fit
// on an SM and more bytes are in flight.

__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(unsigned long long* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void mbar_expect_tx(unsigned long long* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned long long* bar, unsigned phase) {
  unsigned done = 0;
  while (!done) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done) : "r"(smem_addr(bar)), "r"(phase) : "memory");
  }
}
__device__ __forceinline__ void bulk_load(void* dst, const void* src, unsigned bytes, unsigned long long* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               ::"r"(smem_addr(dst)), "l"(src), "r"(bytes), "r"(smem_addr(bar)) : "memory");
}
__device__ __forceinline__ void bulk_store(void* dst, const void* src, unsigned bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
               ::"l"(dst), "r"(smem_addr(src)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bulk_commit_and_wait_read() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
__device__ __forceinline__ void fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

template <int B, int R, class T, class Op>
__global__ void __launch_bounds__(B)
    bulk_kernel(const T* in, T* out, std::int64_t n, Op op, const __grid_constant__ dl::tree<T> tr,
                unsigned long long* tile_counter, unsigned backoff) {
  constexpr int V = 16 / sizeof(T);
  extern __shared__ uint4 buf[];  // R * B vectors: the tile, in memory order
  __shared__ tile::scan_storage<T, R> smem;
  __shared__ T level_sums[dl::max_levels];
  __shared__ std::int64_t tile_id;
  __shared__ alignas(8) unsigned long long bar;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  constexpr std::int64_t tile_items = std::int64_t{R} * B * V;
  if (threadIdx.x == 0) {
    tile_id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
    mbar_init(&bar, 1);
  }
  __syncthreads();
  const std::int64_t t = tile_id;
  const std::int64_t begin = t * tile_items;
  const std::int64_t valid = n - begin < tile_items ? n - begin : tile_items;
  const bool full = valid == tile_items;
  T* items = reinterpret_cast<T*>(buf);
  if (full) {
    if (threadIdx.x == 0) {
      mbar_expect_tx(&bar, tile_items * sizeof(T));
      constexpr unsigned chunk = tile_items * sizeof(T) / 4;
#pragma unroll
      for (int c = 0; c < 4; ++c)
        bulk_load(reinterpret_cast<char*>(buf) + c * chunk,
                  reinterpret_cast<const char*>(in + begin) + c * chunk, chunk, &bar);
    }
    mbar_wait(&bar, 0);
  } else {
    for (std::int64_t i = threadIdx.x; i < tile_items; i += B) items[i] = i < valid ? in[begin + i] : op.identity();
    __syncthreads();
  }
  // Each thread's vector totals, then the block scan of those totals.
  T tot[R][1], prefix[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const uint4 w = buf[r * B + threadIdx.x];
    T a[V];
    memcpy(a, &w, sizeof(w));
    T s = a[0];
#pragma unroll
    for (int j = 1; j < V; ++j) s = op(s, a[j]);
    tot[r][0] = s;
  }
  const T aggregate = tile::scan_tile(tot, prefix, op, smem);
  if (threadIdx.x == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);
  for (int k = warp; k < tr.levels; k += B >> 5) {
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
  T tile_prefix = op.identity();
  for (int k = tr.levels - 1; k >= 0; --k) tile_prefix = op(tile_prefix, level_sums[k]);
  // Finish in shared memory, then write the tile back.
#pragma unroll
  for (int r = 0; r < R; ++r) {
    uint4 w = buf[r * B + threadIdx.x];
    T a[V];
    memcpy(a, &w, sizeof(w));
    T run = op(tile_prefix, prefix[r]);
#pragma unroll
    for (int j = 0; j < V; ++j) a[j] = run = op(run, a[j]);
    memcpy(&w, a, sizeof(w));
    buf[r * B + threadIdx.x] = w;
  }
  if (full) {
    fence_proxy_async();
    __syncthreads();
    if (threadIdx.x == 0) {
      bulk_store(out + begin, buf, tile_items * sizeof(T));
      bulk_commit_and_wait_read();
    }
  } else {
    __syncthreads();
    for (std::int64_t i = threadIdx.x; i < valid; i += B) out[begin + i] = items[i];
  }
}

template <int B, int R>
__global__ void __launch_bounds__(B) bulk_copy_kernel(const int* in, int* out, std::int64_t n) {
  extern __shared__ uint4 buf[];
  __shared__ alignas(8) unsigned long long bar;
  constexpr std::int64_t tile_items = std::int64_t{R} * B * 4;
  const std::int64_t begin = blockIdx.x * tile_items;
  if (threadIdx.x == 0) {
    mbar_init(&bar, 1);
    mbar_expect_tx(&bar, tile_items * 4);
    bulk_load(buf, in + begin, tile_items * 4, &bar);
    mbar_wait(&bar, 0);
    bulk_store(out + begin, buf, tile_items * 4);
    bulk_commit_and_wait_read();
  }
}

template <int B, int R>
__global__ void __launch_bounds__(B) tile_copy_kernel(const int* in, int* out) {
  const std::int64_t begin = blockIdx.x * std::int64_t{R} * B * 4;
  int x[R][4];
  load_full<R, 4, h_cs>(in, begin, x);
  store_full<R, 4, h_cs>(out, begin, x);
}

template <class U>
__global__ void count_mismatch(const U* a, const U* b, std::int64_t n, unsigned long long* bad) {
  unsigned long long local = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    local += a[i] != b[i];
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
  timer() { CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b)); }
  template <class F>
  float median_ms(F f, int reps) {
    f();
    CK(cudaDeviceSynchronize());
    std::vector<float> v;
    for (int i = 0; i < reps; ++i) {
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

template <class U>
struct context_t {
  std::int64_t n;
  U *in, *out, *ref;
  char* ws;
  unsigned long long* bad;
  float copy_ms, cub_ms;
  timer tm;
};
using context = context_t<int>;

template <int B, int R, int Scheme, int LoadHint, int StoreHint>
void run_variant(context& c, const char* label, int reps, unsigned backoff = 32) {
  using T = int;
  scankit::sum<int> op;
  constexpr int V = 4;
  const std::int64_t tile_items = std::int64_t{B} * R * V;
  const std::int64_t tiles = ceil_div(c.n, tile_items);
  dl::tree<T> tr{};
  tr.levels = dl::levels_for(tiles);
  char* p = c.ws;
  auto* counter = reinterpret_cast<unsigned long long*>(p);
  p += 256;
  for (int k = 0; k < tr.levels; ++k) {
    tr.level[k].words = reinterpret_cast<unsigned long long*>(p);
    p += (dl::level_entries(tiles, k) * 8 + 255) / 256 * 256;
  }
  auto* status = reinterpret_cast<unsigned long long*>(p);
  p += (tiles * 8 + 255) / 256 * 256;
  const std::size_t bytes = static_cast<std::size_t>(p - c.ws);
  auto launch = [&] {
    CK(cudaMemsetAsync(c.ws, 0, bytes));
    variant_kernel<R, V, Scheme, LoadHint, StoreHint><<<static_cast<unsigned>(tiles), B>>>(
        c.in, c.out, c.n, op, tr, status, counter, backoff);
    CK(cudaGetLastError());
  };
  unsigned long long* times = nullptr;
  if (Scheme == 5 || Scheme >= 10) {
    CK(cudaMalloc(&times, tiles * 32));
    CK(cudaMemcpyToSymbol(g_times, &times, sizeof(times)));
  }
  const float ms = c.tm.median_ms(launch, reps);
  if (Scheme == 5 || Scheme >= 10) {
    std::vector<unsigned long long> h(tiles * 4);
    CK(cudaMemcpy(h.data(), times, tiles * 32, cudaMemcpyDeviceToHost));
    CK(cudaFree(times));
    double load = 0, look = 0, store = 0, lag = 0;
    std::vector<double> looks;
    for (std::int64_t k = 0; k < tiles; ++k) {
      load += h[4 * k + 1] - h[4 * k];
      look += h[4 * k + 2] - h[4 * k + 1];
      looks.push_back(double(h[4 * k + 2] - h[4 * k + 1]));
      store += h[4 * k + 3] - h[4 * k + 2];
      if (k > 0) {  // how long after the latest run predecessor published did this tile get its prefix
        unsigned long long latest = 0;
        for (std::int64_t j = k & ~31ll; j < k; ++j) latest = std::max(latest, h[4 * j + 1]);
        if (latest) lag += double(h[4 * k + 2]) - double(std::max(latest, h[4 * k + 1]));
      }
    }
    std::sort(looks.begin(), looks.end());
    std::printf("  timing per tile (ns): start->published %.0f, published->prefix %.0f (p10 %.0f, p50 %.0f, p90 %.0f), prefix->stored %.0f; prefix after latest needed publish %.0f\n",
                load / tiles, look / tiles, looks[tiles / 10], looks[tiles / 2], looks[tiles * 9 / 10], store / tiles, lag / tiles);
  }
  CK(cudaMemset(c.bad, 0, 8));
  count_mismatch<<<1024, 256>>>(c.out, c.ref, c.n, c.bad);
  unsigned long long bad = 0;
  CK(cudaMemcpy(&bad, c.bad, 8, cudaMemcpyDeviceToHost));
  std::printf("  %-40s %8.4f ms  %5.1f%% of copy  %5.3fx CUB  %s\n", label, ms,
              100.0 * c.copy_ms / ms, c.cub_ms / ms, (Scheme >= 2 && Scheme <= 4) ? "(probe)" : bad ? "WRONG" : "ok");
}


template <int B, int R>
void run_bulk(context& c, const char* label, int reps) {
  using T = int;
  scankit::sum<int> op;
  const std::int64_t tile_items = std::int64_t{B} * R * 4;
  const std::int64_t tiles = ceil_div(c.n, tile_items);
  dl::tree<T> tr{};
  tr.levels = dl::levels_for(tiles);
  char* p = c.ws;
  auto* counter = reinterpret_cast<unsigned long long*>(p);
  p += 256;
  for (int k = 0; k < tr.levels; ++k) {
    tr.level[k].words = reinterpret_cast<unsigned long long*>(p);
    p += (dl::level_entries(tiles, k) * 8 + 255) / 256 * 256;
  }
  const std::size_t bytes = static_cast<std::size_t>(p - c.ws);
  const int smem = static_cast<int>(tile_items * 4);
  CK(cudaFuncSetAttribute(bulk_kernel<B, R, T, scankit::sum<int>>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int blocks_per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, bulk_kernel<B, R, T, scankit::sum<int>>, B, smem));
  auto launch = [&] {
    CK(cudaMemsetAsync(c.ws, 0, bytes));
    bulk_kernel<B, R><<<static_cast<unsigned>(tiles), B, smem>>>(c.in, c.out, c.n, op, tr, counter, 32);
    CK(cudaGetLastError());
  };
  const float ms = c.tm.median_ms(launch, reps);
  CK(cudaMemset(c.bad, 0, 8));
  count_mismatch<<<1024, 256>>>(c.out, c.ref, c.n, c.bad);
  unsigned long long bad = 0;
  CK(cudaMemcpy(&bad, c.bad, 8, cudaMemcpyDeviceToHost));
  std::printf("  %-34s %d/SM %8.4f ms  %5.1f%% of copy  %5.3fx CUB  %s\n", label, blocks_per_sm, ms,
              100.0 * c.copy_ms / ms, c.cub_ms / ms, bad ? "WRONG" : "ok");
}

template <int B, int R>
void run_copies(context& c, int reps) {
  const std::int64_t tile_items = std::int64_t{B} * R * 4;
  const std::int64_t tiles = c.n / tile_items;
  const int smem = static_cast<int>(tile_items * 4);
  CK(cudaFuncSetAttribute(bulk_copy_kernel<B, R>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const float b = c.tm.median_ms([&] { bulk_copy_kernel<B, R><<<static_cast<unsigned>(tiles), B, smem>>>(c.in, c.out, c.n); CK(cudaGetLastError()); }, reps);
  const float r = c.tm.median_ms([&] { tile_copy_kernel<B, R><<<static_cast<unsigned>(tiles), B>>>(c.in, c.out); CK(cudaGetLastError()); }, reps);
  std::printf("  copies B%d R%d (whole tiles only): bulk %.4f ms (%.1f%%), registers %.4f ms (%.1f%%)\n", B, R,
              b, 100.0 * c.copy_ms / b, r, 100.0 * c.copy_ms / r);
}


// ---------------------------------------------------------------------------------------
// Pipelined persistent variant: each block holds two tiles in registers. While tile k looks
// back, the loads of the block's next tile are already in flight, so the memory system is not
// idle during the look-back. The next tile id is taken (atomically, in order) when tile k
// starts its scan.
template <int R, int V, class T>
struct pipe_smem {
  tile::scan_storage<T, R> scan;
  T level_sums[dl::max_levels];
  std::int64_t next_id;
};

template <int B, int R, int V, class T, class Op>
__device__ __forceinline__ bool pipe_step(T (&x)[R][V], T (&xn)[R][V], std::int64_t& cur,
                                          const T* in, T* out, std::int64_t n, std::int64_t tiles,
                                          Op op, const dl::tree<T>& tr,
                                          unsigned long long* counter, unsigned backoff,
                                          pipe_smem<R, V, T>& sm) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  constexpr std::int64_t tile_items = std::int64_t{R} * B * V;
  if (threadIdx.x == 0) sm.next_id = static_cast<std::int64_t>(atomicAdd(counter, 1ull));
  T prefix[R];
  const T aggregate = tile::scan_tile(x, prefix, op, sm.scan);  // its barrier publishes next_id
  const std::int64_t t = cur, next = sm.next_id;
  if (threadIdx.x == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);
  if (next < tiles) {
    const std::int64_t nb = next * tile_items;
    tile::load<R, V, true>(in, nb, n - nb < tile_items ? n - nb : tile_items, xn, op.identity());
  }
  for (int k = warp; k < tr.levels; k += B >> 5) {
    const T before = dl::run_sum(tr.level[k], t >> (5 * k), op, backoff);
    if (lane == 0) sm.level_sums[k] = before;
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
  T tile_prefix = op.identity();
  for (int k = tr.levels - 1; k >= 0; --k) tile_prefix = op(tile_prefix, sm.level_sums[k]);
  tile::finish(x, prefix, tile_prefix, false, op);
  const std::int64_t b = t * tile_items;
  tile::store<R, V, true>(out, b, n - b < tile_items ? n - b : tile_items, x);
  __syncthreads();  // sm is reused by the next step
  cur = next;
  return next < tiles;
}

template <int B, int R, int MinBlocks, class T, class Op>
__global__ void __launch_bounds__(B, MinBlocks)
    pipelined_kernel(const T* in, T* out, std::int64_t n, std::int64_t tiles, Op op,
                     const __grid_constant__ dl::tree<T> tr, unsigned long long* counter,
                     unsigned backoff) {
  constexpr int V = 16 / sizeof(T);
  constexpr std::int64_t tile_items = std::int64_t{R} * B * V;
  __shared__ pipe_smem<R, V, T> sm;
  __shared__ std::int64_t first;
  if (threadIdx.x == 0) first = static_cast<std::int64_t>(atomicAdd(counter, 1ull));
  __syncthreads();
  std::int64_t cur = first;
  if (cur >= tiles) return;
  T xa[R][V], xb[R][V];
  {
    const std::int64_t b = cur * tile_items;
    tile::load<R, V, true>(in, b, n - b < tile_items ? n - b : tile_items, xa, op.identity());
  }
  while (pipe_step<B, R, V>(xa, xb, cur, in, out, n, tiles, op, tr, counter, backoff, sm) &&
         pipe_step<B, R, V>(xb, xa, cur, in, out, n, tiles, op, tr, counter, backoff, sm)) {
  }
}

template <int B, int R, int MinBlocks>
void run_pipelined(context& c, const char* label, int reps) {
  using T = int;
  using Op = scankit::sum<int>;
  Op op;
  const std::int64_t tile_items = std::int64_t{B} * R * 4;
  const std::int64_t tiles = ceil_div(c.n, tile_items);
  dl::tree<T> tr{};
  tr.levels = dl::levels_for(tiles);
  char* p = c.ws;
  auto* counter = reinterpret_cast<unsigned long long*>(p);
  p += 256;
  for (int k = 0; k < tr.levels; ++k) {
    tr.level[k].words = reinterpret_cast<unsigned long long*>(p);
    p += (dl::level_entries(tiles, k) * 8 + 255) / 256 * 256;
  }
  const std::size_t bytes = static_cast<std::size_t>(p - c.ws);
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, pipelined_kernel<B, R, MinBlocks, T, Op>, B, 0));
  const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>(tiles, per_sm * 132));
  auto launch = [&] {
    CK(cudaMemsetAsync(c.ws, 0, bytes));
    pipelined_kernel<B, R, MinBlocks><<<grid, B>>>(c.in, c.out, c.n, tiles, op, tr, counter, 32);
    CK(cudaGetLastError());
  };
  const float ms = c.tm.median_ms(launch, reps);
  CK(cudaMemset(c.bad, 0, 8));
  count_mismatch<<<1024, 256>>>(c.out, c.ref, c.n, c.bad);
  unsigned long long bad = 0;
  CK(cudaMemcpy(&bad, c.bad, 8, cudaMemcpyDeviceToHost));
  std::printf("  %-34s %d/SM %8.4f ms  %5.1f%% of copy  %5.3fx CUB  %s\n", label, per_sm, ms,
              100.0 * c.copy_ms / ms, c.cub_ms / ms, bad ? "WRONG" : "ok");
}


// ---------------------------------------------------------------------------------------
// Hybrid tile: RR sub-tiles travel through registers, RS more through shared memory (cp.async,
// each thread copying and later reading only its own vectors, so no barrier is needed). The
// tile is then bigger than the register file alone allows, so more bytes are in flight per
// look-back.
template <int B, int RR, int RS, int MinBlocks, class T, class Op>
__global__ void __launch_bounds__(B, MinBlocks)
    hybrid_kernel(const T* in, T* out, std::int64_t n, Op op, const __grid_constant__ dl::tree<T> tr,
                  unsigned long long* tile_counter, unsigned backoff) {
  constexpr int V = 16 / sizeof(T);
  constexpr int RT = RR + RS;
  constexpr std::int64_t tile_items = std::int64_t{RT} * B * V;
  extern __shared__ uint4 sbuf[];  // RS * B vectors
  __shared__ tile::scan_storage<T, RT> smem;
  __shared__ T level_sums[dl::max_levels];
  __shared__ std::int64_t tile_id;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (threadIdx.x == 0) tile_id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
  __syncthreads();
  const std::int64_t t = tile_id;
  const std::int64_t begin = t * tile_items;
  const std::int64_t valid = n - begin < tile_items ? n - begin : tile_items;
  const bool full = valid == tile_items;
  const int tid = threadIdx.x;
  // 1. Start the shared-memory part (asynchronous), then load the register part.
#pragma unroll
  for (int s = 0; s < RS; ++s) {
    const std::int64_t first = ((RR + s) * std::int64_t{B} + tid) * V;
    if (full) {
      const unsigned dst = smem_addr(&sbuf[s * B + tid]);
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(in + begin + first) : "memory");
    } else {
      T a[V];
#pragma unroll
      for (int j = 0; j < V; ++j) a[j] = first + j < valid ? in[begin + first + j] : op.identity();
      memcpy(&sbuf[s * B + tid], a, 16);
    }
  }
  asm volatile("cp.async.commit_group;" ::: "memory");
  T x[RR][V];
  if (full) load_full<RR, V, h_cs>(in, begin, x);
  else tile::load<RR, V, true>(in, begin, valid, x, op.identity());
  // 2. Vector totals: registers (scanned in place), then shared memory.
  T tot[RT][1], prefix[RT];
#pragma unroll
  for (int r = 0; r < RR; ++r) {
#pragma unroll
    for (int j = 1; j < V; ++j) x[r][j] = op(x[r][j - 1], x[r][j]);
    tot[r][0] = x[r][V - 1];
  }
  asm volatile("cp.async.wait_group 0;" ::: "memory");
#pragma unroll
  for (int s = 0; s < RS; ++s) {
    const uint4 w = sbuf[s * B + tid];
    T a[V];
    memcpy(a, &w, 16);
    T v = a[0];
#pragma unroll
    for (int j = 1; j < V; ++j) v = op(v, a[j]);
    tot[RR + s][0] = v;
  }
  const T aggregate = tile::scan_tile(tot, prefix, op, smem);
  // 3. Look back (the library's tree).
  if (threadIdx.x == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);
  for (int k = warp; k < tr.levels; k += B >> 5) {
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
  T tile_prefix = op.identity();
  for (int k = tr.levels - 1; k >= 0; --k) tile_prefix = op(tile_prefix, level_sums[k]);
  // 4. Finish and store both parts.
#pragma unroll
  for (int r = 0; r < RR; ++r) {
    const T p = op(tile_prefix, prefix[r]);
#pragma unroll
    for (int j = 0; j < V; ++j) x[r][j] = op(p, x[r][j]);
  }
  if (full) store_full<RR, V, h_cs>(out, begin, x);
  else tile::store<RR, V, true>(out, begin, valid, x);
#pragma unroll
  for (int s = 0; s < RS; ++s) {
    const uint4 w = sbuf[s * B + tid];
    T a[V];
    memcpy(a, &w, 16);
    T run = op(tile_prefix, prefix[RR + s]);
#pragma unroll
    for (int j = 0; j < V; ++j) a[j] = run = op(run, a[j]);
    const std::int64_t first = ((RR + s) * std::int64_t{B} + tid) * V;
    if (full) {
      uint4 o;
      memcpy(&o, a, 16);
      __stcs(reinterpret_cast<uint4*>(out + begin + first), o);
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j)
        if (first + j < valid) out[begin + first + j] = a[j];
    }
  }
}

template <int B, int RR, int RS, int MinBlocks, class T = int>
void run_hybrid(context_t<T>& c, const char* label, int reps) {
  using Op = scankit::sum<T>;
  Op op;
  const std::int64_t tile_items = std::int64_t{B} * (RR + RS) * (16 / sizeof(T));
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
  const int smem = RS * B * 16;
  auto kern = hybrid_kernel<B, RR, RS, MinBlocks, T, Op>;
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, B, smem));
  auto launch = [&] {
    CK(cudaMemsetAsync(c.ws, 0, bytes));
    kern<<<static_cast<unsigned>(tiles), B, smem>>>(c.in, c.out, c.n, op, tr, counter, 32);
    CK(cudaGetLastError());
  };
  const float ms = c.tm.median_ms(launch, reps);
  CK(cudaMemset(c.bad, 0, 8));
  count_mismatch<<<1024, 256>>>(c.out, c.ref, c.n, c.bad);
  unsigned long long bad = 0;
  CK(cudaMemcpy(&bad, c.bad, 8, cudaMemcpyDeviceToHost));
  std::printf("  %-34s %d/SM %8.4f ms  %5.1f%% of copy  %5.3fx CUB  %s\n", label, per_sm, ms,
              100.0 * c.copy_ms / ms, c.cub_ms / ms, bad ? "WRONG" : "ok");
}

__global__ void copy_kernel(const uint4* in, uint4* out, std::int64_t n4) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n4;
       i += std::int64_t{gridDim.x} * blockDim.x)
    __stcs(out + i, __ldcs(in + i));
}


// The library's kernel (decoupled_lookback.cuh) with R register vectors and S staged vectors.
template <int B, int R, int S, class T>
void run_lib(context_t<T>& c, const char* label, int reps) {
  using Op = scankit::sum<T>;
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
  const int smem = S * B * 16;
  auto kern = dl::lookback_scan_kernel<R, S, V, true, 1024, 1, T, Op>;
  if (smem > 48 * 1024) CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, B, smem));
  auto launch = [&] {
    CK(cudaMemsetAsync(c.ws, 0, bytes));
    kern<<<static_cast<unsigned>(tiles), B, smem>>>(c.in, c.out, c.n, op, false, T{0}, nullptr, tr, counter, 32);
    CK(cudaGetLastError());
  };
  const float ms = c.tm.median_ms(launch, reps);
  CK(cudaMemset(c.bad, 0, 8));
  count_mismatch<<<1024, 256>>>(c.out, c.ref, c.n, c.bad);
  unsigned long long bad = 0;
  CK(cudaMemcpy(&bad, c.bad, 8, cudaMemcpyDeviceToHost));
  std::printf("  %-34s %d/SM %8.4f ms  %5.1f%% of copy  %5.3fx CUB  %s\n", label, per_sm, ms,
              100.0 * c.copy_ms / ms, c.cub_ms / ms, bad ? "WRONG" : "ok");
}

void bench_i64(std::int64_t n) {
  using T = long long;
  context_t<T> c;
  c.n = n;
  const int reps = 10;
  CK(cudaMalloc(&c.in, n * 8));
  CK(cudaMalloc(&c.out, n * 8));
  CK(cudaMalloc(&c.ref, n * 8));
  CK(cudaMalloc(&c.ws, 64 << 20));
  CK(cudaMalloc(&c.bad, 8));
  fill_random<<<1024, 256>>>(c.in, n, 777u);
  CK(cudaGetLastError());
  c.copy_ms = c.tm.median_ms([&] { CK(cudaMemcpyAsync(c.out, c.in, n * 8, cudaMemcpyDeviceToDevice)); }, reps);
  std::size_t cub_bytes = 0;
  CK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, c.in, c.ref, n));
  void* cub_ws;
  CK(cudaMalloc(&cub_ws, cub_bytes));
  c.cub_ms = c.tm.median_ms([&] { CK(cub::DeviceScan::InclusiveSum(cub_ws, cub_bytes, c.in, c.ref, n)); }, reps);
  std::printf("n = %lld int64 sum: cudaMemcpy %.4f ms, CUB %.4f ms (%.1f%% of copy)\n",
              static_cast<long long>(n), c.copy_ms, c.cub_ms, 100.0 * c.copy_ms / c.cub_ms);
  run_lib<256, 8, 0, T>(c, "i64 lib R8 S0", reps);
  run_lib<256, 4, 9, T>(c, "i64 lib R4 S9", reps);
  run_lib<256, 4, 13, T>(c, "i64 lib R4 S13", reps);
  run_lib<256, 6, 9, T>(c, "i64 lib R6 S9", reps);
  run_lib<256, 6, 13, T>(c, "i64 lib R6 S13", reps);
  run_lib<256, 8, 9, T>(c, "i64 lib R8 S9", reps);
  run_lib<256, 8, 11, T>(c, "i64 lib R8 S11", reps);
  run_lib<256, 2, 13, T>(c, "i64 lib R2 S13", reps);
  run_lib<512, 4, 5, T>(c, "i64 lib B512 R4 S5", reps);
  CK(cudaFree(cub_ws));
  CK(cudaFree(c.in)); CK(cudaFree(c.out)); CK(cudaFree(c.ref)); CK(cudaFree(c.ws)); CK(cudaFree(c.bad));
}

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "i64") {
    bench_i64(std::int64_t{1} << 28);
    return 0;
  }
  std::vector<std::int64_t> sizes = {std::int64_t{1} << 28, std::int64_t{1} << 30};
  if (argc > 1) sizes = {std::atoll(argv[1])};
  for (std::int64_t n : sizes) {
    context c;
    c.n = n;
    const int reps = n > (1 << 28) ? 10 : 20;
    CK(cudaMalloc(&c.in, n * 4));
    CK(cudaMalloc(&c.out, n * 4));
    CK(cudaMalloc(&c.ref, n * 4));
    CK(cudaMalloc(&c.ws, 64 << 20));
    CK(cudaMalloc(&c.bad, 8));
    fill_random<<<1024, 256>>>(c.in, n, 12345u);
    CK(cudaGetLastError());
    c.copy_ms = c.tm.median_ms([&] { CK(cudaMemcpyAsync(c.out, c.in, n * 4, cudaMemcpyDeviceToDevice)); }, reps);
    const float kcopy = c.tm.median_ms([&] { copy_kernel<<<132 * 16, 256>>>((const uint4*)c.in, (uint4*)c.out, n / 4); }, reps);
    std::size_t cub_bytes = 0;
    CK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, c.in, c.ref, n));
    void* cub_ws;
    CK(cudaMalloc(&cub_ws, cub_bytes));
    c.cub_ms = c.tm.median_ms([&] { CK(cub::DeviceScan::InclusiveSum(cub_ws, cub_bytes, c.in, c.ref, n)); }, reps);
    std::printf("n = %lld int32 sum: cudaMemcpy %.4f ms (%.0f GB/s), copy kernel %.4f ms, CUB %.4f ms (%.1f%% of copy)\n",
                static_cast<long long>(n), c.copy_ms, 8.0 * n / c.copy_ms / 1e6, kcopy, c.cub_ms,
                100.0 * c.copy_ms / c.cub_ms);
    run_variant<256, 8, 2, h_cs, h_cs>(c, "probe: tile scan, no look-back", reps);
    run_lib<256, 8, 0>(c, "lib R8 S0", reps);
    run_lib<256, 8, 5>(c, "lib R8 S5", reps);
    run_lib<256, 8, 9>(c, "lib R8 S9", reps);
    run_lib<256, 8, 13>(c, "lib R8 S13", reps);
    run_lib<256, 6, 13>(c, "lib R6 S13", reps);
    run_lib<256, 4, 13>(c, "lib R4 S13", reps);
    run_lib<256, 8, 11>(c, "lib R8 S11", reps);
    run_lib<256, 4, 9>(c, "lib R4 S9", reps);
    run_lib<512, 8, 5>(c, "lib B512 R8 S5", reps);
    run_lib<512, 4, 7>(c, "lib B512 R4 S7", reps);
    CK(cudaFree(cub_ws));
    CK(cudaFree(c.in)); CK(cudaFree(c.out)); CK(cudaFree(c.ref)); CK(cudaFree(c.ws)); CK(cudaFree(c.bad));
  }
}
