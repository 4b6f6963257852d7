// Helpers shared by the CPU and CUDA test suites: the seed every program prints (and replays from
// SCANKIT_TEST_SEED), the size tier of the run, fresh random inputs, the size list every
// primitive is tested over, a non-commutative monoid, and comparison against a serial reference.
//
// Size tiers (the tests read them from the environment; the library never does):
//   full      the default: every size, element type and operator.
//   quick     SCANKIT_TEST_QUICK=1 (and any build under a host sanitizer): every size class, with
//             fewer and smaller representatives; programs of large sizes skip.
//   sanitize  SCANKIT_TEST_TIER=sanitize: quick, cut again so that compute-sanitizer's memcheck,
//             racecheck and synccheck (tens to hundreds of times slower than a plain run) cover
//             every CUDA program within minutes (tools/gpu-check sanitize). Sizes are 0, 1, 2,
//             97 (a prime), 1025 (2^10 + 1) and tile-1, tile, tile+1 for every tile size, with one
//             random size below 2^15 instead of three; the suites take one operator per element
//             type (the non-commutative one kept), one input pattern per size, fewer random runs
//             and smaller bin sweeps. Every algorithm, tile and forced path still runs, and
//             every result is still compared with the serial reference, so the tier can fail.
//             It serves the CUDA programs; the CPU programs pass at it too, skipping the check
//             that their sizes reach the parallel paths.
//   SCANKIT_TEST_TIER=full|quick|sanitize picks a tier explicitly (it outranks
//   SCANKIT_TEST_QUICK); any other value stops the program, so that a misspelt tier never runs
//   the full suite under a sanitizer.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "scankit/cpu/scan.hpp"
#include "scankit/ops.hpp"
#include "scankit/types.hpp"

namespace scankit::test {

/// Every (element type, operator) pair the library supports, for parametrised tests.
inline std::vector<std::tuple<dtype, op_kind>> supported_combinations() {
  std::vector<std::tuple<dtype, op_kind>> v;
  for (dtype t : all_dtypes)
    for (op_kind o : all_op_kinds)
      if (supported(t, o)) v.emplace_back(t, o);
  return v;
}

/// GoogleTest name of such a pair: "<type>_<op>".
inline std::string combination_name(const ::testing::TestParamInfo<std::tuple<dtype, op_kind>>& info) {
  return std::string(name(std::get<0>(info.param))) + "_" + std::string(name(std::get<1>(info.param)));
}

/// f.template operator()<T>() for each T of a type list, in order (the lists that the typed
/// tests take serve loops over types too).
template <class... T, class F>
void for_each_type(::testing::Types<T...>, F&& f) {
  (f.template operator()<T>(), ...);
}

/// Seed for this process: fresh each run (printed by the test so a failure can be replayed
/// with SCANKIT_TEST_SEED=...).
inline std::uint64_t seed() {
  static const std::uint64_t s = [] {
    if (const char* env = std::getenv("SCANKIT_TEST_SEED"))
      return static_cast<std::uint64_t>(std::strtoull(env, nullptr, 10));
    return static_cast<std::uint64_t>(std::random_device{}()) << 32 | std::random_device{}();
  }();
  return s;
}

inline std::mt19937_64& rng() {
  static std::mt19937_64 g(seed());
  return g;
}


enum class test_tier { full, quick, sanitize };

/// The size tier of this run (see the top of this file), read once.
inline test_tier tier() {
  static const test_tier t = [] {
    if (const char* env = std::getenv("SCANKIT_TEST_TIER"); env != nullptr && *env != '\0') {
      const std::string_view v = env;
      if (v == "full") return test_tier::full;
      if (v == "quick") return test_tier::quick;
      if (v == "sanitize") return test_tier::sanitize;
      std::fprintf(stderr, "SCANKIT_TEST_TIER=%s: expected full, quick or sanitize\n", env);
      std::exit(2);
    }
    if (const char* env = std::getenv("SCANKIT_TEST_QUICK"))
      return std::string_view(env) != "0" ? test_tier::quick : test_tier::full;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return test_tier::quick;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(undefined_behavior_sanitizer)
    return test_tier::quick;
#else
    return test_tier::full;
#endif
#else
    return test_tier::full;
#endif
  }();
  return t;
}

/// Whether the suite should run a reduced workload: the quick or the sanitize tier (every
/// size class is still covered, with fewer and smaller representatives).
inline bool quick() { return tier() != test_tier::full; }

/// Whether the run is the sanitize tier: the quick workload cut again for compute-sanitizer.
inline bool sanitize_tier() { return tier() == test_tier::sanitize; }

/// The sanitize tier's thinning of the variants (patterns, directions, ...) tried at each size:
/// every variant in the other tiers; at the sanitize tier one per size, a different one at each
/// size in turn, so that all of them still run over `per_size` sizes. Call run() once per
/// (size, variant) case, in loop order, `per_size` times per size.
class variant_turns {
 public:
  explicit variant_turns(std::size_t per_size) : per_size_(per_size > 0 ? per_size : 1) {}
  bool run() {
    const std::size_t i = next_++;
    return !sanitize_tier() || i % per_size_ == i / per_size_ % per_size_;
  }

 private:
  std::size_t per_size_, next_ = 0;
};

/// A gtest environment that prints the seed (and whether the run is quick) before any test
/// runs, so that a failure can be replayed with the same inputs.
class seed_environment : public ::testing::Environment {
 public:
  void SetUp() override {
    const test_tier t = tier();
    std::printf("[ scankit  ] SCANKIT_TEST_SEED=%llu (export it to replay this run)%s\n",
                static_cast<unsigned long long>(seed()),
                t == test_tier::sanitize ? " SCANKIT_TEST_TIER=sanitize" : t == test_tier::quick ? " SCANKIT_TEST_QUICK" : "");
    std::fflush(stdout);
  }
};
/// Every program that includes this header registers the environment once, here.
[[maybe_unused]] inline ::testing::Environment* const seed_environment_registration =
    ::testing::AddGlobalTestEnvironment(new seed_environment);

/// splitmix64, seeded from rng(): inputs of many millions of items, where the standard
/// distributions would dominate the run time.
struct splitmix64 {
  std::uint64_t x = rng()();
  std::uint64_t operator()() {
    x += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

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

/// Inputs for a scan with the operator named `op`. random_values suits every operator but
/// and/or: a run of random words clears (or sets) every bit within a few dozen items, after
/// which a scan's output is constant and a wrong carry could go unnoticed. For those, items
/// are the identity with a sparse random bit flipped, so the running value keeps changing
/// across the whole array.
template <class T>
std::vector<T> scan_values(std::int64_t n, std::string_view op) {
  if constexpr (std::is_integral_v<T>) {
    if (op == "and" || op == "or") {
      constexpr int bits = 8 * sizeof(T);
      std::vector<T> v(static_cast<std::size_t>(n));
      const double p = std::min(0.5, 3.0 * bits / static_cast<double>(std::max<std::int64_t>(n, 1)));
      std::bernoulli_distribution flip(p);
      std::uniform_int_distribution<int> bit(0, bits - 1);
      for (auto& x : v) {
        using U = std::make_unsigned_t<T>;
        const T mask = flip(rng()) ? static_cast<T>(U(1) << bit(rng())) : T(0);
        x = op == "and" ? static_cast<T>(~mask) : mask;
      }
      return v;
    }
  }
  return random_values<T>(n, std::string(op).c_str());
}

/// A carry-in for a scan with the operator named `op` that differs from the identity (for
/// and/or neither 0 nor ~0, so that it changes the result).
template <class T>
T scan_carry_in(std::string_view op) {
  for (;;) {
    const T x = random_values<T>(1, std::string(op).c_str())[0];
    if constexpr (std::is_integral_v<T>) {
      if (op == "and" || op == "or") return static_cast<T>((x & T(0x5a5a5a5a)) | T(0x0101));
    }
    if (x != T(0)) return x;
  }
}

inline const char* kind_name(scan_kind k) { return k == scan_kind::inclusive ? "inclusive" : "exclusive"; }

/// The sizes every scan is tested over: 0, 1, 2, tile-1, tile, tile+1 (and 2 tiles +- 1,
/// tile^2 + 1) for the given tile sizes, primes, 2^k +- 1, and a few random sizes below
/// `max_random`. Sizes above `max_size` are dropped (tile^2 + 1 gets large for big tiles).
/// The sanitize tier keeps 0, 1, 2, one prime, one 2^k + 1, tile-1, tile and tile+1, and one
/// random size below min(max_random, 2^15): every tile's edges, at a fraction of the launches
/// and items.
inline std::vector<std::int64_t> test_sizes(std::vector<std::int64_t> tiles, std::int64_t max_random,
                                            int randoms = 3,
                                            std::int64_t max_size = std::numeric_limits<std::int64_t>::max()) {
  const bool sanitize = sanitize_tier();
  std::vector<std::int64_t> s = sanitize ? std::vector<std::int64_t>{0, 1, 2, 97, 1025}
                                         : std::vector<std::int64_t>{0, 1, 2, 3, 31, 32, 33, 97, 1009, 65537, 1000003};
  for (auto t : tiles) {
    for (std::int64_t k : {t - 1, t, t + 1})
      if (k >= 0) s.push_back(k);
    if (!sanitize)
      for (std::int64_t k : {2 * t - 1, 2 * t + 1, t * t + 1})
        if (k >= 0) s.push_back(k);
  }
  if (!sanitize)
    for (int k : {10, 16, 20})
      for (int d : {-1, 1}) s.push_back((std::int64_t{1} << k) + d);
  if (sanitize) {
    randoms = std::min(randoms, 1);
    max_random = std::min<std::int64_t>(max_random, std::int64_t{1} << 15);
  }
  std::uniform_int_distribution<std::int64_t> d(1, std::max<std::int64_t>(max_random, 2));
  for (int i = 0; i < randoms; ++i) s.push_back(d(rng()));
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  s.erase(std::remove_if(s.begin(), s.end(), [&](std::int64_t k) { return k > max_size; }), s.end());
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

/// Whether Op is one of the named built-in operators that reference_wide knows how to
/// evaluate in wide precision.
template <class Op>
constexpr bool has_wide_reference() {
  if constexpr (requires { Op::name; }) {
    const std::string_view n = Op::name;
    return n == "sum" || n == "prod" || n == "min" || n == "max";
  } else {
    return false;
  }
}

/// Reference scan in long double for floating types (sum, prod, min, max), for tolerance
/// comparisons. If `total` is given it receives the carry-out init . in[0] . ... . in[n-1].
/// Integers use the serial reference on their own type (exact).
template <class Op>
std::vector<long double> reference_wide(const std::vector<value_t<Op>>& in, Op, scan_kind kind,
                                        value_t<Op> init, long double* total = nullptr) {
  static_assert(has_wide_reference<Op>(), "reference_wide knows sum, prod, min and max only");
  using W = long double;
  const std::string_view name = Op::name;
  std::vector<W> out(in.size());
  auto run = [&](auto comb) {
    W acc = static_cast<W>(init);
    for (std::size_t i = 0; i < in.size(); ++i) {
      if (kind == scan_kind::exclusive) {
        out[i] = acc;
        acc = comb(acc, static_cast<W>(in[i]));
      } else {
        acc = comb(acc, static_cast<W>(in[i]));
        out[i] = acc;
      }
    }
    if (total) *total = acc;
  };
  if (name == "sum") run([](W a, W b) { return a + b; });
  else if (name == "prod") run([](W a, W b) { return a * b; });
  else if (name == "min") run([](W a, W b) { return b < a ? b : a; });
  else run([](W a, W b) { return a < b ? b : a; });
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

namespace detail {
enum class wide_op { sum, prod, exact };

/// The tolerance for one float item: products compound relative error per factor (k
/// factors so far), sums grow with the magnitudes seen, min and max are exact.
/// (log2_n: std::log2(n + 2.0), computed once per array.)
template <class T>
double item_tolerance(wide_op op, long double ref, double running_abs, std::int64_t k, double log2_n) {
  constexpr double eps = std::numeric_limits<T>::epsilon();
  const double r = std::abs(static_cast<double>(ref));
  if (op == wide_op::prod) return 8.0 * eps * r * static_cast<double>(k + 2);
  if (op == wide_op::sum) return 8.0 * eps * (r + running_abs) * log2_n;  // = float_tolerance
  return 0.0;
}

template <class T>
bool within(T got, long double ref, double tol) {
  // Exact agreement first: infinities (the min/max identities) compare equal but differ by NaN.
  return static_cast<long double>(got) == ref ||
         std::abs(static_cast<double>(got) - static_cast<double>(ref)) <= tol;
}
}  // namespace detail

/// Checks `got` against the serial reference (exact for integers and custom types, within
/// float_tolerance for floats with the built-in operators; other float monoids are compared
/// exactly with scan_serial, so use them only with exact operations such as max). With
/// `total`, also checks the carry-out. Returns a failure message for the first mismatch.
template <class Op>
::testing::AssertionResult matches_reference(const std::vector<value_t<Op>>& in,
                                             const std::vector<value_t<Op>>& got, Op op,
                                             scan_kind kind, value_t<Op> init,
                                             const value_t<Op>* total = nullptr) {
  using T = value_t<Op>;
  const auto n = static_cast<std::int64_t>(in.size());
  const char* kind_label = kind_name(kind);
  if (got.size() != in.size()) return ::testing::AssertionFailure() << "size mismatch";
  if constexpr (std::is_floating_point_v<T> && has_wide_reference<Op>()) {
    long double ref_total = 0;
    const auto ref = reference_wide(in, op, kind, init, &ref_total);
    const std::string_view name = Op::name;
    const auto wop = name == "sum" ? detail::wide_op::sum : name == "prod" ? detail::wide_op::prod
                                                                           : detail::wide_op::exact;
    const double log2_n = std::log2(static_cast<double>(n) + 2.0);
    double running_abs = std::abs(static_cast<double>(init));
    for (std::int64_t i = 0; i < n; ++i) {
      running_abs += std::abs(static_cast<double>(in[i]));
      const double tol = detail::item_tolerance<T>(wop, ref[i], running_abs, i, log2_n);
      if (!detail::within(got[i], ref[i], tol))
        return ::testing::AssertionFailure()
               << kind_label << " n=" << n << " first mismatch at " << i << ": got " << got[i]
               << ", reference " << static_cast<double>(ref[i]) << " (tolerance " << tol << ")";
    }
    if (total) {
      const double tol = detail::item_tolerance<T>(wop, ref_total, running_abs, n, log2_n);
      if (!detail::within(*total, ref_total, tol))
        return ::testing::AssertionFailure()
               << kind_label << " n=" << n << " total " << *total << ", reference "
               << static_cast<double>(ref_total) << " (tolerance " << tol << ")";
    }
  } else {
    std::vector<T> ref(in.begin(), in.end());  // copies: T need not be default-constructible
    const T ref_total = cpu::scan_serial(in.data(), ref.data(), n, op, kind, init);
    for (std::int64_t i = 0; i < n; ++i)
      if (!(got[i] == ref[i]))
        return ::testing::AssertionFailure() << kind_label << " n=" << n
                                             << " first mismatch at index " << i << " of " << n;
    if (total && !(*total == ref_total))
      return ::testing::AssertionFailure() << kind_label << " n=" << n
                                           << " carry-out differs from the reference";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace scankit::test
