// GoogleTest suite of the CPU reductions (scankit/cpu/reduce.hpp): reduce over every element
// type and built-in operator, a non-commutative operator, argmin/argmax (ties, NaN), min_max,
// every plan (serial and parallel, forced block sizes), determinism across thread counts, and
// bad arguments. Integers must equal the serial reference exactly; float sums are compared with
// a long double sum within test_util.hpp's float_tolerance.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "common/reduce_test_util.hpp"
#include "common/test_util.hpp"
#include "scankit/cpu/reduce.hpp"

namespace {

namespace sk = scankit;
namespace skc = scankit::cpu;
using namespace scankit::test;

/// Sizes around the block edges of the tuned plan and of a small forced block.
std::vector<std::int64_t> reduce_sizes(std::size_t item_bytes) {
  const std::int64_t block = skc::detail::reduce::block_bytes / static_cast<std::int64_t>(item_bytes);
  return test_sizes({7, 64, block}, quick() ? 1 << 18 : 1 << 21, 3, std::int64_t{1} << 22);
}

/// Checks the parallel reduction of `in` with op against the serial reference.
template <class Op>
void check_reduce(const std::vector<sk::value_t<Op>>& in, Op op, const skc::reduce_config& cfg) {
  using T = sk::value_t<Op>;
  const T got = skc::reduce(in.data(), static_cast<std::int64_t>(in.size()), op, cfg);
  EXPECT_TRUE(matches_reduction(in, got, op));
}

TEST(CpuReduce, EveryTypeAndOperator) {
  for (sk::dtype t : sk::all_dtypes)
    for (sk::op_kind o : sk::all_op_kinds) {
      if (!sk::supported(t, o)) continue;
      SCOPED_TRACE(std::string(sk::name(t)) + " " + std::string(sk::name(o)));
      sk::visit(t, o, [&](auto op) {
        using T = sk::value_t<decltype(op)>;
        for (std::int64_t n : reduce_sizes(sizeof(T))) {
          const auto in = scan_values<T>(n, decltype(op)::name);
          check_reduce(in, op, {});
        }
      });
    }
}

TEST(CpuReduce, EveryPlan) {
  // Forced block sizes (one item, a prime, the tuned size) and the calling thread alone.
  for (std::int64_t block : {std::int64_t{1}, std::int64_t{97}, std::int64_t{0}})
    for (bool parallel : {true, false}) {
      SCOPED_TRACE("block " + std::to_string(block) + (parallel ? " parallel" : " serial"));
      const skc::reduce_config cfg{block, parallel};
      for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{96}, std::int64_t{97}, std::int64_t{98},
                             std::int64_t{100003}, (std::int64_t{1} << 18) + 1}) {
        check_reduce(random_values<std::int64_t>(n), sk::sum<std::int64_t>{}, cfg);
        check_reduce(random_values<double>(n), sk::sum<double>{}, cfg);
        const auto aff = random_affine(n);
        EXPECT_EQ(skc::reduce(aff.data(), n, affine_compose{}, cfg), skc::reduce_serial(aff.data(), n, affine_compose{}));
      }
    }
}

TEST(CpuReduce, NonCommutative) {
  for (std::int64_t n : reduce_sizes(sizeof(affine))) {
    const auto in = random_affine(n);
    EXPECT_EQ(skc::reduce(in.data(), n, affine_compose{}), skc::reduce_serial(in.data(), n, affine_compose{})) << n;
  }
}

/// argmin/argmax/min_max against their serial loops, with repeated extremes and NaNs.
template <class T>
void check_arg(std::vector<T> v) {
  const std::span<const T> s(v);
  const auto n = static_cast<std::int64_t>(v.size());
  const auto ref_min = skc::transform_reduce_serial(v.data(), n, sk::as_indexed{}, sk::argmin_op<T>{});
  const auto ref_max = skc::transform_reduce_serial(v.data(), n, sk::as_indexed{}, sk::argmax_op<T>{});
  EXPECT_EQ(skc::argmin(s), ref_min.index) << "n=" << n;
  EXPECT_EQ(skc::argmax(s), ref_max.index) << "n=" << n;
  const auto mm = skc::min_max(s), ref = skc::transform_reduce_serial(v.data(), n, sk::as_min_max{}, sk::min_max_op<T>{});
  EXPECT_EQ(std::memcmp(&mm, &ref, sizeof(mm)), 0) << "n=" << n;
}

TEST(CpuReduce, ArgMinMax) {
  for (std::int64_t n : reduce_sizes(4)) {
    if (n == 0) continue;
    // Few distinct values: the extremes repeat, so the first position must win.
    std::vector<std::int32_t> iv(static_cast<std::size_t>(n));
    for (auto& x : iv) x = static_cast<std::int32_t>(rng()() % 5) - 2;
    check_arg(iv);
    auto fv = random_values<float>(n);
    check_arg(fv);
    for (auto& x : fv) x = std::round(x * 2);  // ties
    check_arg(fv);
    if (n > 3) {
      fv[static_cast<std::size_t>(n / 3)] = std::numeric_limits<float>::quiet_NaN();
      fv[static_cast<std::size_t>(n / 2)] = -std::numeric_limits<float>::quiet_NaN();
      check_arg(fv);
      // numpy: the first NaN is both the argmin and the argmax.
      EXPECT_EQ(skc::argmax(std::span<const float>(fv)), n / 3);
      EXPECT_EQ(skc::argmin(std::span<const float>(fv)), n / 3);
      EXPECT_TRUE(std::isnan(skc::min_max(std::span<const float>(fv)).max));
    }
  }
}

TEST(CpuReduce, SameBitsForEveryThreadCount) {
  const auto in = random_values<float>(3'000'017);
  const float one = [&] {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
    return skc::reduce(std::span<const float>(in));
  }();
  for (int threads : {2, 3, 8}) {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, threads);
    const float got = skc::reduce(std::span<const float>(in));
    EXPECT_EQ(std::memcmp(&got, &one, sizeof(float)), 0) << threads << " threads";
  }
  // The serial plan folds the same blocks in the same order.
  const float serial = skc::reduce(in.data(), static_cast<std::int64_t>(in.size()), sk::sum<float>{}, {0, false});
  EXPECT_EQ(std::memcmp(&serial, &one, sizeof(float)), 0);
}

TEST(CpuReduce, InvalidArguments) {
  EXPECT_THROW(skc::reduce(static_cast<const int*>(nullptr), -1, sk::sum<int>{}), sk::invalid_argument);
  EXPECT_THROW(skc::reduce(static_cast<const int*>(nullptr), 5, sk::sum<int>{}), sk::invalid_argument);
  EXPECT_THROW(skc::reduce_serial(static_cast<const int*>(nullptr), 5, sk::sum<int>{}), sk::invalid_argument);
  const std::vector<int> v{1, 2, 3};
  EXPECT_THROW(skc::reduce(v.data(), 3, sk::sum<int>{}, {-1, true}), sk::invalid_argument);
  EXPECT_THROW(skc::argmin(std::span<const int>()), sk::invalid_argument);
  EXPECT_THROW(skc::argmax(std::span<const int>()), sk::invalid_argument);
  EXPECT_EQ(skc::reduce(static_cast<const int*>(nullptr), 0, sk::sum<int>{}), 0);
  EXPECT_EQ(skc::reduce(static_cast<const int*>(nullptr), 0, sk::max<int>{}), std::numeric_limits<int>::lowest());
}

}  // namespace
