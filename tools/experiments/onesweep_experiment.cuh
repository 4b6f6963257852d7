// The onesweep tile-shape harness shared by session8_onesweep.cu and session21_onesweep.cu
// (experiments, not part of the library build): each shape runs the library's onesweep driver
// (radix::run_onesweep_shape) on the same input as CUB's DeviceRadixSort (same process, L2
// flushed before each run, median of runs) and is checked against CUB's output.
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "experiment_common.cuh"
#include "scankit/cuda/sort.cuh"

namespace radix = scankit::cuda::detail::radix;

__global__ void fill_index64(unsigned long long* v, std::int64_t n) {  // session 19: 8-byte values
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    v[i] = static_cast<unsigned long long>(i) * 0x9e3779b97f4a7c15ull;
}
__global__ void fill_index(unsigned* v, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    v[i] = static_cast<unsigned>(i);
}
template <class K>
__global__ void count_mismatch(const K* a, const K* b, std::int64_t n, unsigned long long* bad) {
  unsigned long long local = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    local += a[i] != b[i];
  if (local) atomicAdd(bad, local);
}

template <class K>
struct context {
  using key_type = K;
  std::int64_t n;
  bool pairs;
  K *keys_in, *keys_out, *keys_ref;
  unsigned *vals_in, *vals_out, *vals_ref;  // 8 (16 for 16-byte values) bytes per key allocated
  int value_bytes = 4;
  char* ws;
  std::size_t ws_bytes;
  unsigned long long* bad;
  float cub_ms;
  timer tm;
};

template <class C, class K>
unsigned long long mismatches(C& c, const K* a, const K* b, std::int64_t words = -1) {
  CK(cudaMemset(c.bad, 0, 8));
  count_mismatch<<<1024, 256>>>(a, b, words < 0 ? c.n : words, c.bad);
  CK(cudaGetLastError());
  unsigned long long m = 0;
  CK(cudaMemcpy(&m, c.bad, 8, cudaMemcpyDeviceToHost));
  return m;
}

template <class V, radix::onesweep_shape Shape, class C>
void run_shape(C& c, const char* label, int reps) {
  using U = typename C::key_type;
  constexpr auto kind = scankit::radix_traits<U>::kind;
  scankit::cuda::detail::sort_request r{};
  r.n = c.n;
  radix::buffers<U, V> buf{};
  buf.keys[0] = c.keys_in;
  buf.keys[1] = c.keys_out;
  if constexpr (radix::has_values<V>) {
    static_assert(sizeof(V) == 4 || sizeof(V) == 8 || sizeof(V) == 16);
    buf.values[0] = reinterpret_cast<V*>(c.vals_in);
    buf.values[1] = reinterpret_cast<V*>(c.vals_out);
  }
  auto body = [&] {
    scankit::cuda::detail::arena ws(c.ws, c.ws_bytes);
    buf.keys[2] = ws.take<U>(c.n);
    buf.values[2] = radix::take_values<V>(ws, c.n);
    radix::run_onesweep_shape<kind, U, V, Shape>(r, buf, 0, 8 * sizeof(U), static_cast<int>(sizeof(U)), false, ws);
  };
  CK(cudaMemset(c.keys_out, 0, c.n * sizeof(U)));
  const float ms = c.tm.median_ms(body, reps);
  CK(cudaDeviceSynchronize());
  auto kern = radix::onesweep_kernel<kind, U, V, Shape.block, Shape.items, Shape.min_blocks, Shape.stage_early>;
  cudaFuncAttributes fa{};
  CK(cudaFuncGetAttributes(&fa, kern));
  constexpr int smem = sizeof(radix::onesweep_storage<U, V, Shape.block, Shape.items, Shape.stage_early>);
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, Shape.block, smem));
  unsigned long long bad = mismatches(c, c.keys_out, c.keys_ref);
  if (c.pairs) bad += mismatches(c, c.vals_out, c.vals_ref, c.n * c.value_bytes / 4);
  std::printf("  %-30s %3dx%-2d %3d regs %4d B local %5d B smem %d/SM (%5d keys/SM) %8.4f ms  %5.3fx CUB  %s\n", label,
              Shape.block, Shape.items, fa.numRegs, static_cast<int>(fa.localSizeBytes), smem, per_sm,
              per_sm * Shape.block * Shape.items, ms, c.cub_ms / ms, bad ? "WRONG" : "ok");
  std::fflush(stdout);
}

template <class K, class F>
void with_context(std::int64_t n, bool pairs, F body, int value_bytes = 4) {
  context<K> c;
  c.n = n;
  c.pairs = pairs;
  c.value_bytes = value_bytes;
  const int reps = 9;
  CK(cudaMalloc(&c.keys_in, n * sizeof(K)));
  CK(cudaMalloc(&c.keys_out, n * sizeof(K)));
  CK(cudaMalloc(&c.keys_ref, n * sizeof(K)));
  const std::int64_t vb = value_bytes > 8 ? 16 : 8;
  CK(cudaMalloc(&c.vals_in, n * vb));
  CK(cudaMalloc(&c.vals_out, n * vb));
  CK(cudaMalloc(&c.vals_ref, n * vb));
  // (Small tiles keep 1 KiB of look-back words per tile and pass: 256 MiB at 2^28 and 256 x 8.)
  c.ws_bytes = static_cast<std::size_t>(n) * (sizeof(K) + vb + 2) + (std::size_t{256} << 20);
  CK(cudaMalloc(&c.ws, c.ws_bytes));
  CK(cudaMalloc(&c.bad, 8));
  fill_keys<<<1024, 256>>>(c.keys_in, n, 777u);
  if (value_bytes == 16) fill_index64<<<1024, 256>>>(reinterpret_cast<unsigned long long*>(c.vals_in), 2 * n);
  else if (value_bytes == 8) fill_index64<<<1024, 256>>>(reinterpret_cast<unsigned long long*>(c.vals_in), n);
  else fill_index<<<1024, 256>>>(c.vals_in, n);
  CK(cudaGetLastError());
  std::size_t cub_bytes = 0;
  void* cub_ws = nullptr;
  auto cub_call = [&](void* w) {
    using u64 = unsigned long long;
    if (pairs && value_bytes == 16)
      CK(cub::DeviceRadixSort::SortPairs(w, cub_bytes, c.keys_in, c.keys_ref, reinterpret_cast<radix::blob16*>(c.vals_in),
                                         reinterpret_cast<radix::blob16*>(c.vals_ref), n));
    else if (pairs && value_bytes == 8)
      CK(cub::DeviceRadixSort::SortPairs(w, cub_bytes, c.keys_in, c.keys_ref, reinterpret_cast<u64*>(c.vals_in),
                                         reinterpret_cast<u64*>(c.vals_ref), n));
    else if (pairs)
      CK(cub::DeviceRadixSort::SortPairs(w, cub_bytes, c.keys_in, c.keys_ref, c.vals_in, c.vals_ref, n));
    else
      CK(cub::DeviceRadixSort::SortKeys(w, cub_bytes, c.keys_in, c.keys_ref, n));
  };
  cub_call(nullptr);
  CK(cudaMalloc(&cub_ws, cub_bytes));
  c.cub_ms = c.tm.median_ms([&] { cub_call(cub_ws); }, reps);
  std::printf("\nn = 2^%.2f uint%d %s: CUB %.4f ms\n", std::log2(double(n)), static_cast<int>(8 * sizeof(K)),
              !pairs ? "keys" : value_bytes == 16 ? "keys + 16-byte values" : value_bytes == 8 ? "keys + uint64 values" : "keys + uint32 values",
              c.cub_ms);
  body(c, reps);
  CK(cudaFree(cub_ws));
  CK(cudaFree(c.keys_in));
  CK(cudaFree(c.keys_out));
  CK(cudaFree(c.keys_ref));
  CK(cudaFree(c.vals_in));
  CK(cudaFree(c.vals_out));
  CK(cudaFree(c.vals_ref));
  CK(cudaFree(c.ws));
  CK(cudaFree(c.bad));
}

using no_v = radix::no_value;
using v4 = unsigned;

