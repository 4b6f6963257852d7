// What every scankit sort (CPU and CUDA) agrees on: the options, and the map from a key to the
// unsigned "ordered bits" that radix sorting works on.
//
// Key order
// ---------
// Keys are mapped to unsigned integers of the same width whose plain unsigned order is the
// order we sort in, and radix sorts compare those:
//   * unsigned integers: the bits themselves;
//   * signed integers (two's complement): the bits with the sign bit flipped, so INT_MIN maps
//     to 0 and INT_MAX to all ones;
//   * float and double: the IEEE 754 totalOrder trick (negative numbers: all bits flipped,
//     which reverses their order; non-negative numbers: the sign bit set), then a rotation
//     that moves the negative NaNs from the bottom to the top. The result, ascending:
//         -inf < negative finite < -0 < +0 < positive finite < +inf < +NaN < -NaN.
//     So -0 sorts before +0 (they are different keys, and stability keeps their order among
//     themselves otherwise), and every NaN sorts after +inf in an ascending sort, whatever its
//     sign bit (x86 produces negative NaNs for 0/0, CUDA positive ones; both go last). NaNs
//     are ordered among themselves by their bits, deterministically. A descending sort is the
//     exact reverse: NaNs first.
// The map is a bijection, so sorted keys come back bit for bit.
//
// Descending order complements the ordered bits. Every sort is stable in both directions:
// equal keys keep their input order (as CUB's descending sort does).
//
// Bit ranges: begin_bit/end_bit select bits [begin_bit, end_bit) of the ORDERED bits (for
// unsigned keys, of the key itself); only those bits are compared. A smaller range means
// fewer passes. For signed and floating-point keys a range that excludes the top bit compares
// the transformed bits, which is rarely what one wants; the full range is the default.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "scankit/error.hpp"
#include "scankit/ops.hpp"  // SCANKIT_HD

namespace scankit {

/// Options of every sort.
struct sort_options {
  bool descending = false;
  int begin_bit = 0;   // first ordered bit compared
  int end_bit = -1;    // one past the last bit compared; -1: the key's width
};

/// The key types scankit sorts.
template <class K>
inline constexpr bool is_sort_key_v =
    std::is_same_v<K, std::uint8_t> || std::is_same_v<K, std::uint16_t> ||
    std::is_same_v<K, std::uint32_t> || std::is_same_v<K, std::uint64_t> ||
    std::is_same_v<K, std::int8_t> || std::is_same_v<K, std::int16_t> ||
    std::is_same_v<K, std::int32_t> || std::is_same_v<K, std::int64_t> ||
    std::is_same_v<K, float> || std::is_same_v<K, double>;

/// How a key's bits become ordered bits.
enum class key_kind { unsigned_int, signed_int, floating };

template <std::size_t Bytes>
struct unsigned_of;
template <> struct unsigned_of<1> { using type = std::uint8_t; };
template <> struct unsigned_of<2> { using type = std::uint16_t; };
template <> struct unsigned_of<4> { using type = std::uint32_t; };
template <> struct unsigned_of<8> { using type = std::uint64_t; };

/// The ordered-bits map of a key kind on its unsigned bit type U (usable on host and device).
template <key_kind Kind, class U>
struct ordered_bits {
  static constexpr U sign = static_cast<U>(U{1} << (sizeof(U) * 8 - 1));
  static constexpr U all = static_cast<U>(~U{0});
  // The rotation that moves negative NaNs above +NaN: after the totalOrder flip, -inf sits
  // at the mantissa mask (the negative NaNs below it); subtracting that makes -inf 0 and
  // wraps the negative NaNs to the top.
  static constexpr U rot = static_cast<U>((std::uint64_t{1} << (sizeof(U) == 8 ? 52 : 23)) - 1);
  SCANKIT_HD static constexpr U to(U b) {
    if constexpr (Kind == key_kind::unsigned_int) {
      return b;
    } else if constexpr (Kind == key_kind::signed_int) {
      return static_cast<U>(b ^ sign);
    } else {
      const U t = static_cast<U>((b & sign) ? static_cast<U>(~b) : static_cast<U>(b | sign));
      return static_cast<U>(t - rot);
    }
  }
  SCANKIT_HD static constexpr U from(U o) {
    if constexpr (Kind == key_kind::unsigned_int) {
      return o;
    } else if constexpr (Kind == key_kind::signed_int) {
      return static_cast<U>(o ^ sign);
    } else {
      const U t = static_cast<U>(o + rot);
      return static_cast<U>((t & sign) ? static_cast<U>(t & ~sign) : static_cast<U>(~t));
    }
  }
};

template <class K>
struct radix_traits {
  static_assert(is_sort_key_v<K>, "scankit sorts 8..64-bit integers, float and double");
  using bits_t = typename unsigned_of<sizeof(K)>::type;
  static constexpr key_kind kind = std::is_floating_point_v<K> ? key_kind::floating
                                   : std::is_signed_v<K>       ? key_kind::signed_int
                                                               : key_kind::unsigned_int;
  static constexpr int bits = static_cast<int>(sizeof(K) * 8);
  using map = ordered_bits<kind, bits_t>;
  /// Ordered bits of k (ascending order).
  static bits_t ordered(K k) {
    bits_t b;
    std::memcpy(&b, &k, sizeof(K));
    return map::to(b);
  }
  static K key_of(bits_t o) {
    const bits_t b = map::from(o);
    K k;
    std::memcpy(&k, &b, sizeof(K));
    return k;
  }
};

namespace detail {

/// The resolved bit range [begin, end) of opts for keys of `key_bits` bits; throws
/// invalid_argument for a range outside [0, key_bits] or begin > end.
inline std::pair<int, int> sort_bit_range(const sort_options& o, int key_bits, const char* where) {
  const int end = o.end_bit < 0 ? key_bits : o.end_bit;
  if (o.end_bit < -1 || o.begin_bit < 0 || end > key_bits || o.begin_bit > end)
    throw invalid_argument(std::string(where) + ": bit range [" + std::to_string(o.begin_bit) +
                           ", " + std::to_string(o.end_bit) + ") is not inside [0, " +
                           std::to_string(key_bits) + "] (end_bit -1 means the key's width)");
  return {o.begin_bit, end};
}

/// Ordered bits of a key restricted to the range, complemented for a descending sort: the
/// value that the sorts order by (the same on every backend, host and device; the serial
/// reference, the distributed sort's samples, cuts and merges use it).
template <class K>
SCANKIT_HD typename radix_traits<K>::bits_t sort_rank_bits(K k, int begin, int end, bool descending) {
  using U = typename radix_traits<K>::bits_t;
  U b;
  std::memcpy(&b, &k, sizeof(K));
  U o = radix_traits<K>::map::to(b);
  if (descending) o = static_cast<U>(~o);
  const int width = end - begin;
  if (width == 0) return 0;
  o = static_cast<U>(o >> begin);
  if (width < static_cast<int>(sizeof(U) * 8)) o = static_cast<U>(o & ((U{1} << width) - 1));
  return o;
}

/// a before b in the order of a sort with bit range [begin, end) and direction `descending`
/// (a strict weak order; keys it does not order are equal, and a stable algorithm keeps them in
/// their input order).
template <class K>
struct sort_key_less {
  int begin = 0, end = radix_traits<K>::bits;
  bool descending = false;
  SCANKIT_HD bool operator()(K a, K b) const {
    return sort_rank_bits(a, begin, end, descending) < sort_rank_bits(b, begin, end, descending);
  }
};

}  // namespace detail
}  // namespace scankit
