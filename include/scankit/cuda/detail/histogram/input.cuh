// How the histogram kernels read their samples: 16-byte vectors (the unaligned head and the
// ragged tail, at most 15 samples each, go straight to global atomics from block 0).
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

}  // namespace scankit::cuda::detail::hist
