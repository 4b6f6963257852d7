// Session 8 experiment (not part of the library build): onesweep tile shapes, and keys staged
// in shared memory as they are ranked ("early") instead of after the look-back ("late").
//
// Staged late (the library until now), every thread holds its keys (and values) and their
// ranks in registers across the look-back, so registers cap the blocks per SM (keys only:
// 3 x 384 threads at 56 registers; pairs: 2 x 384). Staged early, nothing per item survives
// the ranking in registers; shared memory holds the tile instead, and more blocks may fit.
//
// Each variant runs the library's onesweep driver (radix::run_onesweep_shape) with the given
// shape on the same input as CUB's DeviceRadixSort (same process, L2 flushed before each run,
// median of runs) and is checked against CUB's output.
//
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//        tools/experiments/session8_onesweep.cu build/release/libscankit.a -ltbb -o session8_onesweep
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

void keys_variants(context<unsigned>& c, int reps) {
  run_shape<no_v, radix::onesweep_shape{384, 19, 3}>(c, "late (library now)", reps);
  if (c.n >= (std::int64_t{1} << 27) || c.n == (std::int64_t{1} << 24)) {  // round 8's, again
    run_shape<no_v, radix::onesweep_shape{384, 19, 3, true}>(c, "early", reps);
    run_shape<no_v, radix::onesweep_shape{512, 16, 3, true}>(c, "early", reps);
  }
  run_shape<no_v, radix::onesweep_shape{384, 24, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{384, 28, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{384, 32, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 20, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 24, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{768, 16, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{1024, 12, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{640, 20, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{384, 19, 3}>(c, "late (library now), again", reps);
}

void pairs_variants(context<unsigned>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 16, 2}>(c, "late (library now)", reps);
  run_shape<v4, radix::onesweep_shape{384, 24, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 16, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 20, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{768, 12, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 20, 2}>(c, "late", reps);
  run_shape<v4, radix::onesweep_shape{384, 16, 2}>(c, "late (library now), again", reps);
}

// Round 10: around the best of round 9, more runs; pairs; 64-bit keys.
void keys_round10(context<unsigned>& c, int reps) {
  run_shape<no_v, radix::onesweep_shape{384, 19, 3}>(c, "late (library now)", reps);
  run_shape<no_v, radix::onesweep_shape{512, 20, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 22, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 24, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 28, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{640, 24, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{384, 32, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 20, 3, true}>(c, "early, again", reps);
}
void pairs_round10(context<unsigned>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 16, 2}>(c, "late (library now)", reps);
  run_shape<v4, radix::onesweep_shape{512, 20, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 24, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{640, 16, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early", reps);
}
void keys64_round10(context<std::uint64_t>& c, int reps) {
  run_shape<no_v, radix::onesweep_shape{384, 12, 3}>(c, "late (library now)", reps);
  run_shape<no_v, radix::onesweep_shape{512, 10, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 12, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{384, 16, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 16, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{384, 12, 3, true}>(c, "early", reps);
}

// Round 17: one more key per thread or two at 3 blocks per SM, where the 40-register budget
// allows it without spills.
void keys_round17(context<unsigned>& c, int reps) {
  run_shape<no_v, radix::onesweep_shape{512, 22, 3, true}>(c, "early (library now)", reps);
  run_shape<no_v, radix::onesweep_shape{512, 23, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 24, 3, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 22, 3, true}>(c, "early (library now), again", reps);
  run_shape<no_v, radix::onesweep_shape{512, 24, 3, true}>(c, "early, again", reps);
}

// Session 9 (round s9): 8-byte keys with 4-byte values, staged late at 384 x 12 (the library
// until session 9) against early tiles (ptxas: 384 x 16 early at 80 registers, no spills).
void pairs64_session9(context<std::uint64_t>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 12, 2}>(c, "late (session 8)", reps);
  run_shape<v4, radix::onesweep_shape{384, 16, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{384, 12, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 12, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 12, 2}>(c, "late (session 8), again", reps);
  run_shape<v4, radix::onesweep_shape{384, 16, 2, true}>(c, "early (library now), again", reps);
}

// Session 19: 4-byte pairs at 3 and 4 blocks per SM (only 2 per SM had been tried staged
// early; session 12's Nsight Compute had the 384 x 28 pairs kernel at 37.5% occupancy, waiting
// on barriers, memory and the store queue, about 40% SM busy).
void pairs_session19(context<unsigned>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{256, 16, 4, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{256, 20, 4, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{256, 24, 3, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{256, 28, 3, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 16, 3, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 18, 3, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 14, 3, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 32, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now), again", reps);
}

// Session 19, round 3: round 2 (s19 above) had 384 x 32 at one block per SM beat the library's
// 384 x 28 at two (1.042x against 1.022x CUB at 2^28): bigger tiles at one block per SM.
void pairs_session19b(context<unsigned>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{384, 32, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 24, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 32, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 40, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{640, 32, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{768, 24, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{768, 28, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{1024, 16, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{1024, 20, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now), again", reps);
}
void pairs64_session19b(context<std::uint64_t>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 18, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{512, 20, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 24, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{640, 20, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{768, 16, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 18, 2, true}>(c, "early (library now), again", reps);
}

// Session 19, round 4: 8-byte values (the library: 4-byte keys 512 x 13 at 2 blocks per SM,
// 8-byte keys 384 x 12 staged late), bigger tiles at one block per SM; and 4-byte pairs at mid
// sizes, where one block of 20,480 keys per SM leaves SMs idle.
using v8 = unsigned long long;
void pairs_v8_session19(context<unsigned>& c, int reps) {
  run_shape<v8, radix::onesweep_shape{512, 13, 2, true}>(c, "early (library now)", reps);
  run_shape<v8, radix::onesweep_shape{512, 24, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{512, 28, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{640, 20, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{768, 16, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{512, 13, 2, true}>(c, "early (library now), again", reps);
}
void pairs64_v8_session19(context<std::uint64_t>& c, int reps) {
  run_shape<v8, radix::onesweep_shape{384, 12, 2}>(c, "late (library now)", reps);
  run_shape<v8, radix::onesweep_shape{512, 16, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{512, 20, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{640, 16, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{768, 12, 1, true}>(c, "early", reps);
  run_shape<v8, radix::onesweep_shape{384, 12, 2}>(c, "late (library now), again", reps);
}
void pairs_mid_session19(context<unsigned>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{512, 40, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{640, 32, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now), again", reps);
}
void pairs64_mid_session19(context<std::uint64_t>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 18, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{512, 24, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{640, 20, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 18, 2, true}>(c, "early (library now), again", reps);
}

// Session 19, round 6: do keys alone gain from bigger tiles too? (The keys kernel was bound
// by its integer pipe in session 12, unlike pairs.)
void keys_session19(context<unsigned>& c, int reps) {
  run_shape<no_v, radix::onesweep_shape{512, 22, 3, true}>(c, "early (library now)", reps);
  run_shape<no_v, radix::onesweep_shape{512, 32, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 40, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{768, 24, 2, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 40, 1, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{1024, 24, 1, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 22, 3, true}>(c, "early (library now), again", reps);
}
void keys64_session19(context<std::uint64_t>& c, int reps) {
  run_shape<no_v, radix::onesweep_shape{512, 18, 2, true}>(c, "early (library now)", reps);
  run_shape<no_v, radix::onesweep_shape{512, 28, 1, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{768, 20, 1, true}>(c, "early", reps);
  run_shape<no_v, radix::onesweep_shape{512, 18, 2, true}>(c, "early (library now), again", reps);
}

// Session 20: 16-byte values, which kept session 8's 256 x 8 staged late and ran at 0.92-0.96x
// CUB from 2^23 to 2^28 with uint32 keys (1.02-1.03x with uint64 keys; docs/results/
// s20-sweep-u32-v16.csv): the one-block-per-SM tiles that paid for 8-byte values in session 19.
using v16 = radix::blob16;
void pairs_v16_session20(context<unsigned>& c, int reps) {
  run_shape<v16, radix::onesweep_shape{256, 8, 2}>(c, "late (library now)", reps);
  run_shape<v16, radix::onesweep_shape{512, 12, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{512, 16, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{384, 16, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{640, 12, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{384, 12, 2, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{256, 16, 2, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{512, 8, 2}>(c, "late", reps);
  run_shape<v16, radix::onesweep_shape{256, 8, 2}>(c, "late (library now), again", reps);
}
void pairs64_v16_session20(context<std::uint64_t>& c, int reps) {
  run_shape<v16, radix::onesweep_shape{256, 8, 2}>(c, "late (library now)", reps);
  run_shape<v16, radix::onesweep_shape{512, 12, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{512, 16, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{384, 16, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{640, 12, 1, true}>(c, "early", reps);
  run_shape<v16, radix::onesweep_shape{256, 8, 2}>(c, "late (library now), again", reps);
}

// Session 20: one-byte keys with 4-byte values (int8 pairs 1.07x CUB at 2^28 in session 19,
// the one pairs row under 1.1x; 512 x 40 at one block per SM gave 1.05x).
void pairs8_session20(context<unsigned char>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{256, 28, 3, true}>(c, "early", reps);  // (36 keys spilled 324 bytes)
  run_shape<v4, radix::onesweep_shape{640, 28, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 32, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 24, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{768, 24, 1, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now), again", reps);
}

// Session 20, round 5: one-byte keys with 4-byte values at 2^14-2^19 ran at 0.88-0.97x CUB (the
// library's sweep in round 4): one pass over a few tiles (5 of 12,288 keys at 2^16), so smaller
// tiles, more of them in flight at once.
void pairs8_mid_session20(context<unsigned char>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{512, 24, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (before)", reps);
  run_shape<v4, radix::onesweep_shape{256, 16, 3, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{256, 8, 4, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{256, 4, 4, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 8, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 24, 2, true}>(c, "early (library now), again", reps);
}

// Session 20, round 11: two-byte keys with 4-byte values ran at 1.01-1.09x CUB from 2^14 to
// 2^17 on 384 x 28 (round 5): the one-byte keys' small tiles there.
void pairs16_mid_session20(context<unsigned short>& c, int reps) {
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now)", reps);
  run_shape<v4, radix::onesweep_shape{256, 16, 3, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{256, 8, 4, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 8, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{512, 24, 2, true}>(c, "early", reps);
  run_shape<v4, radix::onesweep_shape{384, 28, 2, true}>(c, "early (library now), again", reps);
}

int main(int argc, char** argv) {
  const std::string round = argc > 1 ? argv[1] : "8";
  if (round == "s20c") {
    for (int lg : {14, 15, 16, 17, 18, 19, 20, 21, 22, 24, 28})
      with_context<unsigned short>(std::int64_t{1} << lg, true, pairs16_mid_session20);
    return 0;
  }
  if (round == "s20b") {
    for (int lg : {14, 15, 16, 17, 18, 19, 20, 21, 22}) with_context<unsigned char>(std::int64_t{1} << lg, true, pairs8_mid_session20);
    return 0;
  }
  if (round == "s20") {
    for (int lg : {28, 24}) with_context<unsigned char>(std::int64_t{1} << lg, true, pairs8_session20);
    for (int lg : {28, 24, 22}) with_context<unsigned>(std::int64_t{1} << lg, true, pairs_v16_session20, 16);
    for (int lg : {27, 24}) with_context<std::uint64_t>(std::int64_t{1} << lg, true, pairs64_v16_session20, 16);
    return 0;
  }
  if (round == "s19d") {
    for (int lg : {28, 30, 24}) with_context<unsigned>(std::int64_t{1} << lg, false, keys_session19);
    for (int lg : {28, 24}) with_context<std::uint64_t>(std::int64_t{1} << lg, false, keys64_session19);
    return 0;
  }
  if (round == "s19c") {
    for (int lg : {28, 24}) with_context<unsigned>(std::int64_t{1} << lg, true, pairs_v8_session19, 8);
    for (int lg : {27, 24}) with_context<std::uint64_t>(std::int64_t{1} << lg, true, pairs64_v8_session19, 8);
    for (int lg : {16, 18, 20, 21, 22, 23, 25, 27, 29})
      with_context<unsigned>(std::int64_t{1} << lg, true, pairs_mid_session19);
    for (int lg : {16, 18, 20, 21, 22, 23, 25, 28}) with_context<std::uint64_t>(std::int64_t{1} << lg, true, pairs64_mid_session19);
    return 0;
  }
  if (round == "s19b") {
    for (int lg : {28, 26, 24}) with_context<unsigned>(std::int64_t{1} << lg, true, pairs_session19b);
    for (int lg : {27, 24}) with_context<std::uint64_t>(std::int64_t{1} << lg, true, pairs64_session19b);
    return 0;
  }
  if (round == "s19") {
    for (int lg : {28, 24, 30}) with_context<unsigned>(std::int64_t{1} << lg, true, pairs_session19);
    return 0;
  }
  if (round == "s9") {
    for (int lg : {27, 24}) with_context<std::uint64_t>(std::int64_t{1} << lg, true, pairs64_session9);
    return 0;
  }
  if (round == "17") {
    for (int lg : {28, 28, 30, 26, 24, 20}) with_context<unsigned>(std::int64_t{1} << lg, false, keys_round17);
    return 0;
  }
  if (round == "10") {
    for (int lg : {28, 30, 26, 22, 20}) with_context<unsigned>(std::int64_t{1} << lg, false, keys_round10);
    for (int lg : {28, 22}) with_context<unsigned>(std::int64_t{1} << lg, true, pairs_round10);
    for (int lg : {28, 24}) with_context<std::uint64_t>(std::int64_t{1} << lg, false, keys64_round10);
    return 0;
  }
  // Round 8 measured 2^28 and 2^24 (keys, pairs); round 9 adds 2^30, 2^27, 2^20 and 2^16.
  const bool round9 = round == "9";
  for (int lg : round9 ? std::vector<int>{28, 30, 27, 24, 20, 16} : std::vector<int>{28, 24})
    with_context<unsigned>(std::int64_t{1} << lg, false, keys_variants);
  for (int lg : {28, 24}) with_context<unsigned>(std::int64_t{1} << lg, true, pairs_variants);
  return 0;
}
