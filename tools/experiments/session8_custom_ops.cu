// Session 8 measurement (not part of the library build): scankit's default scan with user
// operators against CUB's DeviceScan::InclusiveScan with the same functor, on the same input in
// the same process, with a device-to-device copy of the same bytes (issue 3: "max/min/custom
// operators: at least 1.0x CUB at n >= 2^20").
//
// Operators (all user code, none built into scankit):
//   affine32  affine maps x -> a*x + b modulo 2^32 under composition (8 bytes; associative, not
//             commutative: the order of the operands matters)
//   argmax    (value, index) pairs, the larger value, the earlier index on ties (8 bytes)
//   affine64  affine maps modulo 2^64 (16 bytes: no 16-byte vector path, the one-item tile)
// Every output is compared with CUB's exactly.
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//        tools/experiments/session8_custom_ops.cu build/release/libscankit.a -o session8_custom_ops
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "experiment_common.cuh"
#include "scankit/cuda/scan.cuh"

template <class U>
struct affine_map {
  U a, b;
};
template <class U>
struct affine_compose {
  using value_type = affine_map<U>;
  static constexpr const char* label = sizeof(U) == 4 ? "affine32" : "affine64";
  __host__ __device__ static constexpr value_type identity() { return {1, 0}; }
  __host__ __device__ value_type operator()(const value_type& f, const value_type& g) const {
    return {static_cast<U>(g.a * f.a), static_cast<U>(g.a * f.b + g.b)};
  }
};

struct scored {
  float value;
  int index;
};
struct argmax {
  using value_type = scored;
  static constexpr const char* label = "argmax";
  __host__ __device__ static constexpr value_type identity() { return {-INFINITY, -1}; }
  __host__ __device__ value_type operator()(const value_type& x, const value_type& y) const {
    return y.value > x.value ? y : x;  // ties keep the earlier one
  }
};

__device__ unsigned mix(std::int64_t i, unsigned salt) {
  unsigned x = static_cast<unsigned>(i) * 2654435761u ^ static_cast<unsigned>(i >> 32) ^ salt;
  x ^= x >> 13;
  x *= 0x5bd1e995u;
  return x ^ (x >> 15);
}
template <class U>
__global__ void fill(affine_map<U>* v, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    v[i] = {static_cast<U>(mix(i, 1) | 1u), static_cast<U>(mix(i, 2))};
}
__global__ void fill(scored* v, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    v[i] = {static_cast<float>(mix(i, 3) % 100000u), static_cast<int>(i)};
}

__global__ void count_mismatch(const unsigned char* a, const unsigned char* b, std::int64_t bytes,
                               unsigned long long* bad) {
  unsigned long long local = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < bytes; i += std::int64_t{gridDim.x} * blockDim.x)
    local += a[i] != b[i];
  if (local) atomicAdd(bad, local);
}

template <class Op>
void measure(std::int64_t n) {
  using T = typename Op::value_type;
  const Op op;
  const int reps = n >= (std::int64_t{1} << 26) ? 11 : 25;
  T *in, *out, *ref;
  unsigned long long* bad;
  CK(cudaMalloc(&in, n * sizeof(T)));
  CK(cudaMalloc(&out, n * sizeof(T)));
  CK(cudaMalloc(&ref, n * sizeof(T)));
  CK(cudaMalloc(&bad, 8));
  fill<<<1024, 256>>>(in, n);
  CK(cudaGetLastError());
  timer tm;
  const float copy_ms = tm.median_ms([&] { CK(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice)); }, reps);

  std::size_t cub_bytes = 0;
  CK(cub::DeviceScan::InclusiveScan(nullptr, cub_bytes, in, ref, op, n));
  void* cub_ws;
  CK(cudaMalloc(&cub_ws, cub_bytes));
  const float cub_ms = tm.median_ms([&] { CK(cub::DeviceScan::InclusiveScan(cub_ws, cub_bytes, in, ref, op, n)); }, reps);

  const scankit::cuda::scan_config cfg{};  // the default algorithm and block size
  const std::size_t ws_bytes = scankit::cuda::scan_workspace_bytes(n, sizeof(T), cfg);
  void* ws;
  CK(cudaMalloc(&ws, std::max<std::size_t>(ws_bytes, 1)));
  const float ours_ms = tm.median_ms(
      [&] {
        scankit::cuda::scan(in, out, n, op, scankit::scan_kind::inclusive, op.identity(), ws, ws_bytes, nullptr, cfg,
                            static_cast<T*>(nullptr));
      },
      reps);
  CK(cudaMemset(bad, 0, 8));
  count_mismatch<<<1024, 256>>>(reinterpret_cast<const unsigned char*>(out), reinterpret_cast<const unsigned char*>(ref),
                                n * static_cast<std::int64_t>(sizeof(T)), bad);
  CK(cudaGetLastError());
  unsigned long long mismatches = 0;
  CK(cudaMemcpy(&mismatches, bad, 8, cudaMemcpyDeviceToHost));
  std::printf("%-9s %2zu B  n = 2^%-5.2f copy %8.4f ms  CUB %8.4f ms (%5.1f%% of copy)  scankit %8.4f ms (%5.1f%% of copy)  %5.3fx CUB  %s\n",
              Op::label, sizeof(T), std::log2(double(n)), copy_ms, cub_ms, 100.0 * copy_ms / cub_ms, ours_ms,
              100.0 * copy_ms / ours_ms, cub_ms / ours_ms, mismatches ? "WRONG" : "same as CUB");
  std::fflush(stdout);
  CK(cudaFree(ws));
  CK(cudaFree(cub_ws));
  CK(cudaFree(in));
  CK(cudaFree(out));
  CK(cudaFree(ref));
  CK(cudaFree(bad));
}

int main() {
  for (int lg : {20, 22, 24, 26, 28}) measure<affine_compose<unsigned>>(std::int64_t{1} << lg);
  for (int lg : {20, 22, 24, 26, 28}) measure<argmax>(std::int64_t{1} << lg);
  for (int lg : {14, 16, 18, 20, 24, 27}) measure<affine_compose<unsigned long long>>(std::int64_t{1} << lg);
  return 0;
}
