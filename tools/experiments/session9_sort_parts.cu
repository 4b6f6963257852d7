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

/// A variant of the library's all-digits histogram (radix::histogram_kernel): Vecs 16-byte
/// vectors per thread and step; Prefetch: the next step's vectors are loaded before this
/// step's keys are counted, so that loads stay in flight during the shared-memory atomics.
template <scankit::key_kind Kind, class U, int Vecs, bool Prefetch>
__global__ void __launch_bounds__(256) histogram_variant(const U* keys, std::int64_t n, int passes,
                                                         unsigned long long* hist) {
  constexpr int max_passes = radix::max_passes, R = radix::radix;
  __shared__ unsigned counts[max_passes][R];
  for (int i = threadIdx.x; i < max_passes * R; i += blockDim.x) (&counts[0][0])[i] = 0;
  __syncthreads();
  radix::digit_of<Kind, U> dig[max_passes];
#pragma unroll
  for (int p = 0; p < max_passes; ++p)
    if (p < passes) dig[p] = radix::make_digit<Kind, U>(scankit::sort_options{}, 0, 8 * sizeof(U), p);
  auto count_vec = [&](const uint4& q) {
    U k[16 / sizeof(U)];
    memcpy(k, &q, 16);
#pragma unroll
    for (int x = 0; x < 16 / static_cast<int>(sizeof(U)); ++x)
#pragma unroll
      for (int p = 0; p < max_passes; ++p)
        if (p < passes) atomicAdd(&counts[p][dig[p](k[x])], 1u);
  };
  constexpr int per_vec = 16 / sizeof(U), step_keys = Vecs * per_vec;
  const std::int64_t per_block = (((n + gridDim.x - 1) / gridDim.x + step_keys - 1) / step_keys) * step_keys;
  const std::int64_t b = per_block * blockIdx.x;
  const std::int64_t e = b + per_block < n ? b + per_block : n;
  const std::int64_t vec_end = e > b ? b + (e - b) / step_keys * step_keys : b;
  const std::int64_t stride = std::int64_t{blockDim.x} * step_keys;
  std::int64_t v = b + threadIdx.x * step_keys;
  if constexpr (Prefetch) {
    uint4 cur[Vecs];
    if (v < vec_end)
#pragma unroll
      for (int j = 0; j < Vecs; ++j) cur[j] = __ldcs(reinterpret_cast<const uint4*>(keys + v) + j);
    for (; v < vec_end; v += stride) {
      uint4 next[Vecs];
      if (v + stride < vec_end)
#pragma unroll
        for (int j = 0; j < Vecs; ++j) next[j] = __ldcs(reinterpret_cast<const uint4*>(keys + v + stride) + j);
#pragma unroll
      for (int j = 0; j < Vecs; ++j) count_vec(cur[j]);
#pragma unroll
      for (int j = 0; j < Vecs; ++j) cur[j] = next[j];
    }
  } else {
    for (; v < vec_end; v += stride) {
      uint4 q[Vecs];
#pragma unroll
      for (int j = 0; j < Vecs; ++j) q[j] = __ldcs(reinterpret_cast<const uint4*>(keys + v) + j);
#pragma unroll
      for (int j = 0; j < Vecs; ++j) count_vec(q[j]);
    }
  }
  for (std::int64_t i = vec_end + threadIdx.x; i < e; i += blockDim.x)
#pragma unroll
    for (int p = 0; p < max_passes; ++p)
      if (p < passes) atomicAdd(&counts[p][dig[p](keys[i])], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < passes * R; i += blockDim.x) {
    const unsigned c = (&counts[0][0])[i];
    if (c) atomicAdd(hist + i, static_cast<unsigned long long>(c));
  }
}

template <class U, int Vecs, bool Prefetch>
void time_variant(timer& tm, const U* keys, std::int64_t n, unsigned long long* hist, const unsigned long long* want,
                  unsigned grid, float copy, int reps) {
  constexpr auto kind = scankit::key_kind::unsigned_int;
  const int passes = static_cast<int>(sizeof(U));
  const float ms = tm.median_ms([&] {
    CK(cudaMemsetAsync(hist, 0, radix::hist_bytes));
    histogram_variant<kind, U, Vecs, Prefetch><<<grid, 256>>>(keys, n, passes, hist);
    CK(cudaGetLastError());
  }, reps);
  std::vector<unsigned long long> got(passes * radix::radix), ref(passes * radix::radix);
  CK(cudaMemcpy(got.data(), hist, 8 * got.size(), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ref.data(), want, 8 * ref.size(), cudaMemcpyDeviceToHost));
  std::printf("    histogram variant: %d vectors/step, prefetch %d, %4u blocks: %.3f ms (%.0f%% of a read at copy speed) %s\n",
              Vecs, Prefetch ? 1 : 0, grid, ms, 100.0 * (copy / 2) / ms, got == ref ? "OK" : "MISMATCH");
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
  {  // the variants' counts against a plain histogram of the same keys
    unsigned long long *ref, *h2;
    CK(cudaMalloc(&ref, radix::hist_bytes));
    CK(cudaMalloc(&h2, radix::hist_bytes));
    CK(cudaMemset(ref, 0, radix::hist_bytes));
    histogram_variant<kind, U, 1, false><<<1024, 256>>>(reinterpret_cast<const U*>(in), n, passes, ref);
    CK(cudaDeviceSynchronize());
    const U* k = reinterpret_cast<const U*>(in);
    for (unsigned grid : {1056u, 2048u, 4096u}) {
      time_variant<U, 2, false>(tm, k, n, h2, ref, grid, copy, reps);
      time_variant<U, 2, true>(tm, k, n, h2, ref, grid, copy, reps);
      time_variant<U, 4, false>(tm, k, n, h2, ref, grid, copy, reps);
      time_variant<U, 4, true>(tm, k, n, h2, ref, grid, copy, reps);
    }
    cudaFree(ref), cudaFree(h2);
  }
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
  for (int lg : {26, 28}) run<std::uint32_t>(std::int64_t{1} << lg, reps);
  for (int lg : {27}) run<std::uint64_t>(std::int64_t{1} << lg, reps);
}
