// What the experiment binaries share: a checked CUDA call, the timer (median of
// runs, each after 128 MiB of writes so that the L2 starts cold, as `scankit bench` does) and
// random sort keys.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(e_));                 \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

struct timer {
  cudaEvent_t a, b;
  char* flush = nullptr;
  timer() {
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaMalloc(&flush, 128 << 20));
  }
  ~timer() { cudaFree(flush); }
  timer(const timer&) = delete;
  timer& operator=(const timer&) = delete;
  /// Median time of f() over `reps` runs, after one warm-up run.
  template <class F>
  float median_ms(F f, int reps) {
    f();
    CK(cudaDeviceSynchronize());
    std::vector<float> v;
    for (int i = 0; i < reps; ++i) {
      CK(cudaMemsetAsync(flush, i, 128 << 20));
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

/// Random sort keys, every bit random, from a hash of the index (the sort experiments).
__device__ inline unsigned hash32(std::int64_t i, unsigned salt) {
  unsigned x = static_cast<unsigned>(i) * 2654435761u ^ static_cast<unsigned>(i >> 32) ^ salt;
  x ^= x >> 13;
  x *= 0x5bd1e995u;
  x ^= x >> 15;
  x *= 0x27d4eb2du;
  return x ^ (x >> 16);
}
template <class K>
__global__ void fill_keys(K* k, std::int64_t n, unsigned salt) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x) {
    if constexpr (sizeof(K) == 8) k[i] = (static_cast<K>(hash32(i, salt)) << 32) | hash32(i, salt ^ 0x9e3779b9u);
    else k[i] = static_cast<K>(hash32(i, salt));
  }
}
