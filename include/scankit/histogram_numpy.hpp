// numpy.histogram's even bins as scankit bins functors (bin of a sample, or -1), for the CPU
// counting loops and the CUDA histogram kernels alike: the Python package's histogram_even.
//
// numpy defines the bins by their edges: edges = numpy.linspace(lower, upper, bins + 1), which
// computes edge i as i * step + lower (one multiplication, one addition, no fused multiply-add)
// and casts it to the bin type: the sample type for float samples, double for integer samples;
// the last edge is upper itself. linspace computes in double, or in float32 where numpy 2's
// promotion rules make it (float32 lower and upper, as numpy's own range of float32 samples):
// `float_edges` selects that arithmetic; the Python side checks which one numpy used. A sample
// counts when lower <= x <= upper and lies in bin i when edges[i] <= x < edges[i+1] (the last
// bin also takes x == upper). numpy estimates i as trunc((x - lower) * bins / (upper - lower))
// and corrects it by one against the edges; the same is done here, so every sample lands in
// numpy's bin.
//
// Host code that includes this header must not contract a * b + c into a fused multiply-add
// (GCC and Clang: -ffp-contract=off), or the edges round differently from numpy's; device code
// uses the explicitly rounded intrinsics.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "scankit/ops.hpp"  // SCANKIT_HD

#if defined(__SSE2__) && !defined(__CUDACC__)
#include <emmintrin.h>
#define SCANKIT_NUMPY_BINS_SSE2 1
#endif

namespace scankit {

template <class T>
struct numpy_even_bins {
  using level = std::conditional_t<std::is_floating_point_v<T>, T, double>;
  int num_bins = 1;
  bool float_edges = false;
  level lo{}, hi{};
  double lo_d = 0, step = 0, norm = 0;
  float lo_f = 0, step_f = 0;

  static numpy_even_bins make(int num_bins, double lower, double upper, bool float_edges = false) {
    numpy_even_bins b;
    b.num_bins = num_bins;
    b.float_edges = float_edges;
    b.lo = static_cast<level>(lower);
    b.hi = static_cast<level>(upper);
    b.lo_d = lower;
    b.step = (upper - lower) / num_bins;
    b.norm = num_bins / (upper - lower);
    b.lo_f = static_cast<float>(lower);
    b.step_f = (static_cast<float>(upper) - b.lo_f) / static_cast<float>(num_bins);
    return b;
  }

  SCANKIT_HD static double mul(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dmul_rn(a, b);
#else
    return a * b;  // no fused multiply-add: see the top of this file
#endif
  }
  SCANKIT_HD static double add(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
  }

  SCANKIT_HD static float mulf(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
  }
  SCANKIT_HD static float addf(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
  }

  SCANKIT_HD level edge(int i) const {
    if (i >= num_bins) return hi;
    if (float_edges) return static_cast<level>(addf(mulf(static_cast<float>(i), step_f), lo_f));
    return static_cast<level>(add(mul(static_cast<double>(i), step), lo_d));
  }

  /// numpy's first guess at the bin of an in-range sample, before the correction by one.
  SCANKIT_HD int estimate(level v) const {
    const double t = mul(static_cast<double>(v) - lo_d, norm);
    return t >= static_cast<double>(num_bins) ? num_bins - 1 : (t > 0 ? static_cast<int>(t) : 0);
  }

  SCANKIT_HD int operator()(T x) const {
    const level v = static_cast<level>(x);
    if (!(v >= lo && v <= hi)) return -1;  // NaN fails here
    int b = estimate(v);
    if (v < edge(b))
      --b;
    else if (b < num_bins - 1 && v >= edge(b + 1))
      ++b;
    return b < 0 ? 0 : b;
  }
};

/// The same bins for float32 samples, mostly in float32 arithmetic: t = (x - lo) * scale, two
/// float operations, and bin floor(t) wherever t's fractional part lies in [frac_lo, frac_hi];
/// only samples next to an edge (a fraction of the bins' width of about the rounding error of
/// t) take numpy_even_bins' arithmetic. numpy_even_bins spends about six double operations and
/// six conversions per sample, and GPUs convert at a fraction of their float rate: alone it
/// leaves the counting kernel bound by arithmetic, not by its reads. `make` derives the two bounds on the host from t at every edge, so that the float32 answer is
/// numpy's bin wherever it is taken, and refuses ranges where it would rarely be taken.
struct numpy_even_bins_f32 {
  int num_bins = 1;
  float lo = 0, hi = 1, scale = 1;
  float frac_lo = 0, frac_hi = 1;
  numpy_even_bins<float> exact;

  SCANKIT_HD float position(float x) const {
    return numpy_even_bins<float>::mulf(sub(x, lo), scale);
  }

  SCANKIT_HD int operator()(float x) const {
    if (!(x >= lo && x <= hi)) return -1;  // NaN fails here
    const float t = position(x);
    int b;
    const float whole = floor_small(t, b);
    const float frac = sub(t, whole);  // exact
    if (frac >= frac_lo && frac <= frac_hi) return b < num_bins - 1 ? b : num_bins - 1;
    return exact(x);
  }

#if defined(SCANKIT_NUMPY_BINS_SSE2)
  /// The bins of x[0..3] in b[0..3] when all four take the float32 answer of operator() (in
  /// range, fraction within the bounds), else false with b unspecified: the CPU counting loop
  /// then bins those four one by one. The same float32 operations as operator(), four at a
  /// time: in the scalar loop they and their branches cost several times the counting proper.
  bool fast4(const float* x, int* b) const {
    const __m128 v = _mm_loadu_ps(x);
    const __m128 in = _mm_and_ps(_mm_cmpge_ps(v, _mm_set1_ps(lo)), _mm_cmple_ps(v, _mm_set1_ps(hi)));
    const __m128 t = _mm_mul_ps(_mm_sub_ps(v, _mm_set1_ps(lo)), _mm_set1_ps(scale));
    // Truncation of t (never negative where the lane counts; NaN and out-of-range lanes fail
    // `in`): static_cast<int>, as floor_small does on the host.
    const __m128i whole = _mm_cvttps_epi32(t);
    const __m128 frac = _mm_sub_ps(t, _mm_cvtepi32_ps(whole));
    const __m128 ok = _mm_and_ps(in, _mm_and_ps(_mm_cmpge_ps(frac, _mm_set1_ps(frac_lo)),
                                                _mm_cmple_ps(frac, _mm_set1_ps(frac_hi))));
    if (_mm_movemask_ps(ok) != 0xF) return false;
    // min(whole, num_bins - 1), as operator() clamps x == hi into the last bin.
    const __m128i last = _mm_set1_epi32(num_bins - 1);
    const __m128i over = _mm_cmpgt_epi32(whole, last);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(b),
                     _mm_or_si128(_mm_and_si128(over, last), _mm_andnot_si128(over, whole)));
    return true;
  }
#endif

  /// floor(t) as a float, and as an int in b, for 0 <= t < 2^23 (t is never negative here: x
  /// >= lo): adding 2^23 rounded down leaves floor(t) in the low mantissa bits, a full-rate add
  /// where a conversion would run at a quarter of the rate.
  SCANKIT_HD static float floor_small(float t, int& b) {
#if defined(__CUDA_ARCH__)
    const float m = __fadd_rd(t, 8388608.0f);
    b = __float_as_int(m) - 0x4B000000;
    return __fsub_rn(m, 8388608.0f);
#else
    b = static_cast<int>(t);
    return static_cast<float>(b);
#endif
  }
  SCANKIT_HD static float sub(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
  }

  /// Most bins `make` takes (it evaluates t and numpy's estimate a few times per bin, on the
  /// host, once per range: make_cached).
  static constexpr int max_bins = 1 << 16;
  /// `make` refuses bounds that would send more than about a quarter of the samples to the
  /// double arithmetic.
  static constexpr double max_margin = 0.125;

  /// The float32 bins for ref's range, when they can be numpy's. Why the result is exact, with
  /// E[i] = ref.edge(i) and t(x) = position(x), both monotone in x:
  /// - numpy's bin of x is the i with E[i] <= x < E[i+1] (the last bin: x <= hi) when the edges
  ///   increase strictly and numpy's estimate is within one of that i (then its correction by
  ///   one against the edges lands on i). The estimate is monotone in x (a rounded
  ///   subtraction, a multiplication by a positive factor, truncation, clamping), so checking it
  ///   at both ends [E[i], prev(E[i+1])] of every bin checks it for every x.
  /// - floor(t(x)) = k with a fractional part >= frac_lo means t(x) >= k + frac_lo; every x <
  ///   E[i] has t(x) <= t(prev(E[i])) < i + frac_lo, so k >= i implies x >= E[i]. Likewise
  ///   t(E[i]) > i - 1 + frac_hi means k <= i - 1 with a fractional part <= frac_hi implies x <
  ///   E[i]. Together: x in [E[k], E[k+1]), numpy's bin k (clamped to the last bin at hi).
  static bool make(const numpy_even_bins<float>& ref, numpy_even_bins_f32& out) {
    const int nb = ref.num_bins;
    if (nb < 1 || nb > max_bins) return false;
    if (!(ref.lo < ref.hi) || !std::isfinite(ref.lo) || !std::isfinite(ref.hi)) return false;
    numpy_even_bins_f32 f;
    f.num_bins = nb;
    f.lo = ref.lo;
    f.hi = ref.hi;
    f.exact = ref;
    f.scale = static_cast<float>(static_cast<double>(nb) / (static_cast<double>(ref.hi) - ref.lo));
    if (!(f.scale > 0) || !std::isfinite(f.scale)) return false;
    // t stays below 2^23 for floor_small.
    if (!(static_cast<double>(f.position(ref.hi)) < 4194304.0)) return false;
    constexpr float down = -std::numeric_limits<float>::infinity();
    if (ref.edge(0) != ref.lo) return false;
    double below = -1.0, at = 2.0;  // max of t(prev(E[i])) - i, min of t(E[i]) - (i - 1)
    float begin = ref.lo;
    for (int i = 0; i < nb; ++i) {
      const float next = ref.edge(i + 1);
      if (!(next > begin)) return false;
      const float end = i + 1 == nb ? ref.hi : std::nextafter(next, down);
      for (const float x : {begin, end}) {
        const int e = ref.estimate(x);
        if (e < i - 1 || e > i + 1 || ref(x) != i) return false;
      }
      if (i + 1 < nb) {
        below = std::max(below, static_cast<double>(f.position(end)) - (i + 1));
        at = std::min(at, static_cast<double>(f.position(next)) - i);
      }
      begin = next;
    }
    // frac_lo: the smallest float above `below` (at least 0); frac_hi: the largest below `at`.
    float fl = std::max(0.0f, static_cast<float>(below));
    while (!(static_cast<double>(fl) > below)) fl = std::nextafter(fl, 2.0f);
    float fh = std::min(1.0f, static_cast<float>(at));
    while (!(static_cast<double>(fh) < at)) fh = std::nextafter(fh, -1.0f);
    if (fl > max_margin || fh < 1.0 - max_margin) return false;
    f.frac_lo = fl;
    f.frac_hi = fh;
    out = f;
    return true;
  }

  /// make() for numpy_even_bins<float>::make(num_bins, lower, upper, float_edges), remembering
  /// the last answer of this thread: a script calls histogram with one range again and again,
  /// and the check walks every bin.
  static bool make_cached(int num_bins, double lower, double upper, bool float_edges,
                          numpy_even_bins_f32& out) {
    struct entry {
      int num_bins = 0;
      double lower = 0, upper = 0;
      bool float_edges = false, ok = false;
      numpy_even_bins_f32 bins;
    };
    thread_local entry last;
    if (last.num_bins != num_bins || last.lower != lower || last.upper != upper ||
        last.float_edges != float_edges) {
      last = entry{};
      last.ok =
          make(numpy_even_bins<float>::make(num_bins, lower, upper, float_edges), last.bins);
      last.num_bins = num_bins;
      last.lower = lower;
      last.upper = upper;
      last.float_edges = float_edges;
    }
    out = last.bins;
    return last.ok;
  }
};

/// Flags of with_numpy_bins (the Python package's histogram_even mode bits, passed unchanged).
inline constexpr int numpy_bins_float_edges = 1;  // the edges in float32 arithmetic (numpy 2)
inline constexpr int numpy_bins_exact_only = 2;   // never numpy_even_bins_f32 (for tests)

/// Calls f(bin_of) with the functor that bins samples of type T as numpy.histogram with
/// `num_bins` bins over [lower, upper] does: numpy_even_bins_f32 for float samples where it
/// gives numpy's bins (and flags lack numpy_bins_exact_only), else numpy_even_bins<T>.
template <class T, class F>
void with_numpy_bins(int num_bins, double lower, double upper, int flags, F&& f) {
  const bool float_edges = (flags & numpy_bins_float_edges) != 0;
  if constexpr (std::is_same_v<T, float>) {
    numpy_even_bins_f32 fast;
    if ((flags & numpy_bins_exact_only) == 0 &&
        numpy_even_bins_f32::make_cached(num_bins, lower, upper, float_edges, fast)) {
      const numpy_even_bins_f32& bin_of = fast;
      f(bin_of);
      return;
    }
  }
  const auto bin_of = numpy_even_bins<T>::make(num_bins, lower, upper, float_edges);
  f(bin_of);
}

}  // namespace scankit
