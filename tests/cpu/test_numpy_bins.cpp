// numpy.histogram's even bins (scankit/histogram_numpy.hpp) against a reference of numpy's
// rule, written from its definition rather than the functors' arithmetic: the edges as
// numpy.linspace computes them (i * step + lower in double, or in float32 for float32 bounds;
// cast to the sample type for float samples, double for integer ones; the last edge is upper),
// and x in bin i when edges[i] <= x < edges[i+1], the last bin closed, by binary search over
// the edges with exact (long double) comparisons; NaN and samples outside [lower, upper] count
// nowhere. Random samples and every edge with its neighbours, float32 and float64 (and int32).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "common/test_util.hpp"
#include "scankit/histogram_numpy.hpp"

namespace {

using scankit::numpy_even_bins;
using scankit::numpy_even_bins_f32;

template <class T>
struct numpy_reference {
  using level = std::conditional_t<std::is_floating_point_v<T>, T, double>;
  int num_bins;
  level lo, hi;  // numpy counts samples in [lower, upper], compared in the bins' type
  std::vector<level> edges;

  numpy_reference(int nb, double lower, double upper, bool float_edges)
      : num_bins(nb), lo(static_cast<level>(lower)), hi(static_cast<level>(upper)), edges(nb + 1) {
    // numpy.linspace(lower, upper, nb + 1): step = (upper - lower) / nb, edge i = i * step + lower.
    const double step = (upper - lower) / nb;
    const float lower_f = static_cast<float>(lower);
    const float step_f = (static_cast<float>(upper) - lower_f) / static_cast<float>(nb);
    for (int i = 0; i < nb; ++i) {
      if (float_edges) {
        const float prod = static_cast<float>(i) * step_f;  // rounded to float, then added
        edges[i] = static_cast<level>(prod + lower_f);
      } else {
        const double prod = static_cast<double>(i) * step;
        edges[i] = static_cast<level>(prod + lower);
      }
    }
    edges[nb] = static_cast<level>(upper);
  }

  /// Whether the edges increase strictly: numpy's bins are the edge rule's only then.
  bool strict() const {
    for (std::size_t i = 0; i + 1 < edges.size(); ++i)
      if (!(edges[i] < edges[i + 1])) return false;
    return true;
  }

  int operator()(T x) const {
    const long double v = static_cast<long double>(static_cast<level>(x));
    if (!(v >= lo && v <= hi)) return -1;
    if (v == static_cast<long double>(hi)) return num_bins - 1;
    // The last edge <= v.
    const auto it = std::upper_bound(edges.begin(), edges.end(), v,
                                     [](long double a, level e) { return a < static_cast<long double>(e); });
    return static_cast<int>(it - edges.begin()) - 1;
  }
};

/// Samples that probe every bin: random ones over the range and a little beyond, every edge and
/// its neighbours, the bounds' neighbours outside, and NaN and the infinities (float samples).
template <class T>
std::vector<T> probes(const numpy_reference<T>& ref, double lower, double upper, int randoms) {
  using L = typename numpy_reference<T>::level;
  std::vector<T> s;
  auto& g = scankit::test::rng();
  const double w = upper - lower;
  std::uniform_real_distribution<double> d(lower - 0.1 * w, upper + 0.1 * w);
  for (int i = 0; i < randoms; ++i) {
    const double x = d(g);
    if constexpr (std::is_floating_point_v<T>) {
      s.push_back(static_cast<T>(x));
    } else if (x >= static_cast<double>(std::numeric_limits<T>::lowest()) &&
               x <= static_cast<double>(std::numeric_limits<T>::max())) {
      s.push_back(static_cast<T>(std::floor(x)));
    }
  }
  if constexpr (std::is_floating_point_v<T>) {
    constexpr T inf = std::numeric_limits<T>::infinity();
    for (const L e : ref.edges)
      for (const T x : {static_cast<T>(e), std::nextafter(static_cast<T>(e), -inf),
                        std::nextafter(static_cast<T>(e), inf)})
        s.push_back(x);
    s.insert(s.end(), {std::numeric_limits<T>::quiet_NaN(), -std::numeric_limits<T>::quiet_NaN(), inf, -inf,
                       T(0), T(-0.0), std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::max(),
                       std::numeric_limits<T>::lowest()});
  } else {
    for (const L e : ref.edges)
      for (const double x : {std::floor(e) - 1, std::floor(e), std::ceil(e), std::ceil(e) + 1})
        if (x >= static_cast<double>(std::numeric_limits<T>::lowest()) &&
            x <= static_cast<double>(std::numeric_limits<T>::max()))
          s.push_back(static_cast<T>(x));
    s.insert(s.end(), {std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max(), T(0)});
  }
  return s;
}

struct range {
  double lower, upper;
};

// Ranges of every scale, with and without exactly representable steps, and bin counts from one
// to past numpy_even_bins_f32's limit.
const range ranges[] = {{0, 1},       {-3.7, 12.1},       {0.1, 0.3},         {-1e3, 1e-3},
                        {1e6, 1e6 + 17.5}, {-1e30, 1e30}, {-0.0, 5},          {-7, -2},
                        {0, 255},     {-2147483648.0, 2147483647.0}};
const int bin_counts[] = {1, 2, 3, 10, 37, 100, 256, 1000, 4096, 65536, 65537};

template <class T>
void check_type() {
  const bool quick = scankit::test::quick();
  int f32_taken = 0, f32_cases = 0;
  for (const range r : ranges) {
    for (const int nb : bin_counts) {
      if (quick && nb > 4096) continue;
      for (const bool float_edges : {false, true}) {
        // numpy computes float32 edges only for float32 bounds, and so float32 samples.
        if (float_edges && !std::is_same_v<T, float>) continue;
        SCOPED_TRACE(::testing::Message() << "range [" << r.lower << ", " << r.upper << "] bins " << nb
                                          << (float_edges ? " float32 edges" : " double edges"));
        const numpy_reference<T> ref(nb, r.lower, r.upper, float_edges);
        if (!ref.strict()) continue;  // numpy's estimate-and-correct rule defines these bins only
        const auto exact = numpy_even_bins<T>::make(nb, r.lower, r.upper, float_edges);
        const auto samples = probes(ref, r.lower, r.upper, quick ? 200 : 2000);
        int bad = 0;
        for (const T x : samples) {
          const int want = ref(x);
          if (exact(x) != want && ++bad <= 5)
            ADD_FAILURE() << "numpy_even_bins: x=" << +x << " bin " << exact(x) << ", numpy's " << want;
        }
        const int flags = float_edges ? scankit::numpy_bins_float_edges : 0;
        for (const int extra : {0, scankit::numpy_bins_exact_only}) {
          scankit::with_numpy_bins<T>(nb, r.lower, r.upper, flags | extra, [&](const auto& bin_of) {
            for (const T x : samples)
              if (bin_of(x) != ref(x) && ++bad <= 5)
                ADD_FAILURE() << "with_numpy_bins (flags " << (flags | extra) << "): x=" << +x << " bin "
                              << bin_of(x) << ", numpy's " << ref(x);
          });
        }
        if constexpr (std::is_same_v<T, float>) {
          ++f32_cases;
          numpy_even_bins_f32 fast, cached;
          const bool made = numpy_even_bins_f32::make(exact, fast);
          EXPECT_EQ(numpy_even_bins_f32::make_cached(nb, r.lower, r.upper, float_edges, cached), made);
          if (nb > numpy_even_bins_f32::max_bins) {
            EXPECT_FALSE(made);
          }
          if (!made) continue;
          ++f32_taken;
          for (const T x : samples)
            if (fast(x) != ref(x) && ++bad <= 5)
              ADD_FAILURE() << "numpy_even_bins_f32: x=" << x << " bin " << fast(x) << ", numpy's " << ref(x);
#if defined(SCANKIT_NUMPY_BINS_SSE2)
          for (std::size_t i = 0; i + 4 <= samples.size(); ++i) {
            int b[4];
            if (!fast.fast4(samples.data() + i, b)) continue;
            for (int k = 0; k < 4; ++k)
              if (b[k] != ref(samples[i + k]) && ++bad <= 5)
                ADD_FAILURE() << "fast4: x=" << samples[i + k] << " bin " << b[k] << ", numpy's "
                              << ref(samples[i + k]);
          }
#endif
        }
      }
    }
  }
  // The float32 arithmetic must serve most of these ranges, or its checks above check nothing.
  if constexpr (std::is_same_v<T, float>) {
    EXPECT_GT(f32_taken, f32_cases / 2);
  }
}

TEST(NumpyBins, Float32) { check_type<float>(); }
TEST(NumpyBins, Float64) { check_type<double>(); }
TEST(NumpyBins, Int32) { check_type<std::int32_t>(); }

// numpy_even_bins_f32 refuses what it cannot bin as numpy does, rather than binning wrongly.
TEST(NumpyBins, Float32Refusals) {
  numpy_even_bins_f32 f;
  EXPECT_FALSE(numpy_even_bins_f32::make(numpy_even_bins<float>::make(numpy_even_bins_f32::max_bins + 1, 0, 1), f));
  EXPECT_FALSE(numpy_even_bins_f32::make(numpy_even_bins<float>::make(10, 1, 1), f));  // empty range
  EXPECT_FALSE(numpy_even_bins_f32::make(
      numpy_even_bins<float>::make(10, 0, std::numeric_limits<double>::infinity()), f));
  // Edges closer than a float apart: not strictly increasing.
  EXPECT_FALSE(numpy_even_bins_f32::make(numpy_even_bins<float>::make(1000, 1.0, 1.0 + 1e-5), f));
}

}  // namespace
