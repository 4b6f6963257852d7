// Helpers shared by the CUDA histogram test programs (test_cuda_histogram*.cu): device vectors,
// the sizes, and the GPU-against-reference check of histogram_even.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cuda_test_util.hpp"
#include "common/histogram_test_util.hpp"
#include "common/test_util.hpp"
#include "scankit/cpu/histogram.hpp"
#include "scankit/cuda/histogram.hpp"

namespace scankit::cuda {
inline void PrintTo(histogram_algorithm a, std::ostream* os) {
  *os << name(a);
}
inline void PrintTo(histogram_layout l, std::ostream* os) {
  *os << name(l);
}
}  // namespace scankit::cuda

namespace scankit::test::cuda_histogram {

namespace sk = scankit;
namespace skc = scankit::cuda;
using sk::test::quick;
using sk::test::sanitize_tier;
using skc::histogram_algorithm;

#define CUDA_OK(call) ASSERT_EQ((call), cudaSuccess) << #call

/// Device copy of a vector; freed on scope exit.
template <class T>
struct dvec {
  T* p = nullptr;
  std::size_t n = 0;
  explicit dvec(std::size_t count, std::size_t pad = 0) : n(count) {
    if (cudaMalloc(&p, (count + pad) * sizeof(T) + 16) != cudaSuccess)
      throw std::runtime_error("cudaMalloc");
  }
  dvec(const std::vector<T>& v, std::size_t offset = 0) : dvec(v.size() + offset) {
    if (!v.empty() && cudaMemcpy(p + offset, v.data(), v.size() * sizeof(T),
                                 cudaMemcpyHostToDevice) != cudaSuccess)
      throw std::runtime_error("cudaMemcpy");
  }
  ~dvec() { cudaFree(p); }
  std::vector<T> get(std::size_t count, std::size_t offset = 0) const {
    std::vector<T> v(count);
    if (count &&
        cudaMemcpy(v.data(), p + offset, count * sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess)
      throw std::runtime_error("cudaMemcpy");
    return v;
  }
};

/// Whether the algorithm can hold this many bins (shared-* keep 4 bytes per bin per block).
inline bool supports(histogram_algorithm a, std::int64_t bins) {
  try {
    skc::plan_histogram(bins, 1, {a});
    return true;
  } catch (const sk::invalid_argument&) {
    return false;
  }
}

/// Small sizes (every bin class): 0, 1, 2, tile +- 1 for the tiles of the kernels, primes,
/// 2^k +- 1; and a large random size, drawn afresh for each bin class that takes one.
inline std::vector<std::int64_t> small_sizes() {
  return sk::test::test_sizes({512 * 2 * 16, 256 * 2 * 4}, quick() ? 20000 : 70000, 2,
                              quick() ? 40000 : 70000);
}
/// (The sanitize tier: 50,000 to 100,000, still many blocks of every kernel.)
inline std::int64_t large_size() {
  const std::int64_t lo = sanitize_tier() ? 50000 : quick() ? 100000 : 1000000;
  std::uniform_int_distribution<std::int64_t> d(lo, 2 * lo);
  return d(sk::test::rng());
}

template <class T, class C>
void check_even(const skc::histogram_options& opts, std::int64_t bins, std::int64_t n, int variant,
                std::size_t offset) {
  const auto c = sk::test::pick_range<T>(bins, variant);
  const auto v = sk::test::random_samples<T>(n, c.lower, c.upper);
  std::vector<C> want(static_cast<std::size_t>(bins));
  sk::cpu::histogram_even_serial(v.data(), n, want.data(), bins, c.lower, c.upper);
  dvec<T> d_in(v, offset);
  dvec<C> d_counts(static_cast<std::size_t>(bins));
  cudaMemset(d_counts.p, 0xA5, bins * sizeof(C));  // not zeroed: the call must zero it
  skc::histogram_even(d_in.p + offset, n, d_counts.p, bins, c.lower, c.upper, nullptr, opts);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto got = d_counts.get(static_cast<std::size_t>(bins));
  ASSERT_EQ(got, want) << "n=" << n << " bins=" << bins << " variant=" << variant
                       << " offset=" << offset << " [" << c.lower << ", " << c.upper << ")";
}

/// check_even with what `variant` picks: 32- and 64-bit counters in turn, and on every third
/// variant an input 1 to 7 items past the allocation's alignment.
template <class T>
void check_even_variant(const skc::histogram_options& opts, std::int64_t bins, std::int64_t n, int variant) {
  const std::size_t offset = static_cast<std::size_t>(variant % 3 == 2 ? variant % 7 + 1 : 0);
  if (variant % 2 == 0) check_even<T, std::uint32_t>(opts, bins, n, variant, offset);
  else check_even<T, std::uint64_t>(opts, bins, n, variant, offset);
}

}  // namespace scankit::test::cuda_histogram
