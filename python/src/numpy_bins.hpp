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

#include <cstdint>
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

  SCANKIT_HD int operator()(T x) const {
    const level v = static_cast<level>(x);
    if (!(v >= lo && v <= hi)) return -1;  // NaN fails here
    const double t = mul(static_cast<double>(v) - lo_d, norm);
    int b = t >= static_cast<double>(num_bins) ? num_bins - 1 : (t > 0 ? static_cast<int>(t) : 0);
    if (v < edge(b))
      --b;
    else if (b < num_bins - 1 && v >= edge(b + 1))
      ++b;
    return b < 0 ? 0 : b;
  }
};

}  // namespace scankit::capi
