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

template <class T>
__device__ __forceinline__ void unpack(const uint4& r, T (&x)[vec<T>]) {
  memcpy(x, &r, 16);
}

// ---- sinks: where a bin's count goes ----------------------------------------------------

template <class C>
struct global_sink {
  C* counts;
  __device__ __forceinline__ void operator()(int b, unsigned k) const { global_add(counts + b, k); }
};

struct shared32_sink {
  unsigned* h;  // this warp's sub-histogram
  __device__ __forceinline__ void operator()(int b, unsigned k) const { atomicAdd(h + b, k); }
};

/// Two 16-bit counters per 32-bit word. The add that takes a counter from below 2^15 to 2^15
/// or more (exactly one add per crossing: atomics return distinct old values) moves 2^15 of
/// it to the global counter. Between two flush points a block adds at most 2^15 to a
/// counter that held at most 2^15 - 1, so no counter exceeds 2^16 - 1 or carries into its
/// neighbour, and at most one crossing per counter happens.
template <class C>
struct shared16_sink {
  unsigned* words;
  C* counts;
  __device__ __forceinline__ void operator()(int b, unsigned k) const {
    const unsigned shift = (b & 1) * 16u;
    unsigned* w = words + (b >> 1);
    const unsigned old = (atomicAdd(w, k << shift) >> shift) & 0xFFFFu;
    if (old < 0x8000u && old + k >= 0x8000u) {
      atomicSub(w, 0x8000u << shift);
      global_add(counts + b, 0x8000u);
    }
  }
};

/// A thread's current run of equal bins (aggregation).
struct run_state {
  int bin = -1;
  unsigned count = 0;
};

template <bool Aggregate, class Sink>
__device__ __forceinline__ void feed(run_state& run, int b, const Sink& sink) {
  if constexpr (!Aggregate) {
    if (b >= 0) sink(b, 1u);
  } else {
    if (b != run.bin) {
      if (run.bin >= 0) sink(run.bin, run.count);
      run.bin = b;
      run.count = 1;
    } else {
      ++run.count;
    }
  }
}

template <class Sink>
__device__ __forceinline__ void flush(run_state& run, const Sink& sink) {
  if (run.bin >= 0 && run.count > 0) sink(run.bin, run.count);
  run.bin = -1;
  run.count = 0;
}

template <bool Aggregate, class T, class Bins, class Sink>
__device__ __forceinline__ void count_vector(const uint4& r, const Bins& bins, run_state& run,
                                             const Sink& sink) {
  T x[vec<T>];
  unpack(r, x);
#pragma unroll
  for (int j = 0; j < vec<T>; ++j) feed<Aggregate>(run, bins(x[j]), sink);
}

// ---- kernels ------------------------------------------------------------------------------

/// Global atomics. Blocked: thread g counts vectors [g * per, (g + 1) * per) (uncoalesced on
/// purpose: the textbook first attempt). Otherwise grid-stride, `unroll` vectors in flight.
template <class T, class C, class Bins, bool Blocked, bool Aggregate>
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
    for (std::int64_t i = begin; i < end; ++i) count_vector<Aggregate, T>(__ldg(v + i), bins, run, sink);
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
        if (base + u * threads < L.vectors) count_vector<Aggregate, T>(r[u], bins, run, sink);
    }
  }
  flush(run, sink);
}

/// Shared-memory privatization. The block walks tiles of blockDim * unroll vectors
/// (grid-stride over tiles, so the loop is uniform across the block), counts into its
/// shared histogram(s), then adds every non-zero shared counter to the global one.
///   Wide16 == false: `copies` 32-bit sub-histograms, warp w uses copy w % copies.
///   Wide16 == true:  one 16-bit histogram (two counters per word) with a flush point (a
///                    barrier, runs flushed first) every `tiles_per_round` tiles.
template <class T, class C, class Bins, bool Narrow16, bool Aggregate>
__global__ void __launch_bounds__(1024)
    shared_kernel(const T* in, std::int64_t n, Bins bins, C* counts, int num_bins, int copies,
                  int tiles_per_round) {
  extern __shared__ unsigned smem[];
  const int words = Narrow16 ? (num_bins + 1) / 2 : num_bins * copies;
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
          count_vector<Aggregate, T>(r[u], bins, run, sink);
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
  if constexpr (Narrow16) body(shared16_sink<C>{smem, counts});
  else body(shared32_sink{smem + (threadIdx.x / 32 % copies) * num_bins});
  __syncthreads();

  for (int b = threadIdx.x; b < num_bins; b += blockDim.x) {
    unsigned total = 0;
    if constexpr (Narrow16) {
      total = (smem[b >> 1] >> ((b & 1) * 16)) & 0xFFFFu;
    } else {
      for (int c = 0; c < copies; ++c) total += smem[c * num_bins + b];
    }
    if (total) global_add(counts + b, total);
  }
}

}  // namespace scankit::cuda::detail::hist
