// decoupled-lookback's warp-specialized tile (large inputs, Hopper): producer warps bulk-copy
// tiles into shared memory and total their rows while consumer warps look back and scan.
#pragma once

#include "scankit/cuda/detail/pipeline/bulk_copy.cuh"
#include "scankit/cuda/detail/scan/blocked.cuh"  // scan_row_in_place

namespace scankit::cuda::detail::decoupled_lookback {

using namespace lookback;

/// The warp-specialized tile (large inputs, Hopper). A persistent grid: each block
/// stays resident, owns `Stages` shared-memory buffers of one tile (Consumers threads x KV
/// 16-byte vectors, in memory order) and splits its warps into two roles.
///   - The producer (the block's last warp), for each buffer in turn: waits until the
///     consumers are done with the buffer and stores the tile that was scanned in it with one
///     bulk copy, takes the next tile id, loads that tile with a bulk copy, and as soon as it
///     lands computes the exclusive prefix of each thread row, publishes the tile's aggregate
///     and hands the buffer to the consumers. With `Producers` > 1 warps, the
///     first of them stores, takes the id and loads; every one of them totals its share of the
///     rows, and they combine their totals through shared memory (in warp order, so that a
///     non-commutative operator keeps its order) before the hand-over.
///   - The consumers (warps 0 .. Consumers/32 - 1), for each buffer in the same order: look
///     back for the tile's prefix (decoupled_lookback's radix-32 tree) and scan their rows in
///     place from it.
/// Why: in the one-tile-per-block kernels a block loads nothing while it waits for its
/// predecessors, so the bytes in flight drop. Here the next tiles' copies are under way while
/// the consumers look back, and an aggregate waits only for its data, never for a look-back
/// (publishing it from the consumers instead, after their previous look-back, would chain the
/// tiles).
/// Deadlock freedom: a block works on its tiles in the order it took their ids, so the
/// smallest unfinished id is always the consumers' current tile of some running block, and
/// its look-back needs only smaller ids, which are done.
/// KV is odd, so the eight lanes of a quarter warp reading vector c of their rows (stride KV
/// vectors) hit eight different bank groups without padding, which a bulk copy cannot add.
template <int Consumers, int KV, int Stages, int MinBlocks, int Producers, class T, class Op>
__global__ void __launch_bounds__(Consumers + 32 * Producers, MinBlocks)
    specialized_kernel(const T* in, T* out, std::int64_t n, std::int64_t tiles, Op op, bool exclusive, T init,
                       T* total, const __grid_constant__ tree<T> tr, unsigned long long* tile_counter,
                       unsigned backoff) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  // Compiled for an architecture without bulk copies: never launched (plan_scan takes this
  // tile only where the kernel's code is sm_90 or later), a stub that fails loudly if it were.
  __trap();
#else
  constexpr int V = tile::vector_items<T>();
  constexpr std::int64_t tile_items = std::int64_t{Consumers} * KV * V;
  constexpr unsigned tile_bytes = Consumers * KV * 16;
  constexpr int consumer_warps = Consumers / 32;
  constexpr int groups = consumer_warps / Producers;  // 32-row groups per producer warp
  static_assert(V * sizeof(T) == 16 && KV % 2 == 1 && Consumers % 32 == 0);
  static_assert(Producers >= 1 && consumer_warps % Producers == 0);
  // Stages tiles of Consumers * KV vectors. 128-byte aligned, not just the 16 bytes bulk copies
  // require: the tile runs faster so (docs/TUNING.md).
  extern __shared__ __align__(128) uint4 buffers[];
  // loaded: the bulk copy landed; ready: row prefixes written, aggregate published, tile id set;
  // scanned: every consumer is done with the buffer (its tile scanned in place).
  __shared__ std::uint64_t loaded[Stages], ready[Stages], scanned[Stages];
  __shared__ std::int64_t buffer_tile[Stages];
  __shared__ std::int64_t issued_tile[Producers > 1 ? Stages : 1];  // the id, for producer warps 1..
  __shared__ T before_row[Stages][Consumers];
  __shared__ T buffer_aggregate[Stages];
  __shared__ T producer_total[Stages][Producers];  // each producer warp's rows' total
  __shared__ T level_sums[2][max_levels];  // alternate tiles: one barrier per tile suffices
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
  wait_for_previous_grid();  // the tree's clearing (this kernel follows it as a dependent)
  __syncthreads();

  if (tid >= Consumers) {
    // The producers. Use j of the buffers is buffer j % Stages, phase (j / Stages) & 1.
    // Warp pw totals the rows of consumer warps pw * groups .. (pw + 1) * groups - 1.
    const int pw = Producers == 1 ? 0 : (tid - Consumers) >> 5;
    const int ptid = Producers == 1 ? lane : tid - Consumers;
    auto store_scanned = [&](int j) {  // the tile of use j, once scanned (a partial one is stored by the consumers)
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
      std::int64_t t = 0;
      // One producer has its own loop (id by shuffle, the load issued with the id): faster than
      // the general form below run with one producer (docs/TUNING.md).
      if constexpr (Producers == 1) {
        if (j >= Stages) store_scanned(j - Stages);
        if (lane == 0) t = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
        t = __shfl_sync(0xffffffffu, t, 0);
      } else {
        // Warp 0 stores, takes the id and loads; `loaded` completes once per use (with the
        // bytes of a whole tile, else with a plain arrive) so that every producer warp can
        // wait on it for the id.
        if (pw == 0) {
          if (j >= Stages) store_scanned(j - Stages);
          if (lane == 0) {
            const auto id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
            issued_tile[s] = id;
            if (id < tiles && whole(id)) {
              bulk::arrive_expect_bytes(&loaded[s], tile_bytes);
              bulk::load(buffer(s), in + id * tile_items, tile_bytes, &loaded[s]);
            } else {
              bulk::arrive(&loaded[s]);
            }
          }
        }
        bulk::wait(&loaded[s], (j / Stages) & 1);
        t = issued_tile[s];
        // The consumers of this buffer's previous use are done with before_row[s] (warp 0
        // waited for that before refilling the buffer; waiting here says so to racecheck too).
        if (t < tiles && pw != 0 && j >= Stages) bulk::wait(&scanned[s], ((j - Stages) / Stages) & 1);
      }
      if (t < tiles) {
        const std::int64_t begin = t * tile_items;
        if (whole(t)) {
          if constexpr (Producers == 1) {  // (with more, warp 0 issued the load above)
            if (lane == 0) {
              bulk::arrive_expect_bytes(&loaded[s], tile_bytes);
              bulk::load(buffer(s), in + begin, tile_bytes, &loaded[s]);
            }
            bulk::wait(&loaded[s], (j / Stages) & 1);
          }
        } else {  // the last tile, partial: items past the end are the identity
          T* items = reinterpret_cast<T*>(buffer(s));
          for (std::int64_t i = ptid; i < tile_items; i += 32 * Producers) items[i] = begin + i < n ? in[begin + i] : op.identity();
          if constexpr (Producers == 1) __syncwarp();
          else sync_named(2, 32 * Producers);
        }
        // Row totals (lane l of warp pw takes rows (pw * groups + g) * 32 + l), then the rows'
        // exclusive prefixes in order, 32 rows per warp scan.
        [[maybe_unused]] T local[groups];
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
          const T before = lane == 0 ? carry : op(carry, before_in_warp);
          if constexpr (Producers == 1) before_row[s][i * 32 + lane] = before;
          else local[g] = before;
          carry = op(carry, shfl_idx(inclusive, 31));
        }
        T aggregate = carry;
        if constexpr (Producers > 1) {
          // Each warp's rows start after the totals of the warps before it (combined on the
          // left, so a non-commutative operator keeps its order).
          if (lane == 0) producer_total[s][pw] = carry;
          sync_named(3, 32 * Producers);
          T offset = op.identity();
          aggregate = op.identity();
#pragma unroll
          for (int q = 0; q < Producers; ++q) {
            const T x = producer_total[s][q];
            if (q < pw) offset = op(offset, x);
            aggregate = op(aggregate, x);
          }
#pragma unroll
          for (int g = 0; g < groups; ++g) before_row[s][(pw * groups + g) * 32 + lane] = op(offset, local[g]);
        }
        if (pw == 0 && lane == 0) {
          buffer_aggregate[s] = aggregate;
          if (tr.levels > 0) tr.level[0].publish(t, aggregate);
        }
      }
      // Every producer thread arrives, so that each one's row prefixes are released to the
      // consumers by its own arrive (lane 0 arriving alone would leave nothing but the
      // shuffles to order the other lanes' writes; one arrive per warp after a __syncwarp
      // draws racecheck hazards).
      if (pw == 0 && lane == 0) buffer_tile[s] = t;
      bulk::arrive(&ready[s]);
      if (t >= tiles) break;  // the consumers stop at this use too
    }
    if (pw == 0) {
      for (int k = j - Stages + 1 < 0 ? 0 : j - Stages + 1; k < j; ++k) store_scanned(k);
      if (lane == 0) bulk::wait_all();
    }
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
#endif
}

}  // namespace scankit::cuda::detail::decoupled_lookback
