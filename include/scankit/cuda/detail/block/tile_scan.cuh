// Tile-level building blocks shared by the scans (reduce-then-scan, decoupled-lookback) and the
// single-pass compaction: loading a tile with 16-byte vector accesses, scanning it across the
// block, and storing it.
//
// Tile layout. A tile is R sub-tiles; sub-tile r is a contiguous run of blockDim.x * V items,
// and thread t owns the V consecutive items at offset t * V of every sub-tile. So each load
// and store instruction of a warp touches one contiguous 512-byte span (perfectly coalesced),
// and every thread still owns runs of consecutive items that it scans in registers. In memory
// order the tile is: sub-tile r (major), then thread, then item within the vector.
#pragma once

#include <cstring>

#include "scankit/cuda/detail/common.cuh"

namespace scankit::cuda::detail::tile {

/// Items in one 16-byte vector access of T (1 when T does not divide 16 bytes).
template <class T>
constexpr int vector_items() {
  return (sizeof(T) <= 16 && 16 % sizeof(T) == 0) ? static_cast<int>(16 / sizeof(T)) : 1;
}

/// True when both pointers allow 16-byte vector accesses.
inline bool vector_aligned(const void* a, const void* b) {
  return (reinterpret_cast<std::uintptr_t>(a) % 16 == 0) &&
         (reinterpret_cast<std::uintptr_t>(b) % 16 == 0);
}

/// Runs f.template operator()<V, Vec>() with T's 16-byte vector path when T has one and both
/// pointers are 16-byte aligned, else with the one-item path (V = 1).
template <class T, class F>
void dispatch_vector_path(const void* in, const void* out, F&& f) {
  constexpr int V = vector_items<T>();
  if constexpr (V > 1) {
    if (vector_aligned(in, out)) {
      f.template operator()<V, true>();
      return;
    }
  }
  f.template operator()<1, false>();
}

/// Loads the tile starting at `begin` with `valid` items (fewer in the last tile). Items past
/// the end become the identity, so they change nothing when combined. A partial tile is read
/// item by item, or with PartialVectors by whole vectors where they lie inside it and item by
/// item only in the vector that straddles its end: the one-launch path, whose only tile is
/// usually partial, and the striped look-back kernel: in launches of a few tiles the partial one
/// is on the critical path. reduce-then-scan and the compaction's
/// single-pass kernel keep the item loop.
template <int R, int V, bool Vec, bool PartialVectors = false, class T>
__device__ __forceinline__ void load(const T* in, std::int64_t begin, std::int64_t valid,
                                     T (&x)[R][V], T identity) {
  const std::int64_t t = threadIdx.x, B = blockDim.x;
  if (Vec && valid == R * B * V) {
    static_assert(!Vec || V * sizeof(T) == 16, "vector path needs 16-byte vectors");
#pragma unroll
    for (int r = 0; r < R; ++r) {
      // Streaming load (evict-first): each input byte is read exactly once.
      uint4 w = __ldcs(reinterpret_cast<const uint4*>(in + begin + (r * B + t) * V));
      memcpy(&x[r][0], &w, sizeof(w));
    }
  } else {
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const std::int64_t first = (r * B + t) * V;
      if constexpr (Vec && PartialVectors) {
        if (first + V <= valid) {
          uint4 w = __ldcs(reinterpret_cast<const uint4*>(in + begin + first));
          memcpy(&x[r][0], &w, sizeof(w));
          continue;
        }
      }
#pragma unroll
      for (int j = 0; j < V; ++j) x[r][j] = first + j < valid ? in[begin + first + j] : identity;
    }
  }
}

/// Stores the tile (the inverse of load; items past `valid` are not written).
template <int R, int V, bool Vec, bool PartialVectors = false, class T>
__device__ __forceinline__ void store(T* out, std::int64_t begin, std::int64_t valid,
                                      const T (&y)[R][V]) {
  const std::int64_t t = threadIdx.x, B = blockDim.x;
  if (Vec && valid == R * B * V) {
#pragma unroll
    for (int r = 0; r < R; ++r) {
      uint4 w;
      memcpy(&w, &y[r][0], sizeof(w));
      __stcs(reinterpret_cast<uint4*>(out + begin + (r * B + t) * V), w);
    }
  } else {
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const std::int64_t first = (r * B + t) * V;
      if constexpr (Vec && PartialVectors) {
        if (first + V <= valid) {
          uint4 w;
          memcpy(&w, &y[r][0], sizeof(w));
          __stcs(reinterpret_cast<uint4*>(out + begin + first), w);
          continue;
        }
      }
#pragma unroll
      for (int j = 0; j < V; ++j)
        if (first + j < valid) out[begin + first + j] = y[r][j];
    }
  }
}

/// Shared memory the block scan needs: one total per (sub-tile, warp).
template <class T, int R>
struct scan_storage {
  T warp_totals[R * 32];
};

/// Scans the tile held in registers. On return x[r][j] holds the inclusive scan of the thread's
/// vector r, prefix[r] the combination of every tile item before that vector (identity for
/// the first), and the result is the tile's aggregate (in every thread). One __syncthreads.
/// The caller must __syncthreads() before reusing `smem`.
template <int R, int V, class T, class Op>
__device__ __forceinline__ T scan_tile(T (&x)[R][V], T (&prefix)[R], Op op,
                                       scan_storage<T, R>& smem) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  // 1. Each thread scans its own vectors in registers.
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int j = 1; j < V; ++j) x[r][j] = op(x[r][j - 1], x[r][j]);
  // 2. Each warp scans the vector totals of its 32 threads, one sub-tile at a time.
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const T inclusive = warp_inclusive_scan(x[r][V - 1], op);
    const T before = shfl_up(inclusive, 1);
    prefix[r] = lane == 0 ? op.identity() : before;
    if (lane == 31) smem.warp_totals[r * warps + warp] = inclusive;
  }
  __syncthreads();
  // 3. Every warp scans the R * warps warp totals (in memory order: sub-tile, then warp) on its
  //    own, 32 at a time, and picks out the prefixes of its own entries. Doing it redundantly
  //    in every warp costs a few shuffles and saves a second barrier.
  const int entries = R * warps;
  T carry = op.identity();
#pragma unroll
  for (int c = 0; c < R; ++c) {
    if (c * 32 < entries) {
      const int e = c * 32 + lane;
      const T v = e < entries ? smem.warp_totals[e] : op.identity();
      const T inclusive = warp_inclusive_scan(v, op);
      const T shifted = shfl_up(inclusive, 1);  // every lane must take part in a shuffle
      const T exclusive_in_chunk = lane == 0 ? op.identity() : shifted;
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const int mine = r * warps + warp;  // warp-uniform
        if (mine / 32 == c) prefix[r] = op(op(carry, shfl_idx(exclusive_in_chunk, mine % 32)), prefix[r]);
      }
      carry = op(carry, shfl_idx(inclusive, 31));
    }
  }
  return carry;
}

/// Slot of entry i in the raking buffer: one spare slot after every 32 entries, so a warp
/// reading 32 runs of RT consecutive entries (stride RT) spreads over the banks.
__device__ __forceinline__ int raking_slot(int i) { return i + (i >> 5); }

/// Entries of T the raking buffer needs for RT totals per thread and `block` threads.
constexpr std::size_t raking_entries(int rt, int block) {
  const int n = rt * block;
  return static_cast<std::size_t>(n + n / 32 + 1);
}

/// Exclusive scan across the block of one value per thread, in thread order: returns the
/// combination of the values of every thread before this one (the identity for thread 0), and
/// leaves the combination of all of them in `aggregate` (every thread). One warp scan, the warp
/// totals through `warp_sums` (32 entries) and one barrier; every warp then scans the warp
/// totals on its own (lane w holds warp w's): a few shuffles, where a loop over the warps cost
/// a load, a compare and two operator calls per warp. The caller must __syncthreads() before
/// reusing `warp_sums`.
template <class T, class Op>
__device__ __forceinline__ T block_exclusive_scan(T value, Op op, T* warp_sums, T& aggregate) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  const T inclusive = warp_inclusive_scan(value, op);
  const T before_in_warp = shfl_up(inclusive, 1);  // every lane takes part in the shuffles
  if (lane == 31) warp_sums[warp] = inclusive;
  __syncthreads();
  const T of_warp = lane < warps ? warp_sums[lane] : op.identity();
  const T upto_warp = warp_inclusive_scan(of_warp, op);
  const T shifted = shfl_up(upto_warp, 1);
  aggregate = shfl_idx(upto_warp, warps - 1);
  const T before = shfl_idx(lane == 0 ? op.identity() : shifted, warp);
  return lane == 0 ? before : op(before, before_in_warp);
}

/// The block scan of scan_tile, by raking through shared memory instead of one warp scan per
/// vector. total[r] is the thread's total of its vector r (sub-tile r); on return prefix[r] is
/// the combination of every tile item before that vector, and the result is the tile's
/// aggregate (in every thread).
///   1. every thread writes its RT totals where they lie in the tile's memory order (sub-tile
///      major: entry r * B + t);
///   2. thread t combines the RT consecutive entries t * RT ... (a "raking" run), the runs are
///      scanned with one warp scan and the per-warp totals;
///   3. each thread writes the exclusive prefixes of its run back over it, and reads the
///      prefixes of its own vectors.
/// Against scan_tile's RT warp scans (RT x 5 shuffle steps, the bulk of the kernel's
/// instructions) this costs 4 x RT shared-memory accesses, 2 x RT operator calls, one warp scan and three
/// barriers. The order of the operands is kept, so any monoid works. `buf` holds
/// raking_entries(RT, blockDim.x) entries, `warp_sums` 32; the caller must __syncthreads()
/// before reusing either.
template <int RT, class T, class Op>
__device__ __forceinline__ T raking_scan_tile(const T (&total)[RT], T (&prefix)[RT], Op op, T* buf,
                                              T* warp_sums) {
  const int tid = threadIdx.x, B = blockDim.x;
#pragma unroll
  for (int r = 0; r < RT; ++r) buf[raking_slot(r * B + tid)] = total[r];
  __syncthreads();
  T run[RT];
#pragma unroll
  for (int k = 0; k < RT; ++k) run[k] = buf[raking_slot(tid * RT + k)];
  T sum_of_run = run[0];
#pragma unroll
  for (int k = 1; k < RT; ++k) sum_of_run = op(sum_of_run, run[k]);
  T aggregate;
  T p = block_exclusive_scan(sum_of_run, op, warp_sums, aggregate);
#pragma unroll
  for (int k = 0; k < RT; ++k) {
    buf[raking_slot(tid * RT + k)] = p;
    p = op(p, run[k]);
  }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < RT; ++r) prefix[r] = buf[raking_slot(r * B + tid)];
  return aggregate;
}

/// Produces the final items: y = op(tile_prefix, prefix[r], x[r][j]) (inclusive) or the same
/// shifted by one (exclusive), in place in x.
template <int R, int V, class T, class Op>
__device__ __forceinline__ void finish(T (&x)[R][V], const T (&prefix)[R], T tile_prefix,
                                       bool exclusive, Op op) {
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const T p = op(tile_prefix, prefix[r]);
    if (exclusive) {
#pragma unroll
      for (int j = V - 1; j > 0; --j) x[r][j] = op(p, x[r][j - 1]);
      x[r][0] = p;
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j) x[r][j] = op(p, x[r][j]);
    }
  }
}

/// One block scans a whole (short) array tile after tile, carrying the running total in
/// registers: the small-input path (one launch, no tile status) and the top level of
/// reduce-then-scan.
template <int R, int V, bool Vec, class T, class Op>
__global__ void __launch_bounds__(1024)
    single_block_scan_kernel(const T* in, T* out, std::int64_t n, Op op, bool exclusive, T init,
                             T* total) {
  __shared__ scan_storage<T, R> smem;
  const std::int64_t tile_items = static_cast<std::int64_t>(R) * blockDim.x * V;
  T carry = init;
  for (std::int64_t begin = 0; begin < n; begin += tile_items) {
    const std::int64_t valid = n - begin < tile_items ? n - begin : tile_items;
    T x[R][V], prefix[R];
    load<R, V, Vec, true>(in, begin, valid, x, op.identity());
    const T aggregate = scan_tile(x, prefix, op, smem);
    finish(x, prefix, carry, exclusive, op);
    store<R, V, Vec, true>(out, begin, valid, x);
    carry = op(carry, aggregate);
    __syncthreads();  // smem is reused by the next tile
  }
  if (total && threadIdx.x == 0) *total = carry;
}

}  // namespace scankit::cuda::detail::tile
