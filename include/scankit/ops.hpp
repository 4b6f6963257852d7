// Operators as monoids: an associative binary operation that carries its identity.
//
// Every scan in scankit takes a monoid, so exclusive scans start from the right value and
// tiles can be padded with the identity for any operator (max, product, user types...).
// Operators need not be commutative: scankit always combines `op(earlier, later)`.
#pragma once

#include <concepts>
#include <limits>
#include <type_traits>
#include <utility>

#if defined(__CUDACC__)
#define SCANKIT_HD __host__ __device__
#else
#define SCANKIT_HD
#endif

namespace scankit {

/// A monoid: `M::value_type`, `m.identity()` and an associative `m(a, b)`.
template <class M>
concept monoid = requires(const M m, const typename M::value_type& a) {
  typename M::value_type;
  { m.identity() } -> std::convertible_to<typename M::value_type>;
  { m(a, a) } -> std::convertible_to<typename M::value_type>;
};

template <monoid M>
using value_t = typename M::value_type;

namespace detail {
// Signed integer overflow is undefined behaviour in C++; scankit's integer sum and product
// wrap modulo 2^bits instead (what every GPU library does in practice), computed unsigned.
template <class T>
SCANKIT_HD constexpr T wrapping_add(T a, T b) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return static_cast<T>(a + b);
  }
}
template <class T>
SCANKIT_HD constexpr T wrapping_mul(T a, T b) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else if constexpr (std::is_integral_v<T> && sizeof(T) < sizeof(int)) {
    return static_cast<T>(static_cast<unsigned>(a) * static_cast<unsigned>(b));
  } else {
    return static_cast<T>(a * b);
  }
}
}  // namespace detail

/// a + b (integers wrap). Identity 0.
template <class T>
struct sum {
  using value_type = T;
  static constexpr bool commutative = true;
  static constexpr const char* name = "sum";
  SCANKIT_HD static constexpr T identity() { return T(0); }
  SCANKIT_HD constexpr T operator()(const T& a, const T& b) const { return detail::wrapping_add(a, b); }
};

/// a * b (integers wrap). Identity 1.
template <class T>
struct product {
  using value_type = T;
  static constexpr bool commutative = true;
  static constexpr const char* name = "prod";
  SCANKIT_HD static constexpr T identity() { return T(1); }
  SCANKIT_HD constexpr T operator()(const T& a, const T& b) const { return detail::wrapping_mul(a, b); }
};

/// min(a, b). Identity: the largest value (+inf for floating point).
template <class T>
struct min {
  using value_type = T;
  // A NaN makes the floating-point min depend on operand order.
  static constexpr bool commutative = !std::is_floating_point_v<T>;
  static constexpr const char* name = "min";
  SCANKIT_HD static constexpr T identity() {
    if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
  SCANKIT_HD constexpr T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};

/// max(a, b). Identity: the lowest value (-inf for floating point).
template <class T>
struct max {
  using value_type = T;
  // A NaN makes the floating-point max depend on operand order.
  static constexpr bool commutative = !std::is_floating_point_v<T>;
  static constexpr const char* name = "max";
  SCANKIT_HD static constexpr T identity() {
    if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
  SCANKIT_HD constexpr T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};

/// a & b, integers only. Identity: all bits set.
template <class T>
  requires std::is_integral_v<T>
struct bit_and {
  using value_type = T;
  static constexpr bool commutative = true;
  static constexpr const char* name = "and";
  SCANKIT_HD static constexpr T identity() { return static_cast<T>(~T(0)); }
  SCANKIT_HD constexpr T operator()(const T& a, const T& b) const { return static_cast<T>(a & b); }
};

/// a | b, integers only. Identity 0.
template <class T>
  requires std::is_integral_v<T>
struct bit_or {
  using value_type = T;
  static constexpr bool commutative = true;
  static constexpr const char* name = "or";
  SCANKIT_HD static constexpr T identity() { return T(0); }
  SCANKIT_HD constexpr T operator()(const T& a, const T& b) const { return static_cast<T>(a | b); }
};

/// a ^ b, integers only. Identity 0.
template <class T>
  requires std::is_integral_v<T>
struct bit_xor {
  using value_type = T;
  static constexpr bool commutative = true;
  static constexpr const char* name = "xor";
  SCANKIT_HD static constexpr T identity() { return T(0); }
  SCANKIT_HD constexpr T operator()(const T& a, const T& b) const { return static_cast<T>(a ^ b); }
};

/// Wraps any associative callable and its identity into a monoid:
///   auto op = scankit::make_monoid<float>([](float a, float b) { return a > b ? a : b; }, -1e30f);
/// For the CUDA backend the callable must be usable on the device (a functor with
/// __host__ __device__ operator(), or an extended __device__ lambda).
template <class T, class F>
struct monoid_of {
  using value_type = T;
  F f;
  T id;
  SCANKIT_HD constexpr T identity() const { return id; }
  SCANKIT_HD constexpr T operator()(const T& a, const T& b) const { return f(a, b); }
};

template <class T, class F>
constexpr monoid_of<T, F> make_monoid(F f, T identity) {
  return monoid_of<T, F>{std::move(f), identity};
}

/// Whether a monoid's operation is commutative: the monoid says so with
/// `static constexpr bool commutative = true`. Reductions may then combine items in any fixed
/// order (still the same order on every run); any other monoid is combined in sequence order.
template <class M>
inline constexpr bool is_commutative_v = requires { requires M::commutative; };

/// Whether a scan writes, at position i, the combination of items [0, i] or [0, i).
enum class scan_kind { inclusive, exclusive };

}  // namespace scankit
