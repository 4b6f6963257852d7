// scankit/types.hpp: run-time names of element types and operators, and the dispatch from
// those names to compile-time types.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>

#include "common/test_util.hpp"
#include "scankit/types.hpp"

namespace {

using namespace scankit;

TEST(Types, DtypeNamesRoundTrip) {
  std::set<std::string_view> seen;
  for (dtype t : all_dtypes) {
    const auto n = name(t);
    EXPECT_NE(n, "?");
    EXPECT_TRUE(seen.insert(n).second) << "duplicate name " << n;
    const auto back = parse_dtype(n);
    ASSERT_TRUE(back.has_value()) << n;
    EXPECT_EQ(*back, t);
  }
  EXPECT_EQ(seen.size(), 6u);
}

TEST(Types, OpNamesRoundTrip) {
  std::set<std::string_view> seen;
  for (op_kind o : all_op_kinds) {
    const auto n = name(o);
    EXPECT_NE(n, "?");
    EXPECT_TRUE(seen.insert(n).second) << "duplicate name " << n;
    const auto back = parse_op(n);
    ASSERT_TRUE(back.has_value()) << n;
    EXPECT_EQ(*back, o);
  }
  EXPECT_EQ(seen.size(), 7u);
}

TEST(Types, ParseAcceptsAliasesAndRejectsUnknownNames) {
  EXPECT_EQ(parse_dtype("int32"), dtype::i32);
  EXPECT_EQ(parse_dtype("uint32"), dtype::u32);
  EXPECT_EQ(parse_dtype("int64"), dtype::i64);
  EXPECT_EQ(parse_dtype("uint64"), dtype::u64);
  EXPECT_EQ(parse_dtype("float"), dtype::f32);
  EXPECT_EQ(parse_dtype("double"), dtype::f64);
  EXPECT_EQ(parse_op("product"), op_kind::product);
  EXPECT_EQ(parse_op("bit_and"), op_kind::bit_and);
  EXPECT_EQ(parse_op("bit_or"), op_kind::bit_or);
  EXPECT_EQ(parse_op("bit_xor"), op_kind::bit_xor);
  for (const char* bad : {"", "I32", "i16", "f16", "int", " i32", "i32 "})
    EXPECT_FALSE(parse_dtype(bad).has_value()) << "'" << bad << "'";
  for (const char* bad : {"", "add", "Sum", "mul", "avg", "sum "})
    EXPECT_FALSE(parse_op(bad).has_value()) << "'" << bad << "'";
}

TEST(Types, SizesAndIntegrality) {
  for (dtype t : all_dtypes) {
    visit_dtype(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      EXPECT_EQ(size_of(t), sizeof(T)) << name(t);
      EXPECT_EQ(is_integral(t), std::is_integral_v<T>) << name(t);
    });
  }
}

TEST(Types, SupportedExcludesBitwiseOnFloatsOnly) {
  int count = 0;
  for (dtype t : all_dtypes)
    for (op_kind o : all_op_kinds) {
      const bool bitwise = o == op_kind::bit_and || o == op_kind::bit_or || o == op_kind::bit_xor;
      EXPECT_EQ(supported(t, o), is_integral(t) || !bitwise) << name(t) << " " << name(o);
      count += supported(t, o);
    }
  EXPECT_EQ(count, 4 * 7 + 2 * 4);
}

template <dtype D, class Expected>
void expect_trait() {
  static_assert(std::is_same_v<typename dtype_traits<D>::type, Expected>);
  bool called = false;
  visit_dtype(D, [&](auto tag) {
    called = true;
    EXPECT_TRUE((std::is_same_v<typename decltype(tag)::type, Expected>)) << name(D);
  });
  EXPECT_TRUE(called);
}

TEST(Types, VisitDtypeDispatchesToTheMatchingType) {
  expect_trait<dtype::i32, std::int32_t>();
  expect_trait<dtype::u32, std::uint32_t>();
  expect_trait<dtype::i64, std::int64_t>();
  expect_trait<dtype::u64, std::uint64_t>();
  expect_trait<dtype::f32, float>();
  expect_trait<dtype::f64, double>();
  // The visitor's result is passed through.
  EXPECT_EQ(visit_dtype(dtype::u64, [](auto tag) { return sizeof(typename decltype(tag)::type); }), 8u);
}

TEST(Types, VisitDispatchesEverySupportedCombination) {
  for (dtype t : all_dtypes)
    for (op_kind o : all_op_kinds) {
      if (!supported(t, o)) continue;
      int calls = 0;
      const std::string got = visit(t, o, [&](auto op) {
        using Op = decltype(op);
        using T = value_t<Op>;
        ++calls;
        EXPECT_EQ(sizeof(T), size_of(t));
        EXPECT_EQ(std::is_integral_v<T>, is_integral(t));
        // The monoid behaves as its name says on a sample.
        const T a = T(6), b = T(3);
        const std::string_view n = Op::name;
        const T want = n == "sum" ? T(9) : n == "prod" ? T(18) : n == "min" ? T(3) : n == "max" ? T(6)
                     : n == "and" ? T(2) : n == "or" ? T(7) : T(5);
        EXPECT_EQ(op(a, b), want) << n;
        return std::string(name(t)) + ":" + std::string(Op::name);
      });
      EXPECT_EQ(calls, 1);
      EXPECT_EQ(got, std::string(name(t)) + ":" + std::string(name(o)));
    }
}

TEST(Types, VisitRejectsBitwiseOperatorsOnFloats) {
  for (dtype t : {dtype::f32, dtype::f64})
    for (op_kind o : {op_kind::bit_and, op_kind::bit_or, op_kind::bit_xor}) {
      bool called = false;
      EXPECT_THROW(visit(t, o, [&](auto) { called = true; }), scankit::invalid_argument)
          << name(t) << " " << name(o);
      EXPECT_FALSE(called);
    }
}

TEST(Types, VisitRejectsOutOfRangeEnums) {
  EXPECT_THROW(visit_dtype(static_cast<dtype>(99), [](auto) {}), scankit::invalid_argument);
  EXPECT_THROW(visit_op<int>(static_cast<op_kind>(99), [](auto) {}), scankit::invalid_argument);
  EXPECT_EQ(name(static_cast<dtype>(99)), "?");
  EXPECT_EQ(name(static_cast<op_kind>(99)), "?");
}

}  // namespace
