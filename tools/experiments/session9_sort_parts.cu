// Session 9 experiment (not part of the library build): where onesweep's time goes at large n.
// Times, on the same keys and in one process: a device-to-device copy of the keys, the
// all-digits histogram kernel alone (with its memset; its last block also makes the plan),
// the library's whole sort (onesweep) and CUB's DeviceRadixSort::SortKeys. The passes' share
// is (sort - histogram) / passes.
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//        tools/experiments/session9_sort_parts.cu build/release/libscankit.a -ltbb -o session9_sort_parts
#include <cub/device/device_radix_sort.cuh>

#include <cstdio>
#include <string>

#include "experiment_common.cuh"
#include "scankit/cuda/sort.cuh"

namespace radix = scankit::cuda::detail::radix;

__device__ unsigned mix32(std::int64_t i, unsigned salt) {
  unsigned x = static_cast<unsigned>(i) * 2654435761u ^ static_cast<unsigned>(i >> 32) ^ salt;
  x ^= x >> 13;
  x *= 0x5bd1e995u;
  x ^= x >> 15;
  x *= 0x27d4eb2du;
  return x ^ (x >> 16);
}
template <class K>
__global__ void fill_random(K* k, std::int64_t n, unsigned salt) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x) {
    if constexpr (sizeof(K) == 8) k[i] = (static_cast<K>(mix32(i, salt)) << 32) | mix32(i, salt ^ 0x9e3779b9u);
    else k[i] = static_cast<K>(mix32(i, salt));
  }
}

template <class K>
void run(std::int64_t n, int reps) {
  using U = typename scankit::radix_traits<K>::bits_t;
  constexpr auto kind = scankit::radix_traits<K>::kind;
  const int passes = static_cast<int>(sizeof(K));
  K *in, *out, *tmp;
  CK(cudaMalloc(&in, sizeof(K) * n));
  CK(cudaMalloc(&out, sizeof(K) * n));
  CK(cudaMalloc(&tmp, sizeof(K) * n));
  fill_random<<<1024, 256>>>(in, n, 7u);
  CK(cudaGetLastError());
  timer tm;
  const float copy = tm.median_ms([&] { CK(cudaMemcpyAsync(out, in, sizeof(K) * n, cudaMemcpyDeviceToDevice)); }, reps);
  unsigned long long* hist;
  CK(cudaMalloc(&hist, radix::hist_bytes + sizeof(radix::plan) + 256));
  auto* pl = reinterpret_cast<radix::plan*>(reinterpret_cast<char*>(hist) + scankit::cuda::detail::align_up(radix::hist_bytes));
  const float h = tm.median_ms([&] {
    radix::histogram_and_plan<kind, U>(reinterpret_cast<const U*>(in), n, passes, scankit::sort_options{}, 0,
                                       8 * static_cast<int>(sizeof(K)), false, hist, radix::hist_bytes, pl, nullptr);
  }, reps);
  const std::size_t ws_bytes = scankit::cuda::sort_workspace_bytes(n, sizeof(K), 0, {});
  void* ws;
  CK(cudaMalloc(&ws, ws_bytes));
  const float ours = tm.median_ms([&] {
    scankit::cuda::sort_keys(in, out, n, ws, ws_bytes, nullptr);
  }, reps);
  std::size_t cub_bytes = 0;
  CK(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in, tmp, n));
  void* cub_ws;
  CK(cudaMalloc(&cub_ws, cub_bytes));
  const float cub = tm.median_ms([&] { CK(cub::DeviceRadixSort::SortKeys(cub_ws, cub_bytes, in, tmp, n)); }, reps);
  std::printf("%-4s n=%lld  copy %.3f ms  histogram %.3f ms (%.0f%% of a read at copy speed)  onesweep %.3f ms "
              "(per pass %.3f ms = %.2fx copy)  cub %.3f ms  vs cub %.3fx\n",
              sizeof(K) == 4 ? "u32" : "u64", static_cast<long long>(n), copy, h, 100.0 * (copy / 2) / h, ours,
              (ours - h) / passes, (ours - h) / passes / copy, cub, cub / ours);
  cudaFree(in), cudaFree(out), cudaFree(tmp), cudaFree(hist), cudaFree(ws), cudaFree(cub_ws);
}

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 7;
  for (int lg : {24, 26, 28}) run<std::uint32_t>(std::int64_t{1} << lg, reps);
  for (int lg : {24, 27}) run<std::uint64_t>(std::int64_t{1} << lg, reps);
}
