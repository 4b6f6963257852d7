// What the session-8 experiment binaries share: a checked CUDA call and the timer (median of
// runs, each after 128 MiB of writes so that the L2 starts cold, as `scankit bench` does).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
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
