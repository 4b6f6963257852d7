// Run-time names for element types and operators, and a dispatcher from those names to the
// compile-time types, used by the CLI and by tests that sweep every combination.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "scankit/error.hpp"
#include "scankit/ops.hpp"

namespace scankit {

enum class dtype { i32, u32, i64, u64, f32, f64 };
enum class op_kind { sum, product, min, max, bit_and, bit_or, bit_xor };

inline constexpr std::array all_dtypes{dtype::i32, dtype::u32, dtype::i64,
                                       dtype::u64, dtype::f32, dtype::f64};
inline constexpr std::array all_op_kinds{op_kind::sum,     op_kind::product, op_kind::min,
                                         op_kind::max,     op_kind::bit_and, op_kind::bit_or,
                                         op_kind::bit_xor};

constexpr std::string_view name(dtype t) {
  switch (t) {
    case dtype::i32: return "i32";
    case dtype::u32: return "u32";
    case dtype::i64: return "i64";
    case dtype::u64: return "u64";
    case dtype::f32: return "f32";
    case dtype::f64: return "f64";
  }
  return "?";
}

constexpr std::string_view name(op_kind o) {
  switch (o) {
    case op_kind::sum: return "sum";
    case op_kind::product: return "prod";
    case op_kind::min: return "min";
    case op_kind::max: return "max";
    case op_kind::bit_and: return "and";
    case op_kind::bit_or: return "or";
    case op_kind::bit_xor: return "xor";
  }
  return "?";
}

constexpr std::size_t size_of(dtype t) {
  return (t == dtype::i32 || t == dtype::u32 || t == dtype::f32) ? 4 : 8;
}

constexpr bool is_integral(dtype t) { return t != dtype::f32 && t != dtype::f64; }

/// Bitwise operators exist for integer types only.
constexpr bool supported(dtype t, op_kind o) {
  return is_integral(t) || (o != op_kind::bit_and && o != op_kind::bit_or && o != op_kind::bit_xor);
}

inline std::optional<dtype> parse_dtype(std::string_view s) {
  for (dtype t : all_dtypes)
    if (name(t) == s) return t;
  if (s == "int32") return dtype::i32;
  if (s == "uint32") return dtype::u32;
  if (s == "int64") return dtype::i64;
  if (s == "uint64") return dtype::u64;
  if (s == "float") return dtype::f32;
  if (s == "double") return dtype::f64;
  return std::nullopt;
}

inline std::optional<op_kind> parse_op(std::string_view s) {
  for (op_kind o : all_op_kinds)
    if (name(o) == s) return o;
  if (s == "product") return op_kind::product;
  if (s == "bit_and") return op_kind::bit_and;
  if (s == "bit_or") return op_kind::bit_or;
  if (s == "bit_xor") return op_kind::bit_xor;
  return std::nullopt;
}

template <dtype T> struct dtype_traits;
template <> struct dtype_traits<dtype::i32> { using type = std::int32_t; };
template <> struct dtype_traits<dtype::u32> { using type = std::uint32_t; };
template <> struct dtype_traits<dtype::i64> { using type = std::int64_t; };
template <> struct dtype_traits<dtype::u64> { using type = std::uint64_t; };
template <> struct dtype_traits<dtype::f32> { using type = float; };
template <> struct dtype_traits<dtype::f64> { using type = double; };

/// Calls `f(std::type_identity<T>{})` with T the C++ type of `t`.
template <class F>
decltype(auto) visit_dtype(dtype t, F&& f) {
  switch (t) {
    case dtype::i32: return f(std::type_identity<std::int32_t>{});
    case dtype::u32: return f(std::type_identity<std::uint32_t>{});
    case dtype::i64: return f(std::type_identity<std::int64_t>{});
    case dtype::u64: return f(std::type_identity<std::uint64_t>{});
    case dtype::f32: return f(std::type_identity<float>{});
    case dtype::f64: return f(std::type_identity<double>{});
  }
  throw invalid_argument("unknown element type");
}

/// Calls `f(Op{})` where Op is the monoid for `o` over T. Throws for bitwise ops on floats.
template <class T, class F>
decltype(auto) visit_op(op_kind o, F&& f) {
  switch (o) {
    case op_kind::sum: return f(sum<T>{});
    case op_kind::product: return f(product<T>{});
    case op_kind::min: return f(min<T>{});
    case op_kind::max: return f(max<T>{});
    case op_kind::bit_and:
    case op_kind::bit_or:
    case op_kind::bit_xor:
      if constexpr (std::is_integral_v<T>) {
        if (o == op_kind::bit_and) return f(bit_and<T>{});
        if (o == op_kind::bit_or) return f(bit_or<T>{});
        return f(bit_xor<T>{});
      } else {
        throw invalid_argument("bitwise operators need an integer element type");
      }
  }
  throw invalid_argument("unknown operator");
}

/// visit_dtype then visit_op: `f(Op{})` with Op = the monoid for (t, o).
template <class F>
decltype(auto) visit(dtype t, op_kind o, F&& f) {
  return visit_dtype(t, [&](auto tag) -> decltype(auto) {
    using T = typename decltype(tag)::type;
    return visit_op<T>(o, f);
  });
}

}  // namespace scankit
