// Helpers shared by the CPU and CUDA test suites: fresh random inputs, the size list every
// scan is tested over, a non-commutative monoid, and comparison against a serial reference.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "scankit/cpu/scan.hpp"
#include "scankit/ops.hpp"

namespace scankit::test {

/// Seed for this process: fresh each run (printed by the test so a failure can be replayed
/// with SCANKIT_TEST_SEED=...).
inline std::uint64_t seed() {
  static const std::uint64_t s = [] {
    if (const char* env = std::getenv("SCANKIT_TEST_SEED")) return std::strtoull(env, nullptr, 10);
    return static_cast<std::uint64_t>(std::random_device{}()) << 32 | std::random_device{}();
  }();
  return s;
}

inline std::mt19937_64& rng() {
  static std::mt19937_64 g(seed());
  return g;
}

/// Random values that never make all-zero input and keep products and sums meaningful:
/// integers over their whole range for bitwise/min/max, small magnitudes for sum/product so
/// float references stay well conditioned. For product of floats, values near 1.
template <class T>
std::vector<T> random_values(std::int64_t n, const char* op_name = "sum") {
  std::vector<T> v(static_cast<std::size_t>(n));
  auto& g = rng();
  const std::string op = op_name;
  if constexpr (std::is_floating_point_v<T>) {
    if (op == "prod") {
      std::uniform_real_distribution<double> d(0.999, 1.001);
      for (auto& x : v) x = static_cast<T>(d(g));
    } else {
      std::uniform_real_distribution<double> d(-1.0, 1.0);
      for (auto& x : v) x = static_cast<T>(d(g));
    }
  } else {
    if (op == "prod") {
      // Odd numbers keep a wrapping product from collapsing to zero.
      std::uniform_int_distribution<std::uint64_t> d(0, 1000);
      for (auto& x : v) x = static_cast<T>(2 * d(g) + 1);
    } else if (op == "sum") {
      std::uniform_int_distribution<std::int64_t> d(-1000, 1000);
      for (auto& x : v) x = static_cast<T>(d(g));
    } else {
      std::uniform_int_distribution<std::uint64_t> d;
      for (auto& x : v) x = static_cast<T>(d(g));
    }
  }
  return v;
}

/// The sizes every scan is tested over: 0, 1, 2, tile-1, tile, tile+1 for the given tile
/// sizes, primes, 2^k +- 1, and a few random sizes below `max_random`.
inline std::vector<std::int64_t> test_sizes(std::vector<std::int64_t> tiles, std::int64_t max_random,
                                            int randoms = 3) {
  std::vector<std::int64_t> s{0, 1, 2, 3, 31, 32, 33, 97, 1009, 65537, 1000003};
  for (auto t : tiles)
    for (std::int64_t k : {t - 1, t, t + 1, 2 * t - 1, 2 * t + 1, t * t + 1})
      if (k >= 0) s.push_back(k);
  for (int k : {10, 16, 20})
    for (int d : {-1, 1}) s.push_back((std::int64_t{1} << k) + d);
  std::uniform_int_distribution<std::int64_t> d(1, std::max<std::int64_t>(max_random, 2));
  for (int i = 0; i < randoms; ++i) s.push_back(d(rng()));
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

/// An affine map x -> a*x + b over integers modulo 2^32. Composition is associative but not
/// commutative, so a scan that combines operands in the wrong order gives a different answer.
struct affine {
  std::uint32_t a, b;
  friend bool operator==(const affine&, const affine&) = default;
};

/// op(f, g) = "apply f, then g": (g o f)(x) = g.a*(f.a*x + f.b) + g.b.
struct affine_compose {
  using value_type = affine;
  SCANKIT_HD static constexpr affine identity() { return {1u, 0u}; }
  SCANKIT_HD constexpr affine operator()(const affine& f, const affine& g) const {
    return {g.a * f.a, g.a * f.b + g.b};
  }
};

inline std::vector<affine> random_affine(std::int64_t n) {
  std::vector<affine> v(static_cast<std::size_t>(n));
  std::uniform_int_distribution<std::uint32_t> d;
  for (auto& x : v) x = {d(rng()) | 1u, d(rng())};
  return v;
}

inline void PrintTo(const affine& f, std::ostream* os) { *os << "{" << f.a << "," << f.b << "}"; }

/// Reference scan in double (long double for doubles) for floating types, for tolerance
/// comparisons. Integers use the serial reference on their own type (exact).
template <class Op>
std::vector<long double> reference_wide(const std::vector<value_t<Op>>& in, Op, scan_kind kind,
                                        value_t<Op> init) {
  using W = long double;
  std::vector<W> out(in.size());
  W acc = static_cast<W>(init);
  const std::string name = Op::name;
  auto comb = [&](W a, W b) -> W {
    if (name == "sum") return a + b;
    if (name == "prod") return a * b;
    if (name == "min") return std::min(a, b);
    return std::max(a, b);
  };
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (kind == scan_kind::exclusive) {
      out[i] = acc;
      acc = comb(acc, static_cast<W>(in[i]));
    } else {
      acc = comb(acc, static_cast<W>(in[i]));
      out[i] = acc;
    }
  }
  return out;
}

/// Tolerance for a float scan of n items against a wide reference: relative to the running
/// sum of magnitudes, eps * c * sqrt-ish growth. Stated here once for every test:
///   |got - ref| <= 8 * eps(T) * (|ref| + running_abs_sum) * log2(n + 2)
template <class T>
double float_tolerance(double running_abs, double ref, std::int64_t n) {
  return 8.0 * std::numeric_limits<T>::epsilon() * (std::abs(ref) + running_abs) *
         std::log2(static_cast<double>(n) + 2.0);
}

/// Checks `got` against the serial reference (exact for integers and custom types, within
/// float_tolerance for floats). Returns a failure message for the first mismatch.
template <class Op>
::testing::AssertionResult matches_reference(const std::vector<value_t<Op>>& in,
                                             const std::vector<value_t<Op>>& got, Op op,
                                             scan_kind kind, value_t<Op> init,
                                             const value_t<Op>* total = nullptr) {
  using T = value_t<Op>;
  const auto n = static_cast<std::int64_t>(in.size());
  if (got.size() != in.size()) return ::testing::AssertionFailure() << "size mismatch";
  if constexpr (std::is_floating_point_v<T>) {
    const auto ref = reference_wide(in, op, kind, init);
    const std::string name = Op::name;
    double running_abs = std::abs(static_cast<double>(init));
    for (std::int64_t i = 0; i < n; ++i) {
      running_abs += std::abs(static_cast<double>(in[i]));
      // Products compound relative error per factor; sums grow with the magnitudes seen.
      double tol = name == "prod" ? 8.0 * std::numeric_limits<T>::epsilon() * std::abs((double)ref[i]) * (i + 2)
                 : name == "sum" ? float_tolerance<T>(running_abs, (double)ref[i], n)
                                 : 0.0;  // min/max are exact
      if (!(std::abs(static_cast<double>(got[i]) - static_cast<double>(ref[i])) <= tol))
        return ::testing::AssertionFailure() << "n=" << n << " first mismatch at " << i << ": got "
                                             << got[i] << ", reference " << (double)ref[i]
                                             << " (tolerance " << tol << ")";
    }
    if (total) {
      long double all = n ? (kind == scan_kind::inclusive ? ref[n - 1] : 0) : init;
      if (n && kind == scan_kind::exclusive) {
        std::vector<T> last{in.back()};
        all = reference_wide(last, op, scan_kind::inclusive, static_cast<T>(ref[n - 1]))[0];
      }
      double tol = name == "prod" ? 8.0 * std::numeric_limits<T>::epsilon() * std::abs((double)all) * (n + 2)
                 : name == "sum" ? float_tolerance<T>(running_abs, (double)all, n) : 0.0;
      if (!(std::abs(static_cast<double>(*total) - static_cast<double>(all)) <= tol))
        return ::testing::AssertionFailure() << "n=" << n << " total " << *total << ", reference " << (double)all;
    }
  } else {
    std::vector<T> ref(in.size());
    const T ref_total = cpu::scan_serial(in.data(), ref.data(), n, op, kind, init);
    for (std::int64_t i = 0; i < n; ++i)
      if (!(got[i] == ref[i]))
        return ::testing::AssertionFailure() << "n=" << n << " first mismatch at index " << i
                                             << " of " << n;
    if (total && !(*total == ref_total))
      return ::testing::AssertionFailure() << "n=" << n << " carry-out differs from the reference";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace scankit::test
