// The check every reduction test makes: a result against the serial loop (exactly), or, for
// float sums and products, against a long double reference within test_util.hpp's tolerance
// (products: 8 eps per factor). Float min and max are exact.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "common/test_util.hpp"
#include "scankit/cpu/reduce.hpp"

namespace scankit::test {

/// Whether `got` is the reduction of `in` by op (exact, or within the stated float tolerance).
template <class Op>
::testing::AssertionResult matches_reduction(const std::vector<scankit::value_t<Op>>& in, scankit::value_t<Op> got, Op op) {
  using T = scankit::value_t<Op>;
  const auto n = static_cast<std::int64_t>(in.size());
  if constexpr (std::is_floating_point_v<T> && has_wide_reference<Op>()) {
    long double ref = 0;
    reference_wide(in, op, scankit::scan_kind::inclusive, op.identity(), &ref);
    double abs_sum = 0;
    for (T x : in) abs_sum += std::abs(static_cast<double>(x));
    const std::string_view name = Op::name;
    const double tol = name == "prod" ? 8.0 * std::numeric_limits<T>::epsilon() * std::abs(static_cast<double>(ref)) * (n + 2)
                       : name == "sum" ? float_tolerance<T>(abs_sum, static_cast<double>(ref), n)
                                       : 0.0;
    if (static_cast<long double>(got) == ref || std::abs(static_cast<double>(got) - static_cast<double>(ref)) <= tol)
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << Op::name << " n=" << n << ": got " << got << ", reference "
                                         << static_cast<double>(ref) << " (tolerance " << tol << ")";
  } else {
    if (got == scankit::cpu::reduce_serial(in.data(), n, op)) return ::testing::AssertionSuccess();
    auto f = ::testing::AssertionFailure();
    if constexpr (requires { Op::name; }) f << Op::name << " ";
    return f << "n=" << n << " differs from the serial reference";
  }
}

}  // namespace scankit::test
