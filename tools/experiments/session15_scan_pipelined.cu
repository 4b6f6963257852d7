// Session 15 experiment (not part of the library build): a persistent look-back scan whose
// blocks keep the next tiles' loads in flight while they look back.
//
// Why. The blocked kernel (decoupled_lookback.cuh) runs at 87% of the copy at 2^28 int32; the
// same kernel without its look-back runs at ~97%. While a block waits for its predecessors,
// its slot on the SM loads nothing, so the bytes in flight drop. Here each block stays
// resident (one block per slot) and owns STAGES shared-memory tile buffers. Thread 0 takes a
// tile id from the atomic counter and starts a bulk copy (TMA, cp.async.bulk) of that tile
// into a free buffer as soon as the buffer is free, so while the block scans and looks back
// on tile j, the copies of its next STAGES-1 tiles are already under way.
//
// Deadlock freedom. A block works on its tiles in the order it took their ids. The smallest
// unfinished tile id is therefore the *current* tile of some running block (a block that holds
// it as a queued tile would have a smaller unfinished current tile), and its look-back only
// needs tiles with smaller ids, which are done. So the scan progresses however blocks are
// scheduled, as with one tile per block.
//
// The tile is blocked: thread t owns items t*K .. t*K+K-1 of the tile (K = KV vectors). The
// bulk copy lands the tile in shared memory in memory order, unpadded, so an odd KV keeps the
// eight lanes of a quarter warp on eight different bank groups when they read vector c of
// their rows (16 * KV * l mod 128 differs for l = 0..7 when KV is odd).
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -Iinclude \
//        tools/experiments/session15_scan_pipelined.cu -o session15_scan_pipelined
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "experiment_common.cuh"
#include "scankit/cuda/detail/decoupled_lookback.cuh"
#include "scankit/ops.hpp"

namespace dl = scankit::cuda::detail::decoupled_lookback;
namespace tile = scankit::cuda::detail::tile;
using scankit::cuda::detail::ceil_div;

// ---------------------------------------------------------------------------------------
// Bulk copies and mbarriers (PTX).

__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(unsigned long long* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void fence_mbar_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void mbar_expect_tx(unsigned long long* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned long long* bar, unsigned parity) {
  unsigned done = 0;
  while (!done) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(smem_addr(bar)), "r"(parity)
        : "memory");
  }
}
__device__ __forceinline__ void bulk_load(void* dst, const void* src, unsigned bytes, unsigned long long* bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
          smem_addr(dst)),
      "l"(src), "r"(bytes), "r"(smem_addr(bar))
      : "memory");
}
__device__ __forceinline__ void bulk_store(void* dst, const void* src, unsigned bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(smem_addr(src)),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
__device__ __forceinline__ void bulk_wait_read_all() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
__device__ __forceinline__ void bulk_wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

struct knobs {
  bool tma_store = false;  // the scanned tile leaves by bulk copy (thread 0), else warp __stcs stores
  bool lookback = true;    // false: no look-back, prefix = identity (wrong output; a bound)
  bool compute = true;     // false: the tile is copied through unchanged (a TMA copy kernel)
  int chunks = 4;          // bulk copies per tile load
};

/// One tile of B threads x KV vectors, STAGES buffers per block, persistent.
template <int B, int KV, int STAGES, int MinBlocks, knobs Kn, class T, class Op>
__global__ void __launch_bounds__(B, MinBlocks)
    pipelined_kernel(const T* in, T* out, std::int64_t n, std::int64_t tiles, Op op, T init,
                     const __grid_constant__ dl::tree<T> tr, unsigned long long* tile_counter,
                     unsigned backoff, unsigned first_delay) {
  constexpr int V = 16 / sizeof(T);
  constexpr int K = KV * V;
  constexpr std::int64_t tile_items = std::int64_t{B} * K;
  constexpr unsigned tile_bytes = B * KV * 16;
  static_assert(KV % 2 == 1, "rows of an odd number of vectors keep a quarter warp conflict-free");
  static_assert(tile_bytes % (16 * Kn.chunks) == 0, "chunks of whole vectors");
  extern __shared__ uint4 stages[];  // STAGES tiles of B * KV vectors, memory order
  __shared__ alignas(8) unsigned long long full[STAGES];
  __shared__ std::int64_t stage_tile[STAGES];
  __shared__ T warp_totals[32];
  __shared__ T level_sums[dl::max_levels];
  const int tid = threadIdx.x;

  // Thread 0: take a tile id for buffer s and start its copy (a partial last tile is loaded
  // by the whole block when it comes up).
  auto refill = [&](int s) {
    const std::int64_t t = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
    stage_tile[s] = t;
    if (t < tiles && (t + 1) * tile_items <= n) {
      mbar_expect_tx(&full[s], tile_bytes);
      constexpr unsigned chunk = tile_bytes / Kn.chunks;
      char* dst = reinterpret_cast<char*>(stages + s * B * KV);
      const char* src = reinterpret_cast<const char*>(in + t * tile_items);
#pragma unroll
      for (int c = 0; c < Kn.chunks; ++c) bulk_load(dst + c * chunk, src + c * chunk, chunk, &full[s]);
    }
  };
  if (tid == 0) {
    for (int s = 0; s < STAGES; ++s) mbar_init(&full[s], 1);
    fence_mbar_init();
    for (int s = 0; s < STAGES; ++s) refill(s);
  }
  __syncthreads();

  for (int j = 0;; ++j) {
    const int s = j % STAGES;
    const unsigned parity = (j / STAGES) & 1;
    const std::int64_t t = stage_tile[s];
    if (t >= tiles) break;
    const std::int64_t begin = t * tile_items;
    const bool whole = begin + tile_items <= n;
    uint4* buf = stages + s * B * KV;
    uint4* row = buf + tid * KV;
    if (whole) {
      mbar_wait(&full[s], parity);
    } else {
      T* items = reinterpret_cast<T*>(buf);
      for (std::int64_t i = tid; i < tile_items; i += B) items[i] = begin + i < n ? in[begin + i] : op.identity();
      __syncthreads();
    }

    if constexpr (Kn.compute) {
      // Row totals; the block scan of the rows; publish the aggregate.
      T row_total = op.identity();
#pragma unroll
      for (int c = 0; c < KV; ++c) {
        T a[V];
        memcpy(a, &row[c], sizeof(a));
#pragma unroll
        for (int k = 0; k < V; ++k) row_total = op(row_total, a[k]);
      }
      T aggregate;
      const T before_row = tile::block_exclusive_scan(row_total, op, warp_totals, aggregate);
      T tile_prefix = init;
      if constexpr (Kn.lookback) {
        if (tid == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);
        if (first_delay != 0 && (tid >> 5) < tr.levels) __nanosleep(first_delay);
        dl::look_back(tr, t, aggregate, op, backoff, level_sums);
        __syncthreads();
        tile_prefix = dl::tile_prefix_of(tr, level_sums, init, op);
      }
      // Scan the row from its prefix, in place.
      T running = op(tile_prefix, before_row);
#pragma unroll
      for (int c = 0; c < KV; ++c) {
        T a[V];
        memcpy(a, &row[c], sizeof(a));
#pragma unroll
        for (int k = 0; k < V; ++k) {
          running = op(running, a[k]);
          a[k] = running;
        }
        memcpy(&row[c], a, sizeof(a));
      }
    }

    // Store the tile and refill the buffer.
    if (whole) {
      if constexpr (Kn.tma_store) {
        fence_proxy_async();  // this thread's shared-memory writes, seen by the bulk copy
        __syncthreads();
        if (tid == 0) {
          bulk_store(out + begin, buf, tile_bytes);
          bulk_commit();
          bulk_wait_read_all();  // the buffer is read; it may be refilled
          refill(s);
        }
      } else {
        __syncthreads();
        uint4* dst = reinterpret_cast<uint4*>(out + begin);
#pragma unroll
        for (int c = 0; c < KV; ++c) __stcs(dst + c * B + tid, buf[c * B + tid]);
        __syncthreads();
        if (tid == 0) {
          fence_proxy_async();
          refill(s);
        }
      }
    } else {
      __syncthreads();
      const T* items = reinterpret_cast<const T*>(buf);
      for (std::int64_t i = tid; i < tile_items && begin + i < n; i += B) out[begin + i] = items[i];
      __syncthreads();
      if (tid == 0) refill(s);
    }
    // Nobody reads stage_tile[s] again before the barriers of the next iterations.
  }
  if constexpr (Kn.tma_store) {
    if (tid == 0) bulk_wait_all();
  }
}

/// Round 2: the same buffers, but the block publishes tile j+1's aggregate *before* it looks
/// back for tile j. Round 1 showed the plain order chaining: a tile's aggregate waited for its
/// block's previous look-back, which waited for other blocks' aggregates, and so on (40-60% of
/// the copy). Here an aggregate waits only for its data and for the look-back of the tile two
/// back in the same block.
template <int B, int KV, int STAGES, int MinBlocks, class T, class Op>
__global__ void __launch_bounds__(B, MinBlocks)
    ahead_kernel(const T* in, T* out, std::int64_t n, std::int64_t tiles, Op op, T init,
                 const __grid_constant__ dl::tree<T> tr, unsigned long long* tile_counter, unsigned backoff,
                 unsigned first_delay) {
  constexpr int V = 16 / sizeof(T);
  constexpr int K = KV * V;
  constexpr std::int64_t tile_items = std::int64_t{B} * K;
  constexpr unsigned tile_bytes = B * KV * 16;
  static_assert(KV % 2 == 1 && STAGES >= 2);
  extern __shared__ uint4 stages[];
  __shared__ alignas(8) unsigned long long full[STAGES];
  __shared__ std::int64_t stage_tile[STAGES];
  __shared__ T warp_totals[32];
  __shared__ T level_sums[dl::max_levels];
  const int tid = threadIdx.x;
  auto refill = [&](int s) {
    const std::int64_t t = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
    stage_tile[s] = t;
    if (t < tiles && (t + 1) * tile_items <= n) {
      mbar_expect_tx(&full[s], tile_bytes);
      constexpr unsigned chunk = tile_bytes / 4;
      char* dst = reinterpret_cast<char*>(stages + s * B * KV);
      const char* src = reinterpret_cast<const char*>(in + t * tile_items);
#pragma unroll
      for (int c = 0; c < 4; ++c) bulk_load(dst + c * chunk, src + c * chunk, chunk, &full[s]);
    }
  };
  // Step A of tile t in buffer s (the j-th use of the buffers): wait for the data, row totals,
  // block scan, publish the aggregate.
  auto step_a = [&](int j, std::int64_t t, T& before_row, T& aggregate) {
    const int s = j % STAGES;
    uint4* buf = stages + s * B * KV;
    const std::int64_t begin = t * tile_items;
    if (begin + tile_items <= n) {
      mbar_wait(&full[s], (j / STAGES) & 1);
    } else {
      T* items = reinterpret_cast<T*>(buf);
      for (std::int64_t i = tid; i < tile_items; i += B) items[i] = begin + i < n ? in[begin + i] : op.identity();
      __syncthreads();
    }
    const uint4* row = buf + tid * KV;
    T row_total = op.identity();
#pragma unroll
    for (int c = 0; c < KV; ++c) {
      T a[V];
      memcpy(a, &row[c], sizeof(a));
#pragma unroll
      for (int k = 0; k < V; ++k) row_total = op(row_total, a[k]);
    }
    before_row = tile::block_exclusive_scan(row_total, op, warp_totals, aggregate);
    if (tid == 0 && tr.levels > 0) tr.level[0].publish(t, aggregate);
  };
  if (tid == 0) {
    for (int s = 0; s < STAGES; ++s) mbar_init(&full[s], 1);
    fence_mbar_init();
    for (int s = 0; s < STAGES; ++s) refill(s);
  }
  __syncthreads();
  std::int64_t t = stage_tile[0];
  if (t >= tiles) return;
  T before_row, aggregate;
  step_a(0, t, before_row, aggregate);
  for (int j = 0;; ++j) {
    const int s = j % STAGES;
    const std::int64_t t_next = stage_tile[(j + 1) % STAGES];
    T before_next = op.identity(), aggregate_next = op.identity();
    if (t_next < tiles) step_a(j + 1, t_next, before_next, aggregate_next);
    // Step B of tile t: look back, scan the row from its prefix, store, refill the buffer.
    dl::look_back(tr, t, aggregate, op, backoff, level_sums);
    __syncthreads();
    const T tile_prefix = dl::tile_prefix_of(tr, level_sums, init, op);
    uint4* buf = stages + s * B * KV;
    uint4* row = buf + tid * KV;
    T running = op(tile_prefix, before_row);
#pragma unroll
    for (int c = 0; c < KV; ++c) {
      T a[V];
      memcpy(a, &row[c], sizeof(a));
#pragma unroll
      for (int k = 0; k < V; ++k) {
        running = op(running, a[k]);
        a[k] = running;
      }
      memcpy(&row[c], a, sizeof(a));
    }
    const std::int64_t begin = t * tile_items;
    if (begin + tile_items <= n) {
      fence_proxy_async();
      __syncthreads();
      if (tid == 0) {
        bulk_store(out + begin, buf, tile_bytes);
        bulk_commit();
        bulk_wait_read_all();
        refill(s);
      }
    } else {
      __syncthreads();
      const T* items = reinterpret_cast<const T*>(buf);
      for (std::int64_t i = tid; i < tile_items && begin + i < n; i += B) out[begin + i] = items[i];
      __syncthreads();
      if (tid == 0) refill(s);
    }
    if (t_next >= tiles) break;
    if constexpr (STAGES == 2) __syncthreads();  // stage_tile[s], just refilled, is read next
    t = t_next;
    before_row = before_next;
    aggregate = aggregate_next;
  }
  if (tid == 0) bulk_wait_all();
}

__device__ __forceinline__ void mbar_arrive(unsigned long long* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
}
__device__ __forceinline__ void consumers_sync(int threads) {
  asm volatile("bar.sync 1, %0;" ::"r"(threads) : "memory");
}

/// Round 3: warp specialization. Warp B/32 (the producer) takes tile ids, starts their bulk
/// copies as buffers free up, and as each tile lands computes its row prefixes and publishes
/// its aggregate at once. Warps 0..B/32-1 (the consumers) look back, scan their rows and store
/// the tiles in order. An aggregate now waits only for its data, never for a look-back.
/// Round 5 knobs of specialized_kernel.
struct spec_knobs {
  bool producer_stores = true;  // the producer warp issues a tile's bulk store when it needs the buffer
  bool storer = false;          // a third role, one more warp: issues each store as soon as the tile is scanned
  bool early_id = false;        // the producer takes its next tile id while the current tile loads
  int chunks = 4;               // bulk copies per tile load
};

template <int B, int KV, int STAGES, int MinBlocks, spec_knobs Kn, class T, class Op>
__global__ void __launch_bounds__(B + (Kn.storer ? 64 : 32), MinBlocks)
    specialized_kernel(const T* in, T* out, std::int64_t n, std::int64_t tiles, Op op, T init,
                       const __grid_constant__ dl::tree<T> tr, unsigned long long* tile_counter, unsigned backoff) {
  constexpr bool ProducerStores = Kn.producer_stores && !Kn.storer;
  constexpr int V = 16 / sizeof(T);
  constexpr int K = KV * V;
  constexpr std::int64_t tile_items = std::int64_t{B} * K;
  constexpr unsigned tile_bytes = B * KV * 16;
  constexpr int ROWS_PER_LANE = B / 32;
  static_assert(KV % 2 == 1 && B % 32 == 0);
  extern __shared__ uint4 stages[];
  // full: the bulk copy landed; ready: row prefixes written, aggregate published;
  // empty: the consumers are done with the buffer (scanned in place, unless they store it);
  // freed (storer): the buffer's store has read it.
  __shared__ alignas(8) unsigned long long full[STAGES], ready[STAGES], empty[STAGES], freed[STAGES];
  __shared__ std::int64_t stage_tile[STAGES];
  __shared__ T before_row[STAGES][B];
  __shared__ T level_sums[2][dl::max_levels];
  const int tid = threadIdx.x, lane = tid & 31;
  if (tid == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbar_init(&full[s], 1);
      mbar_init(&ready[s], 1);
      mbar_init(&empty[s], (ProducerStores || Kn.storer) ? B : 1);
      mbar_init(&freed[s], 1);
    }
    fence_mbar_init();
  }
  __syncthreads();

  if (Kn.storer && tid >= B + 32) {
    for (int j = 0;; ++j) {
      const int s = j % STAGES;
      const unsigned parity = (j / STAGES) & 1;
      mbar_wait(&ready[s], parity);
      const std::int64_t t = stage_tile[s];
      if (t >= tiles) break;
      mbar_wait(&empty[s], parity);
      if (lane == 0) {
        if ((t + 1) * tile_items <= n) {
          bulk_store(out + t * tile_items, stages + s * B * KV, tile_bytes);
          bulk_commit();
          bulk_wait_read_all();
        }
        mbar_arrive(&freed[s]);
      }
      __syncwarp();
    }
    if (lane == 0) bulk_wait_all();
    return;
  }

  if (tid >= B) {
    // The producer warp. Buffer use j: wait until use j - STAGES of the buffer is done with
    // (ProducerStores: and store that tile), take a tile id, load it, reduce it, publish.
    auto release = [&](int jj) {
      const int s = jj % STAGES;
      const unsigned parity = (jj / STAGES) & 1;
      if constexpr (Kn.storer) {
        mbar_wait(&freed[s], parity);
      } else {
        mbar_wait(&empty[s], parity);
        if constexpr (ProducerStores) {
          const std::int64_t t = stage_tile[s];
          if (lane == 0 && (t + 1) * tile_items <= n) {
            bulk_store(out + t * tile_items, stages + s * B * KV, tile_bytes);
            bulk_commit();
            bulk_wait_read_all();
          }
          __syncwarp();
        }
      }
    };
    std::int64_t next_t = 0;
    if (Kn.early_id && lane == 0) next_t = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
    int j = 0;
    for (;; ++j) {
      const int s = j % STAGES;
      const unsigned parity = (j / STAGES) & 1;
      if (j >= STAGES) release(j - STAGES);
      std::int64_t t = 0;
      if (lane == 0) t = Kn.early_id ? next_t : static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
      t = __shfl_sync(0xffffffffu, t, 0);
      uint4* buf = stages + s * B * KV;
      const std::int64_t begin = t * tile_items;
      if (t < tiles) {
        if (begin + tile_items <= n) {
          if (lane == 0) {
            mbar_expect_tx(&full[s], tile_bytes);
            constexpr unsigned chunk = tile_bytes / Kn.chunks;
            char* dst = reinterpret_cast<char*>(buf);
            const char* src = reinterpret_cast<const char*>(in + begin);
#pragma unroll
            for (int c = 0; c < Kn.chunks; ++c) bulk_load(dst + c * chunk, src + c * chunk, chunk, &full[s]);
          }
          if (Kn.early_id && lane == 0) next_t = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
          mbar_wait(&full[s], parity);
        } else {
          if (Kn.early_id && lane == 0) next_t = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
          T* items = reinterpret_cast<T*>(buf);
          for (std::int64_t i = lane; i < tile_items; i += 32) items[i] = begin + i < n ? in[begin + i] : op.identity();
          __syncwarp();
        }
        T carry = op.identity();
#pragma unroll
        for (int i = 0; i < ROWS_PER_LANE; ++i) {
          const uint4* row = buf + (i * 32 + lane) * KV;
          T total = op.identity();
#pragma unroll
          for (int c = 0; c < KV; ++c) {
            T a[V];
            memcpy(a, &row[c], sizeof(a));
#pragma unroll
            for (int k = 0; k < V; ++k) total = op(total, a[k]);
          }
          const T inclusive = scankit::cuda::detail::warp_inclusive_scan(total, op);
          const T exclusive = scankit::cuda::detail::shfl_up(inclusive, 1);
          before_row[s][i * 32 + lane] = lane == 0 ? carry : op(carry, exclusive);
          carry = op(carry, scankit::cuda::detail::shfl_idx(inclusive, 31));
        }
        if (lane == 0 && tr.levels > 0) tr.level[0].publish(t, carry);
      }
      if (lane == 0) {
        stage_tile[s] = t;
        mbar_arrive(&ready[s]);
      }
      if (t >= tiles) break;
    }
    if constexpr (ProducerStores) {
      for (int jj = std::max(0, j - STAGES + 1); jj < j; ++jj) release(jj);
      if (lane == 0) bulk_wait_all();
    }
    return;
  }

  // The consumers.
  for (int j = 0;; ++j) {
    const int s = j % STAGES;
    mbar_wait(&ready[s], (j / STAGES) & 1);
    const std::int64_t t = stage_tile[s];
    if (t >= tiles) break;
    T aggregate = op.identity();  // look_back needs it only on a run's last tile (level 0 entry t)
    if (tr.levels > 1 && (t & 31) == 31 && tid < 32) aggregate = dl::wait_for(tr.level[0], t, backoff);
    T* sums = level_sums[j & 1];
    dl::look_back(tr, t, aggregate, op, backoff, sums);  // warps < levels (<= 7 consumer warps)
    consumers_sync(B);
    const T tile_prefix = dl::tile_prefix_of(tr, sums, init, op);
    uint4* buf = stages + s * B * KV;
    uint4* row = buf + tid * KV;
    T running = op(tile_prefix, before_row[s][tid]);
#pragma unroll
    for (int c = 0; c < KV; ++c) {
      T a[V];
      memcpy(a, &row[c], sizeof(a));
#pragma unroll
      for (int k = 0; k < V; ++k) {
        running = op(running, a[k]);
        a[k] = running;
      }
      memcpy(&row[c], a, sizeof(a));
    }
    const std::int64_t begin = t * tile_items;
    if (begin + tile_items <= n) {
      fence_proxy_async();
      if constexpr (ProducerStores || Kn.storer) {
        mbar_arrive(&empty[s]);
      } else {
        consumers_sync(B);
        if (tid == 0) {
          bulk_store(out + begin, buf, tile_bytes);
          bulk_commit();
          bulk_wait_read_all();
          mbar_arrive(&empty[s]);
        }
      }
    } else {
      consumers_sync(B);
      const T* items = reinterpret_cast<const T*>(buf);
      for (std::int64_t i = tid; i < tile_items && begin + i < n; i += B) out[begin + i] = items[i];
      if constexpr (ProducerStores || Kn.storer) {
        mbar_arrive(&empty[s]);
      } else {
        consumers_sync(B);
        if (tid == 0) mbar_arrive(&empty[s]);
      }
    }
  }
  if (!ProducerStores && !Kn.storer && tid == 0) bulk_wait_all();
}

// ---------------------------------------------------------------------------------------
// Harness.

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
void report(context<T>& c, const char* label, int regs, int local, int per_sm, float ms, bool check = true) {
  unsigned long long bad = 0;
  if (check) {
    CK(cudaMemset(c.bad, 0, 8));
    count_mismatch<<<1024, 256>>>(c.out, c.ref, c.n, c.bad);
    CK(cudaGetLastError());
    CK(cudaMemcpy(&bad, c.bad, 8, cudaMemcpyDeviceToHost));
  } else {
    CK(cudaMemset(c.bad, 0, 8));
    count_mismatch<<<1024, 256>>>(c.out, c.in, c.n, c.bad);  // a copy: out must equal in
    CK(cudaGetLastError());
    CK(cudaMemcpy(&bad, c.bad, 8, cudaMemcpyDeviceToHost));
  }
  std::printf("  %-44s %3d regs %4d B local %d/SM %9.4f ms  %5.1f%% of copy  %5.3fx CUB  %s\n", label, regs, local,
              per_sm, ms, 100.0 * c.copy_ms / ms, c.cub_ms / ms, bad ? "WRONG" : "ok");
  std::fflush(stdout);
}

template <int B, int KV, int STAGES, int MinBlocks, knobs Kn, class T, class Op>
void run_pipelined(context<T>& c, const char* label, int reps, unsigned first_delay = 0, unsigned backoff = 32) {
  Op op;
  constexpr int V = 16 / sizeof(T);
  const std::int64_t tile_items = std::int64_t{B} * KV * V;
  const std::int64_t tiles = ceil_div(c.n, tile_items);
  dl::tree<T> tr;
  unsigned long long* counter;
  const std::size_t bytes = make_tree(c, tiles, tr, counter);
  const int smem = STAGES * B * KV * 16;
  auto kern = pipelined_kernel<B, KV, STAGES, MinBlocks, Kn, T, Op>;
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0, sms = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, B, smem));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::int64_t grid = std::min<std::int64_t>(tiles, std::int64_t{per_sm} * sms);
  cudaFuncAttributes fa{};
  CK(cudaFuncGetAttributes(&fa, kern));
  CK(cudaMemset(c.out, 0, c.n * sizeof(T)));
  const float ms = c.tm.median_ms(
      [&] {
        CK(cudaMemsetAsync(c.ws, 0, bytes));
        kern<<<static_cast<unsigned>(grid), B, smem>>>(c.in, c.out, c.n, tiles, op, op.identity(), tr, counter,
                                                        backoff, first_delay);
        CK(cudaGetLastError());
      },
      reps);
  CK(cudaDeviceSynchronize());
  char full[128];
  std::snprintf(full, sizeof full, "%s %dx%dx%d%s%s d%u", label, B, KV, STAGES, Kn.tma_store ? " tmaST" : "",
                Kn.lookback ? "" : " NOLB", first_delay);
  report(c, full, fa.numRegs, static_cast<int>(fa.localSizeBytes), per_sm, ms, Kn.compute);
}


template <int B, int KV, int STAGES, int MinBlocks, class T, class Op>
void run_ahead(context<T>& c, const char* label, int reps, unsigned backoff = 32) {
  Op op;
  constexpr int V = 16 / sizeof(T);
  const std::int64_t tile_items = std::int64_t{B} * KV * V;
  const std::int64_t tiles = ceil_div(c.n, tile_items);
  dl::tree<T> tr;
  unsigned long long* counter;
  const std::size_t bytes = make_tree(c, tiles, tr, counter);
  const int smem = STAGES * B * KV * 16;
  auto kern = ahead_kernel<B, KV, STAGES, MinBlocks, T, Op>;
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0, sms = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, B, smem));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::int64_t grid = std::min<std::int64_t>(tiles, std::int64_t{per_sm} * sms);
  cudaFuncAttributes fa{};
  CK(cudaFuncGetAttributes(&fa, kern));
  CK(cudaMemset(c.out, 0, c.n * sizeof(T)));
  const float ms = c.tm.median_ms(
      [&] {
        CK(cudaMemsetAsync(c.ws, 0, bytes));
        kern<<<static_cast<unsigned>(grid), B, smem>>>(c.in, c.out, c.n, tiles, op, op.identity(), tr, counter,
                                                        backoff, 0);
        CK(cudaGetLastError());
      },
      reps);
  CK(cudaDeviceSynchronize());
  char full[128];
  std::snprintf(full, sizeof full, "%s %dx%dx%d b%u", label, B, KV, STAGES, backoff);
  report(c, full, fa.numRegs, static_cast<int>(fa.localSizeBytes), per_sm, ms);
}

template <int B, int KV, int STAGES, int MinBlocks, spec_knobs PS, class T, class Op>
void run_specialized(context<T>& c, const char* label, int reps, unsigned backoff = 32) {
  Op op;
  constexpr int V = 16 / sizeof(T);
  const std::int64_t tile_items = std::int64_t{B} * KV * V;
  const std::int64_t tiles = ceil_div(c.n, tile_items);
  dl::tree<T> tr;
  unsigned long long* counter;
  const std::size_t bytes = make_tree(c, tiles, tr, counter);
  const int smem = STAGES * B * KV * 16;
  auto kern = specialized_kernel<B, KV, STAGES, MinBlocks, PS, T, Op>;
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0, sms = 0;
  constexpr int threads = B + (PS.storer ? 64 : 32);
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, threads, smem));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::int64_t grid = std::min<std::int64_t>(tiles, std::int64_t{per_sm} * sms);
  cudaFuncAttributes fa{};
  CK(cudaFuncGetAttributes(&fa, kern));
  CK(cudaMemset(c.out, 0, c.n * sizeof(T)));
  const float ms = c.tm.median_ms(
      [&] {
        CK(cudaMemsetAsync(c.ws, 0, bytes));
        kern<<<static_cast<unsigned>(grid), threads, smem>>>(c.in, c.out, c.n, tiles, op, op.identity(), tr, counter,
                                                             backoff);
        CK(cudaGetLastError());
      },
      reps);
  CK(cudaDeviceSynchronize());
  char full[128];
  std::snprintf(full, sizeof full, "%s %dx%dx%d%s b%u", label, B, KV, STAGES, PS.storer ? " storer" : PS.producer_stores ? " pST" : "", backoff);
  if (PS.early_id) std::strcat(full, " early-id");
  if (PS.chunks != 4) std::snprintf(full + std::strlen(full), 16, " chunks%d", PS.chunks);
  report(c, full, fa.numRegs, static_cast<int>(fa.localSizeBytes), per_sm, ms);
}

/// The library's specialized_kernel launched here: plainly (after a memset of the tree), or as
/// the library launches it (a programmatic dependent of clear_kernel).
template <int B, int KV, int STAGES, int MinBlocks, class T, class Op>
void run_library_kernel(context<T>& c, bool pdl, int reps) {
  Op op;
  constexpr int V = 16 / sizeof(T);
  const std::int64_t tile_items = std::int64_t{B} * KV * V;
  const std::int64_t tiles = ceil_div(c.n, tile_items);
  dl::tree<T> tr;
  unsigned long long* counter;
  const std::size_t bytes = make_tree(c, tiles, tr, counter);
  const int smem = STAGES * B * KV * 16;
  auto kern = dl::specialized_kernel<B, KV, STAGES, MinBlocks, 1, T, Op>;  // one producer warp
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0, sms = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, B + 32, smem));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::int64_t grid = std::min<std::int64_t>(tiles, std::int64_t{per_sm} * sms);
  cudaFuncAttributes fa{};
  CK(cudaFuncGetAttributes(&fa, kern));
  CK(cudaMemset(c.out, 0, c.n * sizeof(T)));
  const float ms = c.tm.median_ms(
      [&] {
        if (pdl) {
          scankit::cuda::detail::clear_async(c.ws, bytes, cudaStream_t{});
          scankit::cuda::detail::launch_after("specialized", kern, static_cast<unsigned>(grid), B + 32, smem,
                                              cudaStream_t{}, c.in, c.out, c.n, tiles, op, false, op.identity(),
                                              static_cast<T*>(nullptr), tr, counter, 32u);
        } else {
          CK(cudaMemsetAsync(c.ws, 0, bytes));
          kern<<<static_cast<unsigned>(grid), B + 32, smem>>>(c.in, c.out, c.n, tiles, op, false, op.identity(),
                                                               nullptr, tr, counter, 32u);
          CK(cudaGetLastError());
        }
      },
      reps);
  CK(cudaDeviceSynchronize());
  char full[128];
  std::snprintf(full, sizeof full, "library kernel %dx%dx%d %s", B, KV, STAGES, pdl ? "PDL" : "plain");
  report(c, full, fa.numRegs, static_cast<int>(fa.localSizeBytes), per_sm, ms);
}

template <class T, class Op>
void run_library(context<T>& c, int reps) {
  Op op;
  scankit::cuda::detail::arena ws(c.ws, 64 << 20);
  CK(cudaMemset(c.out, 0, c.n * sizeof(T)));
  const float ms = c.tm.median_ms(
      [&] {
        scankit::cuda::detail::arena a(c.ws, 64 << 20);
        dl::run(c.in, c.out, c.n, op, scankit::scan_kind::inclusive, op.identity(), static_cast<T*>(nullptr), a,
                256, cudaStream_t{});
      },
      reps);
  CK(cudaDeviceSynchronize());
  report(c, "library (dl::run)", 0, 0, 0, ms);
}

template <class T, class F>
void with_context(std::int64_t n, const char* type, F body) {
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
  CK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, c.in, c.ref, n));
  CK(cudaMalloc(&cub_ws, cub_bytes));
  c.cub_ms = c.tm.median_ms([&] { CK(cub::DeviceScan::InclusiveSum(cub_ws, cub_bytes, c.in, c.ref, n)); }, reps);
  std::printf("\nn = %lld (2^%.2f) %s sum: copy %.4f ms, CUB %.4f ms (%.1f%% of copy)\n", static_cast<long long>(n),
              std::log2(double(n)), type, c.copy_ms, c.cub_ms, 100.0 * c.copy_ms / c.cub_ms);
  body(c, reps);
  CK(cudaFree(cub_ws));
  CK(cudaFree(c.in));
  CK(cudaFree(c.out));
  CK(cudaFree(c.ref));
  CK(cudaFree(c.ws));
  CK(cudaFree(c.bad));
  CK(cudaFree(c.tm.flush));
  c.tm.flush = nullptr;
}

constexpr spec_knobs ps1{.chunks = 1}, ps2{.chunks = 2}, ps8{.chunks = 8}, ct{.producer_stores = false}, ps{}, st{.storer = true}, ps_early{.early_id = true},
    st_early{.storer = true, .early_id = true};
constexpr knobs warp_st{}, tma_st{.tma_store = true}, nolb{.tma_store = true, .lookback = false},
    tma_copy{.tma_store = true, .lookback = false, .compute = false};

template <class T>
void round1(context<T>& c, int reps) {
  using Op = scankit::sum<T>;
  run_library<T, Op>(c, reps);
  run_pipelined<256, 11, 2, 2, tma_copy, T, Op>(c, "copy only", reps);
  run_pipelined<256, 11, 2, 2, warp_st, T, Op>(c, "pipe", reps);
  run_pipelined<256, 11, 2, 2, tma_st, T, Op>(c, "pipe", reps);
  run_pipelined<256, 11, 2, 2, nolb, T, Op>(c, "pipe", reps);
  run_pipelined<256, 13, 2, 2, warp_st, T, Op>(c, "pipe", reps);
  run_pipelined<256, 13, 2, 2, tma_st, T, Op>(c, "pipe", reps);
  run_pipelined<256, 7, 3, 2, warp_st, T, Op>(c, "pipe", reps);
  run_pipelined<256, 7, 3, 2, tma_st, T, Op>(c, "pipe", reps);
  run_pipelined<256, 9, 3, 2, tma_st, T, Op>(c, "pipe", reps);
  run_pipelined<128, 11, 3, 3, tma_st, T, Op>(c, "pipe", reps);
  run_pipelined<512, 11, 2, 1, tma_st, T, Op>(c, "pipe", reps);
  run_pipelined<256, 11, 2, 2, tma_st, T, Op>(c, "pipe", reps, 1000);
  run_library<T, Op>(c, reps);
}

template <class T>
void round2(context<T>& c, int reps) {
  using Op = scankit::sum<T>;
  run_library<T, Op>(c, reps);
  run_ahead<256, 11, 2, 2, T, Op>(c, "ahead", reps);
  run_ahead<256, 7, 3, 2, T, Op>(c, "ahead", reps);
  run_ahead<256, 9, 3, 2, T, Op>(c, "ahead", reps);
  run_ahead<256, 5, 4, 2, T, Op>(c, "ahead", reps);
  run_ahead<128, 9, 3, 4, T, Op>(c, "ahead", reps);
  run_ahead<512, 7, 3, 1, T, Op>(c, "ahead", reps);
  run_ahead<512, 9, 3, 1, T, Op>(c, "ahead", reps);
  run_ahead<256, 9, 3, 2, T, Op>(c, "ahead", reps, 100);
  run_library<T, Op>(c, reps);
}

template <class T>
void round3(context<T>& c, int reps) {
  using Op = scankit::sum<T>;
  run_library<T, Op>(c, reps);
  run_specialized<256, 11, 2, 2, ct, T, Op>(c, "spec", reps);
  run_specialized<256, 9, 3, 2, ct, T, Op>(c, "spec", reps);
  run_specialized<256, 7, 4, 2, ct, T, Op>(c, "spec", reps);
  run_specialized<256, 5, 5, 2, ct, T, Op>(c, "spec", reps);
  run_specialized<256, 13, 2, 2, ct, T, Op>(c, "spec", reps);
  run_specialized<512, 7, 3, 1, ct, T, Op>(c, "spec", reps);
  run_specialized<512, 5, 4, 1, ct, T, Op>(c, "spec", reps);
  run_specialized<128, 7, 4, 4, ct, T, Op>(c, "spec", reps);
  run_specialized<128, 9, 3, 4, ct, T, Op>(c, "spec", reps);
  run_library<T, Op>(c, reps);
}

template <class T>
void round4(context<T>& c, int reps) {
  using Op = scankit::sum<T>;
  run_library<T, Op>(c, reps);
  if constexpr (sizeof(T) == 4) {
    run_specialized<256, 9, 3, 2, ct, T, Op>(c, "spec", reps);
    run_specialized<256, 9, 3, 2, ps, T, Op>(c, "spec", reps);
    run_specialized<256, 7, 3, 2, ps, T, Op>(c, "spec", reps);
    run_specialized<192, 11, 3, 2, ps, T, Op>(c, "spec", reps);
    run_specialized<128, 9, 3, 4, ps, T, Op>(c, "spec", reps);
    run_specialized<128, 11, 3, 3, ps, T, Op>(c, "spec", reps);
    run_specialized<256, 13, 2, 2, ps, T, Op>(c, "spec", reps);
    run_specialized<256, 9, 3, 2, ps, T, Op>(c, "spec", reps, 100);
  } else {
    run_specialized<256, 13, 2, 2, ct, T, Op>(c, "spec", reps);
    run_specialized<256, 13, 2, 2, ps, T, Op>(c, "spec", reps);
    run_specialized<256, 11, 2, 2, ps, T, Op>(c, "spec", reps);
    run_specialized<256, 7, 3, 2, ps, T, Op>(c, "spec", reps);
    run_specialized<192, 11, 3, 2, ps, T, Op>(c, "spec", reps);
    run_specialized<128, 11, 3, 3, ps, T, Op>(c, "spec", reps);
    run_specialized<128, 13, 2, 4, ps, T, Op>(c, "spec", reps);
    run_specialized<160, 13, 3, 2, ps, T, Op>(c, "spec", reps);
  }
  run_library<T, Op>(c, reps);
}

template <class T>
void round5(context<T>& c, int reps) {
  using Op = scankit::sum<T>;
  run_library<T, Op>(c, reps);
  if constexpr (sizeof(T) == 4) {
    run_specialized<256, 9, 3, 2, ps, T, Op>(c, "spec", reps);
    run_specialized<256, 9, 3, 2, st, T, Op>(c, "spec", reps);
    run_specialized<256, 9, 3, 2, ps_early, T, Op>(c, "spec", reps);
    run_specialized<256, 9, 3, 2, st_early, T, Op>(c, "spec", reps);
    run_specialized<192, 11, 3, 2, st_early, T, Op>(c, "spec", reps);
    run_specialized<256, 13, 2, 2, st_early, T, Op>(c, "spec", reps);
    run_specialized<256, 7, 4, 2, st_early, T, Op>(c, "spec", reps);
    run_specialized<224, 9, 3, 2, st_early, T, Op>(c, "spec", reps);
    run_specialized<256, 9, 3, 2, ps, T, Op>(c, "spec", reps);
  } else {
    run_specialized<256, 13, 2, 2, ps, T, Op>(c, "spec", reps);
    run_specialized<256, 13, 2, 2, st, T, Op>(c, "spec", reps);
    run_specialized<256, 13, 2, 2, ps_early, T, Op>(c, "spec", reps);
    run_specialized<256, 13, 2, 2, st_early, T, Op>(c, "spec", reps);
    run_specialized<192, 11, 3, 2, st_early, T, Op>(c, "spec", reps);
    run_specialized<160, 13, 3, 2, st_early, T, Op>(c, "spec", reps);
    run_specialized<192, 13, 3, 1, st_early, T, Op>(c, "spec", reps);
    run_specialized<256, 15, 2, 1, st_early, T, Op>(c, "spec", reps);
    run_specialized<256, 13, 2, 2, ps, T, Op>(c, "spec", reps);
  }
  run_library<T, Op>(c, reps);
}

template <class T>
void round7(context<T>& c, int reps) {
  using Op = scankit::sum<T>;
  run_library<T, Op>(c, reps);
  if constexpr (sizeof(T) == 4) {
    run_specialized<256, 9, 3, 2, ps, T, Op>(c, "spec", reps);
    run_specialized<256, 9, 3, 2, ps1, T, Op>(c, "spec", reps);
    run_specialized<256, 9, 3, 2, ps2, T, Op>(c, "spec", reps);
    run_specialized<256, 9, 3, 2, ps8, T, Op>(c, "spec", reps);
  } else {
    run_specialized<192, 11, 3, 2, ps, T, Op>(c, "spec", reps);
    run_specialized<192, 11, 3, 2, ps1, T, Op>(c, "spec", reps);
    run_specialized<192, 11, 3, 2, ps8, T, Op>(c, "spec", reps);
  }
  run_library<T, Op>(c, reps);
}

template <class T>
void round8(context<T>& c, int reps) {
  using Op = scankit::sum<T>;
  run_library<T, Op>(c, reps);
  if constexpr (sizeof(T) == 4) {
    run_specialized<256, 9, 3, 2, ps, T, Op>(c, "spec", reps);
    run_library_kernel<256, 9, 3, 2, T, Op>(c, false, reps);
    run_library_kernel<256, 9, 3, 2, T, Op>(c, true, reps);
  } else {
    run_specialized<192, 11, 3, 2, ps, T, Op>(c, "spec", reps);
    run_library_kernel<192, 11, 3, 2, T, Op>(c, false, reps);
    run_library_kernel<192, 11, 3, 2, T, Op>(c, true, reps);
  }
  run_library<T, Op>(c, reps);
}

// Round 11: shapes of the library's kernel (128-byte aligned buffers; earlier rounds' buffers
// sat wherever the static shared memory ended, which moved between builds).
template <class T>
void round11(context<T>& c, int reps) {
  using Op = scankit::sum<T>;
  run_library<T, Op>(c, reps);
  run_library_kernel<256, 9, 3, 2, T, Op>(c, true, reps);
  run_library_kernel<192, 11, 3, 2, T, Op>(c, true, reps);
  run_library_kernel<256, 13, 2, 2, T, Op>(c, true, reps);
  run_library_kernel<160, 13, 3, 2, T, Op>(c, true, reps);
  run_library_kernel<224, 9, 3, 2, T, Op>(c, true, reps);
  run_library_kernel<128, 13, 3, 2, T, Op>(c, true, reps);
  run_library_kernel<128, 11, 4, 2, T, Op>(c, true, reps);
  run_library_kernel<96, 13, 3, 3, T, Op>(c, true, reps);
  run_library_kernel<256, 11, 2, 2, T, Op>(c, true, reps);
  run_library<T, Op>(c, reps);
}

int main(int argc, char** argv) {
  const std::string only = argc > 1 ? argv[1] : "all";
  auto want = [&](const char* k) { return only == "all" || only == k; };
  using i64 = long long;
  if (want("quick")) {
    // Correctness on awkward sizes: partial last tiles, one tile, few tiles.
    for (std::int64_t n : {std::int64_t{11264} * 3 + 5, std::int64_t{1000003}, std::int64_t{11264}, std::int64_t{777}})
      with_context<int>(n, "int32", [](auto& c, int r) { round1<int>(c, r); });
  }
  if (want("quick2")) {
    for (std::int64_t n : {std::int64_t{9216} * 7 + 5, std::int64_t{1000003}, std::int64_t{9216}, std::int64_t{777}})
      with_context<int>(n, "int32", [](auto& c, int r) { round2<int>(c, r); });
    with_context<long long>(1000003, "int64", [](auto& c, int r) { round2<long long>(c, r); });
  }
  if (want("r2")) {
    for (int lg : {28, 30, 24})
      with_context<int>(std::int64_t{1} << lg, "int32", [](auto& c, int r) { round2<int>(c, r); });
    for (int lg : {28, 24})
      with_context<i64>(std::int64_t{1} << lg, "int64", [](auto& c, int r) { round2<i64>(c, r); });
  }
  if (want("quick3")) {
    for (std::int64_t n : {std::int64_t{9216} * 7 + 5, std::int64_t{1000003}, std::int64_t{9216}, std::int64_t{777}})
      with_context<int>(n, "int32", [](auto& c, int r) { round3<int>(c, r); });
    with_context<long long>(1000003, "int64", [](auto& c, int r) { round3<long long>(c, r); });
  }
  if (want("r3")) {
    for (int lg : {28, 30, 24, 22})
      with_context<int>(std::int64_t{1} << lg, "int32", [](auto& c, int r) { round3<int>(c, r); });
    for (int lg : {28, 24})
      with_context<i64>(std::int64_t{1} << lg, "int64", [](auto& c, int r) { round3<i64>(c, r); });
  }
  if (want("quick4")) {
    for (std::int64_t n : {std::int64_t{9216} * 7 + 5, std::int64_t{1000003}, std::int64_t{9216}, std::int64_t{777}})
      with_context<int>(n, "int32", [](auto& c, int r) { round4<int>(c, r); });
    with_context<long long>(1000003, "int64", [](auto& c, int r) { round4<long long>(c, r); });
  }
  if (want("r4")) {
    for (int lg : {28, 30, 26, 24})
      with_context<int>(std::int64_t{1} << lg, "int32", [](auto& c, int r) { round4<int>(c, r); });
    for (int lg : {28, 27, 24})
      with_context<i64>(std::int64_t{1} << lg, "int64", [](auto& c, int r) { round4<i64>(c, r); });
  }
  if (want("quick5")) {
    for (std::int64_t n : {std::int64_t{9216} * 7 + 5, std::int64_t{1000003}, std::int64_t{9216}, std::int64_t{777}})
      with_context<int>(n, "int32", [](auto& c, int r) { round5<int>(c, r); });
    with_context<long long>(1000003, "int64", [](auto& c, int r) { round5<long long>(c, r); });
  }
  if (want("r5")) {
    for (int lg : {28, 30, 28, 26, 24})
      with_context<int>(std::int64_t{1} << lg, "int32", [](auto& c, int r) { round5<int>(c, r); });
    for (int lg : {28, 27, 28, 24})
      with_context<i64>(std::int64_t{1} << lg, "int64", [](auto& c, int r) { round5<i64>(c, r); });
  }
  if (want("r7")) {
    for (int lg : {28, 30, 24})
      with_context<int>(std::int64_t{1} << lg, "int32", [](auto& c, int r) { round7<int>(c, r); });
    for (int lg : {28, 24})
      with_context<i64>(std::int64_t{1} << lg, "int64", [](auto& c, int r) { round7<i64>(c, r); });
  }
  if (want("r8")) {
    for (int lg : {28, 24})
      with_context<int>(std::int64_t{1} << lg, "int32", [](auto& c, int r) { round8<int>(c, r); });
    with_context<i64>(std::int64_t{1} << 28, "int64", [](auto& c, int r) { round8<i64>(c, r); });
    with_context<float>(std::int64_t{1} << 28, "float", [](auto& c, int r) { round8<float>(c, r); });
  }
  if (want("r11")) {
    for (int lg : {28, 30})
      with_context<int>(std::int64_t{1} << lg, "int32", [](auto& c, int r) { round11<int>(c, r); });
    for (int lg : {28, 27, 24})
      with_context<i64>(std::int64_t{1} << lg, "int64", [](auto& c, int r) { round11<i64>(c, r); });
  }
  if (want("r1")) {
    for (int lg : {28, 30, 24, 22})
      with_context<int>(std::int64_t{1} << lg, "int32", [](auto& c, int r) { round1<int>(c, r); });
    for (int lg : {28, 24, 21})
      with_context<i64>(std::int64_t{1} << lg, "int64", [](auto& c, int r) { round1<i64>(c, r); });
  }
  return 0;
}
