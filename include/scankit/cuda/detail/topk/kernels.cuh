// The grid-wide radix select of one array's top-k (detail/topk/launch.cuh drives it).
//
// Every key becomes a rank (its ordered bits, complemented for the k largest), so the winners
// are the k smallest (rank, position) pairs. A select finds the k-th pair one digit at a time,
// from the top of the rank to the bottom of the position: each pass counts the digits of the
// keys that still match the prefix found so far, and the grid's last block picks the digit
// whose count reaches k. It stops early once one digit's keys are exactly the ones still
// wanted. The source of a pass is the input, a strided sample of it, or the candidate buffer
// that a pass fills once the matching keys fit in it; all of that is decided on the device, so
// a call never waits for the host.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "scankit/cuda/detail/error.cuh"
#include "scankit/cuda/detail/topk/tuning.hpp"
#include "scankit/cuda/detail/warp/scan.cuh"
#include "scankit/sort_traits.hpp"

namespace scankit::cuda::detail::topk {

using u64 = unsigned long long;

/// The device state of one select.
struct select_state {
  u64 count;         // keys in the candidate buffer (counted on past its capacity)
  u64 k_rem;         // winners still to find among the keys that match the prefix
  u64 prefix_rank, mask_rank;  // the k-th pair's rank and position bits found so far
  u64 prefix_pos, mask_pos;
  u64 written;       // winners the collect has written
  unsigned done;     // the keys matching the prefix are exactly the k_rem wanted
  unsigned use_candidates;  // the source is the candidate buffer
  unsigned compact;  // this pass also copies the matching keys to the candidate buffer
  unsigned tickets;  // blocks of the current pass that have finished
};

/// One digit: `bits` bits at `shift` of the rank (field 0) or of the position (field 1).
struct digit {
  int field, shift, bits;
};

/// A key's rank: its ordered bits, complemented when the largest keys win (the sorts' rank of a
/// descending sort over every bit).
template <class K>
__device__ __forceinline__ u64 rank_of(K x, bool largest) {
  return static_cast<u64>(scankit::detail::sort_rank_bits(x, 0, static_cast<int>(sizeof(K) * 8), largest));
}

__device__ __forceinline__ bool matches(u64 r, u64 p, const select_state& s) {
  return (r & s.mask_rank) == s.prefix_rank && (p & s.mask_pos) == s.prefix_pos;
}

/// Among the k best once the select is over: at or below the prefix in (rank, position) order.
__device__ __forceinline__ bool wins(u64 r, u64 p, const select_state& s) {
  const u64 rm = r & s.mask_rank;
  return rm < s.prefix_rank || (rm == s.prefix_rank && (p & s.mask_pos) <= s.prefix_pos);
}

/// A slot for each lane whose `take` is set, from one atomic per warp (all 32 lanes call it).
__device__ __forceinline__ u64 warp_slot(u64* counter, bool take) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned m = __ballot_sync(0xffffffffu, take);
  u64 base = 0;
  if (lane == 0 && m) base = atomicAdd(counter, static_cast<u64>(__popc(m)));
  base = __shfl_sync(0xffffffffu, base, 0);
  return base + static_cast<u64>(__popc(m & ((1u << lane) - 1u)));
}

/// Where the keys of a pass come from.
template <class K>
struct source {
  const K* in;
  std::int64_t n;       // keys of the input (or of the sample)
  std::int64_t group;   // sample: runs of `group` keys every `stride` keys; 0: the input itself
  std::int64_t stride;
  const u64* cand_rank;
  const u64* cand_pos;
  bool largest;
};

/// Calls f(rank, position, valid) for every key of the source, each warp 32 x Unroll keys at
/// a time, every lane the same number of times (so f may use warp-wide votes).
template <int Unroll, class K, class F>
__device__ __forceinline__ void for_each_key(const source<K>& src, bool candidates, std::int64_t count, F&& f) {
  const std::int64_t lane = threadIdx.x & 31, warp = (blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x) >> 5;
  const std::int64_t warps = (std::int64_t{gridDim.x} * blockDim.x) >> 5;
  constexpr std::int64_t step = 32 * Unroll;
  for (std::int64_t base = warp * step; base < count; base += warps * step) {
    u64 r[Unroll], p[Unroll];
    bool v[Unroll];
#pragma unroll
    for (int j = 0; j < Unroll; ++j) {
      const std::int64_t i = base + j * 32 + lane;
      v[j] = i < count;
      r[j] = 0, p[j] = 0;
      if (v[j]) {
        if (candidates) {
          r[j] = src.cand_rank[i], p[j] = src.cand_pos[i];
        } else {
          const std::int64_t pos = src.group ? (i / src.group) * src.stride + i % src.group : i;
          r[j] = rank_of(src.in[pos], src.largest), p[j] = static_cast<u64>(pos);
        }
      }
    }
#pragma unroll
    for (int j = 0; j < Unroll; ++j) f(r[j], p[j], v[j]);
  }
}

/// Exclusive sum over the block of one value per thread (blockDim.x a multiple of 32, <= 1024).
__device__ __forceinline__ u64 block_exclusive_sum(u64 v, u64* warp_sums) {
  const unsigned lane = threadIdx.x & 31u, w = threadIdx.x >> 5, warps = blockDim.x >> 5;
  u64 x = v;
#pragma unroll
  for (unsigned d = 1; d < 32; d <<= 1) {
    const u64 o = __shfl_up_sync(0xffffffffu, x, d);
    if (lane >= d) x += o;
  }
  if (lane == 31) warp_sums[w] = x;
  __syncthreads();
  if (w == 0) {
    u64 t = lane < warps ? warp_sums[lane] : 0;
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1) {
      const u64 o = __shfl_up_sync(0xffffffffu, t, d);
      if (lane >= d) t += o;
    }
    if (lane < warps) warp_sums[lane] = t - (lane < warps ? warp_sums[lane] : 0);
  }
  __syncthreads();
  const u64 r = warp_sums[w] + x - v;
  __syncthreads();
  return r;
}

/// One digit pass of a select: counts the digit of every key matching the prefix (copying those
/// keys to the candidate buffer, and the keys that beat them to the winners, when the state
/// says so); the grid's last block then picks the
/// digit that holds the k_rem-th key, updates the state and clears the counts for the next pass.
template <class K, int Bits, int Unroll>
__global__ void __launch_bounds__(pass_threads) select_pass(source<K> src, select_state* st, u64* hist, digit dg,
                                                   std::int64_t capacity, u64* cand_rank, u64* cand_pos,
                                                   std::int64_t k, u64* w_rank, u64* w_pos) {
  constexpr int bins = 1 << Bits;
  __shared__ unsigned h[bins];
  __shared__ u64 warp_sums[32];
  __shared__ bool last;
  const select_state s = *st;
  const unsigned dmask = (1u << dg.bits) - 1u;
  const std::int64_t count = s.use_candidates ? static_cast<std::int64_t>(s.count) : src.n;
  // A block past the keys (the candidates are often far fewer than the grid reads) only takes
  // its ticket: no counters to clear or add.
  const bool idle = s.done || std::int64_t{blockIdx.x} * blockDim.x * Unroll >= count;
  if (!idle) {
    for (int i = threadIdx.x; i < bins; i += blockDim.x) h[i] = 0;
    __syncthreads();
    const bool compacting = s.compact && !s.use_candidates;
    for_each_key<Unroll>(src, s.use_candidates, count, [&](u64 r, u64 p, bool valid) {
      const bool m = valid && matches(r, p, s);
      if (m) atomicAdd(&h[static_cast<unsigned>(((dg.field ? p : r) >> dg.shift)) & dmask], 1u);
      if (compacting) {
        // The candidates are the keys that match; the keys already known to beat them are
        // winners, written now, since later passes read only the candidates.
        const u64 slot = warp_slot(&st->count, m);
        if (m && slot < static_cast<u64>(capacity)) cand_rank[slot] = r, cand_pos[slot] = p;
        const bool sure = valid && !m && wins(r, p, s);
        const u64 wslot = warp_slot(&st->written, sure);
        if (sure && wslot < static_cast<u64>(k)) w_rank[wslot] = r, w_pos[wslot] = p;
      }
    });
    __syncthreads();
    for (int i = threadIdx.x; i < bins; i += blockDim.x)
      if (h[i]) atomicAdd(&hist[i], static_cast<u64>(h[i]));
  }
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(&st->tickets, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  // ---- the last block: pick the digit, update the state, clear the counts ----
  constexpr int per = (bins + pass_threads - 1) / pass_threads;
  u64 c[per], sum = 0;
#pragma unroll
  for (int j = 0; j < per; ++j) {
    const int b = threadIdx.x * per + j;
    c[j] = b < bins ? __ldcg(&hist[b]) : 0;
    sum += c[j];
  }
  const u64 below = block_exclusive_sum(sum, warp_sums);
  if (!s.done && below < s.k_rem && s.k_rem <= below + sum) {
    u64 before = below, cnt = 0;
    int b = 0;
    for (int j = 0; j < per; ++j) {
      if (before + c[j] >= s.k_rem) {
        b = threadIdx.x * per + j, cnt = c[j];
        break;
      }
      before += c[j];
    }
    // Only the select's own fields: the counters (count, written) also grow by atomics.
    const u64 k_rem = s.k_rem - before, bits = static_cast<u64>(dmask) << dg.shift;
    st->k_rem = k_rem;
    if (dg.field == 0) st->prefix_rank = s.prefix_rank | static_cast<u64>(b) << dg.shift, st->mask_rank = s.mask_rank | bits;
    else st->prefix_pos = s.prefix_pos | static_cast<u64>(b) << dg.shift, st->mask_pos = s.mask_pos | bits;
    const bool done = cnt == k_rem;
    st->done = done;
    // A pass that copied the matching keys leaves the next ones to read them; otherwise the
    // next pass copies them once they fit.
    if (s.compact && !s.use_candidates) st->use_candidates = 1, st->compact = 0;
    else if (!s.use_candidates) st->compact = cnt <= static_cast<u64>(capacity) && !done;
  }
  __syncthreads();
  for (int i = threadIdx.x; i < bins; i += blockDim.x) hist[i] = 0;
  if (threadIdx.x == 0) st->tickets = 0;
}

/// The sampled path's one read of the input: every key at or below the sample's threshold
/// goes to the candidate buffer (counted on past its capacity, so an overflow shows). The
/// sample's select ran over rank digits from the top, so its prefix and mask make one
/// threshold rank in the key's own width; keys are read 16 bytes at a time and a warp takes
/// slots only when one of its lanes holds a candidate, which leaves the pass bound by memory.
template <class K, int Vectors>
__global__ void __launch_bounds__(pass_threads) filter_pass(const K* in, std::int64_t n, bool largest,
                                                   const select_state* sample, select_state* st,
                                                   std::int64_t capacity, u64* cand_rank, u64* cand_pos) {
  using U = typename radix_traits<K>::bits_t;
  constexpr int per = static_cast<int>(16 / sizeof(K));  // keys in one 16-byte vector
  const select_state s = *sample;
  const U limit = static_cast<U>(s.prefix_rank | ~s.mask_rank);
  auto rank = [&](K x) { return scankit::detail::sort_rank_bits(x, 0, static_cast<int>(sizeof(K) * 8), largest); };
  auto take = [&](K x, std::int64_t pos, bool valid) {
    const bool t = valid && rank(x) <= limit;
    const u64 slot = warp_slot(&st->count, t);
    if (t && slot < static_cast<u64>(capacity)) cand_rank[slot] = static_cast<u64>(rank(x)), cand_pos[slot] = static_cast<u64>(pos);
  };
  // ---- the keys before the first 16-byte boundary and after the last whole vector ----
  const auto misaligned = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(in) & 15u);
  const std::int64_t head = std::min<std::int64_t>(n, ((16 - misaligned) & 15) / static_cast<std::int64_t>(sizeof(K)));
  const std::int64_t vectors = (n - head) / per, tail = head + vectors * per;
  if (blockIdx.x == 0 && threadIdx.x < 32) {  // head + (n - tail) < 2 * per <= 32 keys: one per lane
    const std::int64_t lane = threadIdx.x, pos = lane < head ? lane : tail + (lane - head);
    const bool valid = lane < head + (n - tail);
    take(valid ? in[pos] : K{}, pos, valid);
  }
  // ---- the vectors: each warp reads 32 x Vectors of them per step, all lanes the same steps ----
  const uint4* body = reinterpret_cast<const uint4*>(in + head);
  const std::int64_t lane = threadIdx.x & 31, warp = (blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x) >> 5;
  const std::int64_t warps = (std::int64_t{gridDim.x} * blockDim.x) >> 5;
  constexpr std::int64_t step = 32 * Vectors;
  for (std::int64_t base = warp * step; base < vectors; base += warps * step) {
    K key[Vectors][per];
    bool any = false;
#pragma unroll
    for (int j = 0; j < Vectors; ++j) {
      const std::int64_t v = base + j * 32 + lane;
      uint4 raw{0, 0, 0, 0};
      if (v < vectors) raw = __ldcs(body + v);
      memcpy(key[j], &raw, 16);
#pragma unroll
      for (int e = 0; e < per; ++e) any |= v < vectors && rank(key[j][e]) <= limit;
    }
    if (!__any_sync(0xffffffffu, any)) continue;
    // One atomic for the warp's step: each lane's count, a warp scan of them, then the writes.
    unsigned mine = 0;
#pragma unroll
    for (int j = 0; j < Vectors; ++j)
#pragma unroll
      for (int e = 0; e < per; ++e) mine += base + j * 32 + lane < vectors && rank(key[j][e]) <= limit;
    const unsigned through = warp_inclusive_scan(mine, [](unsigned a, unsigned c) { return a + c; });
    u64 slot = 0;
    if (lane == 31 && through) slot = atomicAdd(&st->count, static_cast<u64>(through));
    slot = __shfl_sync(0xffffffffu, slot, 31) + (through - mine);
#pragma unroll
    for (int j = 0; j < Vectors; ++j) {
      const std::int64_t v = base + j * 32 + lane;
#pragma unroll
      for (int e = 0; e < per; ++e) {
        if (v < vectors && rank(key[j][e]) <= limit) {
          if (slot < static_cast<u64>(capacity))
            cand_rank[slot] = static_cast<u64>(rank(key[j][e])), cand_pos[slot] = static_cast<u64>(head + v * per + e);
          ++slot;
        }
      }
    }
  }
}

/// Clears both selects' states and the digit counts, and sets how many winners each wants.
template <class = void>
__global__ void init_selects(select_state* st, u64* hist, int bins, std::int64_t k, std::int64_t sample_k) {
  for (int i = threadIdx.x; i < bins; i += blockDim.x) hist[i] = 0;
  if (threadIdx.x < 2) {
    st[threadIdx.x] = select_state{};
    st[threadIdx.x].k_rem = static_cast<u64>(threadIdx.x == 0 ? k : sample_k);
  }
}

/// Sets up the main select after the filter: it reads the candidates if they hold at least k
/// keys and none overflowed, else the whole input.
template <class = void>
__global__ void begin_main(select_state* st, std::int64_t k, std::int64_t capacity) {
  const bool ok = st->count >= static_cast<u64>(k) && st->count <= static_cast<u64>(capacity);
  st->use_candidates = ok;
  if (!ok) st->count = 0;
}

/// Writes the k winners (in no order) as 64-bit rank and position.
template <class K, int Unroll>
__global__ void __launch_bounds__(pass_threads) collect_pass(source<K> src, select_state* st, std::int64_t k, u64* w_rank,
                                                    u64* w_pos) {
  const select_state s = *st;
  const std::int64_t count = s.use_candidates ? static_cast<std::int64_t>(s.count) : src.n;
  for_each_key<Unroll>(src, s.use_candidates, count, [&](u64 r, u64 p, bool valid) {
    const bool take = valid && wins(r, p, s);
    const u64 slot = warp_slot(&st->written, take);
    if (take && slot < static_cast<u64>(k)) w_rank[slot] = r, w_pos[slot] = p;
  });
}

/// The sorted winners' keys and positions into the caller's arrays.
template <class K>
__global__ void gather_winners(const K* in, const u64* w_pos, std::int64_t k, K* values, std::int64_t* indices) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < k;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const std::int64_t p = static_cast<std::int64_t>(w_pos[i]);
    values[i] = in[p];
    indices[i] = p;
  }
}

}  // namespace scankit::cuda::detail::topk
