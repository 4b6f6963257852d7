// The CUDA segmented operations past 2^31 items (about 8.6 GB of int32 on the device, twice for
// the scan): a segmented reduce and a segmented scan over random segments, one of which spans
// position 2^31, against host loops over the same generated values. The values are generated on
// the device from a hash of the position. Skips without a GPU or without the memory.
#include <cuda_runtime.h>

#include <cstdint>
#include <random>
#include <vector>

#include "common/cuda_test_util.hpp"
#include "common/test_util.hpp"
#include "scankit/cuda/segments.hpp"

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
using namespace scankit::test;

constexpr std::int64_t n = (std::int64_t{1} << 31) + 4099;

__host__ __device__ inline std::int32_t value_at(std::int64_t i) {
  std::uint64_t z = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ull;
  return static_cast<std::int32_t>((z >> 40) % 2001) - 1000;
}

__global__ void fill(std::int32_t* x, std::int64_t count) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x)
    x[i] = value_at(i);
}

TEST(CudaSegmentsLarge, ReduceAndScanMoreThan2Pow31) {
  SKIP_WITHOUT_GPU();
  std::size_t free_bytes = 0, total = 0;
  ck(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < static_cast<std::size_t>(n) * 8 + (std::size_t{1} << 30)) GTEST_SKIP() << "not enough device memory";
  // Random lengths (mean about 2^20), plus one segment across 2^31.
  std::vector<std::int64_t> off{0};
  std::uniform_int_distribution<std::int64_t> len(0, std::int64_t{1} << 21);
  while (off.back() < n) {
    std::int64_t next = std::min(n, off.back() + len(rng()));
    if (off.back() < (std::int64_t{1} << 31) - 1000 && next > (std::int64_t{1} << 31) - 1000)
      next = std::min(n, (std::int64_t{1} << 31) + 3000);
    off.push_back(next);
  }
  const auto count = static_cast<std::int64_t>(off.size()) - 1;
  device_buffer data, out, offsets, ws;
  data.reserve(static_cast<std::size_t>(n) * 4);
  out.reserve(static_cast<std::size_t>(n) * 4);
  offsets.reserve(off.size() * 8);
  fill<<<4096, 256>>>(data.as<std::int32_t>(), n);
  ck(cudaGetLastError());
  ck(cudaMemcpy(offsets.p, off.data(), off.size() * 8, cudaMemcpyHostToDevice));
  const std::size_t ws_bytes = skc::segments_workspace_bytes(n, count, 4);
  ws.reserve(ws_bytes);
  const sk::segment_offsets seg{offsets.as<std::int64_t>(), count};
  skc::segmented_reduce(data.as<std::int32_t>(), n, seg, sk::sum<std::int32_t>{}, 0, out.as<std::int32_t>(), ws.p,
                        ws_bytes, nullptr);
  std::vector<std::int32_t> sums(static_cast<std::size_t>(count));
  ck(cudaMemcpy(sums.data(), out.p, sums.size() * 4, cudaMemcpyDeviceToHost));
  for (std::int64_t s = 0; s < count; ++s) {
    std::uint32_t ref = 0;  // int32 sums wrap
    for (std::int64_t i = off[s]; i < off[s + 1]; ++i) ref += static_cast<std::uint32_t>(value_at(i));
    ASSERT_EQ(static_cast<std::uint32_t>(sums[s]), ref) << "segment " << s;
  }
  skc::segmented_scan(data.as<std::int32_t>(), out.as<std::int32_t>(), n, seg, sk::sum<std::int32_t>{},
                      sk::scan_kind::inclusive, 0, ws.p, ws_bytes, nullptr);
  std::vector<std::int32_t> scanned(static_cast<std::size_t>(n));
  ck(cudaMemcpy(scanned.data(), out.p, scanned.size() * 4, cudaMemcpyDeviceToHost));
  for (std::int64_t s = 0; s < count; ++s) {
    std::uint32_t run = 0;
    for (std::int64_t i = off[s]; i < off[s + 1]; ++i) {
      run += static_cast<std::uint32_t>(value_at(i));
      if (static_cast<std::uint32_t>(scanned[static_cast<std::size_t>(i)]) != run) FAIL() << "item " << i;
    }
  }
}

}  // namespace
