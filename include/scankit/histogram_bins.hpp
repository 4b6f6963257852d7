// How a sample finds its bin: the one definition shared by the CPU reference, the parallel
// CPU histogram and every CUDA kernel, so that all of them agree bit for bit.
//
// Even bins, num_bins = B over [lower, upper):
//   integer samples: x counts iff lower <= x < upper, and
//                        bin = floor((x - lower) * B / (upper - lower))
//                    computed exactly (128-bit products; no rounding anywhere).
//   float samples:   x counts iff lower <= x < upper (NaN fails both tests, so NaN is never
//                    counted; +-inf are outside any finite range), and
//                        bin = min(B - 1, trunc(((double)x - (double)lower) * scale))
//                    with scale = (double)B / ((double)upper - (double)lower) computed once,
//                    on the host. Every step is one IEEE double operation (a subtraction,
//                    a multiplication, a truncation: nothing an FMA could fuse), so the CPU
//                    and the GPU round identically. Samples just below upper can round up to
//                    B; the min() keeps them in the last bin. Near the other edges the bin of
//                    a sample can differ by one from the infinitely precise answer; it never
//                    differs between the CPU and the GPU.
// Range bins over sorted edges e[0] < e[1] < ... < e[B]:
//   x counts iff e[0] <= x < e[B]; bin i is the one with e[i] <= x < e[i+1] (exact
//   comparisons; a binary search).
// bincount: bin = key for 0 <= key < B (even bins over [0, B) of an integer type).
//
// The level type (lower, upper, edges) is the sample type for float and double, and
// std::int64_t for every integer type (so that [0, 256) of uint8 and [0, 2^32) of uint32 can
// be written).
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "scankit/error.hpp"
#include "scankit/ops.hpp"  // SCANKIT_HD

namespace scankit {

/// The sample types histograms accept.
template <class T>
concept histogram_sample =
    std::same_as<T, std::uint8_t> || std::same_as<T, std::uint16_t> ||
    std::same_as<T, std::int32_t> || std::same_as<T, std::uint32_t> ||
    std::same_as<T, std::int64_t> || std::same_as<T, float> || std::same_as<T, double>;

/// The counter types histograms accept (counts wrap modulo 2^bits).
template <class C>
concept histogram_counter = std::same_as<C, std::uint32_t> || std::same_as<C, std::uint64_t>;

/// The type of lower, upper and edges for samples of type T (see the top of this file).
template <class T>
using histogram_level_t = std::conditional_t<std::is_floating_point_v<T>, T, std::int64_t>;

/// Most bins any histogram accepts (bins are int on the GPU; 2^24 counters = 64 MiB of uint32).
inline constexpr std::int64_t max_histogram_bins = std::int64_t{1} << 24;

namespace detail {

#if !defined(__CUDA_ARCH__)
__extension__ typedef unsigned __int128 uint128;  // GCC and Clang; __extension__ for -Wpedantic
#endif

/// The 128-bit product a * b as (hi, lo).
SCANKIT_HD inline void mul_wide(std::uint64_t a, std::uint64_t b, std::uint64_t& hi,
                                std::uint64_t& lo) {
#if defined(__CUDA_ARCH__)
  lo = a * b;
  hi = __umul64hi(a, b);
#else
  const uint128 p = static_cast<uint128>(a) * b;
  lo = static_cast<std::uint64_t>(p);
  hi = static_cast<std::uint64_t>(p >> 64);
#endif
}

/// (ah, al) < (bh, bl) as 128-bit numbers.
SCANKIT_HD inline bool less_wide(std::uint64_t ah, std::uint64_t al, std::uint64_t bh,
                                 std::uint64_t bl) {
  return ah < bh || (ah == bh && al < bl);
}

inline void check_bins(std::int64_t num_bins, const char* where) {
  if (num_bins < 1 || num_bins > max_histogram_bins)
    throw invalid_argument(std::string(where) + ": num_bins = " + std::to_string(num_bins) +
                           " is outside [1, 2^24]");
}

}  // namespace detail

/// Even bins for samples of type T. Build with make() (checks the arguments); call on a
/// sample to get its bin, or -1 when it is not counted.
template <histogram_sample T>
struct even_bins {
  using level = histogram_level_t<T>;
  static constexpr bool is_float = std::is_floating_point_v<T>;

  int num_bins = 1;
  // Integer samples: d = (uint64)x - (uint64)lower (mod 2^64) is < range exactly when x is in
  // [lower, upper) (proof in docs/ALGORITHMS.md), and bin = floor(d * B / range).
  std::uint64_t lower_u = 0;
  std::uint64_t range = 1;  // upper - lower (mod 2^64), >= 1
  int shift = -1;           // >= 0 when range == B << shift: bin = d >> shift
  bool narrow = false;      // T has <= 32 bits and [lower, upper) lies inside T's range:
                            // the 32-bit difference (uint32)x - (uint32)lower is exact
  // Float samples.
  T lower_f = 0, upper_f = 0;
  double lower_d = 0, scale = 0;  // scale also serves the integer estimate: B / range

  static even_bins make(std::int64_t num_bins, level lower, level upper,
                        const char* where = "scankit::histogram_even") {
    detail::check_bins(num_bins, where);
    even_bins e;
    e.num_bins = static_cast<int>(num_bins);
    if constexpr (is_float) {
      if (!std::isfinite(lower) || !std::isfinite(upper) || !(lower < upper))
        throw invalid_argument(std::string(where) + ": needs finite lower < upper");
      const double width = static_cast<double>(upper) - static_cast<double>(lower);
      if (!std::isfinite(width))
        throw invalid_argument(std::string(where) + ": upper - lower overflows a double");
      e.lower_f = lower;
      e.upper_f = upper;
      e.lower_d = static_cast<double>(lower);
      e.scale = static_cast<double>(num_bins) / width;
    } else {
      if (!(lower < upper)) throw invalid_argument(std::string(where) + ": needs lower < upper");
      e.lower_u = static_cast<std::uint64_t>(lower);
      e.range = static_cast<std::uint64_t>(upper) - static_cast<std::uint64_t>(lower);
      e.scale = static_cast<double>(num_bins) / static_cast<double>(e.range);
      const auto b = static_cast<std::uint64_t>(num_bins);
      const std::uint64_t w = e.range / b;  // the bin width when B divides the range
      if (e.range % b == 0 && (w & (w - 1)) == 0) {
        e.shift = 0;
        while ((std::uint64_t{1} << e.shift) < w) ++e.shift;
      }
      if constexpr (sizeof(T) <= 4) {
        e.narrow = lower >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
                   upper <= static_cast<std::int64_t>(std::numeric_limits<T>::max()) + 1;
      }
    }
    return e;
  }

  /// floor(d * B / range) for d < range, exactly: a double estimate (off by at most one, as
  /// its relative error is below 2^-50 and the quotient below 2^24) corrected with exact
  /// 128-bit products.
  SCANKIT_HD int exact_bin(std::uint64_t d) const {
    std::uint64_t est = static_cast<std::uint64_t>(static_cast<double>(d) * scale);
    if (est > static_cast<std::uint64_t>(num_bins - 1)) est = static_cast<std::uint64_t>(num_bins - 1);
    std::uint64_t eh, el, dh, dl;
    detail::mul_wide(est, range, eh, el);                               // est * range
    detail::mul_wide(d, static_cast<std::uint64_t>(num_bins), dh, dl);  // d * B
    if (detail::less_wide(dh, dl, eh, el)) return static_cast<int>(est - 1);
    const std::uint64_t nl = el + range;  // (est + 1) * range
    const std::uint64_t nh = eh + (nl < el ? 1 : 0);
    if (!detail::less_wide(dh, dl, nh, nl)) return static_cast<int>(est + 1);
    return static_cast<int>(est);
  }

  /// The fast path the GPU kernels specialise on (narrow, 0 <= shift < 32): a 32-bit
  /// subtraction, one comparison, one shift. Equal to operator() whenever it applies.
  SCANKIT_HD int narrow_shift_bin(T x) const {
    const std::uint32_t d = static_cast<std::uint32_t>(x) - static_cast<std::uint32_t>(lower_u);
    return static_cast<std::uint64_t>(d) < range ? static_cast<int>(d >> shift) : -1;
  }

  /// The bin of x, or -1 when x is not counted.
  SCANKIT_HD int operator()(T x) const {
    if constexpr (is_float) {
      if (!(x >= lower_f && x < upper_f)) return -1;  // NaN fails here
      const double t = (static_cast<double>(x) - lower_d) * scale;
      const int b = static_cast<int>(t);
      return b < num_bins ? b : num_bins - 1;
    } else {
      if (narrow && shift >= 0 && shift < 32) return narrow_shift_bin(x);
      const std::uint64_t d =
          static_cast<std::uint64_t>(static_cast<std::int64_t>(x)) - lower_u;
      if (d >= range) return -1;
      if (shift >= 0) return static_cast<int>(d >> shift);
      return exact_bin(d);
    }
  }

  bool fast_path() const { return !is_float && narrow && shift >= 0 && shift < 32; }

  /// The fast path over every value of T ([lower, upper) = [min, max + 1)): no sample is out
  /// of range, so the comparison goes too.
  bool full_range() const {
    if constexpr (is_float || sizeof(T) > 4) {
      return false;
    } else {
      return fast_path() &&
             lower_u == static_cast<std::uint64_t>(static_cast<std::int64_t>(std::numeric_limits<T>::min())) &&
             range == (std::uint64_t{1} << (8 * sizeof(T)));
    }
  }
  /// full_range() with one bin per value of an unsigned type: bin = x.
  bool identity() const { return full_range() && shift == 0 && lower_u == 0; }

  SCANKIT_HD int full_range_bin(T x) const {
    return static_cast<int>((static_cast<std::uint32_t>(x) - static_cast<std::uint32_t>(lower_u)) >> shift);
  }
};

/// even_bins restricted to full_range(): a subtraction and a shift per sample; every sample is
/// counted (always_counted: the kernels drop their "not counted" handling).
template <histogram_sample T>
struct even_bins_full {
  static constexpr bool always_counted = true;
  even_bins<T> e;
  SCANKIT_HD int operator()(T x) const { return e.full_range_bin(x); }
};

/// even_bins restricted to identity(): the bin is the sample (uint8 in 256 bins, uint16 in
/// 65,536 bins over every value).
template <histogram_sample T>
struct even_bins_identity {
  static constexpr bool always_counted = true;
  SCANKIT_HD int operator()(T x) const { return static_cast<int>(x); }
};

/// Whether a bins functor can return -1 ("not counted").
template <class Bins>
constexpr bool may_skip() {
  if constexpr (requires { Bins::always_counted; }) return !Bins::always_counted;
  else return true;
}

/// even_bins restricted to its fast path (only built when e.fast_path()): what the CUDA
/// kernels and the parallel CPU loop instantiate for the common power-of-two case.
template <histogram_sample T>
struct even_bins_fast {
  even_bins<T> e;
  SCANKIT_HD int operator()(T x) const { return e.narrow_shift_bin(x); }
};

/// Bins between sorted edges (edges[0] < ... < edges[num_bins]); `edges` points to host
/// memory for the CPU and to device memory for the GPU.
template <histogram_sample T>
struct range_bins {
  using level = histogram_level_t<T>;
  const level* edges = nullptr;
  int num_bins = 1;

  /// Checks the count (and, for host edges, that they are sorted, finite and distinct).
  static range_bins make(const level* edges, std::int64_t num_edges, bool host_edges,
                         const char* where = "scankit::histogram_range") {
    if (edges == nullptr) throw invalid_argument(std::string(where) + ": edges is a null pointer");
    detail::check_bins(num_edges - 1, where);
    if (host_edges) {
      for (std::int64_t i = 0; i < num_edges; ++i) {
        if constexpr (std::is_floating_point_v<level>)
          if (!std::isfinite(edges[i]))
            throw invalid_argument(std::string(where) + ": edge " + std::to_string(i) + " is not finite");
        if (i > 0 && !(edges[i - 1] < edges[i]))
          throw invalid_argument(std::string(where) + ": edges must increase strictly (edge " +
                                 std::to_string(i) + ")");
      }
    }
    return {edges, static_cast<int>(num_edges - 1)};
  }

  SCANKIT_HD int operator()(T x) const {
    const level v = static_cast<level>(x);
    if (!(v >= edges[0] && v < edges[num_bins])) return -1;  // NaN fails here
    int lo = 0, hi = num_bins;                                // edges[lo] <= v < edges[hi]
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (edges[mid] <= v) lo = mid;
      else hi = mid;
    }
    return lo;
  }
};

}  // namespace scankit
