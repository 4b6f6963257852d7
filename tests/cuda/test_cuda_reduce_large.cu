// The CUDA reductions past 2^31 items (about 8.6 GB of int32 on the device): a sum and an
// argmax whose answer lies past index 2^31, against host loops over the same generated values.
// The inputs are generated on the device from a hash of the position (no all-zero data, no
// 8 GB host copy). Skips without a GPU or without the memory.
#include <cuda_runtime.h>

#include <cstdint>

#include "common/cuda_test_util.hpp"
#include "scankit/cuda/reduce.hpp"

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
using namespace scankit::test;

constexpr std::int64_t n = (std::int64_t{1} << 31) + 4099;
constexpr std::int64_t peak = (std::int64_t{1} << 31) + 17;

__host__ __device__ inline std::int32_t value_at(std::int64_t i) {
  std::uint64_t z = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ull;
  const auto v = static_cast<std::int32_t>((z >> 40) % 2001) - 1000;
  return i == peak ? 5000 : v;
}

__global__ void fill(std::int32_t* x, std::int64_t count) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x)
    x[i] = value_at(i);
}

TEST(CudaReduceLarge, SumAndArgmaxMoreThan2Pow31) {
  SKIP_WITHOUT_GPU();
  std::size_t free_bytes = 0, total = 0;
  ck(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < static_cast<std::size_t>(n) * 4 + (std::size_t{1} << 28)) GTEST_SKIP() << "not enough device memory";
  device_buffer data, ws, out;
  data.reserve(static_cast<std::size_t>(n) * 4);
  fill<<<4096, 256>>>(data.as<std::int32_t>(), n);
  ck(cudaGetLastError());
  const std::size_t ws_bytes = skc::reduce_workspace_bytes(sizeof(sk::indexed<std::int32_t>));
  ws.reserve(ws_bytes);
  out.reserve(64);
  skc::reduce(data.as<std::int32_t>(), n, sk::sum<std::int32_t>{}, out.as<std::int32_t>(), ws.p, ws_bytes, nullptr);
  std::int32_t sum = 0;
  ck(cudaMemcpy(&sum, out.p, 4, cudaMemcpyDeviceToHost));
  skc::argmax(data.as<std::int32_t>(), n, out.as<sk::indexed<std::int32_t>>(), ws.p, ws_bytes, nullptr);
  sk::indexed<std::int32_t> arg{};
  ck(cudaMemcpy(&arg, out.p, sizeof(arg), cudaMemcpyDeviceToHost));
  std::uint32_t ref = 0;  // int32 sums wrap
  for (std::int64_t i = 0; i < n; ++i) ref += static_cast<std::uint32_t>(value_at(i));
  EXPECT_EQ(static_cast<std::uint32_t>(sum), ref);
  EXPECT_EQ(arg.index, peak);
  EXPECT_EQ(arg.value, 5000);
}

}  // namespace
