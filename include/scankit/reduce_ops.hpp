// The monoids of the reductions that return more than a value: argmin, argmax and min_max.
//
// Each is commutative and associative over its own items, so a reduction may combine them in
// any fixed order and still return what the sequential loop returns: ties go to the smaller
// index and NaNs win as NumPy's argmin/argmax/min/max let them (the first NaN).
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "scankit/ops.hpp"

namespace scankit {

/// A value and the position it came from.
template <class T>
struct indexed {
  T value;
  std::int64_t index;
  friend constexpr bool operator==(const indexed&, const indexed&) = default;
};

namespace detail {
template <class T>
SCANKIT_HD constexpr bool is_nan(const T& x) {
  if constexpr (std::is_floating_point_v<T>) return x != x;
  else return false;
}
/// A float's bits as an unsigned integer of its width.
template <class T>
SCANKIT_HD auto float_bits(T x) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "float or double");
  std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned> u = 0;
  memcpy(&u, &x, sizeof(T));
  return u;
}
template <class T>
SCANKIT_HD bool sign_bit(T x) {
  return (float_bits(x) >> (8 * sizeof(T) - 1)) != 0;
}
/// Whether x's bit pattern, read as an unsigned integer, is below y's.
template <class T>
SCANKIT_HD bool bits_less(T x, T y) {
  return float_bits(x) < float_bits(y);
}
}  // namespace detail

/// The first position of the smallest value (a NaN, where there is one, as numpy.argmin).
/// The identity's index is the largest int64: any item beats it.
template <class T>
struct argmin_op {
  using value_type = indexed<T>;
  static constexpr bool commutative = true;
  static constexpr const char* name = "argmin";
  SCANKIT_HD static constexpr indexed<T> identity() {
    if constexpr (std::numeric_limits<T>::has_infinity)
      return {std::numeric_limits<T>::infinity(), std::numeric_limits<std::int64_t>::max()};
    else return {std::numeric_limits<T>::max(), std::numeric_limits<std::int64_t>::max()};
  }
  SCANKIT_HD constexpr indexed<T> operator()(const indexed<T>& a, const indexed<T>& b) const {
    const bool an = detail::is_nan(a.value), bn = detail::is_nan(b.value);
    if (an != bn) return an ? a : b;
    if (!an && a.value != b.value) return b.value < a.value ? b : a;
    return b.index < a.index ? b : a;
  }
};

/// The first position of the largest value (a NaN, where there is one, as numpy.argmax).
template <class T>
struct argmax_op {
  using value_type = indexed<T>;
  static constexpr bool commutative = true;
  static constexpr const char* name = "argmax";
  SCANKIT_HD static constexpr indexed<T> identity() {
    if constexpr (std::numeric_limits<T>::has_infinity)
      return {-std::numeric_limits<T>::infinity(), std::numeric_limits<std::int64_t>::max()};
    else return {std::numeric_limits<T>::lowest(), std::numeric_limits<std::int64_t>::max()};
  }
  SCANKIT_HD constexpr indexed<T> operator()(const indexed<T>& a, const indexed<T>& b) const {
    const bool an = detail::is_nan(a.value), bn = detail::is_nan(b.value);
    if (an != bn) return an ? a : b;
    if (!an && a.value != b.value) return a.value < b.value ? b : a;
    return b.index < a.index ? b : a;
  }
};

/// The smallest and the largest value.
template <class T>
struct min_max_value {
  T min;
  T max;
  friend constexpr bool operator==(const min_max_value&, const min_max_value&) = default;
};

/// Both extremes in one pass; a NaN makes both NaN (as numpy.min and numpy.max). Ties that
/// differ in their bits are settled by the bits, so the result does not depend on the order
/// items are combined in: -0.0 is the smaller zero (as IEEE 754's minimum and maximum), and of
/// two NaNs the one with the smaller bit pattern wins.
template <class T>
struct min_max_op {
  using value_type = min_max_value<T>;
  static constexpr bool commutative = true;
  static constexpr const char* name = "min_max";
  SCANKIT_HD static constexpr min_max_value<T> identity() {
    return {scankit::min<T>::identity(), scankit::max<T>::identity()};
  }
  SCANKIT_HD min_max_value<T> operator()(const min_max_value<T>& a, const min_max_value<T>& b) const {
    return {pick(a.min, b.min, true), pick(a.max, b.max, false)};
  }

 private:
  /// The smaller (smaller == true) or larger of x and y, NaN first, ties by bits.
  SCANKIT_HD static T pick(T x, T y, bool smaller) {
    if constexpr (std::is_floating_point_v<T>) {
      const bool xn = detail::is_nan(x), yn = detail::is_nan(y);
      if (xn || yn) return xn && yn ? (detail::bits_less(y, x) ? y : x) : xn ? x : y;
      if (x == y) return (detail::sign_bit(x) == smaller) ? x : y;
    }
    if (smaller) return y < x ? y : x;
    return x < y ? y : x;
  }
};

/// The item transforms of the reductions: what item x at position i contributes.
struct as_value {
  template <class T>
  SCANKIT_HD constexpr T operator()(const T& x, std::int64_t) const { return x; }
};
struct as_indexed {
  template <class T>
  SCANKIT_HD constexpr indexed<T> operator()(const T& x, std::int64_t i) const { return {x, i}; }
};
struct as_min_max {
  template <class T>
  SCANKIT_HD constexpr min_max_value<T> operator()(const T& x, std::int64_t) const { return {x, x}; }
};

}  // namespace scankit
