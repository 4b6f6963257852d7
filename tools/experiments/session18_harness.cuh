// What the session 18 scan experiments (session18_scan_mid.cu, session18_scan_ahead.cu) share:
// sum inputs, a check against CUB's output, the timed row, the library's dispatch and its
// warp-specialized kernel at any shape, and one size's setup: the input, a device-to-device copy
// and CUB's InclusiveSum timed in the same process, the library timed before and after the
// variants.
#pragma once

#include <cub/device/device_scan.cuh>

#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>

#include "experiment_common.cuh"
#include "scankit/cuda/detail/decoupled_lookback.cuh"

namespace dl = scankit::cuda::detail::decoupled_lookback;
namespace sd = scankit::cuda::detail;

template <class T>
__global__ void fill_values(T* a, std::int64_t n, unsigned salt) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    // Floats: small integers, so that every partial sum (|x| < 2^24 here) is exact in any order.
    a[i] = std::is_floating_point_v<T> ? static_cast<T>(static_cast<int>(hash32(i, salt) % 201) - 100)
                                       : static_cast<T>(static_cast<int>(hash32(i, salt) % 2001) - 1000);
}

template <class T>
__global__ void count_bad(const T* a, const T* b, std::int64_t n, unsigned long long* bad) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x) {
    bool same;
    if constexpr (std::is_floating_point_v<T>) same = std::fabs(double(a[i]) - double(b[i])) <= 1e-9 * (1.0 + std::fabs(double(b[i])));
    else same = a[i] == b[i];
    if (!same) atomicAdd(bad, 1ull);
  }
}

template <class T>
struct context {
  std::int64_t n;
  T *in, *out, *ref;
  char* ws;
  unsigned long long* bad;
  float copy_ms, cub_ms;
  int reps;
  timer tm;
};

template <class T>
void report(context<T>& c, const std::string& label, float ms) {
  unsigned long long bad = 0;
  CK(cudaMemset(c.bad, 0, 8));
  count_bad<<<1024, 256>>>(c.out, c.ref, c.n, c.bad);
  CK(cudaGetLastError());
  CK(cudaMemcpy(&bad, c.bad, 8, cudaMemcpyDeviceToHost));
  std::printf("  %-34s %9.4f ms  %6.1f%% of copy  %.3fx CUB  %s\n", label.c_str(), ms, 100.0 * c.copy_ms / ms,
              c.cub_ms / ms, bad ? "WRONG" : "ok");
  CK(cudaMemset(c.out, 0, c.n * sizeof(T)));
}

template <class T, class F>
void time_row(context<T>& c, const std::string& label, F launch) {
  const float ms = c.tm.median_ms(
      [&] {
        sd::arena a(c.ws, 64 << 20);
        launch(a);
        CK(cudaGetLastError());
      },
      c.reps);
  CK(cudaDeviceSynchronize());
  report(c, label, ms);
}

/// The warp-specialized kernel (persistent): B consumers + a producer warp, KV vectors, S stages.
template <int B, int KV, int S, int MinBlocks, class T>
void specialized(context<T>& c) {
  using Op = scankit::sum<T>;
  constexpr int V = 16 / sizeof(T);
  const std::int64_t tile_items = std::int64_t{B} * KV * V;
  const std::int64_t tiles = sd::ceil_div(c.n, tile_items);
  if (tiles <= 1 || dl::levels_for(tiles) > B / 32) return;
  auto* kernel = dl::specialized_kernel<B, KV, S, MinBlocks, 1, T, Op>;  // one producer warp (the library before session 19)
  const int smem = S * B * KV * 16;
  dl::allow_shared_bytes(kernel, smem);
  int per_sm = 0, sms = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, B + 32, smem));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if (per_sm == 0) return;
  const std::int64_t grid = std::min<std::int64_t>(tiles, std::int64_t{per_sm} * sms);
  char label[96];
  std::snprintf(label, sizeof label, "specialized %dx%dx%d (%lld tiles, %d/SM)", B, KV, S, static_cast<long long>(tiles),
                per_sm);
  time_row(c, label, [&](sd::arena& a) {
    dl::tree<T> tr;
    unsigned long long* counter = dl::prepare_tree(tr, tiles, a, cudaStream_t{});
    sd::launch_after("specialized", kernel, static_cast<unsigned>(grid), B + 32, smem, cudaStream_t{}, c.in, c.out, c.n,
                     tiles, Op{}, false, T(0), static_cast<T*>(nullptr), tr, counter, 32u);
  });
}

template <class T>
void library(context<T>& c) {
  time_row(c, "library (dl::run)", [&](sd::arena& a) {
    dl::run(c.in, c.out, c.n, scankit::sum<T>{}, scankit::scan_kind::inclusive, T(0), static_cast<T*>(nullptr), a, 256,
            cudaStream_t{});
  });
}

/// One size: sets up the context (the input, the copy and CUB timed), prints the header line,
/// then times the library, variants(c) and the library again.
template <class T, class F>
void run_size(std::int64_t n, const char* type, F variants) {
  context<T> c;
  c.n = n;
  c.reps = n >= (std::int64_t{1} << 26) ? 15 : 41;
  CK(cudaMalloc(&c.in, n * sizeof(T)));
  CK(cudaMalloc(&c.out, n * sizeof(T)));
  CK(cudaMalloc(&c.ref, n * sizeof(T)));
  CK(cudaMalloc(&c.ws, 64 << 20));
  CK(cudaMalloc(&c.bad, 8));
  fill_values<<<1024, 256>>>(c.in, n, 12345u);
  CK(cudaGetLastError());
  c.copy_ms = c.tm.median_ms([&] { CK(cudaMemcpyAsync(c.out, c.in, n * sizeof(T), cudaMemcpyDeviceToDevice)); }, c.reps);
  std::size_t cub_bytes = 0;
  void* cub_ws = nullptr;
  CK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, c.in, c.ref, n));
  CK(cudaMalloc(&cub_ws, cub_bytes));
  c.cub_ms = c.tm.median_ms([&] { CK(cub::DeviceScan::InclusiveSum(cub_ws, cub_bytes, c.in, c.ref, n)); }, c.reps);
  CK(cudaDeviceSynchronize());
  std::printf("\nn = %lld (2^%.2f) %s sum: copy %.4f ms, CUB %.4f ms (%.1f%% of copy)\n", static_cast<long long>(n),
              std::log2(double(n)), type, c.copy_ms, c.cub_ms, 100.0 * c.copy_ms / c.cub_ms);
  library(c);
  variants(c);
  library(c);
  CK(cudaFree(cub_ws));
  CK(cudaFree(c.in));
  CK(cudaFree(c.out));
  CK(cudaFree(c.ref));
  CK(cudaFree(c.ws));
  CK(cudaFree(c.bad));
}
