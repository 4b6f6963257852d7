// Session 18 experiment (not part of the library build): the warp-specialized scan tile with
// its producer loading ahead. ahead_kernel below is the library's specialized_kernel
// (decoupled_lookback.cuh, session 18 shapes) with one change to the producer, chosen by Ahead:
// instead of store, take an id, load, wait for it, total the rows (one load in flight per
// block), it starts the next uses' loads as soon as their buffers are free. Timed in one process
// with CUB and the copy, against the library's kernel at the same shape; every row checked
// against CUB's output.
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//        -Itools/experiments -DSCANKIT_HAS_CUDA=1 tools/experiments/session18_scan_ahead.cu \
//        build/release/libscankit.a -ltbb -o session18_scan_ahead
//   ./session18_scan_ahead [i32|f32|i64|f64] [min_log] [max_log] [round5|producers]
// (round 4: loading ahead, which lost; round5: L2 evict-first hints and look-back back-offs;
// producers: several producer warps per block, prepared in session 18 and not yet run)
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "session18_harness.cuh"

namespace scankit::cuda::detail::decoupled_lookback {
// Round 5: L2 cache hints on the bulk copies (Hint 1: loads evict-first; 2: loads and stores).
__device__ __forceinline__ std::uint64_t evict_first_policy() {
  std::uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
  return p;
}
__device__ __forceinline__ void load_hinted(void* dst, const void* src, unsigned bytes, std::uint64_t* bar, std::uint64_t policy) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;" ::"r"(
          bulk::shared_address(dst)),
      "l"(src), "r"(bytes), "r"(bulk::shared_address(bar)), "l"(policy)
      : "memory");
}
__device__ __forceinline__ void store_hinted(void* dst, const void* src, unsigned bytes, std::uint64_t policy) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;" ::"l"(dst),
               "r"(bulk::shared_address(src)), "r"(bytes), "l"(policy)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

template <int Consumers, int KV, int Stages, int MinBlocks, int Ahead, class T, class Op, int Hint = 0>
__global__ void __launch_bounds__(Consumers + 32, MinBlocks)
    ahead_kernel(const T* in, T* out, std::int64_t n, std::int64_t tiles, Op op, bool exclusive, T init,
                       T* total, const __grid_constant__ tree<T> tr, unsigned long long* tile_counter,
                       unsigned backoff) {
  constexpr int V = tile::vector_items<T>();
  constexpr std::int64_t tile_items = std::int64_t{Consumers} * KV * V;
  constexpr unsigned tile_bytes = Consumers * KV * 16;
  constexpr int consumer_warps = Consumers / 32;
  static_assert(V * sizeof(T) == 16 && KV % 2 == 1 && Consumers % 32 == 0);
  // Stages tiles of Consumers * KV vectors. 128-byte aligned: with only the 16 bytes bulk
  // copies require, the int32 tile ran 15% slower (docs/results/session15-round{8,9}.log).
  extern __shared__ __align__(128) uint4 buffers[];
  // loaded: the bulk copy landed; ready: row prefixes written, aggregate published, tile id set;
  // scanned: every consumer is done with the buffer (its tile scanned in place).
  __shared__ std::uint64_t loaded[Stages], ready[Stages], scanned[Stages];
  __shared__ std::int64_t buffer_tile[Stages];
  __shared__ T before_row[Stages][Consumers];
  __shared__ T buffer_aggregate[Stages];
  __shared__ T level_sums[2][max_levels];  // alternate tiles: one barrier per tile suffices
  const int tid = threadIdx.x, lane = tid & 31;
  auto buffer = [&](int s) { return buffers + s * Consumers * KV; };
  auto whole = [&](std::int64_t t) { return (t + 1) * tile_items <= n; };
  if (tid == 0) {
    for (int s = 0; s < Stages; ++s) {
      bulk::barrier_init(&loaded[s], 1);
      bulk::barrier_init(&ready[s], 1);
      bulk::barrier_init(&scanned[s], Consumers);
    }
    bulk::fence_barrier_init();
  }
  wait_for_previous_grid();  // the tree's clearing (this kernel follows it as a dependent)
  __syncthreads();

  if (tid >= Consumers) {
    // The producer. Use j of the buffers is buffer j % Stages, phase (j / Stages) & 1.
    // Ahead = 0: the library's order (store use j - Stages, take an id, load, wait, totals).
    // Ahead = 1: use u is issued (its buffer's previous tile stored, an id taken, the load
    // started) as soon as the buffer is free, tested without waiting before and after each
    // tile's row totals, so the next tiles' loads fly while this one is totalled.
    __shared__ std::int64_t issued_tile[Stages];
    auto store_scanned = [&](int j) {  // the tile of use j, once scanned (a partial one is stored by the consumers)
      const int s = j % Stages;
      bulk::wait(&scanned[s], (j / Stages) & 1);
      const std::int64_t t = buffer_tile[s];
      if (lane == 0 && whole(t)) {
        if constexpr (Hint >= 2) store_hinted(out + t * tile_items, buffer(s), tile_bytes, evict_first_policy());
        else bulk::store(out + t * tile_items, buffer(s), tile_bytes);
        bulk::wait_read();
      }
      __syncwarp();
    };
    int issued = 0;           // uses issued so far
    bool exhausted = false;   // an id past the last tile was issued
    auto issue = [&] {        // issues use `issued` (waits for its buffer)
      const int u = issued++, s = u % Stages;
      if (u >= Stages) store_scanned(u - Stages);
      std::int64_t t = 0;
      if (lane == 0) {
        t = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
        issued_tile[s] = t;
        if (t < tiles && whole(t)) {
          bulk::arrive_expect_bytes(&loaded[s], tile_bytes);
          if constexpr (Hint >= 1) load_hinted(buffer(s), in + t * tile_items, tile_bytes, &loaded[s], evict_first_policy());
          else bulk::load(buffer(s), in + t * tile_items, tile_bytes, &loaded[s]);
        }
      }
      t = __shfl_sync(0xffffffffu, t, 0);
      if (t >= tiles) exhausted = true;
    };
    auto buffer_free = [&](int u) { return u < Stages || bulk::test(&scanned[u % Stages], ((u - Stages) / Stages) & 1); };
    auto issue_free = [&](int j) {  // without waiting: every use up to j + Stages - 1 whose buffer is free
      if constexpr (Ahead != 0) {
        while (!exhausted && issued < j + Stages) {
          const bool free_now = __shfl_sync(0xffffffffu, buffer_free(issued) ? 1 : 0, 0) != 0;
          if (!free_now) break;
          issue();
        }
      }
    };
    int j = 0;
    for (;; ++j) {
      const int s = j % Stages;
      if (issued == j) issue();
      __syncwarp();
      const std::int64_t t = issued_tile[s];
      issue_free(j);
      if (t < tiles) {
        const std::int64_t begin = t * tile_items;
        if (whole(t)) {
          bulk::wait(&loaded[s], (j / Stages) & 1);
        } else {  // the last tile, partial: items past the end are the identity
          T* items = reinterpret_cast<T*>(buffer(s));
          for (std::int64_t i = lane; i < tile_items; i += 32) items[i] = begin + i < n ? in[begin + i] : op.identity();
          __syncwarp();
        }
        T carry = op.identity();
#pragma unroll
        for (int i = 0; i < consumer_warps; ++i) {
          const uint4* row = buffer(s) + (i * 32 + lane) * KV;
          T row_total = op.identity();
#pragma unroll
          for (int c = 0; c < KV; ++c) {
            T a[V];
            memcpy(a, &row[c], sizeof(a));
#pragma unroll
            for (int k = 0; k < V; ++k) row_total = op(row_total, a[k]);
          }
          const T inclusive = warp_inclusive_scan(row_total, op);
          const T before_in_warp = shfl_up(inclusive, 1);
          before_row[s][i * 32 + lane] = lane == 0 ? carry : op(carry, before_in_warp);
          carry = op(carry, shfl_idx(inclusive, 31));
        }
        if (lane == 0) {
          buffer_aggregate[s] = carry;
          if (tr.levels > 0) tr.level[0].publish(t, carry);
        }
      }
      if (lane == 0) {
        buffer_tile[s] = t;
        bulk::arrive(&ready[s]);
      }
      if (t >= tiles) break;  // the consumers stop at this use too
      issue_free(j + 1);
    }
    for (int k = j - Stages + 1 < 0 ? 0 : j - Stages + 1; k < j; ++k) store_scanned(k);
    if (lane == 0) bulk::wait_all();
    return;
  }

  // The consumers.
  for (int j = 0;; ++j) {
    const int s = j % Stages;
    bulk::wait(&ready[s], (j / Stages) & 1);
    const std::int64_t t = buffer_tile[s];
    if (t >= tiles) break;
    const T aggregate = buffer_aggregate[s];
    T* sums = level_sums[j & 1];
    look_back(tr, t, aggregate, op, backoff, sums, consumer_warps);
    sync_first_threads(Consumers);
    const T tile_prefix = tile_prefix_of(tr, sums, init, op);
    const std::int64_t begin = t * tile_items;
    if (tid == 0 && total && begin + tile_items >= n) *total = op(tile_prefix, aggregate);
    scan_row_in_place<KV, V>(buffer(s) + tid * KV, op(tile_prefix, before_row[s][tid]), exclusive, op);
    if (whole(t)) {
      bulk::fence_proxy_async();  // the producer's bulk store reads these writes
    } else {
      sync_first_threads(Consumers);
      const T* items = reinterpret_cast<const T*>(buffer(s));
      for (std::int64_t i = tid; i < tile_items && begin + i < n; i += Consumers) out[begin + i] = items[i];
    }
    bulk::arrive(&scanned[s]);
  }
}

// Prepared in session 18 for the next one (compiled, not run on a GPU): the warp-specialized
// tile with `Producers` producer warps. Warp 0 of them takes tile ids, issues the loads and the
// stores as the library's producer does; every producer warp totals its share of the rows
// (consumer_warps / Producers groups of 32), the warps exchange their totals through shared
// memory and a named barrier, and each writes its rows' prefixes offset by the totals of the
// warps before it (combined on the left: non-commutative operators stay in order). Every
// producer thread arrives on `ready` itself (as the compaction's counting warps do: one arrive
// per warp after a __syncwarp drew racecheck hazards there). `loaded` completes once per use:
// with the bytes of a whole tile, or with a plain arrive for the partial tile or none, so the
// other producer warps can wait on it. session 17's trace had the single producer of a
// 256-consumer block totalling rows for 1.7 us (int32) / 3.2 us (int64) of a 6.8 / 9.9 us period.
template <int Consumers, int KV, int Stages, int MinBlocks, int Producers, class T, class Op>
__global__ void __launch_bounds__(Consumers + 32 * Producers, MinBlocks)
    producers_kernel(const T* in, T* out, std::int64_t n, std::int64_t tiles, Op op, bool exclusive, T init,
                     T* total, const __grid_constant__ tree<T> tr, unsigned long long* tile_counter,
                     unsigned backoff) {
  constexpr int V = tile::vector_items<T>();
  constexpr std::int64_t tile_items = std::int64_t{Consumers} * KV * V;
  constexpr unsigned tile_bytes = Consumers * KV * 16;
  constexpr int consumer_warps = Consumers / 32;
  constexpr int groups = consumer_warps / Producers;  // groups of 32 rows per producer warp
  static_assert(V * sizeof(T) == 16 && KV % 2 == 1 && Consumers % 32 == 0);
  static_assert(Producers >= 1 && consumer_warps % Producers == 0);
  extern __shared__ __align__(128) uint4 buffers[];
  __shared__ std::uint64_t loaded[Stages], ready[Stages], scanned[Stages];
  __shared__ std::int64_t buffer_tile[Stages], issued_tile[Stages];
  __shared__ T before_row[Stages][Consumers];
  __shared__ T buffer_aggregate[Stages];
  __shared__ T producer_total[Stages][Producers];
  __shared__ T level_sums[2][max_levels];
  const int tid = threadIdx.x, lane = tid & 31;
  auto buffer = [&](int s) { return buffers + s * Consumers * KV; };
  auto whole = [&](std::int64_t t) { return (t + 1) * tile_items <= n; };
  if (tid == 0) {
    for (int s = 0; s < Stages; ++s) {
      bulk::barrier_init(&loaded[s], 1);
      bulk::barrier_init(&ready[s], 32 * Producers);
      bulk::barrier_init(&scanned[s], Consumers);
    }
    bulk::fence_barrier_init();
  }
  wait_for_previous_grid();
  __syncthreads();

  if (tid >= Consumers) {
    const int pw = (tid - Consumers) >> 5, ptid = tid - Consumers;
    auto store_scanned = [&](int j) {  // warp 0: the tile of use j, once scanned
      const int s = j % Stages;
      bulk::wait(&scanned[s], (j / Stages) & 1);
      const std::int64_t t = buffer_tile[s];
      if (lane == 0 && whole(t)) {
        bulk::store(out + t * tile_items, buffer(s), tile_bytes);
        bulk::wait_read();
      }
      __syncwarp();
    };
    int j = 0;
    for (;; ++j) {
      const int s = j % Stages;
      if (pw == 0) {
        if (j >= Stages) store_scanned(j - Stages);
        if (lane == 0) {
          const auto t = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
          issued_tile[s] = t;
          if (t < tiles && whole(t)) {
            bulk::arrive_expect_bytes(&loaded[s], tile_bytes);
            bulk::load(buffer(s), in + t * tile_items, tile_bytes, &loaded[s]);
          } else {
            bulk::arrive(&loaded[s]);
          }
        }
      }
      bulk::wait(&loaded[s], (j / Stages) & 1);
      const std::int64_t t = issued_tile[s];
      if (t < tiles) {
        // The consumers of this buffer's previous use are done with before_row[s] (warp 0
        // waited for it before refilling the buffer; waiting here says so to racecheck too).
        if (pw != 0 && j >= Stages) bulk::wait(&scanned[s], ((j - Stages) / Stages) & 1);
        const std::int64_t begin = t * tile_items;
        if (!whole(t)) {  // the last tile, partial: items past the end are the identity
          T* items = reinterpret_cast<T*>(buffer(s));
          for (std::int64_t i = ptid; i < tile_items; i += 32 * Producers) items[i] = begin + i < n ? in[begin + i] : op.identity();
          sync_named(2, 32 * Producers);
        }
        T local[groups];
        T carry = op.identity();
#pragma unroll
        for (int g = 0; g < groups; ++g) {
          const int i = pw * groups + g;
          const uint4* row = buffer(s) + (i * 32 + lane) * KV;
          T row_total = op.identity();
#pragma unroll
          for (int c = 0; c < KV; ++c) {
            T a[V];
            memcpy(a, &row[c], sizeof(a));
#pragma unroll
            for (int k = 0; k < V; ++k) row_total = op(row_total, a[k]);
          }
          const T inclusive = warp_inclusive_scan(row_total, op);
          const T before_in_warp = shfl_up(inclusive, 1);
          local[g] = lane == 0 ? carry : op(carry, before_in_warp);
          carry = op(carry, shfl_idx(inclusive, 31));
        }
        T offset = op.identity(), aggregate = carry;
        if constexpr (Producers > 1) {
          if (lane == 0) producer_total[s][pw] = carry;
          sync_named(3, 32 * Producers);
          aggregate = op.identity();
#pragma unroll
          for (int q = 0; q < Producers; ++q) {
            const T x = producer_total[s][q];
            if (q < pw) offset = op(offset, x);
            aggregate = op(aggregate, x);
          }
        }
#pragma unroll
        for (int g = 0; g < groups; ++g) before_row[s][(pw * groups + g) * 32 + lane] = op(offset, local[g]);
        if (pw == 0 && lane == 0) {
          buffer_aggregate[s] = aggregate;
          if (tr.levels > 0) tr.level[0].publish(t, aggregate);
        }
      }
      if (pw == 0 && lane == 0) buffer_tile[s] = t;
      bulk::arrive(&ready[s]);  // every producer thread
      if (t >= tiles) break;
    }
    if (pw == 0) {
      for (int k = j - Stages + 1 < 0 ? 0 : j - Stages + 1; k < j; ++k) store_scanned(k);
      if (lane == 0) bulk::wait_all();
    }
    return;
  }

  // The consumers, as in the library's kernel.
  for (int j = 0;; ++j) {
    const int s = j % Stages;
    bulk::wait(&ready[s], (j / Stages) & 1);
    const std::int64_t t = buffer_tile[s];
    if (t >= tiles) break;
    const T aggregate = buffer_aggregate[s];
    T* sums = level_sums[j & 1];
    look_back(tr, t, aggregate, op, backoff, sums, consumer_warps);
    sync_first_threads(Consumers);
    const T tile_prefix = tile_prefix_of(tr, sums, init, op);
    const std::int64_t begin = t * tile_items;
    if (tid == 0 && total && begin + tile_items >= n) *total = op(tile_prefix, aggregate);
    scan_row_in_place<KV, V>(buffer(s) + tid * KV, op(tile_prefix, before_row[s][tid]), exclusive, op);
    if (whole(t)) {
      bulk::fence_proxy_async();
    } else {
      sync_first_threads(Consumers);
      const T* items = reinterpret_cast<const T*>(buffer(s));
      for (std::int64_t i = tid; i < tile_items && begin + i < n; i += Consumers) out[begin + i] = items[i];
    }
    bulk::arrive(&scanned[s]);
  }
}
}  // namespace scankit::cuda::detail::decoupled_lookback

/// The warp-specialized kernel (persistent): B consumers + a producer warp, KV vectors, S stages.
static unsigned g_backoff = 32;

template <int B, int KV, int S, int MinBlocks, int Ahead, class T, int Hint = 0>
void ahead(context<T>& c) {
  using Op = scankit::sum<T>;
  constexpr int V = 16 / sizeof(T);
  const std::int64_t tile_items = std::int64_t{B} * KV * V;
  const std::int64_t tiles = sd::ceil_div(c.n, tile_items);
  if (tiles <= 1 || dl::levels_for(tiles) > B / 32) return;
  auto* kernel = dl::ahead_kernel<B, KV, S, MinBlocks, Ahead, T, Op, Hint>;
  const int smem = S * B * KV * 16;
  dl::allow_shared_bytes(kernel, smem);
  int per_sm = 0, sms = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, B + 32, smem));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if (per_sm == 0) return;
  const std::int64_t grid = std::min<std::int64_t>(tiles, std::int64_t{per_sm} * sms);
  char label[96];
  std::snprintf(label, sizeof label, "ahead%d hint%d b%u %dx%dx%d (%lld tiles, %d/SM)", Ahead, Hint, g_backoff, B, KV, S, static_cast<long long>(tiles),
                per_sm);
  time_row(c, label, [&](sd::arena& a) {
    dl::tree<T> tr;
    unsigned long long* counter = dl::prepare_tree(tr, tiles, a, cudaStream_t{});
    sd::launch_after("specialized", kernel, static_cast<unsigned>(grid), B + 32, smem, cudaStream_t{}, c.in, c.out, c.n,
                     tiles, Op{}, false, T(0), static_cast<T*>(nullptr), tr, counter, g_backoff);
  });
}

/// The prepared multi-producer kernel (producers_kernel above) at one shape.
template <int B, int KV, int S, int MinBlocks, int P, class T>
void producers(context<T>& c) {
  using Op = scankit::sum<T>;
  constexpr int V = 16 / sizeof(T);
  const std::int64_t tile_items = std::int64_t{B} * KV * V;
  const std::int64_t tiles = sd::ceil_div(c.n, tile_items);
  if (tiles <= 1 || dl::levels_for(tiles) > B / 32) return;
  auto* kernel = dl::producers_kernel<B, KV, S, MinBlocks, P, T, Op>;
  const int smem = S * B * KV * 16;
  dl::allow_shared_bytes(kernel, smem);
  int per_sm = 0, sms = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, B + 32 * P, smem));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if (per_sm == 0) return;
  const std::int64_t grid = std::min<std::int64_t>(tiles, std::int64_t{per_sm} * sms);
  char label[96];
  std::snprintf(label, sizeof label, "producers%d %dx%dx%d (%lld tiles, %d/SM)", P, B, KV, S, static_cast<long long>(tiles), per_sm);
  time_row(c, label, [&](sd::arena& a) {
    dl::tree<T> tr;
    unsigned long long* counter = dl::prepare_tree(tr, tiles, a, cudaStream_t{});
    sd::launch_after("producers", kernel, static_cast<unsigned>(grid), B + 32 * P, smem, cudaStream_t{}, c.in, c.out,
                     c.n, tiles, Op{}, false, T(0), static_cast<T*>(nullptr), tr, counter, 32u);
  });
}

static bool round5 = false, round12 = false;

template <class T>
void one_size(std::int64_t n, const char* type) {
  run_size<T>(n, type, [&](context<T>& c) {
    if (round12) {  // prepared in session 18, not run: one, two and four producer warps
      producers<128, 11, 3, 3, 1, T>(c);
      producers<128, 11, 3, 3, 2, T>(c);
      producers<128, 11, 3, 3, 4, T>(c);
      if constexpr (sizeof(T) == 4) producers<256, 9, 3, 2, 2, T>(c);  // (8-byte: 1 block/SM only)
      else producers<256, 13, 2, 2, 4, T>(c);
      producers<128, 11, 3, 3, 2, T>(c);  // again: the drift between rows
      // Only sums are checked here (against CUB): an operand-order slip in the offsets would not
      // show. Before taking a shape into the library, run test_cuda_scan (NonCommutativeAffine)
      // with it and compute-sanitizer racecheck / synccheck at small sizes (a partial tile).
    } else if (round5) {
      ahead<128, 11, 3, 3, 0, T>(c);
      ahead<128, 11, 3, 3, 0, T, 1>(c);
      ahead<128, 11, 3, 3, 0, T, 2>(c);
      for (unsigned b : {0u, 100u, 300u}) {
        g_backoff = b;
        ahead<128, 11, 3, 3, 0, T>(c);
      }
      g_backoff = 32;
      ahead<128, 11, 3, 3, 0, T>(c);
      ahead<128, 11, 3, 3, 0, T, 2>(c);
    } else {
      specialized<128, 11, 3, 3, T>(c);
      ahead<128, 11, 3, 3, 0, T>(c);
      ahead<128, 11, 3, 3, 1, T>(c);
      if constexpr (sizeof(T) == 4) {
        ahead<256, 9, 3, 2, 1, T>(c);
        ahead<128, 9, 3, 3, 1, T>(c);
        ahead<128, 7, 4, 3, 1, T>(c);
      } else {
        ahead<256, 13, 2, 2, 1, T>(c);
        ahead<128, 7, 4, 3, 1, T>(c);
      }
      ahead<128, 11, 3, 3, 1, T>(c);
    }
  });
}

int main(int argc, char** argv) {
  const std::string type = argc > 1 ? argv[1] : "i32";
  const int lo = argc > 2 ? std::atoi(argv[2]) : 24, hi = argc > 3 ? std::atoi(argv[3]) : 30;
  round5 = argc > 4 && std::string(argv[4]) == "round5";
  round12 = argc > 4 && std::string(argv[4]) == "producers";
  cudaDeviceProp p{};
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
  for (int k = lo; k <= hi; ++k) {
    const std::int64_t n = std::int64_t{1} << k;
    if (type == "f64") one_size<double>(n, "double");
    else if (type == "i64") one_size<long long>(n, "int64");
    else if (type == "f32") one_size<float>(n, "float");
    else one_size<int>(n, "int32");
  }
  return 0;
}
