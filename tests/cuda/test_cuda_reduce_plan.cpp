// Host-only tests of the GPU reductions' plan (scankit/cuda/detail/reduce/plan.hpp): a pure
// function of the call and a device description, checked for several described devices without
// a GPU (this program makes no CUDA call, so it runs in CI).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/described_devices.hpp"
#include "scankit/cuda/detail/reduce/plan.hpp"

namespace {

namespace skc = scankit::cuda;
namespace dr = scankit::cuda::detail::reduce;
using scankit::cuda::detail::device_info;

/// The shared descriptions, and one older than any tuning table's entry.
std::vector<device_info> devices() {
  std::vector<device_info> v;
  for (const auto& d : scankit::test::described_devices()) v.push_back(d.info);
  v.push_back({70, 80, 96 << 10, 96 << 10, 6 << 20, 4096, 877000});
  return v;
}

const std::vector<std::int64_t> sizes = {0,    1,    2,    3,     127,       128,        129,
                                         4095, 4096, 4097, 70001, 1 << 20, (std::int64_t{1} << 31) + 1,
                                         std::int64_t{1} << 40};

TEST(CudaReducePlan, CoversTheInputAndFitsTheDevice) {
  for (const device_info& d : devices())
    for (std::size_t item : {1u, 2u, 4u, 8u, 12u, 16u, 24u})
      for (std::size_t mis : {0u, 1u, 4u, 8u, 12u})
        for (bool commutative : {true, false})
          for (std::int64_t n : sizes) {
            SCOPED_TRACE("arch " + std::to_string(d.arch) + " item " + std::to_string(item) + " misalignment " +
                         std::to_string(mis) + " n " + std::to_string(n));
            const dr::plan p = dr::make_plan(n, item, mis, commutative, {}, {}, d);
            const std::int64_t v = p.vector_items, row = 32 * v;
            EXPECT_TRUE(v == 1 || v == dr::vector_items_for(item));
            if (mis % item != 0) {
              EXPECT_EQ(v, 1);
            }
            // The head ends on a 16-byte boundary and is shorter than a vector.
            EXPECT_LE(p.head, n);
            EXPECT_LT(p.head, std::max<std::int64_t>(v, 1));
            if (v > 1 && p.head < n) {
              EXPECT_EQ((mis + p.head * item) % 16, 0u);
            }
            // The rows cover the rest exactly: none empty.
            EXPECT_GE(p.head + p.rows * row, n);
            if (p.rows > 0) {
              EXPECT_LT(p.head + (p.rows - 1) * row, n);
            }
            EXPECT_GE(p.grid, 1);
            EXPECT_LE(p.grid, dr::max_grid(d));
            EXPECT_EQ(p.two_pass || p.last_block, p.grid > 1);
            EXPECT_FALSE(p.two_pass && p.last_block);
            EXPECT_EQ(p.in_order, !commutative);
            // Every warp of the grid gets at least one row when there is more than one block.
            if (p.grid > 1) {
              EXPECT_GE(p.rows, p.grid * (dr::block_threads / 32));
            }
            EXPECT_GE(dr::workspace_bytes(item, d), static_cast<std::size_t>(p.grid) * item);
          }
}

TEST(CudaReducePlan, ForcedChoicesAreHonoured) {
  for (const device_info& d : devices())
    for (std::int64_t n : sizes) {
      SCOPED_TRACE("arch " + std::to_string(d.arch) + " n " + std::to_string(n));
      EXPECT_EQ(dr::make_plan(n, 4, 0, true, {skc::reduce_path::one_block}, {}, d).grid, 1);
      const dr::plan two = dr::make_plan(n, 4, 0, true, {skc::reduce_path::two_pass}, {}, d);
      if (two.rows > 1) {
        EXPECT_TRUE(two.two_pass);
      }
      const dr::plan last = dr::make_plan(n, 4, 0, true, {skc::reduce_path::last_block}, {}, d);
      if (last.rows > 1) {
        EXPECT_TRUE(last.last_block);
      }
      const dr::plan scalar = dr::make_plan(n, 4, 4, true, {}, {true, 0}, d);
      EXPECT_EQ(scalar.vector_items, 1);
      EXPECT_EQ(scalar.head, 0);
      EXPECT_EQ(dr::make_plan(n, 4, 0, true, {}, {false, 3}, d).grid, 3);
      EXPECT_EQ(dr::make_plan(n, 4, 0, true, {}, {false, 1 << 30}, d).grid, dr::max_grid(d));
    }
}

TEST(CudaReducePlan, PureAndSizedByTheDevice) {
  const auto ds = devices();
  for (const device_info& d : ds) {
    const dr::plan a = dr::make_plan(1 << 28, 4, 0, true, {}, {}, d), b = dr::make_plan(1 << 28, 4, 0, true, {}, {}, d);
    EXPECT_EQ(a.grid, b.grid);
    EXPECT_EQ(a.rows, b.rows);
    // A large input fills one wave of the device.
    EXPECT_EQ(a.grid, dr::max_grid(d));
    EXPECT_EQ(dr::workspace_bytes(16, d) % 256, 0u);
  }
  // A small input stays on few blocks whatever the device.
  for (const device_info& d : ds) EXPECT_EQ(dr::make_plan(1000, 4, 0, true, {}, {}, d).grid, 1);
  EXPECT_THROW(dr::make_plan(-1, 4, 0, true, {}, {}, ds[0]), scankit::invalid_argument);
}

}  // namespace
