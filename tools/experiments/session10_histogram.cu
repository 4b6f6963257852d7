// Session 10 experiment (not part of the library build): onesweep's all-digits histogram with
// its shared-memory counters replicated `Parts` times, lane l counting into copy l % Parts.
// Thirty-two lanes adding to random bins of one 256-counter histogram meet in the same
// shared-memory bank several times per instruction, and each meeting replays it; with the
// copies interleaved (counter of digit d, copy c at word d * Parts + c) lanes of different
// copies never share a bank when Parts = 32, and less often as Parts grows. Times each
// variant against the library's kernel and a read of the keys at copy speed, on 2^28 random
// uint32 keys and 2^27 uint64 keys.
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//        tools/experiments/session10_histogram.cu build/release/libscankit.a -ltbb -o session10_histogram
#include <cub/device/device_radix_sort.cuh>

#include <cstdio>
#include <cstring>
#include <vector>

#include "experiment_common.cuh"
#include "scankit/cuda/sort.cuh"

namespace radix = scankit::cuda::detail::radix;

template <scankit::key_kind Kind, class U, int Parts, int Block>
__global__ void __launch_bounds__(Block) histogram_parts(const U* keys, std::int64_t n, int passes,
                                                         unsigned long long* hist) {
  constexpr int max_passes = radix::max_passes, R = radix::radix;
  extern __shared__ unsigned counts[];  // [pass][digit][part]
  for (int i = threadIdx.x; i < passes * R * Parts; i += Block) counts[i] = 0;
  __syncthreads();
  radix::digit_of<Kind, U> dig[max_passes];
#pragma unroll
  for (int p = 0; p < max_passes; ++p)
    if (p < passes) dig[p] = radix::make_digit<Kind, U>(scankit::sort_options{}, 0, 8 * sizeof(U), p);
  const int part = threadIdx.x % Parts;
  auto count = [&](U k) {
#pragma unroll
    for (int p = 0; p < max_passes; ++p)
      if (p < passes) atomicAdd(&counts[(p * R + dig[p](k)) * Parts + part], 1u);
  };
  constexpr int per_vec = 16 / sizeof(U), step_keys = 2 * per_vec;
  const std::int64_t per_block = (((n + gridDim.x - 1) / gridDim.x + step_keys - 1) / step_keys) * step_keys;
  const std::int64_t b = per_block * blockIdx.x;
  const std::int64_t e = b + per_block < n ? b + per_block : n;
  const std::int64_t vec_end = e > b ? b + (e - b) / step_keys * step_keys : b;
  for (std::int64_t v = b + threadIdx.x * step_keys; v < vec_end; v += std::int64_t{Block} * step_keys) {
    const uint4 q0 = __ldcs(reinterpret_cast<const uint4*>(keys + v));
    const uint4 q1 = __ldcs(reinterpret_cast<const uint4*>(keys + v) + 1);
    U k[step_keys];
    memcpy(k, &q0, 16);
    memcpy(k + per_vec, &q1, 16);
#pragma unroll
    for (int x = 0; x < step_keys; ++x) count(k[x]);
  }
  for (std::int64_t i = vec_end + threadIdx.x; i < e; i += Block) count(keys[i]);
  __syncthreads();
  for (int i = threadIdx.x; i < passes * R; i += Block) {
    unsigned c = 0;
#pragma unroll
    for (int q = 0; q < Parts; ++q) c += counts[i * Parts + (q + i) % Parts];  // rotated: no bank conflicts
    if (c) atomicAdd(hist + i, static_cast<unsigned long long>(c));
  }
}

template <class U, int Parts, int Block>
void time_parts(timer& tm, const U* keys, std::int64_t n, int passes, unsigned long long* hist,
                const unsigned long long* want, float copy, int reps) {
  constexpr auto kind = scankit::key_kind::unsigned_int;
  const std::size_t smem = sizeof(unsigned) * passes * radix::radix * Parts;
  auto k = histogram_parts<kind, U, Parts, Block>;
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, Block, smem));
  for (unsigned grid : {132u * per_sm, 132u * per_sm * 4, 2048u}) {
    const float ms = tm.median_ms([&] {
      CK(cudaMemsetAsync(hist, 0, radix::hist_bytes));
      k<<<grid, Block, smem>>>(keys, n, passes, hist);
      CK(cudaGetLastError());
    }, reps);
    std::vector<unsigned long long> got(passes * radix::radix), ref(passes * radix::radix);
    CK(cudaMemcpy(got.data(), hist, 8 * got.size(), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ref.data(), want, 8 * ref.size(), cudaMemcpyDeviceToHost));
    std::printf("  %d pass(es), %2d parts, %4d threads, %d blocks/SM, grid %5u: %.3f ms (%3.0f%% of a read at copy speed) %s\n",
                passes, Parts, Block, per_sm, grid, ms, 100.0 * (copy / 2) / ms, got == ref ? "OK" : "MISMATCH");
  }
}

template <class K>
void run(std::int64_t n, int reps) {
  using U = typename scankit::radix_traits<K>::bits_t;
  constexpr auto kind = scankit::radix_traits<K>::kind;
  const int passes = static_cast<int>(sizeof(K));
  K *in, *out;
  CK(cudaMalloc(&in, sizeof(K) * n));
  CK(cudaMalloc(&out, sizeof(K) * n));
  fill_keys<<<1024, 256>>>(in, n, 7u);
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
  std::printf("%s n=%lld: copy %.3f ms, library histogram %.3f ms (%.0f%% of a read at copy speed)\n",
              sizeof(K) == 4 ? "u32" : "u64", static_cast<long long>(n), copy, h, 100.0 * (copy / 2) / h);
  unsigned long long *ref, *h2;
  CK(cudaMalloc(&ref, radix::hist_bytes));
  CK(cudaMalloc(&h2, radix::hist_bytes));
  const U* k = reinterpret_cast<const U*>(in);
  for (int np : {passes, 1}) {
    CK(cudaMemset(ref, 0, radix::hist_bytes));
    histogram_parts<kind, U, 1, 256><<<1024, 256, sizeof(unsigned) * np * radix::radix>>>(k, n, np, ref);
    CK(cudaDeviceSynchronize());
    if (np == 1) break;
    time_parts<U, 8, 512>(tm, k, n, np, h2, ref, copy, reps);
    if constexpr (sizeof(U) == 4) time_parts<U, 16, 512>(tm, k, n, np, h2, ref, copy, reps);
  }
  cudaFree(ref), cudaFree(h2), cudaFree(hist), cudaFree(in), cudaFree(out);
}

/// The library's histogram (with its plan) and whole sort, and CUB's, on the same keys.
template <class K>
void whole(const char* name, std::int64_t n, int reps) {
  using U = typename scankit::radix_traits<K>::bits_t;
  constexpr auto kind = scankit::radix_traits<K>::kind;
  const int passes = static_cast<int>(sizeof(K));
  K *in, *out, *tmp;
  CK(cudaMalloc(&in, sizeof(K) * n));
  CK(cudaMalloc(&out, sizeof(K) * n));
  CK(cudaMalloc(&tmp, sizeof(K) * n));
  fill_keys<<<1024, 256>>>(reinterpret_cast<U*>(in), n, 7u);
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
  const float ours = tm.median_ms([&] { scankit::cuda::sort_keys(in, out, n, ws, ws_bytes, nullptr); }, reps);
  std::size_t cub_bytes = 0;
  CK(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in, tmp, n));
  void* cub_ws;
  CK(cudaMalloc(&cub_ws, cub_bytes));
  const float cub = tm.median_ms([&] { CK(cub::DeviceRadixSort::SortKeys(cub_ws, cub_bytes, in, tmp, n)); }, reps);
  std::printf("%-4s n=%lld  copy %.3f ms  histogram %.3f ms  onesweep %.3f ms (passes %.3f ms)  cub %.3f ms  vs cub %.3fx\n",
              name, static_cast<long long>(n), copy, h, ours, ours - h, cub, cub / ours);
  cudaFree(in), cudaFree(out), cudaFree(tmp), cudaFree(hist), cudaFree(ws), cudaFree(cub_ws);
}

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 15;
  if (argc > 2 && std::strcmp(argv[2], "whole") == 0) {
    for (int r = 0; r < 2; ++r) {
      whole<std::uint32_t>("u32", std::int64_t{1} << 28, reps);
      whole<float>("f32", std::int64_t{1} << 28, reps);
      whole<double>("f64", std::int64_t{1} << 27, reps);
    }
    return 0;
  }
  run<std::uint32_t>(std::int64_t{1} << 28, reps);
  run<std::uint64_t>(std::int64_t{1} << 27, reps);
  return 0;
}
