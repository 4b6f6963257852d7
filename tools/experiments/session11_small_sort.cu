// Session 11 experiment (not part of the library build): where the single-block sort's time
// goes, and whether fewer threads per block would be faster. Times, on the same keys and in one
// process: the library's sort (its single-block path), CUB's DeviceRadixSort::SortKeys, and a
// copy of the single-block kernel with the block size as a parameter, run with 0, 1, 2 and all
// passes (0 passes: launch, load and store only). Outputs of the full runs are compared with
// CUB's, bit for bit.
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//        tools/experiments/session11_small_sort.cu build/release/libscankit.a -ltbb -o session11_small_sort
#include <cub/device/device_radix_sort.cuh>

#include <cstdio>
#include <vector>

#include "experiment_common.cuh"
#include "scankit/cuda/sort.cuh"

namespace radix = scankit::cuda::detail::radix;
using scankit::key_kind;

template <class U, int Block, int Items>
struct storage_of {
  typename radix::count_then_rank<Block, Items>::storage rank;
  U keys[Block * Items];
};

/// The library's small_sort_kernel for unsigned keys alone, with Block threads.
template <class U, int Block, int Items>
__global__ void __launch_bounds__(Block, 1) small_variant(const U* in, U* out, int n, int passes) {
  using ranker = radix::count_then_rank<Block, Items>;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto& s = *reinterpret_cast<storage_of<U, Block, Items>*>(smem_raw);
  const int first = (threadIdx.x >> 5) * 32 * Items + (threadIdx.x & 31);
  U key[Items];
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = first + j * 32;
    key[j] = i < n ? in[i] : static_cast<U>(~U{0});
  }
  for (int p = 0; p < passes; ++p) {
    const int shift = p * 8;
    const auto dig = [&](U o) { return static_cast<unsigned>(o >> shift) & 255u; };
    unsigned count = ranker::count(s.rank, key, dig);
    ranker::offsets(s.rank, count);
    ranker::rank(s.rank, key, dig, [&](int j, unsigned r) { s.keys[r] = key[j]; });
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j) key[j] = s.keys[first + j * 32];
    __syncthreads();
  }
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = first + j * 32;
    if (i < n) out[i] = key[j];
  }
}

template <class U, int Block, int Items>
void variant(timer& tm, const U* in, U* out, const U* ref, int n, int reps) {
  constexpr std::size_t smem = sizeof(storage_of<U, Block, Items>);
  auto k = small_variant<U, Block, Items>;
  if (smem > (48u << 10)) CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  constexpr int all = static_cast<int>(sizeof(U));
  float t[4];
  const int ps[4] = {0, 1, 2, all};
  for (int q = 0; q < 4; ++q) t[q] = tm.median_ms([&] { k<<<1, Block, smem>>>(in, out, n, ps[q]); }, reps);
  CK(cudaGetLastError());
  std::vector<U> a(n), b(n);
  CK(cudaMemcpy(a.data(), out, sizeof(U) * n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b.data(), ref, sizeof(U) * n, cudaMemcpyDeviceToHost));
  std::printf("  %4d x %2d: 0 passes %.2f us, 1 %.2f, 2 %.2f, %d %.2f us  (per pass %.2f us)  %s\n", Block, Items,
              1e3 * t[0], 1e3 * t[1], 1e3 * t[2], all, 1e3 * t[3], 1e3 * (t[3] - t[0]) / all, a == b ? "OK" : "WRONG");
}

template <class U, int Items1024>
void run(int n, int reps) {
  timer tm;
  U *in, *out, *ref;
  CK(cudaMalloc(&in, sizeof(U) * n));
  CK(cudaMalloc(&out, sizeof(U) * n));
  CK(cudaMalloc(&ref, sizeof(U) * n));
  fill_keys<<<64, 256>>>(in, n, 12345u);
  CK(cudaDeviceSynchronize());
  std::size_t cub_bytes = 0;
  CK(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in, ref, n));
  void* cub_ws;
  CK(cudaMalloc(&cub_ws, cub_bytes + 16));
  const float cub = tm.median_ms([&] { CK(cub::DeviceRadixSort::SortKeys(cub_ws, cub_bytes, in, ref, n)); }, reps);
  const std::size_t ws_bytes = scankit::cuda::sort_workspace_bytes(n, sizeof(U), 0, {});
  void* ws;
  CK(cudaMalloc(&ws, ws_bytes + 16));
  const float lib = tm.median_ms([&] { scankit::cuda::sort_keys(in, out, n, ws, ws_bytes, nullptr); }, reps);
  std::printf("%s n=%d: cub %.2f us, library %.2f us (vs cub %.3fx)\n", sizeof(U) == 4 ? "u32" : "u64", n, 1e3 * cub,
              1e3 * lib, cub / lib);
  variant<U, 1024, Items1024>(tm, in, out, ref, n, reps);
  variant<U, 512, Items1024 * 2>(tm, in, out, ref, n, reps);
  variant<U, 256, Items1024 * 4>(tm, in, out, ref, n, reps);
  cudaFree(in), cudaFree(out), cudaFree(ref), cudaFree(cub_ws), cudaFree(ws);
}

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 21;
  run<std::uint32_t, 1>(1024, reps);
  run<std::uint32_t, 2>(2048, reps);
  run<std::uint32_t, 4>(4096, reps);
  run<std::uint64_t, 1>(1024, reps);
  run<std::uint64_t, 2>(2048, reps);
  run<std::uint64_t, 4>(4096, reps);
}
