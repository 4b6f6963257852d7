// Session 22 experiment (not part of the library build): round 8's one failure in
// test_cuda_compact (TileSizes/scan_scatter: a count one short at n = 11264, uint32 positions
// scanned exclusive in place by the look-back scan's striped tile, two tiles) did not come back in
// 18 replays. This repeats the same scan many times without a host round trip per run: 0/1 flags
// copied in, the in-place exclusive scan with its carry-out, then a kernel that checks every
// output and the total against CUB's scan of the same flags and counts the runs that differ.
// Then the same through the compaction API (scan-scatter, select_if), checking its count.
// Round 10 built it twice, at commit 8d84956, whose decoupled_lookback.cuh had a temporary switch
// SCANKIT_STRIPED_PARTIAL_VECTORS: as the library is, and with it false (the striped tile's
// partial last tile loaded item by item, as before session 22). The switch is gone; the macro
// below now only labels the output.
//
//   ./session22_scan_stress [runs per size]
#include <cub/device/device_scan.cuh>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "experiment_common.cuh"
#include "scankit/cuda/compact.cuh"
#include "scankit/cuda/scan.cuh"

#ifndef SCANKIT_STRIPED_PARTIAL_VECTORS
#define SCANKIT_STRIPED_PARTIAL_VECTORS true
#endif

namespace skc = scankit::cuda;

__global__ void fill_flags(unsigned* f, unsigned* items, std::int64_t n, unsigned salt) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x) {
    const unsigned v = hash32(i, salt) % 4;
    items[i] = v;
    f[i] = v == 0 ? 1u : 0u;
  }
}

__global__ void check_scan(const unsigned* got, const unsigned* ref, const unsigned* total, unsigned expected_total,
                           std::int64_t n, unsigned long long* bad_runs, unsigned long long* bad_items) {
  __shared__ int bad;
  if (threadIdx.x == 0) bad = 0;
  __syncthreads();
  for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x)
    if (got[i] != ref[i]) {
      atomicAdd(bad_items, 1ull);
      bad = 1;
    }
  if (threadIdx.x == 0 && *total != expected_total) bad = 1;
  __syncthreads();
  if (threadIdx.x == 0 && bad) atomicAdd(bad_runs, 1ull);
}

__global__ void check_count(const std::int64_t* count, std::int64_t expected, unsigned long long* bad_runs) {
  if (*count != expected) atomicAdd(bad_runs, 1ull);
}

struct is_zero {
  using item_type = unsigned;
  __host__ __device__ bool operator()(unsigned v) const { return v == 0; }
};

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 20000;
  cudaDeviceProp p{};
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("%s; striped partial vectors %s; %d runs per size\n", p.name, SCANKIT_STRIPED_PARTIAL_VECTORS ? "on" : "off", runs);
  const std::vector<std::int64_t> sizes{11264, 8193, 9000, 12000, 16383, 16385, 20000, 24577, 3000, 100003};
  for (std::int64_t n : sizes) {
    unsigned *flags, *items, *pos, *ref, *total, *items_out;
    std::int64_t* count;
    unsigned long long* bad;
    CK(cudaMalloc(&flags, n * 4));
    CK(cudaMalloc(&items, n * 4));
    CK(cudaMalloc(&items_out, n * 4));
    CK(cudaMalloc(&pos, n * 4));
    CK(cudaMalloc(&ref, n * 4 + 4));
    CK(cudaMalloc(&total, 4));
    CK(cudaMalloc(&count, 8));
    CK(cudaMalloc(&bad, 24));
    CK(cudaMemset(bad, 0, 24));
    fill_flags<<<256, 256>>>(flags, items, n, 777u + static_cast<unsigned>(n));
    CK(cudaGetLastError());
    std::size_t cub_bytes = 0;
    CK(cub::DeviceScan::ExclusiveSum(nullptr, cub_bytes, flags, ref, n + 1));
    void* cub_ws;
    CK(cudaMalloc(&cub_ws, cub_bytes));
    // ref[n] needs flags[n]: scan n items and add the last flag on the host instead.
    CK(cub::DeviceScan::ExclusiveSum(cub_ws, cub_bytes, flags, ref, n));
    unsigned last_ref = 0, last_flag = 0;
    CK(cudaMemcpy(&last_ref, ref + n - 1, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&last_flag, flags + n - 1, 4, cudaMemcpyDeviceToHost));
    const unsigned expected = last_ref + last_flag;
    const skc::scan_config sc{skc::scan_algorithm::decoupled_lookback, 0};
    const std::size_t ws_bytes = skc::scan_workspace_bytes(n, 4, sc);
    skc::compact_config cc;
    cc.algorithm = skc::compact_algorithm::scan_scatter;
    const std::size_t cws_bytes = skc::compact_workspace_bytes(n, 4, cc);
    void *ws, *cws;
    CK(cudaMalloc(&ws, ws_bytes));
    CK(cudaMalloc(&cws, cws_bytes));
    for (int r = 0; r < runs; ++r) {
      CK(cudaMemcpyAsync(pos, flags, n * 4, cudaMemcpyDeviceToDevice));
      skc::scan(pos, pos, n, scankit::sum<unsigned>{}, scankit::scan_kind::exclusive, 0u, ws, ws_bytes, cudaStream_t{}, sc,
                total);
      check_scan<<<1, 1024>>>(pos, ref, total, expected, n, bad, bad + 1);
      skc::select_if(items, items_out, n, is_zero{}, count, cws, cws_bytes, cudaStream_t{}, cc);
      check_count<<<1, 1>>>(count, static_cast<std::int64_t>(expected), bad + 2);
    }
    CK(cudaGetLastError());
    unsigned long long h[3];
    CK(cudaMemcpy(h, bad, 24, cudaMemcpyDeviceToHost));
    std::printf("n = %lld: scan runs wrong %llu (items wrong %llu), select_if counts wrong %llu, of %d\n",
                static_cast<long long>(n), h[0], h[1], h[2], runs);
    for (void* q : {(void*)flags, (void*)items, (void*)items_out, (void*)pos, (void*)ref, (void*)total, (void*)count,
                    (void*)bad, cub_ws, ws, cws})
      CK(cudaFree(q));
  }
  return 0;
}
