// The CUDA top-k past 2^31 keys (about 2.1 GB of uint8 on the device): the k largest of keys
// generated on the device from a hash of the position (values 0 to 199, so millions of ties at
// every value), with 40 larger keys planted past index 2^31, two of them equal. The expected
// result is known without a sort: the planted keys by value (the equal pair by position), then
// the first positions holding 199. Both one-array paths; the sampled one keeps millions of
// ties at its threshold as candidates and selects among them.
// The segmented sort past 2^31 keys: the same keys cut into one segment of 2^30 keys (merge
// rounds up to its length), segments of 3,000 (one round each) and of 100 (shared memory
// only); each sorted segment must be non-decreasing and hold the counts of every key its input
// held (counted on the host, segment by segment).
// Skips without a GPU or without the memory.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/cuda_test_util.hpp"
#include "scankit/cuda/segmented_sort.hpp"
#include "scankit/cuda/topk.hpp"

namespace {

namespace skc = scankit::cuda;
using namespace scankit::test;
using i64 = std::int64_t;

constexpr i64 n = (i64{1} << 31) + 4099;
constexpr i64 planted_from = (i64{1} << 31) + 7;
constexpr int planted = 40;

__host__ __device__ inline std::uint8_t value_at(i64 i) {
  if (i >= planted_from && i < planted_from + planted * 13 && (i - planted_from) % 13 == 0) {
    const i64 j = (i - planted_from) / 13;
    return static_cast<std::uint8_t>(j == planted - 1 ? 200 + planted - 2 : 200 + j);  // the last two tie
  }
  std::uint64_t z = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ull;
  return static_cast<std::uint8_t>((z >> 40) % 200);
}

__global__ void fill(std::uint8_t* x, i64 count) {
  for (i64 i = i64{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += i64{gridDim.x} * blockDim.x)
    x[i] = value_at(i);
}

TEST(CudaTopkLarge, LargestMoreThan2Pow31) {
  SKIP_WITHOUT_GPU();
  const i64 k = 64;
  // The expected positions: the planted keys by value, largest first (equal values by
  // position), then the first positions of value 199.
  std::vector<std::pair<int, i64>> top;
  for (int j = 0; j < planted; ++j) {
    const i64 pos = planted_from + j * 13;
    top.emplace_back(-static_cast<int>(value_at(pos)), pos);
  }
  std::sort(top.begin(), top.end());
  std::vector<i64> want;
  for (const auto& t : top) want.push_back(t.second);
  for (i64 i = 0; i < n && static_cast<i64>(want.size()) < k; ++i)
    if (value_at(i) == 199) want.push_back(i);
  std::size_t free_bytes = 0, total = 0;
  ck(cudaMemGetInfo(&free_bytes, &total));
  for (const auto path : {skc::topk_path::sampled, skc::topk_path::radix}) {
    const std::size_t ws_bytes = skc::topk_workspace_bytes(n, k, 1, {path});
    if (free_bytes < static_cast<std::size_t>(n) + ws_bytes + (std::size_t{1} << 28)) GTEST_SKIP() << "not enough device memory";
    device_buffer data, ws, vals, idx;
    data.reserve(static_cast<std::size_t>(n));
    fill<<<4096, 256>>>(data.as<std::uint8_t>(), n);
    ck(cudaGetLastError());
    ws.reserve(ws_bytes), vals.reserve(k), idx.reserve(k * 8);
    skc::topk(data.as<std::uint8_t>(), n, k, vals.as<std::uint8_t>(), idx.as<i64>(), ws.p, ws_bytes, nullptr, {},
              {path});
    std::vector<i64> got(k);
    std::vector<std::uint8_t> got_v(k);
    ck(cudaMemcpy(got.data(), idx.p, k * 8, cudaMemcpyDeviceToHost));
    ck(cudaMemcpy(got_v.data(), vals.p, k, cudaMemcpyDeviceToHost));
    EXPECT_EQ(got, want) << "path " << name(path);
    for (i64 j = 0; j < k; ++j) EXPECT_EQ(got_v[j], value_at(want[j])) << "path " << name(path) << ", " << j;
  }
}

TEST(CudaSegmentedSortLarge, KeysMoreThan2Pow31) {
  SKIP_WITHOUT_GPU();
  std::vector<i64> off{0, i64{1} << 30};
  while (off.back() + 3000 <= (i64{1} << 31)) off.push_back(off.back() + 3000);
  while (off.back() < n) off.push_back(std::min(off.back() + 100, n));
  const i64 count = static_cast<i64>(off.size()) - 1;
  const std::size_t ws_bytes = skc::segmented_sort_workspace_bytes(n, count, 1);
  std::size_t free_bytes = 0, total = 0;
  ck(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < 2 * static_cast<std::size_t>(n) + ws_bytes + (std::size_t{1} << 28)) GTEST_SKIP() << "not enough device memory";
  device_buffer in, out, d_off, ws;
  in.reserve(static_cast<std::size_t>(n)), out.reserve(static_cast<std::size_t>(n));
  d_off.reserve(off.size() * 8), ws.reserve(ws_bytes);
  fill<<<4096, 256>>>(in.as<std::uint8_t>(), n);
  ck(cudaGetLastError());
  ck(cudaMemcpy(d_off.p, off.data(), off.size() * 8, cudaMemcpyHostToDevice));
  const scankit::segment_bounds seg{scankit::segment_offsets{d_off.as<i64>(), count}};
  skc::segmented_sort_keys(in.as<std::uint8_t>(), out.as<std::uint8_t>(), n, seg, ws.p, ws_bytes, nullptr);
  std::vector<std::uint8_t> got(static_cast<std::size_t>(n));
  ck(cudaMemcpy(got.data(), out.p, got.size(), cudaMemcpyDeviceToHost));
  i64 bad = 0;
  for (i64 s = 0; s < count && bad < 5; ++s) {
    i64 counts[256] = {};
    for (i64 i = off[s]; i < off[s + 1]; ++i) ++counts[value_at(i)];
    for (i64 i = off[s]; i < off[s + 1]; ++i) {
      const std::uint8_t v = got[static_cast<std::size_t>(i)];
      if (--counts[v] < 0 || (i > off[s] && v < got[static_cast<std::size_t>(i - 1)])) {
        ADD_FAILURE() << "segment " << s << " [" << off[s] << ", " << off[s + 1] << ") is wrong at " << i;
        ++bad;
        break;
      }
    }
  }
}

}  // namespace
