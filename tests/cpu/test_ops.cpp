// scankit/ops.hpp: the monoids' identities, wrap-around arithmetic, float min/max with
// infinite identities, and make_monoid.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "common/test_util.hpp"
#include "scankit/ops.hpp"
#include "scankit/types.hpp"

namespace {

using namespace scankit;

// The monoid concept accepts the built-in operators and rejects what is not one.
static_assert(monoid<sum<int>>);
static_assert(monoid<product<double>>);
static_assert(monoid<min<float>>);
static_assert(monoid<bit_xor<std::uint64_t>>);
static_assert(monoid<test::affine_compose>);
static_assert(!monoid<int>);
struct no_identity {
  using value_type = int;
  int operator()(int a, int b) const { return a + b; }
};
static_assert(!monoid<no_identity>);

// Wrap-around is defined behaviour, so it can be checked at compile time (a constant
// expression with signed overflow would not compile).
static_assert(sum<std::int32_t>{}(std::numeric_limits<std::int32_t>::max(), 1) ==
              std::numeric_limits<std::int32_t>::min());
static_assert(sum<std::int64_t>{}(std::numeric_limits<std::int64_t>::min(), -1) ==
              std::numeric_limits<std::int64_t>::max());
static_assert(product<std::int32_t>{}(65536, 65536) == 0);
static_assert(product<std::uint16_t>{}(65535, 65535) == 1);  // promoted to int, would overflow
static_assert(product<std::int8_t>{}(16, 16) == 0);
static_assert(sum<std::uint32_t>{}(0xffffffffu, 2u) == 1u);

TEST(Ops, SignedSumWrapsLikeUnsigned) {
  // Random operands: the result is the two's-complement wrap of the unsigned sum.
  std::uniform_int_distribution<std::int64_t> d(std::numeric_limits<std::int32_t>::min(),
                                                std::numeric_limits<std::int32_t>::max());
  std::uniform_int_distribution<std::uint64_t> d64;
  for (int k = 0; k < 10000; ++k) {
    const auto a = static_cast<std::int32_t>(d(test::rng())), b = static_cast<std::int32_t>(d(test::rng()));
    const auto expect = static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
    ASSERT_EQ(sum<std::int32_t>{}(a, b), expect) << a << " + " << b;
    const auto x = static_cast<std::int64_t>(d64(test::rng())), y = static_cast<std::int64_t>(d64(test::rng()));
    ASSERT_EQ(product<std::int64_t>{}(x, y),
              static_cast<std::int64_t>(static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(y)));
  }
  EXPECT_EQ(sum<std::int32_t>{}(std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::max()), -2);
  EXPECT_EQ(product<std::int32_t>{}(std::numeric_limits<std::int32_t>::min(), -1),
            std::numeric_limits<std::int32_t>::min());
}

// identity . x == x == x . identity for every built-in monoid and element type.
class OpsIdentity : public ::testing::TestWithParam<std::tuple<dtype, op_kind>> {};

TEST_P(OpsIdentity, IsNeutralOnBothSides) {
  const auto [t, o] = GetParam();
  visit(t, o, [&](auto op) {
    using Op = decltype(op);
    using T = value_t<Op>;
    const T id = op.identity();
    std::vector<T> xs = test::random_values<T>(1000, Op::name);
    xs.push_back(std::numeric_limits<T>::max());
    xs.push_back(std::numeric_limits<T>::lowest());
    xs.push_back(T(0));
    if constexpr (std::numeric_limits<T>::has_infinity) {
      xs.push_back(std::numeric_limits<T>::infinity());
      xs.push_back(-std::numeric_limits<T>::infinity());
    }
    for (const T x : xs) {
      ASSERT_EQ(op(id, x), x) << "left identity, x = " << +x;
      ASSERT_EQ(op(x, id), x) << "right identity, x = " << +x;
    }
    EXPECT_EQ(std::string_view(Op::name), name(o));
  });
}

INSTANTIATE_TEST_SUITE_P(AllSupported, OpsIdentity, ::testing::ValuesIn(test::supported_combinations()),
                         test::combination_name);

TEST(Ops, IdentityValues) {
  EXPECT_EQ(sum<int>::identity(), 0);
  EXPECT_EQ(product<double>::identity(), 1.0);
  EXPECT_EQ(min<std::int32_t>::identity(), std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(max<std::int32_t>::identity(), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(min<std::uint64_t>::identity(), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(max<std::uint64_t>::identity(), 0u);
  EXPECT_EQ(bit_and<std::uint32_t>::identity(), 0xffffffffu);
  EXPECT_EQ(bit_and<std::int64_t>::identity(), -1);
  EXPECT_EQ(bit_or<std::int32_t>::identity(), 0);
  EXPECT_EQ(bit_xor<std::uint64_t>::identity(), 0u);
}

TEST(Ops, FloatMinMaxUseInfiniteIdentities) {
  EXPECT_TRUE(std::isinf(min<float>::identity()) && min<float>::identity() > 0);
  EXPECT_TRUE(std::isinf(max<float>::identity()) && max<float>::identity() < 0);
  EXPECT_TRUE(std::isinf(min<double>::identity()) && min<double>::identity() > 0);
  EXPECT_TRUE(std::isinf(max<double>::identity()) && max<double>::identity() < 0);
  // A finite "largest value" identity would be wrong for an all-infinite input.
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(min<float>{}(min<float>::identity(), inf), inf);
  EXPECT_EQ(max<float>{}(max<float>::identity(), -inf), -inf);
  EXPECT_EQ(min<float>{}(3.5f, -2.0f), -2.0f);
  EXPECT_EQ(max<double>{}(3.5, -2.0), 3.5);
  // Exclusive scans start from the identity: a min-scan of {5, 7} is {+inf, 5}.
  const std::vector<float> in{5.0f, 7.0f};
  std::vector<float> out(2);
  const float total = cpu::scan_serial(in.data(), out.data(), 2, min<float>{}, scan_kind::exclusive,
                                       min<float>::identity());
  EXPECT_EQ(out[0], inf);
  EXPECT_EQ(out[1], 5.0f);
  EXPECT_EQ(total, 5.0f);
}

TEST(Ops, MinMaxKeepTheEarlierOfEqualOperands) {
  // Operands that compare equal but differ (+0 and -0): the earlier one wins, so the
  // operators are exact and order-stable.
  EXPECT_TRUE(std::signbit(min<double>{}(-0.0, 0.0)));
  EXPECT_FALSE(std::signbit(min<double>{}(0.0, -0.0)));
  EXPECT_TRUE(std::signbit(max<double>{}(-0.0, 0.0)));
  EXPECT_FALSE(std::signbit(max<double>{}(0.0, -0.0)));
}

TEST(Ops, BitwiseOperators) {
  EXPECT_EQ(bit_and<std::uint32_t>{}(0xf0f0u, 0xff00u), 0xf000u);
  EXPECT_EQ(bit_or<std::uint32_t>{}(0xf0f0u, 0xff00u), 0xfff0u);
  EXPECT_EQ(bit_xor<std::uint32_t>{}(0xf0f0u, 0xff00u), 0x0ff0u);
  EXPECT_EQ(bit_and<std::int32_t>{}(-1, 0x1234), 0x1234);
}

TEST(Ops, MakeMonoidCarriesItsIdentityAndCallable) {
  auto m = make_monoid<float>([](float a, float b) { return a > b ? a : b; }, -1e30f);
  static_assert(monoid<decltype(m)>);
  static_assert(std::is_same_v<value_t<decltype(m)>, float>);
  EXPECT_EQ(m.identity(), -1e30f);
  EXPECT_EQ(m(1.0f, 2.0f), 2.0f);
  EXPECT_EQ(m(m.identity(), -5.0f), -5.0f);

  // A non-commutative callable keeps its operand order: op(earlier, later).
  auto concat = make_monoid<std::int64_t>([](std::int64_t a, std::int64_t b) { return a * 10 + b; },
                                          std::int64_t{0});
  const std::vector<std::int64_t> in{1, 2, 3, 4};
  std::vector<std::int64_t> out(4);
  EXPECT_EQ(cpu::scan_serial(in.data(), out.data(), 4, concat, scan_kind::inclusive, std::int64_t{0}), 1234);
  EXPECT_EQ(out, (std::vector<std::int64_t>{1, 12, 123, 1234}));

  // Stateful callables are stored by value.
  int calls = 0;
  auto counting = make_monoid<int>([&calls](int a, int b) { ++calls; return a + b; }, 0);
  EXPECT_EQ(counting(2, 3), 5);
  EXPECT_EQ(calls, 1);
}

TEST(Ops, AffineComposeIsAssociativeButNotCommutative) {
  const test::affine_compose op;
  const auto v = test::random_affine(300);
  bool some_noncommuting = false;
  for (std::size_t i = 0; i + 2 < v.size(); i += 3) {
    EXPECT_EQ(op(op(v[i], v[i + 1]), v[i + 2]), op(v[i], op(v[i + 1], v[i + 2])));
    EXPECT_EQ(op(op.identity(), v[i]), v[i]);
    EXPECT_EQ(op(v[i], op.identity()), v[i]);
    some_noncommuting |= !(op(v[i], v[i + 1]) == op(v[i + 1], v[i]));
  }
  EXPECT_TRUE(some_noncommuting);
  // "apply f, then g": x -> 2x + 1 then x -> 3x gives x -> 6x + 3.
  EXPECT_EQ(op({2, 1}, {3, 0}), (test::affine{6, 3}));
}

}  // namespace
