// Scan inputs and their checking, shared by bench, sweep and verify.
//
// Inputs are a pure function of (seed, index), so they are generated in parallel and are the
// same for any thread count. Values never make a trivial scan (see fill_input).
//
// Checking: integer results must equal the serial CPU scan (scan_serial) exactly. Floating
// point results are compared with a serial scan carried out in long double:
//   sum:       |got - ref| <= 8 eps log2(n+2) (|ref| + |init| + sum_{j<=i} |x_j|)
//   prod:      |got - ref| <= 8 eps (i+2) |ref|
//   min, max:  exact
// with eps the machine epsilon of the element type (2^-23 for f32, 2^-52 for f64) and i the
// position; the bounds of the project's tests (tests/common/test_util.hpp). Rounding errors of
// products need not cancel: values near 1 lose their second-order terms in the same direction,
// and blocked GPU scans keep partial products near 1, so their error grows with i, not sqrt(i).
// The same bounds apply to the carry-out (with i = n).
#pragma once

#include "common/parallel.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "scankit/cpu/scan.hpp"
#include "scankit/ops.hpp"
#include "scankit/types.hpp"

namespace scankit::tools {

/// Tolerance text for the help and the JSON.
inline constexpr const char* float_tolerance_text =
    "integers must equal the serial CPU scan exactly; floats are compared with a serial scan "
    "in long double: sum within 8*eps*log2(n+2)*(|ref| + |init| + sum of |x_j| up to i), prod "
    "within 8*eps*(i+2)*|ref| (i: the position), min/max exact (eps = 2^-23 for f32, 2^-52 for "
    "f64)";

// ---------------------------------------------------------------------------------------
// Random inputs

/// A 64-bit hash of (seed, index): the counter-based generator behind every input.
constexpr std::uint64_t mix64(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (i + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Uniform double in [0, 1) from a hash.
constexpr double unit(std::uint64_t h) { return static_cast<double>(h >> 11) * 0x1.0p-53; }

/// Value number i of an input of n items for operator `op`:
///   sum:  integers in [-1000, 1000] without 0 (wrapped for unsigned); floats in [-1, 1)
///   prod: odd integers 1..2001 (a wrapping product never reaches 0); floats in [0.999, 1.001)
///   min/max: a falling (min) or rising (max) trend plus noise spanning ~64 items of trend,
///         so the running extreme keeps changing; integers span a quarter of their range
///   and:  all bits set, with one bit cleared in ~128 of the n items;
///   or:   the value 1, with one random bit set in ~128 of the n items;
///   xor:  random bits (never 0).
template <class T>
T input_value(std::uint64_t seed, std::int64_t i, std::int64_t n, op_kind op) {
  const std::uint64_t h = mix64(seed, static_cast<std::uint64_t>(i));
  switch (op) {
    case op_kind::sum:
      if constexpr (std::is_floating_point_v<T>) {
        const double v = 2.0 * unit(h) - 1.0;
        return static_cast<T>(v != 0.0 ? v : 0.5);
      } else {
        std::int64_t v = static_cast<std::int64_t>(h % 2000) - 1000;  // [-1000, 999]
        if (v >= 0) ++v;                                              // skip 0
        return static_cast<T>(v);
      }
    case op_kind::product:
      if constexpr (std::is_floating_point_v<T>) return static_cast<T>(0.999 + 0.002 * unit(h));
      else return static_cast<T>(2 * (h % 1001) + 1);
    case op_kind::min:
    case op_kind::max: {
      const double t = n > 1 ? static_cast<double>(i) / static_cast<double>(n) : 0.0;
      const double noise = (2.0 * unit(h) - 1.0) * std::min(1.0, 64.0 / static_cast<double>(n));
      double d = op == op_kind::max ? -1.0 + 2.0 * t + noise : 1.0 - 2.0 * t + noise;
      d = std::clamp(d, -1.0, 1.0);  // in [-1, 1]
      if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(d);
      } else {
        constexpr int bits = std::numeric_limits<T>::digits + std::is_signed_v<T>;
        const long double scale = std::ldexp(1.0L, bits - 3);
        if constexpr (std::is_signed_v<T>) return static_cast<T>(std::llround(d * scale));
        else return static_cast<T>(std::llround((d + 1.0) * scale));
      }
    }
    case op_kind::bit_and:
    case op_kind::bit_or:
    case op_kind::bit_xor:
      if constexpr (std::is_integral_v<T>) {
        constexpr int bits = static_cast<int>(sizeof(T) * 8);
        const std::uint64_t h2 = mix64(seed ^ 0x5bd1e995u, static_cast<std::uint64_t>(i));
        const bool rare = unit(h2) * static_cast<double>(n) < 128.0;
        const T bit = static_cast<T>(T(1) << (h % bits));
        if (op == op_kind::bit_and) return rare ? static_cast<T>(~bit) : static_cast<T>(~T(0));
        if (op == op_kind::bit_or) return rare ? bit : T(1);
        const T v = static_cast<T>(h);
        return v != T(0) ? v : T(1);
      } else {
        return T(1);  // bitwise operators do not exist for floats
      }
  }
  return T(1);
}

/// Fills out[0, n) with input_value(seed, i, n, op), in parallel.
template <class T>
void fill_input(T* out, std::int64_t n, op_kind op, std::uint64_t seed) {
  parallel_chunks(n, 1 << 16, [&](const index_range& r) {
    for (std::int64_t i = r.begin(); i < r.end(); ++i) out[i] = input_value<T>(seed, i, n, op);
  });
}

/// A carry-in drawn like an input item.
template <class T>
T random_init(std::uint64_t seed, op_kind op) {
  return input_value<T>(seed ^ 0xC0FFEEull, 7, 1000, op);
}

// ---------------------------------------------------------------------------------------
// Reference and checking

struct check_outcome {
  bool ok = true;
  std::string message;  // the first mismatch, when !ok
};

namespace detail {
template <class T>
std::string show(const T& v) {
  std::ostringstream os;
  if constexpr (std::is_floating_point_v<T>) os.precision(std::numeric_limits<T>::max_digits10);
  if constexpr (sizeof(T) == 1) os << static_cast<int>(v);
  else os << v;
  return os.str();
}
}  // namespace detail

/// The serial reference of one scan (input, operator, kind, carry-in), for checking results
/// of any prefix length. Integers: the serial scan itself. Floats: long double checkpoints
/// every 2^16 items, so that checks run in parallel.
template <class Op>
class scan_reference {
 public:
  using T = value_t<Op>;
  static constexpr bool exact = !std::is_floating_point_v<T>;
  static constexpr std::int64_t block = std::int64_t{1} << 16;

  scan_reference(const T* in, std::int64_t n, op_kind op, scan_kind kind, T init)
      : in_(in), n_(n), op_(op), kind_(kind) {
    if constexpr (exact) {
      ref_.resize(static_cast<std::size_t>(n));
      total_ = cpu::scan_serial(in, ref_.data(), n, Op{}, kind, init);
    } else {
      long double acc = static_cast<long double>(init);
      long double abs_sum = std::fabs(static_cast<long double>(init));
      for (std::int64_t b = 0; b < n; b += block) {
        marks_.push_back({acc, abs_sum});
        const std::int64_t e = std::min(n, b + block);
        for (std::int64_t i = b; i < e; ++i) {
          acc = combine(acc, static_cast<long double>(in[i]));
          abs_sum += std::fabs(static_cast<long double>(in[i]));
        }
      }
      wide_total_ = acc;
      total_abs_ = abs_sum;
    }
  }

  std::int64_t size() const { return n_; }

  /// The serial result (integers only; empty for floats).
  const std::vector<T>& exact_result() const { return ref_; }

  /// Checks got[0, count) (count <= size()) and, when given, the carry-out of a scan of
  /// all size() items.
  check_outcome check(const T* got, std::int64_t count, const T* total = nullptr) const {
    // The first bad item and how many there are (to tell a one-off from a systematic
    // error), in one parallel pass over the blocks.
    constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max();
    const bad_items bad = parallel_fold(
        (count + block - 1) / block, 1, bad_items{none, 0},
        [&](const index_range& r, bad_items acc) {
          for (std::int64_t b = r.begin(); b < r.end(); ++b) {
            const bad_items here = check_block(got, b, count);
            acc.first = std::min(acc.first, here.first);
            acc.count += here.count;
          }
          return acc;
        },
        [](bad_items a, bad_items b) { return bad_items{std::min(a.first, b.first), a.count + b.count}; });
    if (bad.count > 0) {
      return {false, "first mismatch at index " + std::to_string(bad.first) + " of " +
                         std::to_string(count) + ": got " + detail::show(got[bad.first]) +
                         ", expected " + expected_text(bad.first) + " (" + std::to_string(bad.count) +
                         " bad items)"};
    }
    if (total) {
      bool ok;
      std::string want;
      if constexpr (exact) {
        ok = *total == total_;
        want = detail::show(total_);
      } else {
        ok = close(*total, wide_total_, total_abs_, n_, n_);
        want = detail::show(static_cast<double>(wide_total_));
      }
      if (!ok) return {false, "carry-out " + detail::show(*total) + ", expected " + want};
    }
    return {};
  }

 private:
  struct mark {
    long double acc, abs_sum;
  };

  long double combine(long double a, long double b) const {
    switch (op_) {
      case op_kind::sum: return a + b;
      case op_kind::product: return a * b;
      case op_kind::min: return b < a ? b : a;
      default: return a < b ? b : a;
    }
  }

  /// Whether got is within the documented tolerance of ref (floats).
  bool close(T got, long double ref, long double abs_sum, std::int64_t i, std::int64_t count) const {
    const long double g = static_cast<long double>(got);
    if (g == ref) return true;
    const long double eps = std::numeric_limits<T>::epsilon();
    long double tol = 0;
    if (op_ == op_kind::sum)
      tol = 8 * eps * std::log2(static_cast<long double>(count) + 2) * (std::fabs(ref) + abs_sum);
    else if (op_ == op_kind::product)
      tol = 8 * eps * (static_cast<long double>(i) + 2) * std::fabs(ref);
    return std::fabs(g - ref) <= tol;  // false for NaN
  }

  std::pair<long double, long double> wide_at(std::int64_t i) const {
    const mark& m = marks_[static_cast<std::size_t>(i / block)];
    long double acc = m.acc, abs_sum = m.abs_sum;
    for (std::int64_t j = i / block * block; j < i; ++j) {
      acc = combine(acc, static_cast<long double>(in_[j]));
      abs_sum += std::fabs(static_cast<long double>(in_[j]));
    }
    abs_sum += std::fabs(static_cast<long double>(in_[i]));
    if (kind_ == scan_kind::inclusive) acc = combine(acc, static_cast<long double>(in_[i]));
    return {acc, abs_sum};
  }

  std::string expected_text(std::int64_t i) const {
    if constexpr (exact) return detail::show(ref_[static_cast<std::size_t>(i)]);
    else return detail::show(static_cast<double>(wide_at(i).first)) + " (long double reference)";
  }

  struct bad_items {
    std::int64_t first;  // index of the first bad item (max() when none)
    std::int64_t count;
  };

  /// The bad items of block b of got[0, count).
  bad_items check_block(const T* got, std::int64_t b, std::int64_t count) const {
    const std::int64_t begin = b * block, end = std::min(count, begin + block);
    bad_items bad{std::numeric_limits<std::int64_t>::max(), 0};
    auto note = [&](std::int64_t i) {
      if (bad.count++ == 0) bad.first = i;
    };
    if constexpr (exact) {
      const T* ref = ref_.data();
      for (std::int64_t i = begin; i < end; ++i)
        if (!(got[i] == ref[i])) note(i);
    } else {
      const mark& m = marks_[static_cast<std::size_t>(b)];
      long double acc = m.acc, abs_sum = m.abs_sum;
      for (std::int64_t i = begin; i < end; ++i) {
        const long double x = static_cast<long double>(in_[i]);
        abs_sum += std::fabs(x);
        if (kind_ == scan_kind::exclusive) {
          if (!close(got[i], acc, abs_sum, i, count)) note(i);
          acc = combine(acc, x);
        } else {
          acc = combine(acc, x);
          if (!close(got[i], acc, abs_sum, i, count)) note(i);
        }
      }
    }
    return bad;
  }

  const T* in_;
  std::int64_t n_;
  op_kind op_;
  scan_kind kind_;
  std::vector<T> ref_;
  T total_{};
  std::vector<mark> marks_;
  long double wide_total_ = 0, total_abs_ = 0;
};

}  // namespace scankit::tools
