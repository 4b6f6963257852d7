// GoogleTest suite of the CUDA scans' argument checks: bad arguments (negative sizes, null
// pointers, short or missing workspace, block sizes the kernels do not take, host containers
// that do not fit) throw scankit::invalid_argument before anything runs and leave the input and
// the carry-out unchanged; out-of-range overrides of scan_config throw (no GPU needed). Every
// algorithm of scankit::cuda::all_scan_algorithms. Without a GPU the per-algorithm tests skip.
//
// Environment: SCANKIT_TEST_SEED=N (replay).
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "common/cuda_scan_test_util.hpp"

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
using namespace scankit::test;
using skc::scan_algorithm;
using skc::scan_path;

// Bad arguments throw scankit::invalid_argument before anything runs, and leave the input
// (scanned in place, so any write would show) unchanged.
TEST_P(CudaScan, InvalidArgumentsThrowAndLeaveInputIntact) {
  using T = std::int32_t;
  const sk::sum<T> op;
  const std::int64_t n = 5000;
  const auto in = sk::test::fast_random_i32(n);
  const skc::scan_config cfg = config();
  const std::size_t need = skc::scan_workspace_bytes(n, sizeof(T), cfg);
  din_.reserve(n * sizeof(T));
  dtotal_.reserve(sizeof(T));
  ws_.reserve(need + 16);  // room for a misaligned workspace of `need` bytes
  T* d = din_.as<T>();
  T* tot = dtotal_.as<T>();
  ck(cudaMemcpy(d, in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  ck(cudaMemset(tot, 0xAB, sizeof(T)));
  void* ws = ws_.data();
  const auto inc = sk::scan_kind::inclusive;

  EXPECT_THROW(skc::scan(d, d, -1, op, inc, 0, ws, need, stream_, cfg, tot), sk::invalid_argument);
  EXPECT_THROW(skc::scan(static_cast<const T*>(nullptr), d, n, op, inc, 0, ws, need, stream_, cfg, tot),
               sk::invalid_argument);
  EXPECT_THROW(skc::scan(d, static_cast<T*>(nullptr), n, op, inc, 0, ws, need, stream_, cfg, tot),
               sk::invalid_argument);
  if (need > 0) {
    EXPECT_THROW(skc::scan(d, d, n, op, inc, 0, ws, need - 1, stream_, cfg, tot), sk::invalid_argument);
    EXPECT_THROW(skc::scan(d, d, n, op, inc, 0, nullptr, need, stream_, cfg, tot), sk::invalid_argument);
    EXPECT_THROW(skc::scan(d, d, n, op, inc, 0, static_cast<char*>(ws) + 8, need, stream_, cfg, tot),
                 sk::invalid_argument);
  }
  for (int bad : {48, 2048, 16, 0 - 32, 1000, 1025}) {
    const skc::scan_config bad_cfg{algo(), bad};
    EXPECT_THROW(skc::scan(d, d, n, op, inc, 0, ws, need, stream_, bad_cfg, tot),
                 sk::invalid_argument)
        << "block size " << bad;
    EXPECT_THROW((void)skc::scan_workspace_bytes(n, sizeof(T), bad_cfg), sk::invalid_argument)
        << "block size " << bad;
  }
  EXPECT_THROW((void)skc::scan_workspace_bytes(-1, sizeof(T), cfg), sk::invalid_argument);

  ck(cudaDeviceSynchronize());
  std::vector<T> after(n);
  T total_after = 0;
  ck(cudaMemcpy(after.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  ck(cudaMemcpy(&total_after, tot, sizeof(T), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(after == in) << "a rejected call modified its input";
  T poison;
  std::memset(&poison, 0xAB, sizeof(poison));
  EXPECT_EQ(total_after, poison) << "a rejected call wrote the carry-out";

  // Host containers: a device-memory budget too small for any chunk, a short output.
  std::vector<T> host = in;
  skc::host_scan_options tiny;
  tiny.config = cfg;
  tiny.device_memory_limit = 64;
  EXPECT_THROW(skc::inclusive_scan<T>(std::span<const T>(host), std::span<T>(host), op, 0, tiny),
               sk::invalid_argument);
  std::vector<T> shorter(n - 1);
  EXPECT_THROW(skc::inclusive_scan<T>(std::span<const T>(host), std::span<T>(shorter), op, 0, {}),
               sk::invalid_argument);
  EXPECT_THROW(skc::scan_host(static_cast<const T*>(nullptr), host.data(), n, op, inc, 0, {}),
               sk::invalid_argument);
  EXPECT_TRUE(host == in) << "a rejected host call modified its input";
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CudaScan, ::testing::ValuesIn(skc::all_scan_algorithms),
                         sk::test::param_name<scan_algorithm>);

// Out-of-range overrides throw before anything runs (scan_workspace_bytes checks them; no GPU
// needed).
TEST(CudaScanPathsApi, InvalidOverridesThrow) {
  auto throws = [](auto edit) {
    skc::scan_config cfg;
    edit(cfg);
    EXPECT_THROW((void)skc::scan_workspace_bytes(1000, 4, cfg), sk::invalid_argument);
  };
  throws([](skc::scan_config& c) { c.tuning.path = static_cast<scan_path>(99); });
  throws([](skc::scan_config& c) { c.tuning.blocked_from_items = -1; });
  throws([](skc::scan_config& c) { c.tuning.specialized_from_items = -5; });
  throws([](skc::scan_config& c) { c.tuning.first_delay_ns = 2000000u; });
  throws([](skc::scan_config& c) { c.tuning.one_tile_per_sm_up_to_threads = 2048; });
  throws([](skc::scan_config& c) { c.tuning.one_tile_per_sm_up_to_threads = -1; });
  throws([](skc::scan_config& c) { c.tuning.load_window_tiles = -1; });
  skc::scan_config ok;
  ok.tuning.path = scan_path::windowed;
  ok.tuning.load_window_tiles = 0;
  ok.tuning.first_delay_ns = 0u;
  EXPECT_NO_THROW((void)skc::scan_workspace_bytes(1000, 4, ok));
}

}  // namespace
