// The histogram kernels. Every kernel reads the samples as 16-byte vectors (the unaligned
// head and the ragged tail, at most 15 samples each, go straight to global atomics from
// block 0) and hands each sample's bin to a "sink": global atomics, 32-bit shared-memory
// sub-histograms, or 16-bit shared counters that move 2^15 to global memory each time one
// of them reaches 2^15. With aggregation a thread keeps the run of equal bins it is in and
// adds the run's length once when the run ends (one atomic for a whole run of a skewed input).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/histogram_bins.hpp"

namespace scankit::cuda::detail::hist {

/// Vectors each thread loads before counting any of them (loads in flight per thread).
inline constexpr int unroll = 2;

/// Samples per 16-byte vector.
template <class T>
inline constexpr int vec = 16 / static_cast<int>(sizeof(T));

/// Most samples one launch counts: keeps every 32-bit shared counter and run length of a block
/// below 2^31 whatever n is. Larger inputs are counted by several launches.
inline constexpr std::int64_t max_samples_per_launch = std::int64_t{1} << 31;

/// Samples a block may add to a 16-bit counter between two flush points: a counter holds at
/// most 2^15 - 1 at a flush point, so it cannot pass 2^16 - 1 before the next.
inline constexpr int shared16_round_samples = 1 << 15;

template <class C>
__device__ __forceinline__ void global_add(C* p, unsigned k) {
  if constexpr (sizeof(C) == 8)
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(k));
  else
    atomicAdd(reinterpret_cast<unsigned*>(p), k);
}

/// Where the 16-byte-aligned body of the input lies: `head` samples before it, then
/// `vectors` whole vectors, then the tail.
struct layout {
  std::int64_t head;
  std::int64_t vectors;
};

template <class T>
__device__ __forceinline__ layout split(const T* p, std::int64_t n) {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  std::int64_t head = static_cast<std::int64_t>(((16 - (addr & 15)) & 15) / sizeof(T));
  if (head > n) head = n;
  return {head, (n - head) / vec<T>};
}

/// Block 0 counts the head and the tail (fewer than 2 * 16 samples; blocks have >= 64 threads).
template <class T, class C, class Bins>
__device__ void count_head_and_tail(const T* in, std::int64_t n, layout L, const Bins& bins, C* counts) {
  if (blockIdx.x != 0) return;
  const std::int64_t tail_begin = L.head + L.vectors * vec<T>;
  const std::int64_t t = threadIdx.x;
  std::int64_t i = -1;
  if (t < L.head) i = t;
  else if (t - L.head < n - tail_begin) i = tail_begin + (t - L.head);
  if (i >= 0) {
    const int b = bins(in[i]);
    if (b >= 0) global_add(counts + b, 1u);
  }
}

/// Sample j of a 16-byte vector, taken out of the registers with shifts (j is a constant after
/// unrolling; copying the vector into an array could put it in local memory).
template <class T>
__device__ __forceinline__ T sample_at(const uint4& r, int j) {
  const unsigned w[4] = {r.x, r.y, r.z, r.w};
  if constexpr (sizeof(T) == 1) {
    return static_cast<T>((w[j >> 2] >> (8 * (j & 3))) & 0xFFu);
  } else if constexpr (sizeof(T) == 2) {
    return static_cast<T>((w[j >> 1] >> (16 * (j & 1))) & 0xFFFFu);
  } else if constexpr (sizeof(T) == 4) {
    T t;
    memcpy(&t, &w[j], 4);
    return t;
  } else {
    const unsigned long long v = static_cast<unsigned long long>(w[2 * j]) |
                                 static_cast<unsigned long long>(w[2 * j + 1]) << 32;
    T t;
    memcpy(&t, &v, 8);
    return t;
  }
}

/// Whether the 16 bytes hold one sample value repeated (then they share one bin): a few
/// word comparisons instead of a comparison per sample.
template <class T>
__device__ __forceinline__ bool all_equal(const uint4& r) {
  if constexpr (sizeof(T) == 8) {
    return r.x == r.z && r.y == r.w;
  } else {
    bool same = r.x == r.y && r.y == r.z && r.z == r.w;
    if constexpr (sizeof(T) == 1) same = same && r.x == __byte_perm(r.x, 0, 0x0000);
    if constexpr (sizeof(T) == 2) same = same && r.x == __byte_perm(r.x, 0, 0x1010);
    return same;
  }
}

// ---- sinks: where a bin's count goes ----------------------------------------------------

// Every sink takes b = -1 for "not counted". The shared sinks send it to a spare counter after
// the last bin (the "trash" slot, never merged): min((unsigned)b, trash) is one instruction and
// keeps the per-sample code free of branches.

template <class C>
struct global_sink {
  C* counts;
  __device__ __forceinline__ void operator()(int b, unsigned k) const {
    if (b >= 0) global_add(counts + b, k);
  }
};

/// BinStride 1: h is this warp's sub-histogram (num_bins counters and the trash slot, in a
/// row). BinStride 32: h is this lane's column of the per-lane sub-histograms, whose counter
/// for bin b lies at b * 32 + lane: lane l always hits bank l, so a warp's 32 adds never
/// conflict on a bank whatever bins they fall in (uniform or skewed).
template <bool MaySkip, int BinStride>
struct shared32_sink {
  unsigned* h;
  unsigned trash;  // = num_bins
  __device__ __forceinline__ void operator()(int b, unsigned k) const {
    const auto ub = static_cast<unsigned>(b);
    const unsigned bin = !MaySkip || ub < trash ? ub : trash;
    atomicAdd(h + bin * BinStride, k);
  }
};

/// Two 16-bit counters per 32-bit word (the trash slot included). The add that takes a counter
/// from below 2^15 to 2^15 or more (exactly one add per crossing: atomics return distinct old
/// values) moves 2^15 of it to the global counter. Between two flush points a block adds at
/// most 2^15 to a counter that held at most 2^15 - 1, so no counter exceeds 2^16 - 1 or carries
/// into its neighbour, and at most one crossing per counter happens.
template <class C, bool MaySkip>
struct shared16_sink {
  unsigned* words;
  C* counts;
  unsigned trash;  // = num_bins
  __device__ __forceinline__ void operator()(int b, unsigned k) const {
    const auto ub = static_cast<unsigned>(b);
    const unsigned bin = !MaySkip || ub < trash ? ub : trash;
    const unsigned shift = (bin & 1u) * 16u;
    unsigned* w = words + (bin >> 1);
    const unsigned old = (atomicAdd(w, k << shift) >> shift) & 0xFFFFu;
    if (old < 0x8000u && old + k >= 0x8000u) {
      atomicSub(w, 0x8000u << shift);
      if (bin < trash) global_add(counts + bin, 0x8000u);
    }
  }
};

/// A thread's current run of equal bins (aggregation).
struct run_state {
  int bin = -1;
  unsigned count = 0;
};

/// How a thread aggregates before it adds: not at all (one add per sample), runs of equal
/// bins across its samples (one add per run), or whole vectors of one repeated value (one add
/// per such vector, carried as a run across vectors; mixed vectors add per sample).
enum class agg { none, runs, vectors };

template <class Sink>
__device__ __forceinline__ void extend_run(run_state& run, int b, unsigned k, const Sink& sink) {
  if (b != run.bin) {
    // Not at first (bin -1, count 0): a sink that never skips takes -1 as a real bin, and
    // adding 0 there would still touch a counter far outside the array.
    if (run.count > 0) sink(run.bin, run.count);
    run.bin = b;
    run.count = k;
  } else {
    run.count += k;
  }
}

template <class Sink>
__device__ __forceinline__ void flush(run_state& run, const Sink& sink) {
  if (run.count > 0) sink(run.bin, run.count);
  run.bin = -1;
  run.count = 0;
}

template <agg A, class T, class Bins, class Sink>
__device__ __forceinline__ void count_vector(const uint4& r, const Bins& bins, run_state& run,
                                             const Sink& sink) {
  if constexpr (A == agg::vectors) {
    if (all_equal<T>(r)) {
      extend_run(run, bins(sample_at<T>(r, 0)), static_cast<unsigned>(vec<T>), sink);
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < vec<T>; ++j) {
    const int b = bins(sample_at<T>(r, j));
    if constexpr (A == agg::runs) extend_run(run, b, 1u, sink);
    else sink(b, 1u);
  }
}

// ---- kernels ------------------------------------------------------------------------------

/// Global atomics. Blocked: thread g counts vectors [g * per, (g + 1) * per) (uncoalesced on
/// purpose: the textbook first attempt). Otherwise grid-stride, `unroll` vectors in flight.
template <class T, class C, class Bins, bool Blocked, agg A>
__global__ void global_kernel(const T* in, std::int64_t n, Bins bins, C* counts) {
  const layout L = split(in, n);
  count_head_and_tail(in, n, L, bins, counts);
  const uint4* v = reinterpret_cast<const uint4*>(in + L.head);
  const global_sink<C> sink{counts};
  run_state run;
  const std::int64_t threads = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t g = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if constexpr (Blocked) {
    const std::int64_t per = ceil_div(L.vectors, threads);
    const std::int64_t begin = g * per;
    const std::int64_t end = begin + per < L.vectors ? begin + per : L.vectors;
    for (std::int64_t i = begin; i < end; ++i) count_vector<A, T>(__ldg(v + i), bins, run, sink);
  } else {
    for (std::int64_t base = g; base < L.vectors; base += threads * unroll) {
      uint4 r[unroll];
#pragma unroll
      for (int u = 0; u < unroll; ++u) {
        const std::int64_t i = base + u * threads;
        if (i < L.vectors) r[u] = __ldg(v + i);
      }
#pragma unroll
      for (int u = 0; u < unroll; ++u)
        if (base + u * threads < L.vectors) count_vector<A, T>(r[u], bins, run, sink);
    }
  }
  flush(run, sink);
}

/// How a block lays out its shared counters.
enum class shared_layout {
  rows,     // `copies` 32-bit sub-histograms one after another; warp w uses copy w % copies
  lanes,    // 32 interleaved 32-bit sub-histograms, one per lane (bin b of lane l at b * 32 + l)
  narrow16  // one 16-bit histogram (two counters per word), flushed at 2^15
};

/// Shared-memory privatization. The block walks tiles of blockDim * unroll vectors
/// (grid-stride over tiles, so the loop is uniform across the block), counts into its
/// shared histogram(s), then adds every non-zero shared counter to the global one.
/// narrow16 has a flush point (a barrier, runs flushed first) every `tiles_per_round` tiles.
template <class T, class C, class Bins, shared_layout Layout, agg A>
__global__ void __launch_bounds__(1024)
    shared_kernel(const T* in, std::int64_t n, Bins bins, C* counts, int num_bins, int copies,
                  int tiles_per_round) {
  constexpr bool Narrow16 = Layout == shared_layout::narrow16;
  constexpr bool Lanes = Layout == shared_layout::lanes;
  extern __shared__ unsigned smem[];
  const int slots = num_bins + 1;  // the bins and the trash slot
  const int words = Narrow16 ? (slots + 1) / 2 : slots * (Lanes ? 32 : copies);
  for (int i = threadIdx.x; i < words; i += blockDim.x) smem[i] = 0;
  __syncthreads();

  const layout L = split(in, n);
  count_head_and_tail(in, n, L, bins, counts);
  const uint4* v = reinterpret_cast<const uint4*>(in + L.head);
  const std::int64_t tile = static_cast<std::int64_t>(blockDim.x) * unroll;
  const std::int64_t tiles = ceil_div(L.vectors, tile);

  auto body = [&](const auto& sink) {
    run_state run;
    [[maybe_unused]] int in_round = 0;
    for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
      uint4 r[unroll];
#pragma unroll
      for (int u = 0; u < unroll; ++u) {
        const std::int64_t i = t * tile + u * blockDim.x + threadIdx.x;
        if (i < L.vectors) r[u] = __ldg(v + i);
      }
#pragma unroll
      for (int u = 0; u < unroll; ++u)
        if (t * tile + u * blockDim.x + threadIdx.x < L.vectors)
          count_vector<A, T>(r[u], bins, run, sink);
      if constexpr (Narrow16) {
        if (++in_round == tiles_per_round) {  // a flush point
          flush(run, sink);
          __syncthreads();
          in_round = 0;
        }
      }
    }
    flush(run, sink);
  };
  const auto trash = static_cast<unsigned>(num_bins);
  constexpr bool may_skip_ = scankit::may_skip<Bins>();
  if constexpr (Narrow16) body(shared16_sink<C, may_skip_>{smem, counts, trash});
  else if constexpr (Lanes) body(shared32_sink<may_skip_, 32>{smem + threadIdx.x % 32, trash});
  else body(shared32_sink<may_skip_, 1>{smem + (threadIdx.x / 32 % copies) * slots, trash});
  __syncthreads();

  if constexpr (Lanes) {  // warp w sums bins w, w + warps, ...: lane l reads its own bank
    const int lane = threadIdx.x % 32, warps = blockDim.x / 32;
    for (int b = threadIdx.x / 32; b < num_bins; b += warps) {
      unsigned total = smem[b * 32 + lane];
#pragma unroll
      for (int d = 16; d > 0; d /= 2) total += __shfl_xor_sync(0xFFFFFFFFu, total, d);
      if (lane == 0 && total) global_add(counts + b, total);
    }
  } else {
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) {
      unsigned total = 0;
      if constexpr (Narrow16) {
        total = (smem[b >> 1] >> ((b & 1) * 16)) & 0xFFFFu;
      } else {
        for (int c = 0; c < copies; ++c) total += smem[c * slots + b];
      }
      if (total) global_add(counts + b, total);
    }
  }
}

}  // namespace scankit::cuda::detail::hist
