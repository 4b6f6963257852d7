// numpy.histogram's even bins as a scankit bins functor (bin of a sample, or -1), for the CPU
// histogram loop and the CUDA histogram kernels alike.
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
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "scankit/ops.hpp"  // SCANKIT_HD

namespace scankit::capi {

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
    return a * b;  // the translation unit is built with -ffp-contract=off
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

/// The same bins for float32 samples in float32 arithmetic alone: bin = min(B - 1,
/// floor((x - lo) * scale)), two float operations and a floor, where numpy_even_bins spends
/// about six double operations and six conversions per sample (conversions run at a quarter of
/// the float rate on the GPU, which left the counting kernel compute-bound at 2.4x the time
/// of a read). It is exact only for some ranges and bin counts, so `verify` checks it against
/// numpy_even_bins on the host and the caller keeps numpy_even_bins where it fails.
struct numpy_even_bins_f32 {
  int num_bins = 1;
  float lo = 0, hi = 1, scale = 1;

  SCANKIT_HD int operator()(float x) const {
    if (!(x >= lo && x <= hi)) return -1;  // NaN fails here
    const float t = numpy_even_bins<float>::mulf(sub(x, lo), scale);
    const int b = floor_small(t);
    return b < num_bins - 1 ? b : num_bins - 1;
  }

  /// floor(t) for 0 <= t < 2^23 (t is never negative here: x >= lo): adding 2^23 rounded
  /// down leaves floor(t) in the low mantissa bits, a full-rate add instead of a conversion.
  SCANKIT_HD static int floor_small(float t) {
#if defined(__CUDA_ARCH__)
    return __float_as_int(__fadd_rd(t, 8388608.0f)) - 0x4B000000;
#else
    return static_cast<int>(t);
#endif
  }
  SCANKIT_HD static float sub(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
  }

  /// Most bins `verify` checks (4 evaluations of each bin function per bin, on every call).
  static constexpr int max_bins = 1 << 16;

  /// Whether every float32 x counts in the same bin by `fast` as by `ref` (both -1 outside the
  /// range). Both are monotone step functions of x over [lo, hi] in the cases accepted here, so
  /// they agree everywhere when they agree at the two ends of every bin:
  /// - the edges E[i] = ref.edge(i) increase strictly, so the x with E[i] <= x < E[i+1] (the
  ///   last bin: E[B-1] <= x <= hi) form the interval [E[i], prev(E[i+1])];
  /// - ref's estimate is monotone (a rounded subtraction and multiplication by a positive
  ///   factor, truncated, clamped); within one of bin i at both ends of its interval, it is
  ///   within one of i inside it, and then ref's correction by one against the edges gives i;
  /// - fast is monotone likewise (float subtraction, multiplication by scale > 0, floor,
  ///   clamp): equal to i at both ends, it is i inside.
  static bool verify(const numpy_even_bins_f32& fast, const numpy_even_bins<float>& ref) {
    const int nb = ref.num_bins;
    if (nb < 1 || nb > max_bins || fast.num_bins != nb) return false;
    if (fast.lo != ref.lo || fast.hi != ref.hi || !(fast.scale > 0) || !std::isfinite(fast.scale))
      return false;
    if (!(ref.lo < ref.hi) || !std::isfinite(ref.lo) || !std::isfinite(ref.hi)) return false;
    // t = (x - lo) * scale must stay below 2^23 for floor_small.
    if (!(static_cast<double>(ref.hi - ref.lo) * fast.scale < 4194304.0)) return false;
    constexpr float down = -std::numeric_limits<float>::infinity();
    float begin = ref.lo;  // E[0] is lo itself
    if (ref.edge(0) != begin) return false;
    for (int i = 0; i < nb; ++i) {
      const float next = ref.edge(i + 1);
      if (!(next > begin)) return false;
      const float end = i + 1 == nb ? ref.hi : std::nextafter(next, down);
      if (!(end >= begin)) return false;
      for (const float x : {begin, end}) {
        const int e = ref.estimate(x);
        if (e < i - 1 || e > i + 1 || ref(x) != i || fast(x) != i) return false;
      }
      begin = next;
    }
    return true;
  }

  /// The float32 bins for ref's range, if one of a few scales near B / (hi - lo) gives exactly
  /// ref's bins (the nearest one nearly always does where the edges are exact in float32).
  static bool make(const numpy_even_bins<float>& ref, numpy_even_bins_f32& out) {
    numpy_even_bins_f32 f;
    f.num_bins = ref.num_bins;
    f.lo = ref.lo;
    f.hi = ref.hi;
    const float nearest = static_cast<float>(static_cast<double>(ref.num_bins) /
                                             (static_cast<double>(ref.hi) - ref.lo));
    if (!(nearest > 0) || !std::isfinite(nearest)) return false;
    float up = nearest, dn = nearest;
    for (int k = 0; k < 3; ++k) {
      for (const float s : {up, dn}) {
        f.scale = s;
        if (verify(f, ref)) {
          out = f;
          return true;
        }
      }
      up = std::nextafter(up, std::numeric_limits<float>::infinity());
      dn = std::nextafter(dn, 0.0f);
    }
    return false;
  }

  /// make() for numpy_even_bins<float>::make(num_bins, lower, upper, float_edges), remembering
  /// the last answer of this thread: a script calls histogram with one range again and again,
  /// and the check costs tens of microseconds for a thousand bins.
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

/// Bits of the C ABI's histogram_even mode.
inline constexpr int even_bins_float_edges = 1;  // the edges in float32 arithmetic (numpy 2)
inline constexpr int even_bins_exact_only = 2;   // never numpy_even_bins_f32 (for tests)

}  // namespace scankit::capi
