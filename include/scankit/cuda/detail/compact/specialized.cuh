// The single-pass compaction's warp-specialized tile (Hopper): a producer bulk-loads and counts
// tiles while look-back warps find their prefixes and consumers stage and write them.
#pragma once

#include "scankit/cuda/detail/pipeline/bulk_copy.cuh"
#include "scankit/cuda/detail/compact/tile_common.cuh"

namespace scankit::cuda::detail::compact {

/// The flag selector's word loads, callable (and never called) for every selector.
template <int V, class Sel>
__device__ __forceinline__ bool sel_flag_words_aligned(const Sel& sel) {
  if constexpr (has_flag_words<Sel>) return sel.template words_aligned<V>();
  else return false;
}
template <int V, class Sel>
__device__ __forceinline__ unsigned sel_flag_word(const Sel& sel, std::int64_t i0) {
  if constexpr (has_flag_words<Sel>) return sel.template flag_word<V>(i0);
  else return 0u;
}
template <class M>
__device__ __forceinline__ int popcount(M m) {
  if constexpr (sizeof(M) == 8) return __popcll(m);
  else return __popc(m);
}

/// The warp-specialized tile (Hopper): the scan's specialized_kernel
/// (scan/specialized.cuh) applied to compaction. A persistent grid; each block owns `Stages`
/// shared-memory buffers of one tile (Consumers rows of KV 16-byte vectors, in memory order)
/// and splits its warps into three roles, which take the buffers in the same order, each as
/// soon as the role before it is done with it:
///   - the producer (CountWarps warps after the look-back warps): its first warp takes a tile
///     id and starts loading the tile with one bulk copy as soon as a buffer is free; when a
///     tile lands, each producer warp counts the selected items of its share of the rows and
///     keeps each row's exclusive prefix of those counts; the tile's count goes into the
///     counts tree (counts_tree::publish) and the buffer is handed on ("ready");
///   - two look-back warps, taking alternate tiles, find the number of items selected before
///     the tile (counts_tree::look_back) and hand it on ("prefixed");
///   - the consumers (Consumers threads, one row each) take their row into registers, select,
///     move their selected items to their rank in the tile, in place (a partition's rejected
///     items after all selected ones), and once the tile's prefix is known write the run(s) out
///     with coalesced 16-byte stores; then the buffer is free again ("written").
/// Why: with one tile per block nothing is loaded while a tile waits for its predecessors;
/// here the next tile's load is under way meanwhile, and a tile's count waits only for its
/// data. Deadlock freedom as in the scan: every role handles a block's tiles in the order the
/// block took their ids, and no count waits for a look-back.
/// What limits it: a block's two buffers each go round load, count, look-back and write, so
/// the time a buffer spends there sets the speed: whole tiles are counted without a bounds test
/// and a branch per item, every row unrolled; upper tree entries are completed by atomic adds
/// (the counts tree), so a look-back does not wait for other tiles' look-backs; four counting
/// warps shorten the count.
/// select_flagged: the producer reads each row's flags from global memory (one word per
/// vector where the flags are aligned, L2-prefetched when the tile's load is issued), counts
/// them and leaves the row's mask in shared memory (row_mask) for its consumer, so the flags are
/// read once and only the items go through the buffers (a second buffer of flags would not fit
/// two blocks per SM).
/// Staging in place: every consumer has its row in registers before any of them writes (a
/// barrier), so the permutation needs no second buffer. The last tile, partial, is read from
/// global memory instead (by the producer to count, by the consumers to stage). Each buffer
/// carries 8 spare vectors after the tile: write_run reads one vector past the last staged one.
template <int Consumers, int KV>
constexpr int specialized_buffer_vectors() {
  return Consumers * KV + 8;
}
inline constexpr int specialized_lookback_warps = 2;  // tiles looked back at once per block

template <int Consumers, int KV, int Stages, int MinBlocks, int CountWarps, class Sel>
__global__ void __launch_bounds__(Consumers + 32 * specialized_lookback_warps + 32 * CountWarps, MinBlocks)
    specialized_kernel(const typename Sel::item_type* in, std::int64_t n, std::int64_t tiles, Sel sel,
                       outputs<typename Sel::item_type> out,
                       const __grid_constant__ lookback::tree<count_t> tr,
                       unsigned long long* tile_counter) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  // Compiled for an architecture without bulk copies: never launched (plan_compact takes this
  // tile only where the kernel's code is sm_90 or later), a stub that fails loudly if it were.
  __trap();
#else
  using T = typename Sel::item_type;
  constexpr int V = tile::vector_items<T>();
  constexpr int K = KV * V;  // items per row
  constexpr std::int64_t tile_items = std::int64_t{Consumers} * K;
  constexpr unsigned tile_bytes = Consumers * KV * 16;
  constexpr int consumer_warps = Consumers / 32, LW = specialized_lookback_warps;
  constexpr int producer_first = Consumers + 32 * LW;  // the producer's first thread
  constexpr int groups_per_counter = consumer_warps / CountWarps;  // groups of 32 rows each counting warp counts
  static_assert(V * sizeof(T) == 16 && KV % 2 == 1 && Consumers % 32 == 0 && K <= 64 && Sel::reads_items);
  static_assert(CountWarps >= 1 && consumer_warps % CountWarps == 0);
  using mask_t = std::conditional_t<(K > 32), unsigned long long, unsigned>;
  constexpr bool flags_sel = has_flag_words<Sel>;
  // 128-byte aligned, as the scan's (faster than 16: docs/TUNING.md).
  extern __shared__ __align__(128) uint4 buffers[];
  // loaded: the bulk copy landed; ready: counts and row prefixes written, tile id set;
  // prefixed: the tile's prefix found; written: every consumer is done with the buffer.
  __shared__ std::uint64_t loaded[Stages], ready[Stages], prefixed[Stages], written[Stages];
  __shared__ std::int64_t buffer_tile[Stages], buffer_before[Stages];
  __shared__ int buffer_count[Stages];
  __shared__ int before_row[Stages][Consumers];
  __shared__ T buffer_edge[Stages];  // unique: the item before the tile
  __shared__ int end_use;  // the use at which the producer ran out of tiles
  __shared__ int counter_total[Stages][CountWarps];  // items each counting warp found selected
  __shared__ mask_t row_mask[flags_sel ? Stages : 1][flags_sel ? Consumers : 1];  // select_flagged: each row's selection
  const int tid = threadIdx.x, lane = tid & 31;
  auto buffer = [&](int s) { return buffers + s * specialized_buffer_vectors<Consumers, KV>(); };
  auto valid_of = [&](std::int64_t t) {
    const std::int64_t left = n - t * tile_items;
    return static_cast<int>(left < tile_items ? left : tile_items);
  };
  if (tid == 0) {
    for (int s = 0; s < Stages; ++s) {
      bulk::barrier_init(&loaded[s], 1);
      bulk::barrier_init(&ready[s], 32 * CountWarps);
      bulk::barrier_init(&prefixed[s], 1);
      bulk::barrier_init(&written[s], Consumers);
    }
    bulk::fence_barrier_init();
    end_use = 0x7fffffff;
  }
  wait_for_previous_grid();  // the tree's clearing (this kernel follows it as a dependent)
  __syncthreads();

  if (tid >= producer_first) {
    // The producer: CountWarps warps. Warp 0 also takes the tile ids and issues the loads.
    // Use j of the buffers is buffer j % Stages, phase (j / Stages) & 1.
    const int pw = (tid - producer_first) >> 5;
    __shared__ std::int64_t issued_tile[Stages];
    auto issue = [&](int u) {  // warp 0: takes the tile id of use u and starts loading a whole tile
      const int s = u % Stages;
      // Every lane has read the slot's previous id (without this barrier only the warp's
      // shuffles in between would order those reads before lane 0's write, which racecheck flags).
      __syncwarp();
      if (lane == 0) {
        const auto t = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
        issued_tile[s] = t;
        // `loaded` completes once per use, with the bytes of a whole tile or at once: the
        // other counting warps learn the tile id after waiting on it.
        if (t < tiles && valid_of(t) == tile_items) {
          bulk::arrive_expect_bytes(&loaded[s], tile_bytes);
          bulk::load(buffer(s), in + t * tile_items, tile_bytes, &loaded[s]);
          if constexpr (flags_sel) sel.prefetch_flags(t * tile_items, tile_items);
        } else {
          bulk::arrive(&loaded[s]);
        }
      }
      __syncwarp();
      return issued_tile[s];
    };
    bool more = true;  // the last use issued had a tile (later ones will not)
    if (pw == 0)
      for (int u = 0; u < Stages && more; ++u) more = issue(u) < tiles;
    for (int j = 0;; ++j) {
      const int s = j % Stages;
      bulk::wait(&loaded[s], (j / Stages) & 1);
      const std::int64_t t = issued_tile[s];
      if (t < tiles) {
        const std::int64_t begin = t * tile_items;
        const int valid = valid_of(t);
        const bool full = valid == tile_items;
        T edge{};
        if constexpr (Sel::needs_prev) {
          if (begin > 0) edge = in[begin - 1];
        }
        // Selected items per row (lane l of counting warp p counts rows 32 i + l for the
        // row groups i of the warp), then the rows' exclusive prefixes in order, 32 rows per
        // warp scan. Whole tiles count from shared memory without bounds tests (every tile
        // waits for this count, and a bounds test and a branch per item would lengthen it),
        // all rows unrolled so their loads and scans overlap;
        // the partial tile counts from global memory.
        const T* tile_data = reinterpret_cast<const T*>(buffer(s));
        int c[groups_per_counter];
        [[maybe_unused]] mask_t rm[flags_sel ? groups_per_counter : 1];
        if (flags_sel && full) {
          // The row's flags, not its items: one word per vector where they are aligned.
          const bool words = sel_flag_words_aligned<V>(sel);
#pragma unroll
          for (int g = 0; g < groups_per_counter; ++g) {
            const int row = (pw * groups_per_counter + g) * 32 + lane;
            const std::int64_t first = begin + std::int64_t{row} * K;
            mask_t m = 0;
            if (words) {
#pragma unroll
              for (int v = 0; v < KV; ++v) m |= mask_t{sel_flag_word<V>(sel, first + v * V)} << (v * V);
            } else {
#pragma unroll
              for (int k = 0; k < K; ++k) m |= mask_t{sel(first + k, T{}, T{}) ? 1u : 0u} << k;
            }
            rm[flags_sel ? g : 0] = m;
            c[g] = popcount(m);
          }
        } else if (full) {
#pragma unroll
          for (int g = 0; g < groups_per_counter; ++g) {
            const int row = (pw * groups_per_counter + g) * 32 + lane, first = row * K;
            T prev{};
            if constexpr (Sel::needs_prev) prev = row > 0 ? tile_data[first - 1] : edge;
            c[g] = 0;
#pragma unroll
            for (int v = 0; v < KV; ++v) {
              T a[V];
              memcpy(a, &buffer(s)[row * KV + v], sizeof(a));
#pragma unroll
              for (int k = 0; k < V; ++k) {
                c[g] += sel(begin + first + v * V + k, a[k], prev) ? 1 : 0;
                if constexpr (Sel::needs_prev) prev = a[k];
              }
            }
          }
        } else {
#pragma unroll 1
          for (int g = 0; g < groups_per_counter; ++g) {
            const int row = (pw * groups_per_counter + g) * 32 + lane, first = row * K;
            T prev = edge;
            if constexpr (Sel::needs_prev) {
              if (row > 0 && first - 1 < valid) prev = in[begin + first - 1];
            }
            int count = 0;
            [[maybe_unused]] mask_t m = 0;
            for (int k = 0; k < K && first + k < valid; ++k) {
              const T x = in[begin + first + k];
              const bool picked = sel(begin + first + k, x, prev);
              count += picked ? 1 : 0;
              if constexpr (flags_sel) m |= mask_t{picked ? 1u : 0u} << k;
              if constexpr (Sel::needs_prev) prev = x;
            }
            c[g] = count;
            if constexpr (flags_sel) rm[g] = m;
          }
        }
        int carry = 0;
#pragma unroll
        for (int g = 0; g < groups_per_counter; ++g) {
          const int inclusive = warp_inclusive_scan(c[g], sum<int>{});
          c[g] = carry + inclusive - c[g];  // now the row's exclusive prefix within the warp's rows
          carry += shfl_idx(inclusive, 31);
        }
        int offset = 0, total = carry;
        if constexpr (CountWarps > 1) {
          if (lane == 0) counter_total[s][pw] = carry;
          sync_named(2, CountWarps * 32);
          total = 0;
#pragma unroll
          for (int q = 0; q < CountWarps; ++q) {
            const int x = counter_total[s][q];
            offset += q < pw ? x : 0;
            total += x;
          }
        }
        // The consumers of this buffer's previous use have read its row prefixes (they arrived on
        // `written` before warp 0 refilled the buffer; waiting here says so to racecheck too).
        if (j >= Stages) bulk::wait(&written[s], ((j - Stages) / Stages) & 1);
#pragma unroll
        for (int g = 0; g < groups_per_counter; ++g) before_row[s][(pw * groups_per_counter + g) * 32 + lane] = offset + c[g];
        if constexpr (flags_sel) {
#pragma unroll
          for (int g = 0; g < groups_per_counter; ++g) row_mask[s][(pw * groups_per_counter + g) * 32 + lane] = rm[g];
        }
        if (lane == 0 && pw == 0) {
          buffer_count[s] = total;
          if constexpr (Sel::needs_prev) buffer_edge[s] = edge;
          counts_tree::publish(tr, t, static_cast<count_t>(total));  // (tiles >= 2: the tree has a level 0)
        }
      }
      if (lane == 0 && pw == 0) {
        buffer_tile[s] = t;
        if (t >= tiles) atomicExch(&end_use, j);
      }
      // Every producer thread releases its own writes (before_row; lane 0 of warp 0 also the
      // tile's id and count): with one arrive per warp after a __syncwarp, racecheck reports
      // the consumers' reads of before_row as hazards.
      bulk::arrive(&ready[s]);
      if (t >= tiles) return;  // the other roles stop at this use too
      // Warp 0 refills the buffer of the use before this one once its consumers are done with it.
      if (pw == 0 && j >= 1 && more) {
        const int u = j - 1 + Stages;
        bulk::wait(&written[u % Stages], ((j - 1) / Stages) & 1);
        more = issue(u) < tiles;
      }
    }
  }

  if (tid >= Consumers) {
    // The look-back warps: warp w takes uses w, w + LW, ..., one tile each, all levels at
    // once, so LW look-backs can be in flight. A warp whose next use lies past the last one
    // (end_use, set by the producer) stops there.
    const int w = (tid - Consumers) >> 5;
    for (int j = w;; j += LW) {
      const int s = j % Stages;
      while (!bulk::test(&ready[s], (j / Stages) & 1)) {
        if (atomicAdd(&end_use, 0) < j) return;  // (atomics: the producer may be writing it)
        __nanosleep(32);
      }
      const std::int64_t t = buffer_tile[s];
      if (t >= tiles) return;
      const std::int64_t before = counts_tree::look_back(tr, t);
      if (lane == 0) {
        buffer_before[s] = before;
        bulk::arrive(&prefixed[s]);
      }
    }
  }

  // The consumers.
  const bool partition = out.mode != layout::select;
  for (int j = 0;; ++j) {
    const int s = j % Stages;
    bulk::wait(&ready[s], (j / Stages) & 1);
    const std::int64_t t = buffer_tile[s];
    if (t >= tiles) break;
    const std::int64_t begin = t * tile_items;
    const int valid = valid_of(t), selected = buffer_count[s], first = tid * K;
    const bool full = valid == tile_items;
    T* items = reinterpret_cast<T*>(buffer(s));

    // The row, and which of its items are selected.
    T x[K];
    T prev{};
    if (full) {
#pragma unroll
      for (int v = 0; v < KV; ++v) memcpy(&x[v * V], &buffer(s)[tid * KV + v], 16);
      if constexpr (Sel::needs_prev) prev = tid == 0 ? buffer_edge[s] : items[first - 1];
    } else {
#pragma unroll
      for (int k = 0; k < K; ++k) x[k] = first + k < valid ? in[begin + first + k] : T{};
      if constexpr (Sel::needs_prev) prev = tid == 0 ? buffer_edge[s] : (first - 1 < valid ? in[begin + first - 1] : T{});
    }
    mask_t m = 0;
    if constexpr (flags_sel) {
      m = row_mask[s][tid];  // the producer's reading of the row's flags
    } else {
#pragma unroll
      for (int k = 0; k < K; ++k) {
        if ((full || first + k < valid) && sel(begin + first + k, x[k], k == 0 ? prev : x[k > 0 ? k - 1 : 0]))
          m |= mask_t{1} << k;
      }
    }
    sync_first_threads(Consumers);  // every row is in registers: the buffer is free to stage in

    // Stage in output order, in place: selected items at their rank in the tile; for a
    // partition the rejected ones after all selected, at selected + (rejected before them).
    int rank = before_row[s][tid];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if ((m >> k) & 1u) items[rank++] = x[k];
      else if (partition && first + k < valid) items[selected + (first + k - rank)] = x[k];
    }
    sync_first_threads(Consumers);

    // Once the prefix is known, write out, as the segmented tile: selected items to
    // [before, before + selected); a partition's rejected ones after all selected items
    // (reversed: from the end down).
    bulk::wait(&prefixed[s], (j / Stages) & 1);
    const std::int64_t before = buffer_before[s];
    if (tid == 0 && out.count && begin + valid == n) *out.count = before + selected;
    write_run<V>(out.items, before, selected, items, 0, false, tid, Consumers);
    if (partition) {
      const std::int64_t rejected_before = begin - before;
      const int rejected = valid - selected;
      if (out.mode == layout::partition_reversed)
        write_run<V>(out.items, n - rejected_before - rejected, rejected, items, selected + rejected - 1, true, tid,
                     Consumers);
      else
        write_run<V>(out.items, *out.selected_total + rejected_before, rejected, items, selected, false, tid, Consumers);
    }
    // The producer's next bulk copy into this buffer must follow these threads' writes to it.
    bulk::fence_proxy_async();
    bulk::arrive(&written[s]);
  }
#endif
}

}  // namespace scankit::cuda::detail::compact
